// Browser tests of what a new user meets first (issue 21): vertex colours, a model without blend
// weights, a clip that ends and plays again, framing over the whole clip, clip names from
// .framegroups comments, skins to choose. Models: the project's generated examples
// (scripts/make-examples.mjs) and real files of ../shared/assets. Screenshots: test-output/browser/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { smallIqmDocument } from '../helpers/model-writers';
import { loadAsset, loadGenerated, menuClick, still, type PageGlobals, openSession, pixelStats, screenshotPath, setToggles, settle, skipReason, type Session } from './harness';

const skip = skipReason();
let s: Session;
let examples = '';

before(async () => {
  if (skip) return;
  examples = mkdtempSync(join(tmpdir(), 'iqm-examples-'));
  const made = spawnSync(process.execPath, ['scripts/make-examples.mjs', examples], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  s = await openSession();
});
after(async () => {
  if (s) await s.close();
  if (examples) rmSync(examples, { recursive: true, force: true });
});

test('vertex colours are drawn (the cube of make-examples), and the toggle turns them off', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'coloured-cube.iqm', readFileSync(join(examples, 'coloured-cube.iqm'))), 'ready');
  await still(s.page);
  assert.equal(await s.page.getAttribute('#tool-colors', 'aria-pressed'), 'true');
  const coloured = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('vertex-colours-cube') });
  await setToggles(s.page, { colors: false });
  const plain = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('vertex-colours-off') });
  await setToggles(s.page, { colors: true, textures: false });
  const untextured = await pixelStats(s.page);
  await setToggles(s.page, { textures: true });
  // Chroma of the mean colour: the faces' red, green, blue, yellow... against the grey checker.
  const chroma = (m: [number, number, number]) => Math.max(...m) - Math.min(...m);
  assert.ok(coloured.covered > 0.05, `the cube covers ${coloured.covered}`);
  assert.ok(coloured.colours > plain.colours, `${coloured.colours} colours with vertex colours, ${plain.colours} without`);
  assert.ok(chroma(untextured.mean) > 25 || untextured.colours > 40, `untextured cube mean ${untextured.mean.map((x) => x.toFixed(0))}`);
  // A model without colours offers no toggle that looks on.
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { waitTextures: false }), 'ready');
  assert.equal(await s.page.$eval('#tool-colors', (b) => (b as unknown as { disabled: boolean }).disabled), true);
  assert.equal(await s.page.getAttribute('#tool-colors', 'aria-pressed'), 'false');
});

test('a model whose vertices have no blend weights is drawn lit, not a magenta silhouette; the info panel says what engines do', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'unweighted.iqm', readFileSync(join(examples, 'unweighted.iqm'))), 'ready');
  await still(s.page, 0);
  const st = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('unweighted-lit') });
  const [r, g, b] = st.mean;
  assert.ok(st.covered > 0.03, `covers ${st.covered}`);
  assert.ok(!(r > 1.5 * g && b > 1.5 * g), `mean colour ${st.mean.map((x) => x.toFixed(0))} is not magenta`);
  assert.ok(st.colours > 12, `${st.colours} colours: shaded, not flat`);
  assert.match((await s.page.textContent('#info')) ?? '', /unweighted vertices55 \(all: the meshes have no blend weights\): in engines' GPU skinning it collapses to the origin/);
});

test('a clip that does not loop ends with the restart button, and Play plays it again from the first frame', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'skinned-tube.iqm', readFileSync(join(examples, 'skinned-tube.iqm'))), 'ready');
  // "twist" (15 frames at 15 fps) does not loop.
  const twist = await s.page.$$eval('#clip option', (o) => o.find((x) => (x.textContent ?? '').startsWith('twist'))?.getAttribute('value') ?? '');
  assert.ok(Number(twist) >= 0, twist);
  await s.page.selectOption('#clip', twist);
  assert.equal(await s.page.getAttribute('#loop', 'aria-pressed'), 'false');
  await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.setPlaying(true));
  await s.page.waitForSelector('#play[data-state="ended"]', { timeout: 10000 });
  assert.match((await s.page.textContent('#frame')) ?? '', /\(15\/15\)/);
  assert.match((await s.page.getAttribute('#play', 'title')) ?? '', /Play again/);
  await s.page.screenshot({ path: screenshotPath('clip-ended') });
  await s.page.click('#play');
  assert.equal(await s.page.getAttribute('#play', 'data-state'), 'playing');
  const time = await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.state.time as number);
  assert.ok(time < 0.5, `restarted at ${time} s`);
  await s.page.waitForSelector('#play[data-state="ended"]', { timeout: 10000 });
});

test('a model drawn too slowly to animate (frames of 0.9 s) stops animating and says why; Play animates it anyway', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'skinned-tube.iqm', readFileSync(join(examples, 'skinned-tube.iqm'))), 'ready');
  // A clip that loops (one that ends would stop by itself).
  const looping = await s.page.$$eval('#clip option', (o) => o.find((x) => /^(bend|wave)/.test(x.textContent ?? ''))?.getAttribute('value') ?? '');
  assert.ok(Number(looping) >= 0, looping);
  await s.page.selectOption('#clip', looping);
  if ((await s.page.getAttribute('#loop', 'aria-pressed')) !== 'true') await s.page.click('#loop');
  await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.setPlaying(true));
  assert.equal(await s.page.getAttribute('#play', 'data-state'), 'playing');
  assert.ok(await s.page.isHidden('#notice'));
  // Frames as a software rasteriser draws 2.5 M triangles: animation frame times 900 ms apart.
  const slowFrames = () =>
    s.page.evaluate(() => {
      const w = globalThis as unknown as { requestAnimationFrame(f: (t: number) => void): number; __fastRaf?: unknown };
      const raf = w.requestAnimationFrame.bind(w);
      w.__fastRaf = raf;
      let late = 0;
      w.requestAnimationFrame = (f) => raf((t) => f(t + (late += 900)));
    });
  const fastFrames = () =>
    s.page.evaluate(() => {
      const w = globalThis as unknown as { requestAnimationFrame: unknown; __fastRaf?: unknown };
      w.requestAnimationFrame = w.__fastRaf;
    });
  await slowFrames();
  try {
    await s.page.waitForSelector('#notice:not(.hidden)', { timeout: 10000 });
    assert.equal(await s.page.getAttribute('#play', 'data-state'), 'paused');
    assert.match((await s.page.textContent('#notice')) ?? '', /Stopped animating: each frame took about 0\.9 s to draw.*Play to animate anyway/);
    // The slow run's median: the 900 ms added to the page's own frame interval.
    const frameMs = Number(await s.page.getAttribute('#viewer', 'data-slow-frames'));
    assert.ok(frameMs >= 900 && frameMs < 1000, String(frameMs));
    await s.page.screenshot({ path: screenshotPath('slow-frames-stopped') });
    // The user plays it again: it animates, slow frames or not, and the notice goes.
    await s.page.click('#play');
    await s.page.waitForSelector('#notice.hidden', { state: 'attached', timeout: 5000 });
    await s.page.waitForTimeout(1500);
    assert.equal(await s.page.getAttribute('#play', 'data-state'), 'playing');
  } finally {
    await fastFrames();
  }
  // Another model: the notice goes (and the model is watched afresh: test/unit/slow-frames).
  assert.equal(await loadGenerated(s, 'bending-pyramid.md3', readFileSync(join(examples, 'bending-pyramid.md3'))), 'ready');
  assert.ok(await s.page.isHidden('#notice'));
});

test('the host plays a clip by name and highlights a joint (playClip, highlight messages)', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'skinned-tube.iqm', readFileSync(join(examples, 'skinned-tube.iqm'))), 'ready');
  const post = (m: unknown) => s.page.evaluate((msg) => (globalThis as unknown as PageGlobals).postMessage(msg, '*'), m);
  const state = () => s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.state as { clip: number; playing: boolean; selectedJoint: number; skeleton: boolean });
  await post({ type: 'playClip', name: 'twist', play: false });
  await s.page.waitForFunction(() => ((globalThis as unknown as PageGlobals).iqmPreview.state.playing as boolean) === false);
  const twist = await s.page.$$eval('#clip option', (o) => o.find((x) => (x.textContent ?? '').startsWith('twist'))?.getAttribute('value') ?? '');
  assert.equal(String((await state()).clip), twist);
  assert.equal(await s.page.inputValue('#clip'), twist);
  // A name the model does not have: nothing changes, the info panel says so.
  await post({ type: 'playClip', name: 'no-such-clip', play: true });
  await s.page.waitForFunction("/no clip named no-such-clip/.test(document.getElementById('info')?.textContent ?? '')");
  assert.equal(String((await state()).clip), twist);
  await post({ type: 'highlight', target: { kind: 'joint', joint: 1 } });
  await s.page.waitForSelector('#viewer[data-highlight="joint:1"]');
  const after = await state();
  assert.equal(after.selectedJoint, 1);
  assert.equal(after.skeleton, true);
  await post({ type: 'highlight', target: null });
  await s.page.waitForSelector('#viewer[data-highlight=""]');
});

test('framing covers the whole clip: the fitted box holds every frame\'s bounds', { skip }, async () => {
  assert.equal(await loadAsset(s, 'dpm/nexuiz/grunt.dpm', { waitTextures: false }), 'ready');
  const names = await s.page.$$eval('#clip option', (o) => o.map((x) => x.textContent ?? ''));
  // .framegroups lines name their clips in comments (`// grunt_anim1`): those names are listed.
  assert.ok(names.some((n) => n.startsWith('grunt_anim1 ')), names.slice(0, 4).join(', '));
  assert.ok(!names.some((n) => n.startsWith('groupified_')), names.slice(0, 4).join(', '));
  const check = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { selectClip(c: number): void; fitCamera(): void; currentScene: { model: { bounds: Float32Array } }; clips: { firstFrame: number; frameCount: number }[]; state: { clip: number } };
    const g = globalThis as unknown as { document: { getElementById(id: string): { dataset: Record<string, string> } } };
    const worst: string[] = [];
    for (let c = 0; c < v.clips.length; c++) {
      v.selectClip(c);
      v.fitCamera();
      const fit = g.document.getElementById('viewer').dataset.fit.split(',').map(Number);
      const clip = v.clips[c];
      const b = v.currentScene.model.bounds;
      for (let f = clip.firstFrame; f < clip.firstFrame + clip.frameCount; f++) {
        for (let i = 0; i < 3; i++) {
          if (b[f * 8 + i] < fit[i] - 1e-3 || b[f * 8 + 3 + i] > fit[3 + i] + 1e-3) worst.push(`clip ${c} frame ${f} axis ${i}`);
        }
      }
    }
    return worst;
  });
  assert.deepEqual(check.slice(0, 5), []);
  // Follow: the camera's target goes with the animated model (the current frame's bounds).
  await menuClick(s.page, 'follow');
  const targets = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { selectClip(c: number): void; setPlaying(p: boolean): void; renderFrame(): void; state: { time: number }; camera: { target: Float64Array | Float32Array } };
    v.selectClip(0);
    v.setPlaying(false);
    const at = (t: number) => {
      v.state.time = t;
      v.renderFrame();
      return Array.from(v.camera.target);
    };
    return [at(0), at(1.5)];
  });
  await menuClick(s.page, 'follow');
  assert.notDeepEqual(targets[0], targets[1], `the target stays at ${targets[0]}`);
});

test('skins: every .skin beside the model is offered, and choosing one loads its textures', { skip }, async () => {
  // A second skin as a modder writes one (grunt.dpm_1.skin): the same surface, another image.
  const second = { name: 'grunt.dpm_1.skin', text: 'SHADER0,textures/missing_grunt_red\n' };
  assert.equal(await loadAsset(s, 'dpm/nexuiz/grunt.dpm', { extraSkins: [second] }), 'ready');
  const skins = await s.page.$$eval('#skin option', (o) => o.map((x) => (x as unknown as { value: string }).value));
  assert.ok(skins.length >= 3, `skins offered: ${skins.join(', ')}`);
  assert.deepEqual(skins, ['', 'grunt.dpm_0.skin', 'grunt.dpm_1.skin']);
  const other = 'grunt.dpm_1.skin';
  const before = await s.page.getAttribute('#viewer', 'data-skin');
  await s.page.click('#more');
  await s.page.selectOption('#skin', other);
  await s.page.keyboard.press('Escape');
  await s.page.waitForSelector('#viewer[data-textures="done"]');
  assert.equal(await s.page.getAttribute('#viewer', 'data-skin'), other);
  assert.equal(before, 'grunt.dpm_0.skin');
  // Its image is not there: the info panel says which skin named it.
  assert.match((await s.page.textContent('#info')) ?? '', /textures from grunt\.dpm_1\.skin/);
  await settle(s.page);
  await s.page.screenshot({ path: screenshotPath(`skin-${other}`) });
});

test('views and camera: front, side, top, orthographic, unlit, background colour', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm'), 'ready');
  await still(s.page);
  const lit = await pixelStats(s.page);
  await menuClick(s.page, 'lit');
  const unlit = await pixelStats(s.page);
  await menuClick(s.page, 'lit');
  const bright = (m: [number, number, number]) => m[0] + m[1] + m[2];
  assert.ok(bright(unlit.mean) > bright(lit.mean), `unlit ${bright(unlit.mean).toFixed(0)} brighter than lit ${bright(lit.mean).toFixed(0)}`);
  for (const view of ['front', 'side', 'top']) {
    await menuClick(s.page, `view-${view}`);
    const st = await pixelStats(s.page);
    assert.ok(st.covered > 0.02, `${view}: covers ${st.covered}`);
    await s.page.screenshot({ path: screenshotPath(`view-${view}`) });
  }
  const top = await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.state);
  await menuClick(s.page, 'ortho');
  const ortho = await pixelStats(s.page);
  assert.equal((await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.state)).ortho, true);
  assert.ok(ortho.covered > 0.02, `orthographic covers ${ortho.covered}`);
  await s.page.screenshot({ path: screenshotPath('view-top-ortho') });
  await menuClick(s.page, 'ortho');
  assert.equal(top.ortho, false);
  // Auto-rotate turns the camera by itself.
  const yaw = () => s.page.evaluate(() => ((globalThis as unknown as PageGlobals).iqmPreview as unknown as { camera: { yaw: number } }).camera.yaw);
  const yaw0 = await yaw();
  await menuClick(s.page, 'autoRotate');
  await s.page.waitForTimeout(600);
  const yaw1 = await yaw();
  await menuClick(s.page, 'autoRotate');
  assert.ok(Math.abs(yaw1 - yaw0) > 0.05, `yaw ${yaw0} -> ${yaw1}`);
  await s.page.click('#more');
  await s.page.$eval('#background', (e) => {
    const input = e as unknown as { value: string; dispatchEvent(ev: unknown): void };
    input.value = '#ffffff';
    input.dispatchEvent(new (globalThis as unknown as { Event: new (t: string) => unknown }).Event('input'));
  });
  await s.page.keyboard.press('Escape');
  await settle(s.page);
  const white = await s.page.evaluate(() => {
    const gl = (globalThis as unknown as PageGlobals).document.getElementById('view')?.getContext('webgl2');
    const px = new Uint8Array(4);
    gl?.readPixels(1, 1, 1, 1, 0x1908, 0x1401, px);
    return Array.from(px);
  });
  assert.deepEqual(white.slice(0, 3), [255, 255, 255]);
  await s.page.screenshot({ path: screenshotPath('background-white') });
  await s.page.click('#more');
  await s.page.click('#menu .link-button');
  await s.page.keyboard.press('Escape');
});

test('export image: the button posts the view as a PNG to the host', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { waitTextures: false }), 'ready');
  const before = s.messages.length;
  await menuClick(s.page, 'screenshot');
  await s.page.waitForFunction((n) => (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'saveImage').length > n, 0);
  const saved = await s.page.evaluate(() => {
    const m = (globalThis as unknown as { __posted: { type: string; name: string; png: ArrayBuffer }[] }).__posted.filter((x) => x.type === 'saveImage').pop();
    return m ? { name: m.name, head: Array.from(new Uint8Array(m.png).slice(0, 8)), size: m.png.byteLength } : null;
  });
  assert.ok(saved);
  assert.equal(saved.name, 'mrfixit.png');
  assert.deepEqual(saved.head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(saved.size > 2000);
  assert.ok(s.messages.length > before);
});

test('IQE compile errors: with a model drawn the badge names the failing version and links to the line; without one the error view does', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'unweighted.iqm', readFileSync(join(examples, 'unweighted.iqm'))), 'ready');
  await s.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    g.postMessage({ type: 'compileState', state: 'failed', version: 12, unsaved: true, problem: { message: 'Face index resolves to vertex 7', line: 40, column: 6, count: 2 } }, '*');
  });
  await settle(s.page);
  // A binary model has no compiled source: the failure of a text shows as the error view.
  assert.equal(await s.page.getAttribute('#viewer', 'data-state'), 'error');
  await s.page.click('.source-link');
  await s.page.waitForFunction(() => (globalThis as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'openSource'));
  const open = await s.page.evaluate(() => (globalThis as unknown as { __posted: { type: string; line: number; column: number }[] }).__posted.filter((m) => m.type === 'openSource').pop());
  assert.deepEqual(open, { type: 'openSource', line: 40, column: 6 });
  await s.page.screenshot({ path: screenshotPath('iqe-error-view-link') });
});

test('a model whose only surfaces are nodraw shows its skeleton (not an empty grid)', { skip }, async () => {
  const doc = smallIqmDocument();
  doc.meshes = doc.meshes.map((m) => ({ ...m, material: 'textures/common/nodraw' }));
  assert.equal(await loadGenerated(s, 'nodraw.iqm', writeIqmDocument(doc)), 'ready');
  assert.equal(await s.page.getAttribute('#tool-skeleton', 'aria-pressed'), 'true');
  assert.match((await s.page.textContent('#info')) ?? '', /no surface is drawn \(nodraw or no triangles\): the skeleton and tags show the model/);
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.fitCamera();
    v.changed();
  });
  await setToggles(s.page, { grid: false });
  const st = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('nodraw-skeleton') });
  assert.ok(st.covered > 0.0005, `the skeleton is drawn: ${st.covered}`);
  // The surfaces themselves are not drawn (no grey checker): what shows is the skeleton's yellow and white.
  const [r, g, b] = st.mean;
  assert.ok(r > b && g > b * 0.8, `mean ${st.mean.map((x) => x.toFixed(0))}`);
  await setToggles(s.page, { grid: true });
});

test('nodraw surfaces stay hidden after a lost WebGL context is restored', { skip }, async () => {
  const doc = smallIqmDocument();
  // The body quad is nodraw; the head mesh is one degenerate triangle: nothing of the model is drawn.
  doc.meshes = doc.meshes.map((m, i) => (i === 0 ? { ...m, material: 'textures/common/nodraw' } : m));
  assert.equal(await loadGenerated(s, 'nodraw-restored.iqm', writeIqmDocument(doc)), 'ready');
  await still(s.page);
  const before = await pixelStats(s.page);
  assert.equal(before.covered, 0, `nothing drawn before the context is lost: ${before.covered}`);
  await s.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const ext = g.document.getElementById('view')?.getContext('webgl2').getExtension('WEBGL_lose_context');
    if (!ext) throw new Error('WEBGL_lose_context is missing');
    (g as unknown as { __lose: typeof ext }).__lose = ext;
    ext.loseContext();
  });
  await s.page.waitForSelector('#viewer[data-state="context-lost"]');
  await s.page.evaluate(() => (globalThis as unknown as { __lose: { restoreContext(): void } }).__lose.restoreContext());
  await s.page.waitForSelector('#viewer[data-state="ready"]');
  await still(s.page);
  const after = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('nodraw-context-restored') });
  assert.equal(after.covered, 0, `the nodraw surface is drawn after the restore: ${after.covered}`);
  await setToggles(s.page, { grid: true });
});

test('an error view keeps a long file name inside its box', { skip }, async () => {
  const name = `${'a-very-long-model-file-name-'.repeat(8)}.iqm`;
  assert.equal(await loadGenerated(s, name, new Uint8Array([0x49, 0x4e, 0x54, 0x45, 0x52, 0x51, 0x55, 0x41, 0x4b, 0x45, 0x4d, 0x4f, 0x44, 0x45, 0x4c, 0, 2, 0, 0, 0])), 'error');
  const boxes = await s.page.evaluate(() => {
    const g = globalThis as unknown as { document: { querySelector(q: string): { getBoundingClientRect(): { left: number; right: number }; scrollWidth: number; clientWidth: number } } };
    const view = g.document.querySelector('.error-view');
    const stage = g.document.querySelector('.stage');
    return { view: view.getBoundingClientRect(), stage: stage.getBoundingClientRect(), overflow: view.scrollWidth - view.clientWidth };
  });
  await s.page.screenshot({ path: screenshotPath('error-long-name') });
  assert.ok(boxes.view.left >= boxes.stage.left && boxes.view.right <= boxes.stage.right + 0.5, JSON.stringify(boxes));
  assert.ok(boxes.overflow <= 1, `the text is ${boxes.overflow}px wider than its box`);
});

test('Q3 shader blending: an additive stage adds to what is behind it, an opaque one covers it', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'coloured-cube.iqm', readFileSync(join(examples, 'coloured-cube.iqm'))), 'ready');
  await still(s.page);
  await setToggles(s.page, { colors: false, grid: false });
  // A 2 x 2 dark grey uncompressed 24-bit TGA (the texture a shader stage names).
  const tga = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0x20, ...Array(12).fill(70)];
  const draw = async (blend: string | null) => {
    await s.page.evaluate(
      async ({ tga, blend }) => {
        const g = globalThis as unknown as PageGlobals & { iqmPreview: { generation: number } };
        const bytes = new Uint8Array(tga).buffer;
        const results = [{ key: '0', via: 'test shader', tried: [], twoSided: true, alphaTest: null, blend, source: { kind: 'bytes', bytes, mime: 'image/x-tga', path: 'fx.tga' } }];
        g.postMessage({ type: 'textures', generation: g.iqmPreview.generation, results }, '*');
      },
      { tga, blend },
    );
    await s.page.waitForTimeout(300);
    await settle(s.page);
    return pixelStats(s.page);
  };
  const opaque = await draw(null);
  const additive = await draw('add');
  await s.page.screenshot({ path: screenshotPath('shader-additive') });
  const bright = (m: [number, number, number]) => m[0] + m[1] + m[2];
  // The background's colour is added in: brighter than the same texture drawn opaque.
  assert.ok(bright(additive.mean) > bright(opaque.mean) + 20, `additive ${bright(additive.mean).toFixed(0)}, opaque ${bright(opaque.mean).toFixed(0)}`);
  await setToggles(s.page, { colors: true, grid: true });
});

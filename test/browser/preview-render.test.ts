// Browser tests: the built webview bundle renders real models in headless Chromium (WebGL2 on
// SwiftShader); pixels are read back, GPU-skinned positions (transform feedback) are compared with
// the CPU reference (`iqm-tools sample`), screenshots go to test-output/browser/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readModel } from '../../core/formats/models';
import { sampleModel } from '../../cli/sample';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { smallIqmDocument } from '../helpers/model-writers';
import { ASSETS, loadAsset, loadGenerated, menuClick, still, type PageGlobals, openSession, pixelStats, screenshotPath, setToggles, settle, skipReason, type Session } from './harness';

const skip = skipReason();
if (skip) process.stdout.write(`# ${skip}\n`);
let s: Session;

before(async () => {
  if (!skip) s = await openSession();
});
after(async () => {
  if (s) await s.close();
});

/** Loads, hides grid/overlays, pauses at the bind pose or a frame, and returns the pixel stats. */
async function renderStill(rel: string, shot: string, clip = -1) {
  const state = await loadAsset(s, rel);
  assert.equal(state, 'ready', `${rel} should load`);
  await still(s.page, clip);
  await setToggles(s.page, { textures: true });
  const stats = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath(shot) });
  return stats;
}

function assertModelVisible(stats: Awaited<ReturnType<typeof pixelStats>>, what: string, minCovered = 0.03) {
  assert.ok(stats.covered > minCovered, `${what}: the model covers ${(stats.covered * 100).toFixed(1)}% of the canvas`);
  assert.ok(stats.covered < 0.95, `${what}: the canvas is not one uniform colour`);
  assert.ok(stats.colours > 20, `${what}: ${stats.colours} distinct colours (textured and lit, not flat)`);
  // Fitted camera: the model sits around the centre.
  const cx = (stats.box[0] + stats.box[2]) / 2, cy = (stats.box[1] + stats.box[3]) / 2;
  assert.ok(Math.abs(cx - 0.5) < 0.2 && Math.abs(cy - 0.5) < 0.2, `${what}: model centred (box ${stats.box.map((x) => x.toFixed(2)).join(',')})`);
}

test('WebGL2 runs on SwiftShader in the harness', { skip }, async () => {
  const renderer = await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.rendererInfo);
  assert.notEqual(renderer, 'none');
});

test('IQM mrfixit renders textured (Body.tga, Head.tga decoded in core)', { skip }, async () => {
  const stats = await renderStill('iqm/mrfixit/mrfixit.iqm', 'mrfixit-bind');
  assertModelVisible(stats, 'mrfixit');
  const info = await s.page.textContent('#info');
  assert.match(info ?? '', /Body\.tga/);
  assert.doesNotMatch(info ?? '', /not found \(checker\)/);
});

test('MD3 oa_soldier upper.md3 renders with its .skin texture', { skip }, async () => {
  const stats = await renderStill('md3/oa_soldier/upper.md3', 'md3-upper');
  assertModelVisible(stats, 'upper.md3');
  const info = await s.page.textContent('#info');
  assert.match(info ?? '', /upper\.md3_0\.skin/);
});

test('DPM grunt renders with grunt.dpm_0.skin', { skip }, async () => {
  const stats = await renderStill('dpm/nexuiz/grunt.dpm', 'dpm-grunt');
  assertModelVisible(stats, 'grunt.dpm');
});

test("winding: each format's front faces survive back-face culling; flipping the winding shows the inside", { skip }, async () => {
  for (const rel of ['iqm/mrfixit/mrfixit.iqm', 'dpm/nexuiz/grunt.dpm', 'md3/watercan/watercan.md3']) {
    const right = await renderStill(rel, `winding-file-${rel.split('/').pop()}`);
    await menuClick(s.page, 'winding');
    assert.equal(await s.page.getAttribute('#menu-winding', 'aria-checked'), 'true');
    const flipped = await pixelStats(s.page);
    await s.page.screenshot({ path: screenshotPath(`winding-flipped-${rel.split('/').pop()}`) });
    await menuClick(s.page, 'winding');
    // With the wrong winding culled, what remains is the inside of the far side, whose normals point
    // away from the camera and the light: the same silhouette, much darker.
    const brightness = (st: typeof right) => st.mean[0] + st.mean[1] + st.mean[2];
    assert.ok(brightness(right) > brightness(flipped) * 1.2, `${rel}: file winding brightness ${brightness(right).toFixed(0)}, flipped ${brightness(flipped).toFixed(0)}`);
  }
});

test('MD3 with a Q3 shader script (kubalwagon) resolves the first stage image', { skip }, async () => {
  const stats = await renderStill('md3/kubalwagon/european_fnt_v2.md3', 'md3-kubalwagon');
  assertModelVisible(stats, 'kubalwagon', 0.01);
  const info = await s.page.textContent('#info');
  assert.match(info ?? '', /european_fnt\.tga/);
  // Its textured surfaces draw fewer images than there are surfaces (4 and 2): one GPU texture per
  // image, shared by the surfaces that draw it.
  const textures = await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.textureStats());
  assert.ok(textures.textured > textures.images, `surfaces share images: ${JSON.stringify(textures)}`);
  assert.equal(textures.textures, textures.images, `one texture per image: ${JSON.stringify(textures)}`);
});

/** GPU-skinned positions at `frames` vs the CPU reference (cli/sample.ts sampleModel). */
async function compareSkinning(rel: string, frames: number[]) {
  assert.equal(await loadAsset(s, rel, { waitTextures: false }), 'ready');
  const model = readModel(new Uint8Array(readFileSync(join(ASSETS, rel))));
  for (const frame of frames) {
    const gpu = await s.page.evaluate((f) => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(f)), frame);
    const ref = sampleModel(model, frame);
    assert.ok(typeof ref !== 'string', String(ref));
    assert.equal(gpu.length, ref.positions.length, `${rel} frame ${frame}: vertex count`);
    let worst = 0, at = -1;
    for (let i = 0; i < gpu.length; i++) {
      const d = Math.abs(gpu[i] - ref.positions[i]);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    assert.ok(worst <= 1e-3, `${rel} frame ${frame}: max |gpu - cpu| = ${worst} at component ${at}`);
    // And the frame is not trivially the bind pose everywhere (animation really moved vertices).
    if (frame > 0) assert.ok(gpu.some((x) => Number.isFinite(x)), 'finite output');
  }
}

test('GPU skinning equals the CPU reference within 1e-3: mrfixit.iqm', { skip }, async () => {
  await compareSkinning('iqm/mrfixit/mrfixit.iqm', [-1, 0, 17, 50, 100]);
});

test('GPU skinning equals the CPU reference within 1e-3: grunt.dpm (exact per-influence origins)', { skip }, async () => {
  await compareSkinning('dpm/nexuiz/grunt.dpm', [0, 1, 120, 300, 440]);
});

test('GPU morphing equals the CPU reference within 1e-3: upper.md3', { skip }, async () => {
  await compareSkinning('md3/oa_soldier/upper.md3', [0, 5, 100, 217]);
});

test('GPU skinning equals the CPU reference: raylib guy.iqm (PNG texture) and ld36_bird.iqm', { skip }, async () => {
  await compareSkinning('iqm/raylib_guy/guy.iqm', [-1, 0, 30, 121]);
  await compareSkinning('iqm/excessive/ld36_bird.iqm', [0, 10]);
});

test('an invalid file shows an error view with the byte offset, not a blank panel', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/invalid/InvalidMeshOffset.iqm'), 'error');
  const text = await s.page.textContent('.error-view');
  assert.match(text ?? '', /mesh/i);
  assert.match((await s.page.textContent('#error-offset')) ?? '', /at byte \d+/);
  await s.page.screenshot({ path: screenshotPath('error-invalid-mesh-offset') });
  assert.equal(await loadAsset(s, 'iqm/invalid/erebus_lfs_pointer.iqm'), 'error');
  assert.match((await s.page.textContent('.error-view')) ?? '', /Git LFS pointer/);
  await s.page.screenshot({ path: screenshotPath('error-lfs-pointer') });
});

test('a mislabeled file (MD3 named .iqm) opens by its magic bytes', { skip }, async () => {
  const stats = await renderStill('iqm/mislabeled/rtzsentry.iqm', 'mislabeled-rtzsentry');
  assert.ok(stats.covered > 0.01);
  assert.equal(await s.page.getAttribute('#viewer', 'data-format'), 'md3');
  assert.match((await s.page.textContent('#info')) ?? '', /named \.iqm but its content is MD3/);
});

test('overlays: skeleton, weights heat map and wireframe draw; screenshots', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm'), 'ready');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(0);
    // A joint that moves vertices: the first influence of the body's first vertex.
    const scene = (v as unknown as { currentScene: { layout: { meshes: { joints: Uint16Array }[] } } }).currentScene;
    v.selectJoint(scene.layout.meshes[0].joints[0]);
  });
  await setToggles(s.page, { grid: true, skeleton: true, weights: true, wireframe: false });
  const weights = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('mrfixit-weights-skeleton') });
  assert.ok(weights.covered > 0.03);
  await setToggles(s.page, { weights: false, skeleton: false, wireframe: true, textures: false });
  await s.page.screenshot({ path: screenshotPath('mrfixit-wireframe') });
  await setToggles(s.page, { wireframe: false, textures: true, normals: true });
  await s.page.screenshot({ path: screenshotPath('mrfixit-normals') });
  await setToggles(s.page, { normals: false, bounds: true });
  await s.page.screenshot({ path: screenshotPath('mrfixit-bounds') });
  await setToggles(s.page, { bounds: false, skeleton: true });
  // Hovering a joint shows its name; clicking selects it.
  const spot = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { pick(x: number, y: number): number; canvas: { clientWidth: number; clientHeight: number } };
    for (let y = 0; y < v.canvas.clientHeight; y += 6) {
      for (let x = 0; x < v.canvas.clientWidth; x += 6) {
        const j = v.pick(x, y);
        if (j > 0) return { x, y, j };
      }
    }
    return null;
  });
  assert.ok(spot, 'some joint is on screen');
  const canvasBox = await s.page.locator('#view').boundingBox();
  assert.ok(canvasBox);
  await s.page.mouse.move(canvasBox.x + spot.x, canvasBox.y + spot.y);
  await s.page.waitForSelector('#label:not(.hidden)');
  const label = (await s.page.textContent('#label')) ?? '';
  assert.match(label, new RegExp(`^${spot.j}: \\S`), label);
  await s.page.mouse.click(canvasBox.x + spot.x, canvasBox.y + spot.y);
  const selected = await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.state.selectedJoint);
  assert.equal(selected, spot.j);
  await s.page.screenshot({ path: screenshotPath('mrfixit-joint-hover') });
  await setToggles(s.page, { skeleton: false });
});

test('view state survives a page reload (vscode.setState)', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { waitTextures: false }), 'ready');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.selectClip(0);
    v.selectJoint(5);
    v.setPlaying(false);
    v.persist();
  });
  await setToggles(s.page, { wireframe: true });
  // Orbit the camera by dragging; it must come back after the reload.
  const box = await s.page.locator('#view').boundingBox();
  assert.ok(box);
  await s.page.mouse.move(box.x + 200, box.y + 200);
  await s.page.mouse.down();
  await s.page.mouse.move(box.x + 260, box.y + 230, { steps: 4 });
  await s.page.mouse.up();
  const before = await s.page.evaluate(() => JSON.stringify((globalThis as unknown as PageGlobals).iqmPreview.state.camera));
  await s.page.reload();
  await s.page.waitForSelector('#viewer');
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { reload: true, waitTextures: false }), 'ready');
  const st = await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.state);
  assert.equal(st.selectedJoint, 5);
  assert.equal(st.playing, false);
  assert.equal(st.wireframe, true);
  assert.equal(st.clip, 0);
  assert.equal(JSON.stringify(st.camera), before, 'camera restored');
  assert.notEqual(before, 'null');
  await setToggles(s.page, { wireframe: false });
  await settle(s.page);
});

test('WebGL context loss shows a message, and the model comes back on restore', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm'), 'ready');
  await s.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const gl = g.document.getElementById('view')?.getContext('webgl2');
    const ext = gl?.getExtension('WEBGL_lose_context');
    if (!ext) throw new Error('WEBGL_lose_context is missing');
    (g as unknown as { __lose: typeof ext }).__lose = ext;
    ext.loseContext();
  });
  await s.page.waitForSelector('#viewer[data-state="context-lost"]');
  assert.match((await s.page.textContent('#status')) ?? '', /context was lost/);
  await s.page.screenshot({ path: screenshotPath('context-lost') });
  await s.page.evaluate(() => (globalThis as unknown as { __lose: { restoreContext(): void } }).__lose.restoreContext());
  await s.page.waitForSelector('#viewer[data-state="ready"]');
  await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.setPlaying(false));
  await setToggles(s.page, { grid: false });
  const stats = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('context-restored') });
  assertModelVisible(stats, 'after restore');
});

test('timeline: scrubbing shows the frame number and moves the model; the clip plays when started', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { waitTextures: false }), 'ready');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.selectClip(0);
    v.setPlaying(false);
  });
  await s.page.locator('#timeline').fill('0');
  await settle(s.page);
  const at0 = await s.page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(0)));
  await s.page.locator('#timeline').fill('40');
  await settle(s.page);
  assert.match((await s.page.textContent('#frame')) ?? '', /^frame 40 \(41\/101\) 24 fps/);
  const at40 = await s.page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(40)));
  assert.ok(at0.some((x, i) => Math.abs(x - at40[i]) > 1e-3), 'frame 40 differs from frame 0');
  await s.page.click('#play');
  await s.page.waitForFunction(() => {
    const el = (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('frame');
    return !!el && !/^frame 40 /.test(el.textContent);
  });
  await s.page.click('#play');
});

test('MD3 tags are drawn as axes; Quake 3 animation.cfg clips are listed', { skip }, async () => {
  assert.equal(await loadAsset(s, 'md3/oa_soldier/upper.md3'), 'ready');
  await setToggles(s.page, { grid: false, tags: true });
  await s.page.screenshot({ path: screenshotPath('md3-upper-tags') });
  const options = await s.page.$$eval('#clip option', (o) => o.map((x) => x.textContent ?? ''));
  assert.ok(options.some((o) => o.startsWith('TORSO_GESTURE')), options.join(', '));
  assert.ok(options.some((o) => o.startsWith('BOTH_DEATH1')));
});

test('IQE text compiled by the host is previewed with the version it came from (rocket.iqe, tank.iqe with its PNG)', { skip }, async () => {
  const rocket = await renderStill('iqe/unvanquished/rocket.iqe', 'iqe-rocket');
  assert.ok(rocket.covered > 0.01, `rocket covers ${rocket.covered}`);
  assert.equal(await s.page.getAttribute('#viewer', 'data-format'), 'iqm');
  assert.match((await s.page.textContent('#info')) ?? '', /compiled from the IQE text \(editor version 1\)/);
  assert.match((await s.page.textContent('#source')) ?? '', /version 1 · compiled in \d+ ms/);
  assert.equal(await s.page.getAttribute('#viewer', 'data-source-version'), '1');
  const tank = await renderStill('iqe/love-und-panzer/tank.iqe', 'iqe-tank');
  assert.ok(tank.covered > 0.02, `tank covers ${tank.covered}`);
});

test('an animation-only IQM (no meshes, no joints) shows its poses as a skeleton', { skip }, async () => {
  // "none" chosen in the picker: the animation file alone.
  assert.equal(await loadAsset(s, 'iqm/raylib_guy/guyanim.iqm', { partner: '' }), 'ready');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(1);
    v.fitCamera();
  });
  await s.page.locator('#timeline').fill('20');
  await setToggles(s.page, { grid: false, skeleton: true });
  const stats = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('iqm-animation-only') });
  assert.ok(stats.covered > 0.0005, 'skeleton lines are drawn');
  assert.match((await s.page.textContent('#info')) ?? '', /animation-only/);
  assert.equal(await s.page.inputValue('#partner-select'), '');
});

test('an animation-only IQM plays on the mesh of its folder with the same skeleton (guyanim.iqm on guy.iqm)', { skip }, async () => {
  // guy.iqm playing its own clips: the reference.
  assert.equal(await loadAsset(s, 'iqm/raylib_guy/guy.iqm', { waitTextures: false }), 'ready');
  const own = await s.page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(80)));
  // The picker offers guyanim.iqm's clips to guy.iqm; none is used until chosen.
  assert.equal(await s.page.textContent('#partner .partner-label'), 'Clips from');
  assert.equal(await s.page.inputValue('#partner-select'), '');

  // guyanim.iqm: 14 poses and no joints; guy.iqm is the only model of the folder with 14 joints.
  assert.equal(await loadAsset(s, 'iqm/raylib_guy/guyanim.iqm', { waitTextures: false }), 'ready');
  assert.equal(await s.page.getAttribute('#viewer', 'data-partner'), 'guy.iqm');
  assert.equal(await s.page.textContent('#partner .partner-label'), 'Mesh from');
  assert.equal(await s.page.inputValue('#partner-select'), 'guy.iqm');
  assert.match((await s.page.textContent('#partner-select option:checked')) ?? '', /the only fit/);
  assert.match((await s.page.textContent('#info')) ?? '', /mesh from guy\.iqm/);
  const borrowed = await s.page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(80)));
  assert.equal(borrowed.length, own.length);
  let worst = 0;
  for (let i = 0; i < own.length; i++) worst = Math.max(worst, Math.abs(own[i] - borrowed[i]));
  assert.ok(worst < 1e-3, `GPU-skinned frame 80 differs from guy.iqm's own by ${worst}`);
  const rest = await s.page.evaluate(() => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(61)));
  assert.ok(rest.some((x, i) => Math.abs(x - borrowed[i]) > 1e-2), 'frames 61 and 80 differ: the mesh animates');

  // A still on the dance, the skeleton over the mesh with a joint's name on hover.
  const names = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(1);
    v.fitCamera();
    return (v as unknown as { currentScene: { names: string[] } }).currentScene.names;
  });
  assert.ok(!names[0].startsWith('pose '), `joint names from guy.iqm: ${names[0]}`);
  await s.page.locator('#timeline').fill('20');
  await setToggles(s.page, { grid: true, skeleton: true });
  const hovered = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { pick(x: number, y: number): number; canvas: { clientWidth: number; clientHeight: number } };
    // Scan the view for a point over a joint.
    for (let y = 0; y < v.canvas.clientHeight; y += 4) for (let x = 0; x < v.canvas.clientWidth; x += 4) if (v.pick(x, y) >= 0) return { x, y };
    return null;
  });
  assert.ok(hovered, 'a joint is under some point of the view');
  const box = await s.page.locator('#view').boundingBox();
  assert.ok(box);
  await s.page.mouse.move(box.x + hovered.x, box.y + hovered.y);
  await s.page.waitForSelector('#label:not(.hidden)');
  assert.match((await s.page.textContent('#label')) ?? '', /^\d+: \S/);
  const stats = await pixelStats(s.page);
  assert.ok(stats.covered > 0.02, `the mesh covers ${stats.covered} of the view`);
  await s.page.screenshot({ path: screenshotPath('iqm-animation-mesh-from') });

  // Choosing "none" asks the host to remember it (the host then loads again).
  await s.page.selectOption('#partner-select', '');
  const posted = await s.page.evaluate(() => (globalThis as unknown as { __posted: { type: string; name?: string }[] }).__posted.filter((m) => m.type === 'choosePartner'));
  assert.deepEqual(posted.at(-1), { type: 'choosePartner', name: '' });
});

test('Quake 3 player: lower/upper/head.md3 assemble through tag_torso and tag_head with animation.cfg', { skip }, async () => {
  assert.equal(await loadAsset(s, 'md3/oa_soldier/lower.md3'), 'ready');
  assert.equal(await s.page.$eval('button[title^="Assemble"]', (b) => b.classList.contains('hidden')), false, 'the Player button is offered');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(-1);
    v.fitCamera();
  });
  await setToggles(s.page, { grid: false, tags: false, skeleton: false });
  const alone = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('md3-player-lower-alone') });
  await s.page.click('button[title^="Assemble"]');
  await s.page.waitForSelector('#viewer[data-textures="done"]');
  await settle(s.page);
  // Wait for the other parts' textures (requested after the click).
  await s.page.waitForFunction(() => (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'textureRequest').length >= 2);
  await new Promise((r) => setTimeout(r, 500));
  const standing = (await s.page.$$eval('#clip option', (o) => o.map((x) => x.textContent ?? ''))).find((o) => o.startsWith('TORSO_STAND')) ?? '';
  await s.page.selectOption('#clip', { label: standing });
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.fitCamera();
    v.changed();
  });
  await settle(s.page);
  const player = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('md3-player-assembled') });
  // The info panel describes the three parts, not only the opened legs.
  const parts = await s.page.$$eval('#info [data-part]', (e) => e.map((x) => x.textContent ?? ''));
  assert.equal(parts.length, 3, parts.join(' | '));
  assert.match(parts[0], /^lower: lower\.md3 \(opened\) \d+ surfaces, \d+ vertices.*tags: .*tag_torso/);
  assert.match(parts[1], /^upper: upper\.md3 \d+ surfaces.*tags: .*tag_head/);
  assert.match(parts[2], /^head: head\.md3 \d+ surfaces.*surfaces: h_face, h_hairs/);
  assert.match((await s.page.textContent('#info')) ?? '', /Player: 3 parts, \d+ vertices/);
  assert.ok(player.covered > 0.03 && alone.covered > 0.01);
  // In model units: the standing player (legs + torso + head) is much taller than the legs alone.
  const heights = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { player: { box(out: Float64Array): void }; currentScene: { box: Float64Array } };
    const b = new Float64Array(6);
    v.player.box(b);
    return { player: b[5] - b[2], legs: v.currentScene.box[5] - v.currentScene.box[2] };
  });
  assert.ok(heights.player > heights.legs * 1.3, `player ${heights.player.toFixed(1)} units tall, legs ${heights.legs.toFixed(1)}`);
  // Quake 3 plays a torso clip and a legs clip at once: two lists.
  const torso = await s.page.$$eval('#clip option', (o) => o.map((x) => x.textContent ?? ''));
  const legs = await s.page.$$eval('#legs-clip option', (o) => o.map((x) => x.textContent ?? ''));
  assert.ok(torso.some((o) => o.startsWith('TORSO_STAND')) && torso.some((o) => o.startsWith('BOTH_DEATH1')), torso.join(', '));
  assert.ok(!torso.some((o) => o.startsWith('LEGS_')), torso.join(', '));
  assert.ok(legs.some((o) => o.startsWith('LEGS_IDLE')) && legs.some((o) => o.startsWith('LEGS_RUN')), legs.join(', '));
  assert.equal(await s.page.isVisible('#legs-clip'), true);
  // Two menus beside the 480 px of the view: the bar takes rows so that both stay readable.
  const widths = await s.page.$$eval('.controls select', (e) => e.map((x) => Math.round(x.getBoundingClientRect().width)));
  assert.ok(widths[0] >= 110 && widths[1] >= 110 && widths[2] >= 40, `torso, legs and speed menus ${widths.join(', ')} px wide`);
  // A legs clip with the torso's: the legs run while the torso gestures.
  await s.page.selectOption('#clip', { label: torso.find((o) => o.startsWith('TORSO_GESTURE')) ?? '' });
  await s.page.selectOption('#legs-clip', { label: legs.find((o) => o.startsWith('LEGS_RUN')) ?? '' });
  await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.setPlaying(false));
  await s.page.locator('#timeline').fill('5');
  await settle(s.page);
  const playing = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { player: { parts: { part: string; clip: number }[]; clips: { name: string }[] } };
    return Object.fromEntries(v.player.parts.map((p) => [p.part, v.player.clips[p.clip]?.name ?? 'none']));
  });
  assert.deepEqual(playing, { lower: 'LEGS_RUN', upper: 'TORSO_GESTURE', head: 'none' });
  await s.page.screenshot({ path: screenshotPath('md3-player-legs-run') });
  await s.page.click('button[title^="Assemble"]');
});

test('generated IQM: FTE_EVENT markers on the timeline, unweighted vertices highlighted magenta, GPU = CPU', { skip }, async () => {
  const bytes = writeIqmDocument(smallIqmDocument());
  assert.equal(await loadGenerated(s, 'small.iqm', bytes), 'ready');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(1); // "wave": FTE_EVENT anim 1 at 0.5 s
    v.fitCamera();
    v.changed();
  });
  await setToggles(s.page, { grid: false, skeleton: false, textures: false, cull: false });
  assert.equal(await s.page.locator('.markers .marker').count(), 1, 'one event marker');
  assert.match((await s.page.getAttribute('.markers .marker', 'title')) ?? '', /footstep left/);
  const magentaPixels = () =>
    s.page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      const gl = g.document.getElementById('view')?.getContext('webgl2');
      if (!gl) return 0;
      const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
      const px = new Uint8Array(w * h * 4);
      gl.readPixels(0, 0, w, h, 0x1908, 0x1401, px);
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] > 200 && px[i + 1] < 60 && px[i + 2] > 200) n++;
      return n;
    });
  // The model is drawn lit as it is; only the Weights view marks the vertex that no joint moves.
  assert.equal(await magentaPixels(), 0, 'no magenta outside the Weights view');
  await setToggles(s.page, { weights: true });
  const magenta = await magentaPixels();
  await s.page.screenshot({ path: screenshotPath('iqm-generated-unweighted') });
  assert.ok(magenta > 50, `${magenta} magenta pixels for the unweighted vertex`);
  await setToggles(s.page, { weights: false });
  assert.match((await s.page.textContent('#info')) ?? '', /unweighted vertices1: in engines' GPU skinning it collapses to the origin \(FTE binds it to joint 0\); the preview keeps it at its bind position/);
  const model = readModel(bytes);
  for (const frame of [-1, 0, 1, 2, 3]) {
    const gpu = await s.page.evaluate((f) => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(f)), frame);
    const ref = sampleModel(model, frame);
    assert.ok(typeof ref !== 'string');
    gpu.forEach((x, i) => assert.ok(Math.abs(x - ref.positions[i]) <= 1e-3, `frame ${frame} component ${i}: ${x} vs ${ref.positions[i]}`));
  }
  await setToggles(s.page, { textures: true, cull: true });
});

test('more than 256 joints: a 300-joint IQM skins on the GPU exactly as on the CPU (joint texture rows)', { skip }, async () => {
  const J = 300, V = 900;
  const joints = Array.from({ length: J }, (_, j) => ({ name: `j${j}`, parent: j === 0 ? -1 : (j - 1) >> 1, trs: new Float32Array([0, 0.05, 0.01, 0, 0, 0, 1, 1, 1, 1]) }));
  const poses = joints.map((jt) => ({ parent: jt.parent, mask: 0x3ff, offset: new Float32Array([-0.1, -0.1, -0.1, -1, -1, -1, -1, 0.9, 0.9, 0.9]), scale: new Float32Array([0.2 / 65535, 0.2 / 65535, 0.2 / 65535, 2 / 65535, 2 / 65535, 2 / 65535, 2 / 65535, 0.2 / 65535, 0.2 / 65535, 0.2 / 65535]) }));
  const F = 3;
  const frames = new Uint16Array(F * J * 10).map((_, i) => (i * 2654435761) % 65536);
  const tris: number[] = [];
  for (let i = 0; i + 2 < V; i += 3) tris.push(i, i + 1, i + 2);
  const bytes = writeIqmDocument({
    version: 2, flags: 0, vertexCount: V,
    meshes: [{ name: 'm', material: 'm', firstVertex: 0, vertexCount: V, firstTriangle: 0, triangleCount: tris.length / 3 }],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: new Float32Array(V * 3).map((_, i) => ((i * 37) % 101) / 50 - 1), offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 5, size: 4, data: new Uint32Array(V * 4).map((_, i) => (i * 53 + (i >> 2) * 7) % J), offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 7, size: 4, data: new Float32Array(V * 4).map((_, i) => [0.4, 0.3, 0.2, 0.1][i % 4]), offset: 0 },
    ],
    triangles: Uint32Array.from(tris), adjacency: null, joints, poses,
    anims: [{ name: 'all', firstFrame: 0, frameCount: F, framerate: 10, flags: 1 }],
    frameCount: F, frameChannels: J * 10, frames, bounds: null, comment: '', extensions: [],
  });
  assert.equal(await loadGenerated(s, 'joints300.iqm', bytes), 'ready');
  const model = readModel(bytes);
  assert.equal(model.skeleton?.names.length, J);
  // Vertices really use joints beyond 255.
  assert.ok(Array.from(model.meshes[0].blendIndices ?? []).some((j) => j >= 256));
  for (const frame of [-1, 0, 2]) {
    const gpu = await s.page.evaluate((f) => Array.from((globalThis as unknown as PageGlobals).iqmPreview.captureFrame(f)), frame);
    const ref = sampleModel(model, frame);
    assert.ok(typeof ref !== 'string');
    let worst = 0;
    gpu.forEach((x, i) => (worst = Math.max(worst, Math.abs(x - ref.positions[i]))));
    assert.ok(worst <= 1e-3, `frame ${frame}: max |gpu - cpu| = ${worst}`);
  }
});

/** The little of a DOM element that the layout test reads. */
interface LaidOut {
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number; width: number; height: number };
  scrollWidth: number;
  clientWidth: number;
  id: string;
  selectedIndex: number;
  options: ArrayLike<{ text: string }>;
  querySelectorAll(selector: string): ArrayLike<LaidOut>;
}

/** The page's globals the layout test reads (canvas text measuring, computed styles). */
interface LayoutGlobals {
  innerWidth: number;
  getComputedStyle(e: LaidOut): { font: string; paddingLeft: string; paddingRight: string };
  document: { querySelector(selector: string): LaidOut; createElement(tag: 'canvas'): { getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } } };
}

test('narrow panels: the info panel goes below the view, the toolbar stays one row and the playback bar wraps with its menus readable', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { waitTextures: false }), 'ready');
  // 420 px is about a third of a 1280 px window (a three-way split); 220 px the narrowest editor VS Code allows.
  for (const width of [800, 560, 420, 300, 250, 220]) {
    await s.page.setViewportSize({ width, height: 600 });
    await settle(s.page);
    await settle(s.page);
    const layout = await s.page.evaluate(() => {
      const g = globalThis as unknown as LayoutGlobals;
      const info = g.document.querySelector('.info');
      const controls = g.document.querySelector('.controls');
      const row = g.document.querySelector('.tool-row');
      const more = g.document.querySelector('#more');
      // Every element of the controls ends inside the view.
      const rightmost = Math.max(...Array.from(controls.querySelectorAll('*')).map((e) => e.getBoundingClientRect().right));
      // Each shown menu of the bar: the room its text has, and the width of the selected option's text.
      const pen = g.document.createElement('canvas').getContext('2d');
      const menus = Array.from(controls.querySelectorAll('select')).filter((e) => e.getBoundingClientRect().width > 0).map((e) => {
        const style = g.getComputedStyle(e);
        pen.font = style.font;
        const text = e.options[e.selectedIndex]?.text ?? '';
        // The drop-down arrow takes some 12-16 px beside the padding.
        const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 12;
        return { id: e.id, text, room, needs: pen.measureText(text).width };
      });
      return {
        view: g.innerWidth, info: info.getBoundingClientRect(), stage: g.document.querySelector('.stage').getBoundingClientRect(),
        controls: controls.getBoundingClientRect(), row: row.getBoundingClientRect(), more: more.getBoundingClientRect(),
        infoOverflow: info.scrollWidth - info.clientWidth, rightmost, menus, slider: g.document.querySelector('#timeline').getBoundingClientRect().width,
      };
    });
    await s.page.screenshot({ path: screenshotPath(`narrow-${width}`) });
    const narrow = width < 620;
    assert.ok(layout.info.right <= layout.view + 0.5, `${width}px: info panel ends at ${layout.info.right}`);
    if (narrow) {
      // Below the view and the controls, as wide as the editor: the 3D view keeps the full width.
      assert.ok(layout.info.top >= layout.controls.bottom - 0.5, `${width}px: info starts at ${layout.info.top}, controls end at ${layout.controls.bottom}`);
      assert.ok(layout.stage.width >= width - 1, `${width}px: the view is ${layout.stage.width}px wide`);
    } else {
      assert.ok(layout.stage.right <= layout.info.left + 0.5, `${width}px: stage ends at ${layout.stage.right}, info starts at ${layout.info.left}`);
    }
    assert.ok(layout.infoOverflow <= 1, `${width}px: info panel content is ${layout.infoOverflow}px wider than the panel`);
    assert.ok(layout.rightmost <= layout.stage.right + 0.5, `${width}px: controls end at ${layout.rightmost}, the stage at ${layout.stage.right}`);
    // One row where it holds the menus readably; else the menus first, then the slider and the rest.
    if (layout.controls.width >= 480) assert.ok(layout.controls.height < 40, `${width}px: the controls are one row (${layout.controls.height}px high)`);
    else {
      assert.ok(layout.controls.height < 100, `${width}px: the controls are at most three rows (${layout.controls.height}px high)`);
      assert.ok(layout.slider >= 60, `${width}px: the slider is ${layout.slider}px wide`);
    }
    assert.deepEqual(layout.menus.map((m) => m.id), ['clip', 'speed'], `${width}px: the clip and speed menus are shown`);
    for (const m of layout.menus) assert.ok(m.room >= m.needs - 0.5, `${width}px: #${m.id} has ${m.room.toFixed(0)}px for "${m.text}", which needs ${m.needs.toFixed(0)}px`);
    assert.ok(layout.row.height < 34, `${width}px: the toolbar is one row (${layout.row.height}px high)`);
    assert.ok(layout.more.right <= layout.stage.right + 0.5, `${width}px: the more button ends at ${layout.more.right}`);
    const overflow = Number(await s.page.getAttribute('.toolbar', 'data-overflow'));
    if (width <= 300) assert.ok(overflow > 0, `${width}px: some buttons moved into the menu`);
    else assert.equal(overflow, 0, `${width}px: every button fits`);
  }
  // The buttons that did not fit are in the menu, and work from there.
  await s.page.click('#more');
  const rows = await s.page.$$eval('#menu [data-menu]:not(.hidden)', (e) => e.map((x) => x.getAttribute('data-menu')));
  assert.ok(rows.length > 0);
  await s.page.screenshot({ path: screenshotPath('narrow-220-menu') });
  await s.page.keyboard.press('Escape');
  await s.page.setViewportSize({ width: 800, height: 600 });
});

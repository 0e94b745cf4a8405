// `iqm-tools view` in a real browser (Chromium through playwright-core): the CLI serves the
// examples (made by scripts/make-examples.mjs) and real models of ../shared/assets; each is
// switched to in the page's list, read back as pixels (drawn, textured where it has textures,
// animating while it plays), Compare shows two, a changed file is drawn again, and the server
// refuses what is not the models' (a path outside them, a request without the token).
// IQM_VIEW_DOCS=1 also writes the README's picture, docs/screenshots/view.png (Compare on the
// generated examples only: no third-party content).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { httpGet } from '../helpers/http';
import { join } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { ASSETS, CHROMIUM, CHROMIUM_ARGS, REPO, type PageGlobals, pixelStats, screenshotPath, skipReason, startView, still } from './harness';

const skip = skipReason();
const work = mkdtempSync(join(tmpdir(), 'iqm-view-test-'));
const examples = join(work, 'examples');
/** A model the test overwrites (reload on change): a copy, never a file of the examples or assets. */
const changing = join(work, 'changing', 'model.iqm');

/** The models served, in the page's order: the examples, then real ones (textured: `textures` of their meshes at least). */
const MODELS: { path: () => string; name: string; textured: boolean; animated: boolean }[] = [
  { path: () => join(examples, 'skinned-tube.iqm'), name: 'skinned-tube.iqm', textured: true, animated: true },
  { path: () => join(examples, 'skinned-tube.iqe'), name: 'skinned-tube.iqe', textured: true, animated: true },
  { path: () => join(examples, 'bending-pyramid.md3'), name: 'bending-pyramid.md3', textured: false, animated: true },
  { path: () => join(examples, 'skinned-column.dpm'), name: 'skinned-column.dpm', textured: false, animated: true },
  { path: () => join(examples, 'bending-tube.glb'), name: 'bending-tube.glb', textured: false, animated: true },
  { path: () => join(ASSETS, 'iqm/mrfixit/mrfixit.iqm'), name: 'mrfixit.iqm', textured: true, animated: true },
  { path: () => join(ASSETS, 'iqm/raylib_guy/guy.iqm'), name: 'guy.iqm', textured: false, animated: true },
  // Animation only: drawn on the mesh the "mesh from…" picker finds beside it (guy.iqm).
  { path: () => join(ASSETS, 'iqm/raylib_guy/guyanim.iqm'), name: 'guyanim.iqm', textured: false, animated: true },
  { path: () => join(ASSETS, 'md3/oa_soldier/upper.md3'), name: 'upper.md3', textured: true, animated: true },
  { path: () => join(ASSETS, 'dpm/nexuiz/grunt.dpm'), name: 'grunt.dpm', textured: false, animated: true },
  { path: () => join(ASSETS, 'md5/bob/Bob.md5mesh'), name: 'Bob.md5mesh', textured: true, animated: true },
  { path: () => changing, name: 'model.iqm', textured: false, animated: false },
];

let server: ChildProcess | null = null;
let url = '';
let context: BrowserContext | null = null;
let page: Page;
/** Every URL the page asked for (the images the host pointed it to). */
const requested: string[] = [];

before(async () => {
  if (skip) return;
  const made = spawnSync(process.execPath, [join(REPO, 'scripts', 'make-examples.mjs'), examples], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  spawnSync('mkdir', ['-p', join(work, 'changing')]);
  copyFileSync(join(examples, 'coloured-cube.iqm'), changing);
  ({ child: server, url } = await startView(MODELS.map((m) => m.path())));
  const { chromium } = await import('playwright-core');
  context = await chromium.launchPersistentContext(join(work, 'chromium'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 900, height: 640 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(url);
});

after(async () => {
  await context?.close();
  server?.kill('SIGINT');
  rmSync(work, { recursive: true, force: true });
});

/** The viewer frame showing model `index` (the n-th iframe of the page), once it is drawn. */
async function viewer(index: number, nth = 0): Promise<Frame> {
  const handle = await page.waitForSelector(`#views iframe:nth-of-type(${nth + 1})[data-file="${index}"]`);
  const frame = await handle.contentFrame();
  assert.ok(frame, 'the viewer is a frame');
  await frame.waitForSelector('#viewer[data-state="ready"], #viewer[data-state="error"]', { timeout: 90000 });
  assert.equal(await frame.getAttribute('#viewer', 'data-state'), 'ready', `${MODELS[index].name}: ${(await frame.textContent('#viewer')) ?? ''}`);
  await frame.waitForSelector('#viewer[data-textures="done"]', { timeout: 60000 });
  return frame;
}

/** A checksum of the canvas's pixels. */
async function pixelHash(frame: Frame): Promise<number> {
  return frame.evaluate(() => {
    const canvas = (globalThis as unknown as PageGlobals).document.getElementById('view');
    if (!canvas) throw new Error('no canvas');
    const gl = canvas.getContext('webgl2');
    const px = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
    gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, 0x1908, 0x1401, px);
    let h = 2166136261;
    for (let i = 0; i < px.length; i++) h = Math.imul(h ^ px[i], 16777619);
    return h >>> 0;
  });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('view: every model of the list is drawn (textured where it has textures) and animates while it plays', { skip, timeout: 600000 }, async () => {
  for (let i = 0; i < MODELS.length - 1; i++) {
    const model = MODELS[i];
    await page.click(`#files button[data-file="${i}"]`);
    const frame = await viewer(i);
    assert.equal(await frame.title(), model.name);
    await still(frame, 0);
    const drawn = await pixelStats(frame);
    assert.ok(drawn.covered > 0.005, `${model.name} is drawn (${(drawn.covered * 100).toFixed(2)} % of the pixels)`);
    const textures = await frame.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.textureStats());
    if (model.textured) assert.ok(textures.textured > 0, `${model.name} is textured: ${JSON.stringify(textures)}`);
    if (model.animated) {
      // Paused, the picture stands still; playing, it changes.
      const paused = [await pixelHash(frame), (await wait(300), await pixelHash(frame))];
      assert.equal(paused[0], paused[1], `${model.name} stands still while paused`);
      await frame.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.setPlaying(true));
      let changed = false;
      for (let tries = 0; tries < 20 && !changed; tries++) {
        await wait(150);
        changed = (await pixelHash(frame)) !== paused[0];
      }
      assert.ok(changed, `${model.name} animates while playing`);
    }
    if (i === 0) await page.screenshot({ path: screenshotPath('view-skinned-tube') });
    if (model.name === 'upper.md3') await page.screenshot({ path: screenshotPath('view-upper-md3') });
  }
});

test('view: an image the lookup resolved is served to its page, the model\'s bytes once; a path outside the named models, or no token, is refused', { skip }, async () => {
  const bob = MODELS.findIndex((m) => m.name === 'Bob.md5mesh');
  await page.click(`#files button[data-file="${bob}"]`);
  await viewer(bob);
  const served = requested.filter((r) => r.includes('/image?') && /guard1_\w+\.png$/.test(decodeURIComponent(r)));
  assert.ok(served.length > 0, `the PNG texture was asked for by its page: ${requested.filter((r) => r.includes('image?')).join(', ')}`);
  const image = served[served.length - 1];
  assert.equal((await httpGet(image)).status, 200);
  const client = new URL(image).searchParams.get('client') ?? '';
  // The system's, the model itself, a texture of another model, a resolved image by another spelling.
  const resolved = new URL(image).searchParams.get('path') ?? '';
  const refusedPaths = ['/etc/passwd', join(ASSETS, 'md5/bob/Bob.md5mesh'), join(ASSETS, 'iqm/mrfixit/Body.tga'), resolved.replace('/md5/bob/', '/md5/bob/../bob/')];
  for (const path of refusedPaths) {
    const r = await httpGet(`${url}image?client=${client}&path=${encodeURIComponent(path)}`);
    assert.equal(r.status, 403, `${path} is refused`);
    assert.match(r.body, /refused/);
  }
  // The model's bytes came as binary (blob?), once: fetched again, or with another page's id, they are not served.
  const blobs = requested.filter((r) => r.includes('/blob?') && new URL(r).searchParams.get('client') === client);
  assert.ok(blobs.length > 0, `the page fetched its model's bytes: ${requested.filter((r) => r.includes('blob?')).join(', ')}`);
  const again = await httpGet(blobs[0]);
  assert.equal(again.status, 404);
  assert.match(again.body, /fetched already/);
  const other = new URL(blobs[0]);
  other.searchParams.set('client', 'f'.repeat(32));
  assert.equal((await httpGet(other.href)).status, 404, 'another page id');
  const origin = new URL(url).origin;
  assert.equal((await httpGet(`${origin}/`)).status, 403, 'the root without the token');
  assert.equal((await httpGet(`${origin}/${'A'.repeat(32)}/webview.js`)).status, 403, 'a wrong token');
  assert.equal((await httpGet(`${url}webview.js`)).status, 200, 'the bundle with the token');
  assert.equal((await httpGet(`${url}..%2F..%2Fetc%2Fpasswd`)).status, 404, 'no file of the disk by its name');
});

test('view: Compare shows two models side by side, each drawn, with their differences and one camera', { skip, timeout: 300000 }, async () => {
  // A page of its own, on the examples only (the README's picture): the tube's IQM and its IQE text.
  const { child, url: address } = await startView([join(examples, 'skinned-tube.iqm'), join(examples, 'skinned-tube.iqe'), join(examples, 'coloured-cube.iqm')]);
  const own = await (context as BrowserContext).newPage();
  try {
    await own.setViewportSize({ width: 1200, height: 640 });
    await own.goto(address);
    const side = async (file: number, nth: number): Promise<Frame> => {
      const handle = await own.waitForSelector(`#views iframe:nth-of-type(${nth + 1})[data-file="${file}"]`);
      const frame = await handle.contentFrame();
      assert.ok(frame);
      await frame.waitForSelector('#viewer[data-state="ready"]', { timeout: 90000 });
      return frame;
    };
    await side(0, 0);
    await own.click('#compare');
    const right = await side(1, 1);
    await own.click('#files button[data-file="2"]');
    const cube = await side(2, 1);
    const left = await side(0, 0);
    assert.equal(await own.locator('#views iframe').count(), 2);
    // The differences of iqm-tools diff, on both sides.
    for (const frame of [left, cube]) {
      await frame.waitForSelector('#compare-list[data-state="done"]', { timeout: 60000 });
      assert.ok((await frame.locator('#compare-list li').count()) > 0, 'the tube and the cube differ');
      await still(frame, 0);
      assert.ok((await pixelStats(frame)).covered > 0.005);
    }
    if (process.env.IQM_VIEW_DOCS === '1') await own.screenshot({ path: join(REPO, 'docs', 'screenshots', 'view.png') });
    // The camera dragged on the left: the right one follows.
    const box = await own.locator('#views iframe:nth-of-type(1)').boundingBox();
    assert.ok(box);
    await own.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await own.mouse.down();
    await own.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.45, { steps: 8 });
    await own.mouse.up();
    await left.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('viewer')?.dataset.camera !== undefined);
    const leftCamera = await left.getAttribute('#viewer', 'data-camera');
    await cube.waitForFunction((want) => (globalThis as unknown as PageGlobals).document.getElementById('viewer')?.dataset.camera === want, leftCamera, { timeout: 10000 });
    await own.screenshot({ path: screenshotPath('view-compare') });
    // Compare off: one viewer again, and the kept one's comparison ends.
    await own.click('#compare');
    assert.equal(await own.locator('#views iframe').count(), 1);
    await left.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('viewer')?.dataset.compare === undefined, undefined, { timeout: 15000 });
    assert.ok(right.isDetached(), 'the first right side was replaced');
  } finally {
    await own.close();
    child.kill('SIGINT');
  }
});

test('view: a model that changes on disk is drawn again', { skip }, async () => {
  const index = MODELS.length - 1;
  await page.click(`#files button[data-file="${index}"]`);
  const frame = await viewer(index);
  const vertices = () => frame.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.captureFrame(-1).length / 3);
  const before = await vertices();
  copyFileSync(join(examples, 'skinned-tube.iqm'), changing);
  let after = before;
  for (let tries = 0; tries < 60 && after === before; tries++) {
    await wait(250);
    after = await vertices().catch(() => before);
  }
  assert.notEqual(after, before, 'the new model is drawn');
});

test('view: a port that is taken is said, and a missing file', { skip }, async () => {
  const port = new URL(url).port;
  const taken = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'view', '--no-open', '--port', port, MODELS[0].path()], { encoding: 'utf8', timeout: 30000 });
  assert.equal(taken.status, 1);
  assert.match(taken.stderr, new RegExp(`port ${port} is taken`));
  const missing = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'view', '--no-open', join(work, 'nothing.iqm')], { encoding: 'utf8', timeout: 30000 });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /nothing\.iqm: no such file/);
});

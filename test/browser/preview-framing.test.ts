// Browser tests of what the camera frames (issue 31): a model whose stored bounds are empty (an IQE
// whose vertices have one joint and all weights zero compiles, as the reference compiles it, to an
// IQM whose every frame's bounds are zeros) is framed by what is drawn; switching clips frames the
// clip that plays. Models are generated here and compiled by the project's compiler.
// Screenshots: test-output/browser/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IqeDocument } from '../../core/iqe/document';
import { readModel } from '../../core/formats/models';
import { compileDocument } from '../helpers/compile-iqm';
import { loadGenerated, menuClick, openSession, pixelStats, screenshotPath, setToggles, settle, skipReason, still, type PageGlobals, type Session } from './harness';

const skip = skipReason();
if (skip) process.stdout.write(`# ${skip}\n`);
let s: Session;

before(async () => {
  if (!skip) s = await openSession();
});
after(async () => {
  if (s) await s.close();
});

/**
 * A cube of side 2 around (10, 0, 1) (off the origin, as a prop placed in its scene is), one joint,
 * every vertex `vb 0 0`; its clip moves the joint 30 units along X, which moves nothing drawn.
 */
function zeroWeightCube(): string {
  const lines = ['# Inter-Quake Export', 'joint "Bone" -1', '\tpq 0 0 0 0 0 0 1', 'mesh "Cube"', '\tmaterial "Material"'];
  const corners: number[][] = [];
  for (let i = 0; i < 8; i++) corners.push([10 + (i & 1 ? 1 : -1), i & 2 ? 1 : -1, 1 + (i & 4 ? 1 : -1)]);
  for (const c of corners) lines.push(`vp ${c.join(' ')}`, '\tvb 0 0');
  // Two triangles per face (a closed cube: its outside or its inside shows, whatever the culling).
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  for (const [a, b, c, d] of faces) lines.push(`fm ${a} ${b} ${c}`, `fm ${a} ${c} ${d}`);
  lines.push('animation "slide"', '\tframerate 10', '\tloop');
  for (let f = 0; f < 10; f++) lines.push('frame', `pq ${3 * f} 0 0 0 0 0 1`);
  return lines.join('\n') + '\n';
}

/**
 * A cube of side 2 on one joint (every weight 1) with three clips: "stand" at the origin, "step"
 * 2 units along X (in sight of stand's framing) and "run" 40 to 58 units along X (out of it).
 */
function runningCube(): string {
  const lines = ['# Inter-Quake Export', 'joint "Bone" -1', '\tpq 0 0 0 0 0 0 1', 'mesh "Cube"', '\tmaterial "Material"'];
  for (let i = 0; i < 8; i++) lines.push(`vp ${i & 1 ? 1 : -1} ${i & 2 ? 1 : -1} ${1 + (i & 4 ? 1 : -1)}`, '\tvb 0 1');
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  for (const [a, b, c, d] of faces) lines.push(`fm ${a} ${b} ${c}`, `fm ${a} ${c} ${d}`);
  const clip = (name: string, xs: number[]) => {
    lines.push(`animation "${name}"`, '\tframerate 10', '\tloop');
    for (const x of xs) lines.push('frame', `pq ${x} 0 0 0 0 0 1`);
  };
  clip('stand', [0, 0]);
  clip('step', [0, 2]);
  clip('run', [40, 43, 46, 49, 52, 55, 58]);
  return lines.join('\n') + '\n';
}

interface Framed {
  fit: number[];
  camera: { yaw: number; pitch: number; distance: number; target: number[]; near: number; far: number };
}

async function framed(): Promise<Framed> {
  return s.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const v = g.iqmPreview as unknown as { camera: { yaw: number; pitch: number; distance: number; target: Float64Array; near: number; far: number } };
    const fit = (g.document.getElementById('viewer')?.dataset.fit ?? '').split(',').map(Number);
    const c = v.camera;
    return { fit, camera: { yaw: c.yaw, pitch: c.pitch, distance: c.distance, target: Array.from(c.target), near: c.near, far: c.far } };
  });
}

/** The fitted box holds the drawn cube (its vertices stay where they are) and is not a point; the camera's numbers are finite. */
function assertFramesCube(f: Framed, what: string): void {
  assert.ok(f.fit.length === 6 && f.fit.every(Number.isFinite), `${what}: fitted box ${f.fit}`);
  assert.ok(f.fit[0] <= 9 && f.fit[1] <= -1 && f.fit[2] <= 0 && f.fit[3] >= 11 && f.fit[4] >= 1 && f.fit[5] >= 2, `${what}: fitted box ${f.fit}`);
  assert.ok(f.fit[3] - f.fit[0] < 10, `${what}: the box is the cube's, not the origin's as well: ${f.fit}`);
  const c = f.camera;
  assert.ok([c.distance, c.near, c.far, ...c.target].every(Number.isFinite) && c.distance > 1 && c.near > 0 && c.far > c.distance, `${what}: ${JSON.stringify(c)}`);
}

test('a model whose stored bounds are all zeros (one joint, every weight 0) is framed by what is drawn: the model and the grid show', { skip }, async () => {
  const compiled = compileDocument(new IqeDocument(zeroWeightCube()));
  assert.ok(compiled.bytes, compiled.diagnostics.map((d) => d.message).join('; '));
  // The premise: the compiler (as the reference) stores an all-zero box for every frame.
  const bounds = readModel(compiled.bytes).bounds;
  assert.ok(bounds && bounds.length === 80 && bounds.every((x) => x === 0), `bounds ${bounds ? Array.from(bounds.slice(0, 8)) : null}`);
  assert.equal(await loadGenerated(s, 'zero-weights.iqm', compiled.bytes), 'ready');
  await settle(s.page);
  // As first shown: the clip selected, the grid on.
  const first = await framed();
  const shown = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('zero-bounds-first-view') });
  assertFramesCube(first, 'first view');
  assert.ok(shown.covered > 0.05, `model and grid cover ${(shown.covered * 100).toFixed(1)}% of the view`);
  // The model alone (no grid), paused on its clip and framed again: around the centre.
  await still(s.page, 0);
  const model = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('zero-bounds-model') });
  assert.ok(model.covered > 0.03, `the cube covers ${(model.covered * 100).toFixed(1)}%`);
  const cx = (model.box[0] + model.box[2]) / 2, cy = (model.box[1] + model.box[3]) / 2;
  assert.ok(Math.abs(cx - 0.5) < 0.2 && Math.abs(cy - 0.5) < 0.2, `the cube is centred: ${model.box.map((x) => x.toFixed(2))}`);
  // Follow: an empty stored box says nothing of where the model is, so the target stays on it.
  await menuClick(s.page, 'follow');
  const targets = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as { renderFrame(): void; state: { time: number }; camera: { target: Float64Array } };
    const at = (t: number) => {
      v.state.time = t;
      v.renderFrame();
      return Array.from(v.camera.target);
    };
    return [at(0), at(0.55)];
  });
  await menuClick(s.page, 'follow');
  assert.deepEqual(targets[1], targets[0]);
  assert.ok(Math.abs(targets[0][0] - 10) < 1e-6, `the target is the cube's centre: ${targets[0]}`);
  await setToggles(s.page, { grid: true });
});

/** Selects a clip through the playback bar's menu, as a user does, paused at its first frame. */
async function chooseClip(name: string): Promise<void> {
  const value = await s.page.$$eval('#clip option', (o, n) => o.find((x) => (x.textContent ?? '').startsWith(`${n} `))?.getAttribute('value') ?? '', name);
  assert.ok(Number(value) >= 0, `${name} is listed`);
  await s.page.selectOption('#clip', value);
  await s.page.evaluate(() => (globalThis as unknown as PageGlobals).iqmPreview.setPlaying(false));
  await settle(s.page);
}

test('switching clips frames the clip that plays; a camera the user moved stays unless the clip would be out of its sight', { skip }, async () => {
  const compiled = compileDocument(new IqeDocument(runningCube()));
  assert.ok(compiled.bytes, compiled.diagnostics.map((d) => d.message).join('; '));
  assert.equal(await loadGenerated(s, 'running-cube.iqm', compiled.bytes), 'ready');
  await setToggles(s.page, { grid: false });
  await chooseClip('stand');
  const stand = await framed();
  assert.ok(stand.fit[3] < 5, `stand is framed: ${stand.fit}`);
  // A clip far away: framed as the first one was, the cube in the middle of the view.
  await chooseClip('run');
  const run = await framed();
  assert.ok(run.fit[0] <= 39 && run.fit[3] >= 59, `run's frames are all in the fitted box: ${run.fit}`);
  const seen = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('clip-switch-reframed') });
  assert.ok(seen.covered > 0.003, `the cube is in sight after the switch: ${(seen.covered * 100).toFixed(2)}%`);
  const cx = (seen.box[0] + seen.box[2]) / 2;
  assert.ok(cx > 0.2 && cx < 0.8, `and inside the view: ${seen.box.map((x) => x.toFixed(2))}`);
  // The user moves the camera: a clip in its sight keeps that view exactly.
  await chooseClip('stand');
  const box = await s.page.locator('#view').boundingBox();
  assert.ok(box);
  await s.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await s.page.mouse.down();
  await s.page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 10, { steps: 4 });
  await s.page.mouse.up();
  await settle(s.page);
  const placed = (await framed()).camera;
  assert.notEqual(placed.yaw, stand.camera.yaw, 'the drag turned the camera');
  await chooseClip('step');
  assert.deepEqual((await framed()).camera, placed, 'the view the user chose is kept');
  // A clip that would be wholly out of its sight: the camera turns to it from the user's direction, backing off to see all of it.
  await chooseClip('run');
  const turned = (await framed()).camera;
  assert.deepEqual([turned.yaw, turned.pitch], [placed.yaw, placed.pitch]);
  assert.ok(turned.distance >= run.camera.distance - 1e-9, `far enough for the whole clip: ${turned.distance} (framed: ${run.camera.distance})`);
  assert.ok(turned.target[0] > 40 && turned.target[0] < 60, `the target is run's centre: ${turned.target}`);
  const followed = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('clip-switch-user-camera') });
  assert.ok(followed.covered > 0.003, `the cube is in sight: ${(followed.covered * 100).toFixed(2)}%`);
  await setToggles(s.page, { grid: true });
});

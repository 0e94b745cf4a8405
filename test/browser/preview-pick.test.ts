// Picking a triangle in the preview (media/overlays/picking.ts over core/model/pick.ts), in
// Chromium on the generated skinned-tube.iqm paused on a bent frame: a click at a pixel gives a
// `picked` message whose triangle, projected with the view's own matrix from the positions the GPU
// draws (transform feedback, not the CPU skinning the picking uses), covers that pixel and is the
// nearest front face there (checked by brute force over every triangle); a click beside the model
// picks nothing. The host's highlight of vertices and triangles draws outlines in their colour, and
// so does a click on an issue of the validator's report in the info panel (a joint's selects it).

import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModel } from '../../core/formats/models';
import { validateModel } from '../../core/validate/index';
import { iqmWith } from '../helpers/validate-fixtures';
import { loadGenerated, openSession, type PageGlobals, screenshotPath, settle, skipReason, type Session } from './harness';

const skip = skipReason();
let s: Session;
let examples = '';

before(async () => {
  if (skip) return;
  examples = mkdtempSync(join(tmpdir(), 'iqm-pick-'));
  const made = spawnSync(process.execPath, ['scripts/make-examples.mjs', examples], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  s = await openSession();
});
after(async () => {
  if (s) await s.close();
  if (examples) rmSync(examples, { recursive: true, force: true });
});

/** Pixels near the highlight colour (0.2, 0.95, 1): cyan, which neither the tube's texture nor the untextured grey has. */
function cyanPixels(): Promise<number> {
  return s.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    g.iqmPreview.renderFrame();
    const canvas = g.document.getElementById('view') as unknown as { getContext(k: 'webgl2'): { drawingBufferWidth: number; drawingBufferHeight: number; readPixels(x: number, y: number, w: number, h: number, f: number, t: number, out: Uint8Array): void; RGBA: number; UNSIGNED_BYTE: number } };
    const gl = canvas.getContext('webgl2');
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] < 110 && px[i + 1] > 190 && px[i + 2] > 200) n++;
    return n;
  });
}

interface ViewerInternals {
  setPlaying(p: boolean): void;
  selectClip(c: number): void;
  setToggles?: unknown;
  changed(): void;
  renderFrame(): void;
  captureFrame(frame: number): Float32Array;
  state: { time: number; clip: number; skeleton: boolean; cull: boolean };
  camera: { viewProj: Float32Array };
  currentScene: { blend: { a: number; b: number; t: number } };
}

/** Screen position (CSS px, y down) and depth (NDC z) of a point, or null behind the camera. */
function project(m: number[], p: number[], width: number, height: number): [number, number, number] | null {
  const x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
  const y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
  const z = m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14];
  const w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
  if (w <= 0) return null;
  return [((x / w + 1) / 2) * width, ((1 - y / w) / 2) * height, z / w];
}

test('a click picks the nearest front triangle under the pointer, on the positions as drawn', { skip }, async () => {
  const bytes = readFileSync(join(examples, 'skinned-tube.iqm'));
  const model = readModel(new Uint8Array(bytes));
  assert.equal(await loadGenerated(s, 'skinned-tube.iqm', bytes), 'ready');
  // Paused on frame 5 of the first clip, where the tube is bent; no overlays.
  const view = await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as ViewerInternals;
    v.setPlaying(false);
    v.selectClip(0);
    v.state.time = 5 / 10;
    v.state.skeleton = false;
    v.changed();
    v.renderFrame();
    const frame = v.currentScene.blend.a;
    const t = v.currentScene.blend.t;
    const positions = Array.from(v.captureFrame(frame));
    // captureFrame poses the scene at the frame: draw the paused time again.
    v.renderFrame();
    const canvas = (globalThis as unknown as { document: { getElementById(id: string): { clientWidth: number; clientHeight: number } } }).document.getElementById('view');
    return { frame, t, positions, viewProj: Array.from(v.camera.viewProj), width: canvas.clientWidth, height: canvas.clientHeight };
  });
  assert.ok(view.frame >= 0 && Math.abs(view.t) < 1e-6, `paused exactly on a frame (${view.frame}, t ${view.t})`);
  await settle(s.page);
  // IQM's front faces are clockwise on screen (y down: counter-clockwise in these coordinates... checked by sign below).
  const tris: { t: number; corners: [number, number, number][] }[] = [];
  let vb = 0, tb = 0;
  for (const mesh of model.meshes) {
    for (let i = 0; i < mesh.triangleCount; i++) {
      const corners = [0, 1, 2].map((k) => project(view.viewProj, view.positions.slice(3 * (vb + mesh.indices[3 * i + k]), 3 * (vb + mesh.indices[3 * i + k]) + 3), view.width, view.height));
      if (corners.every((c) => c !== null)) tris.push({ t: tb + i, corners: corners as [number, number, number][] });
    }
    vb += mesh.vertexCount;
    tb += mesh.triangleCount;
  }
  const area = (a: number[], b: number[], c: number[]) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  /** The triangles covering a screen point, with their depth there and their facing. */
  const covering = (x: number, y: number) =>
    tris.flatMap(({ t, corners: [a, b, c] }) => {
      const full = area(a, b, c);
      if (Math.abs(full) < 1e-9) return [];
      const u = area(a, [x, y], c) / full, v = area(a, b, [x, y]) / full;
      if (u < 0 || v < 0 || u + v > 1) return [];
      return [{ t, depth: (1 - u - v) * a[2] + u * b[2] + v * c[2], sign: Math.sign(full) }];
    });
  // Click the centre of the canvas, and a quarter off it: both on the tube.
  const box = await s.page.locator('#view').boundingBox();
  assert.ok(box);
  const clicks = [[0.5, 0.5], [0.5, 0.35], [0.45, 0.6]];
  let checked = 0;
  for (const [fx, fy] of clicks) {
    const x = view.width * fx, y = view.height * fy;
    const under = covering(x, y);
    if (under.length === 0) continue;
    const before = s.messages.length;
    await s.page.mouse.click(box.x + x, box.y + y);
    await s.page.waitForFunction((n) => (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'picked').length > n, s.messages.slice(0, before).filter((m) => m.type === 'picked').length);
    const picked = s.messages.filter((m) => m.type === 'picked').at(-1) as unknown as { triangle: number; mesh: number; vertices: number[] };
    // Front faces: the facing sign of the nearest covering triangle (the renderer culls the others).
    const front = under.reduce((a, b) => (a.depth < b.depth ? a : b)).sign;
    const nearest = under.filter((u) => u.sign === front).reduce((a, b) => (a.depth < b.depth ? a : b));
    assert.ok(under.some((u) => u.t === picked.triangle), `triangle ${picked.triangle} does not cover (${x}, ${y}); ${under.map((u) => u.t).join(', ')} do`);
    assert.equal(picked.triangle, nearest.t, `the nearest front triangle at (${x}, ${y}) is ${nearest.t} (depth ${nearest.depth}), picked ${picked.triangle}`);
    assert.equal(await s.page.getAttribute('#viewer', 'data-picked'), String(picked.triangle));
    const info = await s.page.textContent('#pick-info');
    assert.match(info ?? '', new RegExp(`triangle ${picked.triangle} \\(\\d+ of mesh ${picked.mesh} '`));
    assert.match(info ?? '', new RegExp(`vertices ${picked.vertices.join(', ')}`));
    checked++;
  }
  assert.ok(checked >= 2, `${checked} clicks landed on the tube`);
  await s.page.screenshot({ path: screenshotPath('pick-triangle') });
  // Beside the model: nothing picked.
  const corner = covering(4, 4);
  assert.equal(corner.length, 0, 'the corner of the view is background');
  await s.page.mouse.click(box.x + 4, box.y + 4);
  await s.page.waitForFunction(() => !(globalThis as unknown as { document: { getElementById(id: string): { dataset: Record<string, string> } } }).document.getElementById('viewer').dataset.picked);
  assert.equal(await s.page.locator('#pick-info').isHidden(), true);
});

test('highlighted vertices and triangles are outlined over the model in the highlight colour', { skip }, async () => {
  assert.equal(await loadGenerated(s, 'skinned-tube.iqm', readFileSync(join(examples, 'skinned-tube.iqm'))), 'ready');
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(0);
    v.changed();
  });
  await settle(s.page);
  const none = await cyanPixels();
  const post = (m: unknown) => s.page.evaluate((msg) => (globalThis as unknown as PageGlobals).postMessage(msg, '*'), m);
  await post({ type: 'highlight', target: { kind: 'triangles', indices: [0, 1, 2, 3] } });
  await s.page.waitForSelector('#viewer[data-highlight="triangles:0,1,2,3"]');
  await settle(s.page);
  const faces = await cyanPixels();
  await s.page.screenshot({ path: screenshotPath('highlight-triangles') });
  await post({ type: 'highlight', target: { kind: 'vertices', indices: [10, 20] } });
  await s.page.waitForSelector('#viewer[data-highlight="vertices:10,20"]');
  await settle(s.page);
  const vertices = await cyanPixels();
  await post({ type: 'highlight', target: null });
  await s.page.waitForSelector('#viewer[data-highlight=""]');
  await settle(s.page);
  const cleared = await cyanPixels();
  assert.ok(faces > none + 20, `triangle outlines: ${faces} cyan pixels, ${none} without`);
  assert.ok(vertices > none + 5, `vertex crosses: ${vertices} cyan pixels, ${none} without`);
  assert.ok(cleared <= none + 2, `cleared: ${cleared} cyan pixels, ${none} before`);
});

test('a comparison: only the left side sends its view when paired; both follow a syncView and the view the pairing carries', { skip }, async () => {
  const bytes = readFileSync(join(examples, 'skinned-tube.iqm'));
  assert.equal(await loadGenerated(s, 'skinned-tube.iqm', bytes), 'ready');
  const post = (m: unknown) => s.page.evaluate((msg) => (globalThis as unknown as PageGlobals).postMessage(msg, '*'), m);
  const shared = () => s.page.evaluate(() => (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'viewChanged').length);
  const comparison = (side: 'left' | 'right', view: unknown = null) => ({ type: 'comparison', side, other: 'other.iqm', differences: [], error: null, view });
  const before = await shared();
  // The right side: it takes the left's view, and sends none of its own (both sending at once
  // crossed, and each side took the other's).
  await post(comparison('right'));
  await s.page.waitForSelector('#viewer[data-compare="right"]');
  await settle(s.page);
  // Ten times the 30 ms the viewer coalesces its view messages over.
  await s.page.waitForTimeout(300);
  assert.equal(await shared(), before, 'the right side sent its view when paired');
  const view = { camera: { yaw: 0.25, pitch: 0.5, distance: 6, target: [0, 0, 1] }, clip: 0, clipName: '', time: 0, playing: false };
  await post({ type: 'syncView', view });
  await s.page.waitForSelector('#viewer[data-camera="0.250,0.500,6.000"]');
  // The left side sends its view once paired.
  await post(comparison('left'));
  await s.page.waitForFunction((n) => (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'viewChanged').length > n, before);
  assert.equal(await s.page.getAttribute('#viewer', 'data-compare'), 'left');
  // Paired again (a side reloaded) after a view was shared: the side takes the pair's view and
  // sends none (its own saved camera would undo the other side's drag).
  await s.page.waitForTimeout(300);
  const afterLeft = await shared();
  const later = { ...view, camera: { ...view.camera, yaw: 0.75 } };
  await post(comparison('left', later));
  await s.page.waitForSelector('#viewer[data-camera="0.750,0.500,6.000"]');
  await s.page.waitForTimeout(300);
  assert.equal(await shared(), afterLeft, 'the left side sent its view although the pair had one');
});

test('a validator issue clicked in the info panel outlines its vertex or triangle, or selects its joint', { skip }, async () => {
  // The validator's quad with three problems: vertex 2's tangent has length 0, triangle 2 repeats
  // triangle 0 and joint 1's rotation is not a unit quaternion.
  const bytes = iqmWith((d) => {
    d.joints[1].trs[6] = 2;
    (d.vertexArrays.find((a) => a.type === 3)!.data as Float32Array).set([0, 0, 0, 1], 8);
    d.triangles = new Uint32Array([...d.triangles, 2, 0, 1]);
    d.adjacency = new Uint32Array([...d.adjacency!, 0xffffffff, 0xffffffff, 0xffffffff]);
    d.meshes[0].triangleCount = 3;
  });
  const report = validateModel(bytes)!;
  assert.deepEqual(report.issues.map((i) => i.code).sort(), ['iqm-joint-quat', 'iqm-tangent-unit', 'iqm-triangle-duplicate']);
  assert.equal(await loadGenerated(s, 'validation-quad.iqm', bytes, undefined, undefined, report), 'ready');
  await s.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    g.iqmPreview.setPlaying(false);
    const doc = g.document as unknown as { querySelector(s: string): { closest(s: string): { open: boolean } } | null };
    const list = doc.querySelector('.validation-issues');
    if (list) list.closest('details').open = true;
  });
  await settle(s.page);
  const none = await cyanPixels();
  const issue = (code: string) => s.page.locator('.validation-issues button', { hasText: `[${code}]` });
  await issue('iqm-tangent-unit').click();
  await s.page.waitForSelector('#viewer[data-highlight="vertices:2"]');
  await settle(s.page);
  const vertex = await cyanPixels();
  await s.page.screenshot({ path: screenshotPath('validation-click-vertex') });
  await issue('iqm-triangle-duplicate').click();
  await s.page.waitForSelector('#viewer[data-highlight="triangles:2"]');
  await settle(s.page);
  const triangle = await cyanPixels();
  await issue('iqm-joint-quat').click();
  await s.page.waitForFunction(() => ((globalThis as unknown as PageGlobals).iqmPreview.state.selectedJoint as number) === 1);
  assert.equal(await s.page.getAttribute('#viewer', 'data-highlight'), 'joint:1');
  assert.ok(vertex > none + 5, `vertex 2's cross: ${vertex} cyan pixels, ${none} before the click`);
  assert.ok(triangle > none + 20, `triangle 2's outline: ${triangle} cyan pixels, ${none} before the click`);
});

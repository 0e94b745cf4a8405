// Picking (core/model/pick.ts): the nearest triangle along a ray, back faces as the renderer culls
// them, hidden meshes skipped; and the ray through a point of the view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { readModel } from '../../core/formats/models';
import { pickTriangle, rayThrough } from '../../core/model/pick';
import { highlightSegments, triangleCorners } from '../../core/model/highlight';
import { invert4 } from '../../core/math/mat4';
import type { Model } from '../../core/model/model';

// Two meshes: a unit square at z = 0 (two triangles, counter-clockwise seen from +z) and a
// smaller one at z = 1 over its corner (0..0.5, 0..0.5).
const TEXT = [
  '# Inter-Quake Export',
  'mesh low', 'material a',
  'vp 0 0 0', 'vp 1 0 0', 'vp 1 1 0', 'vp 0 1 0',
  'fa 0 1 2', 'fa 0 2 3',
  'mesh high', 'material b',
  'vp 0 0 1', 'vp 0.5 0 1', 'vp 0.5 0.5 1',
  'fm 0 1 2',
  '',
].join('\n');

function model(): { model: Model; positions: Float32Array } {
  const result = compile([textSource(TEXT, 'pick.iqe')]);
  assert.ok(result.bytes);
  const m = readModel(result.bytes);
  const positions = new Float32Array(m.meshes.flatMap((mesh) => Array.from(mesh.position)));
  return { model: m, positions };
}

/** The written corners of a hit, as positions. */
function corners(positions: Float32Array, vertices: number[]): number[][] {
  return vertices.map((v) => Array.from(positions.subarray(3 * v, 3 * v + 3)));
}

test('pick: the nearest triangle under a ray from above, and the one under it when that one is hidden', () => {
  const { model: m, positions } = model();
  const down = [0, 0, -1];
  const top = pickTriangle(m, positions, [0.3, 0.1, 5], down);
  assert.ok(top);
  assert.equal(top.mesh, 1);
  assert.equal(top.modelTriangle, m.meshes[0].triangleCount + top.triangle);
  assert.ok(Math.abs(top.distance - 4) < 1e-6, String(top.distance));
  for (const c of corners(positions, top.vertices)) assert.equal(c[2], 1);
  const below = pickTriangle(m, positions, [0.3, 0.1, 5], down, { skip: (mesh) => mesh === 1 });
  assert.equal(below?.mesh, 0);
  assert.ok(Math.abs((below?.distance ?? 0) - 5) < 1e-6);
  // (0.9, 0.2) is in triangle (0,0)-(1,0)-(1,1) only; (0.2, 0.9) in (0,0)-(1,1)-(0,1) only.
  const right = pickTriangle(m, positions, [0.9, 0.2, 5], down);
  const left = pickTriangle(m, positions, [0.2, 0.9, 5], down);
  assert.ok(right && left && right.triangle !== left.triangle);
  assert.ok(corners(positions, right.vertices).some((c) => c[0] === 1 && c[1] === 0));
  assert.ok(corners(positions, left.vertices).some((c) => c[0] === 0 && c[1] === 1));
  // Barycentric weights give the hit point back.
  const [a, b, c] = corners(positions, right.vertices);
  for (let k = 0; k < 2; k++) assert.ok(Math.abs((1 - right.u - right.v) * a[k] + right.u * b[k] + right.v * c[k] - [0.9, 0.2][k]) < 1e-6);
});

test('pick: misses, rays that point away, and back faces when culled', () => {
  const { model: m, positions } = model();
  assert.equal(pickTriangle(m, positions, [2, 2, 5], [0, 0, -1]), null, 'beside the model');
  assert.equal(pickTriangle(m, positions, [0.5, 0.5, 5], [0, 0, 1]), null, 'pointing away');
  assert.equal(pickTriangle(m, positions, [0.5, 0.5, 5], [1, 0, 0]), null, 'parallel');
  // From below, the squares show their back: hit without culling, missed with counter-clockwise fronts.
  const fromBelow = [0.3, 0.1, -5];
  assert.equal(pickTriangle(m, positions, fromBelow, [0, 0, 1])?.mesh, 0);
  assert.equal(pickTriangle(m, positions, fromBelow, [0, 0, 1], { front: 1 }), null);
  assert.equal(pickTriangle(m, positions, fromBelow, [0, 0, 1], { front: -1 })?.mesh, 0);
  assert.equal(pickTriangle(m, positions, [0.3, 0.1, 5], [0, 0, -1], { front: 1 })?.mesh, 1);
});

test('pick: rayThrough unprojects the view corners', () => {
  // An orthographic view of x, y in -2..2, z (depth) in -10..10, looking down -z: the inverse of
  // the projection scale(0.5, 0.5, -0.1) is scale(2, 2, -10), column-major.
  const inverse = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, -10, 0, 0, 0, 0, 1];
  const { origin, direction } = rayThrough(inverse, 0.5, -1);
  assert.deepEqual(origin, [1, -2, 10]);
  assert.deepEqual(direction, [0, 0, -20]);
  // With a model in front of it the ray hits what lies under that point of the view.
  const { model: m, positions } = model();
  const ray = rayThrough(inverse, 0.1, 0.05);
  const hit = pickTriangle(m, positions, ray.origin, ray.direction);
  assert.equal(hit?.mesh, 1);
});

test('highlight: a face outlined by its edges, vertices by crosses, stale indices skipped', () => {
  const { model: m, positions } = model();
  // The high mesh's triangle: model triangle 2 (after the low mesh's two).
  assert.deepEqual(triangleCorners(m, 2), [4, 5, 6]);
  assert.equal(triangleCorners(m, 3), null);
  const face: number[] = [];
  highlightSegments(m, positions, { kind: 'triangles', indices: [2, 99] }, 0.1, face);
  assert.equal(face.length, 3 * 6, 'three edges, the stale triangle skipped');
  for (let s = 0; s < face.length; s += 3) assert.equal(face[s + 2], 1, 'on the high square');
  const cross: number[] = [];
  highlightSegments(m, positions, { kind: 'vertices', indices: [1, 1000] }, 0.1, cross);
  assert.equal(cross.length, 3 * 6);
  const centre = Array.from(positions.subarray(3, 6));
  for (let s = 0; s < cross.length; s += 6) {
    for (let k = 0; k < 3; k++) assert.ok(Math.abs((cross[s + k] + cross[s + 3 + k]) / 2 - centre[k]) < 1e-6, 'centred on the vertex');
    assert.ok(Math.abs(Math.hypot(cross[s + 3] - cross[s], cross[s + 4] - cross[s + 1], cross[s + 5] - cross[s + 2]) - 0.2) < 1e-6);
  }
  const joint: number[] = [];
  highlightSegments(m, positions, { kind: 'joint', joint: 0 }, 0.1, joint);
  assert.deepEqual(joint, []);
});

test('invert4: a matrix times its inverse is the identity; a singular one is refused', () => {
  const m = [2, 0.5, 0, 0.1, 0, 3, 1, 0, 0.2, 0, 1, 0.3, 4, 5, 6, 1];
  const inv = new Array<number>(16).fill(0);
  assert.ok(invert4(inv, m));
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += m[k * 4 + r] * inv[c * 4 + k];
      assert.ok(Math.abs(sum - (r === c ? 1 : 0)) < 1e-9, `(${r}, ${c}) = ${sum}`);
    }
  }
  assert.equal(invert4(inv, new Array<number>(16).fill(1)), false);
});

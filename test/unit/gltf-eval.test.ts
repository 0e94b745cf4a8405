// The glTF oracle (test/helpers/gltf-eval.ts) and the fixture generator (test/helpers/gltf-writer.ts)
// checked on their own, against numbers worked out by hand from the glTF 2.0 specification, so that
// the sampling test (gltf-sampling.test.ts) compares the compiler with something known to be right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compose, evaluateGltf, globalTransforms, loadGltf, readAccessor, sampleSampler, scenePrimitives, slerp } from '../helpers/gltf-eval';
import { makeGltf } from '../helpers/gltf-writer';

const near = (a: ArrayLike<number>, b: ArrayLike<number>, eps: number, what: string) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= eps, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};
const about = (axis: number[], angle: number) => [...axis.map((c) => c * Math.sin(angle / 2)), Math.cos(angle / 2)];
const noSiblings = (uri: string): Uint8Array => {
  throw new Error(`unexpected sibling ${uri}`);
};

test('slerp: a third of the way along 90° about Z is 30°; keys of opposite sign take the shorter arc', () => {
  near(slerp(about([0, 0, 1], 0), about([0, 0, 1], Math.PI / 2), 1 / 3), about([0, 0, 1], Math.PI / 6), 1e-12, 'q');
  // -q is the same rotation as q: halfway from 0° to -(80°) is 40°, not the long way round.
  const b = about([0, 0, 1], (80 * Math.PI) / 180).map((c) => -c);
  const mid = slerp([0, 0, 0, 1], b, 0.5);
  const angle = 2 * Math.acos(Math.abs(mid[3]));
  assert.ok(Math.abs(angle - (40 * Math.PI) / 180) < 1e-12, `${(angle * 180) / Math.PI}°`);
});

test('sampler: clamped outside the keys, STEP holds, LINEAR lerps, CUBICSPLINE is exact on a cubic', () => {
  const input = Float64Array.from([1, 2, 4]);
  const linear = Float64Array.from([0, 0, 0, 10, 20, 30, 30, 0, 0]);
  near(sampleSampler(input, linear, 'LINEAR', 3, false, 0), [0, 0, 0], 0, 'before the first key');
  near(sampleSampler(input, linear, 'LINEAR', 3, false, 9), [30, 0, 0], 0, 'after the last key');
  near(sampleSampler(input, linear, 'LINEAR', 3, false, 1.5), [5, 10, 15], 1e-12, 'linear');
  near(sampleSampler(input, linear, 'LINEAR', 3, false, 3), [20, 10, 15], 1e-12, 'linear, second interval');
  near(sampleSampler(input, linear, 'STEP', 3, false, 3.99), [10, 20, 30], 0, 'step');
  near(sampleSampler(input, linear, 'STEP', 3, false, 2), [10, 20, 30], 0, 'step at a key');
  // p(t) = t³ - 2t: the Hermite spline through its values with tangents p'(t) (per second) is p itself.
  const p = (t: number) => t * t * t - 2 * t, dp = (t: number) => 3 * t * t - 2;
  const cubic = Float64Array.from([...input].flatMap((t) => [dp(t), p(t), dp(t)]));
  for (const t of [1.25, 1.5, 2.7, 3.9]) near(sampleSampler(input, cubic, 'CUBICSPLINE', 1, false, t), [p(t)], 1e-12, `cubic at ${t}`);
  near(sampleSampler(input, cubic, 'CUBICSPLINE', 1, false, 4), [p(4)], 1e-12, 'cubic: the value, not a tangent, at the last key');
});

test('reader: GLB and .gltf with a data: URI give the same accessors; a sparse accessor replaces its listed elements', () => {
  const glb = loadGltf(makeGltf({ vertices: 48, around: 8, joints: 3 }).bytes, noSiblings);
  const json = loadGltf(makeGltf({ vertices: 48, around: 8, joints: 3, container: 'json' }).bytes, noSiblings);
  assert.equal(glb.json.accessors!.length, json.json.accessors!.length);
  for (let i = 0; i < glb.json.accessors!.length; i++) assert.deepEqual(readAccessor(glb, i).data, readAccessor(json, i).data, `accessor ${i}`);
  // A sparse accessor on top of accessor 0's bufferView: element 1 replaced by (7, 8, 9).
  const base = readAccessor(glb, 0);
  const extra = new Uint8Array(16);
  const view = new DataView(extra.buffer);
  view.setUint16(0, 1, true);
  view.setFloat32(4, 7, true);
  view.setFloat32(8, 8, true);
  view.setFloat32(12, 9, true);
  const buffers = [...glb.buffers, extra];
  const j = structuredClone(glb.json);
  j.bufferViews!.push({ buffer: 1, byteOffset: 0, byteLength: 4 }, { buffer: 1, byteOffset: 4, byteLength: 12 });
  const nv = j.bufferViews!.length;
  j.accessors!.push({ ...j.accessors![0], sparse: { count: 1, indices: { bufferView: nv - 2, componentType: 5123 }, values: { bufferView: nv - 1 } } });
  const sparse = readAccessor({ json: j, buffers }, j.accessors!.length - 1);
  const expected = base.data.slice();
  expected.set([7, 8, 9], 3);
  assert.deepEqual(sparse.data, expected);
});

test('reader: an accessor past its bufferView is an error', () => {
  const broken = makeGltf({ vertices: 48, around: 8, joints: 3, broken: 'accessor-bounds' });
  const gltf = loadGltf(broken.bytes, noSiblings);
  assert.throws(() => readAccessor(gltf, broken.positionAccessor), /ends at byte/);
});

test('generated fixture: the rest scene is the Armature transform applied to the mesh, and Z-up', () => {
  const fixture = makeGltf({ vertices: 64, around: 8, joints: 4, prop: true });
  const gltf = loadGltf(fixture.bytes, noSiblings);
  const primitives = scenePrimitives(gltf);
  assert.equal(primitives.reduce((n, p) => n + p.used.length, 0), fixture.vertexCount);
  assert.equal(primitives.reduce((n, p) => n + p.triangles, 0), fixture.triangleCount);
  assert.deepEqual(gltf.json.skins![0].joints.map((j) => gltf.json.nodes![j].name), fixture.jointNames);
  const rest = evaluateGltf(gltf, primitives, null, 0);
  // Every joint's global · inverse bind is the Armature's T·R: the tube at rest is Armature · p.
  const armature = compose([0.1, 0, -0.05], about([0, 1, 0], 0.3), [1, 1, 1]);
  const tube = primitives[0];
  for (let v = 0; v < tube.used.length; v++) {
    const [x, y, z] = tube.source.subarray(v * 3, v * 3 + 3);
    const wx = armature[0] * x + armature[4] * y + armature[8] * z + armature[12];
    const wy = armature[1] * x + armature[5] * y + armature[9] * z + armature[13];
    const wz = armature[2] * x + armature[6] * y + armature[10] * z + armature[14];
    near(rest.positions.subarray(v * 3, v * 3 + 3), [wx, -wz, wy], 1e-6, `vertex ${v}`);
  }
  // The same file with the Armature as a matrix evaluates the same.
  const matrix = loadGltf(makeGltf({ vertices: 64, around: 8, joints: 4, prop: true, matrixNode: true }).bytes, noSiblings);
  near(evaluateGltf(matrix, scenePrimitives(matrix), null, 0).positions, rest.positions, 1e-6, 'matrix node');
});

test('generated fixture: at a key, the rigid bottom ring is the root joint\'s keyed transform; the prop follows its joint', () => {
  const fixture = makeGltf({ vertices: 64, around: 8, joints: 4, prop: true, start: 0.5 });
  const gltf = loadGltf(fixture.bytes, noSiblings);
  const animation = gltf.json.animations![0];
  const primitives = scenePrimitives(gltf);
  const time = 0.5 + 3 / 24;
  const posed = evaluateGltf(gltf, primitives, animation, time);
  // Key 3 of the root joint's channels, read straight from the outputs.
  const channel = (path: string) => {
    const c = animation.channels.find((ch) => ch.target.node === 2 && ch.target.path === path)!;
    const out = readAccessor(gltf, animation.samplers[c.sampler].output);
    return Array.from(out.data.subarray(3 * out.components, 4 * out.components));
  };
  const root = compose(channel('translation'), channel('rotation'), channel('scale'));
  const armature = compose([0.1, 0, -0.05], about([0, 1, 0], 0.3), [1, 1, 1]);
  // Ring 0 is weighted to joint 0 alone; its inverse bind is the identity (joint 0 sits at the Armature's origin).
  const ring0 = [...primitives[0].used.keys()].filter((k) => primitives[0].used[k] < 8);
  assert.equal(ring0.length, 8);
  for (const v of ring0) {
    const [x, y, z] = primitives[0].source.subarray(v * 3, v * 3 + 3);
    const m = globalTransforms(gltf, animation, time)[2];
    near(m, Array.from({ length: 16 }, (_, i) => [0, 1, 2, 3].reduce((s, k) => s + armature[k * 4 + (i % 4)] * root[Math.floor(i / 4) * 4 + k], 0)), 1e-6, 'root joint global (float32 keys, normalised when sampled)');
    const wx = m[0] * x + m[4] * y + m[8] * z + m[12], wy = m[1] * x + m[5] * y + m[9] * z + m[13], wz = m[2] * x + m[6] * y + m[10] * z + m[14];
    near(posed.positions.subarray(v * 3, v * 3 + 3), [wx, -wz, wy], 1e-6, `bottom ring vertex ${v}`);
  }
  // The prop (unskinned, child of the middle joint) moves with that joint: its global is the joint's · its own TRS.
  const globals = globalTransforms(gltf, animation, time);
  const propNode = gltf.json.nodes!.findIndex((n) => n.name === 'Prop');
  const middle = gltf.json.nodes!.findIndex((n) => n.children?.includes(propNode));
  const own = compose(gltf.json.nodes![propNode].translation!, gltf.json.nodes![propNode].rotation!, [1, 1, 1]);
  near(globals[propNode], Array.from({ length: 16 }, (_, i) => [0, 1, 2, 3].reduce((s, k) => s + globals[middle][k * 4 + (i % 4)] * own[Math.floor(i / 4) * 4 + k], 0)), 1e-12, 'prop global');
  assert.notDeepEqual(Array.from(globals[propNode]), Array.from(globalTransforms(gltf, null, 0)[propNode]), 'the prop moves');
});

test('generated fixture: the broken joint index is one past the skin', () => {
  const broken = makeGltf({ vertices: 48, around: 8, joints: 3, broken: 'joint-index' });
  assert.throws(() => scenePrimitives(loadGltf(broken.bytes, noSiblings)), /joint 3 past the skin's 3/);
});

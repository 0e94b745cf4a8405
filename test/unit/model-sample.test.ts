import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IqmDocument } from '../../core/iqm/document';
import { readIqm } from '../../core/iqm/reader';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { fromTRS, invert3x4, mul3x4, toTRS } from '../../core/math/mat3x4';
import { slerpQuat } from '../../core/math/quat';
import { clipFrame, createPose, decodeFrame, sampleClip, sampleFrames } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { mul4, near, trsM4 } from '../helpers/model-ref';
import { prng } from '../helpers/iqe-fixtures';

test('math: fromTRS matches the reference T·R·S; invert and toTRS round-trip', () => {
  const random = prng(7);
  for (let i = 0; i < 50; i++) {
    const t = [random() * 4 - 2, random() * 4 - 2, random() * 4 - 2];
    const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
    const l = Math.hypot(...q);
    const qn = q.map((x) => x / l);
    const s = [0.5 + random(), 0.5 + random(), 0.5 + random()];
    const m = new Float64Array(12);
    fromTRS(m, 0, [...t, ...qn, ...s], 0);
    near(m, trsM4(t, qn, s).slice(0, 3).flat(), 1e-12, 'fromTRS');
    const inv = new Float64Array(12), id = new Float64Array(12);
    invert3x4(inv, 0, m, 0);
    mul3x4(id, 0, m, 0, inv, 0);
    near(id, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], 1e-12, 'm · m⁻¹');
    const back = new Float64Array(10);
    toTRS(back, 0, m, 0, new Float64Array(12));
    const sign = Math.sign(back[6]) === Math.sign(qn[3]) ? 1 : -1;
    near(back, [...t, ...qn.map((x) => x * sign), ...s], 1e-9, 'toTRS');
  }
});

test('math: slerp takes the shorter arc and stays unit length', () => {
  const out = new Float64Array(4);
  const a = [0, 0, 0, 1];
  const b = [0, 0, -Math.sin(Math.PI / 4), -Math.cos(Math.PI / 4)]; // 90° about z, negated
  slerpQuat(out, 0, a, 0, b, 0, 0.5);
  near(out, [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-12, 'halfway is 45°, not 135°');
});

/** Two joints: a root with non-uniform scale that rotates over 2 frames, and a child one unit along x. */
function twoJointDoc(): IqmDocument {
  const joints = [
    { name: 'root', parent: -1, trs: new Float32Array([0, 0, 0, 0, 0, 0, 1, 2, 1, 1]) },
    { name: 'child', parent: 0, trs: new Float32Array([1, 0, 0, 0, 0, 0, 1, 1, 1, 1]) },
  ];
  // Pose 0 rotation z animated: frame 0 identity, frame 1 180° about z (q = (0,0,1,0)).
  return {
    version: 2, flags: 0, vertexCount: 3,
    meshes: [{ name: 'm', material: '', firstVertex: 0, vertexCount: 3, firstTriangle: 0, triangleCount: 1 }],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: new Float32Array([2, 0, 0, 2, 1, 0, 5, 5, 5]), offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 1, size: 4, data: new Uint8Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]), offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 1, size: 4, data: new Uint8Array([255, 0, 0, 0, 128, 127, 0, 0, 0, 0, 0, 0]), offset: 0 },
    ],
    triangles: new Uint32Array([0, 1, 2]), adjacency: null, joints,
    poses: [
      { parent: -1, mask: 0b1100000, offset: new Float32Array([0, 0, 0, 0, 0, 0, 0, 2, 1, 1]), scale: new Float32Array([0, 0, 0, 0, 0, 1 / 65535, 1 / 65535, 0, 0, 0]) },
      { parent: 0, mask: 0, offset: new Float32Array([1, 0, 0, 0, 0, 0, 1, 1, 1, 1]), scale: new Float32Array(10) },
    ],
    anims: [{ name: 'spin', firstFrame: 0, frameCount: 2, framerate: 0, flags: 1 }],
    frameCount: 2, frameChannels: 2, frames: new Uint16Array([0, 65535, 65535, 0]),
    bounds: null, comment: '', extensions: [],
  };
}

test('sample: hierarchical non-uniform scale reaches children; slerp keeps bone length between keys', () => {
  const model = readIqm(writeIqmDocument(twoJointDoc()));
  const pose = createPose(model);
  // Bind: child world origin = root scale (2,1,1) applied to (1,0,0) = (2,0,0).
  near([pose.world[12 + 3], pose.world[12 + 7], pose.world[12 + 11]], [2, 0, 0], 1e-6, 'child bind origin');
  sampleFrames(model, 1, 1, 0, pose);
  const ref = mul4(trsM4([0, 0, 0], [0, 0, 1, 0], [2, 1, 1]), trsM4([1, 0, 0], [0, 0, 0, 1], [1, 1, 1]));
  near(pose.world.subarray(12, 24), ref.slice(0, 3).flat(), 1e-6, 'child world at frame 1');
  // Halfway: the root has turned 90°; the child sits at (0, 2, 0): length 2 kept (matrix lerp gives 0).
  sampleFrames(model, 0, 1, 0.5, pose);
  near([pose.world[15], pose.world[19], pose.world[23]], [0, 2, 0], 1e-4, 'child origin halfway');
  // Skinning: vertex 0 fully on the child; vertex 2 has zero weights and keeps its bind position.
  const out = new Float32Array(totalVertices(model) * 3);
  sampleFrames(model, 1, 1, 0, pose);
  skinVertices(model, pose, out);
  near(out.subarray(0, 3), [-2, 0, 0], 1e-5, 'vertex on child at frame 1');
  near(out.subarray(6, 9), [5, 5, 5], 0, 'unweighted vertex keeps its bind position');
  assert.ok(model.warnings.some((w) => /1 vertices have all blend weights zero/.test(w)));
  // Clip sampling: framerate 0 falls back to 10 fps; 0.05 s is halfway between frames 0 and 1.
  sampleClip(model, 0, 0.05, pose);
  near([pose.world[15], pose.world[19], pose.world[23]], [0, 2, 0], 1e-4, 'clip at 0.05 s');
});

test('clipFrame: looping wraps, one-shot holds, reverse plays backwards', () => {
  const out = { a: 0, b: 0, t: 0 };
  const loop = { name: 'l', firstFrame: 10, frameCount: 4, fps: 2, loop: true };
  assert.deepEqual(clipFrame(loop, 1.75, out), { a: 13, b: 10, t: 0.5 });
  assert.deepEqual(clipFrame(loop, 2.25, out), { a: 10, b: 11, t: 0.5 });
  const once = { ...loop, loop: false };
  assert.deepEqual(clipFrame(once, 100, out), { a: 13, b: 13, t: 0 });
  assert.deepEqual(clipFrame({ ...once, fps: 0 }, 0.15, out), { a: 11, b: 12, t: 0.5 });
  assert.deepEqual(clipFrame({ ...once, reverse: true }, 0.25, out), { a: 13, b: 12, t: 0.5 });
});

test('sample: the fused IQM path equals decode + slerpQuat (the reference) between random keys', () => {
  const random = prng(99);
  const J = 40;
  const joints = Array.from({ length: J }, (_, j) => ({ name: `j${j}`, parent: j - 1, trs: new Float32Array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]) }));
  const poses = joints.map((jt) => ({ parent: jt.parent, mask: 0x3ff, offset: new Float32Array([-1, -1, -1, -1, -1, -1, -1, 0.5, 0.5, 0.5]), scale: new Float32Array(10).fill(2 / 65535) }));
  const frames = new Uint16Array(3 * J * 10).map(() => Math.floor(random() * 65536));
  const model = readIqm(writeIqmDocument({
    version: 2, flags: 0, vertexCount: 0, meshes: [], vertexArrays: [], triangles: new Uint32Array(0), adjacency: null, joints, poses,
    anims: [], frameCount: 3, frameChannels: J * 10, frames, bounds: null, comment: '', extensions: [],
  }));
  const pose = createPose(model);
  const a = new Float32Array(J * 10), b = new Float32Array(J * 10), q = new Float64Array(4);
  decodeFrame(model, 1, a);
  decodeFrame(model, 2, b);
  for (const t of [0.01, 0.25, 0.5, 0.9, 0.999]) {
    sampleFrames(model, 1, 2, t, pose);
    for (let j = 0; j < J; j++) {
      const o = j * 10;
      slerpQuat(q, 0, a, o + 3, b, o + 3, t);
      near(pose.local.subarray(o + 3, o + 7), q, 2e-7, `joint ${j} rotation at t=${t}`);
      near(pose.local.subarray(o, o + 3), [0, 1, 2].map((c) => a[o + c] + (b[o + c] - a[o + c]) * t), 1e-6, 'translation');
    }
  }
});

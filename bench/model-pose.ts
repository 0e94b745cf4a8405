// Pose sampling cost: one 150-joint skeleton sampled at a time between two frames (decode both
// frames' IQM channels, lerp/slerp, local and world matrices). Target (issue 3): <= 20 µs. The
// skinning matrices (world · inverse bind, what the renderer uploads) are reported separately.
// Reported as CPU time of this process (wall time too): the figures are taken on shared machines.
// Also the CPU skinning reference per vertex, for scale.
import { readIqm } from '../core/iqm/reader';
import { writeIqmDocument } from '../test/helpers/iqm-writer';
import type { IqmDocument } from '../core/iqm/document';
import { loadavg } from 'node:os';
import { computeSkin, createPose, sampleClip, sampleFrames } from '../core/model/sample';
import { skinVertices, totalVertices } from '../core/model/skin';

const J = 150;
const F = 60;
const V = 20000;

function doc(): IqmDocument {
  const joints = Array.from({ length: J }, (_, j) => ({ name: `j${j}`, parent: j === 0 ? -1 : Math.floor((j - 1) / 2), trs: new Float32Array([0, 0.1, 0, 0, 0, 0, 1, 1, 1, 1]) }));
  // Every channel animated: the worst case (10 samples per joint per frame).
  const poses = joints.map((jt) => ({ parent: jt.parent, mask: 0x3ff, offset: new Float32Array([-1, -1, -1, -1, -1, -1, -1, 0.5, 0.5, 0.5]), scale: new Float32Array(10).fill(2 / 65535) }));
  // Smooth curves, as exported animation is (every channel moves every frame: the worst case).
  const frames = new Uint16Array(F * J * 10).map((_, i) => 32768 + 20000 * Math.sin(Math.floor(i / (J * 10)) * 0.1 + (i % (J * 10))));
  const positions = new Float32Array(V * 3).map((_, i) => (i % 97) / 97);
  const bi = new Uint8Array(V * 4).map((_, i) => (i * 7) % J);
  const bw = new Uint8Array(V * 4).map((_, i) => [128, 64, 32, 31][i % 4]);
  return {
    version: 2, flags: 0, vertexCount: V,
    meshes: [{ name: 'm', material: 'm', firstVertex: 0, vertexCount: V, firstTriangle: 0, triangleCount: 0 }],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: positions, offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 1, size: 4, data: bi, offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 1, size: 4, data: bw, offset: 0 },
    ],
    triangles: new Uint32Array(0), adjacency: null, joints, poses,
    anims: [{ name: 'all', firstFrame: 0, frameCount: F, framerate: 30, flags: 1 }],
    frameCount: F, frameChannels: J * 10, frames, bounds: null, comment: '', extensions: [],
  };
}

const model = readIqm(writeIqmDocument(doc()));
const pose = createPose(model);

/** Median over 15 rounds of [CPU µs, wall µs] per call. */
function measure(fn: (i: number) => void): [number, number] {
  const n = 20000;
  for (let i = 0; i < n; i++) fn(i); // warm-up
  const cpu: number[] = [], wall: number[] = [];
  for (let k = 0; k < 15; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn(i);
    wall.push(((performance.now() - t0) * 1000) / n);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / n);
  }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return [med(cpu), med(wall)];
}

console.log(`load average ${loadavg()[0].toFixed(1)} on this machine`);
pose.updateSkin = false;
const [between, betweenWall] = measure((i) => sampleClip(model, 0, i * 0.0137, pose));
console.log(`pose sample (local + world matrices), ${J} joints, all 10 channels animated, between two frames: ${between.toFixed(2)} µs CPU (${betweenWall.toFixed(2)} µs wall) (target <= 20 µs) ${between <= 20 ? 'OK' : 'ABOVE TARGET'}`);
const [exact] = measure((i) => sampleFrames(model, i % F, i % F, 0, pose));
console.log(`  at an exact frame: ${exact.toFixed(2)} µs CPU`);
pose.updateSkin = true;
const [withSkin] = measure((i) => sampleClip(model, 0, i * 0.0137, pose));
console.log(`  with skinning matrices too (the renderer's per-frame cost): ${withSkin.toFixed(2)} µs CPU`);
const [skin] = measure(() => computeSkin(model, pose));
console.log(`  skinning matrices alone (world · inverse bind): ${skin.toFixed(2)} µs CPU`);

const out = new Float32Array(totalVertices(model) * 3);
for (let i = 0; i < 20; i++) skinVertices(model, pose, out);
const t0 = performance.now();
const reps = 50;
for (let i = 0; i < reps; i++) skinVertices(model, pose, out);
const ms = (performance.now() - t0) / reps;
console.log(`CPU skinning reference, ${V} vertices × 4 influences: ${ms.toFixed(2)} ms (${((ms * 1e6) / V).toFixed(0)} ns per vertex; a reference, not a target)`);

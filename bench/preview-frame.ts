// Per-frame CPU work of the preview outside the browser: Scene.update (pose sampling between two
// frames, slerp, world and skin matrices, packing the joint texture) for a 150-joint IQM and a
// 150-bone DPM, and the heap growth over many frames (the frame loop must allocate nothing).
// Target (issue 5): ≤ 1 ms per frame, no allocations. Run with --expose-gc (npm run bench does).

import { writeIqmDocument } from '../test/helpers/iqm-writer';
import type { IqmDocument } from '../core/iqm/document';
import { readModel } from '../core/formats/models';
import type { Model } from '../core/model/model';
import { Scene } from '../media/scene';
import { syntheticDpm } from '../test/browser/synthetic';

const J = 150;
const F = 60;

function iqmDoc(): IqmDocument {
  const joints = Array.from({ length: J }, (_, j) => ({ name: `j${j}`, parent: j === 0 ? -1 : (j - 1) >> 1, trs: new Float32Array([0, 0.1, 0, 0, 0, 0, 1, 1, 1, 1]) }));
  const poses = joints.map((jt) => ({ parent: jt.parent, mask: 0x3ff, offset: new Float32Array([-1, -1, -1, -1, -1, -1, -1, 0.5, 0.5, 0.5]), scale: new Float32Array(10).fill(2 / 65535) }));
  const frames = new Uint16Array(F * J * 10).map((_, i) => 32768 + 20000 * Math.sin(Math.floor(i / (J * 10)) * 0.1 + (i % (J * 10))));
  const V = 1000;
  return {
    version: 2, flags: 0, vertexCount: V,
    meshes: [{ name: 'm', material: 'm', firstVertex: 0, vertexCount: V, firstTriangle: 0, triangleCount: 0 }],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: new Float32Array(V * 3), offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 1, size: 4, data: new Uint8Array(V * 4).map((_, i) => (i * 7) % J), offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 1, size: 4, data: new Uint8Array(V * 4).map((_, i) => [128, 64, 32, 31][i % 4]), offset: 0 },
    ],
    triangles: new Uint32Array(0), adjacency: null, joints, poses,
    anims: [{ name: 'all', firstFrame: 0, frameCount: F, framerate: 30, flags: 1 }],
    frameCount: F, frameChannels: J * 10, frames, bounds: null, comment: '', extensions: [],
  };
}

function bench(name: string, model: Model): void {
  const scene = new Scene(model);
  scene.clips = model.clips.length
    ? model.clips.map((c) => ({ ...c, source: 'file' }))
    : [{ name: 'all', firstFrame: 0, frameCount: model.frameCount, fps: 30, loop: true, source: 'bench' }];
  const n = 20000;
  const frame = (i: number) => scene.update(0, i * 0.0137, true, true);
  for (let i = 0; i < n; i++) frame(i); // warm-up (and JIT)
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) frame(i);
  const wall = ((performance.now() - t0) / n) * 1000;
  const cpu = process.cpuUsage(c0);
  const perFrameCpu = (cpu.user + cpu.system) / n;
  // Allocation: heap growth over many frames with no GC in between (a young-generation object is at
  // least 16 bytes, so anything under that per frame is V8 bookkeeping, not an allocation per frame).
  const gc = (globalThis as { gc?: () => void }).gc;
  const m = 100000;
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < m; i++) frame(i);
  const perFrameBytes = (process.memoryUsage().heapUsed - heap0) / m;
  console.log(
    `${name}: ${perFrameCpu.toFixed(1)} µs CPU per frame (${wall.toFixed(1)} µs wall), target ≤ 1000 µs; ` +
      `heap growth ${perFrameBytes.toFixed(1)} bytes per frame over ${m} frames${gc ? '' : ' (run with --expose-gc for a clean figure)'}`,
  );
}

bench(`IQM, ${J} joints, all 10 channels animated, interpolated`, readModel(writeIqmDocument(iqmDoc())));
bench(`DPM, 150 bones, interpolated (slerp between frames)`, readModel(syntheticDpm(150, 20, 64).bytes));

// A large generated IQM for the benchmarks (bench/validate.ts, bench/preview-first-frame.ts):
// a flat grid with every standard array, skinned to a chain of joints, with one animation.
import type { IqmDocument } from '../../core/iqm/document';
import { writeIqmDocument } from '../../test/helpers/iqm-writer';

/** A grid of side × side vertices (every standard array), skinned to a chain of `joints` joints (at most 256), `frameCount` frames. */
export function bigIqm(side: number, frameCount = 100, joints = 32): Uint8Array {
  const n = side * side;
  const position = new Float32Array(n * 3), texcoord = new Float32Array(n * 2), normal = new Float32Array(n * 3), tangent = new Float32Array(n * 4);
  const indexes = new Uint8Array(n * 4), weights = new Uint8Array(n * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = y * side + x;
      position.set([x / side, y / side, 0], v * 3);
      texcoord.set([x / side, y / side], v * 2);
      normal.set([0, 0, 1], v * 3);
      tangent.set([1, 0, 0, 1], v * 4);
      const j = Math.min(joints - 1, Math.floor((y / side) * joints));
      indexes.set([j, Math.max(0, j - 1), 0, 0], v * 4);
      weights.set([191, 64, 0, 0], v * 4);
    }
  }
  const triangles = new Uint32Array((side - 1) * (side - 1) * 6);
  let t = 0;
  for (let y = 0; y + 1 < side; y++) {
    for (let x = 0; x + 1 < side; x++) {
      const v = y * side + x;
      triangles.set([v, v + 1, v + side + 1, v, v + side + 1, v + side], t);
      t += 6;
    }
  }
  const frames = new Uint16Array(frameCount * joints);
  for (let f = 0; f < frameCount; f++) for (let j = 0; j < joints; j++) frames[f * joints + j] = (f * 37 + j) % 100;
  const doc: IqmDocument = {
    version: 2, flags: 0, vertexCount: n,
    meshes: [{ name: 'grid', material: 'grid.tga', firstVertex: 0, vertexCount: n, firstTriangle: 0, triangleCount: triangles.length / 3 }],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: position, offset: 0 },
      { type: 1, name: 'texcoord', flags: 0, format: 7, size: 2, data: texcoord, offset: 0 },
      { type: 2, name: 'normal', flags: 0, format: 7, size: 3, data: normal, offset: 0 },
      { type: 3, name: 'tangent', flags: 0, format: 7, size: 4, data: tangent, offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 1, size: 4, data: indexes, offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 1, size: 4, data: weights, offset: 0 },
    ],
    triangles, adjacency: null,
    joints: Array.from({ length: joints }, (_, j) => ({ name: `j${j}`, parent: j - 1, trs: new Float32Array([0, j === 0 ? 0 : 1 / joints, 0, 0, 0, 0, 1, 1, 1, 1]) })),
    // Each joint's translate z is animated (0..0.1 units).
    poses: Array.from({ length: joints }, (_, j) => ({ parent: j - 1, mask: 4, offset: new Float32Array([0, j === 0 ? 0 : 1 / joints, 0, 0, 0, 0, 1, 1, 1, 1]), scale: new Float32Array([0, 0, 0.001, 0, 0, 0, 0, 0, 0, 0]) })),
    anims: [{ name: 'wave', firstFrame: 0, frameCount, framerate: 30, flags: 1 }],
    frameCount, frameChannels: joints, frames,
    bounds: new Float32Array(Array.from({ length: frameCount }, () => [-1, -1, -1, 2, 2, 5, 10, 10]).flat()),
    comment: '', extensions: [],
  };
  return writeIqmDocument(doc);
}

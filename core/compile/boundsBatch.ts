// Per-frame bounds by evaluating every (distinct) point of a frame in tight loops: the points
// sorted by how many influences they have, one loop per count over flat arrays (no branch per
// influence, no object per point; loops written out for one and two influences were no faster).
// The bounds runner (bounds.ts) takes this where its pruning tests more groups than they save
// (small groups, many bones each: a box test then costs more than evaluating its few vertices),
// so that its cost is never much above evaluating everything, whatever the model's shape.
// Each point is skinned with evaluate()'s operations in the same order (m = sum of skin[bone] *
// weight from a zero matrix, p = m * (x, y, z, 1)), so every p is bit-identical; the extremes are
// taken over another order than the vertices', which changes nothing unless an extreme is +-0 or
// not finite (the caller checks, and redoes such a frame in vertex order).
import { type ArrayKind } from '../pages';
import { type KernelMemory, kernelLayout, loadKernel } from '../wasm';
import boundsWasm from '../../wasm/bounds.wasm';

/** Points sorted by influence count (0 to 4: points of count 0 are at the origin). */
export interface BatchPoints {
  /** Points of count k are points start[k] .. start[k + 1] - 1 (6 values). */
  start: Int32Array;
  /** x y z per point. */
  positions: Float64Array;
  /** Their influences: k per point of count k (12 * bone, and the weight as a float), counts one after another. */
  offsets: Int32Array;
  weights: Float64Array;
  /** Where each count's influences begin in offsets and weights (5 values). */
  influenceStart: Int32Array;
  /**
   * 1 where a point's influences (bones and weights) differ from the point before it: within a
   * count, the points of one influence class are neighbours, and only the first of each run
   * blends the class's matrix (the next ones reuse it: the same doubles as blending it again).
   */
  fresh: Uint8Array;
}

/**
 * The batch of points `vertices[0 .. count)` (input vertices; x y z and four influences at 4 v, the
 * influences with a weight > 0 first, input.ts), of influence classes `classOf` (numbered from 0,
 * -1 for no weight; points of a class have the same bones and weights). `allocate` gives the
 * arrays (shared ones for a worker thread).
 */
export function batchPoints(
  vertices: Int32Array,
  count: number,
  positions: Float64Array,
  weights: Float64Array,
  bones: Uint8Array,
  classOf: Int32Array,
  allocate: <T>(kind: ArrayKind<T>, n: number) => T,
): BatchPoints {
  const influences = new Uint8Array(count);
  const start = allocate(Int32Array, 6);
  for (let i = 0; i < count; i++) {
    const o = 4 * vertices[i];
    let k = 0;
    while (k < 4 && Math.fround(weights[o + k]) > 0) k++;
    influences[i] = k;
    start[k + 1]++;
  }
  const influenceStart = allocate(Int32Array, 5);
  for (let k = 0; k < 5; k++) {
    if (k > 0) influenceStart[k] = influenceStart[k - 1] + (k - 1) * start[k];
    start[k + 1] += start[k];
  }
  const batch: BatchPoints = {
    start,
    positions: allocate(Float64Array, 3 * count),
    offsets: allocate(Int32Array, influenceStart[4] + 4 * (start[5] - start[4])),
    weights: allocate(Float64Array, influenceStart[4] + 4 * (start[5] - start[4])),
    influenceStart,
    fresh: allocate(Uint8Array, count),
  };
  // Within each count, the points class by class (a counting sort; classes in their first order).
  let classCount = 0;
  for (let i = 0; i < count; i++) classCount = Math.max(classCount, classOf[i] + 1);
  const classNext = new Int32Array(classCount);
  const classCount0 = new Int32Array(classCount);
  const classK = new Uint8Array(classCount);
  for (let i = 0; i < count; i++) {
    const c = classOf[i];
    if (c >= 0) {
      classCount0[c]++;
      classK[c] = influences[i];
    }
  }
  for (let k = 1, p = start[1]; k <= 4; k++) {
    for (let c = 0; c < classCount; c++) {
      if (classK[c] !== k) continue;
      classNext[c] = p;
      batch.fresh[p] = 1;
      p += classCount0[c];
    }
  }
  let unweighted = start[0];
  for (let i = 0; i < count; i++) {
    const o = 4 * vertices[i];
    const k = influences[i];
    const c = classOf[i];
    const p = c >= 0 ? classNext[c]++ : unweighted++;
    batch.positions[3 * p] = positions[o];
    batch.positions[3 * p + 1] = positions[o + 1];
    batch.positions[3 * p + 2] = positions[o + 2];
    const q = influenceStart[k] + k * (p - start[k]);
    for (let c = 0; c < k; c++) {
      batch.offsets[q + c] = 12 * bones[o + c];
      batch.weights[q + c] = Math.fround(weights[o + c]);
    }
  }
  return batch;
}

/**
 * The extremes of one frame over the batch into e: min x y z, max x y z, the largest x^2 + y^2
 * and x^2 + y^2 + z^2 (0 when none is larger), with the skin matrices `skin` (12 per joint).
 */
export function batchExtremes(batch: BatchPoints, skin: Float64Array, e: Float64Array): void {
  const kernel = loadKernel(boundsSlot, boundsWasm);
  if (kernel) kernelExtremes(kernel, batch, skin, e);
  else scriptExtremes(batch, skin, e);
}

/** batchExtremes in JavaScript (where WebAssembly is not to be had). */
export function scriptExtremes(batch: BatchPoints, skin: Float64Array, e: Float64Array): void {
  initialExtremes(batch, e);
  for (let k = 1; k <= 4; k++) if (batch.start[k + 1] > batch.start[k]) influenced(batch, k, skin, e);
}

/** The extremes before any influenced point: none, or the origin for the points of no weight. */
function initialExtremes(batch: BatchPoints, e: Float64Array): void {
  e[0] = e[1] = e[2] = Infinity;
  e[3] = e[4] = e[5] = -Infinity;
  e[6] = e[7] = 0;
  const { start } = batch;
  if (start[1] > start[0]) {
    // No weight: p = (0, 0, 0).
    for (let c = 0; c < 3; c++) {
      e[c] = Math.min(e[c], 0);
      e[3 + c] = Math.max(e[3 + c], 0);
    }
  }
}

/** wasm/bounds.ts's exports. */
interface BoundsKernel extends KernelMemory {
  transpose(skin: number, lanes: number, joints: number): void;
  influenced(positions: number, offsets: number, weights: number, fresh: number, lanes: number, first: number, end: number, k: number, q0: number, out: number): void;
  classExtremes(points: number, classes: number, m: number, n: number, out: number): number;
  classMatrices(skin: number, offsets: number, weights: number, n: number, m: number): void;
}
const boundsSlot: { kernel?: BoundsKernel | null } = {};

/** Whether batchExtremes runs the WebAssembly kernel here (tests). */
export function boundsKernelAvailable(): boolean {
  return loadKernel(boundsSlot, boundsWasm) !== null;
}

/**
 * The batch whose points are in the kernel's memory (copied once per batch: each thread has its
 * own kernel), and where: byte offsets of its arrays, of the skin, its lanes and the extremes.
 */
let loaded: { batch: BatchPoints; positions: number; offsets: number; weights: number; fresh: number; skin: number; lanes: number; out: number; joints: number } | null = null;

/** A frame of computeBoundsSmall in the kernel (classFrames). */
export interface ClassFrame {
  /**
   * The class matrices of the frame whose joints' skinning matrices are `skin` (12 per joint),
   * and its bounds into out[o .. o + 7]; false when some p is not a number.
   */
  frame(skin: Float64Array, out: Float64Array, o: number): boolean;
  /** The class matrices of the last frame, into m (12 per class): for the caller's own pass. */
  matrices(m: Float64Array): void;
}

/**
 * computeBoundsSmall's frames (bounds.ts classMatrices and frameExtremes, the same doubles) in the
 * kernel: points `vertices[0 .. count)` (input vertices: x y z at 4 v of positions) of classes
 * classOf, and the classes' bones (12 * bone: `offsets`) and weights, four each, copied once; a
 * frame copies only its joints' matrices in. Null without the kernel.
 */
export function classFrames(vertices: Int32Array, positions: Float64Array, classOf: Int32Array, count: number, offsets: Int32Array, weights: Float64Array, joints: number): ClassFrame | null {
  const kernel = loadKernel(boundsSlot, boundsWasm);
  if (!kernel) return null;
  // A bone past the skeleton reads undefined (NaN) in JavaScript, another array's bytes here.
  for (let q = 0; q < offsets.length; q++) if (offsets[q] >= 12 * joints) return null;
  const classCount = weights.length / 4;
  const [pointsAt, classesAt, offsetsAt, weightsAt, skinAt, mAt, outAt] = kernelLayout(kernel, [24 * count, 4 * count, 16 * classCount, 32 * classCount, 96 * joints, 96 * classCount, 64]);
  const memory = kernel.memory;
  // The whole-frame batch's copy is overwritten here.
  loaded = null;
  const points = new Float64Array(memory.buffer, pointsAt, 3 * count);
  for (let i = 0; i < count; i++) {
    const r = 4 * vertices[i];
    points[3 * i] = positions[r];
    points[3 * i + 1] = positions[r + 1];
    points[3 * i + 2] = positions[r + 2];
  }
  new Int32Array(memory.buffer, classesAt, count).set(classOf.subarray(0, count));
  new Int32Array(memory.buffer, offsetsAt, 4 * classCount).set(offsets);
  new Float64Array(memory.buffer, weightsAt, 4 * classCount).set(weights);
  const skinIn = new Float64Array(memory.buffer, skinAt, 12 * joints);
  const m = new Float64Array(memory.buffer, mAt, 12 * classCount);
  const e = new Float64Array(memory.buffer, outAt, 8);
  return {
    frame(skin, out, o) {
      skinIn.set(skin.subarray(0, 12 * joints));
      kernel.classMatrices(skinAt, offsetsAt, weightsAt, classCount, mAt);
      const exact = kernel.classExtremes(pointsAt, classesAt, mAt, count, outAt) === 1;
      for (let k = 0; k < 6; k++) out[o + k] = e[k];
      out[o + 6] = e[6] > 0 ? Math.sqrt(e[6]) : e[6];
      out[o + 7] = e[7] > 0 ? Math.sqrt(e[7]) : e[7];
      return exact;
    },
    matrices(into) {
      into.set(m);
    },
  };
}

/** batchExtremes in the kernel (wasm/bounds.ts: the same doubles). */
function kernelExtremes(kernel: BoundsKernel, batch: BatchPoints, skin: Float64Array, e: Float64Array): void {
  const joints = skin.length / 12;
  if (!loaded || loaded.batch !== batch || loaded.joints < joints) {
    const influences = batch.offsets.length;
    const [positions, offsets, weights, fresh, skinAt, lanes, out] = kernelLayout(kernel, [batch.positions.length * 8, influences * 4, influences * 8, batch.fresh.length, joints * 96, joints * 96, 64]);
    const memory = kernel.memory;
    new Float64Array(memory.buffer, positions, batch.positions.length).set(batch.positions);
    new Int32Array(memory.buffer, offsets, influences).set(batch.offsets);
    new Float64Array(memory.buffer, weights, influences).set(batch.weights);
    new Uint8Array(memory.buffer, fresh, batch.fresh.length).set(batch.fresh);
    loaded = { batch, positions, offsets, weights, fresh, skin: skinAt, lanes, out, joints };
  }
  const { buffer } = kernel.memory;
  new Float64Array(buffer, loaded.skin, skin.length).set(skin);
  kernel.transpose(loaded.skin, loaded.lanes, joints);
  initialExtremes(batch, e);
  const out = new Float64Array(buffer, loaded.out, 8);
  out.set(e);
  const { start, influenceStart } = batch;
  for (let k = 1; k <= 4; k++) {
    const first = start[k], end = start[k + 1];
    if (end > first) kernel.influenced(loaded.positions, loaded.offsets, loaded.weights, loaded.fresh, loaded.lanes, first, end, k, influenceStart[k] - k * first, loaded.out);
  }
  e.set(out);
}

/** Points of k influences (1 to 4). */
function influenced(batch: BatchPoints, k: number, skin: Float64Array, e: Float64Array): void {
  const { positions, offsets, weights, fresh } = batch;
  const first = batch.start[k], end = batch.start[k + 1], q0 = batch.influenceStart[k] - k * first;
  let minX = e[0], minY = e[1], minZ = e[2], maxX = e[3], maxY = e[4], maxZ = e[5], exy = e[6], er = e[7];
  let m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0, m7 = 0, m8 = 0, m9 = 0, m10 = 0, m11 = 0;
  for (let i = first; i < end; i++) {
    // A point of the same class as the one before: the same matrix.
    if (fresh[i] === 1) {
      m0 = m1 = m2 = m3 = m4 = m5 = m6 = m7 = m8 = m9 = m10 = m11 = 0;
      for (let q = q0 + k * i; q < q0 + k * i + k; q++) {
        const s = offsets[q], w = weights[q];
        m0 += skin[s] * w; m1 += skin[s + 1] * w; m2 += skin[s + 2] * w; m3 += skin[s + 3] * w;
        m4 += skin[s + 4] * w; m5 += skin[s + 5] * w; m6 += skin[s + 6] * w; m7 += skin[s + 7] * w;
        m8 += skin[s + 8] * w; m9 += skin[s + 9] * w; m10 += skin[s + 10] * w; m11 += skin[s + 11] * w;
      }
    }
    const x = positions[3 * i], y = positions[3 * i + 1], z = positions[3 * i + 2];
    const px = m0 * x + m1 * y + m2 * z + m3, py = m4 * x + m5 * y + m6 * z + m7, pz = m8 * x + m9 * y + m10 * z + m11;
    minX = minX < px ? minX : px; maxX = maxX > px ? maxX : px;
    minY = minY < py ? minY : py; maxY = maxY > py ? maxY : py;
    minZ = minZ < pz ? minZ : pz; maxZ = maxZ > pz ? maxZ : pz;
    const xy = px * px + py * py;
    if (xy > exy) exy = xy;
    const r = xy + pz * pz;
    if (r > er) er = r;
  }
  e[0] = minX; e[1] = minY; e[2] = minZ; e[3] = maxX; e[4] = maxY; e[5] = maxZ; e[6] = exy; e[7] = er;
}

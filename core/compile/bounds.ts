// Stage: per-frame bounds (IQE-SEMANTICS.md §4.10, with B15: only written vertices count).
//
// Each vertex is skinned as the reference does it: m = sum of skin[bone] * float(weight) from a
// zero matrix, p = m * (x, y, z, 1), all in double; the box, the XY radius and the radius are
// taken over the vertices. Doing that for every vertex of every frame is most of the reference's
// time (§11). Here (boundsRunner):
// - Vertices are grouped (up to 16 vertices with the same influences). Since p = sum_k w_k S_k v
//   is linear in v and in the weights, a box of p over a group follows from the group's bind-pose
//   box and weight ranges, a few operations per bone; and over several frames at once from the
//   intervals of each skin matrix entry over those frames (with v taken relative to a centre of
//   the bone's vertices, so that a rotation does not count the distance to the origin).
// - Frames go in blocks of 32 with a binary tree over each block's frames. A few seed vertices
//   (those that made the extremes of earlier frames) are evaluated in every frame first: their
//   extremes are inner bounds of the frame's. Each group walks down the tree and stops at the
//   first node where its box is strictly inside the inner bounds of all the node's frames; at a
//   single frame it is tested against the extremes found so far and evaluated if not inside.
// Only one vertex of each distinct point (position and influences) is planned: a repeated point
// gives the same p (blocks with huge or non-finite skins, where a p may be NaN and the order of
// repeats matters, evaluate every vertex in order).
// Every vertex that makes an extreme is evaluated exactly as the reference does, so the results
// are bit-identical; the one case where the order of evaluation matters (an extreme of exactly
// +-0, where the later of equal values wins, or values that are not finite) is recomputed in
// vertex order. Where the pruning of a block costs more than evaluating all its points (small
// groups of many bones, few points under a long skeleton), the following blocks are evaluated
// whole in tight loops instead (boundsBatch.ts, BOX_COST), so that no shape costs much more than
// that. Frame ranges are independent, which lets the CLI share them with a worker thread
// (node/compileParallel.ts); small inputs are evaluated in full.
// A group's enclosure is the intersection of two: each bone's term on its own, and the weights'
// sum times the first bone's term plus the other bones' differences to it (groupInside).
import type { OutputSkeleton } from './skeleton';
import { float64s, int32s } from '../growable';
import { alignedArray, type ArrayKind, newArray } from '../pages';
import { fromTRS, mul3x4 } from '../math/mat3x4';
import { UNSCALED_STRIDE } from '../math/pose';
import { type BatchPoints, batchExtremes, batchPoints, boundsKernelAvailable, classFrames } from './boundsBatch';

export interface BoundsInput {
  /** Written input vertices (ascending) and all transformed positions (x, y, z, w per input vertex). */
  vertices: Int32Array;
  positions: Float64Array;
  blendBones: Uint8Array;
  blendWeights: Float64Array;
  skeleton: OutputSkeleton;
  /** Output frames: indices into the file's frame list; poses of frame f start at framePoseStart[f]. */
  frames: Int32Array;
  /** framePoseStride values per pose (input.ts). */
  framePoses: Float64Array;
  framePoseStride: number;
  framePoseStart: Int32Array;
}

/** What the skin matrices of a frame come from. */
interface Animation {
  parents: Int32Array;
  inverse: Float64Array;
  framePoses: Float64Array;
  framePoseStride: number;
  framePoseStart: Int32Array;
}

/** Skin matrices (world * inverse bind) of one frame into `skin`. */
function skinMatrices(a: Animation, frame: number, world: Float64Array, local: Float64Array, skin: Float64Array): void {
  const { parents, inverse } = a;
  const stride = a.framePoseStride;
  const base = a.framePoseStart[frame] * stride;
  const count = parents.length;
  for (let j = 0; j < count; j++) {
    fromTRS(local, 0, a.framePoses, base + stride * j, stride <= UNSCALED_STRIDE);
    const parent = parents[j];
    if (parent >= 0 && parent < j) mul3x4(world, 12 * j, world, 12 * parent, local, 0);
    else world.set(local, 12 * j);
  }
  for (let j = 0; j < count; j++) mul3x4(skin, 12 * j, world, 12 * j, inverse, 12 * j);
}

/**
 * The written vertices as the bounds read them: written vertex i is input vertex vertices[i],
 * read where the input has it (no copy: on a large file these are tens of MB): x y z at 4 v; at
 * 4 v .. 4 v + 3 its influences, those with a weight > 0 first (input.ts blendCombo), each
 * weight taken as the reference's float (Math.fround).
 */
interface SkinVertices {
  vertices: Int32Array;
  positions: Float64Array;
  weights: Float64Array;
  bones: Uint8Array;
}

/** The four bone bytes of each input vertex as one word (the same word for the same bones). */
function boneWords(bones: Uint8Array): Uint32Array {
  return new Uint32Array(bones.buffer, bones.byteOffset, bones.length / 4);
}

function prepare(input: BoundsInput): SkinVertices {
  return { vertices: input.vertices, positions: input.positions, weights: input.blendWeights, bones: input.blendBones };
}

/**
 * Skins written vertex i: m = sum of skin[bone] * weight over its influences (from a zero
 * matrix), p = m * (x, y, z, 1); writes p to res[0..2].
 */
function evaluate(sv: SkinVertices, i: number, skin: Float64Array, res: Float64Array): void {
  const { weights, bones } = sv;
  const o = 4 * sv.vertices[i];
  const x = sv.positions[o], y = sv.positions[o + 1], z = sv.positions[o + 2];
  let w = Math.fround(weights[o]);
  if (!(w > 0)) {
    res[0] = res[1] = res[2] = 0;
    return;
  }
  let s = 12 * bones[o];
  let m0 = 0 + skin[s] * w, m1 = 0 + skin[s + 1] * w, m2 = 0 + skin[s + 2] * w, m3 = 0 + skin[s + 3] * w;
  let m4 = 0 + skin[s + 4] * w, m5 = 0 + skin[s + 5] * w, m6 = 0 + skin[s + 6] * w, m7 = 0 + skin[s + 7] * w;
  let m8 = 0 + skin[s + 8] * w, m9 = 0 + skin[s + 9] * w, m10 = 0 + skin[s + 10] * w, m11 = 0 + skin[s + 11] * w;
  for (let k = 1; k < 4; k++) {
    w = Math.fround(weights[o + k]);
    if (!(w > 0)) break;
    s = 12 * bones[o + k];
    m0 += skin[s] * w; m1 += skin[s + 1] * w; m2 += skin[s + 2] * w; m3 += skin[s + 3] * w;
    m4 += skin[s + 4] * w; m5 += skin[s + 5] * w; m6 += skin[s + 6] * w; m7 += skin[s + 7] * w;
    m8 += skin[s + 8] * w; m9 += skin[s + 9] * w; m10 += skin[s + 10] * w; m11 += skin[s + 11] * w;
  }
  res[0] = m0 * x + m1 * y + m2 * z + m3;
  res[1] = m4 * x + m5 * y + m6 * z + m7;
  res[2] = m8 * x + m9 * y + m10 * z + m11;
}

/** Running extremes of one frame, updated as the reference does (the first vertex initialises). */
class Extremes {
  minX = 0; minY = 0; minZ = 0; maxX = 0; maxY = 0; maxZ = 0; xy = 0; r = 0;
  first = true;
  reset(): void {
    this.first = true;
    this.xy = this.r = 0;
  }
  add(x: number, y: number, z: number): void {
    if (this.first) {
      this.minX = this.maxX = x; this.minY = this.maxY = y; this.minZ = this.maxZ = z;
      this.first = false;
    } else {
      this.minX = this.minX < x ? this.minX : x; this.minY = this.minY < y ? this.minY : y; this.minZ = this.minZ < z ? this.minZ : z;
      this.maxX = this.maxX > x ? this.maxX : x; this.maxY = this.maxY > y ? this.maxY : y; this.maxZ = this.maxZ > z ? this.maxZ : z;
    }
    const xy = x * x + y * y;
    if (xy > this.xy) this.xy = xy;
    const r = xy + z * z;
    if (r > this.r) this.r = r;
  }
  /** True when the order of the vertices can change the result: a box side of +-0, or not finite. */
  orderMatters(): boolean {
    const box = [this.minX, this.minY, this.minZ, this.maxX, this.maxY, this.maxZ];
    return box.some((x) => x === 0 || !Number.isFinite(x)) || !Number.isFinite(this.xy) || !Number.isFinite(this.r);
  }
  write(out: Float64Array, o: number): void {
    out[o] = this.minX; out[o + 1] = this.minY; out[o + 2] = this.minZ;
    out[o + 3] = this.maxX; out[o + 4] = this.maxY; out[o + 5] = this.maxZ;
    out[o + 6] = this.xy > 0 ? Math.sqrt(this.xy) : this.xy;
    out[o + 7] = this.r > 0 ? Math.sqrt(this.r) : this.r;
  }
}

/** The straightforward computation: every vertex in every frame (small inputs, and tests). */
export function computeBoundsFull(input: BoundsInput): Float64Array {
  const sv = prepare(input);
  const n = input.vertices.length;
  const jointCount = input.skeleton.parents.length;
  const world = new Float64Array(12 * jointCount), skin = new Float64Array(12 * jointCount), local = new Float64Array(12);
  const out = new Float64Array(8 * input.frames.length);
  const e = new Extremes();
  const res = new Float64Array(3);
  const animation = { parents: input.skeleton.parents, inverse: input.skeleton.inverse, framePoses: input.framePoses, framePoseStride: input.framePoseStride, framePoseStart: input.framePoseStart };
  for (let f = 0; f < input.frames.length; f++) {
    skinMatrices(animation, input.frames[f], world, local, skin);
    e.reset();
    for (let i = 0; i < n; i++) {
      evaluate(sv, i, skin, res);
      e.add(res[0], res[1], res[2]);
    }
    e.write(out, 8 * f);
  }
  return out;
}

/**
 * computeBoundsFull with the skinning matrix summed once per frame for each set of influences
 * (bones and float weights) rather than once per vertex: vertices with the same influences get
 * the same matrix from the same operations, and p = m * (x, y, z, 1) and the extremes are then
 * taken in vertex order exactly as there, so the result is bit-identical. Each frame first takes
 * one vertex of each distinct point (position and influences: the seams and hard edges of a model
 * repeat positions, 40-60% of its vertices): a repeated point gives the same p bits again, which
 * cannot change a minimum, maximum or radius unless some p is NaN (the later of NaN and a number
 * wins); a frame with a NaN is computed again with every vertex. (Equal values of other bits
 * would matter too, but the only ones are +0 and -0, and no p is -0: its last term, the matrix's
 * translation, is a sum started from +0, which is never -0, and x + (+0) is -0 for no x.)
 * Small inputs run this before it is optimised: each loop is a small function of its own, which
 * V8 optimises sooner (and while the loop runs) than one large function.
 */
export function computeBoundsSmall(input: BoundsInput): Float64Array {
  const sv = prepare(input);
  const n = input.vertices.length;
  const { classOf, members } = influenceClasses(sv, n);
  const classCount = members.length;
  const classOffsets = newArray(Int32Array, 4 * classCount);
  const classWeights = newArray(Float64Array, 4 * classCount);
  for (let c = 0; c < classCount; c++) {
    const o = 4 * sv.vertices[members[c]];
    for (let k = 0; k < 4; k++) {
      classWeights[4 * c + k] = Math.fround(sv.weights[o + k]);
      classOffsets[4 * c + k] = 12 * sv.bones[o + k];
    }
  }
  const points = distinctPoints(sv, classOf, n);
  const jointCount = input.skeleton.parents.length;
  const world = new Float64Array(12 * jointCount), skin = new Float64Array(12 * jointCount), local = new Float64Array(12);
  const m = newArray(Float64Array, 12 * classCount);
  const out = new Float64Array(8 * input.frames.length);
  const animation = { parents: input.skeleton.parents, inverse: input.skeleton.inverse, framePoses: input.framePoses, framePoseStride: input.framePoseStride, framePoseStart: input.framePoseStart };
  // The distinct points' frames, class matrices included, in the WebAssembly kernel where it
  // exists (the same doubles).
  const kernel = input.frames.length > 0 ? classFrames(points.vertices, sv.positions, points.classOf, points.count, classOffsets, classWeights, jointCount) : null;
  for (let f = 0; f < input.frames.length; f++) {
    skinMatrices(animation, input.frames[f], world, local, skin);
    let exact: boolean;
    if (kernel) {
      exact = kernel.frame(skin, out, 8 * f);
      if (!exact) kernel.matrices(m);
    } else {
      classMatrices(skin, classOffsets, classWeights, classCount, m);
      exact = frameExtremes(points.vertices, sv.positions, points.classOf, m, points.count, out, 8 * f);
    }
    if (!exact && points.count < n) frameExtremes(sv.vertices, sv.positions, classOf, m, n, out, 8 * f);
  }
  return out;
}

/** The skinning matrix of every influence class into m (12 values each). */
function classMatrices(skin: Float64Array, offsets: Int32Array, weights: Float64Array, classCount: number, m: Float64Array): void {
  for (let c = 0; c < classCount; c++) classMatrix(skin, offsets, weights, c, m);
}

/**
 * The bounds of one frame into out[o .. o + 7] over written vertices vertices[0 .. n): each skinned
 * by its class's matrix (0 for no class), the extremes taken as Extremes.add takes them (the first
 * vertex initialises). False when some p is not a number (the sum of all is then NaN), where the
 * order of the vertices matters.
 */
function frameExtremes(vertices: Int32Array, positions: Float64Array, classOf: Int32Array, m: Float64Array, n: number, out: Float64Array, o: number): boolean {
  let minX = 0, minY = 0, minZ = 0, maxX = 0, maxY = 0, maxZ = 0, exy = 0, er = 0, sum = 0;
  for (let i = 0; i < n; i++) {
    const c = classOf[i];
    let x = 0, y = 0, z = 0;
    if (c >= 0) {
      const r = 4 * vertices[i], s = 12 * c;
      const vx = positions[r], vy = positions[r + 1], vz = positions[r + 2];
      x = m[s] * vx + m[s + 1] * vy + m[s + 2] * vz + m[s + 3];
      y = m[s + 4] * vx + m[s + 5] * vy + m[s + 6] * vz + m[s + 7];
      z = m[s + 8] * vx + m[s + 9] * vy + m[s + 10] * vz + m[s + 11];
    }
    if (i === 0) {
      minX = maxX = x; minY = maxY = y; minZ = maxZ = z;
    } else {
      minX = minX < x ? minX : x; minY = minY < y ? minY : y; minZ = minZ < z ? minZ : z;
      maxX = maxX > x ? maxX : x; maxY = maxY > y ? maxY : y; maxZ = maxZ > z ? maxZ : z;
    }
    const xy = x * x + y * y;
    if (xy > exy) exy = xy;
    const r = xy + z * z;
    if (r > er) er = r;
    sum += x + y + z;
  }
  out[o] = minX; out[o + 1] = minY; out[o + 2] = minZ;
  out[o + 3] = maxX; out[o + 4] = maxY; out[o + 5] = maxZ;
  out[o + 6] = exy > 0 ? Math.sqrt(exy) : exy;
  out[o + 7] = er > 0 ? Math.sqrt(er) : er;
  return sum === sum;
}

/**
 * The first written vertex of each distinct point (influence class and position bits), in order:
 * their input vertices, their classes, and how many.
 */
function distinctPoints(sv: SkinVertices, classOf: Int32Array, n: number): { vertices: Int32Array; classOf: Int32Array; count: number } {
  const { vertices, positions } = sv;
  const bits = new Int32Array(positions.buffer, positions.byteOffset, 2 * positions.length);
  let size = 16;
  while (size < 2 * n) size *= 2;
  const table = newArray(Int32Array, size).fill(-1);
  const firstVertices = newArray(Int32Array, n);
  const firstClasses = newArray(Int32Array, n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = vertices[i];
    const c = classOf[i];
    let h = Math.imul(c ^ 0x2545f491, 0x9e3779b1);
    for (let k = 8 * v; k < 8 * v + 6; k++) h = Math.imul(h ^ bits[k], 0x85ebca77);
    let slot = (h ^ (h >>> 15)) & (size - 1);
    for (;;) {
      const p = table[slot];
      if (p < 0) {
        table[slot] = count;
        firstVertices[count] = v;
        firstClasses[count++] = c;
        break;
      }
      const u = firstVertices[p];
      if (firstClasses[p] === c && samePositionBits(bits, 8 * u, 8 * v)) break;
      slot = (slot + 1) & (size - 1);
    }
  }
  return { vertices: firstVertices, classOf: firstClasses, count };
}

/** Whether x, y, z at two offsets (in 32-bit words) of the positions are the same bits. */
function samePositionBits(bits: Int32Array, a: number, b: number): boolean {
  for (let k = 0; k < 6; k++) if (bits[a + k] !== bits[b + k]) return false;
  return true;
}

/**
 * The largest |value| of `skin` and of `scale`, or NaN when a value is not finite-comparable (NaN).
 * A function of its own: inside the block loop's closure, which the optimising compiler does not
 * take, this loop ran as baseline code and boxed every |value| (7 million of them on a shape of
 * 4,000 frames of 150 joints: a tenth of its collections).
 */
function largestMagnitude(skin: Float64Array, scale: number): number {
  let finite = true;
  for (let k = 0; k < skin.length; k++) {
    const a = Math.abs(skin[k]);
    if (a > scale) scale = a;
    else if (!(a <= scale)) finite = false;
  }
  return finite ? scale : NaN;
}

/** The skinning matrix of influence class c into m[12 c ..], with evaluate()'s operations. */
function classMatrix(skin: Float64Array, offsets: Int32Array, weights: Float64Array, c: number, m: Float64Array): void {
  let w = weights[4 * c];
  let s = offsets[4 * c];
  let m0 = 0 + skin[s] * w, m1 = 0 + skin[s + 1] * w, m2 = 0 + skin[s + 2] * w, m3 = 0 + skin[s + 3] * w;
  let m4 = 0 + skin[s + 4] * w, m5 = 0 + skin[s + 5] * w, m6 = 0 + skin[s + 6] * w, m7 = 0 + skin[s + 7] * w;
  let m8 = 0 + skin[s + 8] * w, m9 = 0 + skin[s + 9] * w, m10 = 0 + skin[s + 10] * w, m11 = 0 + skin[s + 11] * w;
  for (let k = 1; k < 4; k++) {
    w = weights[4 * c + k];
    if (!(w > 0)) break;
    s = offsets[4 * c + k];
    m0 += skin[s] * w; m1 += skin[s + 1] * w; m2 += skin[s + 2] * w; m3 += skin[s + 3] * w;
    m4 += skin[s + 4] * w; m5 += skin[s + 5] * w; m6 += skin[s + 6] * w; m7 += skin[s + 7] * w;
    m8 += skin[s + 8] * w; m9 += skin[s + 9] * w; m10 += skin[s + 10] * w; m11 += skin[s + 11] * w;
  }
  const o = 12 * c;
  m[o] = m0; m[o + 1] = m1; m[o + 2] = m2; m[o + 3] = m3;
  m[o + 4] = m4; m[o + 5] = m5; m[o + 6] = m6; m[o + 7] = m7;
  m[o + 8] = m8; m[o + 9] = m9; m[o + 10] = m10; m[o + 11] = m11;
}

/**
 * Classes of vertices with the same influences (the four weights and bones): the class of each
 * vertex (-1 without any weight, where p is 0) and the first vertex of each class. An
 * open-addressing table over the weights' bits and the bones.
 */
function influenceClasses(sv: SkinVertices, n: number): { classOf: Int32Array; members: Int32Array } {
  const { vertices, weights, bones } = sv;
  // The weights' doubles, two words each (equal doubles give equal floats; classes may be finer
  // than the floats make them, which changes nothing but their number).
  const bits = new Int32Array(weights.buffer, weights.byteOffset, 2 * weights.length);
  const words = boneWords(bones);
  let size = 16;
  while (size < 2 * n) size *= 2;
  const table = newArray(Int32Array, size).fill(-1);
  const classOf = newArray(Int32Array, n);
  const first = newArray(Int32Array, n);
  let classCount = 0;
  for (let i = 0; i < n; i++) {
    const v = vertices[i];
    const o = 4 * v;
    if (!(Math.fround(weights[o]) > 0)) {
      classOf[i] = -1;
      continue;
    }
    let h = words[v] | 0;
    for (let k = 2 * o; k < 2 * o + 8; k++) h = Math.imul(h ^ bits[k], 0x9e3779b1);
    let slot = (h ^ (h >>> 15)) & (size - 1);
    for (;;) {
      const c = table[slot];
      if (c < 0) {
        table[slot] = classCount;
        first[classCount] = i;
        classOf[i] = classCount++;
        break;
      }
      const f = vertices[first[c]];
      const q = 4 * f;
      if (words[f] === words[v] && weights[q] === weights[o] && weights[q + 1] === weights[o + 1] && weights[q + 2] === weights[o + 2] && weights[q + 3] === weights[o + 3]) {
        classOf[i] = c;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  return { classOf, members: first.slice(0, classCount) };
}

/** Most vertices in one group (vertices with the same influences, in file order), so that a group stays small in space. */
const GROUP_SIZE = 16;
/** At a single frame, groups of up to this many vertices are evaluated without testing their box (cheaper). */
const DIRECT = 4;
/** Frames per block: the bounds are computed block by block, each with its own time tree. */
export const BOUNDS_BLOCK = 32;
/** Up to this many vertex-frames, computeBounds evaluates every vertex in every frame. */
const SMALL = 2_000_000;
/** Most seed vertices; past that, seeds are gathered again. */
const MAX_SEEDS = 1024;
/** In the first block, every SEED_STRIDE-th frame is evaluated in full for seeds. */
const SEED_STRIDE = 8;
/**
 * Which of the two ways a block goes (mode 'auto'). The pruning costs less than evaluating every
 * point (boundsBatch.ts) when the groups are large and far from the extremes, more when they are
 * small (many combinations of bones: a group's box test costs about BOX_COST evaluations of a
 * point) or when many joints make a long time tree for few points (about NODE_COST evaluations
 * per joint and node); both fitted to the times of the two ways on the matrix's shapes
 * (bench/compile-matrix.ts). When the pruned blocks cost SWITCH_RATIO times more so counted
 * than evaluating their frames whole (the last two averaged), the next BATCH_BLOCKS blocks are
 * evaluated whole, then the pruning is tried again (the motion, and so what it prunes, changes
 * along the animations). Counted, not timed: the same input takes the same way on any machine
 * (both give the same doubles; only the time differs).
 */
const BOX_COST = 5;
const NODE_COST = 6;
const SWITCH_RATIO = 1.25;
const BATCH_BLOCKS = 7;

/**
 * Group record (at groupBones[GI g + 1] in groups): half extents 3, least and largest sum of the
 * weights (HEADER values), then per influence (SLOT values) least and largest weight and the
 * group's centre relative to the bone's centre (3).
 */
const HEADER = 5;
const SLOT = 5;
/** Group bones record (Int32): influence count, start of the group record, then NB * bone of each influence. */
const GI = 6;

/**
 * Time-tree node record per bone: per row r (12 values from 12 r): the middle of the row's
 * entries over the node's frames (a0 a1 a2, and t' = the row applied to the bone's centre),
 * |a| + radius (3), radius of t', radius of a (3), unused.
 */
const NB = 36;

/** How boundsRunner takes its blocks: choosing by their cost, or always pruned, or always whole (tests, benchmarks). */
export type BoundsMode = 'auto' | 'prune' | 'batch';

/** Figures of the last plan's bounds in this thread (for benchmarks). */
export const boundsStats = { evaluated: 0, groups: 0, zeroFallbacks: 0, boxes: 0, seeds: 0, milliseconds: 0, batchedFrames: 0 };

/**
 * What the bounds of any frame range need: vertex records, groups, bone centres, and the
 * animation. Typed arrays and numbers only, so that it can be handed to a worker thread (on
 * SharedArrayBuffers, see planBounds).
 */
export interface BoundsPlan extends Animation {
  vertexCount: number;
  /**
   * The first written vertex of each distinct point (SkinVertices; see computeBoundsSmall for why
   * a repeated point cannot change an extreme where no p is NaN, which the runner's pruned
   * blocks guarantee): groups, seeds and evaluations are over these.
   */
  vertices: Int32Array;
  /** Every written vertex, for the blocks evaluated in full in vertex order (huge or not finite skins). */
  allVertices: Int32Array;
  positions: Float64Array;
  weights: Float64Array;
  bones: Uint8Array;
  groupCount: number;
  /** Per group (GI values): influence count, record start, then NB * bone of each influence. */
  groupBones: Int32Array;
  /** Group records, one after another. */
  groups: Float64Array;
  /** Vertices of each group, in vertex order: members[groupStart[g] .. groupStart[g + 1]). */
  groupStart: Int32Array;
  members: Int32Array;
  /** Centre of the box of each bone's vertices (3 per joint). */
  boneCenter: Float64Array;
  /** Largest absolute coordinate of any vertex. */
  extent: number;
  /** The distinct points again, sorted for evaluating whole frames (boundsBatch.ts). */
  batch: BatchPoints;
  /** Output frames: indices into the file's frames. */
  frames: Int32Array;
}

/**
 * The plan of boundsRunner. Groups: up to GROUP_SIZE vertices with the same influences (bones,
 * in weight order), the next vertex with some influences joining the latest group that has them.
 * Null when the positions are not all finite (then every vertex is evaluated). With `shared`,
 * every array is on a SharedArrayBuffer (for node/compileParallel.ts); the input's positions,
 * blend data and frame poses are already on one where SharedArrayBuffer exists (input.ts), else
 * copied. Without `withGroups` the plan has no groups (where the bounds kernel runs: the runner
 * then evaluates whole frames only, and the groups would cost planning time and memory for nothing).
 */
export function planBounds(input: BoundsInput, shared = false, withGroups = true): BoundsPlan | null {
  Object.assign(boundsStats, { evaluated: 0, groups: 0, zeroFallbacks: 0, boxes: 0, seeds: 0, milliseconds: 0, batchedFrames: 0 });
  // On SharedArrayBuffers when `shared` (a worker thread reads the plan).
  const allocate = <T>(kind: ArrayKind<T>, n: number): T => newArray(kind, n, shared);
  const written = prepare(input);
  const { positions, weights, bones } = written;
  // One vertex per distinct point: seams and hard edges repeat two thirds of the benchmark's.
  const points = distinctPoints(written, influenceClasses(written, input.vertices.length).classOf, input.vertices.length);
  const n = points.count;
  const vertices = points.vertices.subarray(0, n);
  const words = boneWords(bones);
  const jointCount = input.skeleton.parents.length;
  const share = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
    if (!shared || a.buffer instanceof SharedArrayBuffer) return a;
    const copy = allocate(a.constructor as ArrayKind<T>, a.length);
    copy.set(a);
    return copy;
  };
  const plan = (groupCount: number, groupBones: Int32Array, groups: Float64Array, groupStart: Int32Array, members: Int32Array, boneCenter: Float64Array, extent: number): BoundsPlan => ({
    vertexCount: n, vertices: share(vertices), allVertices: share(input.vertices), positions: share(positions), weights: share(weights), bones: share(bones), groupCount, groupBones, groups, groupStart, members, boneCenter, extent,
    batch: batchPoints(vertices, n, positions, weights, bones, points.classOf, allocate),
    frames: share(input.frames), parents: share(input.skeleton.parents), inverse: share(input.skeleton.inverse),
    framePoses: share(input.framePoses), framePoseStride: input.framePoseStride, framePoseStart: share(input.framePoseStart),
  });
  if (!withGroups) {
    let extent = 0;
    for (let i = 0; i < n; i++) {
      const o = 4 * vertices[i];
      for (let k = 0; k < 3; k++) extent = Math.max(extent, Math.abs(positions[o + k]));
    }
    if (!Number.isFinite(extent)) return null;
    return plan(0, allocate(Int32Array, 0), allocate(Float64Array, 0), allocate(Int32Array, 1), allocate(Int32Array, 0), allocate(Float64Array, 3 * jointCount), extent);
  }
  // Per group while planning: size, box (6), weight ranges (8), bones (4, -1 past the count).
  const groupOf = new Map<number, number>();
  const groupSize = int32s();
  const boxes = float64s();
  const weightRange = float64s();
  const sumRange = float64s();
  const groupBoneIds = int32s();
  const groupOfVertex = newArray(Int32Array, n);
  const boneLo = new Float64Array(3 * jointCount).fill(Infinity);
  const boneHi = new Float64Array(3 * jointCount).fill(-Infinity);
  let extent = 0;
  let influences = 0;
  for (let i = 0; i < n; i++) {
    const o = 4 * vertices[i];
    let count = 0;
    while (count < 4 && Math.fround(weights[o + count]) > 0) count++;
    const key = words[o >> 2] * 8 + count;
    let g = groupOf.get(key);
    if (g === undefined || groupSize.data[g] === GROUP_SIZE) {
      g = groupSize.length;
      groupSize.push(0);
      groupOf.set(key, g);
      for (let k = 0; k < 3; k++) boxes.push(Infinity);
      for (let k = 0; k < 3; k++) boxes.push(-Infinity);
      for (let k = 0; k < 4; k++) {
        weightRange.push(Infinity);
        weightRange.push(-Infinity);
        groupBoneIds.push(k < count ? bones[o + k] : -1);
      }
      sumRange.push(Infinity);
      sumRange.push(-Infinity);
      influences += count;
    }
    groupOfVertex[i] = g;
    groupSize.data[g]++;
    const box = boxes.data, range = weightRange.data;
    for (let k = 0; k < 3; k++) {
      const v = positions[o + k];
      if (v < box[6 * g + k]) box[6 * g + k] = v;
      if (v > box[6 * g + 3 + k]) box[6 * g + 3 + k] = v;
      extent = Math.max(extent, Math.abs(v));
    }
    let sum = 0;
    for (let k = 0; k < count; k++) {
      const w = Math.fround(weights[o + k]);
      sum += w;
      if (w < range[8 * g + 2 * k]) range[8 * g + 2 * k] = w;
      if (w > range[8 * g + 2 * k + 1]) range[8 * g + 2 * k + 1] = w;
      const b = bones[o + k];
      for (let c = 0; c < 3; c++) {
        const v = positions[o + c];
        if (v < boneLo[3 * b + c]) boneLo[3 * b + c] = v;
        if (v > boneHi[3 * b + c]) boneHi[3 * b + c] = v;
      }
    }
    if (sum < sumRange.data[2 * g]) sumRange.data[2 * g] = sum;
    if (sum > sumRange.data[2 * g + 1]) sumRange.data[2 * g + 1] = sum;
  }
  if (!Number.isFinite(extent)) return null;
  const groupCount = groupSize.length;
  boundsStats.groups = groupCount;
  const boneCenter = allocate(Float64Array, 3 * jointCount);
  for (let c = 0; c < 3 * jointCount; c++) if (boneLo[c] <= boneHi[c]) boneCenter[c] = (boneLo[c] + boneHi[c]) / 2;
  const groupStart = allocate(Int32Array, groupCount + 1);
  for (let i = 0; i < n; i++) groupStart[groupOfVertex[i] + 1]++;
  for (let g = 0; g < groupCount; g++) groupStart[g + 1] += groupStart[g];
  const fill = groupStart.slice(0, groupCount);
  const members = allocate(Int32Array, n);
  for (let i = 0; i < n; i++) members[fill[groupOfVertex[i]]++] = i;
  const groups = allocate(Float64Array, HEADER * groupCount + SLOT * influences);
  const groupBones = allocate(Int32Array, GI * groupCount);
  const box = boxes.data, range = weightRange.data, ids = groupBoneIds.data;
  for (let g = 0, o = 0; g < groupCount; g++) {
    const center = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      center[k] = (box[6 * g + k] + box[6 * g + 3 + k]) / 2;
      groups[o + k] = (box[6 * g + 3 + k] - box[6 * g + k]) / 2;
    }
    groups[o + 3] = sumRange.data[2 * g];
    groups[o + 4] = sumRange.data[2 * g + 1];
    groupBones[GI * g + 1] = o;
    o += HEADER;
    let count = 0;
    for (let k = 0; k < 4; k++) {
      const b = ids[4 * g + k];
      if (b < 0) break;
      count++;
      groupBones[GI * g + 2 + k] = NB * b;
      groups[o] = range[8 * g + 2 * k];
      groups[o + 1] = range[8 * g + 2 * k + 1];
      for (let c = 0; c < 3; c++) groups[o + 2 + c] = center[c] - boneCenter[3 * b + c];
      o += SLOT;
    }
    groupBones[GI * g] = count;
  }
  return plan(groupCount, groupBones, groups, groupStart, members, boneCenter, extent);
}

/** Per row (x, y, z): least and largest value (groupInside's scratch). */
const rowSpan = new Float64Array(6);

/**
 * Whether group g is strictly inside the extremes bounds[0..7] (min x y z, max x y z, xy, r) in
 * every frame of a node. Each row r (x, y, z) of p = sum_k w_k S_k v over the group and the
 * node's frames lies in two intervals, and so in their intersection:
 * - Each bone's: S_k v = A (v - c_b) + t' with the entries of A and t' in the node's
 *   intervals, weighted by the end of the weight range that makes it largest (or smallest).
 * - With the weights' sum s (sumRow): p = s S_1 v + sum_{k >= 2} w_k (S_k - S_1) v. Neighbouring
 *   bones move alike, so the differences are small, and a group whose weights vary (vertices
 *   between two bones) is not widened by the weight range times the whole position.
 * Both widened by margin. The second is computed for a row only when the first is not inside
 * on that row (or, at the end, not inside the radii), and a row outside both ends the test: most
 * groups that fail do so on their first row (the benchmark: 89% of those that need the second
 * enclosure fail), and the answer is the same as with every row's intersection.
 */
function groupInside(groups: Float64Array, groupBones: Int32Array, g: number, node: Float64Array, nodeBase: number, margin: number, bounds: Float64Array): boolean {
  const count = groupBones[GI * g];
  const q0 = groupBones[GI * g + 1];
  const hx = groups[q0], hy = groups[q0 + 1], hz = groups[q0 + 2];
  let tightened = 0;
  for (let r = 0; r < 3; r++) {
    // Each bone's enclosure of row r (written out here: this loop is the hottest of the bounds).
    const row = 12 * r;
    let lo = 0, hi = 0;
    for (let k = 0, q = q0 + HEADER; k < count; k++, q += SLOT) {
      const s = nodeBase + groupBones[GI * g + 2 + k] + row;
      const wl = groups[q], wh = groups[q + 1];
      const rx = groups[q + 2], ry = groups[q + 3], rz = groups[q + 4];
      // The row at the group's centre, and its spread over the node's frames and over the group's box.
      const mid = node[s] * rx + node[s + 1] * ry + node[s + 2] * rz + node[s + 3];
      const spread = node[s + 7] + node[s + 8] * Math.abs(rx) + node[s + 9] * Math.abs(ry) + node[s + 10] * Math.abs(rz)
        + node[s + 4] * hx + node[s + 5] * hy + node[s + 6] * hz;
      const low = mid - spread, high = mid + spread;
      lo += Math.min(wl * low, wh * low);
      hi += Math.max(wl * high, wh * high);
    }
    lo -= margin;
    hi += margin;
    rowSpan[2 * r] = lo;
    rowSpan[2 * r + 1] = hi;
    if (lo > bounds[r] && hi < bounds[3 + r]) continue;
    if (count < 2) return false;
    sumRow(groups, groupBones, g, node, nodeBase, margin, r);
    tightened |= 1 << r;
    if (!(rowSpan[2 * r] > bounds[r] && rowSpan[2 * r + 1] < bounds[3 + r])) return false;
  }
  if (radiiInside(bounds)) return true;
  if (count < 2 || tightened === 7) return false;
  for (let r = 0; r < 3; r++) if (!(tightened & (1 << r))) sumRow(groups, groupBones, g, node, nodeBase, margin, r);
  return radiiInside(bounds);
}

/** Row r of group g (two influences or more) by the weights'-sum enclosure, intersected into rowSpan. */
function sumRow(groups: Float64Array, groupBones: Int32Array, g: number, node: Float64Array, nodeBase: number, margin: number, r: number): void {
  const count = groupBones[GI * g];
  const q0 = groupBones[GI * g + 1];
  const hx = groups[q0], hy = groups[q0 + 1], hz = groups[q0 + 2];
  const sumLow = groups[q0 + 3], sumHigh = groups[q0 + 4];
  const row = 12 * r;
  const t = nodeBase + groupBones[GI * g + 2] + row;
  let lo = 0, hi = 0, mid1 = 0, time1 = 0;
  for (let k = 0, q = q0 + HEADER; k < count; k++, q += SLOT) {
    const s = nodeBase + groupBones[GI * g + 2 + k] + row;
    const wl = groups[q], wh = groups[q + 1];
    const rx = groups[q + 2], ry = groups[q + 3], rz = groups[q + 4];
    const mid = node[s] * rx + node[s + 1] * ry + node[s + 2] * rz + node[s + 3];
    const time = node[s + 7] + node[s + 8] * Math.abs(rx) + node[s + 9] * Math.abs(ry) + node[s + 10] * Math.abs(rz);
    if (k === 0) {
      mid1 = mid;
      time1 = time;
      const space = node[s + 4] * hx + node[s + 5] * hy + node[s + 6] * hz;
      const low = mid - space - time, high = mid + space + time;
      lo = Math.min(sumLow * low, sumHigh * low);
      hi = Math.max(sumLow * high, sumHigh * high);
      continue;
    }
    // (S_k - S_1) v: the difference at the centre, spread by |A_k - A_1| over the box and by both bones over the frames.
    const difference = mid - mid1;
    const spread = (Math.abs(node[s] - node[t]) + node[s + 8] + node[t + 8]) * hx
      + (Math.abs(node[s + 1] - node[t + 1]) + node[s + 9] + node[t + 9]) * hy
      + (Math.abs(node[s + 2] - node[t + 2]) + node[s + 10] + node[t + 10]) * hz + time + time1;
    const low = difference - spread, high = difference + spread;
    lo += Math.min(wl * low, wh * low);
    hi += Math.max(wl * high, wh * high);
  }
  rowSpan[2 * r] = Math.max(rowSpan[2 * r], lo - margin);
  rowSpan[2 * r + 1] = Math.min(rowSpan[2 * r + 1], hi + margin);
}

/** Whether the box in rowSpan (inside the extremes' box) is inside the squared xy radius and the radius, bounds[6], bounds[7]. */
function radiiInside(bounds: Float64Array): boolean {
  const ex = Math.max(-rowSpan[0], rowSpan[1]), ey = Math.max(-rowSpan[2], rowSpan[3]), ez = Math.max(-rowSpan[4], rowSpan[5]);
  const xy = ex * ex + ey * ey;
  return xy < bounds[6] && xy + ez * ez < bounds[7];
}

/** Bounds per output frame: 8 values each (bbmin 3, bbmax 3, xyradius, radius). */
export function computeBounds(input: BoundsInput): Float64Array {
  // Small inputs: evaluating everything is quicker than setting up the pruning (whose code is
  // still cold then).
  if (input.vertices.length * input.frames.length <= SMALL) return computeBoundsSmall(input);
  return computeBoundsPruned(input, 'auto');
}

/** computeBounds through the runner whatever the size; by default always pruning (tests). */
export function computeBoundsPruned(input: BoundsInput, mode: BoundsMode = 'prune'): Float64Array {
  const frameCount = input.frames.length;
  if (input.vertices.length === 0 || frameCount < 2) return computeBoundsFull(input);
  const plan = planBounds(input);
  if (!plan) return computeBoundsFull(input);
  const start = Date.now();
  const out = new Float64Array(8 * frameCount);
  boundsRunner(plan, mode)(0, frameCount, out);
  boundsStats.milliseconds = Date.now() - start;
  return out;
}

/**
 * A function that computes the bounds of output frames first..end-1 into out[8 first ..
 * 8 end - 1], bit-identical to computeBoundsFull, whatever the ranges and their order (calls
 * share their seeds). Frames are taken in blocks of BOUNDS_BLOCK. In a block:
 * - The seed vertices (those that made the extremes of earlier frames; for the first block,
 *   those of every SEED_STRIDE-th frame evaluated in full) are evaluated in every frame: their
 *   extremes are inner bounds of each frame's.
 * - A binary tree over the block's frames holds, per node and bone, the interval of each entry
 *   of the skin matrix over the node's frames. The groups are tested node by node (groupInside)
 *   from the root; those not strictly inside the inner bounds of all the node's frames go on to
 *   the children. At a single frame, the seeds and then the remaining groups are evaluated, each
 *   group only when its box is not strictly inside the extremes found so far (groups of up to
 *   DIRECT vertices without a test).
 * - A frame whose extremes are +-0 or not finite (where the order of evaluation matters) is
 *   recomputed in vertex order.
 */
export function boundsRunner(plan: BoundsPlan, mode: BoundsMode = 'auto'): (first: number, end: number, out: Float64Array) => void {
  // With the WebAssembly kernel (f64x2), whole frames cost 13-23 ns a point against 50-60 in
  // JavaScript: 0.2-0.8x the pruning's time on every shape of the matrix, the benchmark file
  // included (bench/compile-kernels.ts), so the choice per block is only made without it.
  // A plan without groups (planned for the kernel) is evaluated whole in any case.
  if ((mode === 'auto' && boundsKernelAvailable()) || (plan.groupCount === 0 && plan.vertexCount > 0)) mode = 'batch';
  const { groups, groupBones, groupStart, members, boneCenter, extent, groupCount } = plan;
  // The same shape as prepare()'s objects: evaluate() sees one kind of object.
  const sv: SkinVertices = { vertices: plan.vertices, positions: plan.positions, weights: plan.weights, bones: plan.bones };
  const n = plan.vertexCount;
  const jointCount = plan.parents.length;
  const world = new Float64Array(12 * jointCount), local = new Float64Array(12);
  const skins = new Float64Array(12 * jointCount * BOUNDS_BLOCK);
  // Each frame's slice of `skins`, made once (a view per frame and use was garbage by the thousand).
  const skinViews = Array.from({ length: BOUNDS_BLOCK }, (_, i) => skins.subarray(12 * jointCount * i, 12 * jointCount * (i + 1)));
  // Time tree: heap numbering (root 1, children 2i and 2i + 1), at most 2 * BOUNDS_BLOCK nodes.
  const maxNodes = 2 * BOUNDS_BLOCK;
  const nodeFirst = new Int32Array(maxNodes), nodeEnd = new Int32Array(maxNodes);
  // Page-aligned: rows of 12 doubles are read whole, and start on 32-byte boundaries only so.
  const nodeLo = alignedArray(Float64Array, maxNodes * jointCount * 12), nodeHi = alignedArray(Float64Array, maxNodes * jointCount * 12);
  const node = alignedArray(Float64Array, maxNodes * jointCount * NB);
  const inner = new Float64Array(maxNodes * 8);
  const frameInner = new Float64Array(8 * BOUNDS_BLOCK);
  const current = new Float64Array(8);
  const res = new Float64Array(3);
  const e = new Extremes();
  const extremeVertex = new Int32Array(8);
  const track = (i: number, x: number, y: number, z: number): void => {
    if (e.first || x < e.minX) extremeVertex[0] = i;
    if (e.first || x > e.maxX) extremeVertex[1] = i;
    if (e.first || y < e.minY) extremeVertex[2] = i;
    if (e.first || y > e.maxY) extremeVertex[3] = i;
    if (e.first || z < e.minZ) extremeVertex[4] = i;
    if (e.first || z > e.maxZ) extremeVertex[5] = i;
    const xy = x * x + y * y;
    if (xy > e.xy) extremeVertex[6] = i;
    if (xy + z * z > e.r) extremeVertex[7] = i;
    e.add(x, y, z);
  };
  const allInOrder = (skin: Float64Array): void => {
    e.reset();
    for (let i = 0; i < n; i++) {
      evaluate(sv, i, skin, res);
      track(i, res[0], res[1], res[2]);
    }
    boundsStats.evaluated += n;
  };
  // Every written vertex, repeated points too (a p may be NaN there, where their order matters).
  const everyVertex: SkinVertices = { vertices: plan.allVertices, positions: plan.positions, weights: plan.weights, bones: plan.bones };
  const everyVertexInOrder = (skin: Float64Array): void => {
    e.reset();
    for (let i = 0; i < everyVertex.vertices.length; i++) {
      evaluate(everyVertex, i, skin, res);
      e.add(res[0], res[1], res[2]);
    }
    boundsStats.evaluated += everyVertex.vertices.length;
  };
  // Whole frames over the batch (boundsBatch.ts): bit-identical p, in another order, so a frame
  // whose extremes are +-0 or not finite is redone in vertex order.
  const batched = new Float64Array(8);
  // Blocks still to be evaluated whole before the pruning is tried again.
  let batchBlocks = 0;
  // The pruning's counted cost over evaluating every point whole (NaN before the first pruned block).
  let costRatio = NaN;
  const batchFrame = (skin: Float64Array, out: Float64Array, o: number): void => {
    batchExtremes(plan.batch, skin, batched);
    boundsStats.evaluated += n;
    boundsStats.batchedFrames++;
    let orderMatters = !Number.isFinite(batched[6]) || !Number.isFinite(batched[7]);
    for (let k = 0; k < 6; k++) if (batched[k] === 0 || !Number.isFinite(batched[k])) orderMatters = true;
    if (orderMatters) {
      boundsStats.zeroFallbacks++;
      allInOrder(skin);
      e.write(out, o);
      return;
    }
    for (let k = 0; k < 6; k++) out[o + k] = batched[k];
    out[o + 6] = batched[6] > 0 ? Math.sqrt(batched[6]) : batched[6];
    out[o + 7] = batched[7] > 0 ? Math.sqrt(batched[7]) : batched[7];
  };
  // Seeds: vertices evaluated in every frame.
  const seedMark = newArray(Uint8Array, n);
  let seeds: number[] = [];
  let nextSeeds: number[] = [];
  const addSeeds = (): void => {
    for (let s = 0; s < 8; s++) {
      const i = extremeVertex[s];
      if (!seedMark[i]) {
        seedMark[i] = 1;
        nextSeeds.push(i);
      }
    }
  };
  // Groups still to be tested, per depth of the tree walk.
  const lists: Int32Array[] = [];
  for (let d = 0; d <= 32 - Math.clz32(BOUNDS_BLOCK) + 1; d++) lists.push(newArray(Int32Array, groupCount));
  for (let g = 0; g < groupCount; g++) lists[0][g] = g;

  return (first: number, end: number, out: Float64Array): void => {
    for (let b0 = first; b0 < end; b0 += BOUNDS_BLOCK) {
      const count = Math.min(BOUNDS_BLOCK, end - b0);
      let scale = 0;
      let finite = true;
      for (let i = 0; i < count; i++) {
        const skin = skinViews[i];
        skinMatrices(plan, plan.frames[b0 + i], world, local, skin);
        const largest = largestMagnitude(skin, scale);
        if (Number.isNaN(largest)) finite = false;
        else scale = largest;
      }
      const frameSkin = (i: number): Float64Array => skinViews[i];
      if (!finite || !(scale * (1 + extent) < 1e250)) {
        // Huge or not finite: every vertex in every frame, in vertex order.
        for (let i = 0; i < count; i++) {
          everyVertexInOrder(frameSkin(i));
          e.write(out, 8 * (b0 + i));
        }
        continue;
      }
      if (mode === 'batch' || (mode === 'auto' && batchBlocks > 0)) {
        batchBlocks--;
        for (let i = 0; i < count; i++) batchFrame(frameSkin(i), out, 8 * (b0 + i));
        continue;
      }
      // Far above the rounding of the evaluations and of the node boxes (relative 1e-16).
      const margin = 1e-9 * (1 + scale) * (1 + extent);
      if (seeds.length === 0) {
        for (let i = 0; i < count; i += SEED_STRIDE) {
          allInOrder(frameSkin(i));
          addSeeds();
        }
        seeds = nextSeeds.slice();
      }
      // Counted from here: the first block's gathering of seeds is done once.
      const boxes0 = boundsStats.boxes, evaluated0 = boundsStats.evaluated;
      // Inner bounds of each frame: the extremes of the seeds.
      for (let i = 0; i < count; i++) {
        const skin = frameSkin(i);
        e.reset();
        for (const v of seeds) {
          evaluate(sv, v, skin, res);
          e.add(res[0], res[1], res[2]);
        }
        const o = 8 * i;
        frameInner[o] = e.minX; frameInner[o + 1] = e.minY; frameInner[o + 2] = e.minZ;
        frameInner[o + 3] = e.maxX; frameInner[o + 4] = e.maxY; frameInner[o + 5] = e.maxZ;
        frameInner[o + 6] = e.xy; frameInner[o + 7] = e.r;
      }
      boundsStats.evaluated += seeds.length * count;
      // The time tree: entry intervals (with t' = row . bone centre + t) and inner bounds per node.
      const build = (id: number, a: number, b: number): void => {
        nodeFirst[id] = a;
        nodeEnd[id] = b;
        const base = id * jointCount * 12;
        const ib = 8 * id;
        if (b - a === 1) {
          const skin = frameSkin(a);
          for (let j = 0; j < jointCount; j++) {
            const s = 12 * j;
            const cx = boneCenter[3 * j], cy = boneCenter[3 * j + 1], cz = boneCenter[3 * j + 2];
            for (let r = 0; r < 3; r++) {
              const m = s + 4 * r;
              for (let c = 0; c < 3; c++) nodeLo[base + m + c] = nodeHi[base + m + c] = skin[m + c];
              nodeLo[base + m + 3] = nodeHi[base + m + 3] = skin[m] * cx + skin[m + 1] * cy + skin[m + 2] * cz + skin[m + 3];
            }
          }
          for (let k = 0; k < 8; k++) inner[ib + k] = frameInner[8 * a + k];
        } else {
          const m = (a + b) >> 1;
          build(2 * id, a, m);
          build(2 * id + 1, m, b);
          const l = 2 * id * jointCount * 12, h = (2 * id + 1) * jointCount * 12;
          for (let k = 0; k < jointCount * 12; k++) {
            nodeLo[base + k] = Math.min(nodeLo[l + k], nodeLo[h + k]);
            nodeHi[base + k] = Math.max(nodeHi[l + k], nodeHi[h + k]);
          }
          const il = 16 * id, ih = 16 * id + 8;
          for (let k = 0; k < 3; k++) inner[ib + k] = Math.max(inner[il + k], inner[ih + k]);
          for (let k = 3; k < 8; k++) inner[ib + k] = Math.min(inner[il + k], inner[ih + k]);
        }
        const packed = id * jointCount * NB;
        for (let j = 0; j < jointCount; j++) {
          for (let r = 0; r < 3; r++) {
            const src = base + 12 * j + 4 * r;
            const dst = packed + NB * j + 12 * r;
            for (let c = 0; c < 4; c++) {
              const lo = nodeLo[src + c], hi = nodeHi[src + c];
              const mid = (lo + hi) / 2, rad = (hi - lo) / 2;
              node[dst + c] = mid;
              if (c < 3) {
                node[dst + 4 + c] = Math.abs(mid) + rad;
                node[dst + 8 + c] = rad;
              } else {
                node[dst + 7] = rad;
              }
            }
            node[dst + 11] = 0;
          }
        }
      };
      build(1, 0, count);
      // Walk the tree node by node (each node's data stays in cache while all its groups are
      // tested); the groups whose box is not inside go on to the children. At a single frame, the
      // seeds are evaluated, then each remaining group is tested against the extremes so far and
      // evaluated when it is not strictly inside.
      const visit = (id: number, depth: number, list: Int32Array, length: number): void => {
        const nodeBase = id * jointCount * NB;
        boundsStats.boxes += length;
        if (nodeEnd[id] - nodeFirst[id] === 1) {
          const i = nodeFirst[id];
          const skin = frameSkin(i);
          e.reset();
          for (const v of seeds) {
            evaluate(sv, v, skin, res);
            track(v, res[0], res[1], res[2]);
          }
          for (let p = 0; p < length; p++) {
            const g = list[p];
            if (groupStart[g + 1] - groupStart[g] > DIRECT) {
              current[0] = e.minX; current[1] = e.minY; current[2] = e.minZ;
              current[3] = e.maxX; current[4] = e.maxY; current[5] = e.maxZ; current[6] = e.xy; current[7] = e.r;
              if (groupInside(groups, groupBones, g, node, nodeBase, margin, current)) continue;
            }
            for (let m = groupStart[g]; m < groupStart[g + 1]; m++) {
              const v = members[m];
              evaluate(sv, v, skin, res);
              track(v, res[0], res[1], res[2]);
            }
            boundsStats.evaluated += groupStart[g + 1] - groupStart[g];
          }
          if (e.orderMatters()) {
            // An extreme of +-0 (the later of equal values wins) or not finite: redo in vertex order
            // (over the distinct points: in a pruned block no p is NaN, so repeats change nothing).
            boundsStats.zeroFallbacks++;
            allInOrder(skin);
          }
          e.write(out, 8 * (b0 + i));
          addSeeds();
          return;
        }
        const next = lists[depth + 1];
        let kept = 0;
        const bounds = inner.subarray(8 * id, 8 * id + 8);
        for (let p = 0; p < length; p++) {
          const g = list[p];
          if (!groupInside(groups, groupBones, g, node, nodeBase, margin, bounds)) next[kept++] = g;
        }
        // Both children read the same list: the left one is walked to the end before the right one starts.
        visit(2 * id, depth + 1, next, kept);
        visit(2 * id + 1, depth + 1, next, kept);
      };
      visit(1, 0, lists[0], groupCount);
      const pruneCost = BOX_COST * (boundsStats.boxes - boxes0) + (boundsStats.evaluated - evaluated0) + NODE_COST * 2 * count * jointCount;
      // Averaged with the last pruned block's: one block of fast motion does not switch.
      costRatio = Number.isNaN(costRatio) ? pruneCost / (count * n) : (costRatio + pruneCost / (count * n)) / 2;
      // Switching: the pruning is tried again after BATCH_BLOCKS blocks, from fresh seeds (those of
      // now would be far from that block's extremes, and make it look worse than it is) and counted afresh.
      const switching = costRatio > SWITCH_RATIO;
      if (switching) {
        batchBlocks = BATCH_BLOCKS;
        costRatio = NaN;
      }
      if (switching || nextSeeds.length > MAX_SEEDS) {
        // Start again from the extremes of the coming block's first frames.
        for (const v of nextSeeds) seedMark[v] = 0;
        nextSeeds = [];
      }
      seeds = nextSeeds.slice();
    }
    boundsStats.seeds = seeds.length;
  };
}

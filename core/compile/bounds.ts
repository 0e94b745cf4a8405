// Stage: per-frame bounds (IQE-SEMANTICS.md §4.10, with B15: only written vertices count).
//
// Each vertex is skinned as the reference does it: m = sum of skin[bone] * float(weight) from a
// zero matrix, p = m * (x, y, z, 1), all in double; the box, the XY radius and the radius are
// taken over the vertices. Doing that for every vertex of every frame is most of the reference's
// time (§11). Here:
// - Vertices are grouped (up to 16 consecutive vertices with the same influences). Since
//   p = sum_k w_k S_k v is linear in v and in the weights, a box of p over a group follows from
//   the group's bind-pose box and weight ranges, a few operations per bone.
// - Each frame first evaluates the vertices that were extreme in the previous frame; then a
//   group's vertices are evaluated only when the group's box (with a margin far above rounding)
//   is not strictly inside the extremes found so far.
// - A group whose box was inside by a gap g in frame a is not looked at again before the first
//   frame b with 2 (C(b) - C(a)) >= g, where C sums a per-frame bound on how far any vertex moves
//   (driftBounds): its vertices and the vertices that made the extremes each moved at most that.
// Every vertex that makes an extreme is evaluated exactly as the reference does, so the results
// are bit-identical; the one case where the order of evaluation matters (an extreme of exactly
// +-0, where the later of equal values wins) is recomputed in vertex order.
import type { Skeleton } from './skeleton';
import { multiply, POSE_STRIDE, poseMatrix } from './pose';

export interface BoundsInput {
  /** Written input vertices (ascending) and all transformed positions (x, y, z, w per input vertex). */
  vertices: Int32Array;
  positions: Float64Array;
  blendBones: Uint8Array;
  blendWeights: Float64Array;
  skeleton: Skeleton;
  /** Output frames: indices into the file's frame list; poses of frame f start at framePoseStart[f]. */
  frames: Int32Array;
  framePoses: Float64Array;
  framePoseStart: Int32Array;
}

/** Skin matrices (world * inverse bind) of one frame into `skin`. */
function skinMatrices(input: BoundsInput, frame: number, world: Float64Array, local: Float64Array, skin: Float64Array): void {
  const { parents, inverse } = input.skeleton;
  const base = input.framePoseStart[frame] * POSE_STRIDE;
  const count = parents.length;
  for (let j = 0; j < count; j++) {
    poseMatrix(input.framePoses, base + POSE_STRIDE * j, local, 0);
    const parent = parents[j];
    if (parent >= 0 && parent < j) multiply(world, 12 * parent, local, 0, world, 12 * j);
    else world.set(local, 12 * j);
  }
  for (let j = 0; j < count; j++) multiply(world, 12 * j, inverse, 12 * j, skin, 12 * j);
}

/** Per written vertex, one 8-double record: x, y, z, four float weights, four bone bytes packed. */
const RECORD = 8;

function prepare(input: BoundsInput): Float64Array {
  const { vertices, positions, blendBones, blendWeights } = input;
  const n = vertices.length;
  const rec = new Float64Array(RECORD * n);
  for (let i = 0; i < n; i++) {
    const v = vertices[i];
    const o = RECORD * i;
    rec[o] = positions[4 * v];
    rec[o + 1] = positions[4 * v + 1];
    rec[o + 2] = positions[4 * v + 2];
    let c = 0;
    let bones = 0;
    for (let k = 0; k < 4; k++) {
      const w = blendWeights[4 * v + k];
      if (w > 0) {
        rec[o + 3 + c] = Math.fround(w);
        bones += blendBones[4 * v + k] * 256 ** c;
        c++;
      }
    }
    rec[o + 7] = bones;
  }
  return rec;
}

/**
 * An upper bound of the spectral norm of the 3x3 matrix given by its rows: the square root of
 * the largest eigenvalue of A^T A (closed form for symmetric 3x3), never more than the
 * Frobenius norm.
 */
export function spectralNorm(a0: number, a1: number, a2: number, b0: number, b1: number, b2: number, c0: number, c1: number, c2: number): number {
  // M = A^T A
  const m00 = a0 * a0 + b0 * b0 + c0 * c0, m11 = a1 * a1 + b1 * b1 + c1 * c1, m22 = a2 * a2 + b2 * b2 + c2 * c2;
  const m01 = a0 * a1 + b0 * b1 + c0 * c1, m02 = a0 * a2 + b0 * b2 + c0 * c2, m12 = a1 * a2 + b1 * b2 + c1 * c2;
  const trace = m00 + m11 + m22;
  const frobenius = Math.sqrt(trace);
  if (!(trace > 0)) return 0;
  const q = trace / 3;
  const p1 = m01 * m01 + m02 * m02 + m12 * m12;
  const d0 = m00 - q, d1 = m11 - q, d2 = m22 - q;
  const p2 = d0 * d0 + d1 * d1 + d2 * d2 + 2 * p1;
  if (!(p2 > 0)) return Math.min(frobenius, Math.sqrt(q) * (1 + 1e-9));
  const pp = Math.sqrt(p2 / 6);
  const inv = 1 / pp;
  const b00 = d0 * inv, b11 = d1 * inv, b22 = d2 * inv, b01 = m01 * inv, b02 = m02 * inv, b12 = m12 * inv;
  const det = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02);
  const r = Math.min(Math.max(det / 2, -1), 1);
  const largest = q + 2 * pp * Math.cos(Math.acos(r) / 3);
  // A relative allowance for the rounding of the closed form (far above its error).
  return Math.min(frobenius, Math.sqrt(Math.max(largest, 0)) * (1 + 1e-6) + 1e-12 * frobenius);
}

/**
 * Skins the vertex of record o: m = sum of skin[bone] * weight over its influences (from a zero
 * matrix), p = m * (x, y, z, 1); writes p to res[0..2].
 */
function evaluate(rec: Float64Array, o: number, skin: Float64Array, res: Float64Array): void {
  const x = rec[o], y = rec[o + 1], z = rec[o + 2];
  let w = rec[o + 3];
  if (!(w > 0)) {
    res[0] = res[1] = res[2] = 0;
    return;
  }
  let bones = rec[o + 7];
  let s = 12 * (bones % 256);
  let m0 = 0 + skin[s] * w, m1 = 0 + skin[s + 1] * w, m2 = 0 + skin[s + 2] * w, m3 = 0 + skin[s + 3] * w;
  let m4 = 0 + skin[s + 4] * w, m5 = 0 + skin[s + 5] * w, m6 = 0 + skin[s + 6] * w, m7 = 0 + skin[s + 7] * w;
  let m8 = 0 + skin[s + 8] * w, m9 = 0 + skin[s + 9] * w, m10 = 0 + skin[s + 10] * w, m11 = 0 + skin[s + 11] * w;
  for (let k = 1; k < 4; k++) {
    w = rec[o + 3 + k];
    if (!(w > 0)) break;
    bones = Math.floor(bones / 256);
    s = 12 * (bones % 256);
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
  const rec = prepare(input);
  const n = input.vertices.length;
  const jointCount = input.skeleton.parents.length;
  const world = new Float64Array(12 * jointCount), skin = new Float64Array(12 * jointCount), local = new Float64Array(12);
  const out = new Float64Array(8 * input.frames.length);
  const e = new Extremes();
  const res = new Float64Array(3);
  for (let f = 0; f < input.frames.length; f++) {
    skinMatrices(input, input.frames[f], world, local, skin);
    e.reset();
    for (let i = 0; i < n; i++) {
      evaluate(rec, RECORD * i, skin, res);
      e.add(res[0], res[1], res[2]);
    }
    e.write(out, 8 * f);
  }
  return out;
}

/** Weights from this on are a bone's major influence (drift bounds). */
const MAJOR = 0.25;

/** Most vertices in one group, so that a group stays small in space (consecutive vertices). */
const GROUP_SIZE = 16;

/** Figures of the last computeBounds call (for benchmarks). */
export const boundsStats = { evaluated: 0, groups: 0, zeroFallbacks: 0, boxes: 0 };

/** Record size of a group: center 3, half extents 3, per influence (unused, least, largest weight). */
const G = 18;

/**
 * The box of p = sum_k w_k S_k v over group g, written to out[6g..6g+5] (lo x y z, hi x y z):
 * each term's interval over the group's box, weighted by the end of the weight range that makes
 * it largest (or smallest), widened by margin.
 */
function groupBoxOf(groups: Float64Array, groupBone: Int32Array, skin: Float64Array, g: number, margin: number, out: Float64Array): void {
  const o = G * g;
  const cx = groups[o], cy = groups[o + 1], cz = groups[o + 2];
  const hx = groups[o + 3], hy = groups[o + 4], hz = groups[o + 5];
  let loX = 0, loY = 0, loZ = 0, hiX = 0, hiY = 0, hiZ = 0;
  for (let k = 0; k < 4; k++) {
    const b = groupBone[4 * g + k];
    if (b < 0) break;
    const wl = groups[o + 7 + 3 * k], wh = groups[o + 8 + 3 * k];
    const s = 12 * b;
    let a0 = skin[s], a1 = skin[s + 1], a2 = skin[s + 2];
    let mid = a0 * cx + a1 * cy + a2 * cz + skin[s + 3];
    let spread = Math.abs(a0) * hx + Math.abs(a1) * hy + Math.abs(a2) * hz;
    let low = mid - spread, high = mid + spread;
    loX += low >= 0 ? wl * low : wh * low;
    hiX += high >= 0 ? wh * high : wl * high;
    a0 = skin[s + 4]; a1 = skin[s + 5]; a2 = skin[s + 6];
    mid = a0 * cx + a1 * cy + a2 * cz + skin[s + 7];
    spread = Math.abs(a0) * hx + Math.abs(a1) * hy + Math.abs(a2) * hz;
    low = mid - spread; high = mid + spread;
    loY += low >= 0 ? wl * low : wh * low;
    hiY += high >= 0 ? wh * high : wl * high;
    a0 = skin[s + 8]; a1 = skin[s + 9]; a2 = skin[s + 10];
    mid = a0 * cx + a1 * cy + a2 * cz + skin[s + 11];
    spread = Math.abs(a0) * hx + Math.abs(a1) * hy + Math.abs(a2) * hz;
    low = mid - spread; high = mid + spread;
    loZ += low >= 0 ? wl * low : wh * low;
    hiZ += high >= 0 ? wh * high : wl * high;
  }
  const ob = 6 * g;
  out[ob] = loX - margin; out[ob + 1] = loY - margin; out[ob + 2] = loZ - margin;
  out[ob + 3] = hiX + margin; out[ob + 4] = hiY + margin; out[ob + 5] = hiZ + margin;
}

/** Bounds per output frame: 8 values each (bbmin 3, bbmax 3, xyradius, radius). */
export function computeBounds(input: BoundsInput): Float64Array {
  const frameCount = input.frames.length;
  const n = input.vertices.length;
  boundsStats.evaluated = 0;
  boundsStats.zeroFallbacks = 0;
  boundsStats.boxes = 0;
  if (n === 0 || frameCount < 2) return computeBoundsFull(input);
  const rec = prepare(input);
  const jointCount = input.skeleton.parents.length;

  // Groups: up to GROUP_SIZE vertices with the same influences (bones, in weight order). Per
  // group: its vertices, their box, and per influence the least and largest weight.
  const groupOf = new Map<number, number>();
  const groupSize: number[] = [];
  const groupOfVertex = new Int32Array(n);
  const boxes: number[] = [];
  const weightRange: number[] = [];
  const groupBones: number[] = [];
  let extent = 0;
  for (let i = 0; i < n; i++) {
    const o = RECORD * i;
    let count = 0;
    while (count < 4 && rec[o + 3 + count] > 0) count++;
    const key = rec[o + 7] * 8 + count;
    let g = groupOf.get(key);
    if (g === undefined || groupSize[g] === GROUP_SIZE) {
      g = groupSize.length;
      groupSize.push(0);
      groupOf.set(key, g);
      boxes.push(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
      weightRange.push(Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity);
      let bones = rec[o + 7];
      for (let k = 0; k < 4; k++) {
        groupBones.push(k < count ? bones % 256 : -1);
        bones = Math.floor(bones / 256);
      }
    }
    groupOfVertex[i] = g;
    groupSize[g]++;
    for (let k = 0; k < 3; k++) {
      const v = rec[o + k];
      if (v < boxes[6 * g + k]) boxes[6 * g + k] = v;
      if (v > boxes[6 * g + 3 + k]) boxes[6 * g + 3 + k] = v;
      extent = Math.max(extent, Math.abs(v));
    }
    for (let k = 0; k < count; k++) {
      const w = rec[o + 3 + k];
      if (w < weightRange[8 * g + 2 * k]) weightRange[8 * g + 2 * k] = w;
      if (w > weightRange[8 * g + 2 * k + 1]) weightRange[8 * g + 2 * k + 1] = w;
    }
  }
  if (!Number.isFinite(extent)) return computeBoundsFull(input);
  const groupCount = groupSize.length;
  boundsStats.groups = groupCount;
  // Vertices of each group, in vertex order (CSR).
  const groupStart = new Int32Array(groupCount + 1);
  for (let i = 0; i < n; i++) groupStart[groupOfVertex[i] + 1]++;
  for (let g = 0; g < groupCount; g++) groupStart[g + 1] += groupStart[g];
  const fill = groupStart.slice(0, groupCount);
  const members = new Int32Array(n);
  for (let i = 0; i < n; i++) members[fill[groupOfVertex[i]]++] = i;
  // One record per group (G values); bones apart as integers (-1 ends the list).
  const groups = new Float64Array(G * groupCount);
  const groupBone = Int32Array.from(groupBones);
  for (let g = 0; g < groupCount; g++) {
    const o = G * g;
    for (let k = 0; k < 3; k++) {
      groups[o + k] = (boxes[6 * g + k] + boxes[6 * g + 3 + k]) / 2;
      groups[o + 3 + k] = (boxes[6 * g + 3 + k] - boxes[6 * g + k]) / 2;
    }
    for (let k = 0; k < 4; k++) {
      const b = groupBones[4 * g + k];
      groups[o + 6 + 3 * k] = b;
      groups[o + 7 + 3 * k] = b < 0 ? 0 : weightRange[8 * g + 2 * k];
      groups[o + 8 + 3 * k] = b < 0 ? 0 : weightRange[8 * g + 2 * k + 1];
    }
  }

  const world = new Float64Array(12 * jointCount), local = new Float64Array(12), skin = new Float64Array(12 * jointCount);
  const { cumulative, unbounded } = driftBounds(input, rec, world, local);
  // The frame in which each group is looked at next (all in the first frame). Scanning them in
  // order keeps the memory accesses sequential, which matters more than skipping the scan.
  const groupDue = new Int32Array(groupCount);
  const dueNow = new Int32Array(groupCount);
  const groupBox = new Float64Array(6 * groupCount);
  const out = new Float64Array(8 * frameCount);
  const e = new Extremes();
  const res = new Float64Array(3);
  // The vertices that made the extremes of the previous frame: evaluated first, they give the
  // pruning a good start.
  const seeds = new Int32Array(8).fill(-1);
  const previousSeeds = new Int32Array(8);
  /** Adds vertex i's position to the extremes, noting which vertex makes each extreme. */
  const track = (i: number, x: number, y: number, z: number): void => {
    if (e.first || x < e.minX) seeds[0] = i;
    if (e.first || x > e.maxX) seeds[1] = i;
    if (e.first || y < e.minY) seeds[2] = i;
    if (e.first || y > e.maxY) seeds[3] = i;
    if (e.first || z < e.minZ) seeds[4] = i;
    if (e.first || z > e.maxZ) seeds[5] = i;
    const xy = x * x + y * y;
    if (xy > e.xy) seeds[6] = i;
    if (xy + z * z > e.r) seeds[7] = i;
    e.add(x, y, z);
  };

  for (let f = 0; f < frameCount; f++) {
    skinMatrices(input, input.frames[f], world, local, skin);
    let scale = 0;
    for (let k = 0; k < skin.length; k++) scale = Math.max(scale, Math.abs(skin[k]));
    // Far above the rounding of the evaluations and of the group boxes (relative 1e-16).
    const margin = 1e-9 * (1 + scale) * (1 + extent);
    e.reset();
    previousSeeds.set(seeds);
    seeds.fill(-1);
    for (let s = 0; s < 8; s++) {
      if (previousSeeds[s] < 0) continue;
      evaluate(rec, RECORD * previousSeeds[s], skin, res);
      track(previousSeeds[s], res[0], res[1], res[2]);
    }
    let due = 0;
    for (let g = 0; g < groupCount; g++) {
      if (groupDue[g] !== f) continue;
      dueNow[due++] = g;
      groupBoxOf(groups, groupBone, skin, g, margin, groupBox);
      const ob = 6 * g;
      const loX = groupBox[ob], loY = groupBox[ob + 1], loZ = groupBox[ob + 2];
      const hiX = groupBox[ob + 3], hiY = groupBox[ob + 4], hiZ = groupBox[ob + 5];
      const ax = Math.max(-loX, hiX), ay = Math.max(-loY, hiY), az = Math.max(-loZ, hiZ);
      const xy = ax * ax + ay * ay;
      if (!e.first && loX > e.minX && hiX < e.maxX && loY > e.minY && hiY < e.maxY && loZ > e.minZ && hiZ < e.maxZ && xy < e.xy && xy + az * az < e.r) continue;
      for (let m = groupStart[g]; m < groupStart[g + 1]; m++) {
        const i = members[m];
        evaluate(rec, RECORD * i, skin, res);
        track(i, res[0], res[1], res[2]);
      }
      boundsStats.evaluated += groupStart[g + 1] - groupStart[g];
    }
    boundsStats.boxes += due;
    if (e.orderMatters()) {
      // An extreme of +-0 (the later of equal values wins) or not finite: redo in vertex order.
      boundsStats.zeroFallbacks++;
      e.reset();
      for (let i = 0; i < n; i++) {
        evaluate(rec, RECORD * i, skin, res);
        e.add(res[0], res[1], res[2]);
      }
    }
    e.write(out, 8 * f);
    // Reschedule the groups looked at in this frame: the first frame b > f where the group's box
    // and the extremes could meet, 2 (C(b) - C(f)) >= gap (C includes the margins).
    const xyMax = Math.sqrt(e.xy), rMax = Math.sqrt(e.r);
    for (let d = 0; d < due; d++) {
      const g = dueNow[d];
      const o = 6 * g;
      const loX = groupBox[o], loY = groupBox[o + 1], loZ = groupBox[o + 2], hiX = groupBox[o + 3], hiY = groupBox[o + 4], hiZ = groupBox[o + 5];
      const ax = Math.max(-loX, hiX), ay = Math.max(-loY, hiY), az = Math.max(-loZ, hiZ);
      const xy = Math.sqrt(ax * ax + ay * ay);
      let gap = Math.min(loX - e.minX, e.maxX - hiX, loY - e.minY, e.maxY - hiY, loZ - e.minZ, e.maxZ - hiZ);
      gap = Math.min(gap, xyMax - xy, rMax - Math.sqrt(xy * xy + az * az));
      let next = f + 1;
      if (gap > 0 && !unbounded) {
        const target = cumulative[f] + gap / 2;
        let low = f + 1, high = frameCount;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (cumulative[mid] >= target) high = mid;
          else low = mid + 1;
        }
        next = low;
      }
      groupDue[g] = next;
    }
  }
  return out;
}

/**
 * C(f): running sum over output frames of D(f), a bound on how far any vertex moves from frame
 * f-1 to f. A vertex moves by sum_k w_k (S_k(f) - S_k(f-1)) v; for v in the bounding sphere
 * (c, r) of the vertices of bone b one term moves at most |dS_b c| + |dA_b| r (|dA_b|: spectral
 * norm of the 3x3 part), and the float weights of a vertex sum to at most maxWeightSum. The
 * result is inflated by a relative 1e-9 and an absolute margin far above rounding.
 */
interface Drift {
  /** C(f): running sum of the bound on any vertex's move. */
  cumulative: Float64Array;
  /** The bound overflowed (absurd input): every group is looked at in every frame. */
  unbounded: boolean;
}

function driftBounds(input: BoundsInput, rec: Float64Array, world: Float64Array, local: Float64Array): Drift {
  const frameCount = input.frames.length;
  const n = input.vertices.length;
  const jointCount = input.skeleton.parents.length;
  // Spheres per bone and weight class: class 0 holds the vertices where the bone's weight is at
  // least MAJOR, class 1 the others (light influences, often far from the bone).
  const spheres = 2 * jointCount;
  const lo = new Float64Array(3 * spheres).fill(Infinity);
  const hi = new Float64Array(3 * spheres).fill(-Infinity);
  let maxWeightSum = 0;
  let maxMinorSum = 0;
  let extent = 0;
  for (let i = 0; i < n; i++) {
    const o = RECORD * i;
    const x = rec[o], y = rec[o + 1], z = rec[o + 2];
    let bones = rec[o + 7];
    let sum = 0;
    let minor = 0;
    for (let k = 0; k < 4 && rec[o + 3 + k] > 0; k++) {
      const w = rec[o + 3 + k];
      sum += w;
      const b = bones % 256;
      bones = Math.floor(bones / 256);
      const c = w >= MAJOR ? 2 * b : 2 * b + 1;
      if (w < MAJOR) minor += w;
      if (x < lo[3 * c]) lo[3 * c] = x;
      if (x > hi[3 * c]) hi[3 * c] = x;
      if (y < lo[3 * c + 1]) lo[3 * c + 1] = y;
      if (y > hi[3 * c + 1]) hi[3 * c + 1] = y;
      if (z < lo[3 * c + 2]) lo[3 * c + 2] = z;
      if (z > hi[3 * c + 2]) hi[3 * c + 2] = z;
    }
    if (sum > maxWeightSum) maxWeightSum = sum;
    if (minor > maxMinorSum) maxMinorSum = minor;
    extent = Math.max(extent, Math.abs(x), Math.abs(y), Math.abs(z));
  }
  const used = new Uint8Array(spheres);
  const center = new Float64Array(3 * spheres);
  const radius = new Float64Array(spheres);
  for (let c = 0; c < spheres; c++) {
    if (!(lo[3 * c] <= hi[3 * c])) continue;
    used[c] = 1;
    for (let k = 0; k < 3; k++) center[3 * c + k] = (lo[3 * c + k] + hi[3 * c + k]) / 2;
    radius[c] = Math.hypot(hi[3 * c] - lo[3 * c], hi[3 * c + 1] - lo[3 * c + 1], hi[3 * c + 2] - lo[3 * c + 2]) / 2;
  }
  let previous = new Float64Array(12 * jointCount);
  let current = new Float64Array(12 * jointCount);
  const cumulative = new Float64Array(frameCount);
  for (let f = 0; f < frameCount; f++) {
    skinMatrices(input, input.frames[f], world, local, current);
    let scale = 0;
    for (let k = 0; k < current.length; k++) scale = Math.max(scale, Math.abs(current[k]));
    if (f > 0) {
      const margin = 1e-9 * (1 + scale) * (1 + extent);
      // A: the largest move of a major sphere, B: of a minor one. A vertex moves at most
      // W_major A + W_minor B <= maxWeightSum A + maxMinorSum max(B - A, 0).
      let major = 0, minor = 0;
      for (let b = 0; b < jointCount; b++) {
        if (!used[2 * b] && !used[2 * b + 1]) continue;
        const s = 12 * b;
        const norm = spectralNorm(
          current[s] - previous[s], current[s + 1] - previous[s + 1], current[s + 2] - previous[s + 2],
          current[s + 4] - previous[s + 4], current[s + 5] - previous[s + 5], current[s + 6] - previous[s + 6],
          current[s + 8] - previous[s + 8], current[s + 9] - previous[s + 9], current[s + 10] - previous[s + 10],
        );
        const moveAt = (cx: number, cy: number, cz: number): number => {
          let move = 0;
          for (let row = 0; row < 3; row++) {
            const r = s + 4 * row;
            const d = (current[r] - previous[r]) * cx + (current[r + 1] - previous[r + 1]) * cy +
              (current[r + 2] - previous[r + 2]) * cz + (current[r + 3] - previous[r + 3]);
            move += d * d;
          }
          return Math.sqrt(move);
        };
        for (let cls = 0; cls < 2; cls++) {
          const c = 2 * b + cls;
          if (!used[c]) continue;
          const bound = moveAt(center[3 * c], center[3 * c + 1], center[3 * c + 2]) + norm * radius[c];
          if (cls === 0) major = Math.max(major, bound);
          else minor = Math.max(minor, bound);
        }
      }
      const d = maxWeightSum * major + maxMinorSum * Math.max(minor - major, 0);
      cumulative[f] = cumulative[f - 1] + d * (1 + 1e-9) + margin;
    }
    const t = previous;
    previous = current;
    current = t;
  }
  return { cumulative, unbounded: !Number.isFinite(cumulative[frameCount - 1]) };
}

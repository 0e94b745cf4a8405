// Stage 2: welding of triangle corners and normal generation (IQE-SEMANTICS.md §4.3), with our
// fixes B4 (`vs` compares the corners' own vertices) and B5 (smoothangle without fabs, applied
// when the groups are read in input.ts). Skipped when the file has any `vn`: then each corner's
// weld is its vertex and the normals are the file's.
import { newArray } from '../pages';
import { classifyRows } from './classify';
import type { SourceModel } from './source';
import { type KernelMemory, kernelLayout, loadKernel } from '../wasm';
import weldWasm from '../../wasm/weld.wasm';

export interface Welds {
  /** Weld of each triangle corner (3 per triangle; the triangles themselves when the file has normals). */
  weld: Int32Array;
  /** Normal of each weld: x, y, z. */
  normals: Float64Array;
  weldCount: number;
}

/** Corners at one position above which weldLargeGroup takes them (below, every pair is tested). */
const LARGE_GROUP = 64;

/**
 * The welds of a large group of corners at one position (`group`: the corners, in order; every
 * corner its own root so far): the connected components of canWeld, as the pairwise loop makes
 * them, but a corner is tested against each other component only until one of its corners welds
 * (then the whole component joins). The pairwise loop tests every pair whose roots differ, each a
 * find: a vertex shared by 20,000 triangles (a fan) took 1.5 s; here, where they weld, n tests.
 * canWeld is symmetric, so the order of a pair does not matter; the partition is the same.
 * `members`/`tail`: each root's corners as a list (next corner, last corner), by corner; `live`:
 * room for the group's corners.
 */
export function weldLargeGroup(group: Int32Array, parent: Int32Array, find: (c: number) => number, canWeld: (w: number, v: number) => boolean, members: Int32Array, tail: Int32Array, live: Int32Array): void {
  // Index loops and a typed list of the live roots: `for of` made an iterator result per corner
  // where V8 had not optimised the loop yet, and an array of numbers grew by copies (a million
  // degenerate triangles at one vertex: 230 MB of iterator results).
  let liveCount = 0;
  for (let k = 0; k < group.length; k++) {
    const c = group[k];
    members[c] = -1;
    tail[c] = c;
    live[liveCount++] = c;
  }
  for (let k = 0; k < group.length; k++) {
    const w = group[k];
    const rw = find(w);
    for (let i = 0; i < liveCount; i++) {
      const r = live[i];
      if (r === rw) continue;
      for (let v = r; v >= 0; v = members[v]) {
        if (!canWeld(w, v)) continue;
        // r's corners join rw's: r leaves the live roots (the last takes its place, looked at next).
        parent[r] = rw;
        members[tail[rw]] = r;
        tail[rw] = tail[r];
        live[i--] = live[--liveCount];
        break;
      }
    }
  }
}

const weldSlot: { kernel?: WeldKernel | null } = {};

interface WeldKernel extends KernelMemory {
  weldGroups(order: number, groupStart: number, groups: number, largest: number, tris: number, triGroup: number, key: number, threshold: number, uv: number, fn: number, tex: number, texWidth: number, parent: number): void;
  faceNormals(tris: number, positions: number, triCount: number, area: number, fn: number): void;
  weldNormals(weld: number, area: number, triCount: number, weldCount: number, normals: number): void;
}

/** Whether weldCorners runs the WebAssembly kernel here (tests). */
export function weldKernelAvailable(): boolean {
  return loadKernel(weldSlot, weldWasm) !== null;
}

/**
 * Meshes up to this many triangles are welded in the kernel: its memory stays as large as the
 * largest mesh it took (about 160 bytes a triangle: g64-f250-nonormals' 49,152 peaked 5-8 MB
 * higher), and a large mesh's loops are optimised by V8 while they run anyway; the kernel is for
 * the small compile, whose code runs cold (the real models here have up to 15,000).
 */
const KERNEL_MAX_TRIANGLES = 1 << 15;

/** Each triangle's area vector and unit normal (weldCorners' first loop), in the kernel: false without it. */
function faceNormalsInKernel(tris: Int32Array, positions: Float64Array, area: Float64Array, fn: Float64Array): boolean {
  if (tris.length > 3 * KERNEL_MAX_TRIANGLES) return false;
  const kernel = loadKernel(weldSlot, weldWasm);
  if (!kernel) return false;
  const triCount = tris.length / 3;
  const [trisAt, positionsAt, areaAt, fnAt] = kernelLayout(kernel, [4 * tris.length, 8 * positions.length, 24 * triCount, 24 * triCount]);
  const buffer = kernel.memory.buffer;
  new Int32Array(buffer, trisAt, tris.length).set(tris);
  new Float64Array(buffer, positionsAt, positions.length).set(positions);
  kernel.faceNormals(trisAt, positionsAt, triCount, areaAt, fnAt);
  area.set(new Float64Array(buffer, areaAt, 3 * triCount));
  fn.set(new Float64Array(buffer, fnAt, 3 * triCount));
  return true;
}

/** The welds' normals (weldCorners' last loops) into `normals` (zeroed), in the kernel: false without it. */
function weldNormalsInKernel(weld: Int32Array, area: Float64Array, normals: Float64Array): boolean {
  if (weld.length > 3 * KERNEL_MAX_TRIANGLES) return false;
  const kernel = loadKernel(weldSlot, weldWasm);
  if (!kernel) return false;
  const triCount = weld.length / 3;
  const [weldAt, areaAt, normalsAt] = kernelLayout(kernel, [4 * weld.length, 8 * area.length, 8 * normals.length]);
  const buffer = kernel.memory.buffer;
  new Int32Array(buffer, weldAt, weld.length).set(weld);
  new Float64Array(buffer, areaAt, area.length).set(area);
  const out = new Float64Array(buffer, normalsAt, normals.length);
  out.fill(0);
  kernel.weldNormals(weldAt, areaAt, triCount, normals.length / 3, normalsAt);
  normals.set(out);
  return true;
}

/**
 * The pairwise loop of weldCorners over every position group of at most LARGE_GROUP corners, in
 * the kernel (wasm/weld.ts: the same canWeld, so the same components), `parent` updated; false
 * without the kernel (the caller runs the loop itself).
 */
function weldSmallGroupsInKernel(order: Int32Array, groupStart: Int32Array, groupCount: number, tris: Int32Array, triGroup: Int32Array, groups: SourceModel['groups'], fn: Float64Array, tex: Float64Array | null, texWidth: number, parent: Int32Array): boolean {
  if (tris.length > 3 * KERNEL_MAX_TRIANGLES) return false;
  const kernel = loadKernel(weldSlot, weldWasm);
  if (!kernel) return false;
  const corners = tris.length;
  const triCount = corners / 3;
  const [orderAt, groupStartAt, trisAt, triGroupAt, keyAt, thresholdAt, uvAt, fnAt, texAt, parentAt] = kernelLayout(kernel, [
    4 * corners, 4 * (groupCount + 1), 4 * corners, 4 * triCount, 4 * groups.length, 8 * groups.length, groups.length, 8 * fn.length, tex ? 8 * tex.length : 0, 4 * corners,
  ]);
  const buffer = kernel.memory.buffer;
  new Int32Array(buffer, orderAt, corners).set(order);
  new Int32Array(buffer, groupStartAt, groupCount + 1).set(groupStart.subarray(0, groupCount + 1));
  new Int32Array(buffer, trisAt, corners).set(tris);
  new Int32Array(buffer, triGroupAt, triCount).set(triGroup.subarray(0, triCount));
  // Keys as dense numbers (equal keys, equal numbers: a key need not fit 32 bits).
  const keyIds = new Map<number, number>();
  const key = new Int32Array(buffer, keyAt, groups.length);
  const threshold = new Float64Array(buffer, thresholdAt, groups.length);
  const uv = new Uint8Array(buffer, uvAt, groups.length);
  groups.forEach((group, i) => {
    let id = keyIds.get(group.key);
    if (id === undefined) keyIds.set(group.key, (id = keyIds.size));
    key[i] = id;
    threshold[i] = group.threshold;
    uv[i] = group.uv ? 1 : 0;
  });
  new Float64Array(buffer, fnAt, fn.length).set(fn);
  if (tex) new Float64Array(buffer, texAt, tex.length).set(tex);
  const parentIn = new Int32Array(buffer, parentAt, corners);
  parentIn.set(parent);
  kernel.weldGroups(orderAt, groupStartAt, groupCount, LARGE_GROUP, trisAt, triGroupAt, keyAt, thresholdAt, uvAt, fnAt, texAt, tex ? texWidth : 0, parentAt);
  parent.set(parentIn);
  return true;
}

export function weldCorners(input: SourceModel): Welds {
  const tris = input.triangles;
  const corners = tris.length;
  if (input.normals) {
    return { weld: tris, normals: input.normals, weldCount: input.vertexCount };
  }
  const triCount = corners / 3;
  const pos = input.positions;
  const area = newArray(Float64Array, 3 * triCount);
  const fn = newArray(Float64Array, 3 * triCount);
  // In the kernel where it exists (the same doubles), else here.
  if (!faceNormalsInKernel(tris, pos, area, fn)) for (let t = 0; t < triCount; t++) {
    const a = 4 * tris[3 * t], b = 4 * tris[3 * t + 1], c = 4 * tris[3 * t + 2];
    // (v2 - v0) x (v1 - v0)
    const ex = pos[c] - pos[a], ey = pos[c + 1] - pos[a + 1], ez = pos[c + 2] - pos[a + 2];
    const ox = pos[b] - pos[a], oy = pos[b + 1] - pos[a + 1], oz = pos[b + 2] - pos[a + 2];
    const x = ey * oz - ez * oy;
    const y = ez * ox - ex * oz;
    const z = ex * oy - ey * ox;
    area[3 * t] = x; area[3 * t + 1] = y; area[3 * t + 2] = z;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z);
    fn[3 * t] = x * inv; fn[3 * t + 1] = y * inv; fn[3 * t + 2] = z * inv;
  }

  // Corners grouped by exact position (x, y, z, w), counting sort by position class.
  const { classOf: posClass, classCount } = classifyRows([{ data: pos, stride: 4 }], input.vertexCount);
  const groupStart = newArray(Int32Array, classCount + 1);
  for (let c = 0; c < corners; c++) groupStart[posClass[tris[c]] + 1]++;
  for (let g = 0; g < classCount; g++) groupStart[g + 1] += groupStart[g];
  const fill = newArray(Int32Array, classCount);
  fill.set(groupStart.subarray(0, classCount));
  const order = newArray(Int32Array, corners);
  for (let c = 0; c < corners; c++) order[fill[posClass[tris[c]]]++] = c;

  const parent = newArray(Int32Array, corners);
  for (let c = 0; c < corners; c++) parent[c] = c;
  const find = (c: number): number => {
    while (parent[c] !== c) {
      parent[c] = parent[parent[c]];
      c = parent[c];
    }
    return c;
  };

  const groups = input.groups;
  const triGroup = input.triangleGroup;
  const tex = input.texcoords;
  const texWidth = input.texcoordWidth;
  const vs = input.smoothIds;
  const flags = input.edgeFlags;

  const sharesSmoothEdge = (w: number, v: number): boolean => {
    const tw = (w / 3) | 0, kw = w - 3 * tw;
    const tv = (v / 3) | 0, kv = v - 3 * tv;
    const fw = flags![tw], fv = flags![tv];
    for (let i = 1; i <= 2; i++) {
      const ow = (kw + i) % 3;
      const bitW = i === 1 ? kw : ow;
      const pw = posClass[tris[3 * tw + ow]];
      for (let j = 1; j <= 2; j++) {
        const ov = (kv + j) % 3;
        if (posClass[tris[3 * tv + ov]] !== pw) continue;
        const bitV = j === 1 ? kv : ov;
        if ((fw >> bitW) & 1 || (fv >> bitV) & 1) return true;
      }
    }
    return false;
  };

  const canWeld = (w: number, v: number): boolean => {
    const tw = (w / 3) | 0, tv = (v / 3) | 0;
    const gw = groups[triGroup[tw]], gv = groups[triGroup[tv]];
    if (gw.key !== gv.key) return false;
    const dot = fn[3 * tw] * fn[3 * tv] + fn[3 * tw + 1] * fn[3 * tv + 1] + fn[3 * tw + 2] * fn[3 * tv + 2];
    // Written as "skip if <", so a NaN normal (zero-area triangle) passes.
    if (dot < Math.max(gw.threshold, gv.threshold)) return false;
    const iw = tris[w], iv = tris[v];
    if (tex && (gw.uv || gv.uv)) {
      for (let k = 0; k < texWidth; k++) if (tex[texWidth * iw + k] !== tex[texWidth * iv + k]) return false;
    }
    // Ours (B4): the `vs` values of the corners' own vertices.
    if (vs && vs[iw] !== vs[iv]) return false;
    if (flags && !sharesSmoothEdge(w, v)) return false;
    return true;
  };

  // The small groups in the WebAssembly kernel where canWeld is its common form (no `vs`, no edge
  // flags); the large ones below in any case.
  const smallDone = !vs && !flags && weldSmallGroupsInKernel(order, groupStart, classCount, tris, triGroup, groups, fn, tex, texWidth, parent);
  // Where a group is large, its components are found component by component (same partition).
  let members: Int32Array | null = null, tail: Int32Array | null = null, live: Int32Array | null = null;
  for (let g = 0; g < classCount; g++) {
    const start = groupStart[g], end = groupStart[g + 1];
    if (end - start <= LARGE_GROUP && smallDone) continue;
    if (end - start > LARGE_GROUP) {
      members ??= newArray(Int32Array, corners);
      tail ??= newArray(Int32Array, corners);
      live ??= newArray(Int32Array, corners);
      // Corners of different smoothing groups never weld: each group's corners on their own (a
      // component of another group would be searched through for every corner in vain). Most
      // positions have one smoothing group: their corners are taken where they lie.
      const keyOf = (c: number): number => groups[triGroup[(c / 3) | 0]].key;
      const first = keyOf(order[start]);
      let oneKey = true;
      for (let a = start + 1; a < end && oneKey; a++) oneKey = keyOf(order[a]) === first;
      if (oneKey) {
        weldLargeGroup(order.subarray(start, end), parent, find, canWeld, members, tail, live);
        continue;
      }
      const byKey = new Map<number, number[]>();
      for (let a = start; a < end; a++) {
        const c = order[a];
        const key = keyOf(c);
        const list = byKey.get(key);
        if (list) list.push(c);
        else byKey.set(key, [c]);
      }
      for (const list of byKey.values()) if (list.length > 1) weldLargeGroup(Int32Array.from(list), parent, find, canWeld, members, tail, live);
      continue;
    }
    for (let a = start; a < end; a++) {
      const w = order[a];
      // w's root, kept up to date as it is joined (one find a pair instead of two).
      let rw = find(w);
      for (let b = a + 1; b < end; b++) {
        const v = order[b];
        const rv = find(v);
        if (rw === rv || !canWeld(w, v)) continue;
        if (rv < rw) {
          parent[rw] = rv;
          rw = rv;
        } else {
          parent[rv] = rw;
        }
      }
    }
  }

  const weld = newArray(Int32Array, corners);
  const idOfRoot = newArray(Int32Array, corners).fill(-1);
  let weldCount = 0;
  for (let c = 0; c < corners; c++) {
    const r = find(c);
    if (idOfRoot[r] < 0) idOfRoot[r] = weldCount++;
    weld[c] = idOfRoot[r];
  }
  const normals = newArray(Float64Array, 3 * weldCount);
  if (weldNormalsInKernel(weld, area, normals)) return { weld, normals, weldCount };
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const o = 3 * weld[3 * t + k];
      normals[o] += area[3 * t];
      normals[o + 1] += area[3 * t + 1];
      normals[o + 2] += area[3 * t + 2];
    }
  }
  for (let o = 0; o < normals.length; o += 3) {
    const x = normals[o], y = normals[o + 1], z = normals[o + 2];
    const length = Math.sqrt(x * x + y * y + z * z);
    if (length > 0) {
      const inv = 1 / length;
      normals[o] = x * inv; normals[o + 1] = y * inv; normals[o + 2] = z * inv;
    }
  }
  return { weld, normals, weldCount };
}

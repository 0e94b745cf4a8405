// Stage 4: vertex-cache optimisation (IQE-SEMANTICS.md §4.5, Forsyth-style), which fixes the
// triangle order and the output vertex order of each mesh. Scores are float32 as in the
// reference; ours (B7) clamps the rank term so that no score is NaN and no triangle is dropped.
// The "no best triangle" fallback scans all triangles in the reference; here a max segment tree
// over the (stale) triangle scores answers it, updated lazily from a dirty list.
import { type ArrayKind, newArray } from '../pages';
import { type KernelMemory, kernelLayout, loadKernel } from '../wasm';
import vcacheWasm from '../../wasm/vcache.wasm';


const f32 = Math.fround;
const CACHE_SIZE = 32;
/**
 * A cached vertex of more triangles than this does not rescore them (ours): the reference walks
 * all of a cached vertex's triangles at every step, so one vertex shared by n triangles (a fan, a
 * disc's centre) took time growing with n^2 (20,000 triangles: 2.5 s here, 3 s in the reference).
 * Its triangles are still scored through their other corners and by the scan. The order differs
 * from the reference's only in meshes with such a vertex. Also wasm/vcache.ts.
 */
export const HUB_USES = 1024;

/** Rank terms for ranks 0..63 (ranks >= 32 give 0: B7). */
const RANK_TERM = new Float64Array(64);
for (let r = 0; r < RANK_TERM.length; r++) {
  if (r < 3) RANK_TERM[r] = 0.75;
  else {
    const base = f32(1 - f32(f32(r - 3) / 29));
    RANK_TERM[r] = base > 0 ? f32(Math.pow(base, 1.5)) : 0;
  }
}
/**
 * The reference's rank terms: NaN for ranks 33 and 34 (powf of a negative base). Here -Infinity,
 * which is never chosen either, and unlike NaN keeps the max tree of bestByScan working.
 */
const REFERENCE_RANK_TERM = RANK_TERM.slice();
REFERENCE_RANK_TERM[33] = REFERENCE_RANK_TERM[34] = -Infinity;
/** The cache length (before its trim) at which the reference's scores first become NaN. */
const FIRST_NAN_LENGTH = 34;

let valence = new Float64Array(0);
function valenceTerm(uses: number): number {
  if (uses >= valence.length) {
    const next = new Float64Array(Math.max(uses + 1, 2 * valence.length, 64));
    for (let n = 1; n < next.length; n++) next[n] = f32(2 * f32(Math.pow(n, -0.5)));
    valence = next;
  }
  return valence[uses];
}

/** The vertex score of §4.5 (rank -1: not cached). */
export function vertexScore(uses: number, rank: number): number {
  if (uses <= 0) return -1;
  const s = valenceTerm(uses);
  if (rank < 0) return s;
  return f32(s + (rank < RANK_TERM.length ? RANK_TERM[rank] : 0));
}

export interface CacheOrder {
  /** Triangles (indices into the input list) in output order. */
  triangleOrder: Int32Array;
  /** Vertices (candidate ids) in output order. */
  vertexOrder: Int32Array;
  /**
   * Whether the cache ever held 34 or more entries before its trim: the reference's pass is the
   * same as this one up to that step, where its scores become NaN and it starts to drop (B7).
   */
  overflowed: boolean;
}

/**
 * The working arrays of optimiseVertexCache, kept from one call to the next: a compile orders its
 * meshes one after another, and arrays made anew for each stayed resident until V8 collected them
 * (malloc keeps what it is given back), 10-20 MiB at the vertex-cache stage of the benchmark file
 * in some runs. An order made with a scratch is valid until the next call with the same one.
 */
export class VertexCacheScratch {
  private readonly slots: Uint8Array[] = [];

  /** A zeroed array of `length` elements on slot `slot`'s bytes (grown when too short). */
  take<T>(slot: number, kind: ArrayKind<T>, length: number): T {
    const bytes = kind.BYTES_PER_ELEMENT * length;
    let space = this.slots[slot];
    if (!space || space.length < bytes) {
      space = newArray(Uint8Array, Math.max(bytes, space ? space.length + (space.length >> 1) : 0));
      this.slots[slot] = space;
    } else {
      space.fill(0, 0, bytes);
    }
    return new kind(space.buffer, space.byteOffset, length);
  }
}

/**
 * The order of §4.5 with B7 fixed. With `asReference`, the reference's own pass instead (as built
 * without the strict-aliasing miscompile of §4.5): triangles of vertices that were ranked 33 or 34
 * are never chosen, so the order leaves them out. With `scratch`, the working arrays and the
 * order's arrays are the scratch's.
 */
export function optimiseVertexCache(vertexCount: number, tris: Int32Array, asReference = false, scratch?: VertexCacheScratch): CacheOrder {
  return optimiseWithKernel(vertexCount, tris, asReference) ?? optimiseVertexCacheScript(vertexCount, tris, asReference, scratch);
}

/** wasm/vcache.ts's exports. */
interface VcacheKernel extends KernelMemory {
  workBytes(vertexCount: number, triCount: number, leaves: number): number;
  prepare(vertexCount: number, triCount: number, tris: number, work: number): number;
  optimise(vertexCount: number, triCount: number, tris: number, valence: number, rank: number, triangleOrder: number, vertexOrder: number): number;
  orderedVertices(): number;
  overflowed(): number;
}
const vcacheSlot: { kernel?: VcacheKernel | null } = {};
/** Meshes up to this many triangles go to the kernel (its memory is kept: 64 bytes per triangle or so). */
const KERNEL_MAX_TRIANGLES = 1 << 20;

/** Whether optimiseVertexCache runs the WebAssembly kernel here (tests). */
export function vcacheKernelAvailable(): boolean {
  return loadKernel(vcacheSlot, vcacheWasm) !== null;
}

/** The pass in WebAssembly (wasm/vcache.ts: the same steps, the same results); null when it is not to be had. */
function optimiseWithKernel(vertexCount: number, tris: Int32Array, asReference: boolean): CacheOrder | null {
  const triCount = tris.length / 3;
  if (triCount > KERNEL_MAX_TRIANGLES) return null;
  const kernel = loadKernel(vcacheSlot, vcacheWasm);
  if (!kernel) return null;
  let leaves = 1;
  while (leaves < triCount) leaves *= 2;
  const workBytes = kernel.workBytes(vertexCount, triCount, leaves);
  // The valence table goes after the work area: its length is known after prepare(), at most this.
  const [trisAt, rankAt, triangleOrderAt, vertexOrderAt, workAt, valenceAt] = kernelLayout(kernel, [12 * triCount, 4 * RANK_TERM.length, 4 * triCount, 4 * vertexCount, workBytes, 4 * (3 * triCount + 1)]);
  const buffer = kernel.memory.buffer;
  new Int32Array(buffer, trisAt, 3 * triCount).set(tris);
  new Float32Array(buffer, rankAt, RANK_TERM.length).set(asReference ? REFERENCE_RANK_TERM : RANK_TERM);
  new Uint8Array(buffer, workAt, workBytes).fill(0);
  const maxUses = kernel.prepare(vertexCount, triCount, trisAt, workAt);
  valenceTerm(maxUses);
  new Float32Array(buffer, valenceAt, maxUses + 1).set(valence.subarray(0, maxUses + 1));
  const emitted = kernel.optimise(vertexCount, triCount, trisAt, valenceAt, rankAt, triangleOrderAt, vertexOrderAt);
  return {
    triangleOrder: new Int32Array(buffer, triangleOrderAt, emitted).slice(),
    vertexOrder: new Int32Array(buffer, vertexOrderAt, kernel.orderedVertices()).slice(),
    overflowed: kernel.overflowed() !== 0,
  };
}

/** The pass in JavaScript (where WebAssembly is not to be had). */
export function optimiseVertexCacheScript(vertexCount: number, tris: Int32Array, asReference = false, scratch?: VertexCacheScratch): CacheOrder {
  const take = <T>(slot: number, kind: ArrayKind<T>, length: number): T => (scratch ? scratch.take(slot, kind, length) : newArray(kind, length));
  const rankTerm = asReference ? REFERENCE_RANK_TERM : RANK_TERM;
  const triCount = tris.length / 3;
  const numUses = take(0, Int32Array, vertexCount);
  const used = take(1, Uint8Array, triCount);
  let maxUses = 0;
  for (let t = 0; t < triCount; t++) {
    const a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2];
    if (a === b || b === c || a === c) {
      used[t] = 1;
      continue;
    }
    numUses[a]++;
    numUses[b]++;
    numUses[c]++;
  }
  const usesStart = take(2, Int32Array, vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) {
    usesStart[v + 1] = usesStart[v] + numUses[v];
    if (numUses[v] > maxUses) maxUses = numUses[v];
  }
  const uses = take(3, Int32Array, usesStart[vertexCount]);
  const fillUses = take(4, Int32Array, vertexCount);
  fillUses.set(usesStart.subarray(0, vertexCount));
  // Where corner k of triangle t is in its vertex's uses (a removal is then one step, not a search).
  const usePosition = take(15, Int32Array, 3 * triCount);
  for (let t = 0; t < triCount; t++) {
    if (used[t]) continue;
    for (let k = 0; k < 3; k++) {
      const f = fillUses[tris[3 * t + k]]++;
      uses[f] = t;
      usePosition[3 * t + k] = f;
    }
  }
  // Every use count from here on is at most maxUses, so valence[] needs no growing below.
  valenceTerm(maxUses);
  const valenceOf = valence;
  const score = take(5, Float64Array, vertexCount);
  // vertexScore(numUses[v], -1), inline.
  for (let v = 0; v < vertexCount; v++) score[v] = numUses[v] <= 0 ? -1 : valenceOf[numUses[v]];
  const triScore = take(6, Float64Array, triCount);

  // Max segment tree over unused triangles' stale scores (-Infinity for used ones).
  let leaves = 1;
  while (leaves < triCount) leaves *= 2;
  const tree = take(7, Float64Array, 2 * leaves).fill(-Infinity);
  for (let t = 0; t < triCount; t++) {
    triScore[t] = f32(f32(score[tris[3 * t]] + score[tris[3 * t + 1]]) + score[tris[3 * t + 2]]);
    if (!used[t]) tree[leaves + t] = triScore[t];
  }
  for (let n = leaves - 1; n >= 1; n--) tree[n] = Math.max(tree[2 * n], tree[2 * n + 1]);
  // Triangles whose tree leaf is stale (each listed once: at most triCount).
  const dirty = take(8, Uint8Array, triCount);
  const dirtyList = take(9, Int32Array, triCount);
  let dirtyCount = 0;
  const bestByScan = (): number => {
    for (let i = 0; i < dirtyCount; i++) {
      const t = dirtyList[i];
      dirty[t] = 0;
      let n = leaves + t;
      tree[n] = used[t] ? -Infinity : triScore[t];
      for (n >>= 1; n >= 1; n >>= 1) tree[n] = Math.max(tree[2 * n], tree[2 * n + 1]);
    }
    dirtyCount = 0;
    // The first triangle with the greatest score, as long as it beats -1e16f.
    if (!(tree[1] > -1e16)) return -1;
    let n = 1;
    while (n < leaves) n = tree[2 * n] >= tree[2 * n + 1] ? 2 * n : 2 * n + 1;
    return n - leaves;
  };

  const cached = take(10, Uint8Array, vertexCount);
  const index = take(11, Int32Array, vertexCount).fill(-1);
  const cache = new Int32Array(CACHE_SIZE + 4);
  let cacheLength = 0;
  let overflowed = false;
  const triangleOrder = take(12, Int32Array, triCount);
  let emitted = 0;
  const vertexOrder = take(13, Int32Array, vertexCount);
  let nextIndex = 0;

  // The loop's two halves are functions of their own with no calls in their loops (scores,
  // dirty marks inline), which V8 optimises after a few calls: this runs cold for small inputs.
  /** Emits triangle `best`: its new vertices get output indices, and its corners go to the cache front. */
  const emit = (best: number): void => {
    used[best] = 1;
    if (!dirty[best]) {
      dirty[best] = 1;
      dirtyList[dirtyCount++] = best;
    }
    triangleOrder[emitted++] = best;
    for (let k = 0; k < 3; k++) {
      const v = tris[3 * best + k];
      if (index[v] < 0) {
        index[v] = nextIndex;
        vertexOrder[nextIndex++] = v;
      }
      // Remove best from v's uses: overwrite it with the last element (whose position follows).
      const last = usesStart[v] + numUses[v] - 1;
      const u = usePosition[3 * best + k];
      const moved = uses[last];
      uses[u] = moved;
      for (let m = 0; m < 3; m++) if (tris[3 * moved + m] === v) usePosition[3 * moved + m] = u;
      numUses[v]--;
      if (cached[v]) {
        let p = 0;
        while (cache[p] !== v) p++;
        for (; p + 1 < cacheLength; p++) cache[p] = cache[p + 1];
        cacheLength--;
        cached[v] = 0;
      }
      if (numUses[v] > 0) {
        for (let p = cacheLength; p > 0; p--) cache[p] = cache[p - 1];
        cache[0] = v;
        cacheLength++;
        cached[v] = 1;
      }
    }
  };
  const seen = take(14, Int32Array, triCount);
  let step = 0;
  /** Rescores the cached vertices and their triangles; the best of those (-1: none), then trims the cache. */
  const rescore = (): number => {
    // vertexScore(numUses[v], p) of each cached vertex.
    for (let p = 0; p < cacheLength; p++) {
      const v = cache[p];
      const n = numUses[v];
      score[v] = n <= 0 ? -1 : f32(valenceOf[n] + (p < rankTerm.length ? rankTerm[p] : 0));
    }
    let best = -1;
    let bestScore = -1e16;
    // A triangle met again through another of its cached vertices has the same score, which
    // cannot beat itself: each is scored once per step.
    step++;
    for (let p = 0; p < cacheLength; p++) {
      const v = cache[p];
      if (numUses[v] > HUB_USES) continue;
      for (let u = usesStart[v], end = u + numUses[v]; u < end; u++) {
        const t = uses[u];
        if (seen[t] === step) continue;
        seen[t] = step;
        const s = f32(f32(score[tris[3 * t]] + score[tris[3 * t + 1]]) + score[tris[3 * t + 2]]);
        triScore[t] = s;
        if (!dirty[t]) {
          dirty[t] = 1;
          dirtyList[dirtyCount++] = t;
        }
        if (s > bestScore) {
          bestScore = s;
          best = t;
        }
      }
    }
    if (cacheLength >= FIRST_NAN_LENGTH) overflowed = true;
    while (cacheLength > CACHE_SIZE) {
      const v = cache[--cacheLength];
      cached[v] = 0;
    }
    return best;
  };

  let best = bestByScan();
  while (best >= 0) {
    emit(best);
    best = rescore();
    if (best < 0) best = bestByScan();
  }
  return { triangleOrder: triangleOrder.subarray(0, emitted), vertexOrder: vertexOrder.subarray(0, nextIndex), overflowed };
}

/**
 * How many of the triangles the reference compiler's vertex-cache pass drops (B7): 0 unless the
 * fixed pass overflowed (then the reference's pass is run to count them).
 */
export function referenceDroppedTriangles(vertexCount: number, tris: Int32Array, order: CacheOrder): number {
  if (!order.overflowed) return 0;
  return order.triangleOrder.length - optimiseVertexCache(vertexCount, tris, true).triangleOrder.length;
}

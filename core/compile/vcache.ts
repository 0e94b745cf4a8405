// Stage 4: vertex-cache optimisation (IQE-SEMANTICS.md §4.5, Forsyth-style), which fixes the
// triangle order and the output vertex order of each mesh. Scores are float32 as in the
// reference; ours (B7) clamps the rank term so that no score is NaN and no triangle is dropped.
// The "no best triangle" fallback scans all triangles in the reference; here a max segment tree
// over the (stale) triangle scores answers it, updated lazily from a dirty list.

const f32 = Math.fround;
const CACHE_SIZE = 32;

/** Rank terms for ranks 0..63 (ranks >= 32 give 0: B7). */
const RANK_TERM = new Float64Array(64);
for (let r = 0; r < RANK_TERM.length; r++) {
  if (r < 3) RANK_TERM[r] = 0.75;
  else {
    const base = f32(1 - f32(f32(r - 3) / 29));
    RANK_TERM[r] = base > 0 ? f32(Math.pow(base, 1.5)) : 0;
  }
}

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
}

export function optimiseVertexCache(vertexCount: number, tris: Int32Array): CacheOrder {
  const triCount = tris.length / 3;
  const numUses = new Int32Array(vertexCount);
  const used = new Uint8Array(triCount);
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
  const usesStart = new Int32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) usesStart[v + 1] = usesStart[v] + numUses[v];
  const uses = new Int32Array(usesStart[vertexCount]);
  const fillUses = usesStart.slice(0, vertexCount);
  for (let t = 0; t < triCount; t++) {
    if (used[t]) continue;
    uses[fillUses[tris[3 * t]]++] = t;
    uses[fillUses[tris[3 * t + 1]]++] = t;
    uses[fillUses[tris[3 * t + 2]]++] = t;
  }
  const score = new Float64Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) score[v] = vertexScore(numUses[v], -1);
  const triScore = new Float64Array(triCount);
  const scoreOf = (t: number): number => f32(f32(score[tris[3 * t]] + score[tris[3 * t + 1]]) + score[tris[3 * t + 2]]);

  // Max segment tree over unused triangles' stale scores (-Infinity for used ones).
  let leaves = 1;
  while (leaves < triCount) leaves *= 2;
  const tree = new Float64Array(2 * leaves).fill(-Infinity);
  for (let t = 0; t < triCount; t++) {
    triScore[t] = scoreOf(t);
    if (!used[t]) tree[leaves + t] = triScore[t];
  }
  for (let n = leaves - 1; n >= 1; n--) tree[n] = Math.max(tree[2 * n], tree[2 * n + 1]);
  const dirty = new Uint8Array(triCount);
  let dirtyList = new Int32Array(64);
  let dirtyCount = 0;
  const markDirty = (t: number): void => {
    if (dirty[t]) return;
    dirty[t] = 1;
    if (dirtyCount === dirtyList.length) {
      const next = new Int32Array(dirtyList.length * 2);
      next.set(dirtyList);
      dirtyList = next;
    }
    dirtyList[dirtyCount++] = t;
  };
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

  const rank = new Int32Array(vertexCount).fill(-1);
  const cached = new Uint8Array(vertexCount);
  const index = new Int32Array(vertexCount).fill(-1);
  const cache = new Int32Array(CACHE_SIZE + 4);
  let cacheLength = 0;
  const triangleOrder = new Int32Array(triCount);
  let emitted = 0;
  const vertexOrder = new Int32Array(vertexCount);
  let nextIndex = 0;

  let best = bestByScan();
  while (best >= 0) {
    used[best] = 1;
    markDirty(best);
    triangleOrder[emitted++] = best;
    for (let k = 0; k < 3; k++) {
      const v = tris[3 * best + k];
      if (index[v] < 0) {
        index[v] = nextIndex;
        vertexOrder[nextIndex++] = v;
      }
      // Remove best from v's uses: overwrite it with the last element.
      const start = usesStart[v];
      const last = start + numUses[v] - 1;
      for (let u = start; u <= last; u++) {
        if (uses[u] === best) {
          uses[u] = uses[last];
          break;
        }
      }
      numUses[v]--;
      if (cached[v]) {
        let p = 0;
        while (cache[p] !== v) p++;
        cache.copyWithin(p, p + 1, cacheLength);
        cacheLength--;
        cached[v] = 0;
      }
      if (numUses[v] > 0) {
        cache.copyWithin(1, 0, cacheLength);
        cache[0] = v;
        cacheLength++;
        cached[v] = 1;
      }
    }
    for (let p = 0; p < cacheLength; p++) {
      const v = cache[p];
      rank[v] = p;
      score[v] = vertexScore(numUses[v], p);
    }
    best = -1;
    let bestScore = -1e16;
    for (let p = 0; p < cacheLength; p++) {
      const v = cache[p];
      for (let u = usesStart[v], end = u + numUses[v]; u < end; u++) {
        const t = uses[u];
        const s = scoreOf(t);
        triScore[t] = s;
        markDirty(t);
        if (s > bestScore) {
          bestScore = s;
          best = t;
        }
      }
    }
    while (cacheLength > CACHE_SIZE) {
      const v = cache[--cacheLength];
      rank[v] = -1;
      cached[v] = 0;
    }
    if (best < 0) best = bestByScan();
  }
  return { triangleOrder: triangleOrder.subarray(0, emitted), vertexOrder: vertexOrder.subarray(0, nextIndex) };
}

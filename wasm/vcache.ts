// AssemblyScript (checked by its compiler, asc, not by tsc or eslint), compiled to WebAssembly by
// esbuild.mjs (never committed as a binary): the vertex-cache pass of core/compile/vcache.ts, step for step, for the compile of small models,
// where the JavaScript version runs mostly before V8 has optimised it (docs/PERFORMANCE.md:
// WebAssembly's baseline compiler gives fast code on the first call). The results must be the
// JavaScript version's exactly: scores are f32 sums of f32 terms (the same roundings as
// Math.fround of the double sums), and the tables that need Math.pow come from JavaScript.
//
// Memory, all laid out by the caller (core/compile/vcacheWasm.ts), byte offsets:
//   tris: i32 x 3T (in); valence: f32 x (maxUses + 1) (in); rank: f32 x 64 (in);
//   triangleOrder: i32 x T, vertexOrder: i32 x V (out);
//   work: zeroed scratch of workBytes(V, T, leaves) bytes.

const CACHE_SIZE: i32 = 32;
/** core/compile/vcache.ts HUB_USES: a cached vertex of more triangles does not rescore them. */
const HUB_USES: i32 = 1024;
const FIRST_NAN_LENGTH: i32 = 34;
const RANKS: i32 = 64;

/** Bytes of scratch the pass needs (each array rounded up to 8 bytes). */
export function workBytes(v: i32, t: i32, leaves: i32): i32 {
  return round8(4 * v) * 6 + round8(4 * (v + 1)) + round8(4 * 3 * t) * 2 + round8(4 * t) * 4 + round8(t) * 2 + round8(v) + round8(4 * 2 * leaves) + round8(4 * (CACHE_SIZE + 4));
}

function round8(n: i32): i32 {
  return (n + 7) & ~7;
}

/** Results of the last pass beside its triangle count: vertices ordered, and whether the cache overflowed (0/1). */
let orderedCount: i32 = 0;
let overflowFlag: i32 = 0;

export function orderedVertices(): i32 {
  return orderedCount;
}

export function overflowed(): i32 {
  return overflowFlag;
}

// The scratch arrays of the pass in progress (laid out by prepare()).
let numUses: usize = 0, usesStart: usize = 0, fillUses: usize = 0, score: usize = 0, index: usize = 0, cachedV: usize = 0;
let uses: usize = 0, usePosition: usize = 0, used: usize = 0, dirty: usize = 0, triScore: usize = 0, dirtyList: usize = 0, seen: usize = 0, tree: usize = 0, cache: usize = 0;
let leaves: i32 = 1;

/**
 * The first half of the pass: each vertex's triangles. Returns the largest use count, for which
 * the caller then writes the valence table (Math.pow's roundings are JavaScript's).
 */
export function prepare(vertexCount: i32, triCount: i32, tris: usize, work: usize): i32 {
  let at = work;
  numUses = at; at += round8(4 * vertexCount);
  usesStart = at; at += round8(4 * (vertexCount + 1));
  fillUses = at; at += round8(4 * vertexCount);
  score = at; at += round8(4 * vertexCount);
  index = at; at += round8(4 * vertexCount);
  cachedV = at; at += round8(vertexCount);
  uses = at; at += round8(4 * 3 * triCount);
  usePosition = at; at += round8(4 * 3 * triCount);
  used = at; at += round8(triCount);
  dirty = at; at += round8(triCount);
  triScore = at; at += round8(4 * triCount);
  dirtyList = at; at += round8(4 * triCount);
  seen = at; at += round8(4 * triCount);
  leaves = 1;
  while (leaves < triCount) leaves *= 2;
  tree = at; at += round8(4 * 2 * leaves);
  cache = at;

  for (let t: i32 = 0; t < triCount; t++) {
    const a = load<i32>(tris + 12 * t), b = load<i32>(tris + 12 * t + 4), c = load<i32>(tris + 12 * t + 8);
    if (a == b || b == c || a == c) {
      store<u8>(used + t, 1);
      continue;
    }
    store<i32>(numUses + 4 * a, load<i32>(numUses + 4 * a) + 1);
    store<i32>(numUses + 4 * b, load<i32>(numUses + 4 * b) + 1);
    store<i32>(numUses + 4 * c, load<i32>(numUses + 4 * c) + 1);
  }
  let maxUses: i32 = 0;
  store<i32>(usesStart, 0);
  for (let v: i32 = 0; v < vertexCount; v++) {
    const s = load<i32>(usesStart + 4 * v);
    const n = load<i32>(numUses + 4 * v);
    store<i32>(usesStart + 4 * (v + 1), s + n);
    store<i32>(fillUses + 4 * v, s);
    if (n > maxUses) maxUses = n;
  }
  for (let t: i32 = 0; t < triCount; t++) {
    if (load<u8>(used + t)) continue;
    for (let k: i32 = 0; k < 3; k++) {
      const v = load<i32>(tris + 12 * t + 4 * k);
      const f = load<i32>(fillUses + 4 * v);
      store<i32>(uses + 4 * f, t);
      store<i32>(usePosition + 4 * (3 * t + k), f);
      store<i32>(fillUses + 4 * v, f + 1);
    }
  }
  return maxUses;
}

/** The pass after prepare(); returns the number of triangles emitted (result[] has the rest). */
export function optimise(vertexCount: i32, triCount: i32, tris: usize, valence: usize, rank: usize, triangleOrder: usize, vertexOrder: usize): i32 {
  for (let v: i32 = 0; v < vertexCount; v++) {
    const n = load<i32>(numUses + 4 * v);
    store<f32>(score + 4 * v, n <= 0 ? -1 : load<f32>(valence + 4 * n));
  }
  for (let n: i32 = 0; n < 2 * leaves; n++) store<f32>(tree + 4 * n, -Infinity);
  for (let t: i32 = 0; t < triCount; t++) {
    const s = triangleScore(tris, score, t);
    store<f32>(triScore + 4 * t, s);
    if (!load<u8>(used + t)) store<f32>(tree + 4 * (leaves + t), s);
  }
  for (let n = leaves - 1; n >= 1; n--) store<f32>(tree + 4 * n, max(load<f32>(tree + 8 * n), load<f32>(tree + 8 * n + 4)));
  for (let v: i32 = 0; v < vertexCount; v++) store<i32>(index + 4 * v, -1);

  let dirtyCount: i32 = 0;
  let cacheLength: i32 = 0;
  let overflowed: i32 = 0;
  let emitted: i32 = 0;
  let nextIndex: i32 = 0;
  let step: i32 = 0;

  let best: i32 = -1;
  let scan = true;
  for (;;) {
    if (scan) {
      // bestByScan: refresh the stale leaves, then the first triangle of the greatest score.
      for (let i: i32 = 0; i < dirtyCount; i++) {
        const t = load<i32>(dirtyList + 4 * i);
        store<u8>(dirty + t, 0);
        let n = leaves + t;
        store<f32>(tree + 4 * n, load<u8>(used + t) ? -Infinity : load<f32>(triScore + 4 * t));
        for (n >>= 1; n >= 1; n >>= 1) store<f32>(tree + 4 * n, max(load<f32>(tree + 8 * n), load<f32>(tree + 8 * n + 4)));
      }
      dirtyCount = 0;
      if (!(load<f32>(tree + 4) > <f32>-1e16)) break;
      let n: i32 = 1;
      while (n < leaves) n = load<f32>(tree + 8 * n) >= load<f32>(tree + 8 * n + 4) ? 2 * n : 2 * n + 1;
      best = n - leaves;
    }
    // emit(best)
    store<u8>(used + best, 1);
    if (!load<u8>(dirty + best)) {
      store<u8>(dirty + best, 1);
      store<i32>(dirtyList + 4 * dirtyCount++, best);
    }
    store<i32>(triangleOrder + 4 * emitted++, best);
    for (let k: i32 = 0; k < 3; k++) {
      const v = load<i32>(tris + 12 * best + 4 * k);
      if (load<i32>(index + 4 * v) < 0) {
        store<i32>(index + 4 * v, nextIndex);
        store<i32>(vertexOrder + 4 * nextIndex++, v);
      }
      const nu = load<i32>(numUses + 4 * v);
      const last = load<i32>(usesStart + 4 * v) + nu - 1;
      const u = load<i32>(usePosition + 4 * (3 * best + k));
      const moved = load<i32>(uses + 4 * last);
      store<i32>(uses + 4 * u, moved);
      for (let m: i32 = 0; m < 3; m++) if (load<i32>(tris + 12 * moved + 4 * m) == v) store<i32>(usePosition + 4 * (3 * moved + m), u);
      store<i32>(numUses + 4 * v, nu - 1);
      if (load<u8>(cachedV + v)) {
        let p: i32 = 0;
        while (load<i32>(cache + 4 * p) != v) p++;
        for (; p + 1 < cacheLength; p++) store<i32>(cache + 4 * p, load<i32>(cache + 4 * p + 4));
        cacheLength--;
        store<u8>(cachedV + v, 0);
      }
      if (nu - 1 > 0) {
        for (let p = cacheLength; p > 0; p--) store<i32>(cache + 4 * p, load<i32>(cache + 4 * p - 4));
        store<i32>(cache, v);
        cacheLength++;
        store<u8>(cachedV + v, 1);
      }
    }
    // rescore()
    for (let p: i32 = 0; p < cacheLength; p++) {
      const v = load<i32>(cache + 4 * p);
      const n = load<i32>(numUses + 4 * v);
      store<f32>(score + 4 * v, n <= 0 ? -1 : load<f32>(valence + 4 * n) + (p < RANKS ? load<f32>(rank + 4 * p) : 0));
    }
    best = -1;
    let bestScore: f32 = -1e16;
    step++;
    for (let p: i32 = 0; p < cacheLength; p++) {
      const v = load<i32>(cache + 4 * p);
      if (load<i32>(numUses + 4 * v) > HUB_USES) continue;
      const end = load<i32>(usesStart + 4 * v) + load<i32>(numUses + 4 * v);
      for (let u = load<i32>(usesStart + 4 * v); u < end; u++) {
        const t = load<i32>(uses + 4 * u);
        if (load<i32>(seen + 4 * t) == step) continue;
        store<i32>(seen + 4 * t, step);
        const s = triangleScore(tris, score, t);
        store<f32>(triScore + 4 * t, s);
        if (!load<u8>(dirty + t)) {
          store<u8>(dirty + t, 1);
          store<i32>(dirtyList + 4 * dirtyCount++, t);
        }
        if (s > bestScore) {
          bestScore = s;
          best = t;
        }
      }
    }
    if (cacheLength >= FIRST_NAN_LENGTH) overflowed = 1;
    while (cacheLength > CACHE_SIZE) {
      const v = load<i32>(cache + 4 * --cacheLength);
      store<u8>(cachedV + v, 0);
    }
    scan = best < 0;
  }
  orderedCount = nextIndex;
  overflowFlag = overflowed;
  return emitted;
}

@inline
function triangleScore(tris: usize, score: usize, t: i32): f32 {
  return load<f32>(score + 4 * load<i32>(tris + 12 * t)) + load<f32>(score + 4 * load<i32>(tris + 12 * t + 4)) + load<f32>(score + 4 * load<i32>(tris + 12 * t + 8));
}

/** Where the caller's memory may start (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

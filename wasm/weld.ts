// AssemblyScript (checked by its compiler, asc, not by tsc or eslint), compiled to WebAssembly by
// esbuild.mjs (never committed as a binary): the small position groups of weldCorners
// (core/compile/smooth.ts), every pair of corners at one position tested with its canWeld and
// joined in its union-find. Run cold (a one-shot compile), the JavaScript loop boxed every double
// of every pair (rifle_view.md5mesh: 66,671 pairs, 22 ms); WebAssembly's baseline compiler gives
// unboxed code on the first call. The components are the same whatever order the pairs are joined
// in, and canWeld's arithmetic is the same (the dot product left to right, max propagating NaN,
// texture coordinates compared as numbers), so the welds are the same.
//
// Memory, laid out by the caller, byte offsets:
//   order: i32 per corner (corners sorted by position class); groupStart: i32 x (groups + 1);
//   tris: i32 per corner (its vertex); triGroup: i32 per triangle (its smoothing group);
//   key: i32, threshold: f64, uv: u8 per smoothing group; fn: f64 x 3 per triangle (unit normal);
//   tex: f64 x texWidth per vertex (texWidth 0: none); parent: i32 per corner (in and out).

let parentAt: usize = 0;

@inline
function find(c: i32): i32 {
  let p = load<i32>(parentAt + 4 * <usize>c);
  while (p != c) {
    const grand = load<i32>(parentAt + 4 * <usize>p);
    store<i32>(parentAt + 4 * <usize>c, grand);
    c = grand;
    p = load<i32>(parentAt + 4 * <usize>c);
  }
  return c;
}

/** Joins the corners of every position group of at most `largest` corners that canWeld. */
export function weldGroups(order: usize, groupStart: usize, groups: i32, largest: i32, tris: usize, triGroup: usize, key: usize, threshold: usize, uv: usize, fn: usize, tex: usize, texWidth: i32, parent: usize): void {
  parentAt = parent;
  for (let g: i32 = 0; g < groups; g++) {
    const start = load<i32>(groupStart + 4 * <usize>g), end = load<i32>(groupStart + 4 * <usize>(g + 1));
    if (end - start > largest) continue;
    for (let a = start; a < end; a++) {
      const w = load<i32>(order + 4 * <usize>a);
      let rw = find(w);
      const tw = w / 3;
      const gw = load<i32>(triGroup + 4 * <usize>tw);
      for (let b = a + 1; b < end; b++) {
        const v = load<i32>(order + 4 * <usize>b);
        const rv = find(v);
        if (rw == rv) continue;
        // canWeld(w, v)
        const tv = v / 3;
        const gv = load<i32>(triGroup + 4 * <usize>tv);
        if (load<i32>(key + 4 * <usize>gw) != load<i32>(key + 4 * <usize>gv)) continue;
        const nw = fn + 24 * <usize>tw, nv = fn + 24 * <usize>tv;
        const dot = load<f64>(nw) * load<f64>(nv) + load<f64>(nw + 8) * load<f64>(nv + 8) + load<f64>(nw + 16) * load<f64>(nv + 16);
        // "skip if <": a NaN normal (zero-area triangle) passes.
        if (dot < max<f64>(load<f64>(threshold + 8 * <usize>gw), load<f64>(threshold + 8 * <usize>gv))) continue;
        if (texWidth > 0 && (load<u8>(uv + <usize>gw) != 0 || load<u8>(uv + <usize>gv) != 0)) {
          const iw = tex + 8 * <usize>(texWidth * load<i32>(tris + 4 * <usize>w));
          const iv = tex + 8 * <usize>(texWidth * load<i32>(tris + 4 * <usize>v));
          let same = true;
          for (let k: i32 = 0; k < texWidth; k++) {
            if (load<f64>(iw + 8 * <usize>k) != load<f64>(iv + 8 * <usize>k)) {
              same = false;
              break;
            }
          }
          if (!same) continue;
        }
        if (rv < rw) {
          store<i32>(parentAt + 4 * <usize>rw, rv);
          rw = rv;
        } else {
          store<i32>(parentAt + 4 * <usize>rv, rw);
        }
      }
    }
  }
}

/**
 * weldCorners' face normals: per triangle (corners a, b, c; positions x y z w at 4 v) the cross
 * product (v2 - v0) x (v1 - v0) into area and it divided by its length into fn, with the
 * JavaScript's operations in its order (a zero-area triangle's fn is NaN, as there).
 */
export function faceNormals(tris: usize, positions: usize, triCount: i32, area: usize, fn: usize): void {
  for (let t: i32 = 0; t < triCount; t++) {
    const at = tris + 12 * <usize>t;
    const a = positions + 32 * <usize>load<i32>(at), b = positions + 32 * <usize>load<i32>(at + 4), c = positions + 32 * <usize>load<i32>(at + 8);
    const ax = load<f64>(a), ay = load<f64>(a + 8), az = load<f64>(a + 16);
    const ex = load<f64>(c) - ax, ey = load<f64>(c + 8) - ay, ez = load<f64>(c + 16) - az;
    const ox = load<f64>(b) - ax, oy = load<f64>(b + 8) - ay, oz = load<f64>(b + 16) - az;
    const x = ey * oz - ez * oy;
    const y = ez * ox - ex * oz;
    const z = ex * oy - ey * ox;
    const o = 24 * <usize>t;
    store<f64>(area + o, x);
    store<f64>(area + o + 8, y);
    store<f64>(area + o + 16, z);
    const inv = 1 / Math.sqrt(x * x + y * y + z * z);
    store<f64>(fn + o, x * inv);
    store<f64>(fn + o + 8, y * inv);
    store<f64>(fn + o + 16, z * inv);
  }
}

/**
 * weldCorners' normals: each weld's the sum of its corners' triangle areas (triangle by triangle,
 * corner by corner), then divided by its length where that is above 0. normals must be zeroed.
 */
export function weldNormals(weld: usize, area: usize, triCount: i32, weldCount: i32, normals: usize): void {
  for (let t: i32 = 0; t < triCount; t++) {
    const s = area + 24 * <usize>t;
    const x = load<f64>(s), y = load<f64>(s + 8), z = load<f64>(s + 16);
    for (let k: i32 = 0; k < 3; k++) {
      const o = normals + 24 * <usize>load<i32>(weld + 4 * <usize>(3 * t + k));
      store<f64>(o, load<f64>(o) + x);
      store<f64>(o + 8, load<f64>(o + 8) + y);
      store<f64>(o + 16, load<f64>(o + 16) + z);
    }
  }
  for (let w: i32 = 0; w < weldCount; w++) {
    const o = normals + 24 * <usize>w;
    const x = load<f64>(o), y = load<f64>(o + 8), z = load<f64>(o + 16);
    const length = Math.sqrt(x * x + y * y + z * z);
    if (length > 0) {
      const inv = 1 / length;
      store<f64>(o, x * inv);
      store<f64>(o + 8, y * inv);
      store<f64>(o + 16, z * inv);
    }
  }
}

/** Where the caller's memory may start (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

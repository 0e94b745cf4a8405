// AssemblyScript (checked by its compiler, asc, not by tsc or eslint), compiled to WebAssembly by
// esbuild.mjs (never committed as a binary): batchExtremes of core/compile/boundsBatch.ts, the
// extremes of one frame over every distinct point, two lanes at a time (f64x2: x and y of a
// point together). Every p is bit-identical to the JavaScript loop's: the same multiplications
// and additions of doubles in the same order (no fused multiply-add), and min/max chosen as its
// conditionals choose (a < b ? a : b, with the same operands), so even ties of +0 and -0 and NaN
// come out the same.
//
// Memory, laid out by the caller (core/compile/boundsWasm.ts), byte offsets:
//   positions: f64 x 3 per point; offsets: i32 (12 * bone) per influence; weights: f64 per
//   influence; fresh: u8 per point; skin: f64 x 12 per joint, rows (m0 m1 m2 m3 / m4 .. / m8 ..)
//   as the caller has them; lanes: f64 x 12 per joint, written by transpose(); out: f64 x 8.

/** skin (12 per joint, three rows of four) -> lanes (m0 m4, m1 m5, m2 m6, m3 m7, m8 m9, m10 m11). */
export function transpose(skin: usize, lanes: usize, joints: i32): void {
  for (let j: i32 = 0; j < joints; j++) {
    const s = skin + 96 * j, l = lanes + 96 * j;
    for (let c: i32 = 0; c < 4; c++) {
      store<f64>(l + 16 * c, load<f64>(s + 8 * c));
      store<f64>(l + 16 * c + 8, load<f64>(s + 32 + 8 * c));
    }
    v128.store(l + 64, v128.load(s + 64));
    v128.store(l + 80, v128.load(s + 80));
  }
}

/**
 * The extremes of the points first .. end - 1 of k influences each (influences from q0 + k * i;
 * fresh: u8 per point, 0 where its influences are those of the point before it) into out[0..7]
 * (min x y z, max x y z, largest x^2 + y^2, largest x^2 + y^2 + z^2), starting from
 * what out holds.
 */
export function influenced(positions: usize, offsets: usize, weights: usize, fresh: usize, lanes: usize, first: i32, end: i32, k: i32, q0: i32, out: usize): void {
  let minXY = v128.load(out), minZ = load<f64>(out + 16);
  let maxXY = v128.load(out + 24), maxZ = load<f64>(out + 40);
  let exy = load<f64>(out + 48), er = load<f64>(out + 56);
  let a = f64x2.splat(0), b = f64x2.splat(0), c = f64x2.splat(0), d = f64x2.splat(0), e = f64x2.splat(0), f = f64x2.splat(0);
  for (let i = first; i < end; i++) {
    // fresh[i] = 0: the same influences as point i - 1, whose matrix a .. f still hold.
    if (load<u8>(fresh + <usize>i) != 0) {
      a = f64x2.splat(0); b = f64x2.splat(0); c = f64x2.splat(0); d = f64x2.splat(0); e = f64x2.splat(0); f = f64x2.splat(0);
      const q = q0 + k * i;
      for (let n: i32 = 0; n < k; n++) {
        const s = lanes + 8 * <usize>load<i32>(offsets + 4 * (q + n));
        const w = f64x2.splat(load<f64>(weights + 8 * (q + n)));
        a = f64x2.add(a, f64x2.mul(v128.load(s), w));
        b = f64x2.add(b, f64x2.mul(v128.load(s + 16), w));
        c = f64x2.add(c, f64x2.mul(v128.load(s + 32), w));
        d = f64x2.add(d, f64x2.mul(v128.load(s + 48), w));
        e = f64x2.add(e, f64x2.mul(v128.load(s + 64), w));
        f = f64x2.add(f, f64x2.mul(v128.load(s + 80), w));
      }
    }
    const x = load<f64>(positions + 24 * i), y = load<f64>(positions + 24 * i + 8), z = load<f64>(positions + 24 * i + 16);
    // px, py = m0 x + m1 y + m2 z + m3, m4 x + ...; pz = m8 x + m9 y + m10 z + m11, left to right.
    const pxy = f64x2.add(f64x2.add(f64x2.add(f64x2.mul(a, f64x2.splat(x)), f64x2.mul(b, f64x2.splat(y))), f64x2.mul(c, f64x2.splat(z))), d);
    const pz = f64x2.extract_lane(e, 0) * x + f64x2.extract_lane(e, 1) * y + f64x2.extract_lane(f, 0) * z + f64x2.extract_lane(f, 1);
    minXY = v128.bitselect(minXY, pxy, f64x2.lt(minXY, pxy));
    maxXY = v128.bitselect(maxXY, pxy, f64x2.gt(maxXY, pxy));
    minZ = minZ < pz ? minZ : pz;
    maxZ = maxZ > pz ? maxZ : pz;
    const sq = f64x2.mul(pxy, pxy);
    const xy = f64x2.extract_lane(sq, 0) + f64x2.extract_lane(sq, 1);
    if (xy > exy) exy = xy;
    const r = xy + pz * pz;
    if (r > er) er = r;
  }
  v128.store(out, minXY);
  store<f64>(out + 16, minZ);
  v128.store(out + 24, maxXY);
  store<f64>(out + 40, maxZ);
  store<f64>(out + 48, exy);
  store<f64>(out + 56, er);
}

/**
 * classMatrix of core/compile/bounds.ts for classes 0 .. n - 1, two lanes at a time (m0 m1, m2 m3,
 * ...: each lane the same operations in the same order): m = 0 + skin[s0] * w0, then + skin[sk] * wk
 * for k = 1 .. 3 while wk > 0. skin: f64 x 12 per joint (rows as the caller has them); offsets: i32
 * (12 * bone) x 4 per class; weights: f64 x 4 per class; m: f64 x 12 per class (out).
 */
export function classMatrices(skin: usize, offsets: usize, weights: usize, n: i32, m: usize): void {
  const zero = f64x2.splat(0);
  for (let c: i32 = 0; c < n; c++) {
    const q = 4 * <usize>c;
    let w = f64x2.splat(load<f64>(weights + 8 * q));
    let s = skin + 8 * <usize>load<i32>(offsets + 4 * q);
    let a = f64x2.add(zero, f64x2.mul(v128.load(s), w));
    let b = f64x2.add(zero, f64x2.mul(v128.load(s + 16), w));
    let d = f64x2.add(zero, f64x2.mul(v128.load(s + 32), w));
    let e = f64x2.add(zero, f64x2.mul(v128.load(s + 48), w));
    let f = f64x2.add(zero, f64x2.mul(v128.load(s + 64), w));
    let g = f64x2.add(zero, f64x2.mul(v128.load(s + 80), w));
    for (let k: usize = 1; k < 4; k++) {
      const wk = load<f64>(weights + 8 * (q + k));
      if (!(wk > 0)) break;
      w = f64x2.splat(wk);
      s = skin + 8 * <usize>load<i32>(offsets + 4 * (q + k));
      a = f64x2.add(a, f64x2.mul(v128.load(s), w));
      b = f64x2.add(b, f64x2.mul(v128.load(s + 16), w));
      d = f64x2.add(d, f64x2.mul(v128.load(s + 32), w));
      e = f64x2.add(e, f64x2.mul(v128.load(s + 48), w));
      f = f64x2.add(f, f64x2.mul(v128.load(s + 64), w));
      g = f64x2.add(g, f64x2.mul(v128.load(s + 80), w));
    }
    const o = m + 96 * <usize>c;
    v128.store(o, a);
    v128.store(o + 16, b);
    v128.store(o + 32, d);
    v128.store(o + 48, e);
    v128.store(o + 64, f);
    v128.store(o + 80, g);
  }
}

/**
 * frameExtremes of core/compile/bounds.ts (the small inputs' way: one matrix per influence class,
 * m: 12 f64 per class) over n points: x y z at points (3 f64 each) and class (i32, -1: none) at
 * classes, into out[0..7] (the radii squared: the caller takes the roots). Returns 0 when some p
 * is not a number (the sum of all is then NaN), 1 otherwise; the same operations in the same order.
 */
export function classExtremes(points: usize, classes: usize, m: usize, n: i32, out: usize): i32 {
  let minX: f64 = 0, minY: f64 = 0, minZ: f64 = 0, maxX: f64 = 0, maxY: f64 = 0, maxZ: f64 = 0, exy: f64 = 0, er: f64 = 0, sum: f64 = 0;
  for (let i: i32 = 0; i < n; i++) {
    const c = load<i32>(classes + 4 * <usize>i);
    let x: f64 = 0, y: f64 = 0, z: f64 = 0;
    if (c >= 0) {
      const r = points + 24 * <usize>i, s = m + 96 * <usize>c;
      const vx = load<f64>(r), vy = load<f64>(r + 8), vz = load<f64>(r + 16);
      x = load<f64>(s) * vx + load<f64>(s + 8) * vy + load<f64>(s + 16) * vz + load<f64>(s + 24);
      y = load<f64>(s + 32) * vx + load<f64>(s + 40) * vy + load<f64>(s + 48) * vz + load<f64>(s + 56);
      z = load<f64>(s + 64) * vx + load<f64>(s + 72) * vy + load<f64>(s + 80) * vz + load<f64>(s + 88);
    }
    if (i == 0) {
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
  store<f64>(out, minX); store<f64>(out + 8, minY); store<f64>(out + 16, minZ);
  store<f64>(out + 24, maxX); store<f64>(out + 32, maxY); store<f64>(out + 40, maxZ);
  store<f64>(out + 48, exy); store<f64>(out + 56, er);
  return sum == sum ? 1 : 0;
}

/** Where the caller's memory may start (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

// 3-vectors stored in any numeric array at an offset; every function writes into `out` and
// allocates nothing (per-frame code calls these).

export type Vec = Float32Array | Float64Array | number[];

export function set3(out: Vec, o: number, x: number, y: number, z: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

export function dot3(a: Vec, ao: number, b: Vec, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2];
}

export function length3(a: Vec, ao = 0): number {
  return Math.sqrt(a[ao] * a[ao] + a[ao + 1] * a[ao + 1] + a[ao + 2] * a[ao + 2]);
}

/** out = a × b (out may alias neither input when offsets overlap). */
export function cross3(out: Vec, o: number, a: Vec, ao: number, b: Vec, bo: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2];
  out[o] = ay * bz - az * by;
  out[o + 1] = az * bx - ax * bz;
  out[o + 2] = ax * by - ay * bx;
}

/** Normalises in place; a zero vector stays zero. Returns the original length. */
export function normalize3(v: Vec, o = 0): number {
  const l = Math.sqrt(v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]);
  if (l > 0) {
    v[o] /= l;
    v[o + 1] /= l;
    v[o + 2] /= l;
  }
  return l;
}

/** out = a + (b - a) * t */
export function lerp3(out: Vec, o: number, a: Vec, ao: number, b: Vec, bo: number, t: number): void {
  out[o] = a[ao] + (b[bo] - a[ao]) * t;
  out[o + 1] = a[ao + 1] + (b[bo + 1] - a[ao + 1]) * t;
  out[o + 2] = a[ao + 2] + (b[bo + 2] - a[ao + 2]) * t;
}

// Quaternions (x, y, z, w) stored in numeric arrays at an offset; writes into `out`, allocates
// nothing. Rotation convention: v' = q v q*, the usual right-handed one (IQM's).

import type { Vec } from './vec3';

/** Normalises in place; a zero quaternion becomes the identity. */
export function normalizeQuat(q: Vec, o = 0): void {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  const l = Math.sqrt(x * x + y * y + z * z + w * w); // not Math.hypot: it is slow in V8
  if (l > 0 && l < Infinity) {
    const k = 1 / l;
    q[o] = x * k;
    q[o + 1] = y * k;
    q[o + 2] = z * k;
    q[o + 3] = w * k;
  } else {
    q[o] = 0;
    q[o + 1] = 0;
    q[o + 2] = 0;
    q[o + 3] = 1;
  }
}

/**
 * Spherical interpolation along the shorter arc (one input negated when their dot product is
 * negative); falls back to normalised lerp when the inputs are nearly equal. Output is unit length.
 */
export function slerpQuat(out: Vec, o: number, a: Vec, ao: number, b: Vec, bo: number, t: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    d = -d;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let ka: number, kb: number;
  if (d > 0.9995) {
    ka = 1 - t;
    kb = t;
  } else {
    const th = Math.acos(d);
    const s = 1 / Math.sqrt(1 - d * d); // 1 / sin(th)
    ka = Math.sin((1 - t) * th) * s;
    kb = Math.sin(t * th) * s;
  }
  out[o] = ax * ka + bx * kb;
  out[o + 1] = ay * ka + by * kb;
  out[o + 2] = az * ka + bz * kb;
  out[o + 3] = aw * ka + bw * kb;
  normalizeQuat(out, o);
}

/** Quaternion of a pure rotation matrix given as a 3x4 row-major array (translation ignored). */
export function quatFromMat3x4(out: Vec, o: number, m: Vec, mo: number): void {
  const m00 = m[mo], m01 = m[mo + 1], m02 = m[mo + 2];
  const m10 = m[mo + 4], m11 = m[mo + 5], m12 = m[mo + 6];
  const m20 = m[mo + 8], m21 = m[mo + 9], m22 = m[mo + 10];
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = 0.25 * s;
    x = (m21 - m12) / s;
    y = (m02 - m20) / s;
    z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (m21 - m12) / s;
    x = 0.25 * s;
    y = (m01 + m10) / s;
    z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (m02 - m20) / s;
    x = (m01 + m10) / s;
    y = 0.25 * s;
    z = (m12 + m21) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (m10 - m01) / s;
    x = (m02 + m20) / s;
    y = (m12 + m21) / s;
    z = 0.25 * s;
  }
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
  normalizeQuat(out, o);
}

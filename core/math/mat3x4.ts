// Affine 3x4 matrices, row-major: 12 numbers, rows [r0 r1 r2 t] (CLI.md). They act on column
// vectors: p' = R p + t. Stored in numeric arrays at an offset; functions write into `out` and
// allocate nothing. `out` may alias an input only where noted.

import { quatFromMat3x4 } from './quat';
import type { Vec } from './vec3';

export function identity3x4(out: Vec, o = 0): void {
  for (let i = 0; i < 12; i++) out[o + i] = 0;
  out[o] = 1;
  out[o + 5] = 1;
  out[o + 10] = 1;
}

export function copy3x4(out: Vec, o: number, a: Vec, ao: number): void {
  for (let i = 0; i < 12; i++) out[o + i] = a[ao + i];
}

/**
 * out = T · R · S from translation t, unit quaternion q (x y z w) and scale s, read from `trs` at
 * `to` as 10 numbers [tx ty tz qx qy qz qw sx sy sz] (IQM: output = (input·scale)·rotation + translation).
 * `unscaled`: `trs` holds 7 numbers per pose (no scale; the compile keeps frame poses so while every
 * scale is exactly 1), and the scale is 1.
 */
export function fromTRS(out: Vec, o: number, trs: Vec, to: number, unscaled = false): void {
  const x = trs[to + 3], y = trs[to + 4], z = trs[to + 5], w = trs[to + 6];
  // x * 1 is x exactly: an unscaled pose gives the matrix its scale of 1 would.
  const sx = unscaled ? 1 : trs[to + 7], sy = unscaled ? 1 : trs[to + 8], sz = unscaled ? 1 : trs[to + 9];
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[o] = (1 - 2 * (yy + zz)) * sx;
  out[o + 1] = 2 * (xy - wz) * sy;
  out[o + 2] = 2 * (xz + wy) * sz;
  out[o + 3] = trs[to];
  out[o + 4] = 2 * (xy + wz) * sx;
  out[o + 5] = (1 - 2 * (xx + zz)) * sy;
  out[o + 6] = 2 * (yz - wx) * sz;
  out[o + 7] = trs[to + 1];
  out[o + 8] = 2 * (xz - wy) * sx;
  out[o + 9] = 2 * (yz + wx) * sy;
  out[o + 10] = (1 - 2 * (xx + yy)) * sz;
  out[o + 11] = trs[to + 2];
}

/** out = a · b (as 4x4 with implicit last row 0 0 0 1). `out` may alias `a` or `b`. */
export function mul3x4(out: Vec, o: number, a: Vec, ao: number, b: Vec, bo: number): void {
  const a00 = a[ao], a01 = a[ao + 1], a02 = a[ao + 2], a03 = a[ao + 3];
  const a10 = a[ao + 4], a11 = a[ao + 5], a12 = a[ao + 6], a13 = a[ao + 7];
  const a20 = a[ao + 8], a21 = a[ao + 9], a22 = a[ao + 10], a23 = a[ao + 11];
  const b00 = b[bo], b01 = b[bo + 1], b02 = b[bo + 2], b03 = b[bo + 3];
  const b10 = b[bo + 4], b11 = b[bo + 5], b12 = b[bo + 6], b13 = b[bo + 7];
  const b20 = b[bo + 8], b21 = b[bo + 9], b22 = b[bo + 10], b23 = b[bo + 11];
  out[o] = a00 * b00 + a01 * b10 + a02 * b20;
  out[o + 1] = a00 * b01 + a01 * b11 + a02 * b21;
  out[o + 2] = a00 * b02 + a01 * b12 + a02 * b22;
  out[o + 3] = a00 * b03 + a01 * b13 + a02 * b23 + a03;
  out[o + 4] = a10 * b00 + a11 * b10 + a12 * b20;
  out[o + 5] = a10 * b01 + a11 * b11 + a12 * b21;
  out[o + 6] = a10 * b02 + a11 * b12 + a12 * b22;
  out[o + 7] = a10 * b03 + a11 * b13 + a12 * b23 + a13;
  out[o + 8] = a20 * b00 + a21 * b10 + a22 * b20;
  out[o + 9] = a20 * b01 + a21 * b11 + a22 * b21;
  out[o + 10] = a20 * b02 + a21 * b12 + a22 * b22;
  out[o + 11] = a20 * b03 + a21 * b13 + a22 * b23 + a23;
}

/** out = inverse(a) for an invertible affine matrix; a singular matrix gives identity. May alias. */
export function invert3x4(out: Vec, o: number, a: Vec, ao: number): boolean {
  const a00 = a[ao], a01 = a[ao + 1], a02 = a[ao + 2], tx = a[ao + 3];
  const a10 = a[ao + 4], a11 = a[ao + 5], a12 = a[ao + 6], ty = a[ao + 7];
  const a20 = a[ao + 8], a21 = a[ao + 9], a22 = a[ao + 10], tz = a[ao + 11];
  const c00 = a11 * a22 - a12 * a21;
  const c01 = a12 * a20 - a10 * a22;
  const c02 = a10 * a21 - a11 * a20;
  const det = a00 * c00 + a01 * c01 + a02 * c02;
  if (det === 0 || !Number.isFinite(det)) {
    identity3x4(out, o);
    return false;
  }
  const id = 1 / det;
  const i00 = c00 * id, i01 = (a02 * a21 - a01 * a22) * id, i02 = (a01 * a12 - a02 * a11) * id;
  const i10 = c01 * id, i11 = (a00 * a22 - a02 * a20) * id, i12 = (a02 * a10 - a00 * a12) * id;
  const i20 = c02 * id, i21 = (a01 * a20 - a00 * a21) * id, i22 = (a00 * a11 - a01 * a10) * id;
  out[o] = i00;
  out[o + 1] = i01;
  out[o + 2] = i02;
  out[o + 3] = -(i00 * tx + i01 * ty + i02 * tz);
  out[o + 4] = i10;
  out[o + 5] = i11;
  out[o + 6] = i12;
  out[o + 7] = -(i10 * tx + i11 * ty + i12 * tz);
  out[o + 8] = i20;
  out[o + 9] = i21;
  out[o + 10] = i22;
  out[o + 11] = -(i20 * tx + i21 * ty + i22 * tz);
  return true;
}

/**
 * out = inverse(a) for a rotation times a column scale (a pose's matrix, as the reference compiler
 * inverts it): the transpose with each row over its squared length, the translation moved back.
 * Not for general matrices (invert3x4). `out` may not alias `a`.
 */
export function invertRotationScale3x4(out: Vec, o: number, a: Vec, ao: number): void {
  const tx = a[ao + 3], ty = a[ao + 7], tz = a[ao + 11];
  for (let r = 0; r < 3; r++) {
    const c0 = a[ao + r], c1 = a[ao + 4 + r], c2 = a[ao + 8 + r];
    const d = c0 * c0 + c1 * c1 + c2 * c2;
    const x = c0 / d, y = c1 / d, z = c2 / d;
    out[o + 4 * r] = x;
    out[o + 4 * r + 1] = y;
    out[o + 4 * r + 2] = z;
    out[o + 4 * r + 3] = -(x * tx + y * ty + z * tz);
  }
}

/** out = m · (x, y, z, 1): transforms a point. */
export function transformPoint(out: Vec, o: number, m: Vec, mo: number, x: number, y: number, z: number): void {
  out[o] = m[mo] * x + m[mo + 1] * y + m[mo + 2] * z + m[mo + 3];
  out[o + 1] = m[mo + 4] * x + m[mo + 5] * y + m[mo + 6] * z + m[mo + 7];
  out[o + 2] = m[mo + 8] * x + m[mo + 9] * y + m[mo + 10] * z + m[mo + 11];
}

/** out = R · (x, y, z): transforms a direction (no translation, no renormalisation). */
export function transformVector(out: Vec, o: number, m: Vec, mo: number, x: number, y: number, z: number): void {
  out[o] = m[mo] * x + m[mo + 1] * y + m[mo + 2] * z;
  out[o + 1] = m[mo + 4] * x + m[mo + 5] * y + m[mo + 6] * z;
  out[o + 2] = m[mo + 8] * x + m[mo + 9] * y + m[mo + 10] * z;
}

/**
 * Splits an affine matrix into [t q s] (10 numbers at `to`): s = column lengths, q = the rotation
 * of the normalised columns (a negative determinant flips the x scale). Shear is lost.
 */
export function toTRS(trs: Vec, to: number, m: Vec, mo: number, scratch: Vec): void {
  const len = (a: number, b: number, c: number) => Math.sqrt(a * a + b * b + c * c);
  let sx = len(m[mo], m[mo + 4], m[mo + 8]);
  const sy = len(m[mo + 1], m[mo + 5], m[mo + 9]);
  const sz = len(m[mo + 2], m[mo + 6], m[mo + 10]);
  const det =
    m[mo] * (m[mo + 5] * m[mo + 10] - m[mo + 6] * m[mo + 9]) -
    m[mo + 1] * (m[mo + 4] * m[mo + 10] - m[mo + 6] * m[mo + 8]) +
    m[mo + 2] * (m[mo + 4] * m[mo + 9] - m[mo + 5] * m[mo + 8]);
  if (det < 0) sx = -sx;
  const ix = sx ? 1 / sx : 0, iy = sy ? 1 / sy : 0, iz = sz ? 1 / sz : 0;
  for (let r = 0; r < 3; r++) {
    scratch[r * 4] = m[mo + r * 4] * ix;
    scratch[r * 4 + 1] = m[mo + r * 4 + 1] * iy;
    scratch[r * 4 + 2] = m[mo + r * 4 + 2] * iz;
    scratch[r * 4 + 3] = 0;
  }
  trs[to] = m[mo + 3];
  trs[to + 1] = m[mo + 7];
  trs[to + 2] = m[mo + 11];
  quatFromMat3x4(trs, to + 3, scratch, 0);
  trs[to + 7] = sx;
  trs[to + 8] = sy;
  trs[to + 9] = sz;
}

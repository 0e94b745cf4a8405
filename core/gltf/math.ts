// The small pieces of glTF math the reader needs, on the project's 3x4 row-major matrices
// (core/math/mat3x4.ts) and 10-value poses [t q s] (core/math/pose.ts), plus glTF's Y-up to
// IQM's Z-up: (x, y, z) -> (x, -z, y), a +90 degree rotation about X (not a mirror: windings and
// handedness stay). Poses are converted by conjugation (C · M · C⁻¹): translations and scale axes
// swizzle, a quaternion's axis turns with the vectors.
import { fromTRS } from '../math/mat3x4';

/**
 * How far from unit length a normal, tangent or rotation may be and be kept as it is, by our
 * writer and reader (glTF's validator allows 0.00674 for vectors, 0.00769 for rotations): the
 * float32 rounding of a unit vector, or a 16-bit IQM channel, is far below it, so a round trip
 * keeps their bits; further off, they are normalised.
 */
export const NEAR_UNIT = 1e-3;

/** A glTF column-major 4x4 (16 floats at `o`) as a 3x4 row-major matrix. */
export function fromColumnMajor(out: Float64Array, oo: number, m: ArrayLike<number>, o: number): void {
  for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) out[oo + 4 * r + c] = m[o + 4 * c + r];
}

/** A node's local matrix from its translation, rotation (x y z w) and scale. */
export function trsMatrix(out: Float64Array, o: number, t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): void {
  const trs = [t[0], t[1], t[2], q[0], q[1], q[2], q[3], s[0], s[1], s[2]];
  fromTRS(out, o, trs, 0);
}

/** The largest difference between two 3x4 matrices, translations relative to `size` (the model's extent). */
export function matrixDifference(a: Float64Array, ao: number, b: Float64Array, bo: number, size: number): number {
  let d = 0;
  for (let k = 0; k < 12; k++) {
    const scale = k % 4 === 3 ? Math.max(size, 1e-6) : 1;
    d = Math.max(d, Math.abs(a[ao + k] - b[bo + k]) / scale);
  }
  return d;
}

/** Determinant of the linear part of a 3x4 matrix. */
export function determinant3x4(m: Float64Array, o: number): number {
  return m[o] * (m[o + 5] * m[o + 10] - m[o + 6] * m[o + 9]) - m[o + 1] * (m[o + 4] * m[o + 10] - m[o + 6] * m[o + 8]) + m[o + 2] * (m[o + 4] * m[o + 9] - m[o + 5] * m[o + 8]);
}

/** The inverse transpose of the linear part (normals), as 9 values row-major; singular: the linear part itself. */
export function normalMatrix(m: Float64Array, o: number): Float64Array {
  const a = m[o], b = m[o + 1], c = m[o + 2], d = m[o + 4], e = m[o + 5], f = m[o + 6], g = m[o + 8], h = m[o + 9], i = m[o + 10];
  const det = determinant3x4(m, o);
  if (det === 0 || !Number.isFinite(det)) return Float64Array.of(a, b, c, d, e, f, g, h, i);
  // Cofactor matrix = det · inverse transpose.
  const k = 1 / det;
  return Float64Array.of((e * i - f * h) * k, (f * g - d * i) * k, (d * h - e * g) * k, (c * h - b * i) * k, (a * i - c * g) * k, (b * g - a * h) * k, (b * f - c * e) * k, (c * d - a * f) * k, (a * e - b * d) * k);
}

/** Y-up -> Z-up on a vector at v[o..o+2], in place. */
export function zUpVector(v: Float64Array, o: number): void {
  const y = v[o + 1];
  v[o + 1] = -v[o + 2];
  v[o + 2] = y;
}

/**
 * Y-up -> Z-up on a pose [t q s] at p[o..o+9], in place; the quaternion also gets w <= 0, the
 * sign every IQM writer uses (the same rotation).
 */
export function zUpPose(p: Float64Array, o: number): void {
  zUpVector(p, o);
  zUpVector(p, o + 3);
  if (p[o + 6] > 0) for (let k = 3; k < 7; k++) p[o + k] = -p[o + k];
  const sy = p[o + 8];
  p[o + 8] = p[o + 9];
  p[o + 9] = sy;
}

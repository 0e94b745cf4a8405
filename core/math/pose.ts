// Poses of `pq`, `pm` and `pa` lines (IQE-SEMANTICS.md §3.3) as 10 doubles: translate x y z,
// rotate x y z w (w <= 0), scale x y z. Their 3x4 matrices: fromTRS (mat3x4.ts). Every function
// writes into `out`, given first.

export const POSE_STRIDE = 10;
/** Values of a pose without its scale: frame poses are kept so while every scale is exactly 1. */
export const UNSCALED_STRIDE = 7;
/** One pose: translate x y z, rotate x y z w, scale x y z (POSE_STRIDE values). */
export type PoseValues = Float64Array;

/** Quaternion lengths within this of 1 are used exactly as written (B6). */
const UNIT_TOLERANCE = 1e-4;

const shortPose = new Float64Array(6);

/**
 * `pq Tx Ty Tz Qx Qy Qz [Qw] [Sx Sy Sz]`. Straight-line code (no loops or calls) for the usual
 * line of 6 values or more: this runs for every pose of a file, mostly before it is optimised.
 */
export function poseFromQuaternion(out: PoseValues, values: Float64Array | Float32Array, v: number, n: number): void {
  if (n < 6) {
    // The missing values are 0.
    shortPose.fill(0);
    for (let k = 0; k < n; k++) shortPose[k] = values[v + k];
    poseFromQuaternion(out, shortPose, 0, 6);
    return;
  }
  out[0] = values[v]; out[1] = values[v + 1]; out[2] = values[v + 2];
  let x = values[v + 3], y = values[v + 4], z = values[v + 5];
  const w0 = -Math.sqrt(Math.max(1 - (x * x + y * y + z * z), 0));
  let w = n > 6 && values[v + 6] !== w0 ? values[v + 6] : w0;
  out[7] = n > 7 ? values[v + 7] : 1;
  out[8] = n > 8 ? values[v + 8] : 1;
  out[9] = n > 9 ? values[v + 9] : 1;
  const length = Math.sqrt(x * x + y * y + z * z + w * w);
  if (Math.abs(length - 1) > UNIT_TOLERANCE && length > 0) {
    // Ours (B6): normalise a quaternion that is clearly not unit length.
    const inv = 1 / length;
    x *= inv; y *= inv; z *= inv; w *= inv;
  }
  if (w > 0) {
    x = -x; y = -y; z = -z; w = -w;
  }
  out[3] = x; out[4] = y; out[5] = z; out[6] = w;
}

/** `pm Tx Ty Tz Ax Ay Az Bx By Bz Cx Cy Cz [Sx Sy Sz]`: A, B, C are the rows of R. */
export function poseFromMatrix(out: PoseValues, values: Float64Array | Float32Array, v: number, n: number): void {
  const at = (k: number, fallback: number): number => (k < n ? values[v + k] : fallback);
  out[0] = at(0, 0); out[1] = at(1, 0); out[2] = at(2, 0);
  const m = [at(3, 0), at(4, 0), at(5, 0), at(6, 0), at(7, 0), at(8, 0), at(9, 0), at(10, 0), at(11, 0)];
  const sx0 = Math.sqrt(m[0] * m[0] + m[3] * m[3] + m[6] * m[6]);
  const sy0 = Math.sqrt(m[1] * m[1] + m[4] * m[4] + m[7] * m[7]);
  const sz0 = Math.sqrt(m[2] * m[2] + m[5] * m[5] + m[8] * m[8]);
  const f = Math.fround;
  const det = f(
    f(f(m[0]) * f(f(f(m[4]) * f(m[8])) - f(f(m[5]) * f(m[7])))) -
      f(f(m[1]) * f(f(f(m[3]) * f(m[8])) - f(f(m[5]) * f(m[6])))) +
      f(f(m[2]) * f(f(f(m[3]) * f(m[7])) - f(f(m[4]) * f(m[6])))),
  );
  const sign = det < 0 ? -1 : 1;
  const sx = sx0 * sign, sy = sy0 * sign, sz = sz0 * sign;
  for (let r = 0; r < 3; r++) {
    m[3 * r] /= sx;
    m[3 * r + 1] /= sy;
    m[3 * r + 2] /= sz;
  }
  quaternionFromMatrix(out, m);
  if (out[6] > 0) {
    out[3] = -out[3]; out[4] = -out[4]; out[5] = -out[5]; out[6] = -out[6];
  }
  out[7] = at(12, 1) * sx;
  out[8] = at(13, 1) * sy;
  out[9] = at(14, 1) * sz;
}

/** Trace method; m is row-major 3x3; writes x y z w to out[3..6]. */
function quaternionFromMatrix(out: PoseValues, m: number[]): void {
  const trace = m[0] + m[4] + m[8];
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const r = Math.sqrt(1 + trace);
    const inv = 0.5 / r;
    w = 0.5 * r;
    x = (m[7] - m[5]) * inv;
    y = (m[2] - m[6]) * inv;
    z = (m[3] - m[1]) * inv;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const r = Math.sqrt(1 + m[0] - m[4] - m[8]);
    const inv = 0.5 / r;
    x = 0.5 * r;
    y = (m[3] + m[1]) * inv;
    z = (m[2] + m[6]) * inv;
    w = (m[7] - m[5]) * inv;
  } else if (m[4] > m[8]) {
    const r = Math.sqrt(1 + m[4] - m[0] - m[8]);
    const inv = 0.5 / r;
    y = 0.5 * r;
    x = (m[3] + m[1]) * inv;
    z = (m[7] + m[5]) * inv;
    w = (m[2] - m[6]) * inv;
  } else {
    const r = Math.sqrt(1 + m[8] - m[0] - m[4]);
    const inv = 0.5 / r;
    z = 0.5 * r;
    x = (m[2] + m[6]) * inv;
    y = (m[7] + m[5]) * inv;
    w = (m[3] - m[1]) * inv;
  }
  out[3] = x; out[4] = y; out[5] = z; out[6] = w;
}

/** `pa Tx Ty Tz Rx Ry Rz [Sx Sy Sz]` (radians; q = qz * qy * qx). */
export function poseFromAngles(out: PoseValues, values: Float64Array | Float32Array, v: number, n: number): void {
  const at = (k: number, fallback: number): number => (k < n ? values[v + k] : fallback);
  out[0] = at(0, 0); out[1] = at(1, 0); out[2] = at(2, 0);
  quaternionFromAngles(out, 3, at(3, 0), at(4, 0), at(5, 0));
  if (out[6] > 0) {
    out[3] = -out[3]; out[4] = -out[4]; out[5] = -out[5]; out[6] = -out[6];
  }
  out[7] = at(6, 1); out[8] = at(7, 1); out[9] = at(8, 1);
}

/** x y z w of the rotation by rx, then ry, then rz radians, written to out[o..o+3] (not flipped). */
export function quaternionFromAngles(out: Float64Array, o: number, rx: number, ry: number, rz: number): void {
  const sx = Math.sin(rx / 2), cx = Math.cos(rx / 2);
  const sy = Math.sin(ry / 2), cy = Math.cos(ry / 2);
  const sz = Math.sin(rz / 2), cz = Math.cos(rz / 2);
  out[o] = sx * cy * cz - cx * sy * sz;
  out[o + 1] = cx * sy * cz + sx * cy * sz;
  out[o + 2] = cx * cy * sz - sx * sy * cz;
  out[o + 3] = cx * cy * cz + sx * sy * sz;
}

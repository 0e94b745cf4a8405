// glTF animation samplers evaluated at a time, as the glTF 2.0 specification defines them
// (§3.11 and Appendix C): before the first key the first value, after the last the last; STEP
// holds a key's value until the next key; LINEAR interpolates between the two keys around t
// (rotations by slerp along the shorter arc); CUBICSPLINE is the Hermite spline of the keys'
// values and tangents, the tangents scaled by the key interval, rotations normalised after.

import { normalizeQuat, slerpQuat } from '../math/quat';

export type Interpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

export interface Sampler {
  /** Key times in seconds, ascending. */
  times: Float32Array | Float64Array;
  /** Values per key (CUBICSPLINE: in-tangent, value, out-tangent per key), `width` numbers each, normalised where the accessor is. */
  values: Float64Array;
  width: number;
  interpolation: Interpolation;
  /** Whether the values are rotations (unit quaternions x y z w). */
  rotation: boolean;
}

/** The key interval that holds t: index k with times[k] <= t < times[k + 1] (clamped to the ends). */
function findKey(times: ArrayLike<number>, t: number): number {
  let lo = 0, hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Writes the sampler's value at time t (seconds) into out[o..o+width-1]. */
export function evaluate(sampler: Sampler, t: number, out: Float64Array, o: number): void {
  const { times, values, width, interpolation } = sampler;
  const n = times.length;
  const cubic = interpolation === 'CUBICSPLINE';
  // The value of key k (a cubic key's middle element).
  const at = (k: number): number => (cubic ? (3 * k + 1) * width : k * width);
  if (n === 1 || t <= times[0]) {
    for (let c = 0; c < width; c++) out[o + c] = values[at(0) + c];
  } else if (t >= times[n - 1]) {
    for (let c = 0; c < width; c++) out[o + c] = values[at(n - 1) + c];
  } else {
    const k = findKey(times, t);
    const t0 = times[k], t1 = times[k + 1];
    const dt = t1 - t0;
    const s = dt > 0 ? (t - t0) / dt : 0;
    if (interpolation === 'STEP') {
      for (let c = 0; c < width; c++) out[o + c] = values[at(k) + c];
    } else if (interpolation === 'LINEAR') {
      if (sampler.rotation) slerpQuat(out, o, values, at(k), values, at(k + 1), s);
      else for (let c = 0; c < width; c++) out[o + c] = values[at(k) + c] * (1 - s) + values[at(k + 1) + c] * s;
    } else {
      // Hermite: p = (2s³-3s²+1)·v0 + (s³-2s²+s)·dt·b0 + (-2s³+3s²)·v1 + (s³-s²)·dt·a1, with b0
      // the out-tangent of key k and a1 the in-tangent of key k+1.
      const s2 = s * s, s3 = s2 * s;
      const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
      const v0 = (3 * k + 1) * width, b0 = (3 * k + 2) * width, a1 = (3 * (k + 1)) * width, v1 = (3 * (k + 1) + 1) * width;
      for (let c = 0; c < width; c++) {
        out[o + c] = h00 * values[v0 + c] + h10 * dt * values[b0 + c] + h01 * values[v1 + c] + h11 * dt * values[a1 + c];
      }
    }
  }
  if (sampler.rotation) normalizeQuat(out, o);
}

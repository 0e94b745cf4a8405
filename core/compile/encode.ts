// Vertex array component encoders (IQE-SEMANTICS.md §4.8.2, §4.8.4), exactly as the reference
// converts doubles: float rounds to nearest, half truncates, normalised integers clamp and
// truncate, ubyte blend weights follow the exact-255 rule.

export enum Format {
  Byte = 0,
  Ubyte = 1,
  Short = 2,
  Ushort = 3,
  Int = 4,
  Uint = 5,
  Half = 6,
  Float = 7,
  Double = 8,
}

const scratch = new Float64Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** The half-float bits of a double: mantissa truncated, NaN becomes infinity (§4.8.2). */
export function toHalf(value: number): number {
  scratch[0] = value;
  const hi = scratchBits[1];
  const sign = (hi >>> 16) & 0x8000;
  let exp = ((hi >>> 20) & 0x7ff) - 1023 + 15;
  let mant = (hi >>> 10) & 0x3ff;
  if (exp <= 0) {
    mant = (mant | 0x400) >>> Math.min(1 - exp, 11);
    exp = 0;
  } else if (exp >= 31) {
    exp = 31;
    mant = 0;
  }
  return sign | (exp << 10) | mant;
}

/** Unsigned normalised: T(clamp(0.5 + v * S, 0, S)), truncated toward zero. */
export function unsignedNormalized(value: number, scale: number): number {
  const x = 0.5 + value * scale;
  return Math.trunc(x < 0 ? 0 : x > scale ? scale : x);
}

/** Signed normalised: n = v * S * 0.5, then ceil(n - 1) below zero, floor otherwise, clamped. */
export function signedNormalized(value: number, scale: number): number {
  const n = value * scale * 0.5;
  const low = -(scale + 1) / 2;
  const high = (scale - 1) / 2;
  const r = n < 0 ? Math.ceil(n - 1) : Math.floor(n);
  return r < low ? low : r > high ? high : r;
}

/** Writes one component in `format` at byte offset `at` (normalised for integer formats). */
export function writeComponent(view: DataView, at: number, format: number, value: number): void {
  switch (format) {
    case Format.Byte: view.setInt8(at, signedNormalized(value, 255)); return;
    case Format.Ubyte: view.setUint8(at, unsignedNormalized(value, 255)); return;
    case Format.Short: view.setInt16(at, signedNormalized(value, 65535), true); return;
    case Format.Ushort: view.setUint16(at, unsignedNormalized(value, 65535), true); return;
    case Format.Int: view.setInt32(at, signedNormalized(value, 4294967295), true); return;
    case Format.Uint: view.setUint32(at, unsignedNormalized(value, 4294967295), true); return;
    case Format.Half: view.setUint16(at, toHalf(value), true); return;
    case Format.Float: view.setFloat32(at, value, true); return;
    case Format.Double: view.setFloat64(at, value, true); return;
  }
}

/** Writes an integer as-is in `format` (blend indices: the raw bone byte). */
export function writeRaw(view: DataView, at: number, format: number, value: number): void {
  switch (format) {
    case Format.Byte: view.setInt8(at, value); return;
    case Format.Ubyte: view.setUint8(at, value); return;
    case Format.Short: view.setInt16(at, value, true); return;
    case Format.Ushort: view.setUint16(at, value, true); return;
    case Format.Int: view.setInt32(at, value, true); return;
    case Format.Uint: view.setUint32(at, value, true); return;
    case Format.Half: view.setUint16(at, toHalf(value), true); return;
    case Format.Float: view.setFloat32(at, value, true); return;
    case Format.Double: view.setFloat64(at, value, true); return;
  }
}

/**
 * Four normalised weights -> four ubytes summing to exactly 255 (none: all 0) (§4.8.4).
 * Writes to out[o..o+3].
 */
export function blendWeightBytes(weights: Float64Array | Float32Array, w: number, out: Uint8Array, o: number): void {
  let sum = 0;
  let any = false;
  for (let k = 0; k < 4; k++) {
    const q = Math.trunc(0.5 + weights[w + k] * 255) & 255;
    out[o + k] = q;
    sum += q;
    if (weights[w + k] > 0) any = true;
  }
  if (!any) return;
  while (sum > 255) {
    for (let k = 0; k < 4 && sum > 255; k++) {
      if (out[o + k] > 0) {
        out[o + k]--;
        sum--;
      }
    }
  }
  while (sum < 255) {
    for (let k = 0; k < 4 && sum < 255; k++) {
      if (out[o + k] < 255) {
        out[o + k]++;
        sum++;
      }
    }
  }
}

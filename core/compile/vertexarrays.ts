// Stage: vertex arrays (IQE-SEMANTICS.md §4.2, §4.8): which arrays exist, in the fixed order, with
// their default or declared format and size, encoded component by component. Components beyond
// an attribute's width are 0 (B14).
import { newArray } from '../pages';
import type { Declaration } from './source';
import { blendWeightBytes, Format, writeComponent, writeRaw } from './encode';
import { FORMAT_SIZES } from '../iqm/layout';

export enum ArrayType {
  Position = 0,
  Texcoord = 1,
  Normal = 2,
  Tangent = 3,
  BlendIndexes = 4,
  BlendWeights = 5,
  Color = 6,
  Custom = 0x10,
}

export interface VertexArray {
  /** IQM type (custom: 0x10 + text offset, filled in by the caller). */
  type: number;
  /** Index into the declarations table: 0..6, or 7..16 for custom0..9. */
  slot: number;
  format: number;
  size: number;
  bytes: Uint8Array;
}

/** Values of one attribute: `width` doubles per row, row of output vertex i at rowOf(i). */
export interface AttributeSource {
  slot: number;
  data: Float64Array | Float32Array;
  width: number;
  /** Row index per output vertex (null: the output vertex index itself). */
  rows: Int32Array | null;
}

const DEFAULTS: readonly [number, number][] = [
  [Format.Float, 3], [Format.Float, 2], [Format.Float, 3], [Format.Float, 4],
  [Format.Ubyte, 4], [Format.Ubyte, 4], [Format.Ubyte, 4],
];

export function arrayFormat(slot: number, declarations: readonly (Declaration | null)[]): [number, number] {
  const d = declarations[slot];
  if (d) return [d.format, d.size];
  return slot < DEFAULTS.length ? DEFAULTS[slot] : [Format.Float, 4];
}

/** Encodes a value attribute (everything but blend data). */
export function encodeAttribute(source: AttributeSource, count: number, declarations: readonly (Declaration | null)[]): VertexArray {
  const [format, size] = arrayFormat(source.slot, declarations);
  const componentSize = FORMAT_SIZES[format];
  const bytes = newArray(Uint8Array, count * size * componentSize);
  const { data, width, rows } = source;
  if (format === Format.Float) {
    const out = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    for (let i = 0, o = 0; i < count; i++) {
      const r = (rows ? rows[i] : i) * width;
      for (let k = 0; k < size; k++) out[o++] = k < width ? data[r + k] : 0;
    }
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0, o = 0; i < count; i++) {
      const r = (rows ? rows[i] : i) * width;
      for (let k = 0; k < size; k++, o += componentSize) writeComponent(view, o, format, k < width ? data[r + k] : 0);
    }
  }
  return { type: source.slot < 7 ? source.slot : ArrayType.Custom, slot: source.slot, format, size, bytes };
}

/** Blend indexes: the raw bone bytes in the declared format. */
export function encodeBlendIndexes(bones: Uint8Array, rows: Int32Array, declarations: readonly (Declaration | null)[]): VertexArray {
  const [format, size] = arrayFormat(ArrayType.BlendIndexes, declarations);
  const componentSize = FORMAT_SIZES[format];
  const count = rows.length;
  const bytes = newArray(Uint8Array, count * size * componentSize);
  if (format === Format.Ubyte) {
    // The default format: the bytes themselves.
    for (let i = 0, o = 0; i < count; i++) {
      for (let k = 0; k < size; k++) bytes[o++] = bones[4 * rows[i] + k];
    }
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0, o = 0; i < count; i++) {
      for (let k = 0; k < size; k++, o += componentSize) writeRaw(view, o, format, bones[4 * rows[i] + k]);
    }
  }
  return { type: ArrayType.BlendIndexes, slot: ArrayType.BlendIndexes, format, size, bytes };
}

/** Blend weights: ubyte by the exact-255 rule, other formats by the normalised encoders. */
export function encodeBlendWeights(weights: Float64Array | Float32Array, rows: Int32Array, declarations: readonly (Declaration | null)[]): VertexArray {
  const [format, size] = arrayFormat(ArrayType.BlendWeights, declarations);
  const componentSize = FORMAT_SIZES[format];
  const count = rows.length;
  const bytes = newArray(Uint8Array, count * size * componentSize);
  if (format === Format.Ubyte) {
    const four = new Uint8Array(4);
    for (let i = 0, o = 0; i < count; i++) {
      blendWeightBytes(weights, 4 * rows[i], four, 0);
      for (let k = 0; k < size; k++) bytes[o++] = four[k];
    }
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0, o = 0; i < count; i++) {
      for (let k = 0; k < size; k++, o += componentSize) writeComponent(view, o, format, weights[4 * rows[i] + k]);
    }
  }
  return { type: ArrayType.BlendWeights, slot: ArrayType.BlendWeights, format, size, bytes };
}

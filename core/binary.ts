// Bounds-checked binary reading for the model readers. Every read checks the file length first and
// throws FormatError (with the byte offset) instead of returning garbage or throwing a RangeError.
// Offsets are absolute byte offsets into the file; counts and sizes are plain numbers (< 2^53), so
// `offset + count * size` cannot overflow the way uint32 arithmetic does in C readers.

/** A structural problem in a file, at a byte offset (from the start of the file). */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'FormatError';
  }
}

/** True on little-endian hosts (every current JS engine); typed-array views need it for LE data. */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class BinaryReader {
  readonly view: DataView;
  readonly length: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.byteLength;
  }

  /** Throws unless `count` records of `size` bytes starting at `offset` lie inside the file. */
  need(offset: number, count: number, size: number, what: string): void {
    if (!Number.isInteger(offset) || offset < 0) throw new FormatError(`${what}: bad offset ${offset}`, Math.max(0, offset | 0));
    if (!Number.isInteger(count) || count < 0) throw new FormatError(`${what}: bad count ${count}`, offset);
    const end = offset + count * size;
    if (end > this.length) {
      throw new FormatError(
        `${what}: ${count} × ${size} bytes at offset ${offset} run past the end of the file (${this.length} bytes)`,
        offset,
      );
    }
  }

  /** Like need() but for a range given as [start, end). */
  has(offset: number, size: number): boolean {
    return offset >= 0 && offset + size <= this.length;
  }

  private check(offset: number, size: number): void {
    if (!(offset >= 0 && offset + size <= this.length)) {
      throw new FormatError(`unexpected end of file reading ${size} bytes at offset ${offset}`, Math.max(0, Math.min(offset, this.length)));
    }
  }

  u8(offset: number): number {
    this.check(offset, 1);
    return this.bytes[offset];
  }
  i8(offset: number): number {
    this.check(offset, 1);
    return this.view.getInt8(offset);
  }
  u16(offset: number): number {
    this.check(offset, 2);
    return this.view.getUint16(offset, this.littleEndian);
  }
  i16(offset: number): number {
    this.check(offset, 2);
    return this.view.getInt16(offset, this.littleEndian);
  }
  u32(offset: number): number {
    this.check(offset, 4);
    return this.view.getUint32(offset, this.littleEndian);
  }
  i32(offset: number): number {
    this.check(offset, 4);
    return this.view.getInt32(offset, this.littleEndian);
  }
  f32(offset: number): number {
    this.check(offset, 4);
    return this.view.getFloat32(offset, this.littleEndian);
  }
  f64(offset: number): number {
    this.check(offset, 8);
    return this.view.getFloat64(offset, this.littleEndian);
  }

  /** A fixed-size name field: up to the first NUL or the end of the field, decoded as UTF-8. */
  fixedString(offset: number, size: number): string {
    this.check(offset, size);
    let end = offset;
    const limit = offset + size;
    while (end < limit && this.bytes[end] !== 0) end++;
    return decodeUtf8(this.bytes, offset, end);
  }

  /** True when the bytes [offset, offset+size) match `ascii` exactly. */
  matches(offset: number, ascii: string): boolean {
    if (!this.has(offset, ascii.length)) return false;
    for (let i = 0; i < ascii.length; i++) if (this.bytes[offset + i] !== ascii.charCodeAt(i)) return false;
    return true;
  }
}

/** The platform's TextDecoder (node, browsers, workers; core is built without their types), or null. */
const TextDecoderClass = (globalThis as { TextDecoder?: new (label: string) => { decode(input: Uint8Array): string } }).TextDecoder;
const asciiDecoder = TextDecoderClass ? new TextDecoderClass('utf-8') : null;

/**
 * Decodes bytes [start, end) as UTF-8, with U+FFFD for each malformed sequence (core has no
 * TextDecoder). Pure ASCII, the common case, takes the fast path.
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    let s = '';
    if (end - start <= 256) {
      for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
      return s;
    }
    // ASCII is the same text in any decoder: the platform's where there is one (a 2.6 MB glTF's
    // JSON: 65 ms in the loop below, cold).
    if (asciiDecoder) return asciiDecoder.decode(bytes.subarray(start, end));
    for (let i = start; i < end; i += 4096) {
      s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, Math.min(end, i + 4096))));
    }
    return s;
  }
  const codes: number[] = [];
  let i = start;
  while (i < end) {
    const b0 = bytes[i];
    if (b0 < 0x80) {
      codes.push(b0);
      i++;
      continue;
    }
    let need = 0;
    let cp = 0;
    let min = 0;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      min = 0x10000;
    } else {
      codes.push(0xfffd);
      i++;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      const b = i + j < end ? bytes[i + j] : -1;
      if ((b & 0xc0) !== 0x80 || b < 0) break;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (j <= need || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      codes.push(0xfffd);
      i += Math.max(1, j);
      continue;
    }
    codes.push(cp);
    i += need + 1;
  }
  let s = '';
  for (let k = 0; k < codes.length; k += 4096) s += String.fromCodePoint(...codes.slice(k, k + 4096));
  return s;
}

/** Decodes an IEEE 754 half-precision float stored as a uint16. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/** Encodes a number as an IEEE 754 half (round to nearest), for writers and tests. */
export function floatToHalf(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const s = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return s | 0x7c00;
  if (a < 2 ** -24 / 2) return s;
  if (a < 2 ** -14) return s | Math.round(a / 2 ** -24);
  let e = Math.floor(Math.log2(a));
  let m = Math.round((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e++;
  }
  return s | ((e + 15) << 10) | m;
}

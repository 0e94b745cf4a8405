// UTF-8 encoding for every writer's strings (IQM names, comment): core/ has no TextEncoder, so
// a small encoder of its own. Lone surrogates become U+FFFD, as TextEncoder does.

/** Number of UTF-8 bytes of `s`. */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Writes `s` as UTF-8 into `out` at `at`; returns the offset after the last byte written. */
export function writeUtf8(s: string, out: Uint8Array, at: number): number {
  let p = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[p++] = 0xf0 | (c >> 18);
      out[p++] = 0x80 | ((c >> 12) & 0x3f);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p;
}

export function encodeUtf8(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  writeUtf8(s, out, 0);
  return out;
}

/** A UTF-8 decoder that can decode a stream in pieces (a character split between pieces is joined). */
export interface Utf8Decoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

/**
 * The platform's TextDecoder for UTF-8 (node, browsers and workers all have one; core is built
 * without their types): a leading BOM dropped, as editors drop it, and U+FFFD for invalid bytes.
 */
export function utf8Decoder(): Utf8Decoder {
  const Decoder = (globalThis as { TextDecoder?: new (label: string) => Utf8Decoder }).TextDecoder;
  if (!Decoder) throw new Error('this platform has no TextDecoder');
  return new Decoder('utf-8');
}

/** Text of UTF-8 bytes as utf8Decoder decodes them (a BOM dropped). */
export function decodeUtf8Text(bytes: Uint8Array): string {
  return utf8Decoder().decode(bytes);
}

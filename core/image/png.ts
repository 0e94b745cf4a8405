// PNG encoder for decoded images (glTF takes PNG and JPEG only; Quake-family textures are mostly
// TGA). RGBA8, filter 0 on every row, one IDAT chunk. The compression is the host's own (zlib
// format, RFC 1950): node:zlib in Node, CompressionStream('deflate') in browsers and the web
// worker extension host; it is injected, as core uses neither. Chunk layout and CRC-32 from the
// PNG specification (ISO/IEC 15948).

import type { DecodedImage } from './tga';

/** zlib-format compression (RFC 1950: header, deflate data, Adler-32), as PNG's IDAT holds. */
export type Deflate = (data: Uint8Array) => Promise<Uint8Array>;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let crcTable: Uint32Array | undefined;

/** CRC-32 (polynomial 0xEDB88320) over a chunk's type and data, as PNG defines it. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** The image as PNG bytes: RGBA, 8 bits per channel, rows top to bottom (as DecodedImage holds them). */
export async function encodePng(image: DecodedImage, deflate: Deflate): Promise<Uint8Array> {
  const { width, height, pixels } = image;
  if (!(width > 0 && height > 0) || pixels.length !== width * height * 4) throw new Error(`encodePng: ${width}x${height} image with ${pixels.length} bytes`);
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  // compression 0, filter method 0, no interlace
  const row = width * 4;
  const raw = new Uint8Array((row + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  const parts = [Uint8Array.from(SIGNATURE), chunk('IHDR', header), chunk('IDAT', await deflate(raw)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

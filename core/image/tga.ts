// Truevision TGA decoder (browsers cannot decode TGA). Image types 1/2/3 (colour-mapped, true-colour,
// grey) and their run-length encoded forms 9/10/11; 8, 15/16, 24 and 32 bits per pixel; colour maps
// of 15/16, 24 or 32 bits. The output is RGBA8 with the first row at the TOP of the image whatever the
// file's origin (descriptor bit 5 = top-to-bottom, bit 4 = right-to-left), which is what WebGL's
// texImage2D expects for texture coordinates with t = 0 at the top (FORMAT-PITFALLS §2).
// Every size is checked against the file before anything is allocated.

import { FormatError } from '../binary';

export interface DecodedImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, rows top to bottom. */
  pixels: Uint8Array;
  /** True when some pixel has alpha < 255. */
  hasAlpha: boolean;
}

/** Largest side accepted (GL implementations rarely go beyond 16384). */
export const TGA_MAX_SIDE = 16384;

const HEADER = 18;

export interface TgaHeader {
  idLength: number;
  colorMapType: number;
  imageType: number;
  mapFirst: number;
  mapLength: number;
  mapEntryBits: number;
  width: number;
  height: number;
  bits: number;
  descriptor: number;
}

export function readTgaHeader(bytes: Uint8Array): TgaHeader {
  if (bytes.length < HEADER) throw new FormatError(`TGA: ${bytes.length} bytes is shorter than the 18-byte header`, 0);
  const u16 = (o: number) => bytes[o] | (bytes[o + 1] << 8);
  return {
    idLength: bytes[0],
    colorMapType: bytes[1],
    imageType: bytes[2],
    mapFirst: u16(3),
    mapLength: u16(5),
    mapEntryBits: bytes[7],
    width: u16(12),
    height: u16(14),
    bits: bytes[16],
    descriptor: bytes[17],
  };
}

/** Writes one pixel of `bits` depth read from `src` at `s` into `out` at `o` (RGBA). */
function putPixel(src: Uint8Array, s: number, bits: number, alpha1: boolean, out: Uint8Array, o: number): void {
  switch (bits) {
    case 32:
      out[o] = src[s + 2];
      out[o + 1] = src[s + 1];
      out[o + 2] = src[s];
      out[o + 3] = src[s + 3];
      return;
    case 24:
      out[o] = src[s + 2];
      out[o + 1] = src[s + 1];
      out[o + 2] = src[s];
      out[o + 3] = 255;
      return;
    case 15:
    case 16: {
      const v = src[s] | (src[s + 1] << 8);
      const r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
      out[o] = (r << 3) | (r >> 2);
      out[o + 1] = (g << 3) | (g >> 2);
      out[o + 2] = (b << 3) | (b >> 2);
      out[o + 3] = bits === 16 && alpha1 ? (v & 0x8000 ? 255 : 0) : 255;
      return;
    }
    case 8:
      out[o] = out[o + 1] = out[o + 2] = src[s];
      out[o + 3] = 255;
      return;
    default:
      throw new FormatError(`TGA: unsupported pixel depth ${bits}`, 16);
  }
}

export function decodeTga(bytes: Uint8Array): DecodedImage {
  const h = readTgaHeader(bytes);
  const rle = h.imageType >= 9 && h.imageType <= 11;
  const base = rle ? h.imageType - 8 : h.imageType;
  if (base !== 1 && base !== 2 && base !== 3) {
    throw new FormatError(h.imageType === 0 ? 'TGA: image type 0 (no image data)' : `TGA: unsupported image type ${h.imageType}`, 2);
  }
  const { width, height } = h;
  if (width === 0 || height === 0) throw new FormatError(`TGA: empty image (${width}×${height})`, 12);
  if (width > TGA_MAX_SIDE || height > TGA_MAX_SIDE) throw new FormatError(`TGA: ${width}×${height} is larger than ${TGA_MAX_SIDE} pixels a side`, 12);
  const alphaBits = h.descriptor & 15;
  let pos = HEADER + h.idLength;

  // Colour map: read into RGBA entries (needed for type 1, skipped otherwise).
  let palette: Uint8Array | null = null;
  if (h.colorMapType === 1) {
    const entryBytes = Math.ceil(h.mapEntryBits / 8);
    if (![15, 16, 24, 32].includes(h.mapEntryBits)) throw new FormatError(`TGA: unsupported colour map entry size ${h.mapEntryBits}`, 7);
    const mapBytes = h.mapLength * entryBytes;
    if (pos + mapBytes > bytes.length) throw new FormatError(`TGA: colour map of ${mapBytes} bytes runs past the end of the file`, pos);
    if (base === 1) {
      palette = new Uint8Array((h.mapFirst + h.mapLength) * 4);
      for (let i = 0; i < h.mapLength; i++) putPixel(bytes, pos + i * entryBytes, h.mapEntryBits, alphaBits > 0, palette, (h.mapFirst + i) * 4);
    }
    pos += mapBytes;
  } else if (h.colorMapType !== 0) {
    throw new FormatError(`TGA: unknown colour map type ${h.colorMapType}`, 1);
  }
  if (base === 1) {
    if (!palette) throw new FormatError('TGA: colour-mapped image without a colour map', 1);
    if (h.bits !== 8 && h.bits !== 16) throw new FormatError(`TGA: colour-mapped image with ${h.bits}-bit indices`, 16);
  } else if (base === 3) {
    if (h.bits !== 8 && h.bits !== 16) throw new FormatError(`TGA: grey image with ${h.bits} bits per pixel`, 16);
  } else if (![15, 16, 24, 32].includes(h.bits)) {
    throw new FormatError(`TGA: unsupported pixel depth ${h.bits}`, 16);
  }
  const pixelBytes = Math.ceil(h.bits / 8);
  const count = width * height;
  const remaining = bytes.length - pos;
  // Before allocating: uncompressed data must be all there; RLE packets hold at most 128 pixels.
  if (!rle && remaining < count * pixelBytes) {
    throw new FormatError(`TGA: ${width}×${height}×${pixelBytes} bytes of pixels but only ${Math.max(0, remaining)} left`, pos);
  }
  if (rle && remaining * 128 < count) throw new FormatError('TGA: too little RLE data for the image size', pos);

  // Decode in file order into `raw` (RGBA), then reorder rows/columns to top-left origin.
  const raw = new Uint8Array(count * 4);
  const alpha1 = alphaBits > 0;
  const decodeOne = (s: number, o: number) => {
    if (base === 1) {
      const index = pixelBytes === 1 ? bytes[s] : bytes[s] | (bytes[s + 1] << 8);
      const p = palette as Uint8Array;
      if (index * 4 + 3 >= p.length) {
        raw[o] = raw[o + 1] = raw[o + 2] = 0;
        raw[o + 3] = 255;
        return;
      }
      raw[o] = p[index * 4];
      raw[o + 1] = p[index * 4 + 1];
      raw[o + 2] = p[index * 4 + 2];
      raw[o + 3] = p[index * 4 + 3];
    } else if (base === 3) {
      // 16-bit grey = grey + alpha.
      raw[o] = raw[o + 1] = raw[o + 2] = bytes[s];
      raw[o + 3] = pixelBytes === 2 ? bytes[s + 1] : 255;
    } else putPixel(bytes, s, h.bits, alpha1, raw, o);
  };
  if (!rle) {
    for (let i = 0; i < count; i++) decodeOne(pos + i * pixelBytes, i * 4);
  } else {
    let i = 0;
    while (i < count) {
      if (pos >= bytes.length) throw new FormatError(`TGA: RLE data ends after ${i} of ${count} pixels`, pos);
      const packet = bytes[pos++];
      const n = (packet & 0x7f) + 1;
      if (i + n > count) throw new FormatError('TGA: an RLE packet runs past the end of the image', pos - 1);
      if (packet & 0x80) {
        if (pos + pixelBytes > bytes.length) throw new FormatError('TGA: RLE packet past the end of the file', pos);
        decodeOne(pos, i * 4);
        for (let k = 1; k < n; k++) raw.copyWithin((i + k) * 4, i * 4, i * 4 + 4);
        pos += pixelBytes;
      } else {
        if (pos + n * pixelBytes > bytes.length) throw new FormatError('TGA: raw RLE packet past the end of the file', pos);
        for (let k = 0; k < n; k++) decodeOne(pos + k * pixelBytes, (i + k) * 4);
        pos += n * pixelBytes;
      }
      i += n;
    }
  }

  // Rows and columns turned in place, a row at a time: a second image for the reordered copy
  // doubled the peak of every bottom-up file (most are), 2 GB for the largest one accepted.
  const topDown = (h.descriptor & 0x20) !== 0;
  const rightToLeft = (h.descriptor & 0x10) !== 0;
  const pixels = raw;
  const rowBytes = width * 4;
  if (!topDown) {
    const row = new Uint8Array(rowBytes);
    for (let y = 0, z = height - 1; y < z; y++, z--) {
      row.set(pixels.subarray(y * rowBytes, (y + 1) * rowBytes));
      pixels.copyWithin(y * rowBytes, z * rowBytes, (z + 1) * rowBytes);
      pixels.set(row, z * rowBytes);
    }
  }
  if (rightToLeft) {
    const words = new Uint32Array(pixels.buffer, pixels.byteOffset, count);
    for (let y = 0; y < height; y++) words.subarray(y * width, (y + 1) * width).reverse();
  }
  let hasAlpha = false;
  for (let i = 3; i < pixels.length; i += 4) {
    if (pixels[i] !== 255) {
      hasAlpha = true;
      break;
    }
  }
  return { width, height, pixels, hasAlpha };
}

// Just enough PNG reading to compare two screenshots: 8-bit, non-interlaced, RGB or RGBA (what
// Chromium writes). Used by the UI test to leave docs/screenshots/ alone when a new screenshot
// differs from the committed one only in a few anti-aliased pixels.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

/** Decodes a PNG file into { width, height, channels, pixels }, or null if it is not one we read. */
export function readPng(file) {
  const data = readFileSync(file);
  if (data.length < 8 || data.readUInt32BE(0) !== 0x89504e47) return null;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat = [];
  for (let o = 8; o + 8 <= data.length; ) {
    const length = data.readUInt32BE(o);
    const type = data.toString('latin1', o + 4, o + 8);
    const body = data.subarray(o + 8, o + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colorType, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) return null;
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    o += 12 + length;
  }
  if (!channels) return null;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = y * (stride + 1) + 1;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + x] = (raw[row + x] + predicted) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many pixels differ between two PNG files, or Infinity if their sizes differ or one cannot be read. */
export function differingPixels(fileA, fileB) {
  const a = readPng(fileA);
  const b = readPng(fileB);
  if (!a || !b || a.width !== b.width || a.height !== b.height) return Infinity;
  let count = 0;
  for (let i = 0; i < a.width * a.height; i++) {
    for (let k = 0; k < 3; k++) {
      if (a.pixels[i * a.channels + k] !== b.pixels[i * b.channels + k]) {
        count++;
        break;
      }
    }
  }
  return count;
}

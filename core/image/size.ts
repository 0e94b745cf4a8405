// The pixel size of a TGA, PNG or JPEG from its header, without decoding it (engine texture
// checks). null when the bytes are none of these or the header is cut short.

export interface ImageSize {
  format: 'tga' | 'png' | 'jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function imageSize(bytes: Uint8Array): ImageSize | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    return { format: 'png', width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the markers to the first start-of-frame (SOF0-SOF15 but DHT C4, JPG C8, DAC CC).
    let p = 2;
    while (p + 9 <= bytes.length) {
      if (bytes[p] !== 0xff) return null;
      const marker = bytes[p + 1];
      if (marker === 0xff) {
        p++;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { format: 'jpeg', width: dv.getUint16(p + 7), height: dv.getUint16(p + 5) };
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
        p += 2;
        continue;
      }
      p += 2 + dv.getUint16(p + 2);
    }
    return null;
  }
  // TGA has no magic: image types 1-3 and 9-11, a colour map type of 0 or 1, sane depth.
  if (bytes.length >= 18 && [1, 2, 3, 9, 10, 11].includes(bytes[2]) && bytes[1] <= 1 && [8, 15, 16, 24, 32].includes(bytes[16])) {
    const width = dv.getUint16(12, true);
    const height = dv.getUint16(14, true);
    return width > 0 && height > 0 ? { format: 'tga', width, height } : null;
  }
  return null;
}

export function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

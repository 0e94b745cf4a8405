// TGA decoding (core/image/tga.ts): every pixel depth, RLE, colour maps, both origins, and
// truncated or hostile headers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../core/binary';
import { decodeTga } from '../../core/image/tga';
import { asset, NO_ASSETS } from '../helpers/model-assets';

function header(type: number, w: number, h: number, bits: number, descriptor: number, map: { length: number; bits: number } | null = null): number[] {
  return [0, map ? 1 : 0, type, 0, 0, map ? map.length & 255 : 0, map ? map.length >> 8 : 0, map ? map.bits : 0, 0, 0, 0, 0, w & 255, w >> 8, h & 255, h >> 8, bits, descriptor];
}

/** 2x2 image, pixels given top row first as RGBA. */
const TOP = [[255, 0, 0, 255], [0, 255, 0, 255]];
const BOTTOM = [[0, 0, 255, 255], [255, 255, 255, 128]];
const expected = [...TOP.flat(), ...BOTTOM.flat()];

test('32-bit true colour, bottom-up (origin bit clear) and top-down (bit 5 set)', () => {
  const bgra = (p: number[]) => [p[2], p[1], p[0], p[3]];
  const bottomUp = new Uint8Array([...header(2, 2, 2, 32, 8), ...BOTTOM.flatMap(bgra), ...TOP.flatMap(bgra)]);
  const img = decodeTga(bottomUp);
  assert.equal(img.width, 2);
  assert.deepEqual(Array.from(img.pixels), expected);
  assert.equal(img.hasAlpha, true);
  const topDown = new Uint8Array([...header(2, 2, 2, 32, 8 | 0x20), ...TOP.flatMap(bgra), ...BOTTOM.flatMap(bgra)]);
  assert.deepEqual(Array.from(decodeTga(topDown).pixels), expected);
  // Right-to-left (bit 4): columns mirrored in the file.
  const rtl = new Uint8Array([...header(2, 2, 2, 32, 8 | 0x20 | 0x10), ...[TOP[1], TOP[0], BOTTOM[1], BOTTOM[0]].flatMap(bgra)]);
  assert.deepEqual(Array.from(decodeTga(rtl).pixels), expected);
});

test('every origin of an odd-sized image (5x3): rows and columns turned into top-left order in place', () => {
  const [w, h] = [5, 3];
  // The file's pixels in file order: pixel k is (k, 2k, 3k, 255) as BGRA.
  const filePixels = Array.from({ length: w * h }, (_, k) => [(3 * k) & 255, (2 * k) & 255, k, 255]);
  for (const descriptor of [0x00, 0x20, 0x10, 0x30]) {
    const topDown = (descriptor & 0x20) !== 0;
    const rightToLeft = (descriptor & 0x10) !== 0;
    const img = decodeTga(new Uint8Array([...header(2, w, h, 32, 8 | descriptor), ...filePixels.flat()]));
    const expectedRgba: number[] = [];
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const k = (topDown ? y : h - 1 - y) * w + (rightToLeft ? w - 1 - x : x);
        expectedRgba.push(k, (2 * k) & 255, (3 * k) & 255, 255);
      }
    }
    assert.deepEqual(Array.from(img.pixels), expectedRgba, `descriptor ${descriptor.toString(16)}`);
    assert.equal(img.pixels.buffer.byteLength, w * h * 4, 'the image and nothing more');
  }
});

test('24-bit RLE (type 10): run and raw packets', () => {
  // 3x1: a run of 2 red pixels, then 1 raw green one. Top-down.
  const bytes = new Uint8Array([...header(10, 3, 1, 24, 0x20), 0x81, 0, 0, 255, 0x00, 0, 255, 0]);
  assert.deepEqual(Array.from(decodeTga(bytes).pixels), [255, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255]);
});

test('16-bit (A1R5G5B5) with one alpha bit, 8-bit grey, and 8-bit colour-mapped', () => {
  const px16 = (r: number, g: number, b: number, a: number) => {
    const v = (a << 15) | (r << 10) | (g << 5) | b;
    return [v & 255, v >> 8];
  };
  const img16 = decodeTga(new Uint8Array([...header(2, 2, 1, 16, 1 | 0x20), ...px16(31, 0, 0, 1), ...px16(0, 31, 0, 0)]));
  assert.deepEqual(Array.from(img16.pixels), [255, 0, 0, 255, 0, 255, 0, 0]);
  const grey = decodeTga(new Uint8Array([...header(3, 2, 1, 8, 0x20), 10, 200]));
  assert.deepEqual(Array.from(grey.pixels), [10, 10, 10, 255, 200, 200, 200, 255]);
  const mapped = decodeTga(new Uint8Array([...header(1, 2, 1, 8, 0x20, { length: 2, bits: 24 }), 0, 0, 255, 255, 0, 0, 1, 0]));
  assert.deepEqual(Array.from(mapped.pixels), [0, 0, 255, 255, 255, 0, 0, 255]);
  const rleGrey = decodeTga(new Uint8Array([...header(11, 4, 1, 8, 0x20), 0x83, 77]));
  assert.deepEqual(Array.from(rleGrey.pixels), [77, 77, 77, 255, 77, 77, 77, 255, 77, 77, 77, 255, 77, 77, 77, 255]);
});

test('truncated and hostile files throw FormatError with an offset, before allocating', () => {
  const cases: Uint8Array[] = [
    new Uint8Array(10),
    new Uint8Array([...header(2, 2, 2, 32, 0), 1, 2, 3]),
    new Uint8Array([...header(2, 65535, 65535, 32, 0)]), // would be 16 GB
    new Uint8Array([...header(10, 60000, 60000, 24, 0), 0xff, 1, 2, 3]),
    new Uint8Array([...header(10, 2, 1, 24, 0), 0x85, 1, 2, 3]), // run past the image
    new Uint8Array([...header(5, 2, 1, 24, 0)]),
    new Uint8Array([...header(2, 0, 1, 24, 0)]),
    new Uint8Array([...header(2, 1, 1, 12, 0), 0, 0]),
  ];
  for (const c of cases) {
    assert.throws(
      () => decodeTga(c),
      (e: unknown) => e instanceof FormatError && e.offset >= 0,
    );
  }
});

test('real textures: mrfixit Body.tga (1024², 3 MB) and oa_soldier skin.tga (RLE)', { skip: NO_ASSETS }, () => {
  const body = decodeTga(asset('iqm/mrfixit/Body.tga'));
  assert.equal(body.width, 1024);
  assert.equal(body.height, 1024);
  assert.equal(body.pixels.length, 1024 * 1024 * 4);
  const skin = decodeTga(asset('md3/oa_soldier/skin.tga'));
  assert.ok(skin.width > 0 && skin.pixels.length === skin.width * skin.height * 4);
  // Not a uniform image.
  const first = skin.pixels.subarray(0, 4).join();
  assert.ok(skin.pixels.some((_, i) => i % 4 === 0 && skin.pixels.subarray(i, i + 4).join() !== first));
});

// Writes media/icon.png, the extension's 128x128 marketplace icon: a flat-shaded triangle mesh
// (one large triangle split into nine facets, with its wireframe and vertices) on a dark rounded
// square. Drawn here, 4x4 supersampled, and encoded as a PNG with node's zlib, so the icon is ours
// and needs no image tools.
//   node scripts/make-icon.mjs [out.png]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deflateSync } from 'node:zlib';
import { Buffer } from 'node:buffer';

const out = process.argv[2] ?? 'media/icon.png';
const SIZE = 128;
const SS = 4; // samples per pixel along each axis

// The mesh: an upward triangle divided into N rows, vertex (row, k) with 0 <= k <= row.
const N = 3;
const top = [64, 15];
const left = [13, 106];
const right = [115, 106];
const vertex = (row, k) => {
  const t = row / N;
  const s = row === 0 ? 0 : k / row;
  const ax = top[0] + (left[0] - top[0]) * t;
  const ay = top[1] + (left[1] - top[1]) * t;
  const bx = top[0] + (right[0] - top[0]) * t;
  const by = top[1] + (right[1] - top[1]) * t;
  return [ax + (bx - ax) * s, ay + (by - ay) * s];
};

// Facets, lit from the upper left: tones of the same orange, lighter towards the light.
const facets = [];
for (let row = 0; row < N; row++) {
  for (let k = 0; k <= row; k++) {
    facets.push({ points: [vertex(row, k), vertex(row + 1, k), vertex(row + 1, k + 1)], up: true, row, k });
    if (k < row) facets.push({ points: [vertex(row, k), vertex(row + 1, k + 1), vertex(row, k + 1)], up: false, row, k });
  }
}
const base = [242, 140, 40];
for (const f of facets) {
  const cx = (f.points[0][0] + f.points[1][0] + f.points[2][0]) / 3;
  const cy = (f.points[0][1] + f.points[1][1] + f.points[2][1]) / 3;
  const light = 1.15 - ((cx - 13) / 102) * 0.35 - ((cy - 15) / 91) * 0.2 - (f.up ? 0 : 0.18);
  f.color = base.map((c) => Math.max(0, Math.min(255, c * light)));
}

const edges = [];
for (const f of facets) for (let i = 0; i < 3; i++) edges.push([f.points[i], f.points[(i + 1) % 3]]);
const vertices = [];
for (let row = 0; row <= N; row++) for (let k = 0; k <= row; k++) vertices.push(vertex(row, k));

const background = [30, 36, 48];
const wire = [255, 244, 222];

function inside([a, b, c], x, y) {
  const d1 = (x - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (y - b[1]);
  const d2 = (x - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (y - c[1]);
  const d3 = (x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1]);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

function segmentDistance([a, b], x, y) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - a[0] - t * dx, y - a[1] - t * dy);
}

/** Inside the rounded square that forms the icon's background. */
function inBackground(x, y) {
  const r = 22;
  const cx = Math.max(r, Math.min(SIZE - r, x));
  const cy = Math.max(r, Math.min(SIZE - r, y));
  return Math.hypot(x - cx, y - cy) <= r;
}

/** Colour and alpha of one sample point. */
function sample(x, y) {
  if (!inBackground(x, y)) return null;
  let color = background;
  for (const f of facets) if (inside(f.points, x, y)) color = f.color;
  if (edges.some((e) => segmentDistance(e, x, y) < 1.6)) color = wire;
  if (vertices.some(([vx, vy]) => Math.hypot(x - vx, y - vy) < 4.2)) color = wire;
  return color;
}

const pixels = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let py = 0; py < SIZE; py++) {
  const rowStart = py * (SIZE * 4 + 1);
  pixels[rowStart] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    let r = 0;
    let g = 0;
    let b = 0;
    let covered = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
        if (!c) continue;
        r += c[0];
        g += c[1];
        b += c[2];
        covered++;
      }
    }
    const o = rowStart + 1 + px * 4;
    if (covered) {
      pixels[o] = Math.round(r / covered);
      pixels[o + 1] = Math.round(g / covered);
      pixels[o + 2] = Math.round(b / covered);
    }
    pixels[o + 3] = Math.round((255 * covered) / (SS * SS));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(pixels, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, png);
console.log(`${out}: ${SIZE}x${SIZE}, ${png.length} bytes`);

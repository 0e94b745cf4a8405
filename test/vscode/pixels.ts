// Reading back what the preview drew, from the harness's screenshot of its webview: a PNG read
// through workspace.fs and decoded here (8-bit RGB or RGBA, not interlaced: what Chromium writes),
// with DecompressionStream (Node 18+ and browsers both have it), so the same check runs in the
// Node and the web worker extension host. The measure (modelPixels) counts the filled surfaces in
// the view area, not the grid and axis lines.
export interface Picture {
  width: number;
  height: number;
  channels: 3 | 4;
  pixels: Uint8Array;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG, or throws saying what it cannot read. */
export async function decodePng(file: Uint8Array): Promise<Picture> {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.length < 8 || view.getUint32(0) !== 0x89504e47) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels: 3 | 4 = 4;
  const idat: Uint8Array[] = [];
  for (let o = 8; o + 8 <= file.length; ) {
    const length = view.getUint32(o);
    const type = String.fromCharCode(...file.subarray(o + 4, o + 8));
    const body = file.subarray(o + 8, o + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(o + 8);
      height = view.getUint32(o + 12);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) throw new Error(`PNG depth ${depth}, colour type ${colour}, interlace ${interlace}: not read here`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    o += 12 + length;
  }
  const joined = new Uint8Array(idat.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of idat) {
    joined.set(b, at);
    at += b.length;
  }
  const raw = await inflate(joined);
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error(`PNG data: ${raw.length} bytes for ${width}x${height}`);
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[out + x - channels] : 0;
      const up = y > 0 ? pixels[out - stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[out - stride + x - channels] : 0;
      const predictor = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : -1;
      if (predictor < 0) throw new Error(`PNG filter ${filter} on row ${y}`);
      pixels[out + x] = (line[x] + predictor) & 255;
    }
  }
  return { width, height, channels, pixels };
}

/**
 * How much of the view area the model covers: the region left of the info panel and between the
 * tool bar and the timeline (x < 55%, 12% <= y < 88% of the webview, which holds in both the wide
 * and the narrow layout), counting the pixels that differ clearly from the background (the most
 * frequent colour) together with their neighbours 2 pixels away on each side, so that thin
 * lines (the grid, the axes) do not count: only filled surfaces do.
 */
export function modelPixels({ width, height, channels, pixels }: Picture): { drawn: number; checked: number } {
  const at = (x: number, y: number) => (y * width + x) * channels;
  const counts = new Map<number, number>();
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      const o = at(x, y);
      const key = (pixels[o] << 16) | (pixels[o + 1] << 8) | pixels[o + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const bg = [(background >> 16) & 255, (background >> 8) & 255, background & 255];
  const differs = (x: number, y: number) => {
    const o = at(x, y);
    return Math.abs(pixels[o] - bg[0]) + Math.abs(pixels[o + 1] - bg[1]) + Math.abs(pixels[o + 2] - bg[2]) > 48;
  };
  let drawn = 0;
  let checked = 0;
  for (let y = Math.round(height * 0.12); y < Math.round(height * 0.88); y++) {
    for (let x = 2; x < Math.round(width * 0.55); x++) {
      checked++;
      if (differs(x, y) && differs(x - 2, y) && differs(x + 2, y) && differs(x, y - 2) && differs(x, y + 2)) drawn++;
    }
  }
  return { drawn, checked };
}

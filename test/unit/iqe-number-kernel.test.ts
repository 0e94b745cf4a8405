// The WebAssembly number reader (wasm/numbers.ts) that parseChunk uses for ASCII texts (a large
// one a window at a time) gives the JavaScript reader's chunks exactly: values (bit for bit, -0
// included), value counts, kinds, flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Chunk, LineScanner, parseChunk } from '../../core/iqe/chunk';
import { endNumberKernel, numberKernelOn, useNumberKernel } from '../../core/iqe/line';
import { setWasmEnabled } from '../../core/wasm';

function chunks(text: string): Chunk[] {
  const scanner = new LineScanner(text);
  const out: Chunk[] = [];
  let p = 0, line = 0;
  do {
    const chunk = parseChunk(scanner, p, line, true);
    out.push(chunk);
    p = chunk.end;
    line += chunk.lineCount;
  } while (p < text.length);
  return out;
}

function sameChunks(a: Chunk[], b: Chunk[], label: string): void {
  assert.equal(a.length, b.length, label);
  for (let c = 0; c < a.length; c++) {
    assert.deepEqual(Array.from(a[c].kind), Array.from(b[c].kind), `${label}: kinds`);
    assert.deepEqual(Array.from(a[c].valueStart), Array.from(b[c].valueStart), `${label}: value counts`);
    assert.deepEqual(Array.from(a[c].flagged), Array.from(b[c].flagged), `${label}: flagged lines`);
    assert.deepEqual(Array.from(a[c].flags), Array.from(b[c].flags), `${label}: flags`);
    assert.equal(a[c].values.length, b[c].values.length);
    for (let i = 0; i < a[c].values.length; i++) assert.ok(Object.is(a[c].values[i], b[c].values[i]), `${label}: value ${i}: ${a[c].values[i]} against ${b[c].values[i]}`);
  }
}

/** Parses `text` with the kernel and without it; whether the kernel took the text. */
function bothWays(text: string, label: string): boolean {
  // parseChunk turns it on for its own text; here only to learn whether it takes this one.
  useNumberKernel(text);
  const taken = numberKernelOn();
  endNumberKernel();
  const kernel = chunks(text);
  setWasmEnabled(false);
  try {
    sameChunks(kernel, chunks(text), label);
  } finally {
    setWasmEnabled(true);
  }
  return taken;
}

const NUMBERS = ['0', '-0', '+1', '1.', '.5', '-.5', '0.000001', '123456789', '1234567890', '123456789012345', '1234567890123456', '-12345.678901234', '1e5', '1E-3', '0x1p3', 'inf', '-nan', '1,5', '0/1', '--1', '+', '-', '.', '1.2.3', '99999999999999999999', '3.14159265358979', '-2147483649', '007', '1.5e', '\t2'];

test('the number kernel reads every form of number as the JavaScript reader does', () => {
  const lines = ['# Inter-Quake Export', 'joint root -1', 'joint "a b" 0', 'mesh m', 'material x'];
  for (const a of NUMBERS) for (const b of NUMBERS) lines.push(`vp ${a} ${b} ${a}`, `vt ${b} ${a}`, `vb ${a} ${b} ${b} ${a}`, `fm ${a} ${b} ${a}`, `pq ${a} ${b} 0 0 0 0 1 ${a} ${b} 1`);
  lines.push(`fa ${Array.from({ length: 5000 }, (_, i) => i).join(' ')}`, 'vertexarray position float 3', 'smoothangle 45', 'framerate -1', 'vs 12', 'vn 1 2', 'vx 1 0 0 1', 'pm 1 0 0 0 1 0 0 0 1 0 0 0 1 1 1');
  const text = lines.join('\n') + '\n';
  assert.ok(bothWays(text, 'forms'));
  // CRLF and lone CR line ends, and a chunk boundary inside a long run of lines.
  assert.ok(bothWays(text.replace(/\n/g, '\r\n'), 'CRLF'));
  assert.ok(bothWays(text.replace(/\n/g, '\r'), 'CR'));
});

test('a text that is not ASCII: the kernel reads up to its first such character, JavaScript from there, with the same results', () => {
  const text = '# Inter-Quake Export\nvp 4 5 6\nmesh «m»\nvp 1 2 3\nvp 0.5 -0 1e3\nvt é 1\n';
  assert.equal(bothWays(text, 'not ASCII'), true);
  useNumberKernel(text, text.indexOf('«'));
  assert.equal(numberKernelOn(), false);
  endNumberKernel();
});

test('every shared IQE parses the same with and without the number kernel', (t) => {
  const dir = resolve(process.cwd(), '..', 'shared', 'assets', 'iqe');
  if (!existsSync(dir)) return t.skip('../shared/assets/iqe is absent');
  for (const file of ['love-und-panzer/tank.iqe', 'love-und-panzer/test_cube.iqe', 'unvanquished/lgun_view.iqe', 'unvanquished/medistat.iqe', 'unvanquished/rocket.iqe']) {
    const text = readFileSync(join(dir, file), 'utf8');
    assert.ok(bothWays(text, file), `${file}: the kernel reads it`);
  }
});

test('a text over 1 MiB goes to the kernel a window at a time: the same chunks, with a line longer than a window and a window that is not ASCII', () => {
  const lines = ['# Inter-Quake Export', 'mesh m'];
  const vertices = (n: number, seed: number) => {
    for (let i = 0; i < n; i++) lines.push(`vp ${((i * 7919 + seed) % 20011) / 997} -${(i % 613) / 7} ${i}.25`, `vb ${i % 50} 0.${(i * 31) % 1000}`);
  };
  vertices(20000, 1);
  // About 1.4 MB on one line: it ends past any window that starts before it (read by JavaScript).
  lines.push(`fa ${Array.from({ length: 200000 }, (_, i) => i % 1000).join(' ')}`);
  vertices(20000, 2);
  const notAscii = lines.join('\n').length;
  lines.push('mesh «m»', 'material é');
  vertices(20000, 3);
  const text = lines.join('\n') + '\n';
  assert.ok(text.length > 3 << 20, `${text.length} characters`);
  assert.ok(bothWays(text, 'large'));
  // A window stops before a character that is not ASCII ('mesh «m»' starts at notAscii + 1).
  useNumberKernel(text, notAscii - 100, notAscii);
  assert.equal(numberKernelOn(), true, 'the lines before the name');
  useNumberKernel(text, notAscii + 6, notAscii + 50);
  assert.equal(numberKernelOn(), false, 'from the character that is not ASCII');
  useNumberKernel(text, notAscii + 100, notAscii + 200);
  assert.equal(numberKernelOn(), true, 'the window after it');
  endNumberKernel();
  assert.ok(bothWays(text.replace(/\n/g, '\r\n'), 'large, CRLF'));
  // Characters that are not ASCII all through the text (each window stops at the next one).
  const sprinkled = lines.flatMap((l, i) => (i % 300 === 0 ? ['# é', l] : [l])).join('\n') + '\n';
  assert.ok(bothWays(sprinkled, 'large, not ASCII all through'));
});

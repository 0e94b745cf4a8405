// The WebAssembly kernel (wasm/numbers.ts) that parseChunk uses for ASCII texts (a large one a
// window at a time), both its number reader and its whole-line parser, gives the JavaScript
// parser's chunks exactly: values (bit for bit, -0 included), value counts, kinds, flags, line
// starts, names and summaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Chunk, LineScanner, parseChunks } from '../../core/iqe/chunk';
import { endNumberKernel, numberKernelOn, parseCount, useNumberKernel } from '../../core/iqe/line';
import { setWasmEnabled } from '../../core/wasm';

function chunks(text: string): Chunk[] {
  return parseChunks(new LineScanner(text), 0, true);
}

/** The share of bothWays()'s last text's lines that the kernel parsed whole. */
let lastShare = 0;

function sameChunks(a: Chunk[], b: Chunk[], label: string): void {
  assert.equal(a.length, b.length, label);
  for (let c = 0; c < a.length; c++) {
    assert.deepEqual(Array.from(a[c].kind), Array.from(b[c].kind), `${label}: kinds`);
    assert.deepEqual(Array.from(a[c].valueStart), Array.from(b[c].valueStart), `${label}: value counts`);
    assert.deepEqual(Array.from(a[c].flagged), Array.from(b[c].flagged), `${label}: flagged lines`);
    assert.deepEqual(Array.from(a[c].flags), Array.from(b[c].flags), `${label}: flags`);
    assert.deepEqual([a[c].start, a[c].end, a[c].firstLine, a[c].lineCount, a[c].lineMarkStep], [b[c].start, b[c].end, b[c].firstLine, b[c].lineCount, b[c].lineMarkStep], `${label}: chunk ${c}'s extent`);
    assert.deepEqual(Array.from(a[c].lineMarks), Array.from(b[c].lineMarks), `${label}: line starts`);
    assert.deepEqual([...a[c].names], [...b[c].names], `${label}: names`);
    assert.deepEqual(a[c].summary, b[c].summary, `${label}: chunk ${c}'s summary`);
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
  const before = { ...parseCount };
  const kernel = chunks(text);
  lastShare = (parseCount.inKernel - before.inKernel) / (parseCount.lines - before.lines);
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
    assert.ok(lastShare > 0.5, `${file}: ${lastShare} of the lines in the kernel`);
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
  const plainShare = lastShare;
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
  // Past each such line the kernel takes a new window: it parses about as many lines as without them.
  assert.ok(lastShare > plainShare - 0.05, `${lastShare} of the lines in the kernel, against ${plainShare} without the lines that are not ASCII`);
  // On every line: the windows' budget runs out, and the lines are parsed in JavaScript alike.
  const everyLine = lines.slice(0, 30000).map((l, i) => (i === 0 ? l : `${l} # é`)).join('\n') + '\n';
  assert.ok(bothWays(everyLine, 'large, not ASCII on every line') !== undefined);
});

test("the kernel's whole lines: every line it takes or leaves to JavaScript parses as JavaScript parses it", () => {
  const lines = ['# Inter-Quake Export', '', '   ', '\t\v\f', '# a comment', '  # indented', 'mesh m', 'vp', 'vp 1', 'vp1 2 3', 'vpx 1', 'v', 'VP 1 2 3', 'Vp 1 2 3', 'vp\t1\t2\t3', 'vp 1 2 3 4 5 6'];
  // Blends: padding zeros, small and negative weights, a joint twice, more than 4 and more than 8 kept, a missing weight.
  lines.push('vb 0 1', 'vb 0 1 0 0 0 0', 'vb 0 0', 'vb 0 0.0005', 'vb 0 -1', 'vb 3 0.5 3 0.5', 'vb 3 0.5 3 0', 'vb 1 .2 2 .2 3 .2 4 .2 5 .2', 'vb 1 .2 2 .2 3 .2 4 .2', 'vb 1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0 9 1', 'vb 3', 'vb 3 0.5 4', 'vb -1 1', 'vb 1.5 1', 'vb 2 1e-2');
  // Poses: unit, not unit, zero, without w, too long without w; a 4-value vx and a 6-value one.
  lines.push('pq 0 0 0 0 0 0 1', 'pq 0 0 0 0 0 0 2', 'pq 0 0 0 0 0 0 0', 'pq 0 0 0 1 0 0', 'pq 0 0 0 1 1 0', 'pq 1 2 3 0.5 0.5 0.5 0.5 1 1 1', 'pq 1 2 3 0.5 0.5 0.5 0.50001', 'pa 1 2 3 4 5 6 7 8 9 10', 'pm 1 0 0 0 1 0 0 0 1 0 0 0 1 1 1');
  lines.push('vx 1 0 0 1', 'vx 1 0 0 -1', 'vx 1 0 0 0.5', 'vx 1 0 0 0 1 0', 'vx 1 0 0', 'vn 0 0 1 5', 'vt 0.5 0.5', 'vc 1 1 1 1', 'v0 1', 'v9 1 2 3 4', 'vs 3');
  // Faces: fewer than 3, exactly 3, a polygon, negatives, a float, fs.
  lines.push('fa 0 1', 'fa 0 1 2', 'fm 0 1 2 3', 'fa -1 -2 -3', 'fa 0 1 2.5', 'fs 0 1 2', 'fm 0 1 2 ', 'fm 0 1 2\t');
  // Lines longer than the reference reads (511 bytes), and just under.
  lines.push(`# ${'x'.repeat(509)}`, `# ${'x'.repeat(510)}`, `vp ${'1'.repeat(12)} ${' '.repeat(500)}`);
  lines.push('joint root -1', 'joint a 0', 'animation', 'frame', 'pq 0 0 0 0 0 0 1', 'pq 0 0 0 0 0 0 1', 'comment', 'vp 1 2 3', 'fa 0 1 2');
  const text = lines.join('\n');
  for (const [name, ends] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
    const body = text.replace(/\n/g, ends);
    assert.ok(bothWays(body, `${name}, no final line end`));
    assert.ok(bothWays(body + ends, name));
    assert.ok(lastShare > 0.4 && lastShare < 0.8, `${name}: ${lastShare} of the lines in the kernel`);
    assert.ok(bothWays(body + ends + ends, `${name}, an empty last line`));
  }
  // Line ends mixed at random, and every line in several orders (the summary's first and last lines).
  let seed = 7;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let round = 0; round < 20; round++) {
    const shuffled = lines.slice(1).map((l) => [next(1000), l] as const).sort((a, b) => a[0] - b[0]).map(([, l]) => l);
    const mixed = [lines[0], ...shuffled].map((l) => l + ['\n', '\r\n', '\r'][next(3)]).join('');
    assert.ok(bothWays(mixed, `mixed, round ${round}`));
  }
});

test("the kernel's whole lines across chunks and windows: a CR LF split by a window's end, runs longer than the kernel's buffers", () => {
  const body: string[] = ['# Inter-Quake Export', 'mesh m'];
  for (let i = 0; i < 100000; i++) body.push(i % 97 === 0 ? 'joint j 0' : i % 5 === 0 ? '' : i % 3 === 0 ? `vb ${i % 7} 1` : `vp ${i} ${i / 4} -${i % 13}`);
  const crlf = body.join('\r\n') + '\r\n';
  assert.ok(crlf.length > 1 << 20, `${crlf.length} characters`);
  assert.ok(bothWays(crlf, 'CRLF over a window'));
  assert.ok(lastShare > 0.98, `${lastShare} of the lines in the kernel`);
  // Shifted by one character at a time, so that some window ends between a \r and its \n.
  for (let shift = 1; shift <= 3; shift++) assert.ok(bothWays(`# Inter-Quake Export${'#'.repeat(shift)}\r\n` + crlf.slice(crlf.indexOf('\n') + 1), `CRLF shifted by ${shift}`));
  // Blank lines only: more lines in a chunk than the kernel's run holds.
  assert.ok(bothWays('# Inter-Quake Export\n' + '\n'.repeat(100000), 'blank lines'));
});

test('a text that ends in a lone CR: the kernel does not read past its end (a LF left there by an earlier text)', () => {
  // A line of 64 characters or more: the chunk keeps every line's start, which the test compares.
  const text = `# Inter-Quake Export\r# ${'-'.repeat(70)}\rvp 1 2 3\rvp 4 5 6\r`;
  // The kernel's memory after this text holds a LF at every offset of the next one.
  bothWays('\n'.repeat(text.length + 8), 'line ends');
  assert.ok(bothWays(text, 'a lone CR at the end'));
});

test('mutated texts parse the same with and without the kernel (500 random mutations of a model)', () => {
  const lines = ['# Inter-Quake Export', 'joint root -1', 'joint a 0', 'mesh m', 'material x'];
  for (let i = 0; i < 40; i++) lines.push(`vp ${i * 0.25} -${i}.5 ${i % 7}`, `vt 0.${i} 1`, `vn 0 0 1`, `vb ${i % 2} 0.75 ${(i + 1) % 2} 0.25`, `vx 1 0 0 ${i % 2 ? 1 : -1}`);
  for (let i = 0; i + 2 < 40; i += 3) lines.push(`fm ${i} ${i + 1} ${i + 2}`);
  lines.push('animation run', 'frame');
  for (let i = 0; i < 2; i++) lines.push('pq 0 0 0 0 0 0 1', 'pq 1 2 3 0.5 0.5 0.5 0.5 1 1 1');
  const base = lines.join('\n') + '\n';
  const pieces = [' ', '\t', '\n', '\r', '\r\n', '-', '+', '.', '0', '9', 'e', 'x', '#', 'vp', 'fa', 'vb', 'pq', '  ', '123456789012', '\v', '\f'];
  let seed = 11;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let round = 0; round < 500; round++) {
    let text = base;
    for (let k = 1 + next(4); k > 0; k--) {
      const at = next(text.length);
      const cut = next(3);
      text = text.slice(0, at) + (next(4) === 0 ? '' : pieces[next(pieces.length)]) + text.slice(at + cut);
    }
    bothWays(text, `round ${round}`);
  }
});

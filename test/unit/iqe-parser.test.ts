// The IQE line parser (core/iqe/line.ts) and the chunked document (chunk.ts, document.ts) against
// IQE-SEMANTICS.md §2 (lexical rules) and §3 (commands and defaults). The parser stores only what
// parsed (defaults such as vp W = 1 are applied by consumers), so these tests assert the counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_CHARS } from '../../core/iqe/chunk';
import { Cmd, VERTEXARRAY_FORMATS, VERTEXARRAY_TYPES } from '../../core/iqe/commands';
import { IqeDocument } from '../../core/iqe/document';
import { line, LineProblem, parseLine } from '../../core/iqe/line';
import { HEADER } from '../helpers/iqe-fixtures';

interface Parsed {
  kind: Cmd;
  values: number[];
  spans: [number, number][];
  problems: LineProblem[];
  name: string | undefined;
}

/** Parses one line (not the file's first, unless `first`). */
function parse(text: string, first = false): Parsed {
  const kind = parseLine(text, 0, text.length, first);
  const values: number[] = [];
  const spans: [number, number][] = [];
  for (let i = 0; i < line.count; i++) {
    values.push(line.values[i]);
    spans.push([line.spans[2 * i], line.spans[2 * i + 1]]);
  }
  const problems: LineProblem[] = [];
  for (let bit = 0; bit < 32; bit++) if (line.flags & (1 << bit)) problems.push(bit as LineProblem);
  const name = line.nameStart >= 0 ? text.slice(line.nameStart, line.nameEnd) : undefined;
  return { kind, values, spans, problems, name };
}

function assertLine(text: string, kind: Cmd, values: number[], problems: LineProblem[] = []): Parsed {
  const p = parse(text);
  assert.equal(p.kind, kind, `command of '${text}'`);
  assert.deepEqual(p.values, values, `values of '${text}'`);
  assert.deepEqual(p.problems.map((b) => LineProblem[b]), problems.map((b) => LineProblem[b]), `problems of '${text}'`);
  return p;
}

interface DocLine {
  kind: Cmd;
  values: number[];
  name: string | undefined;
}

/** Every line of a document as the chunks store it. */
function documentLines(text: string): DocLine[] {
  const doc = new IqeDocument(text);
  const out: DocLine[] = [];
  for (const chunk of doc.parsedChunks) {
    assert.equal(chunk.firstLine, out.length, 'chunks are contiguous');
    for (let i = 0; i < chunk.lineCount; i++) {
      const values = Array.from(chunk.values.subarray(chunk.valueStart[i], chunk.valueStart[i + 1]));
      out.push({ kind: chunk.kind[i] as Cmd, values, name: chunk.names.get(i) });
    }
  }
  assert.equal(doc.lineCount, out.length);
  return out;
}

/** LSP's line count: '\n', '\r\n' and a lone '\r' end lines; a final terminator adds an empty line. */
function lspLineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

test('vp: up to 4 reals; only what parsed is stored', () => {
  assertLine('vp 1 2 3', Cmd.Vp, [1, 2, 3]);
  assertLine('vp 1 2 3 0.5', Cmd.Vp, [1, 2, 3, 0.5]);
  assertLine('vp', Cmd.Vp, []);
  assertLine('vp 1', Cmd.Vp, [1]);
  // Extra values are ignored (§2.4).
  assertLine('vp 1 2 3 4 5 6', Cmd.Vp, [1, 2, 3, 4]);
  // A value that does not parse ends the line: the rest take defaults (§2.4).
  assertLine('vp 1 x 3', Cmd.Vp, [1], [LineProblem.NumberInvalid]);
  // A glued suffix is read as its numeric prefix and flagged.
  const p = assertLine('vp 1,5 2 3', Cmd.Vp, [1], [LineProblem.NumberInvalid]);
  assert.deepEqual(p.spans, [[3, 4]]);
  assertLine('vp -1e2 .5 5.', Cmd.Vp, [-100, 0.5, 5]);
  const q = parse('vp  1.5\t-2  ');
  assert.deepEqual(q.spans, [[4, 7], [8, 10]]);
});

test('vt, vn, vc, v0..v9: 4, 3, 4 and 4 values', () => {
  assertLine('vt 0.25 0.75', Cmd.Vt, [0.25, 0.75]);
  assertLine('vt 1 2 3 4 5', Cmd.Vt, [1, 2, 3, 4]);
  assertLine('vn 0 0 1', Cmd.Vn, [0, 0, 1]);
  assertLine('vn 0 0 1 7', Cmd.Vn, [0, 0, 1]);
  assertLine('vc 1 0.5 0', Cmd.Vc, [1, 0.5, 0]);
  assertLine('vc 1 2 3 4 5', Cmd.Vc, [1, 2, 3, 4]);
  for (let k = 0; k <= 9; k++) {
    assertLine(`v${k} 1 2 3 4 5`, (Cmd.V0 + k) as Cmd, [1, 2, 3, 4]);
    assertLine(`v${k}`, (Cmd.V0 + k) as Cmd, []);
  }
  assertLine('v9 1', Cmd.V9, [1]);
});

test('vx: the 4-value and the 6-value forms', () => {
  assertLine('vx 1 0 0 1', Cmd.Vx, [1, 0, 0, 1]);
  assertLine('vx 1 0 0 -1', Cmd.Vx, [1, 0, 0, -1]);
  assertLine('vx 1 0 0 0 1 0', Cmd.Vx, [1, 0, 0, 0, 1, 0]);
  assertLine('vx 1 0 0 0 1 0 9', Cmd.Vx, [1, 0, 0, 0, 1, 0]);
  assertLine('vx 1 0 0', Cmd.Vx, [1, 0, 0]);
  // A 5-value vx is the bitangent form (its 6th value defaults to 0), so w is not checked.
  assertLine('vx 1 0 0 0 1', Cmd.Vx, [1, 0, 0, 0, 1]);
  assertLine('vx 1 0 0 0.5', Cmd.Vx, [1, 0, 0, 0.5], [LineProblem.VxW]);
});

test('vb: pairs until an index fails; a missing weight is stored as 0', () => {
  assertLine('vb 0 0.5 1 0.5', Cmd.Vb, [0, 0.5, 1, 0.5]);
  assertLine('vb 3', Cmd.Vb, [3, 0]);
  assertLine('vb 0 1 2', Cmd.Vb, [0, 1, 2, 0]);
  assertLine('vb', Cmd.Vb, []);
  assertLine('vb 0 1 x 2', Cmd.Vb, [0, 1], [LineProblem.NumberInvalid]);
  // Indices are integers (strtol): '1.5' gives index 1, then '.5' is its weight.
  assertLine('vb 1.5', Cmd.Vb, [1, 0.5], [LineProblem.NumberInvalid]);
  // An explicit 0 weight is kept as 0 (and not flagged: it is padding).
  assertLine('vb 0 1 1 0', Cmd.Vb, [0, 1, 1, 0]);
});

test('vs: one integer', () => {
  assertLine('vs 3', Cmd.Vs, [3]);
  assertLine('vs -2', Cmd.Vs, [-2]);
  assertLine('vs', Cmd.Vs, [], [LineProblem.ValueMissing]);
  assertLine('vs x', Cmd.Vs, [], [LineProblem.NumberInvalid]);
});

test('pq, pm, pa: 10, 15 and 9 reals', () => {
  assertLine('pq 1 2 3 0 0 0 1 2 2 2', Cmd.Pq, [1, 2, 3, 0, 0, 0, 1, 2, 2, 2]);
  assertLine('pq 1 2 3 0 0 0 1 2 2 2 9', Cmd.Pq, [1, 2, 3, 0, 0, 0, 1, 2, 2, 2]);
  assertLine('pq 1 2 3', Cmd.Pq, [1, 2, 3]);
  assertLine('pq 0 0 0 0 0 0', Cmd.Pq, [0, 0, 0, 0, 0, 0]);
  const pm = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 2, 2];
  assertLine(`pm ${pm.join(' ')} 9`, Cmd.Pm, pm);
  assertLine('pm 1 2 3 1 0 0 0 1 0 0 0 1', Cmd.Pm, [1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assertLine('pa 1 2 3 0.1 0.2 0.3 1 1 1 9', Cmd.Pa, [1, 2, 3, 0.1, 0.2, 0.3, 1, 1, 1]);
  assertLine('pa', Cmd.Pa, []);
});

test('fa, fm, fs: every integer on the line', () => {
  assertLine('fa 0 1 2', Cmd.Fa, [0, 1, 2]);
  assertLine('fa 0 1 2 3 4 5 6 7 8 9 10', Cmd.Fa, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [LineProblem.Polygon]);
  assertLine('fm -1 -2 -3', Cmd.Fm, [-1, -2, -3]);
  assertLine('fm 5 6 7 8', Cmd.Fm, [5, 6, 7, 8], [LineProblem.Polygon]);
  assertLine('fa 0 1', Cmd.Fa, [0, 1], [LineProblem.FaceTooFew]);
  // 'fa 0/1 1/2 2/3': 0 parses, then '/1' does not (§2.4).
  assertLine('fa 0/1 1/2 2/3', Cmd.Fa, [0], [LineProblem.NumberInvalid, LineProblem.FaceTooFew]);
  assertLine('fs 1 0 1', Cmd.Fs, [1, 0, 1]);
  assertLine('fs 1 0 1 1 0', Cmd.Fs, [1, 0, 1, 1, 0]);
  assertLine('fs 1', Cmd.Fs, [1], [LineProblem.FsTooFew]);
});

test('smoothgroup, smoothangle, smoothuv', () => {
  assertLine('smoothgroup 4', Cmd.Smoothgroup, [4]);
  assertLine('smoothgroup', Cmd.Smoothgroup, [], [LineProblem.ValueMissing]);
  assertLine('smoothangle 45.5', Cmd.Smoothangle, [45.5]);
  assertLine('smoothangle', Cmd.Smoothangle, [], [LineProblem.ValueMissing]);
  assertLine('smoothuv', Cmd.Smoothuv, []);
  assertLine('smoothuv 0', Cmd.Smoothuv, [0]);
  assertLine('smoothuv 1', Cmd.Smoothuv, [1]);
});

test('mesh and material names: quoted, unquoted, missing, unterminated', () => {
  assert.equal(parse('mesh body').name, 'body');
  assert.equal(parse('mesh body extra').name, 'body');
  assert.equal(parse('mesh "my body" extra').name, 'my body');
  assert.equal(parse('mesh   "x"  ').name, 'x');
  assert.equal(parse('material a"b').name, 'a"b');
  assert.equal(parse('material ""').name, '');
  assert.equal(parse('mesh').name ?? '', '');
  assert.equal(parse('mesh   ').name ?? '', '');
  assert.equal(parse('mesh').kind, Cmd.Mesh);
  assert.equal(parse('material m').kind, Cmd.Material);
  // Unterminated: up to the end of the line, without the terminator (§2.5, B12).
  const u = parse('material "my mat');
  assert.equal(u.name, 'my mat');
  assert.deepEqual(u.problems, [LineProblem.UnterminatedQuote]);
  assert.equal(parse('mesh "a b ').name, 'a b ');
  // UTF-8 passes through.
  assert.equal(parse('mesh "tête"').name, 'tête');
  // In a document, the terminator is never part of the name (\n, \r\n, lone \r).
  for (const eol of ['\n', '\r\n', '\r']) {
    const lines = documentLines(`${HEADER}${eol}mesh "abc${eol}material "d e${eol}mesh f${eol}`);
    assert.deepEqual(lines.slice(1, 4).map((l) => l.name), ['abc', 'd e', 'f'], JSON.stringify(eol));
  }
});

test('joint: name and parent (absent by default)', () => {
  const a = assertLine('joint root', Cmd.Joint, []);
  assert.equal(a.name, 'root');
  const b = assertLine('joint "left arm" 3', Cmd.Joint, [3]);
  assert.equal(b.name, 'left arm');
  assert.equal(assertLine('joint j -1', Cmd.Joint, [-1]).name, 'j');
  assert.equal(assertLine('joint', Cmd.Joint, []).name ?? '', '');
  assertLine('joint j -2', Cmd.Joint, [-2], [LineProblem.JointParentNegative]);
  // An unterminated quote takes the rest of the line: no parent.
  const u = assertLine('joint "arm 3', Cmd.Joint, [], [LineProblem.UnterminatedQuote]);
  assert.equal(u.name, 'arm 3');
});

test('vertexarray: TYPE and FORMAT case-insensitively, as their indices; SIZE; NAME', () => {
  const a = assertLine('vertexarray position float 3', Cmd.Vertexarray, [0, 7, 3]);
  assert.equal(VERTEXARRAY_TYPES[a.values[0]], 'position');
  assert.equal(VERTEXARRAY_FORMATS[a.values[1]], 'float');
  assertLine('vertexarray POSITION Float 3', Cmd.Vertexarray, [0, 7, 3]);
  assertLine('vertexarray TexCoord HALF 2', Cmd.Vertexarray, [1, 6, 2]);
  assertLine('vertexarray blendindexes ushort 4', Cmd.Vertexarray, [4, 3, 4]);
  assertLine('vertexarray color ubyte 4', Cmd.Vertexarray, [6, 1, 4]);
  const c = assertLine('vertexarray custom3 double 1 "my attr"', Cmd.Vertexarray, [10, 8, 1]);
  assert.equal(c.name, 'my attr');
  assert.equal(parse('vertexarray custom9 byte 4 heat').name, 'heat');
  for (let i = 0; i < VERTEXARRAY_TYPES.length; i++) assert.equal(parse(`vertexarray ${VERTEXARRAY_TYPES[i]} int 2`).values[0], i);
  for (let i = 0; i < VERTEXARRAY_FORMATS.length; i++) assert.equal(parse(`vertexarray normal ${VERTEXARRAY_FORMATS[i].toUpperCase()} 3`).values[1], i);
  // Unknown words are -1 and flagged; SIZE outside 1..4 is kept as written and flagged.
  assertLine('vertexarray colour ubyte 4', Cmd.Vertexarray, [-1, 1, 4], [LineProblem.VertexarrayType]);
  assertLine('vertexarray color fp32 4', Cmd.Vertexarray, [6, -1, 4], [LineProblem.VertexarrayFormat]);
  assertLine('vertexarray color ubyte 7', Cmd.Vertexarray, [6, 1, 7], [LineProblem.VertexarraySize]);
  // A missing SIZE is stored as a value that clamps to 1 (§3.6: missing means 0).
  const m = parse('vertexarray color ubyte');
  assert.equal(m.kind, Cmd.Vertexarray);
  assert.ok(m.values[2] <= 0, String(m.values[2]));
  assert.deepEqual(m.problems, [LineProblem.VertexarraySize]);
});

test('animation, frame, framerate, loop, comment', () => {
  assert.equal(assertLine('animation walk', Cmd.Animation, []).name, 'walk');
  assert.equal(assertLine('animation "run fast"', Cmd.Animation, []).name, 'run fast');
  assert.equal(assertLine('animation', Cmd.Animation, []).name ?? '', '');
  assertLine('frame', Cmd.Frame, []);
  assertLine('framerate 24', Cmd.Framerate, [24]);
  assertLine('framerate 29.97', Cmd.Framerate, [29.97]);
  assertLine('framerate', Cmd.Framerate, [], [LineProblem.ValueMissing]);
  assertLine('framerate -1', Cmd.Framerate, [-1], [LineProblem.FramerateNegative]);
  assertLine('loop', Cmd.Loop, []);
  assertLine('comment', Cmd.Comment, []);
  assertLine('comment   ', Cmd.Comment, []);
  assertLine('comment text', Cmd.Comment, [], [LineProblem.CommentTrailingText]);
});

test('command dispatch: two-letter rules and exact word commands (§2.3)', () => {
  assertLine('vp0 1 2 3', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('VP 1 2 3', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('Vp 1', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('vp\t1', Cmd.Vp, [1]);
  assertLine('vp\t1\t2\t3', Cmd.Vp, [1, 2, 3]);
  assertLine('vp\u000b1', Cmd.Vp, [1]); // vertical tab is whitespace for isspace
  assertLine('  \tvp 1', Cmd.Vp, [1]);
  assertLine('vp', Cmd.Vp, []);
  assertLine('vpx 1', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('vq 1', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('f1 2', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('1 2 3', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('Mesh a', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('MESH a', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('meshes a', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('commentary', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assertLine('frames', Cmd.Unknown, [], [LineProblem.UnknownCommand]);
  assert.equal(parse('mesh\tx').name, 'x');
  assertLine('# vp 1 2 3', Cmd.Hash, []);
  assertLine('#vp', Cmd.Hash, []);
  assertLine('   # indented', Cmd.Hash, []);
  assertLine('', Cmd.Blank, []);
  assertLine(' \t ', Cmd.Blank, []);
  const names: [string, Cmd][] = [
    ['vp', Cmd.Vp], ['vt', Cmd.Vt], ['vn', Cmd.Vn], ['vx', Cmd.Vx], ['vb', Cmd.Vb], ['vc', Cmd.Vc], ['vs', Cmd.Vs],
    ['pq', Cmd.Pq], ['pm', Cmd.Pm], ['pa', Cmd.Pa], ['fa', Cmd.Fa], ['fm', Cmd.Fm], ['fs', Cmd.Fs],
    ['smoothgroup', Cmd.Smoothgroup], ['smoothangle', Cmd.Smoothangle], ['smoothuv', Cmd.Smoothuv],
    ['mesh', Cmd.Mesh], ['material', Cmd.Material], ['joint', Cmd.Joint], ['vertexarray', Cmd.Vertexarray],
    ['animation', Cmd.Animation], ['frame', Cmd.Frame], ['framerate', Cmd.Framerate], ['loop', Cmd.Loop], ['comment', Cmd.Comment],
  ];
  for (const [word, kind] of names) {
    assert.equal(parse(word).kind, kind, word);
    assert.equal(parse(`${word} `).kind, kind, `${word} + space`);
    assert.equal(parse(word.toUpperCase()).kind, Cmd.Unknown, word.toUpperCase());
  }
});

test('header line: only the first line is checked', () => {
  assert.deepEqual(parse(HEADER, true).problems, []);
  assert.deepEqual(parse(`  ${HEADER} v1`, true).problems, []);
  assert.deepEqual(parse(`\uFEFF${HEADER}`, true).problems, []);
  assert.deepEqual(parse('#Inter-Quake Export', true).problems, [LineProblem.Header]);
  assert.deepEqual(parse('# Inter-Quake Expor', true).problems, [LineProblem.Header]);
  assert.deepEqual(parse('vp 0 0 0', true).problems, [LineProblem.Header]);
  assert.deepEqual(parse('#Inter-Quake Export', false).problems, []);
});

test('line endings: CRLF, lone CR, LF; numbering equals LSP (a final terminator adds an empty line)', () => {
  // Only \n, \r\n and \r end lines (LSP): U+2028, U+0085 and form feeds do not.
  assert.equal(documentLines(`${HEADER}\nmesh a\u2028b\u0085c\fd`).length, 2);
  const cases = ['', 'a', 'a\n', 'a\r\n', 'a\r', 'a\nb', 'a\r\nb\r\n', 'a\rb\r', 'a\n\r\nb', '\r\r\n\n', '\n\n\n', 'x\r\r\ny\n\rz'];
  for (const text of cases) {
    assert.equal(documentLines(`${HEADER}\n${text}`).length, lspLineCount(`${HEADER}\n${text}`), JSON.stringify(text));
  }
  for (const eol of ['\n', '\r\n', '\r']) {
    const text = [HEADER, 'vp 1 2 3', 'vp 4 5 6', 'fa 0 1 2', ''].join(eol);
    const lines = documentLines(text);
    assert.equal(lines.length, 5, JSON.stringify(eol));
    assert.deepEqual(lines.map((l) => l.kind), [Cmd.Hash, Cmd.Vp, Cmd.Vp, Cmd.Fa, Cmd.Blank]);
    assert.deepEqual(lines[2].values, [4, 5, 6]);
    assert.deepEqual(lines[3].values, [0, 1, 2]);
  }
  // A lone CR ends a line (LSP), so it splits what the reference would read as one line.
  const split = documentLines(`${HEADER}\nvp 1\r2 3\n`);
  assert.deepEqual(split.map((l) => l.kind), [Cmd.Hash, Cmd.Vp, Cmd.Unknown, Cmd.Blank]);
  assert.deepEqual(split[1].values, [1]);
});

test('documents larger than a chunk: contiguous chunks, every line parsed once', () => {
  const lines = [HEADER];
  let i = 0;
  while (lines.join('\n').length < 3 * CHUNK_CHARS + 1000) {
    lines.push(`vp ${i} ${i + 0.5} ${-i}`, `vt ${i % 7} 0.25`, `fa ${i} ${i + 1} ${i + 2}`, `mesh "m${i}"`, '');
    i++;
  }
  for (const eol of ['\n', '\r\n']) {
    const text = lines.join(eol);
    const doc = new IqeDocument(text);
    const chunks = doc.parsedChunks;
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    let expectedStart = 0;
    for (const c of chunks) {
      assert.equal(c.start, expectedStart);
      expectedStart = c.end;
    }
    assert.equal(expectedStart, text.length);
    const parsed = documentLines(text);
    assert.equal(parsed.length, lines.length);
    for (let n = 1; n < lines.length; n++) {
      const p = parse(lines[n]);
      assert.equal(parsed[n].kind, p.kind, `line ${n}`);
      assert.deepEqual(parsed[n].values, p.values, `line ${n}`);
      if (p.kind === Cmd.Mesh) assert.equal(parsed[n].name, p.name);
    }
  }
});

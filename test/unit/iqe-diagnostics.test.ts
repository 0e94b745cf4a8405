// Diagnostics of core/iqe against IQE-SEMANTICS.md §9.2: every code, its default severity, its
// exact range (§9.2 "Positions": the token at fault, else the command word or the whole line),
// related information, cases where a code must not fire, and the ignore/severity/maxProblems
// options. Expected results come from the specification, not from the implementation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CODES, defaultSeverity, type Code } from '../../core/iqe/codes';
import type { IqeDiagnostic, Range, ValidateOptions } from '../../core/iqe/diagnostic';
import { validateIqe } from '../../core/iqe/document';
import {
  commandRange,
  describe,
  HEADER,
  iqe,
  jointLines,
  lineOf,
  lineRange,
  poses,
  prng,
  randomInt,
  spanRange,
  tokenRange,
  TRIANGLE,
  TRIANGLE_VERTICES,
  withCode,
} from '../helpers/iqe-fixtures';

/** Codes this file has a positive case for (checked at the end). */
const covered = new Set<string>();

/** Asserts exactly one `code` diagnostic, with the default severity and `range`; returns it. */
function one(text: string, code: Code, range: Range, options?: ValidateOptions): IqeDiagnostic {
  covered.add(code);
  const all = validateIqe(text, options);
  const found = withCode(all, code);
  assert.equal(found.length, 1, `expected one '${code}', got:\n${describe(all)}`);
  const d = found[0];
  assert.equal(d.severity, defaultSeverity(code), `severity of ${code}`);
  assert.deepEqual(d.range, range, `range of ${code}: ${d.message}\n${describe(all)}`);
  assert.ok(d.message.length > 0);
  return d;
}

/** Asserts that `code` is absent. */
function none(text: string, code: Code, options?: ValidateOptions): void {
  const all = validateIqe(text, options);
  assert.deepEqual(withCode(all, code), [], `unexpected '${code}':\n${describe(all)}`);
}

/** Asserts that the text has no diagnostic at all. */
function clean(text: string): void {
  const all = validateIqe(text);
  assert.deepEqual(all, [], `expected no diagnostics, got:\n${describe(all)}`);
}

/** Asserts one related entry pointing at `range`. */
function relatedTo(d: IqeDiagnostic, range: Range): void {
  assert.ok(d.related && d.related.length === 1, `related of ${d.code}: ${JSON.stringify(d.related)}`);
  assert.deepEqual(d.related[0].range, range, `related range of ${d.code}`);
  assert.ok(d.related[0].message.length > 0);
}

test('a minimal valid file has no diagnostics', () => {
  clean(iqe(...TRIANGLE));
  clean(iqe('mesh m', 'material mat', ...TRIANGLE));
});

// ---------------------------------------------------------------------------------------------
// Errors

test('header: missing or wrong first line', () => {
  // §2.2: the first `#` of the first line must start `# Inter-Quake Export`.
  let t = 'vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfa 0 1 2\n';
  one(t, 'header', tokenRange(t, 0, 'vp'));
  t = `#Inter-Quake Export\n${TRIANGLE.join('\n')}\n`;
  one(t, 'header', tokenRange(t, 0, '#Inter-Quake'));
  t = `# inter-quake export\n${TRIANGLE.join('\n')}\n`;
  one(t, 'header', tokenRange(t, 0, '#'));
  t = `# x # Inter-Quake Export\n${TRIANGLE.join('\n')}\n`;
  one(t, 'header', tokenRange(t, 0, '#'));
  t = `a#b # Inter-Quake Export\n${TRIANGLE.join('\n')}\n`;
  one(t, 'header', tokenRange(t, 0, 'a#b'));
  // The header on the second line does not count.
  t = `\n${HEADER}\n${TRIANGLE.join('\n')}\n`;
  one(t, 'header', { line: 0, column: 0, endLine: 0, endColumn: 0 });
  // An empty file is rejected.
  one('', 'header', { line: 0, column: 0, endLine: 0, endColumn: 0 });
});

test('header: accepted forms (BOM, leading spaces, text before #, text after Export)', () => {
  const body = TRIANGLE.join('\n') + '\n';
  clean(`\uFEFF${HEADER}\n${body}`);
  clean(`   ${HEADER}\n${body}`);
  clean(`\t${HEADER}\r\n${body}`);
  clean(`exported by foo ${HEADER}\n${body}`);
  clean(`${HEADER} version 2\n${body}`);
  clean(`${HEADER}`);
});

test('face-index-range: an index at or past the vertex count', () => {
  let t = iqe(...TRIANGLE_VERTICES, 'fa 0 1 7');
  one(t, 'face-index-range', tokenRange(t, 4, '7'));
  // Exactly the count is out of range.
  t = iqe(...TRIANGLE_VERTICES, 'fa 3 1 2');
  one(t, 'face-index-range', tokenRange(t, 4, '3'));
  // fm: offset + index (the offset is the vp count at the last mesh).
  t = iqe('mesh a', ...TRIANGLE_VERTICES, 'fm 0 1 2', 'mesh b', ...TRIANGLE_VERTICES, 'fm 0 1 3');
  one(t, 'face-index-range', tokenRange(t, 10, '3'));
  // A face in a file with no vp at all.
  t = iqe('fa 0 1 2');
  const all = withCode(validateIqe(t), 'face-index-range');
  assert.deepEqual(all.map((d) => d.range), ['0', '1', '2'].map((i) => tokenRange(t, 1, i)));
  assert.ok(all.every((d) => d.severity === 'error'));
});

test('face-index-range: not for indices of vertices defined later, nor resolved negatives', () => {
  // §3.2: indices are resolved when the whole file has been read.
  clean(iqe('fa 0 1 2', ...TRIANGLE_VERTICES));
  clean(iqe(...TRIANGLE_VERTICES, 'fa -3 -2 -1'));
  clean(iqe('mesh a', ...TRIANGLE_VERTICES, 'fm 0 1 2', 'mesh b', ...TRIANGLE_VERTICES, 'fm 0 1 2', 'fa 0 4 5'));
});

test('attribute-count: more attribute lines than vp (at the first one with no vp)', () => {
  const t = iqe(...TRIANGLE, 'vt 0 0', 'vt 1 0', 'vt 0 1', 'vt 1 1', 'vt 0.5 0.5');
  const d = one(t, 'attribute-count', commandRange(t, 8));
  relatedTo(d, commandRange(t, 3));
  assert.match(d.message, /\b5 'vt'/);
  assert.match(d.message, /\b3 vertices/);
});

test('attribute-count: fewer attribute lines than vp (at the last vp)', () => {
  const t = iqe('vp 0 0 0', 'vn 0 0 1', 'vp 1 0 0', 'vn 0 0 1', 'vp 0 1 0', 'fa 0 1 2');
  const d = one(t, 'attribute-count', commandRange(t, 5));
  relatedTo(d, commandRange(t, 4));
  assert.match(d.message, /2\b/);
  assert.match(d.message, /3\b/);
});

test('attribute-count: attributes in a file without vp', () => {
  const t = iqe('vn 0 0 1');
  one(t, 'attribute-count', commandRange(t, 1));
});

test('attribute-count: every kind is counted separately; equal counts are fine', () => {
  const kinds = ['vt 0 0', 'vn 0 0 1', 'vx 1 0 0 1', 'vb 0 1', 'vc 1 1 1', 'v0 1', 'v9 1', 'vs 0'];
  const lines: string[] = ['joint root'];
  for (let i = 0; i < 3; i++) lines.push(TRIANGLE_VERTICES[i], ...kinds);
  lines.push('fa 0 1 2');
  none(iqe(...lines), 'attribute-count');
  // Dropping one vc makes exactly that kind short.
  const short = lines.filter((l, i) => !(l === 'vc 1 1 1' && i > 20));
  const t = iqe(...short);
  const d = one(t, 'attribute-count', commandRange(t, lineOf(t, 'vp 0 1 0')));
  assert.match(d.message, /'vc'/);
});

test('vx-mixed-forms: both the 4-value and 6-value forms (at the first line of the second form)', () => {
  const t = iqe('vp 0 0 0', 'vx 1 0 0 1', 'vp 1 0 0', 'vx 1 0 0 0 1 0', 'vp 0 1 0', 'vx 1 0 0 -1', 'fa 0 1 2');
  const d = one(t, 'vx-mixed-forms', lineRange(t, 4));
  relatedTo(d, lineRange(t, 2));
  // One form only: fine.
  none(iqe('vp 0 0 0', 'vx 1 0 0 1', 'vp 1 0 0', 'vx 1 0 0 -1', 'vp 0 1 0', 'vx 1 0 0 1', 'fa 0 1 2'), 'vx-mixed-forms');
  none(iqe('vp 0 0 0', 'vx 1 0 0 0 1 0', 'vp 1 0 0', 'vx 1 0 0 0 1 0', 'vp 0 1 0', 'vx 1 0 0 0 1 0', 'fa 0 1 2'), 'vx-mixed-forms');
});

test('joint-parent: a parent that does not exist', () => {
  const t = iqe('joint a -1', 'joint b 5');
  const d = one(t, 'joint-parent', tokenRange(t, 2, '5'));
  assert.equal(d.related, undefined);
});

test('joint-parent: a forward reference points at the parent joint', () => {
  const t = iqe('joint a 1', 'joint b -1');
  const d = one(t, 'joint-parent', tokenRange(t, 1, '1'));
  relatedTo(d, tokenRange(t, 2, 'b'));
});

test('joint-parent: its own parent; a cycle', () => {
  let t = iqe('joint a -1', 'joint b 1');
  one(t, 'joint-parent', tokenRange(t, 2, '1'));
  t = iqe('joint a 1', 'joint b 0');
  const found = withCode(validateIqe(t), 'joint-parent');
  // Joint 0's parent 1 is a forward reference; joint 1 -> 0 -> 1 is a cycle, so both lines are wrong.
  assert.deepEqual(found.map((d) => d.range), [tokenRange(t, 1, '1'), tokenRange(t, 2, '0')]);
  assert.ok(found.every((d) => /cycle/.test(d.message)), describe(found));
});

test('columns are UTF-16 code units (LSP), not bytes or code points', () => {
  const t = iqe('joint "tête 𝕏" -1', 'joint "𝕏𝕏" 7');
  const d = one(t, 'joint-parent', { line: 2, column: 13, endLine: 2, endColumn: 14 });
  assert.deepEqual(d.range, tokenRange(t, 2, '7'));
});

test('joint-parent: roots and earlier parents are fine', () => {
  none(iqe('joint a -1', 'joint b 0', 'joint c 1', 'joint d 0', 'joint e'), 'joint-parent');
  none(iqe('joint "with space" -1', 'joint x 0'), 'joint-parent');
});

test('blend-joint-range: an index at or past the joint count, or negative', () => {
  let t = iqe('joint a', 'joint b 0', ...TRIANGLE_VERTICES.flatMap((v) => [v, 'vb 0 1']), 'fa 0 1 2');
  t = t.replace('vb 0 1\nvp 1 0 0', 'vb 2 1\nvp 1 0 0');
  one(t, 'blend-joint-range', tokenRange(t, 4, '2'));
  t = iqe('joint a', 'vp 0 0 0', 'vb 0 0.5 -1 0.5', 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2');
  one(t, 'blend-joint-range', tokenRange(t, 3, '-1'));
});

test('blend-joint-range: 256 or more with ubyte blend indexes', () => {
  // No joints: only the ubyte limit applies.
  const t = iqe('vp 0 0 0', 'vb 300 1', 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 255 1', 'fa 0 1 2');
  one(t, 'blend-joint-range', tokenRange(t, 2, '300'));
  // Declared ushort blend indexes hold it.
  none(t.replace('vp 0 0 0', 'vertexarray blendindexes ushort 4\nvp 0 0 0'), 'blend-joint-range');
});

test('frame-pose-count: a frame with too few or too many poses (at the frame line)', () => {
  let t = iqe('joint a', 'joint b 0', ...poses(2), 'animation run', 'frame', ...poses(2), 'frame', ...poses(1));
  one(t, 'frame-pose-count', commandRange(t, lineOf(t, 'frame', 8)));
  // Poses right after `animation` (no `frame`): at the animation line.
  t = iqe('joint a', 'joint b 0', ...poses(2), 'animation run', ...poses(3));
  one(t, 'frame-pose-count', commandRange(t, 5));
  none(iqe('joint a', 'joint b 0', ...poses(2), 'animation run', ...poses(2), 'frame', ...poses(2)), 'frame-pose-count');
});

test('pm-degenerate: a zero rotation column', () => {
  let t = iqe('joint a', 'pm 1 2 3 1 0 0 0 1 0 0 0 0');
  // The rotation values (A, B, C) are at fault; column z is zero.
  one(t, 'pm-degenerate', { line: 2, column: 9, endLine: 2, endColumn: 26 });
  // Missing matrix values are 0: a pm with no matrix, or none at all, is degenerate too.
  t = iqe('joint a', 'pm 1 2 3');
  one(t, 'pm-degenerate', lineRange(t, 2));
  t = iqe('joint a', 'pm');
  one(t, 'pm-degenerate', commandRange(t, 2));
  t = iqe('joint a', 'pm 0 0 0 1 0 0 0 1');
  one(t, 'pm-degenerate', spanRange(t, 2, '1', '1', 0, 1));
  none(iqe('joint a', 'pm 0 0 0 1 0 0 0 1 0 0 0 1 2 2 2'), 'pm-degenerate');
});

test('quaternion-zero: a zero pq quaternion', () => {
  const t = iqe('joint a', 'pq 1 2 3 0 0 0 0');
  one(t, 'quaternion-zero', { line: 2, column: 9, endLine: 2, endColumn: 16 });
  // Without Qw, w is derived as -1: not zero.
  none(iqe('joint a', 'pq 1 2 3 0 0 0'), 'quaternion-zero');
});

test('number-invalid: the token that does not parse', () => {
  let t = iqe('vp 1 x 3', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  one(t, 'number-invalid', tokenRange(t, 1, 'x'));
  t = iqe('vp 1,5 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  const comma = one(t, 'number-invalid', tokenRange(t, 1, '1,5'));
  assert.match(comma.message, /comma/);
  t = iqe(...TRIANGLE_VERTICES, 'fa 0/1 1/2 2/3');
  one(t, 'number-invalid', tokenRange(t, 4, '0/1'));
  t = iqe('vp 0 0 1.5abc', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  one(t, 'number-invalid', tokenRange(t, 1, '1.5abc'));
  t = iqe(...TRIANGLE_VERTICES, 'fa 0 1 2.5');
  one(t, 'number-invalid', tokenRange(t, 4, '2.5'));
});

test('number-invalid: inf and nan', () => {
  let t = iqe('vp inf 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  one(t, 'number-invalid', tokenRange(t, 1, 'inf'));
  t = iqe('vp 0 -NaN 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  one(t, 'number-invalid', tokenRange(t, 1, '-NaN'));
  t = iqe('vp 0 0 1e999', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  one(t, 'number-invalid', tokenRange(t, 1, '1e999'));
});

test('number-invalid: not for valid C numbers, nor extra values after the last one read', () => {
  clean(iqe('vp 1.5e0 -0 +0.0', 'vp 0x1p0 0 0', 'vp .0 1. 0E+0', 'fa 0 1 2'));
  // vp reads at most 4 values, vn 3: a fifth token is ignored (§2.4).
  clean(iqe('vp 0 0 0 1 extra', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2'));
  clean(iqe('vp 0 0 0', 'vn 0 0 1 1', 'vp 1 0 0', 'vn 0 0 1', 'vp 0 1 0', 'vn 0 0 1', 'fa 0 1 2'));
});

// ---------------------------------------------------------------------------------------------
// Warnings

test('face-index-clamped: a negative index before the first vertex', () => {
  let t = iqe(...TRIANGLE_VERTICES, 'fa -4 1 2');
  one(t, 'face-index-clamped', tokenRange(t, 4, '-4'));
  // -1 before any vp.
  t = iqe('fa -1 1 2', ...TRIANGLE_VERTICES);
  one(t, 'face-index-clamped', tokenRange(t, 1, '-1'));
  none(iqe(...TRIANGLE_VERTICES, 'fa -3 -2 -1'), 'face-index-clamped');
});

test('face-index-mesh: an fm index outside its mesh', () => {
  const t = iqe('mesh a', ...TRIANGLE_VERTICES, 'mesh b', ...TRIANGLE_VERTICES, 'fm 0 1 2', 'mesh c', 'fm -4 -1 -2');
  // Mesh c has no vertices of its own: -4, -1, -2 resolve to vertices 2, 5, 4 (meshes a and b).
  const found = withCode(validateIqe(t), 'face-index-mesh');
  assert.deepEqual(found.map((d) => d.range), ['-4', '-1', '-2'].map((i) => tokenRange(t, 11, i)), describe(validateIqe(t)));
  assert.ok(found.every((d) => d.severity === 'warning'));
  covered.add('face-index-mesh');
  const u = iqe('mesh a', ...TRIANGLE_VERTICES, 'fm 0 1 3', 'mesh b', ...TRIANGLE_VERTICES, 'fm 0 1 2');
  const d = one(u, 'face-index-mesh', tokenRange(u, 5, '3'));
  relatedTo(d, tokenRange(u, 1, 'a'));
  none(iqe('mesh a', ...TRIANGLE_VERTICES, 'fm 0 1 2', 'mesh b', ...TRIANGLE_VERTICES, 'fm 2 1 0', 'fm -1 -2 -3'), 'face-index-mesh');
});

test('face-too-few-indices: fewer than 3 indices', () => {
  let t = iqe(...TRIANGLE, 'fa 0 1');
  one(t, 'face-too-few-indices', lineRange(t, 5));
  t = iqe(...TRIANGLE, 'fm');
  one(t, 'face-too-few-indices', lineRange(t, 5));
});

test('repeated-section: a (mesh, material) pair after another section', () => {
  const t = iqe(
    ...TRIANGLE_VERTICES,
    'mesh a', 'material m', 'fa 0 1 2',
    'mesh b', 'material m', 'fa 0 1 2',
    'mesh a', 'material m', 'fa 0 1 2',
  );
  const d = one(t, 'repeated-section', commandRange(t, 12));
  relatedTo(d, lineRange(t, 4));
  // Without mesh commands: material sections; related to the first section's face.
  const u = iqe(...TRIANGLE_VERTICES, 'material a', 'fa 0 1 2', 'material b', 'fa 0 1 2', 'material a', 'fa 0 1 2');
  const e = one(u, 'repeated-section', commandRange(u, 9));
  relatedTo(e, lineRange(u, 5));
  // The same mesh again without another section in between continues it (§3.4).
  none(iqe(...TRIANGLE_VERTICES, 'mesh a', 'fa 0 1 2', 'mesh a', 'fa 0 1 2'), 'repeated-section');
  none(iqe(...TRIANGLE_VERTICES, 'mesh a', 'material m', 'fa 0 1 2', 'mesh a', 'material n', 'fa 0 1 2'), 'repeated-section');
});

test('degenerate-triangle: a repeated corner; a zero-area triangle', () => {
  let t = iqe(...TRIANGLE, 'fa 0 0 1');
  one(t, 'degenerate-triangle', lineRange(t, 5));
  t = iqe('vp 0 0 0', 'vp 1 1 1', 'vp 2 2 2', 'fa 0 1 2');
  one(t, 'degenerate-triangle', lineRange(t, 4));
  none(iqe('vp 0 0 0', 'vp 1 0 0', 'vp 1 1 0', 'vp 0 1 0', 'fa 0 1 2 3'), 'degenerate-triangle');
});

test('line-too-long: more than 511 bytes', () => {
  const long = `# ${'x'.repeat(600)}`;
  let t = iqe(...TRIANGLE, long);
  // The part the reference would read as a line of its own starts at byte 511.
  one(t, 'line-too-long', { line: 5, column: 511, endLine: 5, endColumn: long.length });
  none(iqe(...TRIANGLE, `# ${'x'.repeat(509)}`), 'line-too-long');
  none(iqe(...TRIANGLE, `mesh ${'é'.repeat(253)}`), 'line-too-long'); // 5 + 506 = 511 bytes
  // UTF-8 bytes count, not UTF-16 units: 5 + 2 * 254 = 513 bytes in 259 characters.
  t = iqe(...TRIANGLE, `mesh ${'é'.repeat(254)}`);
  // Byte 511 is inside the 254th 'é' (bytes 509..510 are the 253rd): the tail starts at column 258.
  one(t, 'line-too-long', { line: 5, column: 258, endLine: 5, endColumn: 259 });
});

test('unknown-command: wrong case, glued digit, unknown words', () => {
  for (const bad of ['VP 0 0 0', 'vp0 1 2 3', 'Mesh a', 'commentary', 'foo bar', '1 2 3', 'vq 1', 'meshes x']) {
    const t = iqe(...TRIANGLE, bad);
    one(t, 'unknown-command', commandRange(t, 5));
  }
  const d = validateIqe(iqe(...TRIANGLE, 'VP 0 0 0')).find((x) => x.code === 'unknown-command');
  assert.match(d!.message, /'vp'/);
});

test('unknown-command: not for comments, blank lines or known commands', () => {
  clean(iqe('# a comment', '', '   ', '\t', '  # indented comment', '#no space', ...TRIANGLE));
  clean(iqe(...TRIANGLE, 'vp\t1 1 1', 'fa\t0 1 3'));
  clean(iqe(...TRIANGLE, 'smoothgroup 1', 'smoothangle 45', 'smoothuv 1', 'fs 1 1 1'));
});

test('unterminated-quote: a quoted name without its closing quote', () => {
  const t = iqe(...TRIANGLE_VERTICES, 'mesh "my mesh', 'fa 0 1 2');
  one(t, 'unterminated-quote', { line: 4, column: 5, endLine: 4, endColumn: 13 });
  none(iqe(...TRIANGLE_VERTICES, 'mesh "my mesh"', 'material a"b', 'fa 0 1 2'), 'unterminated-quote');
});

test('quaternion-not-unit: w given and not unit length; xyz longer than 1 without w', () => {
  let t = iqe('joint a', 'pq 0 0 0 0 0 0 2');
  one(t, 'quaternion-not-unit', spanRange(t, 2, '0', '2', 3));
  t = iqe('joint a', 'pq 0 0 0 1 1 0');
  one(t, 'quaternion-not-unit', { line: 2, column: 9, endLine: 2, endColumn: 14 });
  t = iqe('joint a', 'pq 0 0 0 0 0 0 1.0002 1 1 1');
  one(t, 'quaternion-not-unit', { line: 2, column: 9, endLine: 2, endColumn: 21 });
});

test('quaternion-not-unit: within 1e-4 of unit length is fine', () => {
  none(iqe('joint a', 'pq 0 0 0 0 0 0 1.00009'), 'quaternion-not-unit');
  none(iqe('joint a', 'pq 0 0 0 0 0 0 -0.99991'), 'quaternion-not-unit');
  none(iqe('joint a', 'pq 0 0 0 0 0 0.7071068 0.7071068'), 'quaternion-not-unit');
  none(iqe('joint a', 'pq 0 0 0 0.5 0.5 0.5'), 'quaternion-not-unit');
  none(iqe('joint a', 'pq 0 0 0 1 0 0'), 'quaternion-not-unit');
  none(iqe('joint a', 'pq 1 2 3'), 'quaternion-not-unit');
});

test('pm-not-orthogonal: shear', () => {
  const t = iqe('joint a', 'pm 0 0 0 1 1 0 0 1 0 0 0 1');
  one(t, 'pm-not-orthogonal', { line: 2, column: 9, endLine: 2, endColumn: 26 });
  // Scale is not shear.
  none(iqe('joint a', 'pm 0 0 0 2 0 0 0 3 0 0 0 -4'), 'pm-not-orthogonal');
  none(iqe('joint a', 'pm 0 0 0 -1 0 0 0 1 0 0 0 1'), 'pm-not-orthogonal');
  const c = Math.cos(0.3), s = Math.sin(0.3);
  none(iqe('joint a', `pm 0 0 0 ${c} ${-s} 0 ${s} ${c} 0 0 0 1 2 2 2`), 'pm-not-orthogonal');
});

test('vertexarray-format: unknown TYPE, unknown FORMAT, SIZE outside 1..4', () => {
  let t = iqe('vertexarray colour ubyte 4', ...TRIANGLE);
  one(t, 'vertexarray-format', tokenRange(t, 1, 'colour'));
  t = iqe('vertexarray position fp32 3', ...TRIANGLE);
  one(t, 'vertexarray-format', tokenRange(t, 1, 'fp32'));
  t = iqe('vertexarray position float 5', ...TRIANGLE);
  one(t, 'vertexarray-format', tokenRange(t, 1, '5'));
  t = iqe('vertexarray position float 0', ...TRIANGLE);
  one(t, 'vertexarray-format', tokenRange(t, 1, '0'));
  // A missing word: at the command word (no empty range at the end of the line).
  t = iqe('vertexarray position float', ...TRIANGLE);
  one(t, 'vertexarray-format', commandRange(t, 1));
  t = iqe('vertexarray position', ...TRIANGLE);
  one(t, 'vertexarray-format', commandRange(t, 1));
});

test('vertexarray-format: a second declaration; a declaration without data', () => {
  let t = iqe('vertexarray position float 3', 'vertexarray position float 3', ...TRIANGLE);
  const d = one(t, 'vertexarray-format', lineRange(t, 2));
  relatedTo(d, lineRange(t, 1));
  t = iqe('vertexarray custom0 float 4 weights', ...TRIANGLE);
  one(t, 'vertexarray-format', lineRange(t, 1));
  t = iqe('vertexarray blendweights ubyte 4', ...TRIANGLE);
  one(t, 'vertexarray-format', lineRange(t, 1));
  // Normals are generated when triangles exist, tangents when texcoords exist too (§4.2).
  none(iqe('vertexarray normal float 3', ...TRIANGLE), 'vertexarray-format');
  none(iqe('vertexarray tangent float 4', 'vp 0 0 0', 'vt 0 0', 'vp 1 0 0', 'vt 1 0', 'vp 0 1 0', 'vt 0 1', 'fa 0 1 2'), 'vertexarray-format');
  t = iqe('vertexarray tangent float 4', ...TRIANGLE);
  one(t, 'vertexarray-format', lineRange(t, 1));
  t = iqe('vertexarray normal float 3', ...TRIANGLE_VERTICES);
  one(t, 'vertexarray-format', lineRange(t, 1));
  // Case-insensitive names, and declarations for arrays that have data, are fine.
  none(iqe('vertexarray POSITION Float 3', 'vertexarray Texcoord FLOAT 2', 'vp 0 0 0', 'vt 0 0', 'vp 1 0 0', 'vt 1 0', 'vp 0 1 0', 'vt 0 1', 'fa 0 1 2'), 'vertexarray-format');
});

test('vx-w: a 4-value vx whose w is not ±1', () => {
  const t = iqe('vp 0 0 0', 'vx 1 0 0 0.5', 'vp 1 0 0', 'vx 1 0 0 1', 'vp 0 1 0', 'vx 1 0 0 -1', 'fa 0 1 2');
  one(t, 'vx-w', tokenRange(t, 2, '0.5'));
  // The 6-value form has no w (it is computed); a 5-value vx is the bitangent form too (§3.1).
  none(iqe('vp 0 0 0', 'vx 1 0 0 0 1 0', 'vp 1 0 0', 'vx 1 0 0 0 1 0', 'vp 0 1 0', 'vx 1 0 0 0 1', 'fa 0 1 2'), 'vx-w');
});

test('base-pose-missing: joints without base poses while a mesh exists', () => {
  let t = iqe('joint a', 'joint b 0', 'joint c 1', 'pq 0 0 0 0 0 0 1', ...TRIANGLE);
  one(t, 'base-pose-missing', lineRange(t, 2));
  // No faces, no mesh: nothing to warn about.
  none(iqe('joint a', 'joint b 0', 'pq 0 0 0 0 0 0 1'), 'base-pose-missing');
  // More base poses than joints: at the first extra pose.
  t = iqe('joint a', ...poses(2), 'animation x', ...poses(1));
  one(t, 'base-pose-missing', lineRange(t, 3));
});

test('animation-empty: an animation without poses', () => {
  const t = iqe('joint a', ...poses(1), 'animation idle', 'animation run', ...poses(1));
  one(t, 'animation-empty', commandRange(t, 3));
  none(iqe('joint a', ...poses(1), 'animation idle', ...poses(1), 'frame', ...poses(1)), 'animation-empty');
  // The last animation, empty at the end of the file.
  const u = iqe('joint a', ...poses(1), 'animation idle', ...poses(1), 'animation end', 'framerate 10');
  one(u, 'animation-empty', commandRange(u, 5));
});

test('animation-command-outside: frame, framerate, loop before any animation; negative framerate', () => {
  for (const command of ['frame', 'framerate 30', 'loop']) {
    const t = iqe('joint a', ...poses(1), command);
    one(t, 'animation-command-outside', commandRange(t, 3));
  }
  const t = iqe('joint a', ...poses(1), 'animation a', 'framerate -5', ...poses(1));
  one(t, 'animation-command-outside', tokenRange(t, 4, '-5'));
  none(iqe('joint a', ...poses(1), 'animation a', 'framerate 0', 'loop', 'frame', ...poses(1)), 'animation-command-outside');
});

test('comment-trailing-text: text after comment on its line', () => {
  const t = iqe(...TRIANGLE, 'comment exported by me');
  one(t, 'comment-trailing-text', spanRange(t, 5, 'exported', 'me'));
  none(iqe(...TRIANGLE, 'comment', 'exported by me'), 'comment-trailing-text');
  none(iqe(...TRIANGLE, 'comment   '), 'comment-trailing-text');
});

test('weights-invalid: a small or negative weight, a joint twice, no weight in an animated model', () => {
  const skinned = (vb0: string): string =>
    iqe('joint a', 'joint b 0', ...poses(2), 'vp 0 0 0', vb0, 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 1 1', 'fa 0 1 2');
  let t = skinned('vb 0 0.9995 1 0.0005');
  one(t, 'weights-invalid', spanRange(t, 6, '1', '0.0005'));
  t = skinned('vb 0 1.5 1 -0.5');
  one(t, 'weights-invalid', spanRange(t, 6, '1', '-0.5'));
  t = skinned('vb 0 0.5 0 0.5');
  one(t, 'weights-invalid', tokenRange(t, 6, '0', 1));
  // A vertex without weights while the model has joints and animations.
  const animated = (vb0: string): string =>
    iqe('joint a', ...poses(1), 'vp 0 0 0', vb0, 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2', 'animation a', ...poses(1));
  t = animated('vb');
  one(t, 'weights-invalid', commandRange(t, 4));
  t = animated('vb 0 0');
  one(t, 'weights-invalid', lineRange(t, 4));
});

test('weights-invalid: explicit 0 weights (padding) do not warn; no weights without animation do not warn', () => {
  none(iqe('joint a', 'joint b 0', ...poses(2), 'vp 0 0 0', 'vb 0 1 1 0', 'vp 1 0 0', 'vb 0 1 1 0 0 0 0 0', 'vp 0 1 0', 'vb 1 1', 'fa 0 1 2'), 'weights-invalid');
  // Not animated: an unweighted vertex is just static.
  none(iqe('joint a', ...poses(1), 'vp 0 0 0', 'vb', 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2'), 'weights-invalid');
  none(iqe('joint a', ...poses(1), 'vp 0 0 0', 'vb 0 0', 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2'), 'weights-invalid');
});

test('fs-count: too few flags; arity and count mismatches', () => {
  let t = iqe(...TRIANGLE, 'fs 1 1');
  one(t, 'fs-count', lineRange(t, 5));
  const quad = ['vp 0 0 0', 'vp 1 0 0', 'vp 1 1 0', 'vp 0 1 0'];
  t = iqe(...quad, 'fa 0 1 2 3', 'fs 1 1 1');
  const d = one(t, 'fs-count', lineRange(t, 6));
  relatedTo(d, lineRange(t, 5));
  // Fewer fs than faces: at the last fs, pointing at the first face without one.
  t = iqe(...quad, 'fa 0 1 2', 'fs 1 1 1', 'fa 0 2 3');
  const e = one(t, 'fs-count', lineRange(t, 6));
  relatedTo(e, lineRange(t, 7));
  // More fs than faces: at the first extra one.
  t = iqe(...quad, 'fa 0 1 2', 'fs 1 1 1', 'fs 0 0 0');
  one(t, 'fs-count', lineRange(t, 7));
  none(iqe(...quad, 'fa 0 1 2 3', 'fs 1 0 1 1'), 'fs-count');
});

test('no-faces: vertices but no faces (at the first vp)', () => {
  const t = iqe('mesh m', ...TRIANGLE_VERTICES);
  one(t, 'no-faces', commandRange(t, 2));
  none(iqe('joint a', ...poses(1), 'animation a', ...poses(1)), 'no-faces');
});

test('value-missing: smoothgroup, smoothangle, vs, framerate without a value', () => {
  for (const command of ['smoothgroup', 'smoothangle']) {
    const t = iqe(...TRIANGLE_VERTICES, command, 'fa 0 1 2');
    one(t, 'value-missing', commandRange(t, 4));
  }
  let t = iqe('vp 0 0 0', 'vs', 'vp 1 0 0', 'vs 1', 'vp 0 1 0', 'vs 2', 'fa 0 1 2');
  one(t, 'value-missing', commandRange(t, 2));
  t = iqe('joint a', ...poses(1), 'animation a', 'framerate', ...poses(1));
  one(t, 'value-missing', commandRange(t, 4));
  // smoothuv without a value turns UV smoothing on: nothing is missing.
  none(iqe(...TRIANGLE_VERTICES, 'smoothuv', 'fa 0 1 2'), 'value-missing');
  // An unparsable value is number-invalid, not value-missing.
  none(iqe(...TRIANGLE_VERTICES, 'smoothgroup x', 'fa 0 1 2'), 'value-missing');
});

// ---------------------------------------------------------------------------------------------
// Information

test('polygon-triangulated: more than 3 indices', () => {
  const t = iqe('vp 0 0 0', 'vp 1 0 0', 'vp 1 1 0', 'vp 0 1 0', 'vp -1 1 0', 'fa 0 1 2 3 4');
  one(t, 'polygon-triangulated', spanRange(t, 6, '3', '4'));
  none(iqe(...TRIANGLE), 'polygon-triangulated');
});

test('blend-influences: more than 4 kept influences', () => {
  const joints5 = jointLines(5);
  const t = iqe(...joints5, ...poses(5), 'vp 0 0 0', 'vb 0 .2 1 .2 2 .2 3 .2 4 .2', 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2');
  one(t, 'blend-influences', spanRange(t, 12, '4', '.2', 0, 4));
  // A dropped (zero) weight does not count.
  none(iqe(...joints5, ...poses(5), 'vp 0 0 0', 'vb 0 .25 1 .25 2 .25 3 .25 4 0', 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2'), 'blend-influences');
});

test('unreferenced-vertex: a vertex or a run of vertices no face uses', () => {
  let t = iqe(...TRIANGLE, 'vp 5 5 5');
  one(t, 'unreferenced-vertex', lineRange(t, 5));
  t = iqe('vp 9 9 9', 'vp 8 8 8', ...TRIANGLE_VERTICES, 'fa 2 3 4');
  one(t, 'unreferenced-vertex', { line: 1, column: 0, endLine: 2, endColumn: 8 });
});

test('reference-smoothing: smoothangle > 90 or 180; vs present (once)', () => {
  let t = iqe(...TRIANGLE_VERTICES, 'smoothangle 120', 'fa 0 1 2');
  one(t, 'reference-smoothing', tokenRange(t, 4, '120'));
  t = iqe(...TRIANGLE_VERTICES, 'smoothangle 180', 'fa 0 1 2');
  one(t, 'reference-smoothing', tokenRange(t, 4, '180'));
  // The angle's sign does not matter (cos is even): -120 is treated like 120.
  t = iqe(...TRIANGLE_VERTICES, 'smoothangle -120', 'fa 0 1 2');
  one(t, 'reference-smoothing', tokenRange(t, 4, '-120'));
  t = iqe('vp 0 0 0', 'vs 0', 'vp 1 0 0', 'vs 1', 'vp 0 1 0', 'vs 2', 'fa 0 1 2');
  one(t, 'reference-smoothing', commandRange(t, 2));
  none(iqe(...TRIANGLE_VERTICES, 'smoothangle 90', 'smoothangle 45', 'smoothangle -90', 'smoothangle 0', 'fa 0 1 2'), 'reference-smoothing');
});

test('reference-vx: vx present (once, at the first)', () => {
  const t = iqe('vp 0 0 0', 'vx 1 0 0 1', 'vp 1 0 0', 'vx 1 0 0 1', 'vp 0 1 0', 'vx 1 0 0 1', 'fa 0 1 2');
  one(t, 'reference-vx', commandRange(t, 2));
});

test('comment-swallows: commands after comment are comment text and never diagnosed', () => {
  const t = iqe(...TRIANGLE, 'comment', 'vp 1 2 3', 'fa 0 1 99', 'VP bad', 'vp 1,5', 'mesh "x', `# ${'x'.repeat(600)}`);
  const d = one(t, 'comment-swallows', commandRange(t, 5));
  // vp, fa, vp and mesh look like commands; `VP` and the `#` line do not.
  assert.match(d.message, /\b4\b/);
  const after = validateIqe(t).filter((x) => x.range.line > 5);
  assert.deepEqual(after, [], describe(after));
  none(iqe(...TRIANGLE, 'comment', 'just text', '# and a hash'), 'comment-swallows');
});

test('comment: commands after it are not read, so cross-line checks do not see them either', () => {
  // The vertices after `comment` are comment text: the face indexes nothing.
  let t = iqe('fa 0 1 2', 'comment', ...TRIANGLE_VERTICES);
  assert.deepEqual(withCode(validateIqe(t), 'face-index-range').map((d) => d.range), ['0', '1', '2'].map((i) => tokenRange(t, 1, i)));
  // The face after `comment` is comment text: the vertices have no faces.
  t = iqe(...TRIANGLE_VERTICES, 'comment', 'fa 0 1 2');
  one(t, 'no-faces', commandRange(t, 1));
  // An animation after `comment` does not exist.
  none(iqe('joint a', ...poses(1), 'vp 0 0 0', 'vb', ...TRIANGLE_VERTICES.slice(1).flatMap((v) => [v, 'vb 0 1']), 'fa 0 1 2', 'comment', 'animation a', ...poses(1)), 'weights-invalid');
});

test('joint-parent-negative: a parent below -1', () => {
  const t = iqe('joint a -2');
  one(t, 'joint-parent-negative', tokenRange(t, 1, '-2'));
  none(iqe('joint a -1', 'joint b'), 'joint-parent-negative');
});

test('engine-compat: more than 256 joints (at joint 256)', () => {
  const t = iqe(...jointLines(257));
  one(t, 'engine-compat', lineRange(t, 257));
  none(iqe(...jointLines(256)), 'engine-compat');
});

test('engine-compat: a vertex array format other than float or ubyte (at the format)', () => {
  const t = iqe('vertexarray position half 3', ...TRIANGLE);
  one(t, 'engine-compat', tokenRange(t, 1, 'half'));
  none(iqe('vertexarray position float 3', 'vertexarray color ubyte 4', 'vp 0 0 0', 'vc 1 0 0', 'vp 1 0 0', 'vc 1 0 0', 'vp 0 1 0', 'vc 1 0 0', 'fa 0 1 2'), 'engine-compat');
});

// ---------------------------------------------------------------------------------------------
// Options

/** A file with exactly 10 problems: ten unknown commands. */
const TEN = iqe(...TRIANGLE, ...Array.from({ length: 10 }, (_, i) => `bad${i}`));

test('options: ignore removes a code', () => {
  assert.equal(validateIqe(TEN).length, 10);
  assert.deepEqual(validateIqe(TEN, { ignore: ['unknown-command'] }), []);
  const t = iqe(...TRIANGLE, 'fa 0 1 7', 'Foo');
  assert.deepEqual(validateIqe(t, { ignore: ['face-index-range'] }).map((d) => d.code), ['unknown-command']);
  assert.deepEqual(validateIqe(t, { ignore: ['unknown-command'] }).map((d) => d.code), ['face-index-range']);
});

test('options: severity overrides a code', () => {
  const d = validateIqe(iqe(...TRIANGLE, 'Foo'), { severity: { 'unknown-command': 'error' } });
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'error');
  const e = validateIqe(iqe(...TRIANGLE_VERTICES, 'fa 0 1 7'), { severity: { 'face-index-range': 'hint' } });
  assert.equal(withCode(e, 'face-index-range')[0].severity, 'hint');
});

test('options: maxProblems caps the list and one too-many-problems entry counts the rest', () => {
  const d = validateIqe(TEN, { maxProblems: 3 });
  assert.equal(d.length, 4);
  assert.deepEqual(d.slice(0, 3).map((x) => x.range.line), [5, 6, 7]);
  const last = d[3];
  assert.equal(last.code, 'too-many-problems');
  assert.equal(last.severity, defaultSeverity('too-many-problems'));
  assert.match(last.message, /\b7\b/);
  // It points at the first problem left out.
  assert.deepEqual(last.range, commandRange(TEN, 8));
  covered.add('too-many-problems');
  // Cross-line problems are capped too.
  const faces = iqe(...TRIANGLE, ...Array.from({ length: 10 }, () => 'fa 0 1 9'));
  const f = validateIqe(faces, { maxProblems: 3 });
  assert.equal(f.length, 4);
  assert.match(f[3].message, /\b7\b/);
  // Ignoring too-many-problems: just the cap.
  assert.deepEqual(validateIqe(TEN, { maxProblems: 3, ignore: ['too-many-problems'] }).map((x) => x.code), ['unknown-command', 'unknown-command', 'unknown-command']);
  // Exactly the limit: no extra entry.
  assert.equal(validateIqe(TEN, { maxProblems: 10 }).length, 10);
  // Ignored codes do not count towards the limit.
  assert.equal(validateIqe(iqe(...TRIANGLE, 'fa 0 1 7', ...Array.from({ length: 10 }, (_, i) => `bad${i}`)), { maxProblems: 3, ignore: ['unknown-command'] }).length, 1);
});

test('every code has a case here (engine-compat and too-many-problems included)', () => {
  const missing = CODES.filter((c) => !covered.has(c));
  assert.deepEqual(missing, []);
});

// ---------------------------------------------------------------------------------------------
// Invariants on random files: every range lies on its line, related ranges too, messages are
// complete sentences, nothing after `comment` is diagnosed, severities are the defaults.

test('random files: ranges within their lines, no diagnostics after comment, complete messages', () => {
  const random = prng(99);
  const pool = [
    'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'vp 1 1 1', 'vp x', 'vp 1,5 2', 'vt 0 0', 'vn 0 0 1', 'vx 1 0 0 1', 'vx 1 0 0 0 1 0', 'vx 1 0 0 0.5',
    'vb 0 1', 'vb 0 0.0001 1 0.5 1 0.5', 'vb 7 1', 'vb', 'vc 1 0 0', 'v3 1', 'vs 1', 'vs', 'pq 0 0 0 0 0 0 1', 'pq 0 0 0 0 0 0 0', 'pq 0 0 0 1 1 1',
    'pm 0 0 0 1 0 0 0 1 0 0 0 1', 'pm 0 0 0 1 1 0 0 1 0 0 0 0', 'pa 0 0 0 1 2 3', 'fa 0 1 2', 'fa 0 1 2 3', 'fa 0 0 1', 'fa 0 1', 'fa -9 0 1',
    'fa 0 1 99', 'fm 0 1 2', 'fm 0 1 5', 'fs 1 1 1', 'fs 1', 'smoothgroup', 'smoothangle 120', 'smoothuv', 'mesh a', 'mesh "b', 'material m',
    'material "x y"', 'joint a', 'joint b 0', 'joint c 9', 'joint d -3', 'vertexarray position float 3', 'vertexarray foo bar 9', 'vertexarray',
    'vertexarray color half', 'animation', 'animation x', 'frame', 'framerate -2', 'framerate', 'loop', 'comment', 'comment text', '# c', '',
    'VP 1', 'vp0', 'foo', `# ${'é'.repeat(300)}`, '  vp 0 0 0  ', '\tfa 0 1 2\t',
  ];
  const severities = new Set(['error', 'warning', 'information', 'hint']);
  for (let n = 0; n < 1500; n++) {
    const count = 1 + randomInt(random, 25);
    const lines = [random() < 0.95 ? HEADER : pool[randomInt(random, pool.length)]];
    for (let i = 0; i < count; i++) lines.push(pool[randomInt(random, pool.length)]);
    const eol = random() < 0.2 ? '\r\n' : '\n';
    const text = lines.join(eol) + (random() < 0.5 ? eol : '');
    const all = lines.concat(text.endsWith(eol) ? [''] : []);
    const commentLine = all.findIndex((l, i) => i > 0 && /^\s*comment(\s|$)/.test(l));
    const check = (range: Range, what: string): void => {
      assert.ok(range.line >= 0 && range.line < all.length, what);
      assert.ok(range.endLine >= range.line && range.endLine < all.length, what);
      assert.ok(range.column >= 0 && range.column <= all[range.line].length, what);
      assert.ok(range.endColumn >= 0 && range.endColumn <= all[range.endLine].length, what);
      if (range.endLine === range.line) assert.ok(range.column <= range.endColumn, what);
    };
    for (const d of validateIqe(text)) {
      const what = `${JSON.stringify(text)}\n${describe([d])}`;
      check(d.range, what);
      for (const r of d.related ?? []) check(r.range, `related: ${what}`);
      assert.ok(severities.has(d.severity), what);
      assert.equal(d.severity, defaultSeverity(d.code as Code), what);
      assert.ok(!/undefined|NaN|\[object/.test(d.message.replace('the pose becomes NaN', '').replace('the rotation is undefined', '')), `message: ${what}`);
      // A range is empty only at an empty line or for the header of an empty first line.
      if (d.range.line === d.range.endLine && d.range.column === d.range.endColumn) {
        assert.equal(all[d.range.line].trim(), '', `empty range on a non-empty line: ${what}`);
      }
      if (commentLine >= 0) assert.ok(d.range.line <= commentLine, `after comment: ${what}`);
    }
  }
});

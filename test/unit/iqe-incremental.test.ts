// IqeDocument.update must give exactly the diagnostics of a fresh parse of the new text, whatever
// the edit: a property test with a seeded PRNG over a document several chunks long, with edits
// inside chunks, across chunk boundaries, at the start and the end, and before parsing finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_CHARS } from '../../core/iqe/chunk';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { IqeDocument, validateIqe } from '../../core/iqe/document';
import { HEADER, prng, randomInt } from '../helpers/iqe-fixtures';

type Random = () => number;

/** A random line: mostly valid geometry, sometimes a planted problem. */
function randomLine(random: Random, vertexHint: number): string {
  const r = randomInt(random, 100);
  const v = (): number => randomInt(random, Math.max(3, vertexHint));
  if (r < 40) return `vp ${randomInt(random, 1000) / 10} ${randomInt(random, 1000) / 10} ${randomInt(random, 1000) / 10}`;
  if (r < 70) return `fa ${v()} ${v()} ${v()}`;
  if (r < 72) return `fa ${v()} ${v()} ${v() + 100000}`; // face-index-range
  if (r < 74) return `vp 1,5 0 ${v()}`; // number-invalid
  if (r < 76) return 'VP 1 2 3'; // unknown-command
  if (r < 78) return ''; // blank
  if (r < 80) return '# a comment';
  if (r < 82) return `mesh "m${randomInt(random, 5)}`; // unterminated-quote
  if (r < 85) return `mesh m${randomInt(random, 5)}`;
  if (r < 87) return `material t${randomInt(random, 3)}`;
  if (r < 89) return `fa ${v()} ${v()}`; // face-too-few-indices
  if (r < 91) return `fa -${v() + 1} ${v()} ${v()} ${v()}`; // polygon, perhaps clamped
  if (r < 92) return `joint j${randomInt(random, 9)} ${randomInt(random, 4) - 1}`;
  if (r < 93) return 'pq 0 0 0 0 0 0 2';
  if (r < 94) return `vt ${random()} ${random()}`; // attribute-count
  if (r < 95) return 'animation a';
  if (r < 96) return 'frame';
  if (r < 97) return `smoothangle ${randomInt(random, 200)}`;
  if (r < 98) return `vertexarray position float ${randomInt(random, 6)}`;
  if (r < 99) return `# ${'x'.repeat(520)}`; // line-too-long
  // `comment` makes everything after it comment text: rare, and removed again (runProperty).
  return random() < 0.2 ? 'comment' : `fm 0 1 ${v()}`;
}

/** About `chars` characters of vp/fa lines with a few problems planted. */
function bigDocument(random: Random, chars: number): string[] {
  const lines = [HEADER, 'mesh body', 'material skin'];
  let size = 0;
  let vertices = 0;
  while (size < chars) {
    let l: string;
    const r = random();
    if (r < 0.55) {
      l = `vp ${(random() * 100).toFixed(4)} ${(random() * 100).toFixed(4)} ${(random() * 100).toFixed(4)}`;
      vertices++;
    } else if (r < 0.97 && vertices >= 3) {
      const a = randomInt(random, vertices);
      l = `fa ${a} ${(a + 1) % vertices} ${(a + 2) % vertices}`;
    } else {
      l = randomLine(random, vertices);
      if (l === 'comment') l = 'fa 0 1 2';
    }
    lines.push(l);
    size += l.length + 1;
  }
  return lines;
}

function compare(doc: IqeDocument, text: string, what: string): void {
  assert.equal(doc.text, text);
  // Line numbering as LSP's: '\n', '\r\n' or a lone '\r' end a line.
  const lineCount = doc.parsedChunks.reduce((n, c) => n + c.lineCount, 0);
  assert.equal(lineCount, text.split(/\r\n|\r|\n/).length, `${what}: line count`);
  const fresh = validateIqe(text);
  const incremental: IqeDiagnostic[] = doc.diagnostics();
  if (incremental.length !== fresh.length) {
    assert.fail(`${what}: ${incremental.length} diagnostics after update, ${fresh.length} fresh`);
  }
  assert.deepEqual(incremental, fresh, what);
}

/** Line numbers where chunks begin (for edits across chunk boundaries). */
function chunkBoundaries(doc: IqeDocument): number[] {
  return doc.parsedChunks.map((c) => c.firstLine).filter((l) => l > 0);
}

interface Edit {
  start: number;
  oldEnd: number;
  replacement: string[];
  kind: string;
}

/** A random edit: lines start..oldEnd are replaced by `replacement` (at least one line). */
function randomEdit(random: Random, lines: readonly string[], boundaries: readonly number[], vertexHint: number): Edit {
  const n = lines.length;
  const pick = randomInt(random, 9);
  let start: number;
  if (pick === 0 && boundaries.length > 0) {
    // Around a chunk boundary.
    const b = boundaries[randomInt(random, boundaries.length)];
    start = Math.max(0, b - randomInt(random, 3));
  } else if (pick === 1) start = Math.max(0, n - 1 - randomInt(random, 4)); // at the end
  else if (pick === 2) start = randomInt(random, Math.min(n, 4)); // at the start (header too)
  else start = randomInt(random, n);
  start = Math.min(start, n - 1);
  const span = randomInt(random, 5) === 0 ? randomInt(random, 400) : randomInt(random, 4);
  const oldEnd = Math.min(n - 1, start + span);
  const old = lines.slice(start, oldEnd + 1);
  const op = randomInt(random, 7);
  switch (op) {
    case 0: // replace each line
      return { start, oldEnd, replacement: old.map(() => randomLine(random, vertexHint)), kind: 'replace' };
    case 1: { // insert lines before `start`
      const added = Array.from({ length: 1 + randomInt(random, span > 10 ? 300 : 5) }, () => randomLine(random, vertexHint));
      return { start, oldEnd: start, replacement: [...added, lines[start]], kind: 'insert' };
    }
    case 2: // delete lines start..oldEnd-1 (keep the last)
      return { start, oldEnd, replacement: [lines[oldEnd]], kind: 'delete' };
    case 3: { // split a line in two
      const l = lines[start];
      const at = randomInt(random, l.length + 1);
      return { start, oldEnd: start, replacement: [l.slice(0, at), l.slice(at)], kind: 'split' };
    }
    case 4: // join a line with the next
      if (start + 1 < n) return { start, oldEnd: start + 1, replacement: [lines[start] + lines[start + 1]], kind: 'join' };
      return { start, oldEnd: start, replacement: [lines[start] + ' 7'], kind: 'append' };
    case 5: { // a character edit inside a line
      const l = lines[start];
      const at = randomInt(random, l.length + 1);
      const chars = ['0', '9', ' ', '"', ',', '-', 'x', '#', '.'];
      return { start, oldEnd: start, replacement: [l.slice(0, at) + chars[randomInt(random, chars.length)] + l.slice(at + randomInt(random, 2))], kind: 'char' };
    }
    default: // replace the range with a different number of lines
      return { start, oldEnd, replacement: Array.from({ length: 1 + randomInt(random, old.length + 3) }, () => randomLine(random, vertexHint)), kind: 'resize' };
  }
}

function apply(lines: string[], edit: Edit): void {
  lines.splice(edit.start, edit.oldEnd - edit.start + 1, ...edit.replacement);
}

function runProperty(seed: number, eol: string, edits: number, partial: boolean): void {
  const random = prng(seed);
  const lines = bigDocument(random, 200 * 1024);
  let text = lines.join(eol);
  assert.ok(text.length > 4 * CHUNK_CHARS);
  const doc = new IqeDocument(text);
  compare(doc, text, 'initial');
  for (let e = 0; e < edits; e++) {
    const boundaries = partial ? [] : chunkBoundaries(doc);
    if (partial) doc.parseSome(randomInt(random, 3 * CHUNK_CHARS));
    const edit = randomEdit(random, lines, boundaries, 3000);
    apply(lines, edit);
    text = lines.join(eol);
    doc.update(text, edit.start, edit.oldEnd, edit.start + edit.replacement.length - 1);
    // A `comment` line hides every later problem: take it out again soon (an edit too).
    const comment = lines.indexOf('comment');
    if (comment >= 0 && random() < 0.5) {
      lines[comment] = '# was a comment';
      text = lines.join(eol);
      doc.update(text, comment, comment, comment);
    }
    // Compare after most edits; sometimes chain a few edits first.
    if (randomInt(random, 4) !== 0 || e === edits - 1) {
      compare(doc, text, `seed ${seed}, edit ${e} (${edit.kind} ${edit.start}..${edit.oldEnd} -> ${edit.replacement.length} lines)`);
    }
  }
}

test('update gives the diagnostics of a fresh parse: 300 random line edits on a 200 KB document', () => {
  runProperty(1, '\n', 300, false);
});

test('update with CRLF line ends: 100 random edits', () => {
  runProperty(2, '\r\n', 100, false);
});

test('update before parsing finished (parseSome in slices between edits): 150 random edits', () => {
  runProperty(3, '\n', 150, true);
});

test('parseSome in slices gives the same diagnostics as one pass', () => {
  const random = prng(4);
  const text = bigDocument(random, 150 * 1024).join('\n');
  const fresh = validateIqe(text);
  for (const slice of [1, 1000, CHUNK_CHARS, 50000]) {
    const doc = new IqeDocument(text);
    let steps = 0;
    while (!doc.parseSome(slice)) steps++;
    assert.ok(steps >= 1);
    assert.deepEqual(doc.diagnostics(), fresh, `slice ${slice}`);
  }
});

test('update then parseSome: an edit in the parsed part, then one in the unparsed tail', () => {
  const random = prng(5);
  const lines = bigDocument(random, 150 * 1024);
  const doc = new IqeDocument(lines.join('\n'));
  doc.parseSome(CHUNK_CHARS);
  // In the parsed part.
  lines.splice(10, 1, 'fa 0 1 999999', 'VP 1');
  doc.update(lines.join('\n'), 10, 10, 11);
  doc.parseSome(CHUNK_CHARS);
  // Far in the tail, not parsed yet.
  const far = lines.length - 20;
  lines.splice(far, 3, 'vp 1,5 0 0');
  doc.update(lines.join('\n'), far, far + 2, far);
  // Straddling the parsed end.
  const parsedLines = doc.lineCount;
  lines.splice(parsedLines - 2, 4, 'mesh "open', '', 'fa 1 2');
  doc.update(lines.join('\n'), parsedLines - 2, parsedLines + 1, parsedLines);
  const text = lines.join('\n');
  compare(doc, text, 'after tail edits');
});

test('edit in the unparsed tail: the text is parsed up to the edit and no further, and ends as a fresh parse', () => {
  // A burst of edits just after a file opens lands in the unparsed tail: each once re-scanned and
  // re-parsed the text from its start (issue 17, the soak's waits).
  const random = prng(6);
  const lines = bigDocument(random, 200 * 1024);
  const doc = new IqeDocument(lines.join('\n'));
  doc.parseSome(CHUNK_CHARS);
  for (const at of [Math.floor(lines.length / 3), Math.floor(lines.length / 2), Math.floor((2 * lines.length) / 3)]) {
    doc.edit(at, 0, at, 0, 'vp 9 9 9\n');
    lines.splice(at, 0, 'vp 9 9 9');
    assert.ok(doc.lineCount > at, `parsed up to line ${at}: ${doc.lineCount}`);
    assert.ok(doc.lineCount < lines.length - CHUNK_CHARS / 20, `not parsed whole after an edit at line ${at}: ${doc.lineCount} of ${lines.length}`);
  }
  compare(doc, lines.join('\n'), 'after edits in the tail');
});

test('update: small documents, edits of the header and of the last line', () => {
  const lines = [HEADER, 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2', ''];
  const doc = new IqeDocument(lines.join('\n'));
  compare(doc, lines.join('\n'), 'initial');
  const steps: [number, number, string[]][] = [
    [0, 0, ['# Inter-Quake Expor']],
    [0, 0, [HEADER]],
    [5, 5, ['fa 0 1 7']],
    [5, 5, ['fa 0 1 2', 'comment', 'vp 1 2 3', '']],
    [6, 8, ['']],
    [0, 5, ['']],
    [0, 0, [HEADER, 'vp 0 0 0', 'fa 0 0 0']],
  ];
  for (const [start, oldEnd, replacement] of steps) {
    lines.splice(start, oldEnd - start + 1, ...replacement);
    doc.update(lines.join('\n'), start, oldEnd, start + replacement.length - 1);
    compare(doc, lines.join('\n'), `${start}..${oldEnd} -> ${JSON.stringify(replacement)}`);
  }
});

// ---------------------------------------------------------------------------------------------
// IqeDocument.edit: LSP-style character edits (range in line/character, new text).

/** Start offset of each line, LSP-style ('\n', '\r\n' or a lone '\r' end a line). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** Offset of (line, character), the character clamped to the line's content (LSP). */
function offsetAt(text: string, starts: readonly number[], lineNumber: number, character: number): number {
  if (lineNumber >= starts.length) return text.length;
  const start = starts[lineNumber];
  let end = lineNumber + 1 < starts.length ? starts[lineNumber + 1] : text.length;
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return start + Math.min(character, end - start);
}

const PIECES = ['', '\n', '\r\n', '\r', ' ', '0', '7', 'x', '"', 'fa 0 1 2\n', 'vp 1 2 3\n', 'VP 1\n', '\nfa 0 1 99999', 'vp 1,5 0 0\r\n', 'comment\n', '\n# c\n', 'mesh "m'];

function randomText(random: Random): string {
  let s = '';
  const n = randomInt(random, 4);
  for (let i = 0; i < n; i++) s += PIECES[randomInt(random, PIECES.length)];
  if (randomInt(random, 10) === 0) s += Array.from({ length: randomInt(random, 200) }, () => randomLine(random, 3000)).join('\n');
  return s;
}

/** `partial`: edits arrive while the document is still partly parsed (parseSome slices). */
function runEditProperty(seed: number, eol: string, edits: number, partial = false): number {
  const random = prng(seed);
  let text = bigDocument(random, 120 * 1024).join(eol);
  let doc = new IqeDocument(text);
  let editsWhileParsing = 0;
  if (partial) doc.parseSome(randomInt(random, 2 * CHUNK_CHARS) + 1);
  else compare(doc, text, 'initial');
  for (let e = 0; e < edits; e++) {
    const starts = lineStarts(text);
    const lines = starts.length;
    let startLine: number;
    const where = randomInt(random, 6);
    if (where === 0) {
      const boundaries = chunkBoundaries(doc);
      startLine = Math.max(0, (boundaries[randomInt(random, boundaries.length)] ?? 0) - randomInt(random, 2));
    } else if (where === 1) startLine = Math.max(0, lines - 1 - randomInt(random, 3));
    else startLine = randomInt(random, lines);
    const endLine = Math.min(lines - 1, startLine + (randomInt(random, 6) === 0 ? randomInt(random, 300) : randomInt(random, 3)));
    const startCharacter = randomInt(random, 40);
    const endCharacter = startLine === endLine ? startCharacter + randomInt(random, 10) : randomInt(random, 40);
    const newText = randomText(random);
    const from = offsetAt(text, starts, startLine, startCharacter);
    const to = Math.max(from, offsetAt(text, starts, endLine, endCharacter));
    text = text.slice(0, from) + newText + text.slice(to);
    if (!doc.parseSome(0)) editsWhileParsing++;
    doc.edit(startLine, startCharacter, endLine, endCharacter, newText);
    // A `comment` hides later problems: remove it again soon.
    const comment = text.indexOf('comment');
    if (comment >= 0 && random() < 0.7) {
      const s = lineStarts(text);
      let l = 0;
      while (l + 1 < s.length && s[l + 1] <= comment) l++;
      doc.edit(l, comment - s[l], l, comment - s[l] + 7, '#');
      text = text.slice(0, comment) + '#' + text.slice(comment + 7);
    }
    if (partial ? randomInt(random, 6) === 0 || e === edits - 1 : randomInt(random, 3) !== 0 || e === edits - 1) {
      compare(doc, text, `seed ${seed}, edit ${e}: (${startLine}:${startCharacter})-(${endLine}:${endCharacter}) <- ${JSON.stringify(newText.slice(0, 40))}`);
      if (partial) {
        doc = new IqeDocument(text);
        doc.parseSome(randomInt(random, 2 * CHUNK_CHARS) + 1);
      }
    }
    if (randomInt(random, 20) === 0) doc.parseSome(randomInt(random, CHUNK_CHARS));
  }
  return editsWhileParsing;
}

test('edit while the document is still being parsed: 300 random character edits, slices between', () => {
  const whileParsing = runEditProperty(31, '\n', 300, true);
  assert.ok(whileParsing > 20, `only ${whileParsing} edits arrived before parsing finished`);
});

test('edit gives the diagnostics of a fresh parse: 300 random character edits (LF)', () => {
  runEditProperty(11, '\n', 300);
});

test('edit with CRLF line ends and stray CRs: 200 random character edits', () => {
  runEditProperty(12, '\r\n', 200);
});

test('edit: joining a lone CR with an LF, splitting a CRLF, edits past the end', () => {
  let text = `${HEADER}\rvp 0 0 0\rvp 1 0 0\rvp 0 1 0\rfa 0 1 2\r`;
  const doc = new IqeDocument(text);
  compare(doc, text, 'initial');
  // An LF at the start of line 2 joins the CR before it: one line break, not two.
  doc.edit(2, 0, 2, 0, '\n');
  text = `${HEADER}\rvp 0 0 0\r\nvp 1 0 0\rvp 0 1 0\rfa 0 1 2\r`;
  compare(doc, text, 'CR + LF');
  // Line 1 and its CRLF become the same content with a lone CR again.
  doc.edit(1, 0, 2, 0, 'vp 0 0 0\r');
  text = `${HEADER}\rvp 0 0 0\rvp 1 0 0\rvp 0 1 0\rfa 0 1 2\r`;
  compare(doc, text, 'CRLF to CR');
  doc.edit(1, 0, 1, 8, 'fa 0 1 9');
  text = `${HEADER}\rfa 0 1 9\rvp 1 0 0\rvp 0 1 0\rfa 0 1 2\r`;
  compare(doc, text, 'replace');
  // A range past the last line is clamped to the end.
  doc.edit(40, 0, 50, 3, 'VP');
  text += 'VP';
  compare(doc, text, 'past the end');
  // Everything deleted.
  doc.edit(0, 0, 99, 0, '');
  compare(doc, '', 'empty');
  doc.edit(0, 0, 0, 0, `${HEADER}\nvp 0 0 0\nfa 0 0 0\n`);
  compare(doc, `${HEADER}\nvp 0 0 0\nfa 0 0 0\n`, 'refilled');
});

test('edit: an LF inserted at a chunk start after a lone CR joins the line break across chunks', () => {
  const random = prng(13);
  const lines = bigDocument(random, 3 * CHUNK_CHARS);
  let text = lines.join('\r');
  const doc = new IqeDocument(text);
  compare(doc, text, 'initial');
  const boundaries = chunkBoundaries(doc);
  assert.ok(boundaries.length >= 2);
  for (const b of boundaries) {
    const chunk = doc.parsedChunks.find((c) => c.firstLine === b)!;
    assert.ok(chunk, `a chunk starts at line ${b}`);
    const starts = lineStarts(text);
    doc.edit(b, 0, b, 0, '\n');
    text = text.slice(0, starts[b]) + '\n' + text.slice(starts[b]);
    compare(doc, text, `LF at line ${b}`);
    // And the other way round: delete it again (the line before now ends with CRLF).
    const after = lineStarts(text);
    const previous = b - 1;
    const contentEnd = after[previous + 1] - 2;
    doc.edit(previous, contentEnd - after[previous], previous + 1, 0, '\r');
    text = text.slice(0, contentEnd) + '\r' + text.slice(after[previous + 1]);
    compare(doc, text, `CRLF back to CR at line ${previous}`);
  }
});

test('analyseInSteps: an edit between steps is not cached over (the next analysis sees it)', () => {
  const random = prng(7);
  const lines = bigDocument(random, 200 * 1024);
  const doc = new IqeDocument(lines.join('\n'));
  const steps = doc.analyseInSteps();
  for (let k = 0; k < 3; k++) assert.equal(steps.next().done, false, 'a document of several chunks takes several steps');
  const at = Math.floor(lines.length / 2);
  doc.edit(at, 0, at, 0, 'fa 0 0 99999999\n');
  lines.splice(at, 0, 'fa 0 0 99999999');
  while (!steps.next().done);
  compare(doc, lines.join('\n'), 'after an edit between analysis steps');
  assert.ok(doc.diagnostics().some((d) => d.code === 'face-index-range' && d.range.line === at), 'the edit is reported');
});

// The analysis after an edit reuses the kept passes of the chunks the edit did not touch
// (core/iqe/linePass.ts, issue 35). It must find exactly what a full analysis finds: random
// character and line edits, through IqeDocument.edit as the language server makes them, on real
// files and on generated documents with skeletons, animations, sections, fs lines and
// declarations, each followed by a comparison of every problem (line, code, place, arguments,
// related line, note, in order) and of the diagnostics with those of a full analysis. The outline
// (sections, kept per chunk too) is compared with a walk over every line of the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_CHARS } from '../../core/iqe/chunk';
import { IqeDocument, validateIqe } from '../../core/iqe/document';
import { materialize } from '../../core/iqe/report';
import { analyse, type Analysis, PassMemo } from '../../core/iqe/validate';
import { sections, type OutlineSection } from '../../core/iqe/navigation';
import { Cmd } from '../../core/iqe/commands';
import type { ProblemList } from '../../core/iqe/problems';
import { prng, randomInt } from '../helpers/iqe-fixtures';
import { skinnedModel } from '../helpers/skinned-model';
import { assetText, HAVE_ASSETS, NO_ASSETS } from '../helpers/model-assets';

type Random = () => number;

function problemRows(problems: ProblemList): string[] {
  const rows: string[] = [];
  for (let p = 0; p < problems.length; p++) {
    rows.push(
      [problems.line(p), problems.code(p), problems.target(p), problems.a(p), problems.b(p), problems.c(p), problems.endLine(p), problems.relatedLine(p), problems.relatedTarget(p), problems.notes.get(p) ?? ''].join(' '),
    );
  }
  return rows;
}

function sameAnalysis(incremental: Analysis, full: Analysis, what: string): void {
  assert.deepEqual(problemRows(incremental.problems), problemRows(full.problems), `${what}: problems`);
  assert.deepEqual(
    [incremental.commentLine, incremental.vertexCount, incremental.jointCount, incremental.faceLineCount],
    [full.commentLine, full.vertexCount, full.jointCount, full.faceLineCount],
    `${what}: totals`,
  );
}

/** Lines typed in whole: structure the pass keeps state for (sections, frames, joints, declarations). */
const LINES = [
  'fm 0 1 2', 'fa 0 1 2', 'fa 5 5 6', 'fm -1 -2 -3', 'fm 0 1 99999', 'frame', 'animation extra', 'mesh m2', 'mesh m',
  'material q', 'material skin', 'pq 0 0 0 0 0 0 1', 'joint jx 0', 'joint jy 7', 'vp 1 2 3', 'vp 0 0 0', 'vb 0 1', 'vb 400 1',
  'fs 1 2 3', 'vertexarray normal float 3', 'vertexarray position float 3', 'framerate 30', 'loop', 'vt 0.5 0.5', 'vn 0 0 1', '',
];
const CHARACTERS = ['0', '1', '9', ' ', '-', '.', '\n', 'f', 'm', 'a', 'p', '"', '#'];

/** One random edit of `text` through doc.edit (line/character positions, as LSP sends them); returns the new text. */
function randomEdit(random: Random, doc: IqeDocument, text: string, hot: number): string {
  // Mostly near one place (a user typing), sometimes anywhere.
  const around = random() < 0.7 ? hot : randomInt(random, text.length);
  const from = Math.max(0, Math.min(text.length, around + randomInt(random, 2000) - 1000));
  const op = randomInt(random, 10);
  let to = from;
  let inserted: string;
  if (op < 4) inserted = CHARACTERS[randomInt(random, CHARACTERS.length)];
  else if (op < 6) {
    inserted = '';
    to = Math.min(text.length, from + 1 + randomInt(random, random() < 0.9 ? 3 : 300));
  } else if (op < 9) {
    // A whole line inserted at the start of the line holding `from`.
    const lineStart = text.lastIndexOf('\n', from - 1) + 1;
    inserted = `${LINES[randomInt(random, LINES.length)]}\n`;
    return applyAt(doc, text, lineStart, lineStart, inserted);
  } else {
    inserted = random() < 0.05 ? '\ncomment\n' : `\n${LINES[randomInt(random, LINES.length)]}`;
  }
  return applyAt(doc, text, from, to, inserted);
}

function position(text: string, offset: number): [number, number] {
  let line = 0;
  let lineStart = 0;
  for (let p = text.indexOf('\n'); p >= 0 && p < offset; p = text.indexOf('\n', p + 1)) {
    line++;
    lineStart = p + 1;
  }
  return [line, offset - lineStart];
}

function applyAt(doc: IqeDocument, text: string, from: number, to: number, inserted: string): string {
  const [startLine, startCharacter] = position(text, from);
  const [endLine, endCharacter] = position(text, to);
  doc.edit(startLine, startCharacter, endLine, endCharacter, inserted);
  return text.slice(0, from) + inserted + text.slice(to);
}

function runEdits(name: string, text: string, seed: number, edits: number): void {
  const random = prng(seed);
  const doc = new IqeDocument(text);
  doc.analyse();
  const hot = randomInt(random, text.length);
  for (let e = 0; e < edits; e++) {
    text = randomEdit(random, doc, text, hot);
    // A `comment` hides every later problem: take it out again soon.
    const comment = text.indexOf('\ncomment\n');
    if (comment >= 0 && random() < 0.3) text = applyAt(doc, text, comment + 1, comment + 8, '# was a');
    // Sometimes a few edits before the next analysis (a burst of keystrokes).
    if (randomInt(random, 4) === 0 && e < edits - 1) continue;
    const what = `${name}, seed ${seed}, edit ${e}`;
    const incremental = doc.analyse();
    const full = analyse(doc.parsedChunks, true, new PassMemo());
    sameAnalysis(incremental, full, what);
    assert.deepEqual(materialize(doc.parsedChunks, incremental, { maxProblems: 100000 }), materialize(doc.parsedChunks, full, { maxProblems: 100000 }), `${what}: diagnostics`);
    if (e % 25 === 0) assert.deepEqual(doc.diagnostics(), validateIqe(text), `${what}: against a fresh parse`);
    assert.deepEqual(sections(doc), sectionsByLines(doc, text), `${what}: outline`);
  }
}

/**
 * The outline by a walk over every parsed line (what sections() did before it kept a summary per
 * chunk), with each frame line's length from the text itself.
 */
function sectionsByLines(doc: IqeDocument, text: string): OutlineSection[] {
  const textLines = text.split('\n');
  const out: OutlineSection[] = [];
  let current: OutlineSection | undefined;
  let framePoses = 0;
  const close = (endLine: number) => {
    if (current) current.endLine = Math.max(current.line, endLine);
    current = undefined;
  };
  for (const chunk of doc.parsedChunks) {
    for (let i = 0; i < chunk.lineCount; i++) {
      const line = chunk.firstLine + i;
      const kind = chunk.kind[i] as Cmd;
      if (kind === Cmd.Vp && current?.kind === 'mesh') current.vertices!++;
      else if ((kind === Cmd.Fa || kind === Cmd.Fm) && current?.kind === 'mesh') current.faces!++;
      else if (kind === Cmd.Mesh) {
        close(line - 1);
        out.push((current = { kind: 'mesh', name: chunk.names.get(i) ?? '', line, endLine: line, vertices: 0, faces: 0 }));
      } else if (kind === Cmd.Material && current?.kind === 'mesh') current.material = chunk.names.get(i) ?? '';
      else if (kind === Cmd.Animation) {
        close(line - 1);
        out.push((current = { kind: 'animation', name: chunk.names.get(i) ?? '', line, endLine: line, frames: 0, framerate: 0, loop: false, frameLines: [], frameLineLengths: [] }));
        framePoses = 0;
      } else if (kind === Cmd.Frame) framePoses = 0;
      else if ((kind === Cmd.Pq || kind === Cmd.Pm || kind === Cmd.Pa) && current?.kind === 'animation') {
        if (framePoses++ === 0) {
          current.frames!++;
          current.frameLines!.push(line);
          current.frameLineLengths!.push(textLines[line].length);
        }
      } else if (kind === Cmd.Framerate && current?.kind === 'animation') {
        const at = chunk.valueStart[i];
        current.framerate = Math.max(0, at < chunk.valueStart[i + 1] ? chunk.values[at] : 0);
      } else if (kind === Cmd.Loop && current?.kind === 'animation') current.loop = true;
      else if (kind === Cmd.Comment) {
        close(line - 1);
        out.push({ kind: 'comment', name: 'comment', line, endLine: doc.lineCount - 1 });
        return out;
      }
    }
  }
  close(doc.lineCount - 1);
  return out;
}

/** A document of several chunks with what the pass keeps state for: meshes and materials (repeated sections), fm faces, fs lines, declarations, a skeleton with a bad parent, animations with short frames. */
function sectionsDocument(random: Random, meshes: number): string {
  const lines = ['# Inter-Quake Export', 'vertexarray position float 3', 'vertexarray texcoord float 2'];
  for (let j = 0; j < 20; j++) lines.push(`joint j${j} ${j === 0 ? -1 : j === 13 ? 15 : randomInt(random, j)}`);
  for (let j = 0; j < 20; j++) lines.push('pq 0 0 0 0 0 0 1');
  for (let m = 0; m < meshes; m++) {
    lines.push(`mesh m${m % 5}`, `material t${m % 3}`);
    const n = 300 + randomInt(random, 300);
    for (let v = 0; v < n; v++) lines.push(`vp ${randomInt(random, 100)} ${randomInt(random, 100)} ${randomInt(random, 3)}`, `vt 0.${randomInt(random, 10)} 0.5`, `vb ${randomInt(random, 22)} 1`);
    for (let f = 0; f + 2 < n; f++) {
      lines.push(random() < 0.01 ? `fm ${f} ${f} ${f + 1}` : `fm ${f} ${f + 1} ${f + 2}`);
      if (m % 4 === 1 && f % 7 === 0) lines.push('fs 1 2 3');
    }
  }
  for (let a = 0; a < 3; a++) {
    lines.push(`animation a${a}`, 'framerate 24');
    for (let f = 0; f < 60; f++) {
      lines.push('frame');
      const poses = f % 17 === 5 ? 19 : 20;
      for (let j = 0; j < poses; j++) lines.push(`pq 0 0 ${randomInt(random, 9)} 0 0 0 1`);
    }
  }
  return `${lines.join('\n')}\n`;
}

test('incremental analysis == full analysis: 250 random edits on a generated document of sections, fs lines, a skeleton and animations', () => {
  const text = sectionsDocument(prng(11), 24);
  assert.ok(text.length > 8 * CHUNK_CHARS, `${text.length} characters`);
  runEdits('sections', text, 11, 250);
});

test('incremental analysis == full analysis: 150 random edits on a generated skinned model (long animation)', () => {
  const text = skinnedModel(7, { frames: 400, speed: 0.5 });
  assert.ok(text.length > 4 * CHUNK_CHARS, `${text.length} characters`);
  runEdits('skinned', text, 12, 150);
});

test('incremental analysis == full analysis: 120 random edits on each of three real IQE files', { skip: NO_ASSETS }, () => {
  assert.ok(HAVE_ASSETS);
  for (const [rel, seed] of [['iqe/unvanquished/medistat.iqe', 13], ['iqe/unvanquished/lgun_view.iqe', 14], ['iqe/love-und-panzer/tank.iqe', 15]] as const) {
    runEdits(rel, assetText(rel).replace(/\r\n?/g, '\n'), seed, 120);
  }
});

test('a keystroke in the faces passes only the chunks it touched; a new vertex (the totals change) passes them all', () => {
  const text = sectionsDocument(prng(21), 40);
  const doc = new IqeDocument(text);
  doc.analyse();
  const memo = (doc as unknown as { passMemo: PassMemo }).passMemo;
  const structural = doc.parsedChunks.filter((c) => c.summary.structuralLines > 0).length;
  assert.equal(memo.passedLastTime, structural, 'the first analysis passes every chunk');
  assert.ok(structural > 20, `${structural} chunks`);
  const lines = text.split('\n');
  const face = lines.findIndex((l, i) => i > lines.length / 2 && l.startsWith('fm '));
  // Typing a face line out after a face, one character at a time.
  let column = lines[face].length;
  let line = face;
  for (const ch of '\nfm 0 1 2') {
    doc.edit(line, column, line, column, ch);
    if (ch === '\n') {
      line++;
      column = 0;
    } else column++;
    doc.analyse();
    assert.ok(memo.passedLastTime <= 2, `a keystroke passed ${memo.passedLastTime} chunks`);
  }
  const vertex = lines.findIndex((l) => l.startsWith('vp '));
  doc.edit(vertex, 0, vertex, 0, 'vp 1 1 1\n');
  doc.analyse();
  assert.equal(memo.passedLastTime, doc.parsedChunks.filter((c) => c.summary.structuralLines > 0).length, 'a new vertex moves every later index');
});

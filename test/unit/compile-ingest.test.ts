// The streaming ingest of the CLI (core/compile/ingest.ts) against the whole-document path
// (IqeDocument -> documentSource): the same verdict (errors or not) and, without errors, the same data,
// whatever pieces the text arrives in (split inside numbers, inside CRLF pairs, inside a
// multi-byte character's UTF-16 pair) and however often it is parsed along the way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IqeDocument } from '../../core/iqe/document';
import { documentSource } from '../../core/compile/index';
import { IqeIngest } from '../../core/compile/ingest';
import type { SourceModel } from '../../core/compile/source';
import { iqe, jointLines, poses, prng, randomInt, TRIANGLE, vertices } from '../helpers/iqe-fixtures';

const ASSETS = resolve(process.cwd(), '..', 'shared', 'assets', 'iqe');

/** Plain values of an input, typed arrays as number lists, so that views and copies compare equal. */
function plain(input: SourceModel): unknown {
  return JSON.parse(JSON.stringify(input, (_key, value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as Float64Array) : value)));
}

/** Feeds `text` in pieces of random lengths (1..maxPiece characters). */
function ingest(text: string, random: () => number, maxPiece: number, parseAt: number): ReturnType<IqeIngest['finish']> {
  const stream = new IqeIngest(parseAt);
  for (let p = 0; p < text.length; ) {
    const n = 1 + randomInt(random, maxPiece);
    stream.push(text.slice(p, p + n));
    p += n;
  }
  return stream.finish();
}

function assertSame(text: string, label: string, random: () => number): boolean {
  const expected = documentSource(new IqeDocument(text)).read();
  const expectedOk = expected.model !== null;
  for (const [maxPiece, parseAt] of [[text.length + 1, 1 << 30], [7, 1], [200, 64], [4096, 1000]]) {
    const got = ingest(text, random, maxPiece, parseAt);
    assert.equal(got.ok, expectedOk, `${label}: verdict with pieces of <= ${maxPiece}, parsed at ${parseAt}`);
    if (got.ok && expected.model) assert.deepEqual(plain(got.input), plain(expected.model), `${label}: data with pieces of <= ${maxPiece}, parsed at ${parseAt}`);
  }
  return expectedOk;
}

function iqeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? iqeFiles(path) : name.endsWith('.iqe') ? [path] : [];
  });
}

test('ingest: every corpus IQE and example gives the data of the whole-document path', (t) => {
  const files = [...iqeFiles(ASSETS), ...iqeFiles(resolve('examples'))];
  if (files.length === 0) {
    t.skip(`${ASSETS} and examples/ (made by npm start) are absent`);
    return;
  }
  const random = prng(7);
  // planted-errors.iqe (an example that `npm start` makes) is the one file with errors.
  for (const file of files) assert.equal(assertSame(readFileSync(file, 'utf8'), file, random), !file.endsWith('planted-errors.iqe'), file);
});

test('ingest: line breaks, comments and characters split across pieces', () => {
  const random = prng(11);
  const skinned = [...jointLines(3), ...poses(3), ...vertices(4), 'vb 0 1', 'vb 1 0.5 2 0.5', 'vb 2 1', 'vb 0 1', 'fm 0 1 2', 'fm 0 2 3', 'animation "a"', 'frame', ...poses(3), 'frame', ...poses(3)];
  const cases: [string, string][] = [
    ['LF', iqe(...skinned)],
    ['CRLF', iqe(...skinned).replace(/\n/g, '\r\n')],
    ['lone CR', iqe(...skinned).replace(/\n/g, '\r')],
    ['no final line break', iqe(...TRIANGLE).slice(0, -1)],
    ['names with surrogate pairs', iqe('mesh "m\u{1F600}sh"', 'material "é\u{1F600}"', ...TRIANGLE)],
    ['comment swallowing commands', iqe(...TRIANGLE, 'comment', 'vp 1 2 3', 'text \u{1F600}\r\n', 'fa 0 1 2')],
    ['comment at the end without a line break', iqe(...TRIANGLE) + 'comment'],
    ['empty', ''],
  ];
  for (const [label, text] of cases) assertSame(text, label, random);
});

test('ingest: the verdict on files with errors and warnings', () => {
  const random = prng(5);
  const cases: [string, string, boolean][] = [
    ['face index past the vertices', iqe(...TRIANGLE_WITH('fa 0 1 3')), false],
    ['attribute count', iqe(...TRIANGLE, 'vt 0 0'), false],
    ['joint parent after the joint', iqe('joint a 1', 'joint b -1', ...poses(2), ...TRIANGLE), false],
    // Vertices before the joints: the blend check reads these vb lines at the end.
    ['blend joint past the joints, vertices first', iqe(...TRIANGLE_VERTICES_WITH_BLENDS('vb 5 1'), 'fa 0 1 2', ...jointLines(2), ...poses(2)), false],
    ['blend joint below the joints, vertices first', iqe(...TRIANGLE_VERTICES_WITH_BLENDS('vb 1 1'), 'fa 0 1 2', ...jointLines(2), ...poses(2)), true],
    ['blend joint 300 without joints', iqe(...TRIANGLE_VERTICES_WITH_BLENDS('vb 300 1'), 'fa 0 1 2'), false],
    ['number error', iqe(...TRIANGLE, 'vp 1 x 2'), false],
    ['number error after the comment', iqe(...TRIANGLE, 'comment', 'vp 1 x 2'), true],
    ['frame pose count', iqe(...jointLines(2), ...poses(2), ...TRIANGLE, 'animation', 'frame', ...poses(1)), false],
    ['warnings only', iqe(...TRIANGLE, 'fa 0 1 1', 'unknowncommand'), true],
  ];
  for (const [label, text, ok] of cases) assert.equal(assertSame(text, label, random), ok, label);
});

test('ingest: random edits of a valid file give the verdict and data of the whole-document path', () => {
  const random = prng(3);
  const lines = [...jointLines(4), ...poses(4), 'mesh m', 'material x', ...vertices(6), ...Array.from({ length: 6 }, (_, i) => `vb ${i % 4} 0.75 ${(i + 1) % 4} 0.25`), 'fm 0 1 2 3', 'fm 3 4 5', 'fs 1 0 1 1', 'fs 0 0 1', 'vertexarray blendindexes ubyte 4', 'animation "walk"', 'framerate 15', 'loop', 'frame', ...poses(4), 'frame', ...poses(4)];
  const edits = ['vb 9 1', 'vb -1 1', 'vb 0 0', 'fa 0 1 9', 'fm -9 0 1', 'joint j9 7', 'pq 0 0 0 0 0 0 0', 'vp 1 2', 'vt 0 0', 'comment', 'frame', 'mesh n', 'vertexarray blendindexes ushort 4', '# x', 'fm 0 1'];
  let withErrors = 0;
  for (let round = 0; round < 150; round++) {
    const edited = [...lines];
    for (let e = 0; e <= randomInt(random, 3); e++) {
      const at = randomInt(random, edited.length + 1);
      const op = randomInt(random, 3);
      if (op === 0) edited.splice(at, 0, edits[randomInt(random, edits.length)]);
      else if (op === 1 && edited.length > 1) edited.splice(Math.min(at, edited.length - 1), 1);
      else edited.splice(at, 0, edited[randomInt(random, edited.length)]);
    }
    if (!assertSame(iqe(...edited), `round ${round}: ${edited.join(' | ')}`, random)) withErrors++;
  }
  // Both verdicts occur (else this test would not test the verdict).
  assert.ok(withErrors > 10 && withErrors < 140, `${withErrors} of 150 edited files have errors`);
});

function TRIANGLE_WITH(face: string): string[] {
  return [...TRIANGLE.slice(0, 3), face];
}

function TRIANGLE_VERTICES_WITH_BLENDS(first: string): string[] {
  return [...TRIANGLE.slice(0, 3), first, 'vb 0 1', 'vb 0 1'];
}

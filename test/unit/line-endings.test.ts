// Every line-ending style (LF, CRLF, lone CR, a mix) gives the same parse in every path: the
// document the server and `check` validate, `info`'s summary, the compile (whole text, and the
// streaming reader fed in pieces), and the command line's check, info, sample and compile. The
// comment section is where a CR-only file once lost its whole model in the compile only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IqeDocument } from '../../core/iqe/document';
import { summarizeIqe } from '../../core/iqe/summary';
import { documentSource } from '../../core/compile/index';
import { compileSourceText } from '../helpers/compile-iqm';
import { IqeIngest, ingestText } from '../../core/compile/ingest';
import { assertSameModel } from '../../core/compile/input';
import type { SourceModel } from '../../core/compile/source';
import { LineScanner } from '../../core/iqe/chunk';
import { iqe, jointLines, poses, prng, randomInt, TRIANGLE, vertices } from '../helpers/iqe-fixtures';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');

const SKINNED = [
  ...jointLines(3), ...poses(3), 'mesh "body"', 'material "skin"', ...vertices(5),
  'vb 0 1', 'vb 1 0.5 2 0.5', 'vb 2 1', 'vb 0 1', 'vb 1 1', 'fm 0 1 2', 'fm 0 2 3', 'fm 1 3 4',
  'animation "wave"', 'frame', ...poses(3), 'frame', 'pq 0 0 1 0 0 0 1', 'pq 0 0 0 0 0 0 1', 'pq 1 0 0 0 0 0 1',
];

/** Documents in LF form: each line break is later rewritten in every style. */
const DOCUMENTS: [string, string][] = [
  ['a skinned, animated model', iqe(...SKINNED)],
  ['a comment section at the end', iqe(...SKINNED, 'comment', 'made by hand', '', 'vp 9 9 9', 'fa 0 1 9')],
  ['a comment section first', iqe('comment', 'everything below is comment text', ...SKINNED)],
  ['an error after blank lines', iqe('', '', ...TRIANGLE, '', 'fa 0 1 7', '')],
  ['warnings and an unterminated name', iqe('mesh "open', ...TRIANGLE, 'fa 0 1 1', 'VP 1 2 3', '# note')],
  ['no final line break', iqe(...TRIANGLE).slice(0, -1)],
  ['a long comment chunk', iqe(...vertices(3000), 'fa 0 1 2', 'comment', ...vertices(3000))],
];

function styles(lf: string): [string, string][] {
  const random = prng(lf.length);
  return [
    ['LF', lf],
    ['CRLF', lf.replace(/\n/g, '\r\n')],
    ['CR', lf.replace(/\n/g, '\r')],
    ['mixed', mixed(lf, random)],
  ];
}

/** Each LF of `lf` as LF, CRLF or CR at random; never a CR right before an LF (that is one CRLF break). */
function mixed(lf: string, random: () => number): string {
  const parts = lf.split('\n');
  let out = parts[0];
  let previous = '';
  for (let i = 1; i < parts.length; i++) {
    let eol = ['\n', '\r\n', '\r'][randomInt(random, 3)];
    if (eol === '\n' && previous === '\r' && parts[i - 1] === '') eol = '\r';
    out += eol + parts[i];
    previous = eol;
  }
  return out;
}

/** An input as plain values; the comment text with its line breaks made LF (it is kept verbatim). */
function plain(input: SourceModel | null): unknown {
  if (!input) return null;
  const copy = { ...input, comment: input.comment === null ? null : input.comment.replace(/\r\n|\r/g, '\n') };
  return JSON.parse(JSON.stringify(copy, (_key, value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as Float64Array) : value)));
}

/** Compile stats but the size (the comment text, kept verbatim, has its own line breaks). */
function statsWithoutBytes<T extends { bytes: number }>(stats: T): Omit<T, 'bytes'> {
  const { bytes: _bytes, ...rest } = stats;
  return rest;
}

function streamed(text: string, piece: number, parseAt: number): ReturnType<IqeIngest['finish']> {
  const stream = new IqeIngest(parseAt);
  for (let p = 0; p < text.length; p += piece) stream.push(text.slice(p, p + piece));
  return stream.finish();
}

test('line endings: the document, the summary and every compile path agree with LF', () => {
  for (const [label, lf] of DOCUMENTS) {
    const expected = {
      diagnostics: new IqeDocument(lf).diagnostics({ maxProblems: 1e9 }),
      summary: summarizeIqe(new IqeDocument(lf)),
      input: plain(documentSource(new IqeDocument(lf)).read().model),
      stats: statsWithoutBytes(compileSourceText(lf).stats),
    };
    // The model is there at all (a lost model would agree with itself in every style).
    if (!label.startsWith('a comment section first') && expected.input !== null) assert.ok(expected.stats.vertices > 0, `${label}: LF compiles vertices`);
    for (const [style, text] of styles(lf)) {
      const what = `${label}, ${style}`;
      assert.deepEqual(new IqeDocument(text).diagnostics({ maxProblems: 1e9 }), expected.diagnostics, `${what}: diagnostics`);
      assert.deepEqual(summarizeIqe(new IqeDocument(text)), expected.summary, `${what}: info summary`);
      assert.deepEqual(plain(documentSource(new IqeDocument(text)).read().model), expected.input, `${what}: the whole-document compile input`);
      const whole = ingestText(text);
      assert.deepEqual(whole.ok ? plain(whole.input) : null, expected.input, `${what}: the ingest of the whole text`);
      for (const [piece, parseAt] of [[1, 1], [5, 16], [97, 300], [4096, 32 * 1024]]) {
        const got = streamed(text, piece, parseAt);
        assert.deepEqual(got.ok ? plain(got.input) : null, expected.input, `${what}: streamed in pieces of ${piece}, parsed at ${parseAt}`);
      }
      assert.deepEqual(statsWithoutBytes(compileSourceText(text).stats), expected.stats, `${what}: compile stats`);
    }
  }
});

test('line endings: the command line check, info, sample and compile give the LF results', async () => {
  await withTempDir('iqm-eol-', (dir) => {
    for (const [label, lf] of [DOCUMENTS[1], DOCUMENTS[3]]) {
      const run = (file: string, ...args: string[]): { status: number | null; out: string } => {
        const r = spawnSync(process.execPath, [CLI, ...args.map((a) => (a === 'FILE' ? file : a))], { encoding: 'utf8' });
        // Paths differ per style: compare what follows them.
        return { status: r.status, out: (r.stdout + r.stderr).split(file).join('FILE') };
      };
      const results = styles(lf).map(([style, text]) => {
        const file = join(dir, `${style}.iqe`);
        writeFileSync(file, text);
        const out = join(dir, `${style}.iqm`);
        const compile = run(file, 'compile', 'FILE', '-o', out, '--json');
        const compiled = compile.status === 0 ? readFileSync(out) : null;
        return {
          style,
          check: run(file, 'check', 'FILE', '--json'),
          info: run(file, 'info', 'FILE', '--json'),
          sample: run(file, 'sample', 'FILE', '--frame', '-1', '--json'),
          compile: { status: compile.status, out: compile.out.split(out).join('OUT') },
          // The comment text keeps its line breaks verbatim: compare the compiled info instead of bytes.
          compiledInfo: compiled ? run(out, 'info', 'FILE', '--json') : null,
        };
      });
      for (const r of results.slice(1)) {
        for (const key of ['check', 'info', 'sample', 'compiledInfo'] as const) {
          assert.deepEqual(r[key], results[0][key], `${label}, ${r.style}: ${key}`);
        }
        assert.equal(r.compile.status, results[0].compile.status, `${label}, ${r.style}: compile exit`);
        const stats = (o: string): unknown => {
          const parsed = JSON.parse(o) as { stats?: { bytes: number } };
          return parsed.stats ? statsWithoutBytes(parsed.stats) : parsed;
        };
        assert.deepEqual(stats(r.compile.out), stats(results[0].compile.out), `${label}, ${r.style}: compile stats`);
      }
    }
  });
});

test('line endings: a line scanner asked again from an earlier offset finds the same lines', () => {
  for (const [style, text] of styles(iqe(...TRIANGLE, 'comment', 'text'))) {
    const scanner = new LineScanner(text, text.includes('\r'));
    const lines = (): string[] => {
      const out: string[] = [];
      for (let p = 0; p < text.length; p = scanner.afterTerminator(scanner.contentEnd(p, text.length))) out.push(text.slice(p, scanner.contentEnd(p, text.length)));
      return out;
    };
    const first = lines();
    assert.deepEqual(first, text.split(/\r\n|\r|\n/).slice(0, first.length), `${style}: lines`);
    assert.deepEqual(lines(), first, `${style}: the same lines on a second pass`);
  }
});

test('line endings: a compile whose reader lost vertices or joints stops before writing', () => {
  const input = ingestText(iqe(...jointLines(2), ...poses(2), ...TRIANGLE));
  assert.ok(input.ok);
  assert.doesNotThrow(() => assertSameModel(input.input, { vertexCount: 3, jointCount: 2 }));
  assert.throws(() => assertSameModel(input.input, { vertexCount: 4, jointCount: 2 }), /read 3 vertices and 2 joints where the check read 4 and 2; nothing was written/);
});

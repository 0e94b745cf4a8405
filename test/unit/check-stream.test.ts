// Issue 17, item 5: `iqm-tools check` makes each diagnostic when it prints or lists it (from the
// validator's compact problem lists) instead of holding them all. Its output must be byte for
// byte what the whole list gave: --json as JSON.stringify of every diagnostic, the terminal's
// lines as the 1,000 chosen (errors first, in line order) of the whole list. And the chunks'
// numbers, kept in 32 bits where every one is exact, must read back as the same numbers.
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { IqeDocument, validateIqe } from '../../core/iqe/document';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { fileDiagnosticToJson, formatDiagnostic, TERMINAL_MAX_PROBLEMS } from '../../cli/check';
import { iqe, jointLines, TRIANGLE_VERTICES, withCode } from '../helpers/iqe-fixtures';
import { withTempDir } from '../helpers/temp-dir';

const ALL = { maxProblems: Number.MAX_SAFE_INTEGER };

/** A file with thousands of problems of every severity on short lines (zero-area and degenerate faces, bad joints, polygons, bad numbers). */
function manyProblems(seed: number, vertexCount: number): string {
  let state = seed;
  const random = (n: number): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state % n;
  };
  const lines = [...jointLines(3), 'pq 0 0 0 0 0 0 1', 'pq 0 0 0 0 0 0 1', 'pq 0 0 0 0 0 0 1', 'mesh m'];
  for (let i = 0; i < vertexCount; i++) {
    lines.push(`vp ${random(4)} ${random(4)} 0`, random(5) === 0 ? `vb ${3 + random(300)} 1` : 'vb 0 1');
    if (random(50) === 0) lines.push(`vt 1,5 0`);
  }
  for (let f = 0; f < vertexCount; f++) {
    const a = random(vertexCount), b = random(vertexCount);
    const c = random(20) === 0 ? vertexCount + random(10) : random(vertexCount);
    lines.push(random(7) === 0 ? `fa ${a} ${b} ${c} ${random(vertexCount)}` : `fa ${a} ${b} ${c}`);
    if (random(100) === 0) lines.push('Fa 0 1 2');
  }
  return iqe(...lines);
}

/** The terminal's lines as check printed them from the whole list: the first `room` by (severity, order), in order, then the count of the rest. */
function previousLines(file: string, diagnostics: readonly IqeDiagnostic[]): string {
  const rank: Record<string, number> = { error: 0, warning: 1, information: 2, hint: 3 };
  const room = TERMINAL_MAX_PROBLEMS;
  const order = diagnostics.map((_, i) => i).sort((a, b) => rank[diagnostics[a].severity] - rank[diagnostics[b].severity] || a - b).slice(0, room).sort((a, b) => a - b);
  const chosen = order.map((i) => diagnostics[i]);
  let out = chosen.map((d) => formatDiagnostic(file, d)).join('\n') + '\n';
  const omitted = diagnostics.length - chosen.length;
  const errors = (list: readonly IqeDiagnostic[]): number => list.filter((d) => d.severity === 'error').length;
  if (omitted > 0) {
    const omittedErrors = errors(diagnostics) - errors(chosen);
    out += `… and ${omitted} more problems${omittedErrors > 0 ? ` (${omittedErrors} of them errors)` : ''} not shown; --json lists them all, --all prints them all\n`;
  }
  return out;
}

test('check --json streams byte for byte what JSON.stringify of the whole list gave; the terminal lines and --all too', async () => {
  await withTempDir('iqm-check-stream-', (dir) => {
    const run = (...args: string[]): { stdout: string; status: number | null } => {
      const r = spawnSync(process.execPath, [resolve('dist', 'cli.js'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
      return { stdout: r.stdout, status: r.status };
    };
    const texts = new Map<string, string>();
    for (const [seed, count] of [[1, 6000], [7, 300]]) {
      const file = join(dir, `many-${seed}.iqe`);
      const text = manyProblems(seed, count);
      texts.set(file, text);
      writeFileSync(file, text);
      const whole = validateIqe(text, ALL);
      const severities = new Set(whole.map((d) => d.severity));
      assert.ok(severities.has('error') && severities.has('warning'), [...severities].join());
      if (seed === 1) assert.ok(whole.length > 3 * TERMINAL_MAX_PROBLEMS, `${whole.length} problems`);

      const json = run('check', '--json', file);
      assert.equal(json.status, 1);
      assert.equal(json.stdout, JSON.stringify({ diagnostics: whole.map((d) => fileDiagnosticToJson(file, d)) }) + '\n', `--json of seed ${seed}`);
      assert.equal(run('check', file).stdout, previousLines(file, whole), `lines of seed ${seed}`);
      assert.equal(run('check', '--all', file).stdout, whole.map((d) => formatDiagnostic(file, d) + '\n').join(''), `--all of seed ${seed}`);
    }
    // Several files, one of which cannot be read: one list, every file's diagnostics with its name.
    const [a, b] = [...texts.keys()];
    const listed = [b, a].flatMap((f) => validateIqe(texts.get(f)!, ALL).map((d) => fileDiagnosticToJson(f, d)));
    const both = run('check', '--json', b, join(dir, 'missing.iqe'), a);
    assert.equal(both.status, 2);
    assert.equal(both.stdout, JSON.stringify({ diagnostics: listed }) + '\n');
    // No problem at all: an empty list, exit 0.
    const clean = join(dir, 'clean.iqe');
    writeFileSync(clean, iqe(...TRIANGLE_VERTICES, 'fa 0 1 2'));
    assert.deepEqual(run('check', '--json', clean), { stdout: '{"diagnostics":[]}\n', status: 0 });
  });
});

test('eachDiagnostic gives what diagnostics() lists, also when other lines are parsed between two of them', () => {
  const text = manyProblems(3, 2000);
  const document = new IqeDocument(text);
  const listed = document.diagnostics({ maxProblems: 700 });
  const other = new IqeDocument(manyProblems(5, 500));
  const interleaved: IqeDiagnostic[] = [];
  for (const d of document.eachDiagnostic({ maxProblems: 700 })) {
    interleaved.push(d);
    // Parses lines of another document (the shared line parse) before the next is asked for.
    other.edit(10, 0, 10, 0, ' ');
    other.diagnostics({ maxProblems: 5 });
  }
  assert.equal(listed.at(-1)!.code, 'too-many-problems');
  assert.deepEqual(interleaved, listed);
});

test('chunk numbers: in 32 bits only where every one is exact; read back the same', () => {
  const exact = new IqeDocument(iqe('mesh m', 'vp 1 2 3', 'vp 0.5 -4 1e3', 'vp 0 1 0', 'fa 0 1 2'));
  assert.ok(exact.parsedChunks.every((c) => c.values instanceof Float32Array));
  // 0.1 and 16777217 are not float32 numbers: the chunk keeps 64 bits.
  const inexact = iqe('mesh m', 'vp 0.1 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 16777217');
  const document = new IqeDocument(inexact);
  assert.ok(document.parsedChunks.every((c) => c.values instanceof Float64Array));
  const [range] = withCode(document.diagnostics(), 'face-index-range');
  assert.match(range.message, /vertex 16777217,/);
  // Zero-area faces are found on 32-bit positions as on 64-bit ones.
  for (const third of ['0.25 0.25 0.25', '0.1 0.1 0.1']) {
    const flat = new IqeDocument(iqe('mesh m', 'vp 0 0 0', 'vp 1 1 1', 'vp 2 2 2', 'vp 0 1 0', `vp ${third}`, 'fa 0 1 2', 'fa 0 1 3', 'fa 0 1 4'));
    assert.equal(flat.parsedChunks[0].values instanceof Float32Array, third === '0.25 0.25 0.25', third);
    assert.deepEqual(withCode(flat.diagnostics(), 'degenerate-triangle').map((d) => d.range.line), [7, 9], third);
  }
});

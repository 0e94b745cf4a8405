// Issue 17: inputs a demanding user makes by hand. Long lines are read a fixed number of times
// (nothing quadratic), the outline of any joint chain can be sent, and the messages about
// parent cycles and short vertex arrays say what is wrong where it is.
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import type { DocumentSymbol } from 'vscode-languageserver';
import { IqeDocument, validateIqe } from '../../core/iqe/document';
import { parseCount } from '../../core/iqe/line';
import { MAX_OUTLINE_DEPTH, documentSymbols } from '../../server/symbols';
import { commandRange, iqe, jointLines, lineOf, tokenRange, TRIANGLE, TRIANGLE_VERTICES, vertices, withCode } from '../helpers/iqe-fixtures';
import { withTempDir } from '../helpers/temp-dir';
import { inverseBindMatrices, readRig, skinnedPosition, worldMatrices } from '../helpers/iqe-pose';
import { summarizeIqe } from '../../core/iqe/summary';
import { iqeModel, loadModel } from '../../cli/info';
import { sampleModel } from '../../cli/sample';
import { exerciseIqe } from '../helpers/iqe-fuzz';
import { exerciseSidecar } from '../helpers/sidecar-fuzz';
import { exercise, exerciseValidator } from '../helpers/model-fuzz';
import { ProblemList, Target } from '../../core/iqe/problems';
import { CODES } from '../../core/iqe/codes';

/** A file whose few lines hold thousands of problems each. */
function longLines(pairs: number): string {
  const badBlend = Array.from({ length: pairs }, (_, i) => `${300 + i} 0.5`).join(' ');
  const weakBlend = Array.from({ length: pairs }, () => '0 -0.5').join(' ');
  const badFace = Array.from({ length: 2 * pairs }, (_, i) => String(1000 + i)).join(' ');
  return iqe('joint a -1', 'pq 0 0 0 0 0 0 1', 'mesh m', 'vp 0 0 0', `vb ${badBlend}`, 'vp 1 0 0', `vb ${weakBlend}`, 'vp 0 1 0', 'vb 0 1', `fm ${badFace}`, 'fa 0 1 2');
}

test('long lines: a check parses each line a fixed number of times, however many problems it holds', () => {
  for (const pairs of [100, 1000, 2000]) {
    const text = longLines(pairs);
    const doc = new IqeDocument(text);
    const before = parseCount.lines;
    const diagnostics = doc.diagnostics({ maxProblems: Number.MAX_SAFE_INTEGER });
    const parsed = parseCount.lines - before;
    // One parse of every line, then at most one more per reported line (and per related line).
    assert.ok(parsed <= 3 * doc.lineCount, `${pairs} pairs: ${parsed} line parses for ${doc.lineCount} lines`);
    // Every bad joint index and face index is reported, at its own token.
    const range = withCode(diagnostics, 'blend-joint-range');
    assert.equal(range.length, pairs, `${pairs} pairs: blend-joint-range`);
    const blendLine = 5;
    assert.deepEqual(range[0].range, tokenRange(text, blendLine, '300'));
    assert.deepEqual(range[pairs - 1].range, tokenRange(text, blendLine, String(300 + pairs - 1)));
    const faces = withCode(diagnostics, 'face-index-range');
    assert.equal(faces.length, 2 * pairs, `${pairs} pairs: face-index-range`);
    assert.deepEqual(faces[2 * pairs - 1].range, tokenRange(text, 10, String(1000 + 2 * pairs - 1)));
  }
});

test('long lines: the editor cap (maxProblems) reads no line again per omitted problem', () => {
  const doc = new IqeDocument(longLines(2000));
  const before = parseCount.lines;
  const diagnostics = doc.diagnostics({ maxProblems: 10 });
  assert.ok(parseCount.lines - before <= 3 * doc.lineCount);
  assert.equal(diagnostics.length, 11);
  assert.match(diagnostics[10].message, /^\d+ more problems are not shown/);
});

test('outline: a chain of 5,000 joints nests to a fixed depth, lists every joint once and serialises', () => {
  const n = 5000;
  const doc = new IqeDocument(iqe(...jointLines(n)));
  const symbols = documentSymbols(doc);
  // The message a server sends is JSON: this threw (stack overflow) when the chain nested all the way.
  const sent = JSON.parse(JSON.stringify(symbols)) as DocumentSymbol[];
  const skeleton = sent.find((s) => s.name === 'skeleton');
  assert.ok(skeleton);
  const seen: string[] = [];
  let deepest = 0;
  const walk = (list: DocumentSymbol[], depth: number): void => {
    for (const s of list) {
      seen.push(s.name);
      deepest = Math.max(deepest, depth);
      walk(s.children ?? [], depth + 1);
    }
  };
  walk(skeleton.children ?? [], 1);
  assert.equal(deepest, MAX_OUTLINE_DEPTH);
  assert.deepEqual(seen.sort(), Array.from({ length: n }, (_, i) => `j${i}`).sort());
  // A flattened joint names its parent.
  const flat = JSON.stringify(sent);
  assert.match(flat, new RegExp(`"#${n - 1}, child of #${n - 2}"`));
  // A short chain nests as before.
  const short = documentSymbols(new IqeDocument(iqe(...jointLines(3))))[0];
  assert.equal(short.children![0].children![0].children![0].name, 'j2');
});

test('joint-parent: a cycle is named as a cycle on every joint of it, in the file order of its parents', () => {
  const t = iqe('joint root -1', 'joint a 2', 'joint b 1');
  const found = withCode(validateIqe(t), 'joint-parent');
  assert.deepEqual(found.map((d) => d.range), [tokenRange(t, 2, '2'), tokenRange(t, 3, '1')]);
  assert.equal(found[0].message, 'Joints 1 → 2 → 1 form a cycle of parents (2 joints): none of them reaches a root, so their poses cannot be composed (DarkPlaces refuses the file); parent 2 also comes after joint 1.');
  // Joint 2's parent 1 is listed first: no "comes after".
  assert.equal(found[1].message, 'Joints 2 → 1 → 2 form a cycle of parents (2 joints): none of them reaches a root, so their poses cannot be composed (DarkPlaces refuses the file).');
  // A long cycle is elided, with its length.
  const long = iqe('joint j0 9', ...Array.from({ length: 9 }, (_, i) => `joint j${i + 1} ${i}`));
  const last = withCode(validateIqe(long), 'joint-parent').at(-1)!;
  assert.match(last.message, /^Joints 9 → 8 → 7 → 6 → 5 → 4 → … → 9 form a cycle of parents \(10 joints\)/);
  // Own parent and a missing parent keep their own messages.
  assert.match(withCode(validateIqe(iqe('joint a 0')), 'joint-parent')[0].message, /^Joint 0 is its own parent/);
  assert.match(withCode(validateIqe(iqe('joint a -1', 'joint b 7')), 'joint-parent')[0].message, /^Parent 7 does not exist/);
});

test('attribute-count: a short array is reported where it stops, with its last line as related information', () => {
  // Vertex 2 is the first without a vn.
  let t = iqe('vp 0 0 0', 'vn 0 0 1', 'vp 1 0 0', 'vn 0 0 1', 'vp 0 1 0', 'vp 1 1 0', 'fa 0 1 2', 'fa 1 2 3');
  let d = withCode(validateIqe(t), 'attribute-count');
  assert.equal(d.length, 1);
  assert.deepEqual(d[0].range, commandRange(t, 5));
  assert.deepEqual(d[0].related?.[0].range, commandRange(t, 4));
  assert.match(d[0].message, /^Only 2 'vn' lines for 4 vertices: this vertex \(2\) and every later one have none/);
  // A whole mesh without vt: at its mesh line, even with the vertices far below it.
  t = iqe('mesh a', ...TRIANGLE_VERTICES.flatMap((v) => [v, 'vt 0 0']), 'fm 0 1 2', 'mesh b', 'material m', '# its vertices', ...TRIANGLE);
  d = withCode(validateIqe(t), 'attribute-count');
  assert.equal(d.length, 1);
  assert.deepEqual(d[0].range, commandRange(t, lineOf(t, 'mesh b')));
  assert.deepEqual(d[0].related?.[0].range, commandRange(t, lineOf(t, 'vt 0 0') + 4));
  assert.match(d[0].message, /this mesh's vertices \(3\) and every later one have none/);
  // Across a chunk border (32 KB): the mesh line in one chunk, its first vertex in the next.
  const filler = Array.from({ length: 4000 }, (_, i) => `# filler ${i}`);
  t = iqe('mesh a', ...TRIANGLE_VERTICES.flatMap((v) => [v, 'vt 0 0']), 'fm 0 1 2', 'mesh b', ...filler, ...TRIANGLE);
  d = withCode(validateIqe(t), 'attribute-count');
  assert.deepEqual(d[0].range, commandRange(t, lineOf(t, 'mesh b')));
});

test('check and compile print at most 1,000 problems, errors first, then how many more (--json and --all have every one)', async () => {
  // 1,500 warnings (polygons) first, then 1,200 errors (a blend joint that does not exist).
  const lines = ['joint a -1', 'pq 0 0 0 0 0 0 1', 'mesh m', ...vertices(1200).flatMap((v) => [v, 'vb 5 1'])];
  for (let i = 0; i < 1500; i++) lines.push('fa 0 1 2 3');
  const text = iqe(...lines);
  await withTempDir('iqm-cap-', (dir) => {
    const file = join(dir, 'many.iqe');
    writeFileSync(file, text);
    const run = (...args: string[]): string[] => spawnSync(process.execPath, [resolve('dist', 'cli.js'), ...args], { encoding: 'utf8' }).stdout.trimEnd().split('\n');
    const printed = run('check', file);
    assert.equal(printed.length, 1001);
    // The errors are chosen first (all 1,000 shown are errors), printed in line order.
    assert.ok(printed.slice(0, 1000).every((l) => / error: .*\[blend-joint-range\]$/.test(l)), printed[0]);
    const json = JSON.parse(run('check', '--json', file).join('\n')) as { diagnostics: { severity: string }[] };
    const total = json.diagnostics.length;
    assert.equal(json.diagnostics.filter((d) => d.severity === 'error').length, 1200);
    assert.ok(total >= 2700, `${total} problems`);
    assert.equal(printed[1000], `… and ${total - 1000} more problems (200 of them errors) not shown; --json lists them all, --all prints them all`);
    assert.equal(run('check', '--all', file).length, total);
    const compiled = run('compile', file, '-o', join(dir, 'many.iqm'));
    assert.equal(compiled.length, 1001);
    assert.equal(compiled[1000], '… and 200 more problems (200 of them errors) not shown; iqm-tools check --all prints them all, --json lists them all');
  });
});

test('sample of an IQE: every vp line in file order (unreferenced and duplicate vertices too), skinned as the file says', async () => {
  // Vertex 3 duplicates vertex 0 (the compile welds them), vertex 4 is used by no face (dropped).
  const lines = [
    ...jointLines(2), 'pq 0 0 0 0 0 0 1', 'pq 0 0 1 0 0 0 1', 'mesh m',
    'vp 0 0 0', 'vb 0 1', 'vp 1 0 1', 'vb 1 1', 'vp 0 1 1', 'vb 0 0.5 1 0.5', 'vp 0 0 0', 'vb 0 1', 'vp 5 5 5', 'vb 1 1',
    'fm 0 1 2', 'fm 3 2 1',
    'animation "bend"', 'frame', 'pq 0 0 0 0 0 0 1', 'pq 0 0 1 0 0 0 1', 'frame', 'pq 0 0 0 0 0 0 1', 'pq 0 0 1 0.38268343 0 0 0.92387953',
  ];
  const text = iqe(...lines);
  await withTempDir('iqm-sample-', (dir) => {
    const file = join(dir, 'bend.iqe');
    writeFileSync(file, text);
    const cli = (...args: string[]): string => spawnSync(process.execPath, [resolve('dist', 'cli.js'), ...args], { encoding: 'utf8' }).stdout;
    const info = JSON.parse(cli('info', file, '--json')) as { meshes: { vertices: number }[] };
    const bind = JSON.parse(cli('sample', file, '--frame', '-1', '--json')) as { positions: number[]; vertex_order: string };
    const bent = JSON.parse(cli('sample', file, '--frame', '1', '--json')) as { positions: number[] };
    assert.equal(bind.vertex_order, 'vp');
    // info counts the same vertices sample gives: the vp lines.
    assert.equal(info.meshes.reduce((n, m) => n + m.vertices, 0), 5);
    assert.deepEqual(bind.positions, [0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 5, 5, 5]);
    assert.match(cli('sample', file, '--frame', '-1'), /^\S+: frame -1, 5 vertices \(vp order\), 2 joints\n/);
    // Frame 1 against an evaluator of the IQE that shares no code with the compiler or reader.
    const doc = new IqeDocument(text);
    const rig = readRig(doc);
    const world = worldMatrices(rig, rig.frames[1]);
    const inverseBind = inverseBindMatrices(rig);
    for (let v = 0; v < 5; v++) {
      const expected = skinnedPosition(rig, world, inverseBind, v);
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(bent.positions[3 * v + k] - expected[k]) < 1e-4, `vertex ${v}: ${bent.positions.slice(3 * v, 3 * v + 3)} vs ${expected}`);
    }
    // The vertex no face uses moves with its joint too (it is not dropped).
    assert.notDeepEqual(bent.positions.slice(12, 15), [5, 5, 5]);
  });
});

/** Vertices first..first+count-1 with every per-vertex line (vt vn vx vc v0 vs vb). */
function vertexLines(first: number, count: number): string[] {
  return Array.from({ length: count }, (_, k) => {
    const i = first + k;
    return [`vp ${i} ${i * i} ${i % 3}`, `vt ${i / 7} 0.5`, 'vn 0 0 1', 'vx 1 0 0 1', 'vc 1 0 0 1', `v0 ${i} 0 0 0`, `vs ${i % 2}`, `vb ${i % 3} 0.2 ${(i + 1) % 3} 0.7 ${(i + 2) % 3} 0.1`];
  }).flat();
}

test('sample of an IQE streamed with only positions and blends kept: the same as from the whole text and the full compile', async () => {
  // Every kind of line the skin-only reader skips (vt, vn, vx, vc, v0, vs, fs, fa and fm faces),
  // blend weights that need sorting and renormalising, a scaled frame pose, and a vp no face uses.
  const rigged = [
    ...jointLines(3), 'pq 0 0 0 0 0 0 1', 'pq 0 1 0 0 0 0 1', 'pq 0 1 0 0 0 0 1', 'mesh a', 'material m',
    ...vertexLines(0, 7), 'fa 0 1 2', 'fs 1 0 1', 'fa 0 2 3 4', 'mesh b', ...vertexLines(7, 3), 'fm 0 1 2',
    'animation "walk"', 'frame', 'pq 0 0 0 0 0 0 1', 'pq 0 1 0 0 0 0 1', 'pq 0 1 0 0.38268343 0 0 0.92387953 1 2 1',
    'frame', 'pq 0 0.5 0 0 0 0 1', 'pq 0 1 0 0 0.38268343 0 0.92387953', 'pq 0 1 0 0 0 0 1',
  ];
  // Joints but no face: the full compile writes no joints, and neither does sample.
  const faceless = [...jointLines(2), 'pq 0 0 0 0 0 0 1', 'pq 0 0 1 0 0 0 1', 'vp 0 0 0', 'vb 1 1', 'vp 1 1 1', 'vb 0 1'];
  await withTempDir('iqm-sample-', async (dir) => {
    for (const [name, lines, frames] of [['rigged', rigged, [-1, 0, 1]], ['faceless', faceless, [-1]]] as const) {
      const file = join(dir, `${name}.iqe`);
      const text = iqe(...lines);
      writeFileSync(file, text);
      const streamed = await loadModel(file, 'vp');
      const whole = iqeModel(file, text, 'vp');
      const compiled = await loadModel(file, 'compiled');
      assert.ok(streamed.ok && whole.ok && compiled.ok, name);
      for (const frame of frames) {
        const a = sampleModel(streamed.model, frame);
        const b = sampleModel(whole.model, frame);
        const c = sampleModel(compiled.model, frame);
        assert.ok(typeof a !== 'string' && typeof b !== 'string' && typeof c !== 'string');
        assert.equal(a.positions.length, 3 * lines.filter((l) => l.startsWith('vp ')).length, `${name}: one position per vp`);
        assert.deepEqual(a.positions, b.positions, `${name} frame ${frame}: positions`);
        assert.deepEqual(a.joints, b.joints, `${name} frame ${frame}: joints`);
        // The skeleton and animation are the full compile's.
        assert.equal(a.jointCount, c.jointCount, `${name}: joint count`);
        assert.deepEqual(a.joints, c.joints, `${name} frame ${frame}: the full compile's joints`);
      }
      assert.equal(streamed.model.frameCount, compiled.model.frameCount);
    }
  });
});

test('sample of a real IQE: as many vertices as info counts, the bind pose equal to the vp lines', async (t) => {
  const file = resolve('..', 'shared', 'assets', 'iqe', 'unvanquished', 'lgun_view.iqe');
  if (!existsSync(file)) return t.skip(`${file} is absent`);
  const loaded = await loadModel(file, 'vp');
  assert.ok(loaded.ok);
  const result = sampleModel(loaded.model, -1);
  assert.ok(typeof result !== 'string');
  const doc = new IqeDocument(readFileSync(file, 'utf8'));
  const expected = readRig(doc).positions;
  assert.equal(result.positions.length / 3, summarizeIqe(doc).meshes.reduce((n, m) => n + m.vertices, 0));
  assert.equal(result.positions.length / 3, expected.length);
  for (let v = 0; v < expected.length; v += 97) {
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(result.positions[3 * v + k] - expected[v][k]) < 1e-3 * (1 + Math.abs(expected[v][k])), `vertex ${v}`);
  }
});

test('the fuzz corpus: every input that once failed passes every IQE path now', (t) => {
  const dir = resolve('test', 'fuzz', 'corpus', 'iqe');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.iqe')) : [];
  if (files.length === 0) return t.skip(`${dir} has no inputs`);
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.doesNotThrow(() => exerciseIqe(text), f);
  }
  t.diagnostic(`${files.length} inputs`);
});

test('the fuzz corpus: every sidecar that once failed passes the check, hover and preview paths now', async (t) => {
  const dir = resolve('test', 'fuzz', 'corpus', 'sidecar');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.txt')) : [];
  if (files.length === 0) return t.skip(`${dir} has no inputs`);
  for (const f of files) {
    // The name after the fuzz's prefix says the kind (animation.cfg is one by name).
    await assert.doesNotReject(exerciseSidecar(readFileSync(join(dir, f)), f.replace(/^sidecar-[0-9a-f]{12}-/, '')), f);
  }
  t.diagnostic(`${files.length} inputs`);
});

test('the fuzz corpus: every IQM, MD3 and DPM input that once failed reads, poses, converts to IQE that compiles, and validates now', (t) => {
  let count = 0;
  for (const format of ['iqm', 'md3', 'dpm', 'validator']) {
    const dir = resolve('test', 'fuzz', 'corpus', format);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.txt')) : [];
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(join(dir, f)));
      assert.doesNotThrow(() => exerciseValidator(bytes), `${format}/${f}: the validator`);
      if (format !== 'validator') assert.doesNotThrow(() => exercise(bytes, true), `${format}/${f}`);
    }
    count += files.length;
  }
  if (count === 0) return t.skip('the corpus has no binary model inputs');
  t.diagnostic(`${count} inputs`);
});

test('the problem list: 10,000 problems over several blocks read back as added, ordered by line, with no room beyond a block', () => {
  const problems = new ProblemList();
  const n = 10_000;
  // Lines run down in steps of three, so that the order sorts (stable within a line).
  const lineOfProblem = (i: number): number => 5000 - Math.floor(i / 3);
  for (let i = 0; i < n; i++) {
    const rare = i % 997 === 0;
    problems.add(lineOfProblem(i), i % 2 ? 'degenerate-triangle' : 'face-index-range', i % 5, i + 0.5, -i, rare ? i + 1 : -1, Target.Line, rare ? i + 2 : -1, rare ? `note ${i}` : undefined, rare ? 7 : 0);
  }
  problems.trim();
  assert.equal(problems.length, n);
  for (let i = 0; i < n; i++) {
    const rare = i % 997 === 0;
    assert.deepEqual(
      [problems.line(i), CODES[problems.code(i)], problems.target(i), problems.a(i), problems.b(i), problems.relatedLine(i), problems.endLine(i), problems.c(i), problems.notes.get(i)],
      [lineOfProblem(i), i % 2 ? 'degenerate-triangle' : 'face-index-range', i % 5, i + 0.5, -i, rare ? i + 1 : -1, rare ? i + 2 : -1, rare ? 7 : 0, rare ? `note ${i}` : undefined],
      `problem ${i}`,
    );
  }
  const order = [...problems.order()];
  const expected = Array.from({ length: n }, (_, i) => i).sort((x, y) => lineOfProblem(x) - lineOfProblem(y) || x - y);
  assert.deepEqual(order, expected);
  // 29 bytes a problem and the rare fields; trimmed, nothing more.
  const bytes = problems.arrays().reduce((sum, a) => sum + a.byteLength, 0);
  assert.ok(bytes <= 29 * n + 4096, `${bytes} bytes for ${n} problems`);
});

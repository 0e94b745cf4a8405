// `iqm-tools compile` (CLI.md): output file, errors printed as `check` prints them with exit 1
// and nothing written, usage and I/O problems as one stderr line with exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCompileArguments } from '../../cli/compile';
import { threadsFor } from '../../cli/compileEachPool';
import { compileText, parseIqm } from '../helpers/compile-iqm';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

function run(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'compile', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const GOOD = '# Inter-Quake Export\nmesh m\nmaterial x\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfa 0 1 2\n';
const BAD = '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfa 0 1 7\n';

test('compile: writes IN.iqm next to the input by default, or -o', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'model.iqe');
    writeFileSync(input, GOOD);
    const r = run([input]);
    assert.equal(r.status, 0, r.stderr);
    const file = parseIqm(new Uint8Array(readFileSync(join(dir, 'model.iqm'))));
    assert.equal(file.header.num_triangles, 1);
    const out = join(dir, 'other.iqm');
    assert.equal(run([input, '-o', out, '-s', '2']).status, 0);
    assert.equal(parseIqm(new Uint8Array(readFileSync(out))).view.getFloat32(parseIqm(new Uint8Array(readFileSync(out))).arrays[0].offset + 12, true), 2);
    assert.deepEqual(readdirSync(dir).sort(), ['model.iqe', 'model.iqm', 'other.iqm'], 'no temporary files left');
  });
});

test('compile: errors are printed like check, exit 1, nothing written', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'bad.iqe');
    writeFileSync(input, BAD);
    const r = run([input]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /bad\.iqe:6:\d+: error: .*\[face-index-range\]/);
    assert.deepEqual(readdirSync(dir), ['bad.iqe']);
  });
});

test('compile: usage and I/O problems exit 2 with one stderr line', { skip: NO_CLI }, () => {
  for (const args of [[], ['a.iqe', '-s', '0'], ['a.iqe', '--bogus'], ['a.iqe', '-t', 'x'], ['/nonexistent/dir/x.iqe']]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'm.iqe');
    writeFileSync(input, GOOD);
    const r = run([input, '-o', join(dir, 'missing', 'out.iqm')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot write/);
  });
});

test('compile: -o FOLDER (existing, or ending in /) writes FOLDER/IN.iqm', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'walker.iqe');
    writeFileSync(input, GOOD);
    mkdirSync(join(dir, 'build'));
    for (const target of [join(dir, 'build'), join(dir, 'build') + '/']) {
      rmSync(join(dir, 'build', 'walker.iqm'), { force: true });
      const r = run([input, '-o', target]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(parseIqm(new Uint8Array(readFileSync(join(dir, 'build', 'walker.iqm')))).header.num_triangles, 1, target);
    }
    // A folder that does not exist is not created.
    const r = run([input, '-o', join(dir, 'missing') + '/']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /missing\/walker\.iqm: cannot write: ENOENT/);
    assert.deepEqual(readdirSync(join(dir, 'build')), ['walker.iqm']);
  });
});

test('compile: -o through a symbolic link writes the linked file and keeps the link', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'm.iqe');
    writeFileSync(input, GOOD);
    mkdirSync(join(dir, 'build'));
    symlinkSync('build/m.iqm', join(dir, 'link.iqm'));
    const r = run([input, '-o', join(dir, 'link.iqm')]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(join(dir, 'link.iqm')).isSymbolicLink(), 'the link was replaced by a file');
    assert.equal(parseIqm(new Uint8Array(readFileSync(join(dir, 'build', 'm.iqm')))).header.num_triangles, 1);
    assert.deepEqual(readdirSync(join(dir, 'build')), ['m.iqm']);
  });
});

test('compile: an output named for another format (x.obj, x.iqe, no extension) is refused and nothing written; .iqm, .vvm, .exm in any case are IQM names', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'm.iqe');
    writeFileSync(input, GOOD);
    for (const name of ['x.obj', 'x.iqe', 'x.glb', 'x']) {
      const r = run([input, '-o', join(dir, name)]);
      assert.equal(r.status, 2, name);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /^compile: the output .* (is named \.\w+|has no extension), but what is written is IQM: name it \.iqm \(or \.vvm, \.exm\)\n$/);
    }
    assert.deepEqual(readdirSync(dir), ['m.iqe'], 'nothing written');
    for (const name of ['x.IQM', 'x.vvm', 'x.exm']) {
      const r = run([input, '-o', join(dir, name)]);
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      assert.equal(parseIqm(new Uint8Array(readFileSync(join(dir, name)))).header.num_triangles, 1);
    }
  });
});

test('compile: an output that is one of the inputs is refused and the input kept', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'm.iqe');
    const anim = join(dir, 'walk.iqe');
    writeFileSync(input, GOOD);
    writeFileSync(anim, GOOD);
    symlinkSync('m.iqe', join(dir, 'alias.iqm'));
    for (const args of [[input, '-o', input], [input, '-o', join(dir, '.', 'alias.iqm')], [input, anim, '-o', anim]]) {
      const r = run(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /is the input .* the IQM would replace it/);
    }
    assert.equal(readFileSync(input, 'utf8'), GOOD);
    assert.equal(readFileSync(anim, 'utf8'), GOOD);
    assert.deepEqual(readdirSync(dir).sort(), ['alias.iqm', 'm.iqe', 'walk.iqe']);
  });
});

test('compile and check: a file that is not IQE text is one line and exit 2, not a page of diagnostics (check validates an IQM)', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const cases: [string, Uint8Array | string, RegExp][] = [
      ['model.iqe', new Uint8Array([...Buffer.from('INTERQUAKEMODEL\0'), 2, 0, 0, 0, 0, 0, 0, 0]), /: an IQM model, not IQE text/],
      ['pointer.iqe', 'version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 1000\n', /: a Git LFS pointer/],
      ['blob.iqe', new Uint8Array([35, 32, 73, 0, 1, 2, 10, 118, 112, 32, 48]), /: binary data, not IQE text/],
    ];
    for (const [name, bytes, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      for (const command of ['compile', 'check']) {
        const r = spawnSync(process.execPath, [CLI, command, path], { encoding: 'utf8' });
        if (command === 'check' && name === 'model.iqe') {
          // check validates an IQM model (issue 33), whatever its name: this one is only a header's start.
          assert.equal(r.status, 1, r.stderr);
          assert.match(r.stdout, /model\.iqe: byte 24: error: the file has 24 bytes, an IQM header needs 124: .*\[iqm-header-truncated\]/);
          continue;
        }
        assert.equal(r.status, 2, `${command} ${name}: ${r.stdout}${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.match(r.stderr, message);
      }
    }
    // Text without the header is IQE with a problem: the header diagnostic, exit 1.
    writeFileSync(join(dir, 'plain.iqe'), 'mesh m\nvp 0 0 0\n');
    const r = spawnSync(process.execPath, [CLI, 'compile', join(dir, 'plain.iqe')], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /plain\.iqe:1:1: error: .*\[header\]/);
    assert.deepEqual(readdirSync(dir).sort(), ['blob.iqe', 'model.iqe', 'plain.iqe', 'pointer.iqe'], 'nothing written');
  });
});

test('compile --json: one object on stdout with the output, its figures and the notes; or the errors (exit 1)', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    // One triangle whose corners share a texture coordinate: a degenerate-uv note.
    const flat = '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvt 0.5 0.5\nvp 1 0 0\nvt 0.5 0.5\nvp 0 1 0\nvt 0.5 0.5\nfa 0 1 2\n';
    const input = join(dir, 'flat.iqe');
    writeFileSync(input, flat);
    const r = run([input, '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'the notes are in the JSON, not on stderr');
    const out = JSON.parse(r.stdout) as { output: string; stats: Record<string, number>; notes: { file: string; line: number; code: string; severity: string }[] };
    assert.equal(out.output, join(dir, 'flat.iqm'));
    assert.deepEqual(out.stats, { meshes: 1, vertices: 3, triangles: 1, joints: 0, animations: 0, frames: 0, bytes: readFileSync(join(dir, 'flat.iqm')).length });
    assert.deepEqual(out.notes.map((n) => [n.file, n.code, n.severity]), [[input, 'degenerate-uv', 'information']]);
    assert.ok(out.notes[0].line >= 3, 'a 1-based line of a vp');

    const bad = join(dir, 'bad.iqe');
    writeFileSync(bad, BAD);
    const e = run([bad, '--json']);
    assert.equal(e.status, 1);
    const errors = JSON.parse(e.stdout) as { diagnostics: { file: string; line: number; column: number; code: string; severity: string }[] };
    assert.deepEqual(errors.diagnostics.map((d) => [d.file, d.line, d.code, d.severity]), [[bad, 6, 'face-index-range', 'error']]);
    assert.ok(!existsSync(join(dir, 'bad.iqm')));
  });
});

test('check FILE ...: every file, lines with their file; JSON with each file; exit 2 > 1 > 0', { skip: NO_CLI }, () => {
  return withTempDir('iqm-check-', (dir) => {
    const good = join(dir, 'good.iqe');
    const bad = join(dir, 'bad.iqe');
    writeFileSync(good, GOOD);
    writeFileSync(bad, BAD);
    const check = (...args: string[]) => spawnSync(process.execPath, [CLI, 'check', ...args], { encoding: 'utf8' });
    assert.equal(check(good).status, 0);
    const both = check(good, bad);
    assert.equal(both.status, 1);
    assert.match(both.stdout, /bad\.iqe:6:\d+: error: .*\[face-index-range\]/);
    assert.doesNotMatch(both.stdout, /good\.iqe/);
    const json = check(bad, good, '--json');
    assert.equal(json.status, 1);
    const { diagnostics } = JSON.parse(json.stdout) as { diagnostics: { file: string; line: number; code: string; severity: string }[] };
    assert.deepEqual(diagnostics.filter((d) => d.severity === 'error').map((d) => [d.file, d.line, d.code]), [[bad, 6, 'face-index-range']]);
    assert.ok(diagnostics.every((d) => d.file === bad), 'good.iqe has no diagnostics');
    // A file that cannot be checked: its line on stderr, the others still checked, exit 2.
    const missing = check(good, join(dir, 'missing.iqe'), bad);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /missing\.iqe: cannot read: ENOENT/);
    assert.match(missing.stdout, /bad\.iqe:6:/);
    assert.equal(check().status, 2, 'no file: usage');
  });
});

test('compile: option parsing follows the reference (-t with one value is Z, repeats accumulate)', () => {
  const a = parseCompileArguments(['in.iqe', '-t', '3', '-t', '1,2', '-s', '2', '-s', '3', '-r', '90', '--end', '-3', '--start', '-4']);
  assert.equal(a.output, 'in.iqm');
  assert.deepEqual(a.options.translate, [1, 2, 3]);
  assert.equal(a.options.scale, 6);
  assert.deepEqual(a.options.rotate, [[90, 0, 0]]);
  assert.deepEqual(a.inputs, [{ path: 'in.iqe', options: { end: -3, start: 0 } }]);
  assert.throws(() => parseCompileArguments(['a.iqe', '-s', 'abc']));
  // Several inputs: per-input options go to the next input; after the last one, to it.
  const b = parseCompileArguments(['--fps', '10', 'mesh.iqe', '--name', 'walk', 'walk.iqe', 'run.iqe', '--loop', '-o', 'out.iqm']);
  assert.equal(b.output, 'out.iqm');
  assert.deepEqual(b.inputs, [{ path: 'mesh.iqe', options: { fps: 10 } }, { path: 'walk.iqe', options: { name: 'walk' } }, { path: 'run.iqe', options: { loop: true } }]);
});

test('compile: what the compile itself notices goes to stderr at its line, and the file is written', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const input = join(dir, 'two.iqe');
    const text = '# Inter-Quake Export\njoint j -1\npq 0 0 0 0 0 0 -1\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvb 0 1\nvb 0 1\nvb 0 1\nfa 0 1 2\nanimation a\nframe\npq 0 0 0 0 0 0 -1\n  animation b\nframe\npq 0 0 0 0 0 0 -1\n';
    writeFileSync(input, text);
    const r = run([input, '--name', 'x']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /two\.iqe:14:3: warning: .*exactly one animation.*\[cli-option-ignored\]/);
    assert.ok(existsSync(join(dir, 'two.iqm')));
  });
});

test('compile: a file of several read blocks (streamed) gives the bytes of the in-memory compile', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    // CRLF text of more than two 1 MiB read blocks, parsed at many points, with the worker.
    const lines = ['# Inter-Quake Export', 'joint root -1', 'pq 0 0 0 0 0 0 -1', 'mesh "m\u00e9"', 'material x'];
    const side = 180;
    for (let y = 0; y <= side; y++) for (let x = 0; x <= side; x++) lines.push(`vp ${x * 0.25} ${y * 0.5} ${(x * y) % 7}`, `vt ${x / side} ${y / side}`, 'vb 0 1');
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const i = y * (side + 1) + x;
        lines.push(`fm ${i} ${i + side + 1} ${i + 1}`, `fm ${i + 1} ${i + side + 1} ${i + side + 2}`);
      }
    }
    lines.push('animation "a"', 'framerate 10');
    for (let f = 0; f < 3000; f++) lines.push('frame', `pq 0 0 ${f * 0.001} 0 0 0 -1`);
    lines.push('comment', 'free text \u{1F600}', 'vp 9 9 9');
    const text = lines.join('\r\n') + '\r\n';
    assert.ok(text.length > 2.1 * 2 ** 20, `${text.length} characters`);
    const input = join(dir, 'big.iqe');
    writeFileSync(input, text);
    const r = run([input]);
    assert.equal(r.status, 0, r.stderr);
    const expected = compileText(text).result.bytes!;
    assert.ok(Buffer.from(readFileSync(join(dir, 'big.iqm'))).equals(Buffer.from(expected)), 'streamed CLI output = in-memory compile');
  });
});

test('compile: a mesh file and animation files, merged; errors name their file', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-', (dir) => {
    const skeleton = 'joint root -1\njoint tip 0\npq 0 0 0 0 0 0 -1\npq 0 0 1 0 0 0 -1\n';
    const mesh = join(dir, 'mesh.iqe');
    writeFileSync(mesh, '# Inter-Quake Export\n' + skeleton + 'mesh m\nmaterial x\nvp 0 0 0\nvp 1 0 0\nvp 0 1 2\nvb 0 1\nvb 0 1\nvb 1 1\nfa 0 1 2\n');
    const walk = join(dir, 'walk.iqe');
    writeFileSync(walk, '# Inter-Quake Export\n' + skeleton + 'animation cycle\nframerate 20\nframe\npq 0 0 0 0 0 0 -1\npq 0 0 1 0 0 0 -1\nframe\npq 0 0 0.5 0 0 0 -1\npq 0 0 1 0 0 0 -1\n');
    const r = run([mesh, '--name', 'walk', '--loop', walk, '-o', join(dir, 'out.iqm')]);
    assert.equal(r.status, 0, r.stderr);
    const info = JSON.parse(spawnSync(process.execPath, [CLI, 'info', join(dir, 'out.iqm'), '--json'], { encoding: 'utf8' }).stdout);
    assert.deepEqual(info.animations, [{ name: 'walk', first_frame: 0, frames: 2, framerate: 20, loop: true }]);
    assert.equal(info.joints.length, 2);
    assert.equal(info.meshes[0].triangles, 1);
    // An error in the second input stops the compile, printed with that file's name.
    writeFileSync(walk, '# Inter-Quake Export\n' + skeleton + 'animation cycle\nframe\npq 0 0 0 0 0 0 0\n');
    const bad = run([mesh, walk, '-o', join(dir, 'bad.iqm')]);
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /walk\.iqe:\d+:\d+: error: /);
    assert.ok(!existsSync(join(dir, 'bad.iqm')));
  });
});

/** An IQE strip of `n` quads (3 + 6n lines): inputs of different sizes. */
function strip(n: number): string {
  const lines = ['# Inter-Quake Export', 'mesh m', 'material x'];
  for (let i = 0; i <= n; i++) lines.push(`vp ${i} 0 0`, `vp ${i} 1 0`);
  for (let i = 0; i < n; i++) lines.push(`fa ${2 * i} ${2 * i + 2} ${2 * i + 1}`, `fa ${2 * i + 1} ${2 * i + 2} ${2 * i + 3}`);
  return lines.join('\n') + '\n';
}

test('compile --each on a pool of threads: the same bytes, lines, JSON and exit status as on one thread; a bad file among good ones is never written', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-pool-', (dir) => {
    // Sizes out of input order, so that the pool (largest first) finishes them in another order.
    const inputs: string[] = [];
    for (const [name, text] of [['s1.iqe', strip(3)], ['big.iqe', strip(4000)], ['bad.iqe', BAD], ['s2.iqe', strip(40)], ['mid.iqe', strip(900)], ['s3.iqe', GOOD]] as const) {
      inputs.push(join(dir, name));
      writeFileSync(join(dir, name), text);
    }
    inputs.splice(3, 0, join(dir, 'missing.iqe'));
    const outcomes = ['1', '3'].map((threads) => {
      const out = join(dir, `out${threads}`) + '/';
      const text = run(['--each', ...inputs, '-o', out, '-s', '2'], { IQM_TOOLS_EACH_THREADS: threads });
      const json = run(['--each', ...inputs, '-o', out, '--json'], { IQM_TOOLS_EACH_THREADS: threads });
      const written = readdirSync(out).sort();
      return { text, json, out, written };
    });
    const [one, pool] = outcomes;
    assert.equal(one.text.status, 2, 'a missing file is exit 2, over the bad file\'s 1');
    for (const [kind, runs] of [['text', [one.text, pool.text]], ['--json', [one.json, pool.json]]] as const) {
      assert.equal(runs[1].status, runs[0].status, `${kind} status`);
      for (const key of ['stdout', 'stderr'] as const) assert.equal(runs[1][key], runs[0][key].replaceAll('out1/', 'out3/'), `${kind} ${key}`);
    }
    // Lines in input order; the bad file's error and the missing file's on their streams.
    assert.deepEqual(pool.text.stdout.split('\n').filter((l) => l.endsWith('bytes')).map((l) => l.slice(l.lastIndexOf('/') + 1, l.indexOf(':'))), ['s1.iqm', 'big.iqm', 's2.iqm', 'mid.iqm', 's3.iqm']);
    assert.match(pool.text.stdout, /bad\.iqe:6:\d+: error: .*\[face-index-range\]/);
    assert.match(pool.text.stderr, /missing\.iqe: cannot read: ENOENT/);
    // Only whole outputs: no bad.iqm, no temporary file left.
    assert.deepEqual(pool.written, ['big.iqm', 'mid.iqm', 's1.iqm', 's2.iqm', 's3.iqm']);
    assert.deepEqual(one.written, pool.written);
    for (const name of pool.written) assert.deepEqual(readFileSync(join(pool.out, name)), readFileSync(join(one.out, name)), name);
    // The worker's hidden command is refused on the main thread.
    const hidden = spawnSync(process.execPath, [CLI, '__compile-each-worker'], { encoding: 'utf8' });
    assert.equal(hidden.status, 2);
    assert.match(hidden.stderr, /unknown command/);
  });
});

test('compile --each threads: a thread keeps 1.5 cores busy, so two idle cores take one thread, and no more threads than inputs', () => {
  assert.equal(threadsFor(16, 2, 0), 1, 'two idle cores: one thread (a second one made the batch slower)');
  assert.equal(threadsFor(16, 3, 0), 2);
  assert.equal(threadsFor(16, 8, 0), 5);
  assert.equal(threadsFor(16, 8, 4.2), 2, 'the load average takes its cores');
  assert.equal(threadsFor(16, 8, 12), 1, 'an overloaded machine: one thread');
  assert.equal(threadsFor(3, 64, 0), 3, 'at most one thread per input');
});

test('compile --each: every input its own model in one run, the same bytes as one by one; bad files reported, the others written', { skip: NO_CLI }, () => {
  return withTempDir('iqm-compile-each-', (dir) => {
    const a = join(dir, 'a.iqe'), b = join(dir, 'b.IQE'), bad = join(dir, 'bad.iqe');
    writeFileSync(a, GOOD);
    writeFileSync(b, GOOD.replace('vp 0 1 0', 'vp 0 2 0'));
    writeFileSync(bad, BAD);
    const out = join(dir, 'out') + '/';
    // -s applies to every file, --name to the file it precedes.
    const r = run(['--each', a, '--name', 'second', b, '-o', out, '-s', '2']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 2, r.stdout);
    for (const [input, name] of [[a, 'a.iqm'], [b, 'b.iqm']]) {
      const single = join(dir, `single-${name}`);
      assert.equal(run([input, '-o', single, '-s', '2']).status, 0);
      assert.deepEqual(readFileSync(join(out, name)), readFileSync(single), `${name}: as compiled alone`);
    }
    // Beside each input without -o; a file with errors is reported (exit 1), the others written.
    const mixed = run(['--each', a, bad, '/nonexistent/x.iqe', b]);
    assert.equal(mixed.status, 2, 'a file that cannot be read is exit 2');
    assert.match(mixed.stdout, /bad\.iqe:6:\d+: error: .*\[face-index-range\]/);
    assert.match(mixed.stderr, /\/nonexistent\/x\.iqe: cannot read: ENOENT/);
    assert.ok(existsSync(join(dir, 'a.iqm')) && existsSync(join(dir, 'b.iqm')) && !existsSync(join(dir, 'bad.iqm')));
    const errorsOnly = run(['--each', a, bad, '-o', out]);
    assert.equal(errorsOnly.status, 1);
    // --json: one object with a result per input.
    const json = run(['--each', a, bad, '--json', '-o', out]);
    const results = (JSON.parse(json.stdout) as { results: { input: string; output?: string; diagnostics?: unknown[] }[] }).results;
    assert.deepEqual(results.map((x) => [x.input, x.output !== undefined, (x.diagnostics ?? []).length > 0]), [[a, true, false], [bad, false, true]]);
    // -o must be a folder; two inputs may not write the same file; an output may not be an input.
    for (const args of [['--each', a, '-o', join(dir, 'x.iqm')], ['--each', a, join(dir, 'out', '..', 'a.iqe'), '-o', out]]) {
      const refused = run(args);
      assert.equal(refused.status, 2, args.join(' '));
      assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    }
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'a.iqe'), GOOD);
    assert.match(run(['--each', a, join(dir, 'sub', 'a.iqe'), '-o', out]).stderr, /would both be written to/);
  });
});

// `iqm-tools diff`: semantic differences between two models. The compiler's parity with the
// reference outputs, seen through it (IQE-SEMANTICS.md §7: only tangent rows and adjacency may
// differ, and adjacency is not compared), and small cases where each section must report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { compileDocument } from '../helpers/compile-iqm';
import { diffModels } from '../../core/compare/diff';
import { IqeDocument } from '../../core/iqe/document';
import { readModel } from '../../core/formats/models';

const shared = resolve(process.cwd(), '..', 'shared');

function compile(text: string): Uint8Array {
  const result = compileDocument(new IqeDocument(text));
  assert.ok(result.bytes, JSON.stringify(result.diagnostics.filter((d) => d.severity === 'error')));
  return result.bytes;
}

test('diff: our compile of each shared IQE against the reference output differs only where §7 says', (t) => {
  if (!existsSync(join(shared, 'reference'))) return t.skip('../shared is absent');
  const files: Record<string, 'equal' | 'tangents'> = {
    'love-und-panzer/uv_grid': 'equal',
    'unvanquished/rocket': 'equal',
    'love-und-panzer/test_cube': 'tangents',
    'love-und-panzer/tank': 'tangents',
    'unvanquished/medistat': 'tangents',
    'unvanquished/lgun_view': 'tangents',
  };
  for (const [file, expected] of Object.entries(files)) {
    const ours = readModel(compile(readFileSync(join(shared, 'assets', 'iqe', `${file}.iqe`), 'utf8')));
    const reference = readModel(new Uint8Array(readFileSync(join(shared, 'reference', 'iqe', `${file.split('/')[1]}.iqm`))));
    const differences = diffModels(ours, reference);
    if (expected === 'equal') assert.deepEqual(differences, [], file);
    else {
      assert.ok(differences.length > 0, `${file}: the tangent rows of §7 must show`);
      for (const d of differences) {
        assert.equal(d.section, 'triangles', `${file}: ${d.message}`);
        assert.match(d.message, /differ only in tangents|more differences/, `${file}: ${d.message}`);
      }
    }
  }
});

const BASE = [
  '# Inter-Quake Export',
  'joint root -1',
  'joint arm 0',
  'pq 0 0 0 0 0 0 -1',
  'pq 0 0 1 0 0 0 -1',
  'mesh body',
  'material skin',
  'vp 0 0 0', 'vb 0 1',
  'vp 1 0 0', 'vb 1 1',
  'vp 0 1 0', 'vb 1 1',
  'fa 0 1 2',
  'animation wave',
  'framerate 10',
  'frame', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1',
  'frame', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1.5 0 0 0 -1',
  '',
].join('\n');

test('diff: a model equals itself; each kind of change shows in its section', () => {
  const base = readModel(compile(BASE));
  assert.deepEqual(diffModels(base, readModel(compile(BASE))), []);
  const cases: [string, string, RegExp][] = [
    ['joint arm 0', 'joint hand 0', /^joints: joint 1: name "arm" ≠ "hand"/],
    ['pq 0 0 1 0 0 0 -1\nmesh', 'pq 0 0 2 0 0 0 -1\nmesh', /^joints: joint 1 "arm": base pose/],
    ['vp 1 0 0', 'vp 1 0 0.5', /^triangles: mesh 0 "body" \(material "skin"\): 1 triangles of the first file and 1 of the second/],
    ['material skin', 'material hide', /^meshes: /],
    ['pq 0 0 1.5 0 0 0 -1', 'pq 0 0 1.75 0 0 0 -1', /^(frames: frame 1 pose 1 channel 2|bounds: frame 1)/],
    ['framerate 10', 'framerate 30', /^animations: animation 0 "wave": framerate 10 ≠ 30/],
  ];
  for (const [from, to, pattern] of cases) {
    const changed = readModel(compile(BASE.replace(from, to)));
    const differences = diffModels(base, changed).map((d) => `${d.section}: ${d.message}`);
    assert.ok(differences.some((d) => pattern.test(d)), `${from} → ${to}: ${JSON.stringify(differences)}`);
  }
});

test('diff: a rotation and its negation are the same; a change within one quantisation step is not a difference', () => {
  const a = readModel(compile(BASE));
  const b = readModel(compile(BASE.replace('pq 0 0 1 0 0 0 -1\nmesh', 'pq 0 0 1 -0 -0 -0 1\nmesh')));
  assert.deepEqual(diffModels(a, b).filter((d) => d.section === 'joints'), []);
});

test('iqm-tools diff: exit 0 when equal, 1 with differences (text and --json), 2 on bad input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iqm-diff-'));
  const a = join(dir, 'a.iqm');
  const b = join(dir, 'b.iqm');
  writeFileSync(a, compile(BASE));
  writeFileSync(b, compile(BASE.replace('framerate 10', 'framerate 24')));
  const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/cli.js', 'diff', ...args], { encoding: 'utf8' });
  assert.equal(cli(a, a).status, 0);
  const text = cli(a, b);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /animations: animation 0 "wave": framerate 10 ≠ 24/);
  const json = cli(a, b, '--json');
  assert.equal(json.status, 1);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.equal, false);
  assert.equal(parsed.differences[0].section, 'animations');
  const iqe = join(dir, 'base.iqe');
  writeFileSync(iqe, BASE);
  assert.equal(cli(iqe, a).status, 0, 'an IQE is compiled in memory and compared');
  const bad = cli(a, join(dir, 'missing.iqm'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /missing\.iqm: cannot read the file/);
});

test('diff: the same clips over frame strips laid out otherwise compare clip by clip, by name (a DPM and its conversion)', () => {
  // Two animations, then the same two in the other order with a frame no clip plays before them:
  // every clip plays the same poses, only the strip's layout differs.
  const anim = (name: string, z: number[]) => [`animation ${name}`, 'framerate 10', ...z.flatMap((v) => ['frame', 'pq 0 0 0 0 0 0 -1', `pq 0 0 ${v} 0 0 0 -1`])];
  const text = (...animations: string[][]) => [BASE.slice(0, BASE.indexOf('animation wave')), ...animations.flat(), ''].join('\n');
  const a = readModel(compile(text(anim('walk', [1, 1.25]), anim('run', [2, 2.5, 3]))));
  const reordered = readModel(compile(text(anim('spare', [9]), anim('run', [2, 2.5, 3]), anim('walk', [1, 1.25]))));
  const listed = diffModels(a, reordered).map((d) => `${d.section}: ${d.message}`);
  assert.deepEqual(listed.filter((d) => !d.startsWith('bounds')), ['animations: animation "spare" is only in the second model']);
  // A changed pose of a clip is still found, named by its clip and frame.
  const changed = readModel(compile(text(anim('run', [2, 2.75, 3]), anim('walk', [1, 1.25]))));
  const found = diffModels(a, changed).map((d) => `${d.section}: ${d.message}`);
  assert.ok(found.some((d) => /^frames: animation "run" frame 1 pose 1 channel 2: 2\.(5|49)\d* ≠ 2\.(75|74)\d*/.test(d)), JSON.stringify(found));
  assert.ok(!found.some((d) => /walk/.test(d)), JSON.stringify(found));
});

test('iqm-tools diff of a DPM and its conversion compares the clips each plays (grunt.dpm.framegroups beside the DPM)', (t) => {
  const dpm = join(shared, 'assets', 'dpm', 'nexuiz', 'grunt.dpm');
  if (!existsSync(dpm)) return t.skip(`${dpm} is absent`);
  const dir = mkdtempSync(join(tmpdir(), 'iqm-diff-dpm-'));
  for (const name of ['grunt.dpm', 'grunt.dpm.framegroups']) writeFileSync(join(dir, name), readFileSync(join(shared, 'assets', 'dpm', 'nexuiz', name)));
  const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  assert.equal(cli('convert', join(dir, 'grunt.dpm'), '-o', join(dir, 'grunt.iqe')).status, 0);
  const diff = cli('diff', join(dir, 'grunt.dpm'), join(dir, 'grunt.iqe'), '--json');
  const { differences } = JSON.parse(diff.stdout) as { differences: { section: string; message: string }[] };
  // The clips agree (before: "animation count 441 ≠ 26", then every clip's name and frames); what
  // is left is what the conversion really changes: the frames no clip plays as one more animation.
  assert.deepEqual(differences.filter((d) => d.section === 'animations' || d.section === 'frames').map((d) => d.message), ['animation "grunt.dpm frames" is only in the second model']);
});

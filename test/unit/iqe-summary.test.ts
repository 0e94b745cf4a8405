// `iqm-tools info` for IQE (core/iqe/summary.ts) against the facts of IQE-SEMANTICS.md §7,
// which were counted from the reference compiler's outputs, not by this code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { IqeDocument } from '../../core/iqe/document';
import { summarizeIqe } from '../../core/iqe/summary';

const assets = resolve(process.cwd(), '..', 'shared', 'assets', 'iqe');

// file: [triangles, joints, animations, frames, vp lines]
const FACTS: Record<string, [number, number, number, number, number]> = {
  'love-und-panzer/tank.iqe': [8660, 0, 0, 0, 5554],
  'love-und-panzer/test_cube.iqe': [12, 1, 9, 540, 24],
  'love-und-panzer/uv_grid.iqe': [2, 0, 0, 0, 4],
  'unvanquished/lgun_view.iqe': [7716, 47, 4, 173, 7427],
  'unvanquished/medistat.iqe': [1378, 31, 10, 350, 1342],
  'unvanquished/rocket.iqe': [156, 2, 0, 0, 135],
};

test('IQE summary: triangles, joints, animations and frames of the shared files match §7', (t) => {
  if (!existsSync(assets)) return t.skip(`${assets} is absent`);
  for (const [file, [triangles, joints, animations, frames, vertices]] of Object.entries(FACTS)) {
    const s = summarizeIqe(new IqeDocument(readFileSync(resolve(assets, file), 'utf8')));
    assert.equal(s.meshes.reduce((n, m) => n + m.triangles, 0), triangles, `${file} triangles`);
    assert.equal(s.meshes.reduce((n, m) => n + m.vertices, 0), vertices, `${file} vertices`);
    assert.equal(s.joints.length, joints, `${file} joints`);
    assert.equal(s.animations.length, animations, `${file} animations`);
    assert.equal(s.frames, frames, `${file} frames`);
    let first = 0;
    for (const a of s.animations) {
      assert.equal(a.first_frame, first, `${file} ${a.name} first frame`);
      first += a.frames;
    }
  }
});

test('IQE summary: meshes per mesh command, polygons as n - 2 triangles, nothing after comment', () => {
  const text = ['# Inter-Quake Export', 'joint a', 'joint b 0', 'mesh one', 'material m1', 'vp 0 0 0', 'vp 1 0 0', 'vp 1 1 0', 'vp 0 1 0', 'fm 0 1 2 3',
    'mesh two', 'vp 0 0 1', 'vp 1 0 1', 'vp 1 1 1', 'fm 0 1 2', 'animation run', 'framerate 24', 'loop', 'frame', 'pq 0 0 0 0 0 0', 'pq 0 0 0 0 0 0',
    'frame', 'pq 0 0 0 0 0 0', 'pq 0 0 0 0 0 0', 'comment', 'fm 0 1 2', 'animation ghost', 'pq 0 0 0 0 0 0'].join('\n');
  const s = summarizeIqe(new IqeDocument(text));
  assert.deepEqual(s.meshes, [
    { name: 'one', material: 'm1', vertices: 4, triangles: 2 },
    { name: 'two', material: '', vertices: 3, triangles: 1 },
  ]);
  assert.deepEqual(s.joints, [{ name: 'a', parent: -1 }, { name: 'b', parent: 0 }]);
  assert.deepEqual(s.animations, [{ name: 'run', first_frame: 0, frames: 2, framerate: 24, loop: true }]);
  assert.equal(s.frames, 2);
});

test('iqm-tools info on an IQE prints the summary; errors become warnings, exit 0', () => {
  const file = resolve(process.cwd(), 'out', 'test', 'summary-broken.iqe');
  writeFileSync(file, '# Inter-Quake Export\njoint a 3\nmesh m\nvp 0 0 0\nfa 0 0 9\n');
  const run = spawnSync(process.execPath, ['dist/cli.js', 'info', '--json', file], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const info = JSON.parse(run.stdout);
  assert.equal(info.format, 'iqe');
  assert.equal(info.version, 0);
  assert.deepEqual(info.joints, [{ name: 'a', parent: 3 }]);
  assert.ok(info.warnings.some((w: string) => w.includes('[joint-parent]')), JSON.stringify(info.warnings));
  assert.ok(info.warnings.some((w: string) => w.includes('[face-index-range]')), JSON.stringify(info.warnings));
});

test('iqm-tools sample on an IQE samples the compiled model; an IQE with errors exits 2 naming the line', (t) => {
  if (!existsSync(assets)) return t.skip(`${assets} is absent`);
  const rocket = spawnSync(process.execPath, ['dist/cli.js', 'sample', resolve(assets, 'unvanquished/rocket.iqe'), '--frame', '-1', '--json'], { encoding: 'utf8' });
  assert.equal(rocket.status, 0, rocket.stderr);
  const sampled = JSON.parse(rocket.stdout);
  assert.equal(sampled.positions.length, 3 * 135, 'the 135 output vertices of §7');
  assert.equal(sampled.joints.length, 2);
  const file = resolve(process.cwd(), 'out', 'test', 'sample-broken.iqe');
  writeFileSync(file, '# Inter-Quake Export\nmesh m\nvp 0 0 0\nfa 0 1 2\n');
  const broken = spawnSync(process.execPath, ['dist/cli.js', 'sample', file, '--frame', '0'], { encoding: 'utf8' });
  assert.equal(broken.status, 2);
  assert.equal(broken.stdout, '');
  assert.match(broken.stderr.trim(), /^.*sample-broken\.iqe: .*\[face-index-range\] \(at line 4, column 6\)$/);
});

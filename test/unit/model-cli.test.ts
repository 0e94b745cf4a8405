import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { near } from '../helpers/model-ref';
import { smallIqmDocument } from '../helpers/model-writers';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('cli info --json: the CLI.md keys for IQM, MD3 (mislabeled) and DPM', { skip: NO_ASSETS }, () => {
  const iqm = cli('info', join(ASSETS, 'iqm/raylib_guy/guy.iqm'), '--json');
  assert.equal(iqm.status, 0, iqm.stderr);
  const info = JSON.parse(iqm.stdout);
  for (const k of ['format', 'version', 'meshes', 'joints', 'animations', 'frames', 'tags', 'warnings']) assert.ok(k in info, k);
  assert.equal(info.format, 'iqm');
  assert.deepEqual(info.meshes, [{ name: 'Cube.005', material: 'Materialcube', vertices: 240, triangles: 120 }]);
  assert.equal(info.joints.length, 14);
  assert.deepEqual(info.animations.map((a: { name: string; first_frame: number; frames: number }) => [a.name, a.first_frame, a.frames]), [['jump', 0, 61], ['dance', 61, 61]]);
  assert.equal(info.frames, 122);

  const md3 = JSON.parse(cli('info', join(ASSETS, 'iqm/mislabeled/rtzsentry.iqm'), '--json').stdout);
  assert.equal(md3.format, 'md3');
  assert.equal(md3.version, 15);
  assert.deepEqual(md3.joints, []);
  assert.deepEqual(md3.animations, []);
  assert.ok(md3.warnings.some((w: string) => /named \.iqm but its content is MD3/.test(w)));

  const dpm = JSON.parse(cli('info', join(ASSETS, 'dpm/nexuiz/grunt.dpm'), '--json').stdout);
  assert.equal(dpm.format, 'dpm');
  assert.equal(dpm.version, 2);
  assert.equal(dpm.frames, 441);
  assert.deepEqual(dpm.joints[1], { name: dpm.joints[1].name, parent: 0 });
  // The file's own animations as CLI.md has them ([] for a DPM), and the clips its preview plays:
  // grunt.dpm.framegroups beside it (issue 30: info said only "animations: 0").
  assert.deepEqual(dpm.animations, []);
  const groups = readFileSync(join(ASSETS, 'dpm/nexuiz/grunt.dpm.framegroups'), 'latin1').split('\n').filter((l) => /^\s*\d/.test(l));
  assert.equal(dpm.clips.length, groups.length);
  assert.equal(dpm.clips_from, 'grunt.dpm.framegroups');
  const [first, count] = groups[0].trim().split(/\s+/).map(Number);
  assert.deepEqual([dpm.clips[0].first_frame, dpm.clips[0].frames], [first, count]);
  const human = cli('info', join(ASSETS, 'dpm/nexuiz/grunt.dpm'));
  assert.match(human.stdout, new RegExp(`^clips: ${groups.length} \\(from grunt\\.dpm\\.framegroups\\)$`, 'm'));
});

test('cli: bad input prints one line "file: what (at byte N)" and exits 2, nothing on stdout', { skip: NO_ASSETS }, () => {
  for (const [file, pattern] of [
    ['iqm/invalid/erebus_lfs_pointer.iqm', /Git LFS pointer.*git lfs pull.*\(at byte 0\)$/],
    ['iqm/invalid/InvalidMeshOffset.iqm', /meshes: .* \(at byte 124\)$/],
    ['does/not/exist.iqm', /cannot read the file \(ENOENT\)$/],
  ] as const) {
    for (const cmd of [['info'], ['sample', '--frame', '0']]) {
      const r = cli(cmd[0], join(ASSETS, file), ...cmd.slice(1), '--json');
      assert.equal(r.status, 2, `${cmd[0]} ${file}`);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].startsWith(join(ASSETS, file) + ': '), lines[0]);
      assert.match(lines[0], pattern);
    }
  }
});

test('cli sample --json: positions and joints; frame -1 is the bind pose; out-of-range frames fail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iqm-tools-'));
  const file = join(dir, 'small.iqm');
  writeFileSync(file, writeIqmDocument(smallIqmDocument(2)));
  const bind = cli('sample', file, '--frame', '-1', '--json');
  assert.equal(bind.status, 0, bind.stderr);
  const b = JSON.parse(bind.stdout);
  assert.equal(b.frame, -1);
  near(b.positions, [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1], 1e-6, 'bind positions');
  assert.equal(b.joints.length, 3);
  assert.equal(b.joints[0].length, 12);
  assert.ok(b.warnings.some((w: string) => /blend weights zero/.test(w)));
  const f3 = JSON.parse(cli('sample', file, '--frame', '3', '--json').stdout);
  assert.equal(f3.positions.length, 18);
  assert.notDeepEqual(f3.joints, b.joints);
  const bad = cli('sample', file, '--frame', '4');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /frame 4 is outside 0\.\.3/);
  assert.equal(cli('sample', file).status, 2);
});

test('cli sample: MD3 frame selection and DPM skinning', { skip: NO_ASSETS }, () => {
  const md3 = JSON.parse(cli('sample', join(ASSETS, 'md3/oa_soldier/head.md3'), '--frame', '217', '--json').stdout);
  assert.equal(md3.positions.length, (209 + 381) * 3);
  assert.deepEqual(md3.joints, []);
  const dpm = JSON.parse(cli('sample', join(ASSETS, 'dpm/xonotic/shield.dpm'), '--frame', '-1', '--json').stdout);
  assert.equal(dpm.positions.length, 170 * 3);
  assert.equal(dpm.joints.length, 2);
});

test('cli --version: the package version on stdout, exit 0; help lists it', () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const r = cli(flag);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `iqm-tools ${version} (node ${process.versions.node})\n`);
  }
  const help = cli('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /iqm-tools --version/);
});

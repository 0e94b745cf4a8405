// `iqm-tools check FILE.iqm|.md3|.dpm [--json] [--config FILE]`: the validator's report as lines and as JSON,
// severities from a config, and the exit status (1 on errors, 2 on a bad config).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempDir } from '../helpers/temp-dir';
import { iqmWith } from '../helpers/validate-fixtures';
import { dpmWith, md3With } from '../helpers/validate-fixtures-md3-dpm';

const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/cli.js', 'check', ...args], { encoding: 'utf8' });

test('check of an IQM prints each problem with its byte offset and code, and exits 1 on an error', () => {
  withTempDir('iqm-validate-cli-', (dir) => {
    const file = join(dir, 'broken.iqm');
    writeFileSync(file, iqmWith((d) => { d.anims[0].frameCount = 3; d.anims[0].framerate = 0; }));
    const lines = cli(file);
    assert.equal(lines.status, 1, lines.stderr);
    const out = lines.stdout.trim().split('\n');
    assert.equal(out.length, 2);
    assert.match(out[0], /broken\.iqm: byte \d+: error: animation 0 "idle": frames 0\.\.2 run past num_frames 2 \(frames 0\.\.1\): .* \[iqm-anim-range\]$/);
    assert.match(out[1], /broken\.iqm: byte \d+: warning: animation 0 "idle": frame rate 0: .* \[iqm-anim-framerate\]$/);

    const json = JSON.parse(cli(file, '--json').stdout);
    assert.deepEqual(json.diagnostics.map((d: { code: string; kind: string; where: string }) => [d.code, d.kind, d.where]), [
      ['iqm-anim-range', 'link', 'animation 0 "idle"'],
      ['iqm-anim-framerate', 'semantic', 'animation 0 "idle"'],
    ]);
    assert.equal(json.models[0].format, 'iqm');
    assert.deepEqual(json.models[0].counts, { error: 1, warning: 1, information: 0, hint: 0 });

    const config = join(dir, 'validation.json');
    writeFileSync(config, JSON.stringify({ codes: { 'iqm-anim-range': 'warning', 'iqm-anim-framerate': 'off' } }));
    const relaxed = cli(file, '--config', config);
    assert.equal(relaxed.status, 0, relaxed.stderr);
    assert.match(relaxed.stdout.trim(), /^\S+: byte \d+: warning: .* \[iqm-anim-range\]$/);

    writeFileSync(config, JSON.stringify({ codes: { 'iqm-anim-rage': 'off' } }));
    const bad = cli(file, '--config', config);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /validation\.json: unknown code "iqm-anim-rage"/);
  });
});

test('check of a clean IQM prints nothing and exits 0', () => {
  withTempDir('iqm-validate-cli-', (dir) => {
    const file = join(dir, 'clean.iqm');
    writeFileSync(file, iqmWith(() => {}));
    const r = cli(file);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
  });
});

test('check of an MD3 and a DPM prints their problems with codes and byte offsets, as JSON too', () => {
  withTempDir('iqm-validate-cli-', (dir) => {
    const md3 = join(dir, 'broken.md3');
    writeFileSync(md3, md3With((s) => { s.surfaces[0].triangles[5] = 7; }));
    const dpm = join(dir, 'broken.dpm');
    writeFileSync(dpm, dpmWith((d) => { d.meshes[0].verts[0][0].influence = 0.5; }));
    const lines = cli(md3, dpm);
    assert.equal(lines.status, 1, lines.stderr);
    const out = lines.stdout.trim().split('\n');
    assert.equal(out.length, 2, lines.stdout);
    assert.match(out[0], /broken\.md3: byte \d+: error: surface 0 "body", triangle 1: vertex 7 is not one of the surface's 4: .* \[md3-triangle-index\]$/);
    assert.match(out[1], /broken\.dpm: byte \d+: warning: mesh 0 "models\/clean\/body", vertex 0: its influences sum to 0\.5000, not 1 \(dpmodel\.txt: they must\): .* \[dpm-weights-sum\]$/);
    const json = JSON.parse(cli(md3, dpm, '--json').stdout);
    assert.deepEqual(json.models.map((m: { format: string }) => m.format), ['md3', 'dpm']);
    assert.deepEqual(json.diagnostics.map((d: { code: string; kind: string }) => [d.code, d.kind]), [['md3-triangle-index', 'link'], ['dpm-weights-sum', 'data']]);
  });
});

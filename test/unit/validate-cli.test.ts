// `iqm-tools check FILE.iqm [--json] [--config FILE]`: the validator's report as lines and as JSON,
// severities from a config, and the exit status (1 on errors, 2 on a bad config).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempDir } from '../helpers/temp-dir';
import { iqmWith } from '../helpers/validate-fixtures';

const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/cli.js', 'check', ...args], { encoding: 'utf8' });

test('check of an IQM prints each problem with its byte offset and code, and exits 1 on an error', () => {
  withTempDir('iqm-validate-cli-', (dir) => {
    const file = join(dir, 'broken.iqm');
    writeFileSync(file, iqmWith((d) => { d.anims[0].frameCount = 3; d.anims[0].framerate = 0; }));
    const lines = cli(file);
    assert.equal(lines.status, 1, lines.stderr);
    const out = lines.stdout.trim().split('\n');
    assert.equal(out.length, 2);
    assert.match(out[0], /broken\.iqm: byte \d+: error: animation 0 "idle": frames 0\.\.2 are past num_frames 2: .* \[iqm-anim-range\]$/);
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

// A reader that closes the pipe early (`iqm-tools check big.iqe | head`) ends the command quietly:
// no stack trace on stderr, status 141 (128 + SIGPIPE) as a shell reports for Unix tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempDir } from '../helpers/temp-dir';

test('check | head: a closed pipe ends the command quietly (no EPIPE trace), status 141', { skip: process.platform === 'win32' ? 'needs a POSIX shell' : false }, () => {
  withTempDir('iqm-epipe-', (dir) => {
    // 20,000 faces that name no vertex: one diagnostic line each, far more than a pipe buffer.
    const lines = ['# Inter-Quake Export', 'mesh m', 'vp 0 0 0'];
    for (let i = 0; i < 20000; i++) lines.push('fm 0 7 9');
    const file = join(dir, 'big.iqe');
    writeFileSync(file, lines.join('\n') + '\n');
    const cli = join(process.cwd(), 'dist', 'cli.js');
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${cli}" check "${file}" 2>"${dir}/err" | head -n 3; echo "status=$?"; cat "${dir}/err"`], { encoding: 'utf8' });
    const out = r.stdout.split('\n');
    assert.equal(out.slice(0, 3).filter((l) => l.includes('big.iqe')).length, 3, r.stdout);
    assert.match(r.stdout, /status=141/);
    assert.doesNotMatch(r.stdout + r.stderr, /EPIPE|Error|at /);
  });
});

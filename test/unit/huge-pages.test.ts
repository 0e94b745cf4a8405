// node/hugePages.ts: the launcher's child asks glibc's malloc for huge pages, keeping whatever
// tunables the caller set (and the caller's own value of this one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withHugePages } from '../../node/hugePages';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');
const SKIP = process.platform !== 'linux' ? 'reads /proc (Linux only)' : existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

test('withHugePages adds glibc.malloc.hugetlb=1 to GLIBC_TUNABLES on Linux, keeping the rest of the environment', () => {
  const env = { PATH: '/bin' };
  assert.deepEqual(withHugePages(env, 'linux'), { PATH: '/bin', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
  assert.deepEqual(env, { PATH: '/bin' }, 'the caller\'s environment is not changed');
  assert.equal(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux').GLIBC_TUNABLES, 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1');
});

test('withHugePages leaves a caller\'s own hugetlb value, and other platforms, alone', () => {
  assert.equal(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }, 'linux').GLIBC_TUNABLES, 'glibc.malloc.hugetlb=0');
  assert.equal(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2' }, 'linux').GLIBC_TUNABLES, 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2');
  // A name that only begins like it is another tunable.
  assert.equal(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.hugetlbx=1' }, 'linux').GLIBC_TUNABLES, 'glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1');
  assert.equal(withHugePages({ PATH: '/bin' }, 'darwin').GLIBC_TUNABLES, undefined);
  assert.equal(withHugePages({}, 'win32').GLIBC_TUNABLES, undefined);
});

test('the node the launcher starts has the tunable in its environment', { skip: SKIP }, async () => {
  await withTempDir('iqm-huge-', async (dir) => {
    // `info` of a FIFO nobody writes waits in its open: time to read the started node's environment.
    const fifo = join(dir, 'fifo.iqm');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const env = { ...process.env };
    delete env.GLIBC_TUNABLES;
    const launcher = spawn(process.execPath, [CLI, 'info', fifo], { stdio: 'ignore', env });
    const pid = launcher.pid as number;
    try {
      let children = '';
      for (let waited = 0; children === '' && waited < 30_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
      }
      assert.notEqual(children, '', 'the launcher started no process within 30 s');
      const environment = readFileSync(`/proc/${children.split(' ')[0]}/environ`, 'utf8').split('\0');
      assert.ok(environment.includes('GLIBC_TUNABLES=glibc.malloc.hugetlb=1'), environment.filter((e) => e.startsWith('GLIBC')).join(', ') || 'no GLIBC_TUNABLES');
    } finally {
      launcher.kill('SIGTERM');
      await new Promise((r) => launcher.on('exit', r));
    }
  });
});

// node/hugePages.ts: the launcher's child asks glibc's malloc for huge pages, keeping whatever
// tunables the caller set (and the caller's own value of this one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withHugePages } from '../../node/hugePages';

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

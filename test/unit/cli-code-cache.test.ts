// The CLI's V8 code cache (cli/codeCache.ts, cli/launch.ts, written by esbuild.mjs): the build's
// cache is one this node accepts, a cache for another build of the bundle is not used, and a
// damaged one does not change what the CLI does; a missing bundle is said in one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { decodeCodeCache, encodeCodeCache, wrapModuleSource } from '../../cli/codeCache';

const DIST = resolve('dist');
const BUNDLE = join(DIST, 'cliMain.js');
const CACHE = join(DIST, 'cliMain.codecache');
const NOT_BUILT = existsSync(BUNDLE) && existsSync(join(DIST, 'cli.js')) ? false : `${DIST}/cli.js is not built (npm run build)`;

test('code cache file: V8 data back only for the bundle it was written for', () => {
  const data = new Uint8Array([1, 2, 3, 4, 5]);
  const file = encodeCodeCache(1234, 1700000000123.25, data);
  assert.deepEqual(decodeCodeCache(file, 1234, 1700000000123.25), data);
  assert.equal(decodeCodeCache(file, 1235, 1700000000123.25), undefined, 'another size');
  assert.equal(decodeCodeCache(file, 1234, 1700000000124.25), undefined, 'another mtime');
  assert.equal(decodeCodeCache(file.subarray(0, 16), 1234, 1700000000123.25), undefined, 'no data');
  assert.equal(decodeCodeCache(new Uint8Array(3), 1234, 1700000000123.25), undefined, 'shorter than its header');
});

test("code cache: the build's cache fits its bundle and this node's V8 accepts it", { skip: NOT_BUILT }, () => {
  assert.ok(existsSync(CACHE), `${CACHE} was not written by the build`);
  const { size, mtimeMs } = statSync(BUNDLE);
  const data = decodeCodeCache(readFileSync(CACHE), size, mtimeMs);
  assert.ok(data, 'the cache names the bundle as it is now');
  const script = new Script(wrapModuleSource(readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE, cachedData: data });
  assert.equal(script.cachedDataRejected, false);
  // What the warm-up compile ran is in it, not only the top level: more than a cache made before running.
  const topLevelOnly = new Script(wrapModuleSource(readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE }).createCachedData();
  assert.ok(data.length > 2 * topLevelOnly.length, `${data.length} bytes, top level alone ${topLevelOnly.length}`);
});

test('code cache: a damaged or stale cache leaves the CLI working, with the same output', { skip: NOT_BUILT }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'iqm-code-cache-'));
  try {
    const input = join(dir, 'model.iqe');
    writeFileSync(input, '# Inter-Quake Export\njoint a -1\npq 0 0 0 0 0 0 1\nmesh m\nmaterial x\nvp 0 0 0\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfm 0 1 2\nanimation go\nframe\npq 0 0 1 0 0 0 1\nframe\npq 0 0 2 0 0 0 1\n');
    const compile = (cli: string, output: string) => {
      const r = spawnSync(process.execPath, [cli, 'compile', input, '-o', output], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return readFileSync(output);
    };
    const expected = compile(join(DIST, 'cli.js'), join(dir, 'expected.iqm'));
    // A copy of the CLI whose bundle keeps its size and mtime, with caches that do not fit it.
    const copy = join(dir, 'dist');
    mkdirSync(copy);
    for (const name of ['cli.js', 'cliMain.js']) copyFileSync(join(DIST, name), join(copy, name));
    const { size, mtimeMs } = statSync(BUNDLE);
    utimesSync(join(copy, 'cliMain.js'), new Date(mtimeMs), new Date(mtimeMs));
    const copied = statSync(join(copy, 'cliMain.js'));
    const garbage = new Uint8Array(4096).map((_, i) => (i * 131 + 7) & 255);
    const caches: [string, Uint8Array][] = [
      ['V8 rejects it (not V8 data)', encodeCodeCache(copied.size, copied.mtimeMs, garbage)],
      ['another bundle (stale)', encodeCodeCache(size + 1, mtimeMs, readFileSync(CACHE).subarray(16))],
      ['truncated', readFileSync(CACHE).subarray(0, 10)],
    ];
    for (const [what, bytes] of caches) {
      writeFileSync(join(copy, 'cliMain.codecache'), bytes);
      assert.deepEqual(compile(join(copy, 'cli.js'), join(dir, 'out.iqm')), expected, what);
    }
    rmSync(join(copy, 'cliMain.codecache'));
    assert.deepEqual(compile(join(copy, 'cli.js'), join(dir, 'out.iqm')), expected, 'no cache');
    // Asked to write a cache where it cannot (a folder in its place): one line, the compile stands, no temporary left.
    mkdirSync(join(copy, 'cliMain.codecache', 'x'), { recursive: true });
    const unwritable = spawnSync(process.execPath, [join(copy, 'cli.js'), 'compile', input, '-o', join(dir, 'out.iqm')], {
      encoding: 'utf8',
      env: { ...process.env, IQM_TOOLS_WRITE_CODE_CACHE: '1' },
    });
    assert.equal(unwritable.status, 0, unwritable.stderr);
    assert.match(unwritable.stderr, /^iqm-tools: code cache not written: EISDIR\n$/);
    assert.deepEqual(readFileSync(join(dir, 'out.iqm')), expected);
    assert.deepEqual(readdirSync(copy).sort(), ['cli.js', 'cliMain.codecache', 'cliMain.js']);
    // Without the bundle: one line that says so, exit 3, nothing written.
    rmSync(join(copy, 'cliMain.js'));
    rmSync(join(dir, 'out.iqm'));
    const broken = spawnSync(process.execPath, [join(copy, 'cli.js'), 'compile', input, '-o', join(dir, 'out.iqm')], { encoding: 'utf8' });
    assert.equal(broken.status, 3);
    assert.match(broken.stderr, /^iqm-tools: cannot read .*cliMain\.js \(ENOENT\): the installation is incomplete/);
    assert.equal(existsSync(join(dir, 'out.iqm')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// `npm test`: bundles the test files (esbuild.mjs --tests) and runs them with node's built-in
// test runner, so its summary (tests / pass / fail / skipped) is the last thing printed.
// Extra arguments select test files by substring: `npm test -- lsp parser`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);

// One run at a time in a checkout: a second run would delete and rebuild out/test under the
// first one's feet (its test processes then fail or hang). The lock names the running process.
const LOCK = 'out/.test-run.lock';
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
mkdirSync('out', { recursive: true });
if (existsSync(LOCK)) {
  const pid = Number(readFileSync(LOCK, 'utf8'));
  if (pid > 0 && pid !== process.pid && running(pid)) {
    console.error(`npm test: another run (process ${pid}) is using out/test; wait for it to finish`);
    process.exit(1);
  }
}
writeFileSync(LOCK, String(process.pid));
process.on('exit', () => rmSync(LOCK, { force: true }));

rmSync('out/test', { recursive: true, force: true });
const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function findTests(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found;
}

const files = findTests('out/test').filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const run = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(run.status ?? 1);

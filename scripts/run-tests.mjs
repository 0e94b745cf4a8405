// `npm test`: bundles the test files (esbuild.mjs --tests) and runs them with node's built-in
// test runner, so its summary (tests / pass / fail / skipped) is the last thing printed.
// Extra arguments select test files by substring: `npm test -- lsp parser`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);

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

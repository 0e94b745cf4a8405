// `npm run bench [-- name ...]`: bundles bench/*.ts and runs each benchmark in its own node process
// (so one benchmark's heap does not disturb another's figures). Benchmarks print figures and
// ratios; they are not tests and do not fail on slow machines.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';

const filters = process.argv.slice(2);
const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const files = existsSync('out/bench')
  ? readdirSync('out/bench').filter((f) => f.endsWith('.js') && (filters.length === 0 || filters.some((s) => f.includes(s))))
  : [];
let failed = 0;
for (const file of files.sort()) {
  console.log(`\n== bench/${file.replace(/\.js$/, '.ts')}`);
  const run = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', `out/bench/${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

// Builds the in-editor suite (test/vscode/) for `npm run test:vscode` and `test:vscode:electron`:
// writes the fixture workspace (scripts/make-vscode-fixtures.mjs), then bundles test/vscode/index.ts
// and every test/vscode/*.test.ts into out/test-vscode/, one CommonJS file each, with `vscode`
// (provided by the extension host) and `mocha` (loaded from node_modules) left as imports.
// It does not build the extension itself (npm run build does). Not under out/test/, which `npm test`
// deletes at every run: the two can run side by side.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = 'test/vscode';
const OUT = 'out/test-vscode';

const fixtures = spawnSync(process.execPath, ['scripts/make-vscode-fixtures.mjs', join(SOURCE, 'fixtures')], { stdio: 'inherit' });
if (fixtures.status !== 0) process.exit(fixtures.status ?? 1);

const entryPoints = readdirSync(SOURCE)
  .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
  .map((name) => join(SOURCE, name));

rmSync(OUT, { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Desktop VS Code runs the extension host on Electron's Node, older than the harness's Node 24.
  target: 'node18',
  external: ['vscode', 'mocha'],
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(`vscode suite: ${entryPoints.length} bundles in ${OUT}/`);

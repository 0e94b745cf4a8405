// Builds the in-editor suite (test/vscode/) for `npm run test:vscode` and `test:vscode:electron`:
// writes the fixture workspace (scripts/make-vscode-fixtures.mjs), then bundles
// - for the Node extension host: test/vscode/index.ts and every test/vscode/*.test.ts into
//   out/test-vscode/, one CommonJS file each, with `vscode` (provided by the extension host) and
//   `mocha` (loaded from node_modules) left as imports;
// - for the browser's web worker extension host: test/vscode/web/index.ts (which imports the tests
//   that run in both hosts) into out/test-vscode-web/index.js, one file with everything but
//   `vscode` (the only module that host provides): node:assert/strict is the npm `assert`
//   package, `process` the npm `process` shim;
// - test/vscode/pixels.ts as out/test-vscode/pixels.mjs for the UI test.
// Each bundle knows its host (IQM_TEST_HOST); the web one also IQM_VSCODE_GREP (no environment there).
// It does not build the extension itself (npm run build does). Not under out/test/, which `npm test`
// deletes at every run: the two can run side by side.
import * as esbuild from 'esbuild';
import { assemblyScriptPlugin } from './assemblyscript-plugin.mjs';
import { noNodeBuiltins } from './no-node-builtins.mjs';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const SOURCE = 'test/vscode';
const OUT = 'out/test-vscode';
const WEB_OUT = 'out/test-vscode-web';

const fixtures = spawnSync(process.execPath, ['scripts/make-vscode-fixtures.mjs', join(SOURCE, 'fixtures')], { stdio: 'inherit' });
if (fixtures.status !== 0) process.exit(fixtures.status ?? 1);

const entryPoints = readdirSync(SOURCE)
  .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
  .map((name) => join(SOURCE, name));

rmSync(OUT, { recursive: true, force: true });
rmSync(WEB_OUT, { recursive: true, force: true });
const common = { bundle: true, format: 'cjs', sourcemap: 'linked', logLevel: 'warning', plugins: [assemblyScriptPlugin] };
await esbuild.build({
  ...common,
  entryPoints,
  outdir: OUT,
  platform: 'node',
  // Desktop VS Code runs the extension host on Electron's Node, older than the harness's Node 24.
  target: 'node18',
  external: ['vscode', 'mocha'],
  define: { IQM_TEST_HOST: '"node"' },
});
await esbuild.build({
  ...common,
  entryPoints: [join(SOURCE, 'web', 'index.ts')],
  outfile: join(WEB_OUT, 'index.js'),
  platform: 'browser',
  target: 'es2022',
  external: ['vscode'],
  // The glTF library's Node reader (exportGltf.test.ts reads the export back with our reader).
  plugins: [...common.plugins, noNodeBuiltins(/^node:(fs|path)$/)],
  alias: { 'node:assert/strict': resolve(SOURCE, 'web', 'assert-strict.mjs') },
  inject: [resolve(SOURCE, 'web', 'process-shim.mjs')],
  define: { IQM_TEST_HOST: '"web"', IQM_VSCODE_GREP: JSON.stringify(process.env.IQM_VSCODE_GREP ?? '') },
});
// The preview's pixel measure, for the UI test too (test/vscode-ui/ui-test.mjs imports it).
await esbuild.build({ ...common, entryPoints: [join(SOURCE, 'pixels.ts')], outfile: join(OUT, 'pixels.mjs'), platform: 'node', format: 'esm', target: 'node18' });
console.log(`vscode suite: ${entryPoints.length} bundles in ${OUT}/, and ${WEB_OUT}/index.js for the web worker host`);

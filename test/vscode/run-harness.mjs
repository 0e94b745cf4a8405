// `npm run test:vscode` (after the build): runs the in-editor suite inside code-server through the
// harness in ../shared/vscode-harness (see ../shared/docs/VSCODE-HARNESS.md), on the development
// folder, twice: in the Node extension host (the `main` entry), then in the browser's web worker
// extension host (the `browser` entry, forced there by the user setting remote.extensionKind,
// ../shared/docs/WEB-EXTENSION.md; the suite's host test fails if it ran anywhere else). Then it
// packages the extension (`npm run package`: production bundles, iqm-tools.vsix), restores the
// development build in dist/, installs the .vsix as a user does (code-server --install-extension)
// and runs the suite again on the installed extension's folder, in both hosts: what ships is
// tested, not only the development folder (a grammar or worker that .vscodeignore leaves out fails
// only there). Then the UI test (test/vscode-ui/ui-test.mjs) on examples/ against the installed
// .vsix, in the Node host and then in the web worker host. Skips, with exit status 0, when
// ../shared/vscode-harness is absent; fails with a hint when the harness is there but not
// installed (run its setup.sh). Last, `npm start` as a user runs it
// (test/vscode-ui/start-test.mjs).
//   node test/vscode/run-harness.mjs [--suite-only | --ui-only] [--development-only]
//   --development-only: the suite on the development folder only (no package, no .vsix runs, no UI test)
// Exit status: 0 passed (or skipped), 1 a test failed, 2 harness problem or timeout.
// Output: test-output/vscode/ and test-output/vscode-web/ (logs, screenshots of the suite in each
// host on the development folder), test-output/vscode-vsix/ and test-output/vscode-vsix-web/ (on
// the installed .vsix), test-output/vscode-ui/ and test-output/vscode-ui-web/ (UI test in each host).
// IQM_VSCODE_GREP=<text> runs only the suite's tests whose title contains the text.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { installVsix } from '../vscode-ui/vsix.mjs';

const HARNESS_DIR = resolve('../shared/vscode-harness');
const HARNESS = resolve(HARNESS_DIR, 'harness.js');
const EXTENSION_ID = 'iqm-tools.iqm-tools';
const args = process.argv.slice(2);
const suite = !args.includes('--ui-only');
const developmentOnly = args.includes('--development-only');
const ui = !args.includes('--suite-only') && !developmentOnly;

if (!existsSync(HARNESS)) {
  console.log(`test:vscode: SKIPPED: ${HARNESS_DIR} is absent, so there is no headless VS Code to run the in-editor suite in.`);
  console.log('  On a desktop with internet access, `npm run test:vscode:electron` runs the same suite in a downloaded VS Code.');
  process.exit(0);
}
const harness = createRequire(import.meta.url)(HARNESS);
try {
  harness.findInstall();
} catch (error) {
  console.error(`test:vscode: ${error instanceof Error ? error.message : String(error)}`);
  console.error(`  Install it once with: bash ${HARNESS_DIR}/setup.sh   (about 5 minutes on 2 cores; cached in ~/.cache/iqm-tools-harness)`);
  process.exit(2);
}
for (const needed of ['dist/client.js', 'dist/server.js', 'dist/web/extension.js', 'dist/web/server.js', ...(suite ? ['out/test-vscode/index.js', 'out/test-vscode-web/index.js'] : [])]) {
  if (!existsSync(needed)) {
    console.error(`test:vscode: ${needed} is missing: run \`npm run build && node scripts/build-vscode-tests.mjs\` first`);
    process.exit(2);
  }
}

function run(label, command, commandArgs) {
  const started = Date.now();
  console.log(`test:vscode: ${label}`);
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', shell: process.platform === 'win32' && command === 'npm' });
  const status = result.status ?? 2;
  console.log(`test:vscode: ${label}: exit ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return status;
}

// Auto save off, as desktop VS Code has it (code-server saves after a delay): the tests of unsaved
// edits must not see their edits saved under them.
const AUTO_SAVE_OFF = ['--setting', 'files.autoSave="off"'];

/**
 * The in-editor suite on the extension in `extension`, in the Node host and in the web worker host
 * (whose bundle is `webTests`). --timeout is the whole suite's budget in seconds: it takes about 190 s
 * on an idle 2-core machine and ran past 300 s on a loaded one with every test passing; a hung test
 * still fails by its own mocha timeout long before this.
 */
function runSuite(extension, label, out, webTests = './out/test-vscode-web/index.js') {
  const status = run(`in-editor suite on ${label} (mocha in the extension host)`, process.execPath, [
    HARNESS, 'test',
    '--extension', extension,
    '--tests', './out/test-vscode/index.js',
    '--workspace', './test/vscode/fixtures',
    '--out', out,
    '--timeout', '600',
    ...AUTO_SAVE_OFF,
  ]);
  const web = run(`in-editor suite on ${label} in the web worker extension host (remote.extensionKind: web)`, process.execPath, [
    HARNESS, 'test',
    '--extension', extension,
    '--tests', webTests,
    '--workspace', './test/vscode/fixtures',
    '--out', `${out}-web`,
    '--timeout', '600',
    ...AUTO_SAVE_OFF,
    '--setting', `remote.extensionKind=${JSON.stringify({ [EXTENSION_ID]: ['web'] })}`,
  ]);
  return Math.max(status, web);
}

let worst = 0;
if (suite) worst = Math.max(worst, runSuite('.', 'the development folder', 'test-output/vscode'));
let packaged = -1;
if (!developmentOnly) {
  // What ships is what the rest runs: the .vsix.
  packaged = run('package (npm run package: production bundles, iqm-tools.vsix)', 'npm', ['run', 'package']);
  // The production build replaced dist/; put the development build (source maps) back.
  const rebuilt = run('development build again (node esbuild.mjs)', process.execPath, ['esbuild.mjs']);
  worst = Math.max(worst, packaged === 0 ? 0 : 1, rebuilt === 0 ? 0 : 1);
  if (suite && packaged === 0) {
    const tmp = mkdtempSync(join(tmpdir(), 'iqm-vsix-suite-'));
    try {
      const installed = installVsix(harness, resolve('iqm-tools.vsix'), tmp);
      console.log(`test:vscode: iqm-tools.vsix installed as ${installed}`);
      // The web worker host runs a test module only from inside the extension's folder (from
      // outside, mocha finds no `location` there): a copy of the bundle goes in beside the
      // installed files. The Node bundles stay here, where they find mocha in node_modules.
      const webTests = join(installed, 'test-vscode-web');
      cpSync('out/test-vscode-web', webTests, { recursive: true });
      worst = Math.max(worst, runSuite(installed, 'the installed iqm-tools.vsix', 'test-output/vscode-vsix', join(webTests, 'index.js')));
    } catch (error) {
      console.error(`test:vscode: could not install iqm-tools.vsix: ${error instanceof Error ? error.message : String(error)}`);
      worst = Math.max(worst, 2);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
if (ui) {
  const examples = run('examples (scripts/make-examples.mjs)', process.execPath, ['scripts/make-examples.mjs', 'examples']);
  let status = examples === 0 ? 0 : 2;
  if (status === 0 && packaged === 0) {
    status = run('UI test on the installed iqm-tools.vsix (playwright through the harness Session)', process.execPath, [
      'test/vscode-ui/ui-test.mjs', '--vsix', 'iqm-tools.vsix', '--out', 'test-output/vscode-ui',
    ]);
    const webStatus = run('UI test on the installed iqm-tools.vsix in the web worker extension host (remote.extensionKind: web)', process.execPath, [
      'test/vscode-ui/ui-test.mjs', '--vsix', 'iqm-tools.vsix', '--web', '--out', 'test-output/vscode-ui-web',
    ]);
    status = Math.max(status, webStatus);
  }
  worst = Math.max(worst, status);
  // npm start as a user runs it: its compile errors pop up as notifications.
  worst = Math.max(worst, run('npm start (test/vscode-ui/start-test.mjs)', process.execPath, ['test/vscode-ui/start-test.mjs', '--out', 'test-output/start']));
}
console.log(`test:vscode: ${worst === 0 ? 'PASSED' : worst === 1 ? 'FAILED' : 'HARNESS ERROR'} (logs and screenshots in test-output/vscode{,-web}/, test-output/vscode-vsix{,-web}/ and test-output/vscode-ui{,-web}/)`);
process.exit(worst);

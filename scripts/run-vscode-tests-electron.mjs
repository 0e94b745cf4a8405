// `npm run test:vscode:electron`: the in-editor suite (out/test-vscode/index.js, built by
// scripts/build-vscode-tests.mjs) in a desktop VS Code that @vscode/test-electron downloads into
// node_modules/.cache/vscode-test/ (needs internet access, and a display or xvfb-run on Linux). The same entry module
// and mocha suite as `npm run test:vscode`, which runs them in code-server through the harness.
//   node scripts/run-vscode-tests-electron.mjs [--version stable|insiders|1.99.0]
// IQM_VSCODE_GREP=<text> runs only the tests whose title contains the text.
import { runTests } from '@vscode/test-electron';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const versionArg = process.argv.indexOf('--version');
const version = versionArg > 0 ? process.argv[versionArg + 1] : undefined;

const extensionTestsPath = join(root, 'out', 'test-vscode', 'index.js');
const workspace = join(root, 'test', 'vscode', 'fixtures');
for (const needed of [join(root, 'dist', 'client.js'), extensionTestsPath, workspace]) {
  if (!existsSync(needed)) {
    console.error(`test:vscode:electron: ${needed} is missing: run \`npm run build && node scripts/build-vscode-tests.mjs\` first`);
    process.exit(2);
  }
}

// A fresh profile each run, so settings the suite changes (user settings) never leak between runs.
const userData = mkdtempSync(join(tmpdir(), 'iqm-tools-vscode-'));
try {
  await runTests({
    ...(version ? { version } : {}),
    cachePath: join(root, 'node_modules', '.cache', 'vscode-test'),
    extensionDevelopmentPath: root,
    extensionTestsPath,
    extensionTestsEnv: process.env.IQM_VSCODE_GREP ? { IQM_VSCODE_GREP: process.env.IQM_VSCODE_GREP } : undefined,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes', `--user-data-dir=${userData}`],
  });
  console.log('test:vscode:electron: PASSED');
} catch (error) {
  console.error(`test:vscode:electron: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(userData, { recursive: true, force: true });
}

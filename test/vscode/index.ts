// Entry module of the in-editor suite: the run() contract of @vscode/test-electron's
// extensionTestsPath. VS Code loads it in the extension host once the extension under development
// is registered, calls run(), and exits with 0 when the promise resolves, 1 when it rejects. The
// same file runs under the code-server harness (npm run test:vscode) and under @vscode/test-electron
// (npm run test:vscode:electron).
//
// scripts/build-vscode-tests.mjs bundles this file and every test/vscode/*.test.ts into
// out/test-vscode/, with `vscode` and `mocha` left as imports. (The web worker host's entry is
// test/vscode/web/index.ts.) Mocha's `suite`/`test` globals exist
// only while mocha loads a file, so the test files are separate bundles that mocha loads itself.
// IQM_VSCODE_GREP=<text> runs only the tests whose full title contains the text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { captureMochaOutput, mochaOutputWritten } from './harnessClient';

// Under the harness, mirror the reporter's output to the file the harness echoes (no-op elsewhere).
captureMochaOutput(Mocha);

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', reporter: 'spec', color: false, timeout: 60000, slow: 5000 });
  const grep = process.env.IQM_VSCODE_GREP;
  if (grep) mocha.grep(grep);
  // Sorted, so the activation suite (activation.test.js) runs before anything else opens an .iqe.
  const files = fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort((a, b) => (a.startsWith('activation') ? -1 : b.startsWith('activation') ? 1 : a.localeCompare(b)));
  for (const name of files) mocha.addFile(path.join(__dirname, name));
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => void mochaOutputWritten().then(() => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve())));
    } catch (error) {
      reject(error);
    }
  });
}

// Entry module of the in-editor suite in the browser's web worker extension host (the run()
// contract, as test/vscode/index.ts): scripts/build-vscode-tests.mjs bundles it with every test
// file that runs in both hosts into out/test-vscode-web/index.js (platform browser: the host
// provides only `vscode`; node:assert is the npm `assert` package, `process` a shim). Mocha is its
// browser build, set up here; its `suite`/`test` globals exist once the UI is set, so the test
// files are imported after that. compile.test.ts stays out: it tests what only the Node host does
// (links, permissions) with node:fs.
import 'mocha/mocha.js';
import { captureMochaOutput, mochaOutputWritten } from '../harnessClient';

/** IQM_VSCODE_GREP at build time (the worker has no environment). */
declare const IQM_VSCODE_GREP: string;

export async function run(): Promise<void> {
  mocha.setup({ ui: 'tdd', reporter: 'spec', timeout: 60000, slow: 5000 });
  captureMochaOutput(Mocha);
  if (IQM_VSCODE_GREP) mocha.grep(IQM_VSCODE_GREP);
  // The activation suite first, before anything else opens an .iqe.
  await import('../activation.test');
  await import('../host.test');
  await import('../diagnostics.test');
  await import('../features.test');
  await import('../settings.test');
  await import('../largeFiles.test');
  await import('../preview.test');
  await import('../palette.test');
  await import('../sidecars.test');
  await import('../modeldef.test');
  await import('../packaged.test');
  await import('../compileNotes.test');
  await import('../exportGltf.test');
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  await mochaOutputWritten();
  if (failures > 0) throw new Error(`${failures} test(s) failed`);
}

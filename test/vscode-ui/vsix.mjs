// Installing the packaged extension (iqm-tools.vsix, `npm run package`) as a user does, for the
// tests that run on what ships: the UI test (test/vscode-ui/ui-test.mjs) and the in-editor suite's
// run on the installed .vsix (test/vscode/run-harness.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Installs `vsix` with code-server's own `--install-extension` (the harness's install, `harness`
 * being ../shared/vscode-harness/harness.js) into a new extensions folder under `tmp`, and returns
 * the installed extension's folder. Throws with code-server's output when it fails.
 */
export function installVsix(harness, vsix, tmp) {
  const install = harness.findInstall();
  const extensions = join(tmp, 'extensions');
  writeFileSync(join(tmp, 'config.yaml'), 'auth: none\n');
  const result = spawnSync(
    install.node,
    [install.codeServer, '--config', join(tmp, 'config.yaml'), '--user-data-dir', join(tmp, 'user-data'), '--extensions-dir', extensions, '--install-extension', vsix],
    { encoding: 'utf8', env: { ...process.env, XDG_DATA_HOME: join(tmp, 'xdg-data'), XDG_CONFIG_HOME: join(tmp, 'xdg-config') } },
  );
  const installed = existsSync(extensions) ? readdirSync(extensions).filter((name) => statSync(join(extensions, name)).isDirectory()) : [];
  if (result.status !== 0 || installed.length !== 1) {
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${result.status}, installed: ${installed.join(', ') || 'nothing'}):\n${result.stdout}${result.stderr}`);
  }
  return join(extensions, installed[0]);
}

// The "compile IQE to IQM" command: run on a fixture, it writes an IQM (to a temporary folder, via
// iqmTools.compile.outputPath) and opens it in the preview beside. Skips, saying why, while the
// extension does not register the command or contribute its settings.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { activeExtension, fixtureUri, setGlobalSetting } from './helpers';

const COMMAND = 'iqmTools.compile';
const OUTPUT_SETTING = 'iqmTools.compile.outputPath';

interface CompileOutcome {
  output?: vscode.Uri;
  errors: number;
  cancelled?: boolean;
}

suite('compile command', () => {
  let missing: string | undefined;
  let dir: string;

  suiteSetup(async () => {
    const extension = await activeExtension();
    const settings = (extension.packageJSON as { contributes?: { configuration?: { properties?: Record<string, unknown> } } }).contributes?.configuration?.properties ?? {};
    if (!(await vscode.commands.getCommands(true)).includes(COMMAND)) missing = `the extension does not register ${COMMAND} yet`;
    else if (!(OUTPUT_SETTING in settings)) missing = `package.json does not contribute ${OUTPUT_SETTING} yet`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iqm-tools-vscode-compile-'));
  });

  suiteTeardown(async () => {
    if (!missing) await setGlobalSetting('iqmTools.compile', 'outputPath', undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('compiles an IQE to an IQM file and opens it in the preview', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // Outside the workspace, so nothing is written into the repository under @vscode/test-electron.
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}.iqm`);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, fixtureUri('features.iqe'));
    assert.ok(outcome, 'the command returned nothing');
    assert.equal(outcome.errors, 0);
    assert.ok(outcome.output, 'no output file');
    assert.equal(outcome.output.fsPath, path.join(dir, 'features.iqm'));
    const bytes = fs.readFileSync(outcome.output.fsPath);
    assert.equal(bytes.subarray(0, 16).toString('latin1'), 'INTERQUAKEMODEL\0');
    assert.equal(bytes.readUInt32LE(16), 2, 'IQM version');
    assert.equal(bytes.readUInt32LE(20), bytes.length, 'filesize field');

    // The preview of the compiled file opens beside and draws it.
    const output = outcome.output;
    const tab = await waitFor(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === output.toString()),
      'the preview of the compiled IQM',
      30000,
    );
    const status = await waitFor(
      () => vscode.commands.executeCommand<{ ok: boolean; triangles: number; joints: number; error: string | null } | null>('iqmTools.previewStatus', output.toString()),
      'the preview to report what it rendered',
      60000,
    );
    assert.equal(status.ok, true, `preview error: ${status.error}`);
    assert.equal(status.triangles, 2);
    assert.equal(status.joints, 3);
    await vscode.window.tabGroups.close(tab);
  });
});

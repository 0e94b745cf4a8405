// "IQE: Compile to IQM" as the command palette runs it (no argument: the active editor), in either
// extension host: the .iqm is written through workspace.fs (a temporary file renamed over it: none
// is left), read back and parsed here, and opens in the preview, which draws it. The Node-only
// behaviour of the compile (links, permissions, several files) is in compile.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readIqm } from '../../core/iqm/reader';
import { waitFor } from './harnessClient';
import { activeExtension, assertPreviewDrawn, fixtureUri, scratchFolder, setGlobalSetting } from './helpers';

interface CompileOutcome {
  output?: vscode.Uri;
  errors: number;
  writeError?: string;
  writeNote?: string;
}

suite('compile from the palette', () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;

  suiteSetup(async () => {
    await activeExtension();
    scratch = await scratchFolder('palette');
  });

  suiteTeardown(async () => {
    await setGlobalSetting('iqmTools.compile', 'outputPath', undefined);
    await scratch.remove();
  });

  test('compiles the active editor\'s IQE to an .iqm and the preview draws it', async function () {
    const source = fixtureUri('features.iqe');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source), { preview: false });
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${scratch.uri.path}/\${fileBasenameNoExtension}.iqm`);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>('iqmTools.compile');
    assert.ok(outcome?.output, `no output: ${JSON.stringify(outcome)}`);
    assert.equal(outcome.errors, 0);
    assert.equal(outcome.writeNote, undefined, 'written without a rename');
    const output = outcome.output;
    assert.equal(output.toString(), vscode.Uri.joinPath(scratch.uri, 'features.iqm').toString());
    const bytes = await vscode.workspace.fs.readFile(output);
    assert.equal(new TextDecoder('latin1').decode(bytes.subarray(0, 16)), 'INTERQUAKEMODEL\0');
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(20, true), bytes.length, 'filesize field');
    const model = readIqm(bytes);
    assert.equal(model.meshes.reduce((n, m) => n + m.triangleCount, 0), 2);
    assert.equal(model.skeleton?.names.length, 3);
    // The temporary file was renamed over the output: nothing else in the folder.
    assert.deepEqual((await vscode.workspace.fs.readDirectory(scratch.uri)).map(([name]) => name), ['features.iqm']);

    // The command opens the compiled file in the preview beside, which draws it.
    const tab = await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === output.toString()),
      'the preview of the compiled IQM',
      30000,
    );
    const status = await waitFor(
      () => vscode.commands.executeCommand<{ ok: boolean; triangles: number; error: string | null } | null>('iqmTools.previewStatus', output.toString()),
      'the preview to report what it rendered',
      60000,
    );
    assert.equal(status.ok, true, `preview error: ${status.error}`);
    assert.equal(status.triangles, 2);
    await assertPreviewDrawn(this, 'palette-compiled-iqm', 'features.iqm');
    await vscode.window.tabGroups.close(tab);
  });
});

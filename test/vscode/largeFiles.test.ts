// Files over VS Code's 50 MB limit are never synced to extensions (no didOpen); the client's
// LargeFileTracker sees the tab and asks the server to read the file: from disk (the Node server),
// or through the client's workspace.fs (iqmTools/readFile: the browser's server, a worker, cannot
// read files). Here the whole chain runs: a real tab, no TextDocument, diagnostics anyway, and
// cleared when the tab closes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { describe, formatRange, hasCode, scratchFolder, setGlobalSetting, utf8, waitForDiagnostics } from './helpers';

/** VS Code syncs documents up to this size to extensions. */
const SYNC_LIMIT = 50 * 1024 * 1024;

suite('large files', () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let uri: vscode.Uri;

  suiteSetup(async () => {
    scratch = await scratchFolder('large');
    uri = vscode.Uri.joinPath(scratch.uri, 'big.iqe');
    // A planted problem on line 1, then comment lines until the file is over the limit.
    const head = utf8('# Inter-Quake Export\nMesh "typo"\n');
    const padding = utf8(`# ${'padding '.repeat(15)}\n`);
    const lines = Math.ceil((SYNC_LIMIT + 2 * 1024 * 1024) / padding.length);
    const bytes = new Uint8Array(head.length + lines * padding.length);
    bytes.set(head);
    for (let i = 0; i < lines; i++) bytes.set(padding, head.length + i * padding.length);
    await vscode.workspace.fs.writeFile(uri, bytes);
    // VS Code for the web asks before opening files over 10 MB; a desktop one over 1 GB.
    await setGlobalSetting('workbench', 'editorLargeFileConfirmation', 1024);
  });

  suiteTeardown(async () => {
    await setGlobalSetting('workbench', 'editorLargeFileConfirmation', undefined);
    const tab = tabFor(uri);
    if (tab) await vscode.window.tabGroups.close(tab);
    await scratch.remove();
  });

  function tabFor(target: vscode.Uri): vscode.Tab | undefined {
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === target.toString()) return tab;
    }
    return undefined;
  }

  test('a file over the 50 MB sync limit gets diagnostics, the server reading it itself (Node) or through the client (web worker)', async () => {
    assert.ok((await vscode.workspace.fs.stat(uri)).size > SYNC_LIMIT);
    await vscode.commands.executeCommand('vscode.open', uri);
    await waitFor(() => tabFor(uri), 'the tab of big.iqe', 60000);
    assert.ok(
      !vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()),
      'VS Code synced the large document after all: this test no longer covers the large-file path',
    );
    const ds = await waitForDiagnostics(uri, hasCode('unknown-command'), 'diagnostics of the large file', 120000);
    assert.equal(describe(ds), `unknown-command warning ${formatRange(new vscode.Range(1, 0, 1, 4))}`);
  });

  test('closing its tab clears them', async () => {
    const tab = tabFor(uri);
    assert.ok(tab, 'the large file is not open');
    await vscode.window.tabGroups.close(tab);
    await waitForDiagnostics(uri, (ds) => ds.length === 0, 'the large file\'s diagnostics to clear', 30000);
  });
});

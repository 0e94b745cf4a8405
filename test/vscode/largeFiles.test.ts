// Files over VS Code's 50 MB limit are never synced to extensions (no didOpen); the client's
// LargeFileTracker sees the tab and asks the server to read the file from disk. Here the whole
// chain runs: a real tab, no TextDocument, diagnostics anyway, and cleared when the tab closes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { describe, formatRange, hasCode, setGlobalSetting, waitForDiagnostics } from './helpers';

/** VS Code syncs documents up to this size to extensions. */
const SYNC_LIMIT = 50 * 1024 * 1024;

suite('large files', () => {
  let dir: string;
  let uri: vscode.Uri;

  suiteSetup(async () => {
    // Outside the workspace, so nothing is written into the repository under @vscode/test-electron.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iqm-tools-vscode-large-'));
    const file = path.join(dir, 'big.iqe');
    // A planted problem on line 1, then comment lines until the file is over the limit.
    const padding = `# ${'padding '.repeat(15)}\n`;
    const block = padding.repeat(Math.ceil((1024 * 1024) / padding.length));
    const fd = fs.openSync(file, 'w');
    try {
      fs.writeSync(fd, '# Inter-Quake Export\nMesh "typo"\n');
      let size = 0;
      while (size <= SYNC_LIMIT + 1024 * 1024) size += fs.writeSync(fd, block);
    } finally {
      fs.closeSync(fd);
    }
    uri = vscode.Uri.file(file);
    // VS Code for the web asks before opening files over 10 MB; a desktop one over 1 GB.
    await setGlobalSetting('workbench', 'editorLargeFileConfirmation', 1024);
  });

  suiteTeardown(async () => {
    await setGlobalSetting('workbench', 'editorLargeFileConfirmation', undefined);
    const tab = tabFor(uri);
    if (tab) await vscode.window.tabGroups.close(tab);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function tabFor(target: vscode.Uri): vscode.Tab | undefined {
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === target.toString()) return tab;
    }
    return undefined;
  }

  test('a file over the 50 MB sync limit gets diagnostics from the server reading it from disk', async () => {
    assert.ok(fs.statSync(uri.fsPath).size > SYNC_LIMIT);
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

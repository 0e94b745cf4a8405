// The extension is present, activates when an IQE document opens (its implicit onLanguage:iqe
// event), and the language is recognised by extension and by the header line.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { EXTENSION_ID, fixtureUri, iqeDiagnostics, openFixture } from './helpers';

suite('activation', () => {
  test('the extension is installed as a development extension', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} not found among ${vscode.extensions.all.length} extensions`);
    assert.equal(extension.packageJSON.name, 'iqm-tools');
  });

  test('opening an .iqe file activates it and starts the language server', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    // Nothing in the workspace is open yet; the extension must not need to be active for this to
    // work. (It may already be active if a future activation event fires at start-up.)
    const document = await openFixture('errors.iqe');
    assert.equal(document.languageId, 'iqe');
    await waitFor(() => extension.isActive, 'extension activation', 30000);
    // The language server is up when it publishes the fixture's diagnostics.
    await waitFor(() => iqeDiagnostics(document.uri).length > 0, 'first diagnostics from the language server', 30000);
  });

  test('a file without the .iqe extension is IQE by its first line', async () => {
    const document = await vscode.workspace.openTextDocument(fixtureUri('exported-model'));
    assert.equal(document.languageId, 'iqe', `first line: ${document.lineAt(0).text}`);
  });

  test('the contributed settings have their documented defaults', () => {
    const config = vscode.workspace.getConfiguration('iqmTools');
    assert.equal(config.get('diagnostics.maxProblems'), 1000);
    assert.deepEqual(config.get('diagnostics.ignore'), []);
    assert.deepEqual(config.get('diagnostics.severity'), {});
    assert.equal(config.get('diagnostics.debounceMs'), 50);
  });
});

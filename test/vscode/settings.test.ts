// The iqmTools.diagnostics.* settings reach the language server (the client pushes a
// configuration change, the server pulls the section per document and validates again).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeOf, hasCode, lacksCode, openFixture, revertAndClose, setSetting, waitForDiagnostics } from './helpers';

const { Error: ERROR, Warning: WARNING } = vscode.DiagnosticSeverity;

suite('settings', () => {
  let document: vscode.TextDocument;
  const both = (ds: readonly vscode.Diagnostic[]) => hasCode('unknown-command')(ds) && hasCode('face-index-range')(ds);
  const severityOf = (ds: readonly vscode.Diagnostic[], code: string) => ds.find((d) => codeOf(d) === code)?.severity;

  suiteSetup(async () => {
    document = await openFixture('settings.iqe');
    await waitForDiagnostics(document.uri, both, 'the two problems of settings.iqe');
  });

  teardown(async () => {
    for (const key of ['diagnostics.ignore', 'diagnostics.severity', 'diagnostics.maxProblems']) await setSetting(key, undefined);
    // Back to the defaults before the next test starts.
    await waitForDiagnostics(
      document.uri,
      (ds) => ds.length === 2 && both(ds) && severityOf(ds, 'unknown-command') === WARNING,
      'the default diagnostics after resetting the settings',
    );
  });

  suiteTeardown(async () => {
    await revertAndClose(document);
  });

  test('iqmTools.diagnostics.ignore silences a code and only that code', async () => {
    await setSetting('diagnostics.ignore', ['unknown-command']);
    const ds = await waitForDiagnostics(document.uri, lacksCode('unknown-command'), 'unknown-command to be silenced');
    assert.deepEqual(ds.map(codeOf), ['face-index-range']);
  });

  test('iqmTools.diagnostics.severity overrides the severity of a code', async () => {
    assert.equal(severityOf(vscode.languages.getDiagnostics(document.uri), 'unknown-command'), WARNING);
    await setSetting('diagnostics.severity', { 'unknown-command': 'error', 'face-index-range': 'hint' });
    const ds = await waitForDiagnostics(
      document.uri,
      (d) => severityOf(d, 'unknown-command') === ERROR && severityOf(d, 'face-index-range') === vscode.DiagnosticSeverity.Hint,
      'the severity overrides',
    );
    assert.equal(ds.length, 2);
  });

  test('iqmTools.diagnostics.maxProblems caps the list and says how many were left out', async () => {
    await setSetting('diagnostics.maxProblems', 1);
    const ds = await waitForDiagnostics(document.uri, hasCode('too-many-problems'), 'the too-many-problems entry');
    assert.equal(ds.length, 2, ds.map(codeOf).join(', '));
    const summary = ds.find((d) => codeOf(d) === 'too-many-problems')!;
    assert.match(summary.message, /1 more problems? (is|are) not shown/);
  });
});

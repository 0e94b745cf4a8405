// Diagnostics through the whole chain: the language client syncs the document, the server
// validates it and publishes, VS Code shows the markers. Codes, severities and ranges must be
// exactly those of the planted problems, and must follow edits.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { requestScreenshot } from './harnessClient';
import {
  codeOf,
  describe,
  type DiagnosticLike,
  formatRange,
  hasCode,
  lineOf,
  openFixture,
  openUntitled,
  revertAndClose,
  tokenRange,
  waitForDiagnostics,
} from './helpers';

const { Error: ERROR, Warning: WARNING } = vscode.DiagnosticSeverity;

suite('diagnostics', () => {
  let document: vscode.TextDocument;

  suiteSetup(async () => {
    document = await openFixture('errors.iqe');
  });

  suiteTeardown(async () => {
    await revertAndClose(document);
  });

  /** What errors.iqe plants (see scripts/make-vscode-fixtures.mjs). */
  function planted(): DiagnosticLike[] {
    const expect = (code: string, severity: vscode.DiagnosticSeverity, range: vscode.Range) => ({ code, severity, range });
    return [
      expect('joint-parent', ERROR, tokenRange(document, 'joint "hand" 5', '5')),
      expect('attribute-count', ERROR, tokenRange(document, 'vp 0 1 0', 'vp')),
      expect('face-index-range', ERROR, tokenRange(document, 'fm 1 2 7', '7')),
      expect('unknown-command', WARNING, tokenRange(document, 'Mesh "typo"', 'Mesh')),
    ];
  }

  test('the planted problems arrive with their codes, severities and exact ranges', async () => {
    const expected = planted();
    const actual = await waitForDiagnostics(document.uri, (ds) => ds.length >= expected.length, `${expected.length} diagnostics`);
    assert.equal(describe(actual), describe(expected));
    const byCode = new Map(actual.map((d) => [codeOf(d), d]));
    assert.match(byCode.get('joint-parent')!.message, /Parent 5 does not exist/);
    assert.match(byCode.get('face-index-range')!.message, /vertex 7/);
    assert.match(byCode.get('unknown-command')!.message, /'Mesh'.*'mesh'/);
    assert.match(byCode.get('attribute-count')!.message, /'vt'/);
    await requestScreenshot('diagnostics-errors-iqe');
  });

  test('an edit that fixes them clears them, and a new mistake appears where it is typed', async () => {
    await waitForDiagnostics(document.uri, (ds) => ds.length >= 4, 'the planted problems');
    const edit = new vscode.WorkspaceEdit();
    const uri = document.uri;
    edit.replace(uri, tokenRange(document, 'joint "hand" 5', '5'), '1');
    edit.insert(uri, new vscode.Position(lineOf(document, 'vp 0 1 0') + 1, 0), '\tvt 0 1\n');
    edit.replace(uri, tokenRange(document, 'fm 1 2 7', '7'), '0');
    const typo = lineOf(document, 'Mesh "typo"');
    edit.delete(uri, new vscode.Range(typo, 0, typo + 1, 0));
    assert.ok(await vscode.workspace.applyEdit(edit), 'applyEdit refused the fix');
    assert.ok(document.isDirty);
    await waitForDiagnostics(uri, (ds) => ds.length === 0, 'the diagnostics to clear after the fix');

    // Type a new mistake at the end: exactly one diagnostic, at the token typed.
    const end = new vscode.Position(document.lineCount - 1, 0);
    const more = new vscode.WorkspaceEdit();
    more.insert(uri, end, 'fm 0 1 3\n');
    assert.ok(await vscode.workspace.applyEdit(more));
    const after = await waitForDiagnostics(uri, hasCode('face-index-range'), 'face-index-range for the typed face');
    assert.equal(describe(after), `face-index-range error ${formatRange(tokenRange(document, 'fm 0 1 3', '3'))}`);
  });

  test('reverting the document brings the planted problems back', async () => {
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(document.isDirty, false);
    const expected = planted();
    const actual = await waitForDiagnostics(document.uri, (ds) => describe(ds) === describe(expected), 'the planted problems again');
    assert.equal(actual.length, 4);
  });
});

suite('diagnostics: positions and document kinds', () => {
  test('columns count UTF-16 code units (names with emoji and accents before the token)', async () => {
    const document = await openFixture('unicode.iqe');
    try {
      const line = 'joint "épaule 🦾" 7';
      const expected = [
        { code: 'joint-parent', severity: ERROR, range: tokenRange(document, line, '7') },
        { code: 'face-index-range', severity: ERROR, range: tokenRange(document, 'fm 0 1 9', '9') },
      ];
      assert.equal(expected[0].range.start.character, line.length - 1);
      const actual = await waitForDiagnostics(document.uri, (ds) => ds.length >= 2, 'the diagnostics of unicode.iqe');
      assert.equal(describe(actual), describe(expected));
    } finally {
      await revertAndClose(document);
    }
  });

  test('CRLF line ends: ranges exclude the carriage return, and stay right after an edit', async () => {
    const document = await openFixture('crlf.iqe');
    try {
      assert.equal(document.eol, vscode.EndOfLine.CRLF);
      const expected = () => `face-index-range error ${formatRange(tokenRange(document, 'fm 2 1 5', '5'))}`;
      await waitForDiagnostics(document.uri, (ds) => describe(ds) === expected(), 'face-index-range in crlf.iqe');
      // Insert a line above: the diagnostic moves down one line, same columns.
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, new vscode.Position(lineOf(document, 'mesh "tri"') + 1, 0), '\r\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const moved = await waitForDiagnostics(document.uri, (ds) => describe(ds) === expected(), 'the diagnostic to follow the edit');
      assert.equal(moved[0].range.start.line, lineOf(document, 'fm 2 1 5'));
    } finally {
      await revertAndClose(document);
    }
  });

  test('an untitled IQE document (never saved) gets diagnostics too', async () => {
    const document = await openUntitled('# Inter-Quake Export\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\nVP 1 0 0\n');
    try {
      assert.equal(document.uri.scheme, 'untitled');
      const ds = await waitForDiagnostics(document.uri, hasCode('unknown-command'), 'diagnostics of an untitled document');
      assert.equal(describe(ds), `unknown-command warning ${formatRange(tokenRange(document, 'VP 1 0 0', 'VP'))}`);
    } finally {
      await revertAndClose(document);
    }
  });
});

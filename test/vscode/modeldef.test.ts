// MODELDEF in the editor (both hosts): the generated GZDoom mod folder gzdoom-mod/ (written by
// scripts/make-examples.ts --fixtures from test/helpers/modeldef-mod.ts) opens as gzdoom-modeldef,
// and the language server's diagnostics are exactly the problems planted in its modeldef.txt (each
// planted line ends in `// planted: CODE`), read against the models and skins of the folder through
// the host's file access; the Problems panel is screenshot. A "▶" lens on a Frame line opens the
// IQM's preview on that animation, paused at that frame (iqmTools.previewStatus).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { requestScreenshot, waitFor } from './harnessClient';
import { codeOf, fixtureUri, lineOf, openFixture, revertAndClose, waitForTab } from './helpers';

/** The source of the sidecar diagnostics (server/sidecars.ts). */
const SIDECAR_SOURCE = 'iqm-tools';

/** The planted problems of a MODELDEF text: `[0-based line, code]` in line order. */
function planted(document: vscode.TextDocument): [number, string][] {
  const out: [number, string][] = [];
  for (let line = 0; line < document.lineCount; line++) {
    const m = /\/\/ planted: ([\w-]+)/.exec(document.lineAt(line).text);
    if (m) out.push([line, m[1]]);
  }
  return out;
}

const asPairs = (diagnostics: readonly vscode.Diagnostic[]): [number, string][] =>
  diagnostics.map((d): [number, string] => [d.range.start.line, codeOf(d)]).sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));

suite('MODELDEF (GZDoom, UZDoom)', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    doc = await openFixture('gzdoom-mod/modeldef.txt');
  });

  suiteTeardown(async () => {
    await revertAndClose(doc);
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  test('the generated mod folder: exactly the planted problems, at their lines; the Problems panel', async () => {
    assert.equal(doc.languageId, 'gzdoom-modeldef');
    const expected = planted(doc);
    assert.ok(expected.length >= 10, `the fixture plants one problem of each kind: ${JSON.stringify(expected)}`);
    let last: vscode.Diagnostic[] = [];
    const found = await waitFor(
      () => {
        last = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === SIDECAR_SOURCE);
        return last.length >= expected.length ? last : undefined;
      },
      'the MODELDEF diagnostics',
      30000,
      () => JSON.stringify(asPairs(last)),
    );
    assert.deepEqual(asPairs(found), expected);
    // Each is on the line's own token, not at the line's start (the planted comment is not it).
    for (const d of found) {
      const text = doc.lineAt(d.range.start.line).text;
      assert.ok(d.range.start.character < text.indexOf('//'), `${codeOf(d)} at ${d.range.start.character} of '${text}'`);
    }
    const wrongName = found.find((d) => codeOf(d) === 'modeldef-frame-unknown' && d.range.start.line === lineOf(doc, '  Frame TROO C 0 "atack:1" // planted: modeldef-frame-unknown'));
    assert.match(wrongName?.message ?? '', /monster\.iqm.*no frame "atack:1".*"idle" \(4 frames\), "walk" \(8 frames\), "attack" \(5 frames\)/);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await requestScreenshot('modeldef-problems');
  });

  test('a "▶" lens on a Frame line opens the preview of monster.iqm on that animation, paused at that frame', async () => {
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
    const walkLine = lineOf(doc, '  Frame TROO B 0 "walk:3"');
    const lenses = await waitFor(
      () => vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri).then((l) => (l?.some((x) => x.range.start.line === walkLine) ? l : undefined)),
      'the ▶ lenses of modeldef.txt',
    );
    const walk = lenses.find((l) => l.range.start.line === walkLine)!;
    assert.equal(walk.command?.title, '▶ walk 4/8');
    // Lines whose frame the model does not have get no lens.
    assert.equal(lenses.find((l) => l.range.start.line === lineOf(doc, '  Frame TROO C 0 "atack:1" // planted: modeldef-frame-unknown')), undefined);
    const model = fixtureUri('gzdoom-mod/models/monster/monster.iqm');
    assert.equal(vscode.Uri.parse((walk.command!.arguments![0] as { model: string }).model).toString(), model.toString());
    // As VS Code runs a lens: its command with its arguments.
    await vscode.commands.executeCommand(walk.command!.command, ...walk.command!.arguments!);
    const tab = await waitForTab(model, 'iqmTools.preview');
    type Status = { ok: boolean; error: string | null; clips: { names: string[]; clip: string | null; playing: boolean; frame: number | null } | null } | null;
    let status: Status = null;
    await waitFor(
      async () => {
        status = await vscode.commands.executeCommand<Status>('iqmTools.previewStatus', model.toString());
        return status?.clips?.clip === 'walk' && status.clips.frame === 3 ? true : undefined;
      },
      'the preview on walk, frame 3',
      30000,
      () => JSON.stringify(status),
    );
    const shown = status as Status;
    assert.equal(shown?.ok, true, shown?.error ?? '');
    assert.equal(shown?.clips?.playing, false, 'one frame, paused');
    assert.deepEqual(shown?.clips?.names.slice(0, 3), ['idle', 'walk', 'attack']);
    await requestScreenshot('modeldef-lens-preview', { webviewSelector: '#viewer' });
    await vscode.window.tabGroups.close(tab);
  });
});

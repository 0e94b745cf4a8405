// The sidecar files in the editor: clips.iqm.framegroups (scripts/make-vscode-fixtures.mjs) gets
// its language, the language server's diagnostics against clips.iqm beside it (read from disk by
// the Node server, or as base64 through the client in the web worker host), a hover with the clip's
// frames and duration, and a "▶ Play" code lens per clip whose command plays that clip in the
// model's preview (opened beside it); the open preview follows the file's unsaved edits.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { requestScreenshot, waitFor } from './harnessClient';
import { codeOf, describe, fixtureUri, openFixture, revertAndClose, tokenRange, waitForTab } from './helpers';

/** The clips part of iqmTools.previewStatus (client/preview/index.ts). */
interface ClipState {
  names: string[];
  clip: string | null;
  playing: boolean;
}

/** The source of the sidecar diagnostics (server/sidecars.ts). */
const SIDECAR_SOURCE = 'iqm-tools';

function sidecarDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SIDECAR_SOURCE);
}

/** The sidecar diagnostics of `uri` once there are at least `count` of them. */
async function waitForSidecarDiagnostics(uri: vscode.Uri, count: number, what: string): Promise<vscode.Diagnostic[]> {
  let last: vscode.Diagnostic[] = [];
  return waitFor(
    () => {
      last = sidecarDiagnostics(uri);
      return last.length >= count ? last : undefined;
    },
    `the sidecar diagnostics of ${what}`,
    30000,
    () => describe(last),
  );
}

/** The hover text at `position` of `uri` (every hover's contents, joined). */
async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
}

/** Whether a preview of `model` is the shown tab of its group (its webview has a page). */
function previewShown(model: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((g) => g.activeTab?.input instanceof vscode.TabInputCustom && g.activeTab.input.uri.toString() === model.toString());
}

/** The tab groups and their tabs, for a failure message. */
function tabsLayout(): string {
  return vscode.window.tabGroups.all.map((g) => `group ${g.viewColumn}: ${g.tabs.map((t) => `${t.label}${t.isActive ? ' (shown)' : ''}`).join(', ')}`).join('; ');
}

suite('sidecar files', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    doc = await openFixture('clips.iqm.framegroups');
  });

  suiteTeardown(async () => {
    await revertAndClose(doc);
  });

  test('the language, and the clip past the end of clips.iqm flagged at its frames', async () => {
    assert.equal(doc.languageId, 'iqm-framegroups');
    const found = await waitForSidecarDiagnostics(doc.uri, 1, 'clips.iqm.framegroups');
    const at = tokenRange(doc, '1 4 10 0 past_the_end', '1').union(tokenRange(doc, '1 4 10 0 past_the_end', '4'));
    assert.equal(describe(found), describe([{ code: 'frame-range', severity: vscode.DiagnosticSeverity.Error, range: at }]));
    const range = found.find((d) => codeOf(d) === 'frame-range')!;
    assert.match(range.message, /Frames 1–4 of clips\.iqm, which has 2 frames/);
    await requestScreenshot('sidecar-framegroups-diagnostics');
  });

  test('an edit (unsaved) that fits the clip into the model clears its diagnostics', async () => {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, tokenRange(doc, '1 4 10 0 past_the_end', '4'), '1');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => (sidecarDiagnostics(doc.uri).length === 0 ? true : undefined), 'no sidecar diagnostics after the edit', 20000, () => describe(sidecarDiagnostics(doc.uri)));
    assert.ok(doc.isDirty, 'the fix is not saved');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => (sidecarDiagnostics(doc.uri).length === 1 ? true : undefined), 'the diagnostics back after reverting', 20000, () => describe(sidecarDiagnostics(doc.uri)));
  });

  test('a skin: its textures looked up folder by folder (the image under the workspace found, the other not)', async () => {
    const skin = await openFixture('lone_0.skin');
    try {
      assert.equal(skin.languageId, 'q3-skin');
      const found = await waitForSidecarDiagnostics(skin.uri, 2, 'lone_0.skin');
      const missing = tokenRange(skin, 'head, textures/fixture/missing.tga', 'textures/fixture/missing.tga');
      assert.deepEqual(
        found.map((d) => [codeOf(d), d.range.start.line, d.range.start.character]),
        [
          ['model-not-found', 0, 0],
          ['texture-not-found', missing.start.line, missing.start.character],
        ],
      );
      const text = await hoverText(skin.uri, tokenRange(skin, 'body, textures/fixture/paint.tga', 'textures/fixture/paint.tga').start);
      assert.match(text, /Found: `[^`]*\/textures\/fixture\/paint\.tga`/);
      await requestScreenshot('sidecar-skin-textures');
    } finally {
      await revertAndClose(skin);
    }
  });

  test('hover on a clip line: frames and duration', async () => {
    const text = await hoverText(doc.uri, tokenRange(doc, '0 1 12 1 wave', 'wave').start);
    assert.match(text, /\*\*wave\*\*: frame 0 \(1 frame\)/);
    assert.match(text, /12 fps: 0\.083 s, loops/);
  });

  /** What the preview of `model` lists and plays (iqmTools.previewStatus). */
  async function clipState(model: vscode.Uri, accept: (s: ClipState) => boolean, what: string): Promise<ClipState> {
    let last: ClipState | null = null;
    return waitFor(
      async () => {
        const status = await vscode.commands.executeCommand<{ clips: ClipState | null } | null>('iqmTools.previewStatus', model.toString());
        last = status?.clips ?? null;
        return last && accept(last) ? last : undefined;
      },
      what,
      30000,
      () => JSON.stringify(last),
    );
  }

  test('a "▶ Play" code lens on each clip line plays that clip in the preview of clips.iqm', async () => {
    const lenses = await waitFor(
      () => vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri).then((l) => (l && l.length === 2 ? l : undefined)),
      'two code lenses',
    );
    assert.deepEqual(lenses.map((l) => [l.range.start.line, l.command?.title, l.command?.command]), [
      [tokenRange(doc, '0 1 12 1 wave', '0').start.line, '▶ Play', 'iqmTools.playClip'],
      [tokenRange(doc, '1 4 10 0 past_the_end', '1').start.line, '▶ Play', 'iqmTools.playClip'],
    ]);
    const args = lenses[0].command!.arguments![0] as { model: string; clip: string; index: number };
    const model = fixtureUri('clips.iqm');
    assert.equal(vscode.Uri.parse(args.model).toString(), model.toString());
    assert.deepEqual([args.clip, args.index], ['wave', 0]);
    // The second clip: the preview opens on it (a one-frame clip that does not loop: it has
    // finished playing by the time it is seen).
    await vscode.commands.executeCommand(lenses[1].command!.command, ...lenses[1].command!.arguments!);
    const tab = await waitForTab(model, 'iqmTools.preview');
    const second = await clipState(model, (s) => s.clip === 'past_the_end', 'the preview on past_the_end');
    assert.deepEqual(second.names.slice(0, 2), ['wave', 'past_the_end'], 'the clips of the .framegroups replace the IQM\'s (the preview adds "(all frames)")');
    // The first, in the preview already open.
    await vscode.commands.executeCommand(lenses[0].command!.command, ...lenses[0].command!.arguments!);
    await clipState(model, (s) => s.clip === 'wave' && s.playing, 'the preview playing wave');
    await requestScreenshot('sidecar-play-lens');
    await vscode.window.tabGroups.close(tab);
  });

  test('the open preview follows an unsaved edit of the .framegroups', async () => {
    const model = fixtureUri('clips.iqm');
    await vscode.commands.executeCommand('iqmTools.previewPlayClip', model, 'wave');
    const tab = await waitForTab(model, 'iqmTools.preview');
    await clipState(model, (s) => s.names.slice(0, 2).join() === 'wave,past_the_end', 'the clips of the file on disk');
    // The text in a group of its own, never over the preview: a preview in a background tab has no
    // page (retainContextWhenHidden is off) and is sent the text only when shown again. (Shown in
    // "the active group", the text landed on the preview when the preview's group was active,
    // which the timing of a loaded machine decides.)
    const previewColumn = tab.group.viewColumn;
    const textColumn = previewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: textColumn });
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, tokenRange(doc, '0 1 12 1 wave', 'wave'), 'sway');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    const renamed = await clipState(model, (s) => s.names.includes('sway'), 'the renamed clip in the preview');
    assert.deepEqual(renamed.names.slice(0, 2), ['sway', 'past_the_end']);
    // Reverted (the command acts on the active editor: the text's).
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: textColumn });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!doc.isDirty, 'reverted');
    assert.ok(previewShown(model), `the preview is still shown: ${tabsLayout()}`);
    await clipState(model, (s) => s.names.slice(0, 2).join() === 'wave,past_the_end', 'the clips back after reverting');
    await vscode.window.tabGroups.close(tab);
  });

  test('a preview behind the .framegroups in its group shows the edit, and the revert, when shown again', async () => {
    const model = fixtureUri('clips.iqm');
    await vscode.commands.executeCommand('iqmTools.previewPlayClip', model, 'wave');
    const tab = await waitForTab(model, 'iqmTools.preview');
    const column = tab.group.viewColumn;
    await clipState(model, (s) => s.names.slice(0, 2).join() === 'wave,past_the_end', 'the clips of the file on disk');
    // The text over the preview: its page is gone (retainContextWhenHidden is off) while it is edited.
    const showText = () => vscode.window.showTextDocument(doc, { preview: false, viewColumn: column });
    const showPreview = async () => {
      await vscode.commands.executeCommand('vscode.openWith', model, 'iqmTools.preview', column);
      await waitForTab(model, 'iqmTools.preview');
    };
    await showText();
    assert.ok(!previewShown(model), `the preview is behind the text: ${tabsLayout()}`);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, tokenRange(doc, '0 1 12 1 wave', 'wave'), 'sway');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await showPreview();
    await clipState(model, (s) => s.names.slice(0, 2).join() === 'sway,past_the_end', 'the edited clips once the preview is shown');
    await showText();
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!doc.isDirty, 'reverted');
    await showPreview();
    await clipState(model, (s) => s.names.slice(0, 2).join() === 'wave,past_the_end', 'the clips of the reverted text once the preview is shown');
    await vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === model.toString()));
  });
});

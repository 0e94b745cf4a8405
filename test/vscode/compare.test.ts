// The preview as a place to work, in the extension host: "Compare with…" opens two previews as a
// pair that gets the semantic differences of `iqm-tools diff` (iqmTools.compareStatus, a test-only
// command); a diff editor of two model files (what "Open Changes" opens) pairs its two sides; the
// cursor in an IQE text highlights in its preview what its line became (iqmTools.previewStatus's
// `link`). The click in the preview itself is driven in the UI test (test/vscode-ui).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { activeExtension, fixtureUri, lineOf, scratchFolder, utf8, waitForTab } from './helpers';

interface ComparisonStatus {
  left: string;
  right: string;
  differences: { section: string; message: string }[] | null;
  error: string | null;
}

interface LinkStatus {
  picked: { triangle: number; face: number; vertices: number[] } | null;
  highlight: { line: number; target: { kind: string; indices?: number[]; joint?: number } | null } | null;
}

/** A preview tab of the file in any group (the last one opened is the active one). */
function waitForPreview(uri: vscode.Uri): Promise<vscode.Tab> {
  return waitFor(
    () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === uri.toString()),
    `a preview tab of ${uri.path}`,
  );
}

const compareStatus = () => vscode.commands.executeCommand<ComparisonStatus[]>('iqmTools.compareStatus');

/** The comparison of these two files once its differences are computed. */
function comparisonOf(left: vscode.Uri, right: vscode.Uri): Promise<ComparisonStatus> {
  return waitFor(
    async () => (await compareStatus()).find((c) => c.left === left.toString() && c.right === right.toString() && (c.differences !== null || c.error !== null)),
    `the comparison of ${left.path} and ${right.path}`,
    60000,
  );
}

suite('preview as a place to work', () => {
  suiteSetup(async () => {
    await activeExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Compare with… on two IQE files: their previews side by side, paired, with the semantic differences', async () => {
    const scratch = await scratchFolder('compare');
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(fixtureUri('features.iqe')));
      const changed = text.replace('joint "arm" 0', 'joint "elbow" 0').replace('vp 0 0 2', 'vp 0 0 2.5');
      assert.notEqual(changed, text);
      const a = vscode.Uri.joinPath(scratch.uri, 'a.iqe');
      const b = vscode.Uri.joinPath(scratch.uri, 'b.iqe');
      await vscode.workspace.fs.writeFile(a, utf8(text));
      await vscode.workspace.fs.writeFile(b, utf8(changed));
      // As the explorer calls it with two files selected.
      await vscode.commands.executeCommand('iqmTools.compareWith', a, [a, b]);
      await waitForPreview(a);
      await waitForPreview(b);
      const status = await comparisonOf(a, b);
      assert.equal(status.error, null);
      const lines = (status.differences ?? []).map((d) => `${d.section}: ${d.message}`);
      assert.ok(lines.some((l) => /^joints: joint 1: name 'arm' ≠ 'elbow'/.test(l)), lines.join('\n'));
      assert.ok(lines.some((l) => /^triangles: mesh 1 'head'/.test(l)), lines.join('\n'));
      // The same file on both sides: no differences.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const copy = vscode.Uri.joinPath(scratch.uri, 'copy.iqe');
      await vscode.workspace.fs.writeFile(copy, utf8(text));
      await vscode.commands.executeCommand('iqmTools.compareWith', a, [a, copy]);
      assert.deepEqual((await comparisonOf(a, copy)).differences, []);
    } finally {
      await scratch.remove();
    }
  });

  test('a diff editor of two model files (as Open Changes opens) pairs its two sides', async () => {
    const left = fixtureUri('preview.iqm');
    const right = fixtureUri('preview.md3');
    await vscode.commands.executeCommand('vscode.diff', left, right, 'preview.iqm ↔ preview.md3');
    const status = await comparisonOf(left, right);
    assert.equal(status.error, null);
    assert.ok((status.differences ?? []).length > 0, 'an IQM and an MD3 of other models differ');
    // Closing the editor ends the comparison.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(async () => !(await compareStatus()).some((c) => c.left === left.toString()) || undefined, 'the comparison to end');
  });

  test('the cursor in an IQE text highlights in its preview the face, vertex or joint its line became', async function () {
    this.timeout(180000);
    const uri = fixtureUri('features.iqe');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('vscode.openWith', uri, 'iqmTools.iqePreview', vscode.ViewColumn.Beside);
    await waitForTab(uri, 'iqmTools.iqePreview');
    const link = () => vscode.commands.executeCommand<{ link?: LinkStatus } | null>('iqmTools.previewStatus', uri.toString()).then((s) => s?.link);
    const moveTo = async (line: number) => {
      const editor2 = await vscode.window.showTextDocument(document, { viewColumn: editor.viewColumn, preserveFocus: false });
      editor2.selection = new vscode.Selection(line, 0, line, 0);
    };
    const expect = async (line: number, kind: string) =>
      waitFor(async () => {
        const status = await link();
        return status?.highlight?.line === line && status.highlight.target?.kind === kind ? status.highlight.target : undefined;
      }, `a ${kind} highlight for line ${line + 1} (last: ${JSON.stringify((await link()) ?? null)})`, 60000);
    const faceLine = lineOf(document, 'fm 0 1 2');
    await moveTo(faceLine);
    const face = await expect(faceLine, 'triangles');
    assert.equal(face.indices?.length, 1);
    const vertexLine = lineOf(document, 'vp 0 1 0');
    await moveTo(vertexLine);
    const vertex = await expect(vertexLine, 'vertices');
    assert.equal(vertex.indices?.length, 1);
    // The `vb` line below is the same vertex.
    await moveTo(vertexLine + 1);
    assert.deepEqual((await expect(vertexLine + 1, 'vertices')).indices, vertex.indices);
    const jointLine = lineOf(document, 'joint "hand" 1');
    await moveTo(jointLine);
    assert.equal((await expect(jointLine, 'joint')).joint, 2);
  });
});

// The preview as a place to work, in the extension host: "Compare with…" opens two previews as a
// pair that gets the semantic differences of `iqm-tools diff` (iqmTools.compareStatus, a test-only
// command); a diff editor of two model files (what "Open Changes" opens) pairs its two sides; the
// cursor in an IQE text highlights in its preview what its line became (iqmTools.previewStatus's
// `link`); the source control's "Open Changes" on a modified model in a git repository (the git
// extension turned on for that test: the harness turns it off) pairs the committed side (a `git:`
// URI) with the working copy. The click in the preview itself is driven in the UI test
// (test/vscode-ui). Node host only (the git repository is made with the git command).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { diffModels } from '../../core/compare/diff';
import { readModel } from '../../core/formats/models';
import { requestScreenshot, waitFor } from './harnessClient';
import { activeExtension, fixtureUri, lineOf, scratchFolder, utf8, waitForTab, writeMd5Pair } from './helpers';

interface ComparisonStatus {
  left: string;
  right: string;
  leftVisible: boolean;
  rightVisible: boolean;
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

/** The little of the git extension's API (its git.d.ts, version 1) this test uses. */
interface GitRepository {
  rootUri: vscode.Uri;
  state: { workingTreeChanges: { uri: vscode.Uri }[] };
  status(): Promise<void>;
}
interface GitExtension {
  enabled: boolean;
  getAPI(version: 1): { openRepository(root: vscode.Uri): Promise<GitRepository | null> };
}

/** A copy of an IQM with its first vertex's x moved by 0.5 (IQM header: ofs_vertexarrays at byte 52; arrays of 5 uint32, position = type 0, floats). */
function withFirstVertexMoved(iqm: Uint8Array): Uint8Array {
  // A copy (the Node host's readFile gives a Buffer, whose slice() shares the bytes).
  const out = new Uint8Array(iqm);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const arrays = view.getUint32(44, true);
  const arraysAt = view.getUint32(52, true);
  for (let i = 0; i < arrays; i++) {
    const at = arraysAt + i * 20;
    if (view.getUint32(at, true) !== 0) continue;
    const positions = view.getUint32(at + 16, true);
    view.setFloat32(positions, view.getFloat32(positions, true) + 0.5, true);
    return out;
  }
  throw new Error('no position array');
}

const compareStatus = () => vscode.commands.executeCommand<ComparisonStatus[]>('iqmTools.compareStatus');

/** The comparison of these two files once its differences are computed. */
function comparisonOf(left: vscode.Uri, right: vscode.Uri): Promise<ComparisonStatus> {
  let seen: ComparisonStatus[] = [];
  return waitFor(
    async () => (seen = await compareStatus()).find((c) => c.left === left.toString() && c.right === right.toString() && (c.differences !== null || c.error !== null)),
    `the comparison of ${left.path} and ${right.path}`,
    60000,
    () => `comparisons: ${JSON.stringify(seen)}; tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`,
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
      assert.ok(lines.some((l) => /^joints: joint 1: name "arm" ≠ "elbow"/.test(l)), lines.join('\n'));
      assert.ok(lines.some((l) => /^triangles: mesh 1 "head"/.test(l)), lines.join('\n'));
      // The same file on both sides: no differences.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const copy = vscode.Uri.joinPath(scratch.uri, 'copy.iqe');
      await vscode.workspace.fs.writeFile(copy, utf8(text));
      await vscode.commands.executeCommand('iqmTools.compareWith', a, [a, copy]);
      assert.deepEqual((await comparisonOf(a, copy)).differences, []);
      // A side that does not compile: the comparison says why, instead of waiting for its model.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const broken = vscode.Uri.joinPath(scratch.uri, 'broken.iqe');
      const brokenText = text.replace('fm 0 1 2', 'fm 0 1 99');
      assert.notEqual(brokenText, text);
      await vscode.workspace.fs.writeFile(broken, utf8(brokenText));
      await vscode.commands.executeCommand('iqmTools.compareWith', a, [a, broken]);
      const failed = await comparisonOf(a, broken);
      assert.equal(failed.differences, null);
      assert.match(failed.error ?? '', /^broken\.iqe has no model to compare: .*99.*\(line \d+/);
    } finally {
      await scratch.remove();
    }
  });

  test('Compare with… on compile sources (OBJ, MD5): compiled as their previews are, then compared', async function () {
    this.timeout(240000);
    const scratch = await scratchFolder('compare-sources');
    try {
      const quad = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n';
      const a = vscode.Uri.joinPath(scratch.uri, 'a.obj');
      const b = vscode.Uri.joinPath(scratch.uri, 'b.obj');
      const same = vscode.Uri.joinPath(scratch.uri, 'same.obj');
      await vscode.workspace.fs.writeFile(a, utf8(quad));
      await vscode.workspace.fs.writeFile(b, utf8(quad.replace('v 1 1 0', 'v 1 1 0.5')));
      await vscode.workspace.fs.writeFile(same, utf8(quad));
      await vscode.commands.executeCommand('iqmTools.compareWith', a, [a, b]);
      const moved = await comparisonOf(a, b);
      assert.equal(moved.error, null);
      const lines = (moved.differences ?? []).map((d) => `${d.section}: ${d.message}`);
      assert.ok(lines.some((l) => /^triangles: mesh 0 .*have no match/.test(l)), lines.join('\n'));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('iqmTools.compareWith', a, [a, same]);
      assert.deepEqual((await comparisonOf(a, same)).differences, []);
      // An MD5 (its .md5anim merged, as in its preview) with itself: no differences.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await writeMd5Pair(scratch.uri);
      const door = vscode.Uri.joinPath(scratch.uri, 'door.md5mesh');
      const copy = vscode.Uri.joinPath(scratch.uri, 'door-copy.md5mesh');
      await vscode.workspace.fs.copy(door, copy);
      await vscode.commands.executeCommand('iqmTools.compareWith', door, [door, copy]);
      assert.deepEqual((await comparisonOf(door, copy)).differences, []);
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

  test('"Open Changes" on a modified model in a git repository: the committed model and the working copy compared', async function () {
    this.timeout(180000);
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
    assert.ok(extension, 'the git extension is built into VS Code');
    const git = vscode.workspace.getConfiguration('git');
    const before = git.inspect<boolean>('enabled')?.globalValue;
    const scratch = await scratchFolder('git');
    try {
      // A repository with preview.iqm committed as model.iqm, and in the working copy a vertex moved.
      const committed = await vscode.workspace.fs.readFile(fixtureUri('preview.iqm'));
      const working = withFirstVertexMoved(committed);
      const model = vscode.Uri.joinPath(scratch.uri, 'model.iqm');
      await vscode.workspace.fs.writeFile(model, committed);
      const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=iqm-tools test', '-c', 'user.email=test@iqm-tools.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: scratch.uri.fsPath, encoding: 'utf8' });
      run('init', '-q');
      run('add', 'model.iqm');
      run('commit', '-q', '-m', 'the model');
      await vscode.workspace.fs.writeFile(model, working);
      // The git extension on (the harness's user settings turn it off), and the repository opened.
      await git.update('enabled', true, vscode.ConfigurationTarget.Global);
      const exports = await extension.activate();
      await waitFor(() => exports.enabled || undefined, 'the git extension enabled');
      const repository = await exports.getAPI(1).openRepository(scratch.uri);
      assert.ok(repository, `git opens the repository in ${scratch.uri.fsPath}`);
      await waitFor(
        async () => {
          await repository.status();
          return repository.state.workingTreeChanges.some((c) => c.uri.toString() === model.toString()) || undefined;
        },
        'model.iqm among the changes',
        30000,
        () => `git status: ${JSON.stringify(run('status', '--porcelain'))}; changes: ${repository.state.workingTreeChanges.map((c) => c.uri.toString()).join(', ') || 'none'}; repository ${repository.rootUri.toString()}`,
      );
      // The model's own preview open first, in a tab of its own: the diff then opens in front of it,
      // and the committed side must pair with the diff's working copy, not with this hidden tab.
      await vscode.commands.executeCommand('vscode.openWith', model, 'iqmTools.preview', { preview: false });
      await waitFor(
        () => vscode.commands.executeCommand<{ ok: boolean } | null>('iqmTools.previewStatus', model.toString()).then((r) => r?.ok || undefined),
        'the model drawn in its own preview',
      );
      // What a click on "Open Changes" (or on the file in the Source Control view) runs.
      await vscode.commands.executeCommand('git.openChange', model);
      let seen: ComparisonStatus[] = [];
      const status = await waitFor(
        async () => (seen = await compareStatus()).find((c) => c.right === model.toString() && c.leftVisible && c.rightVisible && (c.differences !== null || c.error !== null)),
        'the comparison of the committed model.iqm with the working copy',
        60000,
        () => `${JSON.stringify(seen)}; tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`,
      );
      const left = vscode.Uri.parse(status.left);
      assert.equal(left.scheme, 'git', status.left);
      assert.equal(left.path, model.path);
      assert.equal(status.error, null);
      const expected = diffModels(readModel(committed), readModel(working));
      assert.ok(expected.length > 0);
      assert.deepEqual(status.differences, expected, 'the differences of the committed bytes and the working copy');
      await requestScreenshot('compare-open-changes', { webviewSelector: '#viewer[data-compare="left"]' });
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await git.update('enabled', before, vscode.ConfigurationTarget.Global);
      await scratch.remove();
    }
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

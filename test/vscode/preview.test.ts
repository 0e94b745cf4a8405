// The model preview custom editor, opened the way the "Open Preview to the Side" command opens it.
// The webview reports what it drew (vertices, triangles, joints) to the extension, which exposes
// the last report through the test-only command iqmTools.previewStatus. The suite skips, saying
// why, while the extension does not register the preview yet.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { requestScreenshot, waitFor } from './harnessClient';
import { activeExtension, fixtureUri } from './helpers';

const IQE_PREVIEW = 'iqmTools.iqePreview';
const STATUS_COMMAND = 'iqmTools.previewStatus';

interface Rendered {
  ok: boolean;
  format: string;
  error: string | null;
  vertices: number;
  triangles: number;
  joints: number;
  firstFrameMs: number;
}

suite('model preview', () => {
  let registered = false;

  suiteSetup(async () => {
    await activeExtension();
    registered = (await vscode.commands.getCommands(true)).includes(STATUS_COMMAND);
  });

  function skipUnlessRegistered(context: Mocha.Context): void {
    if (registered) return;
    if (context.test) context.test.title += ` [skipped: the extension does not register ${STATUS_COMMAND} (client/preview) yet]`;
    context.skip();
  }

  test('an IQE file opens in the IQE preview and the webview draws the whole model', async function () {
    skipUnlessRegistered(this);
    const uri = fixtureUri('features.iqe');
    await vscode.commands.executeCommand('vscode.openWith', uri, IQE_PREVIEW);
    const tab = await waitFor(() => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputCustom && active.input.viewType === IQE_PREVIEW ? active : undefined;
    }, 'the preview tab');
    assert.equal((tab.input as vscode.TabInputCustom).uri.toString(), uri.toString());
    const status = await waitFor(
      () => vscode.commands.executeCommand<Rendered | null>(STATUS_COMMAND, uri.toString()),
      'the preview to report what it rendered',
      60000,
    );
    assert.equal(status.ok, true, `preview error: ${status.error}`);
    // (An IQE is compiled in memory first, so the webview may report the format it drew, 'iqm'.)
    assert.ok(['iqe', 'iqm'].includes(status.format), `format ${status.format}`);
    assert.equal(status.triangles, 2);
    assert.equal(status.joints, 3);
    assert.ok(status.vertices >= 6, `${status.vertices} vertices`);
    await requestScreenshot('preview-features-iqe', { webviewSelector: '#viewer[data-state="ready"]' });
    await vscode.window.tabGroups.close(tab);
  });
});

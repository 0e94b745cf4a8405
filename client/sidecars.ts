// The client's side of the sidecar files' language support: the "▶ Play" code lens command (the
// server puts it on each clip line of a .framegroups or animation.cfg) opens the model's preview.
import * as vscode from 'vscode';
import { PLAY_CLIP_COMMAND, type PlayClipArgs } from '../core/lspMethods';

/** The model preview's view type (client/preview/provider.ts VIEW_TYPE). */
const PREVIEW_VIEW_TYPE = 'iqmTools.preview';

export function registerSidecarCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(PLAY_CLIP_COMMAND, async (args?: PlayClipArgs) => {
      if (!args || typeof args.model !== 'string') {
        void vscode.window.showInformationMessage('Use the "▶ Play" code lens on a clip line of a .framegroups or animation.cfg file.');
        return;
      }
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.parse(args.model, true), PREVIEW_VIEW_TYPE, vscode.ViewColumn.Beside);
    }),
  );
}

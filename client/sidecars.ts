// The client's side of the sidecar files' language support: the "▶ Play" code lens command (the
// server puts it on each clip line of a .framegroups or animation.cfg, and on each Frame line of a
// MODELDEF) plays that clip in the model's preview (or shows that frame of it, paused), opening one
// beside the text where none is open (iqmTools.previewPlayClip).
import * as vscode from 'vscode';
import { PLAY_CLIP_COMMAND, type PlayClipArgs } from '../core/lspMethods';

export function registerSidecarCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(PLAY_CLIP_COMMAND, async (args?: PlayClipArgs) => {
      if (!args || typeof args.model !== 'string') {
        void vscode.window.showInformationMessage('Use the "▶ Play" code lens on a clip line of a .framegroups or animation.cfg file.');
        return;
      }
      await vscode.commands.executeCommand('iqmTools.previewPlayClip', vscode.Uri.parse(args.model, true), args.clip, args.firstFrame, args.frame);
    }),
  );
}

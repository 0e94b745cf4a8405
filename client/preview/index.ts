// Registers the model preview custom editor and its commands.

import * as vscode from 'vscode';
import type { Platform } from '../platform';
import type { Comparisons } from '../compare/comparisons';
import { GLB_VIEW_TYPE, GLTF_VIEW_TYPE, IQE_VIEW_TYPE, OBJ_VIEW_TYPE, PreviewProvider, VIEW_TYPE } from './provider';

export function registerPreview(context: vscode.ExtensionContext, platform: Platform, comparisons: Comparisons): void {
  const provider = new PreviewProvider(context, platform, comparisons);
  const options = { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true };
  context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, options),
    vscode.window.registerCustomEditorProvider(IQE_VIEW_TYPE, provider, options),
    vscode.window.registerCustomEditorProvider(OBJ_VIEW_TYPE, provider, options),
    vscode.window.registerCustomEditorProvider(GLTF_VIEW_TYPE, provider, options),
    vscode.window.registerCustomEditorProvider(GLB_VIEW_TYPE, provider, options),
    vscode.commands.registerCommand('iqmTools.openPreviewToSide', async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        void vscode.window.showInformationMessage('Open an IQE file first.');
        return;
      }
      await vscode.commands.executeCommand('vscode.openWith', target, IQE_VIEW_TYPE, vscode.ViewColumn.Beside);
    }),
    // Plays a clip in the model's preview (or shows one frame of it, paused), opening one where none is open (code lenses of sidecar files).
    vscode.commands.registerCommand('iqmTools.previewPlayClip', async (model: vscode.Uri, name: string, firstFrame?: number, frame?: number) => {
      let panels = provider.panelsOf(model);
      if (panels.length === 0) {
        await vscode.commands.executeCommand('vscode.openWith', model, VIEW_TYPE, vscode.ViewColumn.Beside);
        panels = provider.panelsOf(model);
      }
      for (const p of panels) p.playClip(name, firstFrame, frame === undefined, frame);
      return panels.length;
    }),
    // For tests: what the webview last drew, the IQE compiles of that document and its first load's timeline.
    vscode.commands.registerCommand('iqmTools.previewStatus', (uri?: string) => {
      if (!uri) return Object.fromEntries(provider.lastRendered);
      const rendered = provider.lastRendered.get(uri);
      if (!rendered) return null;
      const clips = provider.clipStates.get(uri);
      const panels = provider.panelsOf(vscode.Uri.parse(uri));
      const link = panels.map((p) => p.linkStatus).find((l) => l !== null) ?? null;
      // The newest panel's (a file can be previewed in several editors).
      const timeline = panels.length ? panels[panels.length - 1].firstLoad : null;
      return { ...rendered, compiles: provider.compiles.get(uri) ?? null, clips: clips ? { names: clips.clips, clip: clips.clip, playing: clips.playing, frame: clips.frame } : null, link, timeline };
    }),
  );
}

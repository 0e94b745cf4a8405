// "Compare with…": two model files side by side, their cameras and clips synced, with the
// semantic differences of `iqm-tools diff` (comparisons.ts). From the explorer with two files
// selected, or from the palette or a preview's title, asking for the other file.
import * as vscode from 'vscode';
import type { Comparisons } from './comparisons';

/** Files the preview opens, and the view type that opens each (text formats only "Open With…"). */
const MODEL_FILE = /\.(iqm|md3|dpm|vvm|exm|md5mesh|smd|iqe|obj)$/i;
/** Binary models: VS Code's diff editor shows them in their custom editor (a text file, even one the preview opens by default, gets a text diff). */
const BINARY_MODEL = /\.(iqm|md3|dpm|vvm|exm)$/i;

export function viewTypeOf(path: string): string {
  if (/\.iqe$/i.test(path)) return 'iqmTools.iqePreview';
  if (/\.obj$/i.test(path)) return 'iqmTools.objPreview';
  return 'iqmTools.preview';
}

/** The model file of the active editor (a preview or an IQE text), if any. */
function activeModel(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText ? input.uri : undefined;
  return uri && MODEL_FILE.test(uri.path) ? uri : undefined;
}

/** Asks for a model file: the workspace's model files (but `except`), or a file dialog. */
async function pickModel(title: string, except?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const found = await vscode.workspace.findFiles('**/*.{iqm,md3,dpm,vvm,exm,md5mesh,smd,iqe,obj,IQM,MD3,DPM,IQE}', '**/node_modules/**', 2000);
  const browse = { label: '$(folder-opened) Browse…', uri: undefined as vscode.Uri | undefined };
  const items = found
    .filter((u) => !except || u.toString() !== except.toString())
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((uri) => ({ label: uri.path.slice(uri.path.lastIndexOf('/') + 1), description: vscode.workspace.asRelativePath(uri, true), uri }));
  const chosen = await vscode.window.showQuickPick([browse, ...items], { title, placeHolder: 'A model file to compare with', matchOnDescription: true });
  if (!chosen) return undefined;
  if (chosen.uri) return chosen.uri;
  const picked = await vscode.window.showOpenDialog({ title, canSelectMany: false, filters: { 'Model files': ['iqm', 'md3', 'dpm', 'vvm', 'exm', 'md5mesh', 'smd', 'iqe', 'obj'] } });
  return picked?.[0];
}

/**
 * Opens two models compared: in one diff editor when both are binary models (the same editor
 * "Open Changes" gives), else (IQE, OBJ, MD5, SMD: text, which the diff editor shows as text)
 * their previews in two columns.
 */
export async function openComparison(comparisons: Comparisons, left: vscode.Uri, right: vscode.Uri): Promise<void> {
  comparisons.expect(left, right);
  const name = (u: vscode.Uri) => u.path.slice(u.path.lastIndexOf('/') + 1);
  if (BINARY_MODEL.test(left.path) && BINARY_MODEL.test(right.path)) {
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name(left)} ↔ ${name(right)}`);
    return;
  }
  await vscode.commands.executeCommand('vscode.openWith', left, viewTypeOf(left.path), vscode.ViewColumn.One);
  await vscode.commands.executeCommand('vscode.openWith', right, viewTypeOf(right.path), vscode.ViewColumn.Two);
}

export function registerCompare(context: vscode.ExtensionContext, comparisons: Comparisons): void {
  context.subscriptions.push(
    comparisons,
    // Explorer: (clicked, selection); palette: nothing; a preview's title: its file.
    vscode.commands.registerCommand('iqmTools.compareWith', async (clicked?: vscode.Uri, selection?: vscode.Uri[]) => {
      const chosen = (selection ?? []).filter((u) => MODEL_FILE.test(u.path));
      if (selection && selection.length > 2) {
        void vscode.window.showErrorMessage(`Compare with… takes two model files; ${selection.length} are selected.`);
        return;
      }
      let left: vscode.Uri | undefined;
      let right: vscode.Uri | undefined;
      if (chosen.length === 2) [left, right] = chosen;
      else {
        left = clicked ?? activeModel() ?? (await pickModel('Compare: the first model'));
        if (!left) return;
        right = await pickModel(`Compare ${left.path.slice(left.path.lastIndexOf('/') + 1)} with…`, left);
      }
      if (!left || !right) return;
      for (const uri of [left, right]) {
        if (!MODEL_FILE.test(uri.path)) {
          void vscode.window.showErrorMessage(`${uri.fsPath || uri.path}: not a model file the preview opens (IQM, MD3, DPM, IQE, MD5, SMD, OBJ).`);
          return;
        }
      }
      await openComparison(comparisons, left, right);
    }),
    vscode.commands.registerCommand('iqmTools.compareStatus', () => comparisons.status()),
  );
}

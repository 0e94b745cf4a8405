// What the preview opens or writes for the user: the IQE text at a clicked triangle's line, and the
// exported image (a save dialog beside the model).
import * as vscode from 'vscode';
import { fileNameOf as basename, folderOf as dirname } from '../../core/paths';
import { errorText } from '../../core/host/transfer';

/** Shows the IQE text at a line and column (in the editor that has it, else beside the preview). */
export async function showSource(uri: vscode.Uri, line: number, column: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const position = new vscode.Position(Math.min(line, doc.lineCount - 1), column);
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  await vscode.window.showTextDocument(doc, { viewColumn: shown?.viewColumn ?? vscode.ViewColumn.Beside, selection: new vscode.Range(position, position) });
}

/** The export-image button: a save dialog beside the model, then the PNG. */
export async function saveImage(model: vscode.Uri, name: string, png: Uint8Array): Promise<void> {
  const target = await vscode.window.showSaveDialog({ defaultUri: model.with({ path: `${dirname(model.path)}/${name}` }), filters: { 'PNG image': ['png'] } });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, png);
    vscode.window.setStatusBarMessage(`$(check) Saved ${basename(target.path)}`, 5000);
  } catch (e) {
    void vscode.window.showErrorMessage(`${target.fsPath}: ${errorText(e)}`);
  }
}

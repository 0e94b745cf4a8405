// What every benchmark inside VS Code starts from: our extension activated (its API says which
// extension host it runs in) and the workspace folder the harness opened.
import * as vscode from 'vscode';

export async function activated(): Promise<{ host: string; folder: vscode.Uri }> {
  const extension = vscode.extensions.getExtension('iqm-tools.iqm-tools');
  if (!extension) throw new Error('iqm-tools.iqm-tools is not loaded');
  const api = (await extension.activate()) as { host: string };
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('no workspace folder');
  return { host: api.host, folder };
}

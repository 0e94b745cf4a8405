// The injected file access (core/files.ts) over vscode.workspace.fs, for the model's file system
// (the same scheme and authority as `base`: local, remote and virtual files alike); an open
// document's text, saved or not, is what the user sees, so it is the editor's text.
import * as vscode from 'vscode';
import type { FileAccess } from '../core/files';

export function workspaceAccess(base: vscode.Uri): FileAccess {
  const uriOf = (path: string) => base.with({ path });
  return {
    async readBytes(path) {
      try {
        return await vscode.workspace.fs.readFile(uriOf(path));
      } catch {
        return null;
      }
    },
    async isFile(path) {
      try {
        return ((await vscode.workspace.fs.stat(uriOf(path))).type & vscode.FileType.File) !== 0;
      } catch {
        return false;
      }
    },
    async listFolder(path) {
      try {
        return (await vscode.workspace.fs.readDirectory(uriOf(path))).map(([name]) => name);
      } catch {
        return null;
      }
    },
    editorText(path) {
      const uri = uriOf(path).toString();
      return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText();
    },
  };
}

// The injected file access (core/files.ts) over vscode.workspace.fs, for the model's file system
// (the same scheme and authority as `base`: local, remote and virtual files alike); an open
// document's text, saved or not, is what the user sees, so it is the editor's text. Files on the
// extension host's own disk (file:) are read by the host itself where it can (the Node host, with
// node:fs: node/files.ts), not through a round trip to the window per call: in code-server a
// workspace.fs stat took 5-9 ms (100 of them 0.46-0.94 s, against under 1 ms with node:fs), and a
// texture lookup tries dozens of names.
import * as vscode from 'vscode';
import type { FileAccess } from '../core/files';

/** The host's own reads of file: URIs, by file system path (Uri.fsPath); set once at activation by the Node host; null: all through vscode.workspace.fs. */
let diskReads: FileAccess | null = null;

export function readLocalFilesWith(reads: FileAccess | null): void {
  diskReads = reads;
}

export function workspaceAccess(base: vscode.Uri): FileAccess {
  const uriOf = (path: string) => base.with({ path });
  const editorText = (path: string) => {
    const uri = uriOf(path).toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText();
  };
  const disk = base.scheme === 'file' ? diskReads : null;
  if (disk) {
    return {
      readBytes: (path) => disk.readBytes(uriOf(path).fsPath),
      isFile: (path) => disk.isFile(uriOf(path).fsPath),
      listFolder: (path) => disk.listFolder(uriOf(path).fsPath),
      editorText,
    };
  }
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
    editorText,
  };
}

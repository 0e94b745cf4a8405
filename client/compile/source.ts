// What the compile command and the IQE preview share on the extension host: the compile settings of
// a file and the text to compile (an open document's, saved or not, or the file itself). The compile
// runs in the host's worker (Platform.compile); the worker side is client/compile/run.ts.
import * as vscode from 'vscode';
import type { ModelFiles } from '../platform';
import type { CompileSource } from './protocol';
import { type CompileSettings, DEFAULT_OUTPUT_PATH } from './settings';

export function settingsFor(uri: vscode.Uri): CompileSettings {
  const c = vscode.workspace.getConfiguration('iqmTools.compile', uri);
  return {
    outputPath: c.get<string>('outputPath', DEFAULT_OUTPUT_PATH),
    onSave: c.get<boolean>('onSave', false),
    scale: c.get<number>('scale', 1),
    translate: c.get<number[]>('translate', [0, 0, 0]),
    rotate: c.get<number[]>('rotate', [0, 0, 0]),
    fps: c.get<number>('fps', 0),
    loop: c.get<boolean>('loop', false),
    animationFiles: c.get<string[]>('animationFiles', []),
  };
}

/**
 * What to compile, as the worker gets it: an open document's text (saved or not: what the user
 * sees); a path the worker streams from disk as the CLI does (Node, a local file: a large file is
 * neither held by the extension host nor copied to the worker); else the file's bytes, read through
 * vscode.workspace.fs and handed over to the worker. Throws when the file cannot be read.
 */
export async function compileSource(uri: vscode.Uri, files: ModelFiles): Promise<{ source: CompileSource; size: number }> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    // Named by its path: an OBJ (no header) is known by its extension.
    return { source: { text, name: uri.path }, size: text.length };
  }
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) throw new Error('a folder, not a file');
  const path = files.streamablePath(uri);
  if (path !== undefined) return { source: { path }, size: stat.size };
  const bytes = await vscode.workspace.fs.readFile(uri);
  return { source: { bytes, name: uri.path }, size: bytes.length };
}

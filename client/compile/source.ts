// What the compile command and the IQE preview share on the extension host: the compile settings of
// a file and the text to compile (an open document's, saved or not, or the file itself). The compile
// runs in the host's worker (Platform.compile); the worker side is core/host/compileRun.ts.
import * as vscode from 'vscode';
import { gatherCompanions } from '../../core/formats/companions';
import { detectFormat, HEAD_BYTES } from '../../core/formats/registry';
import { workspaceAccess } from '../fileAccess';
import type { ModelFiles } from '../platform';
import type { CompileRequest, CompileInput } from '../../core/host/compileProtocol';
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
    materialColors: c.get<boolean>('materialColors', true),
  };
}

/** What to compile, as the worker gets it, its size, and the files it names (when the worker cannot read them). */
export interface LoadedSource {
  source: CompileInput;
  size: number;
  resources?: CompileRequest['resources'];
}

/**
 * The files a source names (an OBJ's .mtl, a glTF's .bin and images), read beside it through
 * workspace.fs as the format registry's companion rules say (core/formats/companions.ts); unreadable
 * ones are left out (the compile then says what it misses). Its animation files are the caller's.
 */
async function namedFiles(uri: vscode.Uri, bytes: Uint8Array): Promise<CompileRequest['resources']> {
  const format = detectFormat(bytes.subarray(0, HEAD_BYTES), uri.path);
  return (await gatherCompanions(uri.path, bytes, format, workspaceAccess(uri), { animations: false })).resources;
}

/**
 * What to compile, as the worker gets it: an open document's text (saved or not: what the user
 * sees); a path the worker streams from disk as the CLI does (Node, a local file: a large file is
 * neither held by the extension host nor copied to the worker; the files it names are read there
 * too); else the file's bytes, read through vscode.workspace.fs and handed over to the worker. A
 * text or bytes source takes the files it names with it. Throws when the file cannot be read.
 */
export async function compileSource(uri: vscode.Uri, files: ModelFiles): Promise<LoadedSource> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    // Named by its path: an OBJ (no header) is known by its extension.
    return { source: { text, name: uri.path }, size: text.length, resources: await namedFiles(uri, new TextEncoder().encode(text)) };
  }
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) throw new Error('a folder, not a file');
  const path = files.streamablePath(uri);
  if (path !== undefined) return { source: { path }, size: stat.size };
  const bytes = await vscode.workspace.fs.readFile(uri);
  return { source: { bytes, name: uri.path }, size: bytes.length, resources: await namedFiles(uri, bytes) };
}

// What the VS Code panel sends for a model file: the host-neutral read (modelRead.ts) over the
// workspace's files, with a compile source's companion files found beside it.

import * as vscode from 'vscode';
import type { FileAccess } from '../../core/files';
import { engineFindings } from './engines';
import { companionFiles } from './files';
import { readPreviewModel, type PreviewRead } from '../../core/host/modelRead';

export type ModelRead =
  | Exclude<PreviewRead, { kind: 'source' }>
  /** A compile source (MD5, SMD, OBJ, glTF): the caller compiles it with its companions (sourceCompile.ts). */
  | (Extract<PreviewRead, { kind: 'source' }> & { companions: Awaited<ReturnType<typeof companionFiles>> });

/** A display path: the file system path for local files, else the URI. */
export function displayPath(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

/**
 * Reads the model at `source` (usually the panel's document) with everything beside `uri` that
 * the engines would load with it. `log` takes problems that do not stop the load.
 */
export async function loadPreviewModel(uri: vscode.Uri, source: vscode.Uri, fs: FileAccess, log: (message: string) => void): Promise<ModelRead> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(source);
  } catch (e) {
    return { kind: 'error', message: `${source.fsPath || source.path}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const read = await readPreviewModel(uri.path, bytes, { fs, engines: (b) => engineFindings(uri, b), display: displayPath(uri), log });
  if (read.kind !== 'source') return read;
  return { ...read, companions: await companionFiles(uri, bytes, read.format) };
}

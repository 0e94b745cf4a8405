// What the VS Code panel sends for a model file: the host-neutral read (modelRead.ts) over the
// workspace's files, with a compile source's companion files found beside it.

import * as vscode from 'vscode';
import type { FileAccess } from '../../core/files';
import type { TimelineEvent } from '../../core/previewTimeline';
import { engineFindings } from './engines';
import { validationOverrides } from './validation';
import { companionFiles } from './files';
import { workspaceAccess } from '../fileAccess';
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
 * the engines would load with it. `log` takes problems that do not stop the load; `mark` stamps
 * the steps on the preview's timeline.
 */
export async function loadPreviewModel(uri: vscode.Uri, source: vscode.Uri, fs: FileAccess, log: (message: string) => void, mark: (event: TimelineEvent) => void = () => undefined): Promise<ModelRead> {
  let bytes: Uint8Array;
  try {
    // A local file with node:fs in the Node host (client/fileAccess.ts); when it cannot be read,
    // vscode.workspace.fs says why.
    bytes = (await workspaceAccess(source).readBytes(source.path)) ?? (await vscode.workspace.fs.readFile(source));
  } catch (e) {
    return { kind: 'error', message: `${source.fsPath || source.path}: ${e instanceof Error ? e.message : String(e)}` };
  }
  mark('modelRead');
  const read = await readPreviewModel(uri.path, bytes, { fs, engines: (b) => engineFindings(uri, b), validationOverrides: validationOverrides(uri, log), display: displayPath(uri), log, mark });
  if (read.kind !== 'source') return read;
  const companions = await companionFiles(uri, bytes, read.format);
  mark('companionsFound');
  return { ...read, companions };
}

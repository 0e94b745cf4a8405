// What the host sends for a model file: its bytes, sniffed (IQE text in a file named otherwise is
// compiled like an .iqe; a compile source, MD5, SMD, OBJ or glTF, is compiled with its companion
// files by the caller), with its sidecar texts, the other parts of a Quake 3 player and the engine
// findings. I/O only; the webview parses.

import * as vscode from 'vscode';
import type { LoadMessage } from '../../core/protocol';
import { detectFormat, FORMATS, type FormatId, unusableMessage } from '../../core/formats/registry';
import { engineFindings } from './engines';
import { companionFiles, toArrayBuffer } from './files';
import { fileNameOf as basename } from '../../core/paths';
import type { FileAccess } from '../../core/files';
import { findSidecars } from '../../core/lookup/sidecars';
import { playerSet } from '../../core/lookup/player';
import type { TimelineEvent } from '../../core/previewTimeline';

export type ModelRead =
  | { kind: 'model'; message: Omit<LoadMessage, 'reload'>; engines: Awaited<ReturnType<typeof engineFindings>> | undefined }
  /** A compile source (MD5, SMD, OBJ, glTF): the caller compiles it with its companions (sourceCompile.ts). */
  | { kind: 'source'; format: FormatId; bytes: Uint8Array; companions: Awaited<ReturnType<typeof companionFiles>>; sidecars: LoadMessage['sidecars'] }
  /** IQE text (by its content): the caller compiles it. */
  | { kind: 'iqe' }
  | { kind: 'error'; message: string };

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
    bytes = await vscode.workspace.fs.readFile(source);
  } catch (e) {
    return { kind: 'error', message: `${source.fsPath || source.path}: ${e instanceof Error ? e.message : String(e)}` };
  }
  mark('modelRead');
  const format = detectFormat(bytes, uri.path);
  // IQE text in a file named otherwise (mislabeled): compiled as an .iqe would be.
  if (format === 'iqe') return { kind: 'iqe' };
  const role = FORMATS[format].role;
  // Neither a model nor a source: the registry's one message (the webview shows it with the byte).
  if (role === 'unsupported') return { kind: 'error', message: `${basename(uri.path)}: ${unusableMessage(format, 'model')}` };
  const md3 = format === 'md3';
  const sidecars = await findSidecars(fs, uri.path, md3);
  mark('sidecarsFound');
  if (role === 'source') {
    const companions = await companionFiles(uri, bytes, format);
    mark('companionsFound');
    return { kind: 'source', format, bytes, companions, sidecars };
  }
  const playerParts: LoadMessage['playerParts'] = [];
  if (md3) {
    for (const part of await playerSet(fs, uri.path)) {
      if (part.path === uri.path) continue;
      try {
        const partBytes = await vscode.workspace.fs.readFile(uri.with({ path: part.path }));
        const partSidecars = await findSidecars(fs, part.path, false);
        playerParts.push({ part: part.part, name: basename(part.path), bytes: toArrayBuffer(partBytes), skins: partSidecars.skins });
      } catch {
        // A part that cannot be read just leaves the set incomplete.
      }
    }
  }
  const engines = await engineFindings(uri, bytes).catch((e: unknown) => {
    log(`${uri.toString()}: engine checks failed: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });
  mark('enginesChecked');
  return {
    kind: 'model',
    engines,
    message: {
      type: 'load',
      fileName: basename(uri.path),
      path: displayPath(uri),
      bytes: toArrayBuffer(bytes),
      sidecars,
      playerParts,
      engines: engines?.report,
    },
  };
}

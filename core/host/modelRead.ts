// What a preview host sends for a model file, for any host (the VS Code panel: client/preview/modelLoad.ts; the
// `iqm-tools view` server): its bytes, sniffed (IQE text in a file named otherwise is compiled like
// an .iqe; a compile source, MD5, SMD, OBJ or glTF, is compiled by the caller), with its sidecar
// texts, the other parts of a Quake 3 player and the engine findings; the validator's report is
// made on demand (`validate`), once the model is posted: it reads every frame and triangle. I/O
// through the host's file access only; the webview parses. No vscode here.

import type { LoadMessage } from '../protocol';
import { detectFormat, FORMATS, type FormatId, unusableMessage } from '../formats/registry';
import type { EngineResult } from './engineCheck';
import { toArrayBuffer } from './transfer';
import { fileNameOf as basename } from '../paths';
import type { FileAccess } from '../files';
import { findSidecars } from '../lookup/sidecars';
import { playerSet } from '../lookup/player';
import type { TimelineEvent } from '../previewTimeline';
import { validateModel } from '../validate/index';
import type { SeverityOverrides, ValidationReport } from '../validate/report';

export type PreviewRead =
  | {
      kind: 'model';
      message: Omit<LoadMessage, 'reload'>;
      engines: EngineResult | undefined;
      /** Every problem of the IQM, MD3 or DPM file (core/validate), with the user's severities; null for the formats it does not read. */
      validate(): ValidationReport | null;
    }
  /** A compile source (MD5, SMD, OBJ, glTF): the caller compiles it with its companions (sourceCompile.ts). */
  | { kind: 'source'; format: FormatId; bytes: Uint8Array; sidecars: LoadMessage['sidecars'] }
  /** IQE text (by its content): the caller compiles it. */
  | { kind: 'iqe' }
  | { kind: 'error'; message: string };

export interface PreviewReadHost {
  fs: FileAccess;
  /** The engines' findings on the model's bytes (undefined: no engine set). */
  engines(bytes: Uint8Array): Promise<EngineResult | undefined>;
  /** Severities of the validator's codes as the user set them (`iqmTools.validation.severities`, `--config`). */
  validationOverrides?: SeverityOverrides;
  /** The model's path as shown (a file system path, a URI). */
  display: string;
  /** Problems that do not stop the load. */
  log(message: string): void;
  /** Stamps a step on the preview's first-load timeline (core/previewTimeline.ts). */
  mark?(event: TimelineEvent): void;
}

/** The model at `path` (its `bytes`) with everything beside it that the engines would load with it. */
export async function readPreviewModel(path: string, bytes: Uint8Array, host: PreviewReadHost): Promise<PreviewRead> {
  const format = detectFormat(bytes, path);
  // IQE text in a file named otherwise (mislabeled): compiled as an .iqe would be.
  if (format === 'iqe') return { kind: 'iqe' };
  const role = FORMATS[format].role;
  // Neither a model nor a source: the registry's one message (the webview shows it with the byte).
  if (role === 'unsupported') return { kind: 'error', message: `${basename(path)}: ${unusableMessage(format, 'model')}` };
  const md3 = format === 'md3';
  const sidecars = await findSidecars(host.fs, path, md3);
  host.mark?.('sidecarsFound');
  if (role === 'source') return { kind: 'source', format, bytes, sidecars };
  const playerParts: LoadMessage['playerParts'] = [];
  if (md3) {
    for (const part of await playerSet(host.fs, path)) {
      if (part.path === path) continue;
      // A part that cannot be read just leaves the set incomplete.
      const partBytes = await host.fs.readBytes(part.path);
      if (!partBytes) continue;
      const partSidecars = await findSidecars(host.fs, part.path, false);
      playerParts.push({ part: part.part, name: basename(part.path), bytes: toArrayBuffer(partBytes), skins: partSidecars.skins });
    }
  }
  const engines = await host.engines(bytes).catch((e: unknown) => {
    host.log(`${host.display}: engine checks failed: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });
  host.mark?.('enginesChecked');
  const overrides = host.validationOverrides;
  return {
    kind: 'model',
    engines,
    validate: () => validateModel(bytes, { overrides }),
    message: { type: 'load', fileName: basename(path), path: host.display, bytes: toArrayBuffer(bytes), sidecars, playerParts, engines: engines?.report },
  };
}

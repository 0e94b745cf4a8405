// The one way every face opens a file as a model: its name and bytes (or the injected file access
// to read them) in; a binary model read, a compile source with the files that go with it, or one
// clear error out. The caller compiles a source where it compiles (the CLI in its process, the
// extension host in its compile worker: sources.ts), so this file stays light for every bundle.

import { FormatError } from '../binary';
import type { FileAccess } from '../files';
import type { Model } from '../model/model';
import { type CompanionFiles, gatherCompanions } from './companions';
import { readModelFile } from './models';
import { detectFormat, FORMATS, type FormatId, unusableMessage } from './registry';
import { fileNameOf } from '../paths';

export type Opened =
  /** A binary model (IQM, MD3, DPM), read; `warnings`: the reader's and a misleading extension's. */
  | { kind: 'model'; format: FormatId; bytes: Uint8Array; model: Model; warnings: string[] }
  /** A compile source (IQE, MD5, SMD, OBJ, glTF) with the files that go with it: the caller compiles it. */
  | { kind: 'source'; format: FormatId; bytes: Uint8Array; companions: CompanionFiles }
  /** Why the file is no model: one line, and the byte it is about where there is one. */
  | { kind: 'failed'; message: string; offset: number | null };

/**
 * Opens the file at `path` (bytes read through `access` unless given). `companions: false` skips
 * reading a source's companion files (a caller that only needs the format).
 */
export async function openModel(path: string, access: FileAccess, given?: Uint8Array, options: { companions?: boolean } = {}): Promise<Opened> {
  const bytes = given ?? (await access.readBytes(path));
  if (!bytes) return { kind: 'failed', message: 'cannot read the file', offset: null };
  const format = detectFormat(bytes, path);
  const role = FORMATS[format].role;
  if (role === 'model') {
    try {
      const { model, warnings } = readModelFile(bytes, fileNameOf(path));
      return { kind: 'model', format, bytes, model, warnings };
    } catch (e) {
      if (e instanceof FormatError) return { kind: 'failed', message: e.message, offset: e.offset };
      throw e;
    }
  }
  if (role === 'source') {
    const companions = options.companions === false ? { animations: [], resources: [], lookedFor: [] } : await gatherCompanions(path, bytes, format, access);
    return { kind: 'source', format, bytes, companions };
  }
  return { kind: 'failed', message: unusableMessage(format, 'model') ?? FORMATS[format].label, offset: 0 };
}

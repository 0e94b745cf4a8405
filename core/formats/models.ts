// The registry's readers for binary models (IQM, MD3, DPM): bytes in, a Model out, by the format
// the bytes are (registry.ts), never the extension. Light enough for every bundle (the webview's
// too); compile sources are sources.ts's.

import { FormatError } from '../binary';
import { readDpm } from '../dpm/reader';
import { readIqm } from '../iqm/reader';
import { readMd3 } from '../md3/reader';
import type { Model } from '../model/model';
import { detectFormat, extensionWarning, type FormatId, unusableMessage } from './registry';

/** The binary model formats and their readers (a new binary model format adds its reader here). */
const MODEL_READERS: Readonly<Partial<Record<FormatId, (bytes: Uint8Array) => Model>>> = {
  iqm: readIqm,
  md3: readMd3,
  dpm: readDpm,
};

/**
 * Reads an IQM, MD3 or DPM file. Throws FormatError (with its byte offset) for a broken file, and
 * for anything else the registry's one message for it (a compile source is compiled first:
 * sources.ts; a Git LFS pointer, an MD2 model, ... are named).
 */
export function readModel(bytes: Uint8Array): Model {
  const id = detectFormat(bytes);
  const reader = MODEL_READERS[id];
  if (reader) return reader(bytes);
  if (id === 'iqe') throw new FormatError('IQE text is compiled before it is read as a model (the binary model reader takes IQM, MD3 and DPM)', 0);
  throw new FormatError(unusableMessage(id, 'model') ?? `${id} is compiled before it is read as a model`, 0);
}

/** readModel with the warnings a reader of `fileName` should show: the model's own, and an extension that names another format. */
export function readModelFile(bytes: Uint8Array, fileName: string): { model: Model; warnings: string[] } {
  const model = readModel(bytes);
  const w = extensionWarning(fileName, model.format);
  return { model, warnings: w ? [w, ...model.warnings] : [...model.warnings] };
}

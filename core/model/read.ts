// One entry point for the binary model formats: sniff the magic, run the matching reader.

import { FormatError } from '../binary';
import { readDpm } from '../dpm/reader';
import { readIqm } from '../iqm/reader';
import { readMd3 } from '../md3/reader';
import { sniff } from '../sniff';
import type { Model } from './model';

/**
 * Reads an IQM, MD3 or DPM file by its magic bytes (never its extension). Throws FormatError for
 * anything else, naming what the bytes are (a Git LFS pointer, an MD2 model, ...). IQE text is
 * parsed by core/iqe, not here.
 */
export function readModel(bytes: Uint8Array): Model {
  const s = sniff(bytes);
  switch (s.format) {
    case 'iqm':
      return readIqm(bytes);
    case 'md3':
      return readMd3(bytes);
    case 'dpm':
      return readDpm(bytes);
    case 'iqe':
      throw new FormatError('IQE text is read by the IQE parser, not the binary model reader', 0);
    default:
      if (bytes.byteLength === 0) throw new FormatError('empty file', 0);
      if (s.format === 'lfs') throw new FormatError("this is a Git LFS pointer, not a model; run 'git lfs pull'", 0);
      throw new FormatError(`${s.description}; expected IQM, MD3, DPM or IQE`, 0);
  }
}

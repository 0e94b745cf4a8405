// The "mesh from…" picker's offer, for any host (the VS Code panel: client/preview/partners.ts; `iqm-tools view`):
// the other IQM files of the opened model's folder, read through the host's folder access and
// matched by core/model/animationSet.ts. Large folders are read up to a limit, the likeliest
// partners first (the remembered one, then the names closest to the opened file's): the picker is
// a convenience, not a scan. No vscode here.

import { partnerChoice, partnerReadingOrder } from '../model/animationSet';
import type { Model } from '../model/model';
import { fileNameOf as basename } from '../paths';
import type { PartnerOffer } from '../protocol';
import { tryReadModel } from './engineCheck';
import { toArrayBuffer } from './transfer';

/** At most this many files of the folder are read, each at most this large (bytes). */
const MAX_FILES = 64;
const MAX_BYTES = 32 * 1024 * 1024;

/** The opened model's folder, by file name; a failed size or read leaves that file out. */
export interface PartnerFolder {
  /** The names of the folder's files (not folders), or null when it cannot be listed. */
  files(): Promise<readonly string[] | null>;
  size(name: string): Promise<number>;
  read(name: string): Promise<Uint8Array>;
}

/**
 * The offer for the opened IQM at `path` (its `bytes`), or undefined when there is nothing to pick
 * (not an IQM, not animation-only, or a mesh no animation file of the folder fits).
 */
export async function partnerOffer(path: string, bytes: Uint8Array, remembered: string | undefined, folder: PartnerFolder, log: (message: string) => void): Promise<PartnerOffer | undefined> {
  if (!/\.iqm$/i.test(path)) return undefined;
  const opened = tryReadModel(bytes);
  if (!opened || (opened.meshes.length > 0 && !opened.skeleton)) return undefined;
  const entries = await folder.files();
  if (!entries) return undefined;
  const self = basename(path);
  const names = partnerReadingOrder(
    entries.filter((n) => /\.iqm$/i.test(n) && n !== self),
    self,
    remembered,
  );
  if (names.length > MAX_FILES) log(`the "mesh from" picker reads ${MAX_FILES} of the ${names.length} IQM files of the folder (the remembered one and the names closest to this file's first)`);
  const read: { name: string; model: Model; bytes: Uint8Array }[] = [];
  for (const name of names.slice(0, MAX_FILES)) {
    try {
      if ((await folder.size(name)) > MAX_BYTES) continue;
      const b = await folder.read(name);
      const model = tryReadModel(b); // a broken file of the folder is no candidate
      if (model) read.push({ name, model, bytes: b });
    } catch {
      // Unreadable: not offered.
    }
  }
  const choice = partnerChoice(opened, read, remembered);
  if (!choice) return undefined;
  const chosen = choice.chosen ? read.find((r) => r.name === choice.chosen) : undefined;
  return { role: choice.role, matches: choice.matches, automatic: choice.automatic, chosen: chosen ? { name: chosen.name, bytes: toArrayBuffer(chosen.bytes) } : null };
}

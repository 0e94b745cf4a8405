// The "mesh from…" picker on the host: the other IQM files of the opened model's folder, read and
// matched by core/model/animationSet.ts; the user's choice is remembered per file in the
// workspace state. Large folders are read up to a limit, the likeliest partners first (the
// remembered one, then the names closest to the opened file's): the picker is a convenience, not a scan.

import * as vscode from 'vscode';
import { isAnimationOnly, isSkinnedMesh, partnerChoice, partnerReadingOrder } from '../../core/model/animationSet';
import type { Model } from '../../core/model/model';
import type { PartnerOffer } from '../../core/protocol';
import { tryReadModel } from './engineCheck';
import { toArrayBuffer } from './transfer';
import { fileNameOf as basename, folderOf as dirname } from '../../core/paths';

/** At most this many files of the folder are read, each at most this large (bytes). */
const MAX_FILES = 64;
const MAX_BYTES = 32 * 1024 * 1024;

function stateKey(uri: vscode.Uri): string {
  return `iqmTools.partner:${uri.toString()}`;
}

/** The user's last choice for this file ('' = none), or undefined. */
export function rememberedPartner(state: vscode.Memento, uri: vscode.Uri): string | undefined {
  const v = state.get<unknown>(stateKey(uri));
  return typeof v === 'string' ? v : undefined;
}

export async function rememberPartner(state: vscode.Memento, uri: vscode.Uri, name: string): Promise<void> {
  await state.update(stateKey(uri), name);
}

/**
 * Whether the other IQMs of the folder matter to the preview of the IQM `bytes`: it is
 * animation-only (it wants a mesh) or a skinned mesh (it may borrow clips). The preview then
 * reloads when one of them changes or appears.
 */
export function partnersMatter(uri: vscode.Uri, bytes: Uint8Array): boolean {
  if (!/\.iqm$/i.test(uri.path)) return false;
  const opened = tryReadModel(bytes);
  return opened !== undefined && (isAnimationOnly(opened) || isSkinnedMesh(opened));
}

/**
 * The picker's offer for the opened IQM `bytes`, or undefined when there is nothing to pick (not
 * an IQM, not animation-only, or a mesh no animation file of the folder fits).
 */
export async function findPartners(uri: vscode.Uri, bytes: Uint8Array, remembered: string | undefined, log: (message: string) => void): Promise<PartnerOffer | undefined> {
  if (!/\.iqm$/i.test(uri.path)) return undefined;
  const opened = tryReadModel(bytes);
  if (!opened || (opened.meshes.length > 0 && !opened.skeleton)) return undefined;
  const folder = uri.with({ path: dirname(uri.path) });
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch {
    return undefined;
  }
  const self = basename(uri.path);
  const names = partnerReadingOrder(
    entries.filter(([n, t]) => (t & vscode.FileType.File) !== 0 && /\.iqm$/i.test(n) && n !== self).map(([n]) => n),
    self,
    remembered,
  );
  if (names.length > MAX_FILES) log(`${uri.toString()}: the "mesh from" picker reads ${MAX_FILES} of the ${names.length} IQM files of the folder (the remembered one and the names closest to this file's first)`);
  const read: { name: string; model: Model; bytes: Uint8Array }[] = [];
  for (const name of names.slice(0, MAX_FILES)) {
    const other = uri.with({ path: `${folder.path}/${name}` });
    try {
      if ((await vscode.workspace.fs.stat(other)).size > MAX_BYTES) continue;
      const b = await vscode.workspace.fs.readFile(other);
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

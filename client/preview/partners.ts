// The "mesh from…" picker in VS Code: the offer (partnerOffer.ts) over the workspace's files; the
// user's choice is remembered per file in the workspace state.

import * as vscode from 'vscode';
import { isAnimationOnly, isSkinnedMesh } from '../../core/model/animationSet';
import type { PartnerOffer } from '../../core/protocol';
import { tryReadModel } from '../../core/host/engineCheck';
import { folderOf as dirname } from '../../core/paths';
import { partnerOffer } from '../../core/host/partnerOffer';

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
 * an IQM, not animation-only, or a mesh no animation file of the folder fits): partnerOffer.ts
 * over the workspace's files.
 */
export function findPartners(uri: vscode.Uri, bytes: Uint8Array, remembered: string | undefined, log: (message: string) => void): Promise<PartnerOffer | undefined> {
  const folder = uri.with({ path: dirname(uri.path) });
  const at = (name: string) => uri.with({ path: `${folder.path}/${name}` });
  return partnerOffer(uri.path, bytes, remembered, {
    files: async () => {
      try {
        return (await vscode.workspace.fs.readDirectory(folder)).filter(([, t]) => (t & vscode.FileType.File) !== 0).map(([n]) => n);
      } catch {
        return null;
      }
    },
    size: async (name) => (await vscode.workspace.fs.stat(at(name))).size,
    read: async (name) => vscode.workspace.fs.readFile(at(name)),
  }, (m) => log(`${uri.toString()}: ${m}`));
}

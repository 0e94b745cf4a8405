// The preview's files on the extension host: the companion files compiled with a source (read
// through client/fileAccess.ts, as core's FileAccess). What the webview gets of them: transfer.ts.

import * as vscode from 'vscode';
import { gatherCompanions } from '../../core/formats/companions';
import type { FormatId } from '../../core/formats/registry';
import { workspaceAccess } from '../fileAccess';
import { folderOf as dirname } from '../../core/paths';

export interface PreviewCompanions {
  /** Animation files merged after the source: their names relative to its folder, and bytes. */
  animations: { name: string; bytes: Uint8Array }[];
  resources: { uri: string; bytes: Uint8Array }[];
  /** Every companion file looked for, read or not: a change to one (or its creation) changes the compile. */
  lookedFor: vscode.Uri[];
}

/**
 * The files compiled with a source, as the format registry's companion rules name them
 * (core/formats/companions.ts): the animation files beside an .md5mesh or a mesh SMD (merged after
 * it: its clips), the .mtl files an OBJ names and the .bin and images a glTF names (as resources,
 * by the name the source gives). Unreadable ones are left out: the compile says what it misses.
 */
export async function companionFiles(uri: vscode.Uri, bytes: Uint8Array, format: FormatId): Promise<PreviewCompanions> {
  const found = await gatherCompanions(uri.path, bytes, format, workspaceAccess(uri));
  const folder = dirname(uri.path);
  return {
    animations: found.animations.map((a) => ({ name: a.path.slice(folder.length + 1), bytes: a.bytes })),
    resources: found.resources,
    lookedFor: found.lookedFor.map((path) => uri.with({ path })),
  };
}

// The preview host's names for the engine lookup (core/lookup), which it asks over its file access
// (files.ts workspaceFs: vscode.workspace.fs and the editors' texts). Nothing is decided here.

import type { FileAccess } from '../../core/files';
import { playerSet as corePlayerSet } from '../../core/lookup/player';
import { findSidecars as coreFindSidecars } from '../../core/lookup/sidecars';
import type { Sidecars } from '../../core/protocol';

export { fileNameOf as basename, folderOf as dirname } from '../../core/paths';

/** The preview's file access: core's (core/files.ts). */
export type LookupFs = FileAccess;

/** The sidecar texts next to a model (core/lookup/sidecars.ts). `md3` reads animation.cfg too. */
export function findSidecars(modelPath: string, fs: LookupFs, md3: boolean): Promise<Sidecars> {
  return coreFindSidecars(fs, modelPath, md3);
}

/** For a Quake 3 player part, the three parts' paths when all three sit together, else [] (core/lookup/player.ts). */
export function playerSet(modelPath: string, fs: LookupFs): Promise<{ part: 'head' | 'upper' | 'lower'; path: string }[]> {
  return corePlayerSet(fs, modelPath);
}

// The sidecar files engines load beside a model: `<model file>.framegroups` (DarkPlaces, any
// format), animation.cfg (Quake 3, MD3) and the skin files in the engines' order (player.ts).

import type { FileAccess } from '../files';
import { fileNameOf, folderOf, joinPath } from '../paths';
import { readText, type NamedText } from './folders';
import { skinCandidates } from './player';

/** A sidecar text file found next to the model. */
export interface SidecarText {
  /** File name (no folder), e.g. `grunt.dpm.framegroups`, `lower.md3_0.skin`. */
  name: string;
  text: string;
}

export interface Sidecars {
  /** `<model file name>.framegroups` (DarkPlaces), replaces the model's clips. */
  framegroups: SidecarText | null;
  /** `animation.cfg` in the model's folder (Quake 3 players; used for MD3). */
  animationCfg: SidecarText | null;
  /** Skin files in the order engines try them (`model.md3_0.skin`, `<part>_default.skin`, ...). */
  skins: SidecarText[];
}

/** The sidecar texts beside the model at `modelPath`; `md3`: animation.cfg is read too (only MD3 plays it). */
export async function findSidecars(files: FileAccess, modelPath: string, md3: boolean): Promise<Sidecars> {
  const dir = folderOf(modelPath);
  const name = fileNameOf(modelPath);
  const read = async (file: string): Promise<NamedText | null> => {
    const p = joinPath(dir, file);
    // An editor's unsaved text counts; else a regular file only (a folder named so is none).
    if (files.editorText?.(p) === undefined && !(await files.isFile(p))) return null;
    const text = await readText(files, p);
    return text === null ? null : { name: file, text };
  };
  const skins: NamedText[] = [];
  for (const s of skinCandidates(name)) {
    const t = await read(s);
    if (t) skins.push(t);
  }
  return { framegroups: await read(`${name}.framegroups`), animationCfg: md3 ? await read('animation.cfg') : null, skins };
}

// The sidecar files engines load beside a model: `<model file>.framegroups` (DarkPlaces, any
// format), animation.cfg (Quake 3, MD3) and the skin files in the engines' order (player.ts).

import type { FileAccess } from '../files';
import type { Sidecars } from '../protocol';
import { fileNameOf, folderOf, joinPath } from '../paths';
import { readText, type NamedText } from './folders';
import { skinCandidates } from './player';

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

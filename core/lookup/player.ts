// Quake 3 player models (FORMAT-PITFALLS §8.3-8.5) and the skin files engines pair with a model:
// the part pattern, the skin file names, and the player set (three parts, animation.cfg, skins)
// read once, over the injected file access. The preview, the engine checks (`lint`, the preview's
// findings) and the sidecar checks ask here.

import type { FileAccess } from '../files';
import type { Model } from '../model/model';
import { readModel } from '../formats/models';
import { fileNameOf, folderOf, joinPath, stemOf } from '../paths';
import { folderNames, readText, type NamedText } from './folders';

export type PlayerPart = 'lower' | 'upper' | 'head';
export const PLAYER_PARTS: readonly PlayerPart[] = ['lower', 'upper', 'head'];

/** The Quake 3 player part a file name stands for (`lower.md3`, any case), or null. */
export function playerPart(fileName: string): PlayerPart | null {
  const m = /^(head|upper|lower)\.md3$/i.exec(fileName);
  return m ? (m[1].toLowerCase() as PlayerPart) : null;
}

/**
 * The skin files engines try for a model file, in this order: DarkPlaces `<model file>_0.skin`
 * (`lower.md3_0.skin`), Quake 3 `<part>_default.skin` (`lower_default.skin`), vkQuake / ironwail
 * `<model>_0.skin` (FORMAT-PITFALLS §8.5).
 */
export function skinCandidates(fileName: string): string[] {
  const stem = stemOf(fileName);
  return [`${fileName}_0.skin`, `${stem}_default.skin`, `${stem}_0.skin`];
}

/** What a skin file's name says: the model it belongs to and the skin's name, by an engine's naming. */
export interface SkinName {
  /** 'darkplaces': `<model file>_<N>.skin` (`model` keeps its extension); 'q3': `<model>_<skin>.skin` (`model` has none). */
  naming: 'darkplaces' | 'q3';
  model: string;
  skin: string;
}

const MODEL_EXTENSION = /\.(md3|iqm|dpm|mdr|vvm|exm)$/i;

/**
 * Every way engines read a skin file's name, from the last `_` back (`lower.md3_0.skin` → model
 * `lower.md3` skin `0`, DarkPlaces; `lower_default.skin` → `lower`, `default`, Quake 3;
 * `my_gun_red.skin` → `my_gun` then `my`). [] when the name is no `.skin` or has no `_`.
 */
export function skinNames(fileName: string): SkinName[] {
  if (!/\.skin$/i.test(fileName)) return [];
  const stem = fileName.slice(0, -'.skin'.length);
  const out: SkinName[] = [];
  for (let i = stem.lastIndexOf('_'); i > 0; i = stem.lastIndexOf('_', i - 1)) {
    const model = stem.slice(0, i);
    out.push({ naming: MODEL_EXTENSION.test(model) ? 'darkplaces' : 'q3', model, skin: stem.slice(i + 1) });
  }
  return out;
}

/** A player set as found in a folder: the parts' paths, animation.cfg and every .skin file there. */
export interface PlayerSet {
  folder: string;
  /** Each part's path, undefined where the folder has no such file. */
  parts: Record<PlayerPart, string | undefined>;
  animationCfg: NamedText | null;
  /** Every .skin file of the folder, by name. */
  skins: NamedText[];
}

/** Each part's path in a folder's names (matched in any case, as pk3 lookups are), undefined where there is none. */
async function locateParts(files: FileAccess, folder: string, names: Map<string, string>): Promise<PlayerSet['parts']> {
  const parts = {} as PlayerSet['parts'];
  for (const part of PLAYER_PARTS) {
    const name = names.get(`${part}.md3`);
    parts[part] = name && (await files.isFile(joinPath(folder, name))) ? joinPath(folder, name) : undefined;
  }
  return parts;
}

/**
 * For a Quake 3 player part, the three parts' paths (lower, upper, head) when all three sit
 * together, else [] (the preview assembles the player only then).
 */
export async function playerSet(files: FileAccess, modelPath: string): Promise<{ part: PlayerPart; path: string }[]> {
  if (!playerPart(fileNameOf(modelPath))) return [];
  const folder = folderOf(modelPath);
  const names = await folderNames(files, folder);
  if (!names) return [];
  const parts = await locateParts(files, folder, names);
  const found = PLAYER_PARTS.map((part) => ({ part, path: parts[part] }));
  return found.every((p) => p.path !== undefined) ? (found as { part: PlayerPart; path: string }[]) : [];
}

/**
 * The player set in `folder` (names matched in any case), or null when the folder cannot be
 * listed. Reads animation.cfg and the skins; the parts are only located.
 */
export async function readPlayerSet(files: FileAccess, folder: string): Promise<PlayerSet | null> {
  const names = await folderNames(files, folder);
  if (!names) return null;
  const parts = await locateParts(files, folder, names);
  const read = async (name: string): Promise<NamedText | null> => {
    const text = await readText(files, joinPath(folder, name));
    return text === null ? null : { name, text };
  };
  const cfgName = names.get('animation.cfg');
  const skins: NamedText[] = [];
  for (const name of [...names.values()].filter((n) => /\.skin$/i.test(n)).sort()) {
    const skin = await read(name);
    if (skin) skins.push(skin);
  }
  return { folder, parts, animationCfg: cfgName ? await read(cfgName) : null, skins };
}

/** What the player checks (core/engines/player.ts) take: the parts read, animation.cfg, the skins. */
export interface PlayerInput {
  /** The three parts; undefined when the file is missing or unreadable. */
  parts: Record<PlayerPart, Model | undefined>;
  /** animation.cfg's text, undefined when there is none. */
  animationCfg?: string;
  /** Every .skin file of the folder: its file name and text. */
  skins: readonly { file: string; text: string }[];
}

/** The player set of `folder` with its parts read as models (an unreadable part is undefined), or null. */
export async function readPlayerInput(files: FileAccess, folder: string): Promise<PlayerInput | null> {
  const set = await readPlayerSet(files, folder);
  if (!set) return null;
  const parts = {} as PlayerInput['parts'];
  for (const part of PLAYER_PARTS) parts[part] = await readPart(files, set.parts[part]);
  return { parts, animationCfg: set.animationCfg?.text, skins: set.skins.map((s) => ({ file: s.name, text: s.text })) };
}

async function readPart(files: FileAccess, path: string | undefined): Promise<Model | undefined> {
  if (path === undefined) return undefined;
  const bytes = await files.readBytes(path).catch(() => null);
  if (!bytes) return undefined;
  try {
    return readModel(bytes);
  } catch {
    return undefined; // unreadable: the checks report the part as missing or unreadable
  }
}

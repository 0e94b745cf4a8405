// Which kind of sidecar a file is, which model files an engine would pair it with, and where an
// engine looks for the textures it names. Pure: paths are POSIX-style strings (a URI's path); the
// caller checks which candidates exist.

import { textureCandidates } from '../engines/textures';

export type SidecarKind = 'framegroups' | 'animcfg' | 'skin' | 'shader';

/** The language ids the extension gives these files (package.json). */
export const SIDECAR_LANGUAGES: Record<SidecarKind, string> = {
  framegroups: 'iqm-framegroups',
  animcfg: 'q3-animation-cfg',
  skin: 'q3-skin',
  shader: 'q3-shader',
};

/** The kind of a file by its name (case-insensitive), or undefined. */
export function sidecarKind(fileName: string): SidecarKind | undefined {
  const name = baseName(fileName).toLowerCase();
  if (name.endsWith('.framegroups')) return 'framegroups';
  if (name === 'animation.cfg') return 'animcfg';
  if (name.endsWith('.skin')) return 'skin';
  if (name.endsWith('.shader')) return 'shader';
  return undefined;
}

/** The kind for a language id, or undefined. */
export function sidecarKindOfLanguage(languageId: string): SidecarKind | undefined {
  return (Object.keys(SIDECAR_LANGUAGES) as SidecarKind[]).find((k) => SIDECAR_LANGUAGES[k] === languageId);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** `dir` + '/' + `rel`, with `.` and `..` folded (rel uses / or \). */
export function joinPaths(dir: string, rel: string): string {
  const out: string[] = [];
  for (const p of `${dir}/${rel.replace(/\\/g, '/')}`.split('/')) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return '/' + out.join('/');
}

const MODEL_EXTENSIONS = ['md3', 'iqm', 'dpm', 'mdr'];
const MODEL_NAME = /\.(md3|iqm|dpm|mdr|vvm|exm)$/i;

/** One model the sidecar belongs to; `candidates` are file names in the sidecar's folder, in the order tried. */
export interface CompanionModel {
  /** For animation.cfg: which part of the player ('lower', 'upper', 'head'); otherwise undefined. */
  part?: 'lower' | 'upper' | 'head';
  candidates: string[];
}

/**
 * The models an engine pairs the file with, as it finds them:
 * - `grunt.dpm.framegroups` → grunt.dpm (DarkPlaces loads `<model file name>.framegroups`);
 * - `animation.cfg` → lower.md3, upper.md3 and head.md3 of the folder (Quake 3 players);
 * - `lower.md3_0.skin` → lower.md3 (DarkPlaces `<model>_<N>.skin`); `lower_default.skin` →
 *   lower.md3 (Quake 3 `<part>_<skin>.skin`); `foo_default.skin` → foo.md3, foo.iqm, ... (the
 *   name before each `_`, from the last one back);
 * - a shader script belongs to no model.
 */
export function companionModels(kind: SidecarKind, fileName: string): CompanionModel[] {
  const name = baseName(fileName);
  switch (kind) {
    case 'framegroups': {
      const model = name.slice(0, name.length - '.framegroups'.length);
      return model ? [{ candidates: [model] }] : [];
    }
    case 'animcfg':
      return (['lower', 'upper', 'head'] as const).map((part) => ({ part, candidates: [`${part}.md3`] }));
    case 'skin': {
      const stem = name.slice(0, name.length - '.skin'.length);
      const candidates: string[] = [];
      const add = (c: string) => {
        if (c && !candidates.includes(c)) candidates.push(c);
      };
      for (let i = stem.lastIndexOf('_'); i > 0; i = stem.lastIndexOf('_', i - 1)) {
        const model = stem.slice(0, i);
        if (MODEL_NAME.test(model)) add(model);
        else for (const ext of MODEL_EXTENSIONS) add(`${model}.${ext}`);
      }
      return candidates.length ? [{ candidates }] : [];
    }
    case 'shader':
      return [];
  }
}

/**
 * `isFile` answered through folder listings first, for a run of lookups of many candidate paths in
 * few folders (textures tried with each extension under each folder above a file): each folder is
 * listed once, and only after its parent's listing holds its name (a texture path's subfolders are
 * looked for under every folder above the file, and most are nowhere); only a name a listing holds,
 * in any case, is asked by path (the file system decides case and file type, as a lookup by path
 * alone would). A listing that fails is no folder.
 */
export function listedIsFile(listFolder: (path: string) => Promise<readonly string[] | null>, isFile: (path: string) => Promise<boolean>): (path: string) => Promise<boolean> {
  const listings = new Map<string, Promise<Set<string> | null>>();
  const list = async (folder: string, above: Promise<Set<string> | null> | undefined): Promise<Set<string> | null> => {
    if (above) {
      const names = await above;
      if (names === null || !names.has(baseName(folder).toLowerCase())) return null;
    }
    const found = await listFolder(folder).catch(() => null);
    return found ? new Set(found.map((n) => n.toLowerCase())) : null;
  };
  const namesIn = (folder: string): Promise<Set<string> | null> => {
    // The folders above it not asked yet, at most MAX_LISTED_DEPTH of them (a fuzzed texture path
    // of 5,000 folders overflowed the stack when each asked its parent in turn): each is listed
    // after its parent, the topmost of them without one.
    const chain: string[] = [];
    for (let f = folder; !listings.has(f) && chain.length < MAX_LISTED_DEPTH; f = dirName(f)) {
      chain.push(f);
      if (dirName(f) === f) break;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const f = chain[i];
      const parent = dirName(f);
      listings.set(f, list(f, parent === f ? undefined : listings.get(parent)));
    }
    return listings.get(folder)!;
  };
  return async (path) => {
    const listed = await namesIn(dirName(path));
    return listed !== null && listed.has(baseName(path).toLowerCase()) && isFile(path);
  };
}

/** How many folders up listedIsFile follows a path's parents before listing without them. */
const MAX_LISTED_DEPTH = 64;

/** Folders a game-relative path is tried against: the file's folder and each one above it (up to `levels` of them). */
export function searchFolders(dir: string, levels = 8): string[] {
  const out: string[] = [];
  for (let d = dir, i = 0; i <= levels; i++) {
    out.push(d);
    if (d === '/') break;
    d = dirName(d);
  }
  return out;
}

/** Where an engine would look for one texture path, in order, and the lenient fallback. */
export interface TexturePlan {
  /** Each candidate name (textureCandidates) under each search folder: the places the engine looks, whatever the game's root is. */
  engine: string[];
  /** The base name with each extension beside the file: how the preview still finds it, though the engine would not. */
  beside: string[];
}

/**
 * The game's root is not known: the path is relative to it, and the file usually sits a few folders
 * below it (models/players/x/). So every folder from the file's up is tried as the root.
 */
export function texturePlan(path: string, fileDir: string, extensions: readonly string[]): TexturePlan {
  const names = textureCandidates(path, extensions);
  const engine: string[] = [];
  for (const folder of searchFolders(fileDir)) for (const n of names) engine.push(joinPaths(folder, n));
  const base = baseName(path.replace(/\\/g, '/'));
  const beside = textureCandidates(base, extensions)
    .map((n) => joinPaths(fileDir, n))
    .filter((p) => !engine.includes(p));
  return { engine, beside };
}

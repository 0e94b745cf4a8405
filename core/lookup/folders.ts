// The folders an engine's name is looked for in, and file access through folder listings, over the
// injected FileAccess (core/files.ts). Every lookup of core/lookup goes through here, so the
// preview, the sidecar checks, `check` and `lint` ask the file system the same questions.

import type { FileAccess } from '../files';
import { fileNameOf, folderOf } from '../paths';

/**
 * How many folders above the model's a game-relative path is tried from. The game's root is not
 * known (the path is relative to it, and the model sits a few folders below it: models/players/x/),
 * so the model's folder and each above it is tried as the root, up to this many (FORMAT-PITFALLS §8.5).
 */
export const SEARCH_LEVELS = 8;

/** The model's folder and each one above it, nearest first (up to `levels` of them above). */
export function searchFolders(dir: string, levels = SEARCH_LEVELS): string[] {
  const out: string[] = [];
  for (let d = dir, i = 0; i <= levels; i++) {
    out.push(d);
    if (d === '/') break;
    d = folderOf(d);
  }
  return out;
}

/** How many folders up a listing follows a path's parents before listing without them. */
const MAX_LISTED_DEPTH = 64;

/**
 * Folder listings for a run of lookups of many candidate paths in few folders (textures tried with
 * each extension under each folder above a file): each folder is listed once, and only after its
 * parent's listing holds its name (a texture path's subfolders are looked for under every folder
 * above the file, and most are nowhere). A listing that fails is no folder.
 */
export class FolderListings {
  /** Folder → its names, lower-cased → as written; null: not a folder. */
  private readonly listings = new Map<string, Promise<Map<string, string> | null>>();

  constructor(private readonly files: Pick<FileAccess, 'listFolder' | 'isFile'>) {}

  /** The names in `folder` (lower-cased → as written), or null when it is none. */
  names(folder: string): Promise<Map<string, string> | null> {
    // The folders above it not asked yet, at most MAX_LISTED_DEPTH of them (a fuzzed texture path
    // of 5,000 folders overflowed the stack when each asked its parent in turn): each is listed
    // after its parent, the topmost of them without one.
    const chain: string[] = [];
    for (let f = folder; !this.listings.has(f) && chain.length < MAX_LISTED_DEPTH; f = folderOf(f)) {
      chain.push(f);
      if (folderOf(f) === f) break;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const f = chain[i];
      const parent = folderOf(f);
      this.listings.set(f, this.list(f, parent === f ? undefined : this.listings.get(parent)));
    }
    return this.listings.get(folder)!;
  }

  /**
   * Lists `folder` and the folders above it (at most `levels`) at once, none waiting for its
   * parent's listing: for folders known to exist (those holding the model), whose listings every
   * lookup needs. Listed one after another, they were the texture lookup's largest cost over a
   * slow file system (workspace.fs in code-server: each listing is a round trip).
   */
  listAtOnce(folder: string, levels = SEARCH_LEVELS): void {
    for (const f of searchFolders(folder, levels)) if (!this.listings.has(f)) this.listings.set(f, this.list(f, undefined));
  }

  /**
   * True when a regular file is at `path`: only a name its folder's listing holds, in any case, is
   * asked by path (the file system decides case and file type, as a lookup by path alone would).
   */
  async isFile(path: string): Promise<boolean> {
    const listed = await this.names(folderOf(path));
    return listed !== null && listed.has(fileNameOf(path).toLowerCase()) && this.files.isFile(path);
  }

  private async list(folder: string, above: Promise<Map<string, string> | null> | undefined): Promise<Map<string, string> | null> {
    if (above) {
      const names = await above;
      if (names === null || !names.has(fileNameOf(folder).toLowerCase())) return null;
    }
    const found = await this.files.listFolder(folder).catch(() => null);
    return found ? new Map(found.map((n) => [n.toLowerCase(), n])) : null;
  }
}

/** `isFile` through folder listings (FolderListings), for a run of lookups. */
export function listedIsFile(files: Pick<FileAccess, 'listFolder' | 'isFile'>): (path: string) => Promise<boolean> {
  const listings = new FolderListings(files);
  return (path) => listings.isFile(path);
}

/** A folder's names by their lower-cased form (engines' pk3 lookups ignore case), or null. */
export async function folderNames(files: Pick<FileAccess, 'listFolder'>, folder: string): Promise<Map<string, string> | null> {
  const names = await files.listFolder(folder).catch(() => null);
  return names ? new Map(names.map((n) => [n.toLowerCase(), n])) : null;
}

/** A sidecar text as found (its file name, no folder). */
export interface NamedText {
  name: string;
  text: string;
}

/**
 * A sidecar's text: the editor's (unsaved edits: the preview and checks follow a file as it is
 * typed), else the file's bytes as Latin-1 (these formats are ASCII; no byte is lost); null when
 * there is no such file.
 */
export async function readText(files: FileAccess, path: string): Promise<string | null> {
  const open = files.editorText?.(path);
  if (open !== undefined) return open;
  const bytes = await files.readBytes(path).catch(() => null);
  return bytes ? latin1(bytes) : null;
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 4096)));
  return s;
}

// The files that go with a compile source, as the registry's companion rules name them
// (registry.ts): an .md5mesh with the .md5anim files beside it, a mesh SMD with the animation SMDs
// of its folder (those without triangles), each only when its skeleton is the mesh's (the same
// joint names in the same order: another model's animations in the same folder are left out), in
// name order; an OBJ with the .mtl files its mtllib lines name; a glTF with the .bin buffers and
// images it names by relative URI. One reading for every face, over the injected file access.

import type { FileAccess } from '../files';
import { readContainer } from '../gltf/container';
import { fileNameOf, folderOf, joinPath } from '../paths';
import { decodeUtf8Text, encodeUtf8 } from '../utf8';
import { detectFormat, FORMATS, type FormatId } from './registry';

// Leading and trailing blanks of a line are [^\S\r\n]* (spaces and tabs): ^\s* ran on across blank
// lines, from each of them (quadratic: a source of 40,000 blank lines took 1.5 s to look at).

/** The joint names of an MD5 (joints or hierarchy block) or SMD (nodes) text, in order; null for another format. */
export function skeletonNames(text: string, format: FormatId): string[] | null {
  if (format === 'md5mesh' || format === 'md5anim') {
    const block = /^[^\S\r\n]*(joints|hierarchy)\s*\{([^}]*)\}/m.exec(text);
    if (!block) return [];
    return [...block[2].matchAll(/^[^\S\r\n]*"([^"]*)"/gm)].map((m) => m[1]);
  }
  if (format === 'smd') {
    const block = /^[^\S\r\n]*nodes[^\S\r\n]*$([\s\S]*?)^[^\S\r\n]*end[^\S\r\n]*$/m.exec(text);
    if (!block) return [];
    return [...block[1].matchAll(/^[^\S\r\n]*\d+\s+"([^"]*)"/gm)].map((m) => m[1]);
  }
  return null;
}

/** Whether a source text is animations only: an .md5anim, or an SMD without triangles. */
export function isAnimationSource(text: string, format: FormatId): boolean {
  return FORMATS[format].animationOnly === true || (format === 'smd' && !/^[^\S\r\n]*triangles[^\S\r\n]*$/m.test(text));
}

/** The format of a text (its head), named `name`. */
function formatOfText(text: string, name: string): FormatId {
  return detectFormat(encodeUtf8(text.slice(0, 8192)), name);
}

/**
 * Of `candidates` (files beside `main` with the extension of its sibling rule), the animation files
 * to merge after it, in name order. `main` itself is never one.
 */
export function companionAnimations(main: { name: string; text: string }, candidates: readonly { name: string; text: string }[]): string[] {
  const format = formatOfText(main.text, main.name);
  if (isAnimationSource(main.text, format)) return [];
  const skeleton = skeletonNames(main.text, format);
  if (!skeleton || skeleton.length === 0) return [];
  const key = skeleton.join('\u0000');
  return candidates
    .filter((c) => c.name !== main.name)
    .filter((c) => {
      const f = formatOfText(c.text, c.name);
      return (f === 'md5anim' || f === 'smd') && isAnimationSource(c.text, f) && skeletonNames(c.text, f)?.join('\u0000') === key;
    })
    .map((c) => c.name)
    .sort();
}

/** The .mtl files an OBJ text names (mtllib), as written. */
export function mtlLibraries(text: string): string[] {
  return [...text.matchAll(/^[^\S\r\n]*mtllib[^\S\r\n]+(.+?)[^\S\r\n]*$/gm)].flatMap((m) => m[1].split(/\s+/));
}

/**
 * The files a glTF names by a relative URI (its external buffers and images), as written (`data:`
 * URIs are inside the file; a scheme or an absolute path is not followed). [] when its JSON
 * cannot be read (the compile then says why).
 */
export function gltfResourceUris(bytes: Uint8Array): string[] {
  let json: Record<string, unknown>;
  try {
    json = readContainer(bytes).json;
  } catch {
    return [];
  }
  const uris = new Set<string>();
  for (const list of [json.buffers, json.images]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const u = (item as { uri?: unknown } | null)?.uri;
      if (typeof u === 'string' && !/^data:/i.test(u) && relativeUri(u) !== null) uris.add(u);
    }
  }
  return [...uris];
}

/** A URI a glTF gives, as a path relative to it, or null when it is not relative (or not decodable). */
export function relativeUri(uri: string): string | null {
  let relative: string;
  try {
    relative = decodeURIComponent(uri).replace(/\\/g, '/');
  } catch {
    return null;
  }
  return /^[a-z][a-z0-9+.-]*:/i.test(relative) || relative.startsWith('/') ? null : relative;
}

/** At most this many files of the folder are looked at for sibling animations. */
const MAX_SIBLINGS = 200;

export interface CompanionFiles {
  /** Animation files merged after the source (their clips), in name order: their paths and bytes. */
  animations: { path: string; bytes: Uint8Array }[];
  /** Files the source names (an OBJ's .mtl, a glTF's .bin and images), by the name it gives. */
  resources: { uri: string; bytes: Uint8Array }[];
  /** Every path looked for, read or not: a change to one (or its creation) changes the compile. */
  lookedFor: string[];
}

/** A file's text as the user sees it: an editor's unsaved text, else its bytes as UTF-8 (null when unreadable). */
async function textOf(access: FileAccess, path: string): Promise<string | null> {
  const open = access.editorText?.(path);
  if (open !== undefined) return open;
  const bytes = await access.readBytes(path);
  return bytes ? decodeUtf8Text(bytes) : null;
}

/**
 * The companion files of the source at `path` (its bytes, of format `format`), read through
 * `access`. Unreadable ones are left out: the compile says what it misses (a .mtl: materials keep
 * their names; a glTF's buffer: an error naming it). `animations: false`: only the files it names
 * (a caller that chooses the animation files itself).
 */
export async function gatherCompanions(path: string, bytes: Uint8Array, format: FormatId, access: FileAccess, options: { animations?: boolean } = {}): Promise<CompanionFiles> {
  const out: CompanionFiles = { animations: [], resources: [], lookedFor: [] };
  const folder = folderOf(path);
  const named = async (names: readonly string[]) => {
    for (const name of names) {
      const relative = relativeUri(name) ?? name.replace(/\\/g, '/');
      const file = joinPath(folder, relative);
      out.lookedFor.push(file);
      const read = await access.readBytes(file);
      if (read) out.resources.push({ uri: name, bytes: read });
    }
  };
  for (const rule of FORMATS[format].companions) {
    switch (rule) {
      case 'mtl':
        await named(mtlLibraries(decodeUtf8Text(bytes)));
        break;
      case 'gltf-resources':
        await named(gltfResourceUris(bytes));
        break;
      case 'md5anim-siblings':
      case 'smd-siblings': {
        if (options.animations === false) break;
        const extensions = FORMATS[rule === 'md5anim-siblings' ? 'md5anim' : 'smd'].extensions;
        const listed = await access.listFolder(folder);
        if (!listed) break;
        const names = listed.filter((n) => extensions.some((e) => n.toLowerCase().endsWith(e))).slice(0, MAX_SIBLINGS);
        const candidates: { name: string; text: string }[] = [];
        for (const n of names) {
          const text = await textOf(access, joinPath(folder, n));
          if (text !== null) candidates.push({ name: joinPath(folder, n), text });
        }
        const main = access.editorText?.(path) ?? decodeUtf8Text(bytes);
        for (const chosen of companionAnimations({ name: path, text: main }, candidates)) {
          out.lookedFor.push(chosen);
          const open = access.editorText?.(chosen);
          const read = open !== undefined ? encodeUtf8(open) : await access.readBytes(chosen);
          if (read) out.animations.push({ path: chosen, bytes: read });
        }
        break;
      }
    }
  }
  return out;
}

/** The file names of companion animations, for notes ("with the animation files beside it: a, b"). */
export function animationNames(files: CompanionFiles): string[] {
  return files.animations.map((a) => fileNameOf(a.path));
}

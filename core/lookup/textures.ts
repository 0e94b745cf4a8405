// How an engine finds the image for a texture name beside a model (FORMAT-PITFALLS §8.5): the name
// as a Quake 3 shader from the shader scripts first, then as an image path relative to the game's
// root with the engine profile's image extensions (ioquake3 R_LoadImage), and, where the engine
// would not find it, the base name beside the model (so the preview still shows it and the checks
// say why the engine will not). The one texture lookup: the preview, the sidecar checks (language
// server and `check`) and `lint` all ask it, so they give the same answers.

import type { FileAccess } from '../files';
import { fileNameOf, joinPath } from '../paths';
import { parseShaders, type ShaderBlend } from '../sidecar/shader';
import { FolderListings, readText, searchFolders } from './folders';
import { quotedName } from '../names';

/**
 * The longest texture path looked up: Linux's PATH_MAX, 4,096 bytes, the most the common systems
 * open (macOS: 1,024; Windows: 260, or 32,767 with long paths, which no game asks for). A skin of
 * one path of 750,000 folders took 2.3 s and 335 MB to check, for a text of 1.5 MB.
 */
export const MAX_TEXTURE_PATH = 4096;

/** The folders of a texture path too long to look up (over MAX_TEXTURE_PATH characters), or undefined when it is looked up. */
export function texturePathTooLong(name: string): { folders: number } | undefined {
  if (name.length <= MAX_TEXTURE_PATH) return undefined;
  let folders = 0;
  for (let i = 0; i < name.length; i++) if (name[i] === '/' || name[i] === '\\') folders++;
  return { folders };
}

/**
 * The candidate file names for one texture name, in the engine's order (ioquake3 R_LoadImage): the
 * name as given when its extension has a loader, then the name without extension with each
 * loader's extension in turn. Paths are relative to the game's root.
 */
export function textureCandidates(name: string, extensions: readonly string[]): string[] {
  // A path no file system opens is not looked for (each candidate under each folder was a copy of it).
  if (name.length > MAX_TEXTURE_PATH) return [];
  const clean = name.replace(/\\/g, '/').replace(/^\/+/, '').trim();
  if (!clean) return [];
  const dot = clean.lastIndexOf('.');
  const slash = clean.lastIndexOf('/');
  const ext = dot > slash ? clean.slice(dot + 1).toLowerCase() : '';
  const known = extensions.includes(ext);
  const stem = known ? clean.slice(0, dot) : clean;
  const out = known ? [clean] : [];
  for (const e of extensions) if (e !== ext) out.push(`${stem}.${e}`);
  return out;
}

/** Where one texture name is looked for, in order, and the lenient fallback. */
export interface TexturePlan {
  /** Each candidate name under each search folder, nearest folder first: where the engine looks, whatever the game's root is. */
  engine: { path: string; candidate: string }[];
  /** The base name with each extension beside the file: how the preview still finds it, though the engine would not. */
  beside: string[];
}

export function texturePlan(name: string, dir: string, extensions: readonly string[]): TexturePlan {
  // Not its base name beside the file either: what the checks say is not looked up, the preview does not find.
  if (name.length > MAX_TEXTURE_PATH) return { engine: [], beside: [] };
  const names = textureCandidates(name, extensions);
  const engine: TexturePlan['engine'] = [];
  for (const folder of searchFolders(dir)) for (const candidate of names) engine.push({ path: joinPath(folder, candidate), candidate });
  const beside = textureCandidates(fileNameOf(name.replace(/\\/g, '/')), extensions)
    .map((n) => joinPath(dir, n))
    .filter((p) => !engine.some((e) => e.path === p));
  return { engine, beside };
}

/**
 * The key a shader is found by: ioquake3's R_FindShader strips the requested name's extension
 * (COM_StripExtension: any extension after the last /) and compares case-insensitively, with \ as /
 * (generateHashValue). Script names and requested names both go through it.
 */
export function shaderKey(name: string): string {
  const n = name.replace(/\\/g, '/').trim();
  const dot = n.lastIndexOf('.');
  return (dot > n.lastIndexOf('/') ? n.slice(0, dot) : n).toLowerCase();
}

/** The most shader scripts read for one lookup (a scripts folder of a whole game has a few hundred). */
export const MAX_SHADER_SCRIPTS = 500;

/** A shader a script defines: what the preview draws with it. */
export interface ShaderFound {
  name: string;
  /** The script's path. */
  file: string;
  /** The first stage's image, if any. */
  image?: string;
  twoSided: boolean;
  alphaTest?: string;
  blend?: ShaderBlend;
}

/** What became of one texture name. */
export interface TextureAnswer {
  name: string;
  /** The shader of that name (when shaders were asked), else null. */
  shader: ShaderFound | null;
  /** The image found (for a shader with an image stage: that image), or null. */
  path: string | null;
  /** 'engine': where the engine looks; 'beside': only the base name beside the file (the engine would not find it). */
  found: 'engine' | 'beside' | null;
  /** For 'engine': the game-relative name that matched (e.g. `models/x/skin.tga`). */
  candidate?: string;
  /** Every path tried, in order. */
  tried: string[];
}

export interface TextureLookup {
  /** The image extensions tried, in order. */
  readonly extensions: readonly string[];
  /**
   * A texture name as the engine resolves it: as a shader first (unless `shader: false`: a shader
   * stage's image is an image), then as an image. A shader with an image stage gives that image.
   */
  texture(name: string, options?: { shader?: boolean }): Promise<TextureAnswer>;
  /** The shader scripts read (for messages). */
  shaderScripts(): Promise<string[]>;
}

/**
 * A lookup for files beside `dir` (the model's or the sidecar's folder): folders are listed once
 * and shader scripts read once for all its answers; each answer is kept.
 * `extensions`: the engine profile's (core/engines/textures.ts textureExtensions).
 */
export function textureLookup(files: FileAccess, dir: string, extensions: readonly string[]): TextureLookup {
  const listings = new FolderListings(files);
  // The model's folder and those above it exist, and every answer that asks anything needs their
  // listings: listed together at the first question.
  let listed = false;
  const listModelFolders = () => {
    if (!listed) listings.listAtOnce(dir);
    listed = true;
  };
  const answers = new Map<string, Promise<TextureAnswer>>();
  let scripts: Promise<{ paths: string[]; index: Map<string, ShaderFound> }> | undefined;
  const shaders = () => {
    listModelFolders();
    return (scripts ??= readShaderIndex(files, listings, dir));
  };

  const image = async (name: string, tried: string[]): Promise<Pick<TextureAnswer, 'path' | 'found' | 'candidate'>> => {
    const plan = texturePlan(name, dir, extensions);
    if (plan.engine.length + plan.beside.length > 0) listModelFolders();
    // Every candidate is asked at once (each folder is still listed once, after its parent), and
    // the answers read in the engine's order: the first found wins, as if asked one by one.
    const ask = (path: string) => listings.isFile(path).catch(() => false);
    const engine = plan.engine.map((c) => ask(c.path));
    const beside = plan.beside.map(ask);
    for (const [i, c] of plan.engine.entries()) {
      tried.push(c.path);
      if (await engine[i]) return { path: c.path, found: 'engine', candidate: c.candidate };
    }
    for (const [i, p] of plan.beside.entries()) {
      tried.push(p);
      if (await beside[i]) return { path: p, found: 'beside' };
    }
    return { path: null, found: null };
  };

  const answer = async (name: string, asShader: boolean): Promise<TextureAnswer> => {
    const shader = asShader ? ((await shaders()).index.get(shaderKey(name)) ?? null) : null;
    const tried: string[] = [];
    return { name, shader, ...(await image(shader?.image ?? name, tried)), tried };
  };

  return {
    extensions,
    texture(name, options) {
      const asShader = options?.shader !== false;
      const key = `${asShader}:${name}`;
      let found = answers.get(key);
      if (!found) answers.set(key, (found = answer(name, asShader)));
      return found;
    },
    async shaderScripts() {
      return (await shaders()).paths;
    },
  };
}

/**
 * The shader scripts a game loads with a model in `dir`: scripts/*.shader under its folder (any
 * folder above the model may be the game's root), and the scripts lying beside the model (as
 * downloads ship them: shared/assets/md3/kubalwagon); the nearest first, at most MAX_SHADER_SCRIPTS.
 * A shader defined twice is the first one's (Quake 3 keeps the first definition it reads).
 */
async function readShaderIndex(files: FileAccess, listings: FolderListings, dir: string): Promise<{ paths: string[]; index: Map<string, ShaderFound> }> {
  const paths: string[] = [];
  const folders = [dir, ...searchFolders(dir).map((d) => joinPath(d, 'scripts'))];
  // Listed and read at once; used in order (nearest first), so the first definition is the same.
  const listed = await Promise.all(folders.map((folder) => listings.names(folder)));
  for (const [i, folder] of folders.entries()) {
    const names = listed[i];
    if (!names) continue;
    for (const name of [...names.values()].filter((n) => /\.shader$/i.test(n)).sort()) {
      if (paths.length < MAX_SHADER_SCRIPTS) paths.push(joinPath(folder, name));
    }
  }
  const index = new Map<string, ShaderFound>();
  const read: string[] = [];
  const texts = await Promise.all(paths.map((file) => readText(files, file)));
  for (const [i, file] of paths.entries()) {
    const text = texts[i];
    if (text === null) continue;
    read.push(file);
    for (const s of parseShaders(text)) {
      const key = shaderKey(s.name);
      if (!index.has(key)) index.set(key, { name: s.name, file, image: s.image, twoSided: s.twoSided, alphaTest: s.alphaTest, blend: s.blend });
    }
  }
  return { paths: read, index };
}

/** A mesh's texture as the preview draws it: the first of its names found. */
export interface MeshTexture {
  path: string | null;
  /** How it was found ("skin lower.md3_0.skin, shader \"x\" in a.shader"), '' when not. */
  via: string;
  tried: string[];
  twoSided: boolean;
  alphaTest: string | null;
  blend: ShaderBlend | null;
  found: 'engine' | 'beside' | null;
  /** The shader drawn (the engine finds the name so, whatever becomes of its image), or null. */
  shader: string | null;
}

/**
 * The first of a mesh's texture names (core/lookup/meshTextures.ts textureNames, in the engines'
 * order) that the lookup finds. `skin`: the skin file that gave names[0], if any.
 */
export async function meshTexture(lookup: TextureLookup, names: readonly string[], skin: string | null): Promise<MeshTexture> {
  const tried: string[] = [];
  // All names asked at once, read in order: the first found is the one drawn.
  const answers = names.map((n) => lookup.texture(n));
  // One that fails after an earlier one is found is never awaited: not an unhandled rejection.
  for (const a of answers) a.catch(() => undefined);
  for (let i = 0; i < names.length; i++) {
    const a = await answers[i];
    for (const p of a.tried) if (!tried.includes(p)) tried.push(p);
    if (a.path === null) continue;
    const from = i === 0 && skin ? `skin ${skin}` : 'material/shader name';
    const shader = a.shader?.image !== undefined ? `, shader ${quotedName(a.shader.name)} in ${fileNameOf(a.shader.file)}` : '';
    const beside = a.found === 'beside' ? ', beside the model only (not where the engine looks)' : '';
    return { path: a.path, via: from + shader + beside, tried, twoSided: a.shader?.twoSided ?? false, alphaTest: a.shader?.alphaTest ?? null, blend: a.shader?.blend ?? null, found: a.found, shader: a.shader?.name ?? null };
  }
  return { path: null, via: '', tried, twoSided: false, alphaTest: null, blend: null, found: null, shader: null };
}

// Texture and sidecar lookup, the way engines do it (FORMAT-PITFALLS §8.5, §9, §10). Pure: paths
// are POSIX-style strings (vscode.Uri.path) and the file system is an injected interface, so the
// same code runs in the extension host (vscode.workspace.fs, remote and virtual files included)
// and in tests (node:fs).

import type { Sidecars, SidecarText, TextureRequest } from '../../core/protocol';
import { parseShaders, type ShaderBlend, type ShaderInfo } from '../../core/sidecar/shader';

export interface LookupFs {
  /** True when a regular file exists at `path`. */
  isFile(path: string): Promise<boolean>;
  /** The names in a folder (files and folders), or null when it is not one (or cannot be listed). */
  listFolder(path: string): Promise<string[] | null>;
  /** The file's text (Latin-1 is fine for these ASCII formats), or null when it cannot be read. */
  readText(path: string): Promise<string | null>;
  /** Paths of the Q3 shader scripts (*.shader) to search, e.g. every one in the workspace. */
  shaderFiles(): Promise<string[]>;
}

export const IMAGE_EXTENSIONS = ['.tga', '.png', '.jpg', '.jpeg'];

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, rel: string): string {
  const parts = (dir.endsWith('/') ? dir : dir + '/').concat(rel).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return '/' + out.join('/');
}

function extensionOf(name: string): string {
  const b = basename(name);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(dot).toLowerCase() : '';
}

/** `name` without an image extension (only .tga/.png/.jpg/.jpeg are stripped). */
function stripImageExtension(name: string): string {
  const ext = extensionOf(name);
  return IMAGE_EXTENSIONS.includes(ext) ? name.slice(0, name.length - ext.length) : name;
}

/**
 * The folders a relative texture path is tried against: the game root (if configured), then the
 * model's folder and each of its ancestors up to `stopAt` (a workspace folder) or 6 levels.
 */
export function searchFolders(modelDir: string, stopAt: string | null, gameRoot: string | null): string[] {
  const dirs: string[] = [];
  if (gameRoot) dirs.push(gameRoot);
  let d = modelDir;
  for (let i = 0; i < 8; i++) {
    if (!dirs.includes(d)) dirs.push(d);
    if (d === '/' || (stopAt !== null && d === stopAt)) break;
    if (stopAt === null && i >= 6) break;
    d = dirname(d);
  }
  return dirs;
}

/**
 * Candidate paths for one image name, in order: the path relative to each search folder with the
 * given extension, then with .tga/.png/.jpg/.jpeg; then the base name in the model's folder.
 */
export function imageCandidates(name: string, modelDir: string, folders: string[]): string[] {
  const clean = name.replace(/\\/g, '/').replace(/^\/+/, '').trim();
  if (!clean) return [];
  const stem = stripImageExtension(clean);
  const variants: string[] = [];
  const add = (v: string) => {
    if (!variants.includes(v)) variants.push(v);
  };
  add(clean); // as given (may carry an extension, even a double one)
  for (const ext of IMAGE_EXTENSIONS) add(stem + ext);
  // A doubled extension ("glass.tga.tga"): also try with every image extension stripped.
  let bare = stem;
  while (stripImageExtension(bare) !== bare) bare = stripImageExtension(bare);
  if (bare !== stem) for (const ext of IMAGE_EXTENSIONS) add(bare + ext);
  const out: string[] = [];
  const push = (p: string) => {
    if (!out.includes(p)) out.push(p);
  };
  for (const dir of folders) for (const v of variants) if (IMAGE_EXTENSIONS.includes(extensionOf(v))) push(joinPath(dir, v));
  const base = basename(bare);
  for (const ext of IMAGE_EXTENSIONS) push(joinPath(modelDir, base + ext));
  if (IMAGE_EXTENSIONS.includes(extensionOf(clean))) push(joinPath(modelDir, basename(clean)));
  return out;
}

export interface ImageLookup {
  path: string | null;
  /** How the name was found ("shader X in a.shader", "skin lower.md3_0.skin", "material"). */
  via: string;
  tried: string[];
  twoSided: boolean;
  alphaTest: string | null;
  /** The shader's blending of its image stage (additive, alpha, filter), or null: opaque. */
  blend: ShaderBlend | null;
}

/** Shader scripts, parsed once per lookup session. */
export class ShaderIndex {
  private shaders: Map<string, { shader: ShaderInfo; file: string }> | null = null;
  constructor(private readonly fs: LookupFs) {}

  async find(name: string): Promise<{ shader: ShaderInfo; file: string } | undefined> {
    if (!this.shaders) {
      this.shaders = new Map();
      for (const file of await this.fs.shaderFiles()) {
        const text = await this.fs.readText(file);
        if (text === null) continue;
        for (const s of parseShaders(text)) {
          const key = stripImageExtension(s.name.replace(/\\/g, '/')).toLowerCase();
          if (!this.shaders.has(key)) this.shaders.set(key, { shader: s, file });
        }
      }
    }
    return this.shaders.get(stripImageExtension(name.replace(/\\/g, '/')).toLowerCase());
  }
}

/** Resolves one mesh's texture: each name as a Q3 shader first, then as an image path. */
export async function resolveTexture(
  request: TextureRequest,
  modelPath: string,
  fs: LookupFs,
  shaders: ShaderIndex,
  stopAt: string | null,
  gameRoot: string | null,
): Promise<ImageLookup> {
  const modelDir = dirname(modelPath);
  const folders = searchFolders(modelDir, stopAt, gameRoot);
  const tried: string[] = [];
  for (let i = 0; i < request.names.length; i++) {
    const name = request.names[i];
    const from = i === 0 && request.skin ? `skin ${request.skin}` : 'material/shader name';
    const shader = await shaders.find(name);
    let image = name;
    let via = from;
    let twoSided = false;
    let alphaTest: string | null = null;
    let blend: ShaderBlend | null = null;
    if (shader && shader.shader.image) {
      image = shader.shader.image;
      via = `${from}, shader "${shader.shader.name}" in ${basename(shader.file)}`;
      twoSided = shader.shader.twoSided;
      alphaTest = shader.shader.alphaTest ?? null;
      blend = shader.shader.blend ?? null;
    } else if (shader) {
      twoSided = shader.shader.twoSided;
    }
    const candidates = imageCandidates(image, modelDir, folders);
    for (const c of candidates) {
      if (tried.includes(c)) continue;
      tried.push(c);
      if (await fs.isFile(c)) return { path: c, via, tried, twoSided, alphaTest, blend };
    }
  }
  return { path: null, via: '', tried, twoSided: false, alphaTest: null, blend: null };
}

/** Skin file names engines try for `fileName` (DarkPlaces, Quake 3, vkQuake), in that order. */
export function skinCandidates(fileName: string): string[] {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  return [`${fileName}_0.skin`, `${stem}_default.skin`, `${stem}_0.skin`];
}

/** Reads the sidecar texts next to a model. `md3` enables animation.cfg. */
export async function findSidecars(modelPath: string, fs: LookupFs, md3: boolean): Promise<Sidecars> {
  const dir = dirname(modelPath);
  const name = basename(modelPath);
  const read = async (file: string): Promise<SidecarText | null> => {
    const p = joinPath(dir, file);
    if (!(await fs.isFile(p))) return null;
    const text = await fs.readText(p);
    return text === null ? null : { name: file, text };
  };
  const skins: SidecarText[] = [];
  for (const s of skinCandidates(name)) {
    const t = await read(s);
    if (t) skins.push(t);
  }
  return {
    framegroups: await read(`${name}.framegroups`),
    animationCfg: md3 ? await read('animation.cfg') : null,
    skins,
  };
}

/** For a Quake 3 player part, the other two parts' paths when all three sit together, else []. */
export async function playerSet(modelPath: string, fs: LookupFs): Promise<{ part: 'head' | 'upper' | 'lower'; path: string }[]> {
  const name = basename(modelPath).toLowerCase();
  const m = /^(head|upper|lower)\.md3$/.exec(name);
  if (!m) return [];
  const dir = dirname(modelPath);
  const parts: { part: 'head' | 'upper' | 'lower'; path: string }[] = [];
  for (const part of ['lower', 'upper', 'head'] as const) {
    const p = joinPath(dir, `${part}.md3`);
    if (!(await fs.isFile(p))) return [];
    parts.push({ part, path: p });
  }
  return parts;
}

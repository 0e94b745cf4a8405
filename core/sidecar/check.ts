// One sidecar file checked as the engine would load it: the model(s) found beside it, the texture
// paths looked up, the diagnostics. Shared by the language server and `iqm-tools check`; the I/O
// is injected (the server reads through its host, the CLI from disk), so this stays pure.

import { FormatError } from '../binary';
import { IOQUAKE3 } from '../engines/ioquake3';
import type { EngineProfile } from '../engines/types';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { baseName, companionModels, dirName, joinPaths, listedIsFile, texturePlan, type SidecarKind } from './companions';
import { readModel } from '../formats/models';
import { parseShaders } from './shader';
import { lintSidecar, readSidecar, summarizeModel, type CompanionResult, type ModelSummary, type SidecarDocument, type TextureResult } from './lint';

export interface SidecarIo {
  /** True when a regular file exists at the path. */
  isFile(path: string): Promise<boolean>;
  /** The names in a folder (files and folders), or null when it is not one (or cannot be listed). */
  listFolder(path: string): Promise<readonly string[] | null>;
  /** The model at the path: its summary, the reader's error, or null when there is no such file. */
  model(path: string): Promise<{ summary: ModelSummary } | { error: string } | null>;
  /** The shader scripts an engine would load with a file in `dir`: each one's path and text. */
  shaderScripts(dir: string): Promise<{ path: string; text: string }[]>;
}

/** Shader names (lower-cased, an image extension cut, \ as /) → the script that defines them first. */
export function shaderIndex(scripts: readonly { path: string; text: string }[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const script of scripts) {
    for (const shader of parseShaders(script.text)) {
      const key = shaderKey(shader.name);
      if (!index.has(key)) index.set(key, script.path);
    }
  }
  return index;
}

function shaderKey(name: string): string {
  return name.replace(/\\/g, '/').replace(/\.(tga|jpe?g|png|pcx|bmp)$/i, '').toLowerCase();
}

export interface SidecarCheck {
  doc: SidecarDocument;
  diagnostics: IqeDiagnostic[];
  companions: CompanionResult[];
  /** The path of each model found (same order as `companions`; undefined where none). */
  modelPaths: (string | undefined)[];
  textures: TextureResult[];
}

/** A model file's summary, or what the reader says is wrong with it (and at which byte). */
export function readModelSummary(path: string, bytes: Uint8Array): { summary: ModelSummary } | { error: string } {
  try {
    return { summary: summarizeModel(baseName(path), readModel(bytes)) };
  } catch (error) {
    if (error instanceof FormatError) return { error: `${error.message} (at byte ${error.offset})` };
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The image extensions tried: those of the chosen engines that say how they look textures up,
 * else ioquake3's (tga, jpg, jpeg, png, pcx, bmp), the only lookup rule the profiles record.
 */
export function textureExtensions(engines: readonly EngineProfile[]): readonly string[] {
  const lists = engines.map((e) => e.textures?.extensions).filter((l): l is readonly string[] => l !== undefined);
  if (lists.length === 0) return IOQUAKE3.textures?.extensions ?? ['tga', 'jpg', 'png'];
  return [...new Set(lists.flat())];
}

/** Checks the sidecar at `path` (a POSIX path) whose text is `text`. */
export async function checkSidecar(kind: SidecarKind, path: string, text: string, io: SidecarIo, extensions: readonly string[]): Promise<SidecarCheck> {
  const doc = readSidecar(kind, text);
  const dir = dirName(path);
  const companions: CompanionResult[] = [];
  const modelPaths: (string | undefined)[] = [];
  for (const c of companionModels(kind, path)) {
    let result: CompanionResult = { part: c.part, state: 'missing', tried: c.candidates };
    let found: string | undefined;
    for (const name of c.candidates) {
      const p = joinPaths(dir, name);
      const read = await io.model(p);
      if (read === null) continue;
      found = p;
      result = 'summary' in read ? { part: c.part, state: 'read', model: read.summary } : { part: c.part, state: 'unreadable', file: name, error: read.error };
      break;
    }
    companions.push(result);
    modelPaths.push(found);
  }
  // Each distinct path once: a skin often names the same texture for several surfaces.
  const cache = new Map<string, Promise<TextureResult>>();
  // A texture is tried with each extension under each folder above the file (30 paths a texture):
  // a shader script of 5,000 stages asked 150,000 times by path (4.8 s in the language server, each
  // a request to the client in the browser). Folders are listed instead, once a check.
  const isFile = listedIsFile((folder) => io.listFolder(folder), (path) => io.isFile(path));
  let shaders: Promise<{ index: Map<string, string>; files: number }> | undefined;
  const lookUp = async (texture: string, mayBeShader: boolean): Promise<TextureResult> => {
    if (mayBeShader) {
      shaders ??= io.shaderScripts(dir).then((scripts) => ({ index: shaderIndex(scripts), files: scripts.length }));
      const file = (await shaders).index.get(shaderKey(texture));
      if (file !== undefined) return { state: 'shader', file };
    }
    const plan = texturePlan(texture, dir, extensions);
    for (const p of plan.engine) if (await isFile(p)) return { state: 'found', path: p };
    for (const p of plan.beside) if (await isFile(p)) return { state: 'beside', path: p.slice(dir.length + 1) };
    return { state: 'missing', tried: plan.engine.length + plan.beside.length, extensions, shaderFiles: shaders ? (await shaders).files : 0 };
  };
  const textures: TextureResult[] = [];
  for (const t of doc.textures) {
    const key = `${t.mayBeShader}:${t.path}`;
    let r = cache.get(key);
    if (!r) cache.set(key, (r = lookUp(t.path, t.mayBeShader)));
    textures.push(await r);
  }
  return { doc, diagnostics: lintSidecar(doc, companions, textures), companions, modelPaths, textures };
}

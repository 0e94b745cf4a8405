// One sidecar file checked as the engine would load it: the model(s) found beside it, the texture
// paths looked up, the diagnostics. Shared by the language server and `iqm-tools check`; the I/O
// is injected (the server reads through its host, the CLI from disk), so this stays pure.

import { FormatError } from '../binary';
import type { FileAccess } from '../files';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { readModel } from '../formats/models';
import { textureLookup } from '../lookup/textures';
import { fileNameOf, folderOf, joinPath } from '../paths';
import { companionModels, type SidecarKind } from '../lookup/companions';
import { lintSidecar, readSidecar, summarizeModel, type CompanionResult, type ModelSummary, type SidecarDocument, type SidecarOptions, type TextureLookupResult } from './lint';

/**
 * The file access of a check: the host's (core/files.ts; textures and shader scripts are looked up
 * through it by core/lookup, as the preview looks them up), and the model beside the sidecar.
 */
export interface SidecarIo extends FileAccess {
  /** The model at the path: its summary, the reader's error, or null when there is no such file. */
  model(path: string): Promise<{ summary: ModelSummary } | { error: string } | null>;
}

export interface SidecarCheck {
  doc: SidecarDocument;
  diagnostics: IqeDiagnostic[];
  companions: CompanionResult[];
  /** The path of each model found (same order as `companions`; undefined where none). */
  modelPaths: (string | undefined)[];
  textures: TextureLookupResult[];
}

/** A model file's summary, or what the reader says is wrong with it (and at which byte). */
export function readModelSummary(path: string, bytes: Uint8Array): { summary: ModelSummary } | { error: string } {
  try {
    return { summary: summarizeModel(fileNameOf(path), readModel(bytes)) };
  } catch (error) {
    if (error instanceof FormatError) return { error: `${error.message} (at byte ${error.offset})` };
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Checks the sidecar at `path` (a POSIX path) whose text is `text`. */
export async function checkSidecar(kind: SidecarKind, path: string, text: string, io: SidecarIo, extensions: readonly string[], options: SidecarOptions = {}): Promise<SidecarCheck> {
  const doc = readSidecar(kind, text, options);
  const dir = folderOf(path);
  const companions: CompanionResult[] = [];
  const modelPaths: (string | undefined)[] = [];
  for (const c of companionModels(kind, path)) {
    let result: CompanionResult = { part: c.part, state: 'missing', tried: c.candidates };
    let found: string | undefined;
    for (const name of c.candidates) {
      const p = joinPath(dir, name);
      const read = await io.model(p);
      if (read === null) continue;
      found = p;
      result = 'summary' in read ? { part: c.part, state: 'read', model: read.summary } : { part: c.part, state: 'unreadable', file: name, error: read.error };
      break;
    }
    companions.push(result);
    modelPaths.push(found);
  }
  // The engine lookup the preview uses (core/lookup): folders listed once a check, shader scripts
  // read once, each distinct name answered once (a skin often names a texture for many surfaces).
  const lookup = textureLookup(io, dir, extensions);
  const lookUp = async (texture: string, mayBeShader: boolean): Promise<TextureLookupResult> => {
    const a = await lookup.texture(texture, { shader: mayBeShader });
    if (a.shader) return { state: 'shader', file: a.shader.file };
    if (a.found === 'engine') return { state: 'found', path: a.path! };
    if (a.found === 'beside') return { state: 'beside', path: a.path!.slice(dir === '/' ? 1 : dir.length + 1) };
    return { state: 'missing', tried: a.tried.length, extensions, shaderFiles: mayBeShader ? (await lookup.shaderScripts()).length : 0 };
  };
  const textures: TextureLookupResult[] = [];
  for (const t of doc.textures) textures.push(await lookUp(t.path, t.mayBeShader));
  return { doc, diagnostics: lintSidecar(doc, companions, textures), companions, modelPaths, textures };
}

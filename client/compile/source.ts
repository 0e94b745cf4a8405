// What the compile command and the IQE preview share on the extension host: the compile settings of
// a file and the text to compile (an open document's, saved or not, or the file itself). The compile
// runs in the host's worker (Platform.compile); the worker side is client/compile/run.ts.
import * as vscode from 'vscode';
import { readContainer } from '../../core/gltf/container';
import type { ModelFiles } from '../platform';
import type { CompileRequest, CompileSource } from './protocol';
import { type CompileSettings, DEFAULT_OUTPUT_PATH } from './settings';

export function settingsFor(uri: vscode.Uri): CompileSettings {
  const c = vscode.workspace.getConfiguration('iqmTools.compile', uri);
  return {
    outputPath: c.get<string>('outputPath', DEFAULT_OUTPUT_PATH),
    onSave: c.get<boolean>('onSave', false),
    scale: c.get<number>('scale', 1),
    translate: c.get<number[]>('translate', [0, 0, 0]),
    rotate: c.get<number[]>('rotate', [0, 0, 0]),
    fps: c.get<number>('fps', 0),
    loop: c.get<boolean>('loop', false),
    animationFiles: c.get<string[]>('animationFiles', []),
  };
}

/** What to compile, as the worker gets it, its size, and for a glTF the files it names (when the worker cannot read them). */
export interface LoadedSource {
  source: CompileSource;
  size: number;
  resources?: CompileRequest['resources'];
}

/** A .gltf or .glb (by its name: the worker tells the format by the content; this only decides what to read here). */
const GLTF_FILE = /\.(gltf|glb)$/i;

/**
 * What to compile, as the worker gets it: an open document's text (saved or not: what the user
 * sees); a path the worker streams from disk as the CLI does (Node, a local file: a large file is
 * neither held by the extension host nor copied to the worker; a glTF's .bin and images are read
 * there too); else the file's bytes, read through vscode.workspace.fs and handed over to the
 * worker, with a glTF's files read the same way. Throws when the file cannot be read.
 */
export async function compileSource(uri: vscode.Uri, files: ModelFiles): Promise<LoadedSource> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    // Named by its path: an OBJ (no header) is known by its extension.
    const source = { text, name: uri.path };
    return GLTF_FILE.test(uri.path) ? { source, size: text.length, resources: await gltfResources(uri, new TextEncoder().encode(text)) } : { source, size: text.length };
  }
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) throw new Error('a folder, not a file');
  const path = files.streamablePath(uri);
  if (path !== undefined) return { source: { path }, size: stat.size };
  const bytes = await vscode.workspace.fs.readFile(uri);
  const source = { bytes, name: uri.path };
  return GLTF_FILE.test(uri.path) ? { source, size: bytes.length, resources: await gltfResources(uri, bytes) } : { source, size: bytes.length };
}

/**
 * The files a glTF names by a relative URI (its external buffers and images), read beside it
 * through vscode.workspace.fs; `data:` URIs are inside the file. One that cannot be read (or a
 * glTF whose JSON cannot be read at all) is left out: the compile then says what is missing.
 * `lookedFor` gets every file looked for, read or not (the preview watches them).
 */
export async function gltfResources(uri: vscode.Uri, bytes: Uint8Array, lookedFor?: vscode.Uri[]): Promise<CompileRequest['resources']> {
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
      if (typeof u === 'string' && !/^data:/i.test(u)) uris.add(u);
    }
  }
  const folder = vscode.Uri.joinPath(uri, '..');
  const resources: NonNullable<CompileRequest['resources']> = [];
  for (const u of uris) {
    let relative: string;
    try {
      relative = decodeURIComponent(u).replace(/\\/g, '/');
    } catch {
      continue;
    }
    // Relative to the glTF's folder, as the CLI reads them (a scheme or an absolute path is not followed).
    if (/^[a-z][a-z0-9+.-]*:/i.test(relative) || relative.startsWith('/')) continue;
    const file = vscode.Uri.joinPath(folder, relative);
    lookedFor?.push(file);
    try {
      resources.push({ uri: u, bytes: await vscode.workspace.fs.readFile(file) });
    } catch {
      // Left out: the compile names the file it misses.
    }
  }
  return resources;
}

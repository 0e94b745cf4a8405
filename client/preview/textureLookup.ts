// Answers the webview's texture requests the way engines look textures up (resolve.ts): the image
// as a webview URI where the webview may load it (PNG/JPEG under an allowed root), else its bytes
// (TGA always: the webview decodes it), else what was tried.

import * as vscode from 'vscode';
import type { TextureRequest, TextureResult } from '../../core/protocol';
import { isInside, mimeOf, toArrayBuffer } from './files';
import { resolveTexture, ShaderIndex, type LookupFs } from './resolve';
import { listedIsFile } from '../../core/sidecar/companions';

export interface LookupPlace {
  /** The model (texture paths are relative to it and to the game root). */
  uri: vscode.Uri;
  fs: LookupFs;
  /** Where the search up the folders stops (the workspace folder), or null. */
  stopAt: string | null;
  /** The webview's local resource roots. */
  roots: readonly vscode.Uri[];
  webview: vscode.Webview;
}

/** An image inside the previewed file (a glTF's embedded image, by its stem: the material's name). */
export interface EmbeddedImage {
  stem: string;
  extension: string;
  bytes: Uint8Array;
}

/** `embedded`: a glTF's own images, which a material named after one of them finds first (engines find them beside the IQM once written with --textures). */
export async function lookupTextures(place: LookupPlace, requests: TextureRequest[], embedded: readonly EmbeddedImage[] = []): Promise<TextureResult[]> {
  const { uri, roots } = place;
  // Each image name is tried with each extension under each folder above the model (up to 40
  // paths a name): folders are listed once for the whole request instead, and only names they
  // hold are asked by path (a model of many meshes without their images asked thousands of times).
  const fs: LookupFs = { ...place.fs, isFile: listedIsFile((folder) => place.fs.listFolder(folder), (path) => place.fs.isFile(path)) };
  const shaders = new ShaderIndex(fs);
  const results: TextureResult[] = [];
  const fileName = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  // Meshes asking for the same names (surfaces sharing a skin) get the first one's answer: one
  // lookup and one read of the file, whose bytes they share.
  const answered = new Map<string, number>();
  for (const req of requests) {
    const same = JSON.stringify([req.names, req.skin]);
    const earlier = answered.get(same);
    if (earlier !== undefined) {
      results.push({ ...results[earlier], key: req.key });
      continue;
    }
    answered.set(same, results.length);
    const own = embeddedImage(req.names, embedded);
    if (own) {
      const mime = mimeOf(`x.${own.extension}`);
      results.push({ key: req.key, via: `image ${own.stem} embedded in ${fileName}`, tried: [], twoSided: false, alphaTest: null, source: { kind: 'bytes', bytes: toArrayBuffer(own.bytes), mime, path: `${fileName}: ${own.stem}.${own.extension}` } });
      continue;
    }
    const found = await resolveTexture(req, uri.path, fs, shaders, place.stopAt, null);
    const base = { key: req.key, via: found.via, tried: found.tried, twoSided: found.twoSided, alphaTest: found.alphaTest, blend: found.blend };
    if (!found.path) {
      results.push({ ...base, source: { kind: 'none' } });
      continue;
    }
    const mime = mimeOf(found.path);
    const fileUri = uri.with({ path: found.path });
    const display = uri.scheme === 'file' ? fileUri.fsPath : fileUri.toString();
    if (mime !== 'image/x-tga' && roots.some((r) => r.scheme === fileUri.scheme && isInside(found.path as string, r.path))) {
      results.push({ ...base, source: { kind: 'uri', uri: place.webview.asWebviewUri(fileUri).toString(), path: display } });
      continue;
    }
    try {
      const bytes = await vscode.workspace.fs.readFile(fileUri);
      results.push({ ...base, source: { kind: 'bytes', bytes: toArrayBuffer(bytes), mime, path: display } });
    } catch (e) {
      results.push({ ...base, tried: [...found.tried, `${display}: ${e instanceof Error ? e.message : String(e)}`], source: { kind: 'none' } });
    }
  }
  return results;
}

/** The first of `names` that is an embedded image's stem (with or without an extension; case aside), PNG or JPEG. */
function embeddedImage(names: readonly string[], embedded: readonly EmbeddedImage[]): EmbeddedImage | undefined {
  for (const name of names) {
    const base = name.replace(/\\/g, '/').replace(/^.*\//, '').replace(/\.[^.]*$/, '').toLowerCase();
    const found = embedded.find((e) => e.stem.toLowerCase() === base && /^(png|jpe?g)$/i.test(e.extension));
    if (found) return found;
  }
  return undefined;
}

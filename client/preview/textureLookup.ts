// Answers the webview's texture requests with the engine lookup (core/lookup/textures.ts, the one
// the sidecar checks and `lint` ask): the image as a webview URI where the webview may load it
// (under an allowed root; a TGA the webview fetches and decodes itself), else its bytes, else what
// was tried. A URI is the fast way: the image goes to the webview once, not through this host
// (a 3 MB TGA took seconds to read here and post on, in code-server: docs/PERFORMANCE.md).

import * as vscode from 'vscode';
import { parseEngineList } from '../../core/engines/index';
import { textureExtensions } from '../../core/engines/textures';
import { meshTexture, textureLookup } from '../../core/lookup/textures';
import type { FileAccess } from '../../core/files';
import { extensionOf, folderOf } from '../../core/paths';
import type { TextureRequest, TextureResult } from '../../core/protocol';
import { engineSetting } from './engines';
import { isInside, mimeOf, toArrayBuffer } from './files';
import { materialColorSource, type MaterialColor } from './sourceCompile';

/** The image types the webview draws (TGA decoded by it, the others by the browser). */
const DRAWN = ['.tga', '.png', '.jpg', '.jpeg'];

export interface LookupPlace {
  /** The model (texture paths are relative to it and to the game root). */
  uri: vscode.Uri;
  fs: FileAccess;
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

/**
 * `embedded`: a glTF's own images, which a material named after one of them finds first (engines
 * find them beside the IQM once written with --textures); `colors`: its materials without a
 * texture, whose colour is drawn where no image is found.
 */
export async function lookupTextures(place: LookupPlace, requests: TextureRequest[], embedded: readonly EmbeddedImage[] = [], colors: readonly MaterialColor[] = []): Promise<TextureResult[]> {
  const { uri, roots } = place;
  // One lookup for the whole request: folders listed once, shader scripts read once; the image
  // extensions those of the engines set for the file (iqmTools.engine), as the checks use.
  const lookup = textureLookup(place.fs, folderOf(uri.path), textureExtensions(parseEngineList(engineSetting(uri)).engines));
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
    const found = await meshTexture(lookup, req.names, req.skin);
    const base = { key: req.key, via: found.via, tried: found.tried, twoSided: found.twoSided, alphaTest: found.alphaTest, blend: found.blend };
    if (!found.path) {
      const color = materialColorSource(req.names, colors, fileName);
      results.push(color ? { ...base, ...color } : { ...base, source: { kind: 'none' } });
      continue;
    }
    const fileUri = uri.with({ path: found.path });
    const display = uri.scheme === 'file' ? fileUri.fsPath : fileUri.toString();
    if (!DRAWN.includes(extensionOf(found.path))) {
      // The engine loads it (a PCX or BMP), the webview cannot draw it: say so where the tried paths are shown.
      results.push({ ...base, tried: [...found.tried, `${display}: found, but the preview draws only ${DRAWN.join(', ')} images`], source: { kind: 'none' } });
      continue;
    }
    const mime = mimeOf(found.path);
    if (roots.some((r) => r.scheme === fileUri.scheme && isInside(found.path as string, r.path))) {
      const uri = place.webview.asWebviewUri(fileUri).toString();
      results.push({ ...base, source: { kind: 'uri', uri, path: display, ...(mime === 'image/x-tga' ? { mime } : {}) } });
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

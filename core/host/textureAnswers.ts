// Answers the webview's texture requests with the engine lookup (core/lookup/textures.ts, the one
// the sidecar checks and `lint` ask), for any host: the VS Code panel (client/preview/textureLookup.ts) and the
// standalone `iqm-tools view` server (cli/view/). No vscode here: the host gives its file access,
// how it shows a path and where the page may load an image from directly.

import { parseEngineList } from '../engines/index';
import { textureExtensions } from '../engines/textures';
import { meshTexture, textureLookup } from '../lookup/textures';
import type { FileAccess } from '../files';
import { extensionOf, fileNameOf, folderOf } from '../paths';
import type { TextureRequest, TextureResult } from '../protocol';
import { mimeOf, toArrayBuffer } from './transfer';
import { materialColorSource, type MaterialColor } from './sourceCompile';

/** The image types the webview draws (TGA decoded by it, the others by the browser). */
const DRAWN = ['.tga', '.png', '.jpg', '.jpeg'];

/** An image inside the previewed file (a glTF's embedded image, by its stem: the material's name). */
export interface EmbeddedImage {
  stem: string;
  extension: string;
  bytes: Uint8Array;
}

export interface TextureHost {
  /** The model's path (texture paths are relative to it and to the game root). */
  path: string;
  fs: FileAccess;
  /** The engines set for the model (`iqmTools.engine`, `--engine`): their image extensions are tried. */
  engines: string;
  /** How a found file is shown (a file system path, a URI). */
  display(path: string): string;
  /** A URL the page may load this PNG/JPEG from itself, or null: its bytes are sent. */
  imageUri(path: string): string | null;
}

/**
 * `embedded`: a glTF's own images, which a material named after one of them finds first (engines
 * find them beside the IQM once written with --textures); `colors`: its materials without a
 * texture, whose colour is drawn where no image is found.
 */
export async function answerTextureRequests(host: TextureHost, requests: readonly TextureRequest[], embedded: readonly EmbeddedImage[] = [], colors: readonly MaterialColor[] = []): Promise<TextureResult[]> {
  // One lookup for the whole request: folders listed once, shader scripts read once; the image
  // extensions those of the engines set for the file, as the checks use.
  const lookup = textureLookup(host.fs, folderOf(host.path), textureExtensions(parseEngineList(host.engines).engines));
  const fileName = fileNameOf(host.path);
  // Meshes asking for the same names (surfaces sharing a skin) get the first one's answer: one
  // lookup and one read of the file, whose bytes they share. The distinct requests are answered at
  // once (their folder listings and reads overlap; one after another, each waited for the last).
  const answers = new Map<string, Promise<Omit<TextureResult, 'key'>>>();
  const answer = async (req: TextureRequest): Promise<Omit<TextureResult, 'key'>> => {
    const own = embeddedImage(req.names, embedded);
    if (own) {
      const mime = mimeOf(`x.${own.extension}`);
      return { via: `image ${own.stem} embedded in ${fileName}`, tried: [], twoSided: false, alphaTest: null, source: { kind: 'bytes', bytes: toArrayBuffer(own.bytes), mime, path: `${fileName}: ${own.stem}.${own.extension}` } };
    }
    const found = await meshTexture(lookup, req.names, req.skin);
    const base = { via: found.via, tried: found.tried, twoSided: found.twoSided, alphaTest: found.alphaTest, blend: found.blend };
    if (!found.path) {
      const color = materialColorSource(req.names, colors, fileName);
      return color ? { ...base, ...color } : { ...base, source: { kind: 'none' } };
    }
    const display = host.display(found.path);
    if (!DRAWN.includes(extensionOf(found.path))) {
      // The engine loads it (a PCX or BMP), the webview cannot draw it: say so where the tried paths are shown.
      return { ...base, tried: [...found.tried, `${display}: found, but the preview draws only ${DRAWN.join(', ')} images`], source: { kind: 'none' } };
    }
    const mime = mimeOf(found.path);
    // A URI is the fast way: the image goes to the page once, not through this host (a TGA too:
    // the page fetches and decodes it; a 3 MB TGA took seconds to read here and post on, in
    // code-server: docs/PERFORMANCE.md).
    const uri = host.imageUri(found.path);
    if (uri !== null) return { ...base, source: { kind: 'uri', uri, path: display, ...(mime === 'image/x-tga' ? { mime } : {}) } };
    const bytes = await host.fs.readBytes(found.path);
    if (bytes) return { ...base, source: { kind: 'bytes', bytes: toArrayBuffer(bytes), mime, path: display } };
    return { ...base, tried: [...found.tried, `${display}: found, but cannot be read`], source: { kind: 'none' } };
  };
  const pending = requests.map((req) => {
    const same = JSON.stringify([req.names, req.skin]);
    let found = answers.get(same);
    if (!found) answers.set(same, (found = answer(req)));
    return found;
  });
  const done = await Promise.all(pending);
  return requests.map((req, i) => ({ ...done[i], key: req.key }));
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

// A glTF's bytes -> the glTF library's Document (@gltf-transform/core), with its buffers and
// images: the GLB container and the JSON are read and checked first (container.ts), external
// files come from the caller (core reads no files), `data:` URIs are decoded here.
//
// Why this is async: the library's readJSON returns a Promise (it does no I/O here: every
// resource is handed to it, so it settles at once). compile() stays synchronous for every
// caller: the glTF is decoded before the compile starts (gltfSource in source.ts awaits this),
// and the source's read() converts the decoded Document.
import { type Document, GLB_BUFFER, type JSONDocument, Logger, WebIO } from '@gltf-transform/core';
import { ReadError } from '../compile/readError';
import { encodeUtf8 } from '../utf8';
import { checkJson, type GltfJson, label, readContainer, shortUri } from './container';

/** The bytes of a file a glTF names (its .bin, its images), by the uri as written; null when it cannot be read. */
export type ResourceReader = (uri: string) => Uint8Array | null;

/** An image of the glTF, for --textures: its bytes and the name a material gets from it. */
export interface GltfImage {
  /** The image's file name without folders and extension (a uri's), or its name, or `<file>_image<N>`. */
  stem: string;
  /** Its extension by its media type (png, jpg, ...), without the dot. */
  extension: string;
  /** The bytes (null for an external image that cannot be read). */
  bytes: Uint8Array | null;
  /** Whether it is inside the glTF (a GLB buffer view or a data: URI), not a file beside it. */
  embedded: boolean;
}

export interface DecodedGltf {
  document: Document;
  json: GltfJson;
  images: GltfImage[];
  /** What decoding noticed (an image that cannot be read): warnings. */
  warnings: string[];
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

/** Base64 to bytes (core has neither Buffer nor atob); null when it is not base64. */
function decodeBase64(text: string): Uint8Array | null {
  const s = text.replace(/[\s]/g, '').replace(/=+$/, '');
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0, value = 0, o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? BASE64_VALUE[c] : -1;
    if (v < 0) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

/** A data: URI's bytes. */
function decodeDataUri(uri: string, where: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0) throw new ReadError('gltf-resource', `${where}: the data: URI has no ','`, 0);
  const header = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  if (!/;base64$/i.test(header)) return encodeUtf8(decodeURIComponent(payload));
  const bytes = decodeBase64(payload);
  if (!bytes) throw new ReadError('gltf-resource', `${where}: the data: URI is not valid base64`, 0);
  return bytes;
}

const MIME_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/ktx2': 'ktx2' };

function fileStem(uri: string): string {
  const file = decodeURIComponent(uri).replace(/\\/g, '/').split('/').pop() ?? '';
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/** A name that is a safe file name everywhere (what --textures writes, what a material says). */
function safeName(name: string): string {
  let out = '';
  for (const ch of name) out += ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch;
  return out.trim();
}

/**
 * Decodes a glTF (GLB or JSON bytes); `resources` reads the files it names. Throws ReadError for
 * a broken file (what is wrong, and where).
 */
export async function decodeGltf(bytes: Uint8Array, fileStemName: string, resources: ResourceReader | undefined): Promise<DecodedGltf> {
  const { json, bin } = readContainer(bytes);
  const warnings: string[] = [];
  const buffers = (Array.isArray(json.buffers) ? json.buffers : []).map((buffer: GltfJson, i: number): Uint8Array | null => {
    if (typeof buffer !== 'object' || buffer === null) return null;
    if (buffer.uri === undefined) return i === 0 ? bin : null;
    if (typeof buffer.uri !== 'string') return null;
    if (buffer.uri.startsWith('data:')) return decodeDataUri(buffer.uri, label('buffer', i, buffer));
    return resources ? resources(buffer.uri) : null;
  });
  checkJson(json, buffers);

  // The resources by the uri the JSON gives (the library looks them up so; the GLB's under its key).
  const table: Record<string, Uint8Array> = {};
  if (bin) table[GLB_BUFFER] = bin;
  (json.buffers ?? []).forEach((buffer: GltfJson, i: number) => {
    if (buffer.uri !== undefined) table[buffer.uri] = buffers[i]!;
  });
  const images: GltfImage[] = [];
  const imageDefs: GltfJson[] = json.images ?? [];
  imageDefs.forEach((image, i) => {
    const where = label('image', i, image);
    let data: Uint8Array | null = null;
    let stem = '';
    if (image.bufferView !== undefined) {
      const view = json.bufferViews[image.bufferView];
      const buffer = buffers[view.buffer]!;
      data = buffer.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
    } else if (image.uri.startsWith('data:')) {
      data = decodeDataUri(image.uri, where);
      table[image.uri] = data;
    } else {
      stem = fileStem(image.uri);
      data = resources ? resources(image.uri) : null;
      if (!data) warnings.push(`${where} (${shortUri(image.uri)}) cannot be read beside the file: the material keeps its name '${stem}'`);
      // The library wants every image's bytes; an unreadable one is an empty image there.
      table[image.uri] = data ?? new Uint8Array(0);
    }
    const mime = typeof image.mimeType === 'string' ? image.mimeType : image.uri && /\.jpe?g$/i.test(image.uri) ? 'image/jpeg' : 'image/png';
    const embedded = image.uri === undefined || image.uri.startsWith('data:');
    if (stem === '') stem = typeof image.name === 'string' && image.name.trim() !== '' ? image.name : `${fileStemName}_image${i}`;
    images.push({ stem: safeName(stem) || `${fileStemName}_image${i}`, extension: MIME_EXTENSIONS[mime] ?? 'png', bytes: data, embedded });
  });

  // The library reads what it knows and ignores the rest; its warnings (optional extensions it
  // does not read) go nowhere: what matters to an IQM is reported by the conversion.
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
  let document: Document;
  try {
    document = await io.readJSON({ json: json as JSONDocument['json'], resources: table as JSONDocument['resources'] });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/extension/i.test(message)) throw new ReadError('gltf-extension', `${message.replace(/\.$/, '')}: this glTF needs an extension that is not read (export without compression or quantisation)`, 0);
    throw new ReadError('gltf-invalid', `the glTF cannot be read: ${message}`, 0);
  }
  return { document, json, images, warnings };
}

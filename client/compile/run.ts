// The compile as both workers run it (client/node/compileWorker.ts, client/browser/compileWorker.ts):
// the inputs in order, the reply the host gets. The one place to re-point when the compile's entry
// in core/compile changes.
import { type AnimationOptions, type BoundsProvider, compile, type CompileSource as Source, type SiblingReader, textSource } from '../../core/compile/index';
import { sourceFormat } from '../../core/compile/format';
import { IqeIngest } from '../../core/compile/ingest';
import { iqeStreamSource } from '../../core/compile/sources';
import { type GltfImage, gltfSource } from '../../core/gltf/source';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { encodeUtf8 } from '../../core/utf8';
import type { CompileReply, CompileRequest, CompileSource } from './protocol';

/** Bytes decoded per block: each block's string stays small (young generation), as node/text.ts reads files. */
const BLOCK_BYTES = 1 << 16;

/**
 * UTF-8 bytes as a compile's input: an IQE is decoded in blocks into the ingest (the whole text is
 * never one string), and whole only for the diagnostics of a file with errors; another format (MD5,
 * SMD, OBJ: known by its content, or by `name` where the content says nothing) is decoded whole. A
 * BOM is dropped and invalid bytes become U+FFFD, as everywhere else.
 */
export function bytesSource(bytes: Uint8Array, name = '', options?: AnimationOptions, siblings?: SiblingReader): Source {
  const whole = () => new TextDecoder('utf-8').decode(bytes);
  const format = sourceFormat(new TextDecoder('utf-8').decode(bytes.subarray(0, 4096)), name);
  if (format !== 'iqe' && format !== 'unknown') return textSource(whole(), name, options, siblings);
  const ingest = () => {
    const decoder = new TextDecoder('utf-8');
    const ingest = new IqeIngest();
    for (let at = 0; at < bytes.length; at += BLOCK_BYTES) ingest.push(decoder.decode(bytes.subarray(at, at + BLOCK_BYTES), { stream: true }));
    ingest.push(decoder.decode());
    return ingest.finish();
  };
  return iqeStreamSource(name, ingest, whole, options);
}

/** Whether a text or bytes source is a glTF (a GLB, or glTF JSON: core/compile/format.ts). */
function isGltf(head: string, name: string): boolean {
  const format = sourceFormat(head, name);
  return format === 'gltf' || format === 'glb';
}

/**
 * Compiles the request's inputs through the compile's one entry; never rejects. A path is read by
 * `fileSource`, which only the Node worker has (the browser's worker never gets paths). A glTF is
 * decoded first (core/gltf/source.ts; its files from `request.resources`, or from disk beside a
 * path); an OBJ's .mtl files come from `request.resources` too. The request's animation options are the compiled file's; its animation files are merged
 * as they are.
 */
export async function runCompile(request: CompileRequest, fileSource?: (path: string, options?: AnimationOptions) => Source | Promise<Source>, bounds?: BoundsProvider): Promise<CompileReply> {
  const start = performance.now();
  const resources = new Map((request.resources ?? []).map((r) => [r.uri, r.bytes]));
  const readResource = (uri: string): Uint8Array | null => resources.get(uri) ?? resources.get(decodeURIComponent(uri)) ?? null;
  // An OBJ's .mtl files, by the name it gives, from the same list.
  const siblings = (name: string): string | null => {
    const bytes = readResource(name) ?? readResource(name.replace(/\\/g, '/'));
    return bytes ? new TextDecoder('utf-8').decode(bytes) : null;
  };
  const sourceOf = async (source: CompileSource, options: AnimationOptions | undefined): Promise<Source> => {
    if ('text' in source) {
      const name = source.name ?? '';
      if (isGltf(source.text.slice(0, 4096), name)) return gltfSource(encodeUtf8(source.text), name, readResource, options);
      return textSource(source.text, name, options, siblings);
    }
    if ('bytes' in source) {
      const name = source.name ?? '';
      if (isGltf(new TextDecoder('utf-8').decode(source.bytes.subarray(0, 4096)), name)) return gltfSource(source.bytes, name, readResource, options);
      return bytesSource(source.bytes, name, options, siblings);
    }
    if (!fileSource) throw new Error(`this compile worker cannot read files (${source.path})`);
    return fileSource(source.path, options);
  };
  try {
    const { name, fps, loop, start: first, end, ...global } = request.options;
    const sources = [await sourceOf(request.source, { name, fps, loop, start: first, end })];
    for (const a of request.animations ?? []) sources.push(await sourceOf(a, undefined));
    const result = compile(sources, global, bounds);
    const byText = ({ source, diagnostic }: { source: number; diagnostic: IqeDiagnostic }) => ({ text: source, diagnostic });
    const main = sources[0] as Source & { images?: readonly GltfImage[] };
    const images = (main.images ?? []).flatMap((i) => (i.embedded && i.bytes ? [{ stem: i.stem, extension: i.extension, bytes: i.bytes }] : []));
    return {
      ok: true,
      bytes: result.bytes,
      diagnostics: result.diagnostics.map(byText),
      notes: result.notes.map(byText),
      stats: result.stats,
      milliseconds: performance.now() - start,
      failedText: result.failed,
      sourceMap: result.sourceMap,
      ...(images.length ? { images } : {}),
    };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/** The transfer list of a reply: its bytes (and source map) move to the host instead of being copied. */
export function transferOf(reply: CompileReply): ArrayBuffer[] {
  if (!reply.ok) return [];
  const map = reply.sourceMap;
  const arrays = [reply.bytes, map?.sourceVertexLines, map?.triangles, map?.cornerSources, map?.triangleLines, map?.jointLines];
  return arrays.flatMap((a) => (a ? [a.buffer as ArrayBuffer] : []));
}

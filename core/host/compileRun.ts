// The compile as both workers run it (client/node/compileWorker.ts, client/browser/compileWorker.ts)
// and `iqm-tools view` in its process (cli/view/session.ts):
// the inputs in order, the reply the host gets. The one place to re-point when the compile's entry
// in core/compile changes.
import { type BoundsProvider, compile, type CompileSource, type SourceOptions } from '../compile/index';
import { sourceError } from '../compile/sources';
import { openSource } from '../formats/sources';
import type { GltfImage, GltfMaterialColor } from '../gltf/source';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import type { CompileInput, CompileReply, CompileRequest } from './compileProtocol';

/** Milliseconds, for the reply's timing: performance.now() in every host (core's types do not name it). */
const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/**
 * Compiles the request's inputs through the compile's one entry; never rejects. Each input is
 * opened by the format registry's reader (core/formats/sources.ts); a path by `fileSource`, which
 * only the Node worker has (the browser's worker never gets paths; node/text.ts reads it as the
 * CLI does). The files a source names (a glTF's .bin and images, an OBJ's .mtl) come from
 * `request.resources` (or from disk beside a path). The request's animation options are the
 * compiled file's; its animation files are merged as they are.
 */
export async function compileRequest(request: CompileRequest, fileSource?: (path: string, options?: SourceOptions) => Promise<CompileSource | string>, bounds?: BoundsProvider): Promise<CompileReply> {
  const start = now();
  const resources = new Map((request.resources ?? []).map((r) => [r.uri, r.bytes]));
  const readResource = (uri: string): Uint8Array | null => resources.get(uri) ?? resources.get(decodeURIComponent(uri)) ?? null;
  const sourceOf = async (source: CompileInput, options: SourceOptions | undefined): Promise<CompileSource> => {
    if ('text' in source) return openSource({ text: source.text }, source.name ?? '', readResource, options);
    if ('bytes' in source) return openSource({ bytes: source.bytes }, source.name ?? '', readResource, options);
    if (!fileSource) throw new Error(`this compile worker cannot read files (${source.path})`);
    const opened = await fileSource(source.path, options);
    // Bytes that are no compile source: one error at its top, as the other inputs get (the registry's message).
    return typeof opened === 'string' ? { name: source.path, options, read: () => sourceError('source-format', opened) } : opened;
  };
  try {
    const { name, fps, loop, start: first, end, materialColors, ...global } = request.options;
    const sources = [await sourceOf(request.source, { name, fps, loop, start: first, end, materialColors })];
    for (const a of request.animations ?? []) sources.push(await sourceOf(a, undefined));
    const result = compile(sources, global, bounds);
    const byText = ({ source, diagnostic }: { source: number; diagnostic: IqeDiagnostic }) => ({ text: source, diagnostic });
    const main = sources[0] as CompileSource & { images?: readonly GltfImage[]; materials?: readonly GltfMaterialColor[] };
    const images = (main.images ?? []).flatMap((i) => (i.embedded && i.bytes ? [{ stem: i.stem, extension: i.extension, bytes: i.bytes }] : []));
    return {
      ok: true,
      bytes: result.bytes,
      diagnostics: result.diagnostics.map(byText),
      notes: result.notes.map(byText),
      stats: result.stats,
      milliseconds: now() - start,
      failedText: result.failed,
      sourceMap: result.sourceMap,
      ...(images.length ? { images } : {}),
      ...(main.materials?.length ? { materials: [...main.materials] } : {}),
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

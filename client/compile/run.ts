// The compile as both workers run it (client/node/compileWorker.ts, client/browser/compileWorker.ts):
// the inputs in order, the reply the host gets. The one place to re-point when the compile's entry
// in core/compile changes.
import { type AnimationOptions, type BoundsProvider, compile, type CompileSource as Source, textSource } from '../../core/compile/index';
import { sourceFormat } from '../../core/compile/format';
import { IqeIngest } from '../../core/compile/ingest';
import { iqeStreamSource } from '../../core/compile/sources';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import type { CompileReply, CompileRequest, CompileSource } from './protocol';

/** Bytes decoded per block: each block's string stays small (young generation), as node/text.ts reads files. */
const BLOCK_BYTES = 1 << 16;

/**
 * UTF-8 bytes as a compile's input: an IQE is decoded in blocks into the ingest (the whole text is
 * never one string), and whole only for the diagnostics of a file with errors; another format (MD5,
 * SMD, OBJ: known by its content, or by `name` where the content says nothing) is decoded whole. A
 * BOM is dropped and invalid bytes become U+FFFD, as everywhere else.
 */
export function bytesSource(bytes: Uint8Array, name = '', options?: AnimationOptions): Source {
  const whole = () => new TextDecoder('utf-8').decode(bytes);
  const format = sourceFormat(new TextDecoder('utf-8').decode(bytes.subarray(0, 4096)), name);
  if (format !== 'iqe' && format !== 'unknown') return textSource(whole(), name, options);
  const ingest = () => {
    const decoder = new TextDecoder('utf-8');
    const ingest = new IqeIngest();
    for (let at = 0; at < bytes.length; at += BLOCK_BYTES) ingest.push(decoder.decode(bytes.subarray(at, at + BLOCK_BYTES), { stream: true }));
    ingest.push(decoder.decode());
    return ingest.finish();
  };
  return iqeStreamSource(name, ingest, whole, options);
}

/**
 * Compiles the request's inputs through the compile's one entry; never throws. A path is read by
 * `fileSource`, which only the Node worker has (the browser's worker never gets paths). The
 * request's animation options are the compiled file's; its animation files are merged as they are.
 */
export function runCompile(request: CompileRequest, fileSource?: (path: string, options?: AnimationOptions) => Source, bounds?: BoundsProvider): CompileReply {
  const start = performance.now();
  const sourceOf = (source: CompileSource, options: AnimationOptions | undefined): Source => {
    if ('text' in source) return textSource(source.text, source.name ?? '', options);
    if ('bytes' in source) return bytesSource(source.bytes, source.name ?? '', options);
    if (!fileSource) throw new Error(`this compile worker cannot read files (${source.path})`);
    return fileSource(source.path, options);
  };
  try {
    const { name, fps, loop, start: first, end, ...global } = request.options;
    const sources = [sourceOf(request.source, { name, fps, loop, start: first, end }), ...(request.animations ?? []).map((a) => sourceOf(a, undefined))];
    const result = compile(sources, global, bounds);
    const byText = ({ source, diagnostic }: { source: number; diagnostic: IqeDiagnostic }) => ({ text: source, diagnostic });
    return {
      ok: true,
      bytes: result.bytes,
      diagnostics: result.diagnostics.map(byText),
      notes: result.notes.map(byText),
      stats: result.stats,
      milliseconds: performance.now() - start,
      failedText: result.failed,
      sourceMap: result.sourceMap,
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

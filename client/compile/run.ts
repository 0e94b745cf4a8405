// The compile as both workers run it (client/node/compileWorker.ts, client/browser/compileWorker.ts):
// the inputs in order, the reply the host gets. The one place to re-point when the compile's entry
// in core/compile changes.
import { compileIqeSources, textSource, type BoundsProvider, type CompileOptions, type IqeSource } from '../../core/compile/index';
import { IqeIngest } from '../../core/compile/ingest';
import type { CompileReply, CompileRequest, CompileSource } from './protocol';

/** Bytes decoded per block: each block's string stays small (young generation), as node/text.ts reads files. */
const BLOCK_BYTES = 1 << 16;

/**
 * UTF-8 bytes as a compile's input, decoded in blocks into the ingest (the whole text is never one
 * string), and whole only for the diagnostics of a file with errors. A BOM is dropped and invalid
 * bytes become U+FFFD, as everywhere else.
 */
export function bytesSource(bytes: Uint8Array): IqeSource {
  return {
    ingest() {
      const decoder = new TextDecoder('utf-8');
      const ingest = new IqeIngest();
      for (let at = 0; at < bytes.length; at += BLOCK_BYTES) ingest.push(decoder.decode(bytes.subarray(at, at + BLOCK_BYTES), { stream: true }));
      ingest.push(decoder.decode());
      return ingest.finish();
    },
    text: () => new TextDecoder('utf-8').decode(bytes),
  };
}

/**
 * Compiles the request's inputs; never throws. A path is read by `fileSource`, which only the Node
 * worker has (the browser's worker never gets paths).
 */
export function runCompile(request: CompileRequest, fileSource?: (path: string) => IqeSource, bounds?: BoundsProvider): CompileReply {
  const start = performance.now();
  const sourceOf = (source: CompileSource): IqeSource => {
    if ('text' in source) return textSource(source.text);
    if ('bytes' in source) return bytesSource(source.bytes);
    if (!fileSource) throw new Error(`this compile worker cannot read files (${source.path})`);
    return fileSource(source.path);
  };
  try {
    const sources = [request.source, ...(request.animations ?? [])].map(sourceOf);
    const result = compileIqeSources(sources, request.options as CompileOptions, bounds);
    return { ok: true, bytes: result.bytes, diagnostics: result.diagnostics, notes: result.notesByText, stats: result.stats, milliseconds: performance.now() - start, failedText: result.failedText };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/** The transfer list of a reply: its bytes move to the host instead of being copied. */
export function transferOf(reply: CompileReply): ArrayBuffer[] {
  return reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : [];
}

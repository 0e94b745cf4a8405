// The compile as both workers run it (client/node/compileWorker.ts, client/browser/compileWorker.ts):
// the inputs in order, the reply the host gets. The one place to re-point when the compile's entry
// in core/compile changes.
import { compileIqeSources, type BoundsProvider, type CompileOptions, type IqeSource } from '../../core/compile/index';
import type { CompileReply, CompileRequest } from './protocol';

/** Compiles the request's inputs (`sourceOf` turns each into an IqeSource); never throws. */
export function runCompile(request: CompileRequest, sourceOf: (source: CompileRequest['source']) => IqeSource, bounds?: BoundsProvider): CompileReply {
  const start = performance.now();
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

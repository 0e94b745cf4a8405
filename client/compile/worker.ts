// The compile worker (dist/compileWorker.js): runs core/compile off the extension host's thread,
// so a long compile neither freezes the editor nor resists cancel (the host terminates it). Large
// compiles share the per-frame bounds with one more thread, as the CLI does (dist/boundsWorker.js).
import { parentPort } from 'node:worker_threads';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { type AnimationOptions, compile, type CompileSource, textSource } from '../../core/compile/index';
import { parallelBounds } from '../../node/compileParallel';
import { fileSource } from '../../node/text';
import type { CompileReply, CompileRequest, CompileSource as RequestSource } from './protocol';

/** A source of the request: a file streamed from disk, or an open document's text (named by its path, for its format). */
function sourceOf(source: RequestSource, options: AnimationOptions | undefined): CompileSource {
  return 'path' in source ? fileSource(source.path, options) : textSource(source.text, source.name ?? '', options);
}

parentPort?.on('message', (request: CompileRequest) => {
  const start = performance.now();
  let reply: CompileReply;
  try {
    // The animation options are the compiled file's; its animation files are merged as they are.
    const { name, fps, loop, start: first, end, ...global } = request.options;
    const sources = [sourceOf(request.source, { name, fps, loop, start: first, end }), ...(request.animations ?? []).map((a) => sourceOf(a, undefined))];
    const result = compile(sources, global, parallelBounds());
    const byText = ({ source, diagnostic }: { source: number; diagnostic: IqeDiagnostic }) => ({ text: source, diagnostic });
    reply = { ok: true, bytes: result.bytes, diagnostics: result.diagnostics.map(byText), notes: result.notes.map(byText), stats: result.stats, milliseconds: performance.now() - start, failedText: result.failed };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(reply, reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
});

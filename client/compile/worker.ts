// The compile worker (dist/compileWorker.js): runs core/compile off the extension host's thread,
// so a long compile neither freezes the editor nor resists cancel (the host terminates it). Large
// compiles share the per-frame bounds with one more thread, as the CLI does (dist/boundsWorker.js).
import { parentPort } from 'node:worker_threads';
import { compileIqeSources, type CompileOptions, type IqeSource, textSource } from '../../core/compile/index';
import { parallelBounds } from '../../node/compileParallel';
import { fileSource } from '../../node/text';
import type { CompileReply, CompileRequest, CompileSource } from './protocol';

function sourceOf(source: CompileSource): IqeSource {
  return 'path' in source ? fileSource(source.path) : textSource(source.text);
}

parentPort?.on('message', (request: CompileRequest) => {
  const start = performance.now();
  let reply: CompileReply;
  try {
    const result = compileIqeSources([request.source, ...(request.animations ?? [])].map(sourceOf), request.options as CompileOptions, parallelBounds());
    reply = { ok: true, bytes: result.bytes, diagnostics: result.diagnostics, notes: result.notesByText, stats: result.stats, milliseconds: performance.now() - start, failedText: result.failedText };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(reply, reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
});

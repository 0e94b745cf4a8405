// The Node compile worker (dist/compileWorker.js): runs core/compile off the extension host's thread,
// so a long compile neither freezes the editor nor resists cancel (the host terminates it). Large
// compiles share the per-frame bounds with one more thread, as the CLI does (dist/boundsWorker.js).
import { parentPort } from 'node:worker_threads';
import { parallelBounds } from '../../node/compileParallel';
import { fileSource } from '../../node/text';
import type { CompileRequest } from '../../core/host/compileProtocol';
import { compileRequest, transferOf } from '../../core/host/compileRun';

parentPort?.on('message', async (request: CompileRequest) => {
  const reply = await compileRequest(request, fileSource, parallelBounds());
  parentPort?.postMessage(reply, transferOf(reply));
});

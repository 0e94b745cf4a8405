// One compile in the built Node compile worker (dist/compileWorker.js), as the extension host runs it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompileReply, CompileRequest } from '../../core/host/compileProtocol';

export const WORKER = resolve('dist', 'compileWorker.js');
/** A test's skip reason when the worker is not built. */
export const NO_WORKER = existsSync(WORKER) ? false : `${WORKER} is not built (npm run build)`;

export function compileInWorker(request: CompileRequest): Promise<CompileReply> {
  return new Promise((done, fail) => {
    const worker = new Worker(WORKER);
    worker.once('message', (reply: CompileReply) => {
      void worker.terminate();
      done(reply);
    });
    worker.once('error', fail);
    worker.postMessage(request);
  });
}

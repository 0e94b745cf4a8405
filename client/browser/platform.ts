// The browser's web worker extension host's Platform (client/platform.ts): the server and the
// compile are Web Workers (dist/web/server.js, dist/web/compileWorker.js, the latter kept warm
// between compiles), every file goes through vscode.workspace.fs, and the compile bounds run on
// one thread (no SharedArrayBuffer here).
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { requestTransfers, type CompileReply, type CompileRequest } from '../../core/host/compileProtocol';
import type { ModelFiles, Platform } from '../platform';
import { writeReplacing } from '../compile/write';
import { startWorker } from './worker';
import { WarmWorker } from '../compile/warmWorker';
import { streamDeflate } from './deflate';

async function startLanguageClient(context: vscode.ExtensionContext, options: LanguageClientOptions): Promise<LanguageClient> {
  // The id 'iqmTools' makes the client honour the iqmTools.trace.server setting.
  const client = new LanguageClient('iqmTools', 'IQE Language Server', options, await startWorker(context, 'server.js'));
  await client.start();
  return client;
}

/** The compile worker kept for the next compile (client/compile/warmWorker.ts). */
const warm = new WarmWorker<Worker>((worker) => worker.terminate());
/** How many compile workers were started (ExtensionApi.compileWorkers). */
let started = 0;

/**
 * Runs one compile in the kept compile worker, or a new one; resolves undefined when cancelled
 * (the worker is terminated). A worker that answered is kept for the next compile; a cancelled
 * or failed one is ended.
 */
async function compile(context: vscode.ExtensionContext, request: CompileRequest, _inputBytes: number, token: vscode.CancellationToken): Promise<CompileReply | undefined> {
  if (token.isCancellationRequested) return undefined;
  let worker = warm.take();
  if (!worker) {
    try {
      worker = await startWorker(context, 'compileWorker.js');
      started++;
    } catch (error) {
      return { ok: false, message: `the compile worker could not start: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  if (token.isCancellationRequested) {
    warm.keep(worker);
    return undefined;
  }
  const running = worker;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (reply: CompileReply | undefined, answered = false): void => {
      if (settled) return;
      settled = true;
      cancel.dispose();
      running.onmessage = null;
      if (answered) {
        // A kept worker that fails while idle is not handed out again (Web Workers have no exit event).
        running.onerror = () => warm.forget(running);
        warm.keep(running);
      } else {
        running.onerror = null;
        running.terminate();
      }
      resolve(reply);
    };
    const cancel = token.onCancellationRequested(() => finish(undefined));
    running.onmessage = (event: MessageEvent<CompileReply>) => finish(event.data, true);
    running.onerror = (event) => {
      event.preventDefault();
      finish({ ok: false, message: `the compile worker failed: ${event.message}` });
    };
    running.postMessage(request, requestTransfers(request));
  });
}

const files: ModelFiles = {
  streamablePath: () => undefined,
  sameFile: (a, b) => a.toString() === b.toString(),
  writeAtomically: (output, bytes) => writeReplacing(output, bytes),
};

export const browserPlatform: Platform = { host: 'web', startLanguageClient, compile, endWorkers: () => warm.dispose(), compileWorkers: () => ({ started, kept: warm.holding }), files, deflate: streamDeflate };

// The browser's web worker extension host's Platform (client/platform.ts): the server and the
// compile are Web Workers (dist/web/server.js, dist/web/compileWorker.js), every file goes through
// vscode.workspace.fs, and the compile bounds run on one thread (no SharedArrayBuffer here).
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { requestTransfers, type CompileReply, type CompileRequest } from '../compile/protocol';
import type { ModelFiles, Platform } from '../platform';
import { writeReplacing } from '../compile/write';
import { startWorker } from './worker';

async function startLanguageClient(context: vscode.ExtensionContext, options: LanguageClientOptions): Promise<LanguageClient> {
  // The id 'iqmTools' makes the client honour the iqmTools.trace.server setting.
  const client = new LanguageClient('iqmTools', 'IQE Language Server', options, await startWorker(context, 'server.js'));
  await client.start();
  return client;
}

/** Runs one compile in a fresh compile worker; resolves undefined when cancelled (the worker is terminated). */
async function compile(context: vscode.ExtensionContext, request: CompileRequest, _inputBytes: number, token: vscode.CancellationToken): Promise<CompileReply | undefined> {
  if (token.isCancellationRequested) return undefined;
  let worker: Worker;
  try {
    worker = await startWorker(context, 'compileWorker.js');
  } catch (error) {
    return { ok: false, message: `the compile worker could not start: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (token.isCancellationRequested) {
    worker.terminate();
    return undefined;
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (reply: CompileReply | undefined): void => {
      if (settled) return;
      settled = true;
      cancel.dispose();
      worker.terminate();
      resolve(reply);
    };
    const cancel = token.onCancellationRequested(() => finish(undefined));
    worker.onmessage = (event: MessageEvent<CompileReply>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ ok: false, message: `the compile worker failed: ${event.message}` });
    };
    worker.postMessage(request, requestTransfers(request));
  });
}

const files: ModelFiles = {
  streamablePath: () => undefined,
  sameFile: (a, b) => a.toString() === b.toString(),
  writeAtomically: (output, bytes) => writeReplacing(output, bytes),
};

export const browserPlatform: Platform = { host: 'web', startLanguageClient, compile, files };

// The Node extension host's Platform (client/platform.ts): the server is a process, the compile a
// worker thread that streams local files itself and shares the bounds with one more thread, and a
// local output is written as the CLI writes it (through links, keeping permissions).
import * as vscode from 'vscode';
import { chmod } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { outputTarget, sameFile } from '../../node/atomicWrite';
import { requestTransfers, type CompileReply, type CompileRequest } from '../compile/protocol';
import type { ModelFiles, Platform } from '../platform';
import { writeReplacing } from '../compile/write';
import { startNodeLanguageClient } from './languageClient';
import { compileWorkerOptions } from './workerOptions';

/** Runs one compile in a fresh dist/compileWorker.js; resolves undefined when cancelled. */
function runWorker(context: vscode.ExtensionContext, request: CompileRequest, inputBytes: number, token: vscode.CancellationToken): Promise<CompileReply | undefined> {
  return new Promise((resolve) => {
    const worker = new Worker(context.asAbsolutePath('dist/compileWorker.js'), compileWorkerOptions(inputBytes));
    let settled = false;
    const finish = (reply: CompileReply | undefined): void => {
      if (settled) return;
      settled = true;
      cancel.dispose();
      void worker.terminate();
      resolve(reply);
    };
    const cancel = token.onCancellationRequested(() => finish(undefined));
    worker.on('message', (reply: CompileReply) => finish(reply));
    worker.on('error', (error) => finish({ ok: false, message: error.stack ?? error.message }));
    worker.on('exit', (code) => finish({ ok: false, message: `the compile worker exited with code ${code}` }));
    worker.postMessage(request, requestTransfers(request));
  });
}

const files: ModelFiles = {
  streamablePath: (uri) => (uri.scheme === 'file' ? uri.fsPath : undefined),
  sameFile: (a, b) => (a.scheme === 'file' && b.scheme === 'file' ? sameFile(a.fsPath, b.fsPath) : a.toString() === b.toString()),
  /**
   * A local file is written as the CLI writes it (node/atomicWrite.ts): through symbolic links,
   * keeping the replaced file's permissions, refused (EACCES) when that file may not be written.
   */
  async writeAtomically(output, bytes) {
    const local = output.scheme === 'file' ? outputTarget(output.fsPath) : undefined;
    const mode = local?.mode;
    return writeReplacing(local ? vscode.Uri.file(local.target) : output, bytes, mode === undefined ? undefined : (temporary) => chmod(temporary.fsPath, mode));
  },
};

export const nodePlatform: Platform = {
  host: 'node',
  startLanguageClient: startNodeLanguageClient,
  compile: runWorker,
  files,
};

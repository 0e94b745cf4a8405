// The Node extension host's Platform (client/platform.ts): the server is a process, the compile a
// worker thread (kept warm between compiles) that streams local files itself and shares the
// bounds with one more thread, and a local output is written as the CLI writes it (through links,
// keeping permissions).
import * as vscode from 'vscode';
import { chmod } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { outputTarget, sameFile } from '../../node/atomicWrite';
import { requestTransfers, type CompileReply, type CompileRequest } from '../../core/host/compileProtocol';
import type { ModelFiles, Platform } from '../platform';
import { writeReplacing } from '../compile/write';
import { startNodeLanguageClient } from './languageClient';
import { compileWorkerOptions } from './workerOptions';
import { LARGE_INPUT } from '../../node/heap';
import { WarmWorker } from '../compile/warmWorker';
import { nodeDeflate } from '../../node/deflate';

/** The compile worker kept for the next compile (client/compile/warmWorker.ts). */
const warm = new WarmWorker<Worker>((worker) => void worker.terminate());

/** How many compile workers were started (ExtensionApi.compileWorkers). */
let started = 0;

/** A new dist/compileWorker.js for an input of `inputBytes`, forgotten by `warm` if it ends while kept. */
function startWorker(context: vscode.ExtensionContext, inputBytes: number): Worker {
  const worker = new Worker(context.asAbsolutePath('dist/compileWorker.js'), compileWorkerOptions(inputBytes));
  started++;
  worker.once('exit', () => warm.forget(worker));
  // An error while no compile listens (kept idle) is not the host's to throw.
  worker.on('error', () => warm.forget(worker));
  return worker;
}

/**
 * Runs one compile in the kept dist/compileWorker.js, or a new one; resolves undefined when
 * cancelled. A large input (LARGE_INPUT: its worker has its own heap settings) always gets a new
 * worker, which is ended after it, as is a cancelled or failed one; another is kept for the next.
 */
function runWorker(context: vscode.ExtensionContext, request: CompileRequest, inputBytes: number, token: vscode.CancellationToken): Promise<CompileReply | undefined> {
  return new Promise((resolve) => {
    const reusable = inputBytes < LARGE_INPUT;
    const worker = (reusable ? warm.take() : undefined) ?? startWorker(context, inputBytes);
    let settled = false;
    const finish = (reply: CompileReply | undefined, answered = false): void => {
      if (settled) return;
      settled = true;
      cancel.dispose();
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (answered && reusable) warm.keep(worker);
      else void worker.terminate();
      resolve(reply);
    };
    const onMessage = (reply: CompileReply): void => finish(reply, true);
    const onError = (error: Error): void => finish({ ok: false, message: error.stack ?? error.message });
    const onExit = (code: number): void => finish({ ok: false, message: `the compile worker exited with code ${code}` });
    const cancel = token.onCancellationRequested(() => finish(undefined));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
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
  endWorkers: () => warm.dispose(),
  compileWorkers: () => ({ started, kept: warm.holding }),
  deflate: nodeDeflate,
  files,
};

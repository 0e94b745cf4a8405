// What the compile command and the IQE preview share: the compile settings of a file, the text to
// compile (an open document's, saved or not, or the file on disk) and one compile in a fresh
// worker thread (dist/compileWorker.js), cancellable by terminating it.
import * as vscode from 'vscode';
import { Worker } from 'node:worker_threads';
import { type CompileReply, type CompileRequest, type CompileSource, compileWorkerOptions } from './protocol';
import { type CompileSettings, DEFAULT_OUTPUT_PATH } from './settings';

export function settingsFor(uri: vscode.Uri): CompileSettings {
  const c = vscode.workspace.getConfiguration('iqmTools.compile', uri);
  return {
    outputPath: c.get<string>('outputPath', DEFAULT_OUTPUT_PATH),
    onSave: c.get<boolean>('onSave', false),
    scale: c.get<number>('scale', 1),
    translate: c.get<number[]>('translate', [0, 0, 0]),
    rotate: c.get<number[]>('rotate', [0, 0, 0]),
    fps: c.get<number>('fps', 0),
    loop: c.get<boolean>('loop', false),
    animationFiles: c.get<string[]>('animationFiles', []),
  };
}

/**
 * What to compile, as the worker gets it: an open document's text (saved or not: what the user
 * sees); a local file's path, which the worker streams from disk as the CLI does (a large file is
 * neither held by the extension host nor copied to the worker); another file system's file's
 * text. Throws when the file cannot be read.
 */
export async function compileSource(uri: vscode.Uri): Promise<{ source: CompileSource; size: number }> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    return { source: { text }, size: text.length };
  }
  if (uri.scheme === 'file') {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) throw new Error('a folder, not a file');
    return { source: { path: uri.fsPath }, size: stat.size };
  }
  const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  return { source: { text }, size: text.length };
}

/** Runs one compile of `inputBytes` of text in a fresh worker; resolves undefined when cancelled. */
export function runWorker(workerPath: string, request: CompileRequest, inputBytes: number, token: vscode.CancellationToken): Promise<CompileReply | undefined> {
  return new Promise((resolve) => {
    const worker = new Worker(workerPath, compileWorkerOptions(inputBytes));
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
    worker.postMessage(request);
  });
}

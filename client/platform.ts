// What differs between the extension's two hosts: the Node extension host (desktop, remote) and the
// browser's web worker extension host (vscode.dev, github.dev). Everything else in client/ is the
// same code in both; the entries (client/node/extension.ts, client/browser/extension.ts) pass their
// Platform to activate (client/extension.ts).
import type * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import type { CompileReply, CompileRequest } from '../core/host/compileProtocol';
import type { Deflate } from '../core/image/png';

export interface Platform {
  /** Which extension host runs this build. */
  readonly host: 'node' | 'web';
  /** Starts the IQE language server (a process, or a Web Worker) and its client. */
  startLanguageClient(context: vscode.ExtensionContext, options: LanguageClientOptions): Promise<BaseLanguageClient>;
  /** Runs one compile off the extension host's thread; undefined when cancelled. `inputBytes`: the size of the input texts. */
  compile(context: vscode.ExtensionContext, request: CompileRequest, inputBytes: number, token: vscode.CancellationToken): Promise<CompileReply | undefined>;
  /** Ends the compile worker kept for the next compile, if any (client/compile/warmWorker.ts). */
  endWorkers(): void;
  /** How many compile workers were started, and whether one is kept now (ExtensionApi, for tests). */
  compileWorkers(): { started: number; kept: boolean };
  files: ModelFiles;
  /** zlib-format compression for the PNGs of a glTF export: node:zlib, or CompressionStream('deflate') in the web worker host. */
  deflate: Deflate;
}

/** The compile's access to its input and output files, beyond what vscode.workspace.fs does alike everywhere. */
export interface ModelFiles {
  /** A path the compile worker can stream from itself (Node, a local file), else undefined: the host then sends the text. */
  streamablePath(uri: vscode.Uri): string | undefined;
  /** Whether two URIs name the same file (on a local disk: through links). */
  sameFile(a: vscode.Uri, b: vscode.Uri): boolean;
  /**
   * Writes `bytes` so that no reader sees part of them (a temporary file beside, renamed over the
   * target). Resolves with a note when the file system could not do that and the file was written
   * otherwise; rejects, having written nothing, when it cannot be written at all.
   */
  writeAtomically(output: vscode.Uri, bytes: Uint8Array): Promise<string | undefined>;
}

// Messages between the extension host and the compile worker (client/node/compileWorker.ts, a
// worker thread; client/browser/compileWorker.ts, a Web Worker).
import type { CompileOptions, CompileStats } from '../../core/compile/index';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';

/**
 * An input as the host gives it: the text of an open document (what the user sees, saved or not),
 * or the path of a local file that is not open, which the Node worker streams from disk as the CLI
 * does (the host never holds its text, and a large file is never copied between threads). The
 * browser's worker only ever gets texts.
 */
export type CompileSource = { text: string } | { path: string };

export interface CompileRequest {
  source: CompileSource;
  options: CompileOptions;
  /** Animation files merged after it (iqmTools.compile.animationFiles). */
  animations?: CompileSource[];
}

/** A note of the compile and the text it is about (0: the source, k: animations[k - 1]). */
export interface CompileNote {
  text: number;
  diagnostic: IqeDiagnostic;
}

export type CompileReply =
  | { ok: true; bytes: Uint8Array | undefined; diagnostics: IqeDiagnostic[]; notes: CompileNote[]; stats: CompileStats; milliseconds: number; failedText?: number }
  | { ok: false; message: string };

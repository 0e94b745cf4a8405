// Messages between the extension host and the compile worker, and how the host starts it.
import type { WorkerOptions } from 'node:worker_threads';
import type { AnimationOptions, CompileOptions, CompileStats } from '../../core/compile/index';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { LARGE_INPUT } from '../../node/heap';

/** The young generation of a large input's compile worker, MiB (V8's own grows while a large file is parsed, and stays). */
const LARGE_INPUT_YOUNG_MB = 6;

/**
 * The worker's options for `inputBytes` of IQE text: for a large input its young generation is
 * capped, as the CLI keeps it from growing (node/heap.ts) with a flag that here would reach every
 * extension of the host: big.iqe peaks ~30 MiB lower in the same time (bench/compile-editor.ts).
 */
export function compileWorkerOptions(inputBytes: number): WorkerOptions {
  return inputBytes >= LARGE_INPUT ? { resourceLimits: { maxYoungGenerationSizeMb: LARGE_INPUT_YOUNG_MB } } : {};
}

/**
 * An input as the host gives it: the text of an open document (what the user sees, saved or not),
 * or the path of a local file that is not open, which the worker streams from disk as the CLI
 * does (the host never holds its text, and a large file is never copied between threads).
 */
export type CompileSource = { text: string; name?: string } | { path: string };

/** The editor's options: those of the whole compile, and the animation options of the compiled file. */
export type EditorCompileOptions = CompileOptions & AnimationOptions;

export interface CompileRequest {
  source: CompileSource;
  options: EditorCompileOptions;
  /** Animation files merged after it (iqmTools.compile.animationFiles). */
  animations?: CompileSource[];
}

/** A note of the compile and the text it is about (0: the source, k: animations[k - 1]). */
export interface CompileNote {
  text: number;
  diagnostic: IqeDiagnostic;
}

export type CompileReply =
  | {
      ok: true;
      bytes: Uint8Array | undefined;
      /** Every diagnostic of the sources (those of a source with errors) and the compile's notes, each with its text. */
      diagnostics: CompileNote[];
      notes: CompileNote[];
      stats: CompileStats;
      milliseconds: number;
      /** The first text with errors, or -1. */
      failedText: number;
    }
  | { ok: false; message: string };

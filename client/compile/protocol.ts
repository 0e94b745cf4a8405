// Messages between the extension host and the compile worker.
import type { CompileOptions, CompileStats } from '../../core/compile/index';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';

export interface CompileRequest {
  text: string;
  options: CompileOptions;
  /** Texts of animation files merged after it (iqmTools.compile.animationFiles). */
  animations?: string[];
}

/** A note of the compile and the text it is about (0: the source, k: animations[k - 1]). */
export interface CompileNote {
  text: number;
  diagnostic: IqeDiagnostic;
}

export type CompileReply =
  | { ok: true; bytes: Uint8Array | undefined; diagnostics: IqeDiagnostic[]; notes: CompileNote[]; stats: CompileStats; milliseconds: number; failedText?: number }
  | { ok: false; message: string };

// Messages between the extension host and the compile worker.
import type { CompileOptions, CompileStats } from '../../core/compile/index';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';

export interface CompileRequest {
  text: string;
  options: CompileOptions;
}

export type CompileReply =
  | { ok: true; bytes: Uint8Array | undefined; diagnostics: IqeDiagnostic[]; notes: IqeDiagnostic[]; stats: CompileStats; milliseconds: number }
  | { ok: false; message: string };

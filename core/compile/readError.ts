// The error a source reader (core/md5, core/smd, core/obj) throws at the token at fault, and the
// SourceRead it becomes: one error diagnostic, no model.
import { lineNote } from './options';
import type { SourceRead } from './sources';

export class ReadError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** 0-based line, and the columns of the token at fault. */
    readonly line: number,
    readonly column = 0,
    /** The column after it (the column itself when not given: an empty range, never one that ends before it starts). */
    readonly end: number = column,
  ) {
    super(message);
  }
}

/** A reader's ReadError as its result; anything else is a bug and is thrown on. */
export function readFailed(error: unknown): SourceRead {
  if (!(error instanceof ReadError)) throw error;
  return { model: null, diagnostics: [lineNote('error', error.code, error.message, error.line, error.column, error.end)] };
}

// Diagnostics produced by the IQE validator, shared by the language server, `iqm-tools check`
// and the compiler. Positions are 0-based lines and 0-based UTF-16 columns (the LSP convention);
// ends are exclusive. The CLI converts to 1-based.

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface RelatedInformation {
  /** The file the range is in, where it is another than the diagnostic's (an absolute POSIX path). */
  path?: string;
  range: Range;
  message: string;
}

export interface IqeDiagnostic {
  range: Range;
  severity: Severity;
  /** A stable code from IQE-SEMANTICS.md §9.2 (e.g. `face-index-range`). */
  code: string;
  message: string;
  related?: RelatedInformation[];
}

/** Options that the editor settings and the CLI pass to the validator. */
export interface ValidateOptions {
  /** At most this many diagnostics, plus one `too-many-problems` entry that counts the rest. Default 1000. */
  maxProblems?: number;
  /** Codes to leave out. */
  ignore?: Iterable<string>;
  /** Severity overrides by code. */
  severity?: Readonly<Record<string, Severity>>;
}

// The validator's report: every problem found in a binary model (IQM, MD3, DPM), each with a stable
// code (codes.ts), a severity, a kind (as glTF-Validator groups its issues), the byte offset it is
// at and what it is ("mesh 2 "body", vertex 817"). A code that fires thousands of times keeps its
// first few issues and counts the rest, so a broken file's report stays small.

import type { Severity } from '../iqe/diagnostic';
import { VALIDATION_CODES, type IssueKind, type ValidationCode } from './codes';

export interface Issue {
  code: ValidationCode;
  severity: Severity;
  kind: IssueKind;
  /** Byte offset from the start of the file. */
  offset: number;
  /** What the problem is in: "mesh 2 "body", vertex 817", "frame 37, channel 12", "header". */
  where: string;
  message: string;
}

/** Per code: "off" or the severity it is reported with instead of its default (`--config`, `iqmTools.validation.*`). */
export type SeverityOverrides = Readonly<Record<string, Severity | 'off'>>;

export interface ValidationReport {
  format: 'iqm' | 'md3' | 'dpm';
  /** The kept issues in the order they were found. */
  issues: Issue[];
  /** Per code, the issues found beyond the kept ones (not listed). */
  omitted: Record<string, number>;
  /** Issues found per severity, omitted ones included. */
  counts: Record<Severity, number>;
  /** What the validator could not look at and why (a part it skipped because the file is broken there, a bounds check on sampled frames). */
  notes: string[];
}

/** Issues kept per code by default; the rest are counted. */
export const DEFAULT_KEPT_PER_CODE = 5;

/** Collects issues for one file: applies the overrides and the per-code cap. */
export class Reporter {
  readonly issues: Issue[] = [];
  readonly omitted: Record<string, number> = {};
  readonly counts: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  readonly notes: string[] = [];
  private readonly seen = new Map<string, number>();
  /** Whether an error was found (even one turned into a warning): later passes skip what it breaks. */
  private readonly fired = new Set<ValidationCode>();

  constructor(
    private readonly overrides: SeverityOverrides = {},
    private readonly keptPerCode = DEFAULT_KEPT_PER_CODE,
  ) {}

  /** Reports one problem. `where` and `message` are functions where building them costs (hot loops). */
  add(code: ValidationCode, offset: number, where: string | (() => string), message: string | (() => string)): void {
    this.fired.add(code);
    const override = this.overrides[code];
    if (override === 'off') return;
    const entry = VALIDATION_CODES[code];
    const severity = override ?? entry.severity;
    this.counts[severity]++;
    const n = (this.seen.get(code) ?? 0) + 1;
    this.seen.set(code, n);
    if (n > this.keptPerCode) {
      this.omitted[code] = (this.omitted[code] ?? 0) + 1;
      return;
    }
    this.issues.push({
      code,
      severity,
      kind: entry.kind,
      offset,
      where: typeof where === 'function' ? where() : where,
      message: typeof message === 'function' ? message() : message,
    });
  }

  /** Whether `code` fired (whatever its reported severity, also when turned off). */
  has(code: ValidationCode): boolean {
    return this.fired.has(code);
  }

  /** Whether any of `codes` fired. */
  any(codes: readonly ValidationCode[]): boolean {
    return codes.some((c) => this.fired.has(c));
  }

  note(text: string): void {
    this.notes.push(text);
  }

  report(format: ValidationReport['format']): ValidationReport {
    return { format, issues: this.issues, omitted: this.omitted, counts: this.counts, notes: this.notes };
  }
}

const SEVERITIES: readonly string[] = ['error', 'warning', 'information', 'hint', 'off'];

/**
 * Reads overrides from a parsed JSON config: `{"codes": {"iqm-vertex-unused": "off", ...}}` (a flat
 * object of codes is read too). Unknown codes and severities are errors, with what is wrong.
 */
export function parseSeverityOverrides(json: unknown): { overrides: SeverityOverrides; errors: string[] } {
  const errors: string[] = [];
  const overrides: Record<string, Severity | 'off'> = {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { overrides, errors: ['the config must be a JSON object: {"codes": {"CODE": "error" | "warning" | "information" | "hint" | "off"}}'] };
  const table = 'codes' in json ? (json as { codes: unknown }).codes : json;
  if (typeof table !== 'object' || table === null || Array.isArray(table)) return { overrides, errors: ['"codes" must be an object of code: severity'] };
  for (const [code, value] of Object.entries(table)) {
    if (!(code in VALIDATION_CODES)) errors.push(`unknown code ${JSON.stringify(code)}`);
    else if (typeof value !== 'string' || !SEVERITIES.includes(value)) errors.push(`${code}: ${JSON.stringify(value)} is not one of ${SEVERITIES.join(', ')}`);
    else overrides[code] = value as Severity | 'off';
  }
  return { overrides, errors };
}

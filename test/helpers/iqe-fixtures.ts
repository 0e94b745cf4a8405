// Small helpers that build IQE text for the core/iqe unit tests, and find where a token is so
// that tests can state exact diagnostic ranges without counting columns by hand.
import type { IqeDiagnostic, Range } from '../../core/iqe/diagnostic';

export const HEADER = '# Inter-Quake Export';

/** A file: the header, then the given lines, each followed by '\n'. */
export function iqe(...lines: string[]): string {
  return [HEADER, ...lines].map((l) => `${l}\n`).join('');
}

/** Three vertices (0, 0, 0), (1, 0, 0), (0, 1, 0). */
export const TRIANGLE_VERTICES = ['vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0'];
/** Three vertices and the face that uses them: a file with no problem at all. */
export const TRIANGLE = [...TRIANGLE_VERTICES, 'fa 0 1 2'];

/** n distinct vertices on a line-free grid (no three of the first few are collinear). */
export function vertices(n: number, z = 0): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`vp ${i} ${i * i} ${z}`);
  return out;
}

/** n joints, each a child of the previous one (the first is a root). */
export function jointLines(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`joint j${i} ${i - 1}`);
  return out;
}

/** n identity poses. */
export function poses(n: number): string[] {
  return Array.from({ length: n }, () => 'pq 0 0 0 0 0 0 1');
}

/** The text of line `lineNumber` (0-based; '\n', '\r\n' or '\r' end lines). */
export function lineOfText(text: string, lineNumber: number): string {
  return text.split(/\r\n|\r|\n/)[lineNumber] ?? '';
}

function isBoundary(c: string | undefined): boolean {
  return c === undefined || /\s/.test(c) || c === '"';
}

/**
 * The range of the `nth` occurrence (0-based) of `token` on line `lineNumber`, where the token
 * stands alone (whitespace, a quote or the line's ends around it). Throws if there is none.
 */
export function tokenRange(text: string, lineNumber: number, token: string, nth = 0): Range {
  const content = lineOfText(text, lineNumber);
  let from = 0;
  let seen = 0;
  for (;;) {
    const at = content.indexOf(token, from);
    if (at < 0) throw new Error(`token '${token}' #${nth} not on line ${lineNumber}: '${content}'`);
    if (isBoundary(content[at - 1]) && isBoundary(content[at + token.length])) {
      if (seen === nth) return { line: lineNumber, column: at, endLine: lineNumber, endColumn: at + token.length };
      seen++;
    }
    from = at + 1;
  }
}

/** The range from the start of token `first` to the end of token `last` (both standing alone). */
export function spanRange(text: string, lineNumber: number, first: string, last: string, firstNth = 0, lastNth = 0): Range {
  const a = tokenRange(text, lineNumber, first, firstNth);
  const b = tokenRange(text, lineNumber, last, lastNth);
  return { line: lineNumber, column: a.column, endLine: lineNumber, endColumn: b.endColumn };
}

/** The line's content without leading and trailing whitespace. */
export function lineRange(text: string, lineNumber: number): Range {
  const content = lineOfText(text, lineNumber);
  const start = content.length - content.trimStart().length;
  const end = content.trimEnd().length;
  return { line: lineNumber, column: start, endLine: lineNumber, endColumn: Math.max(start, end) };
}

/** The range of the line's first word (the command). */
export function commandRange(text: string, lineNumber: number): Range {
  const content = lineOfText(text, lineNumber);
  const start = content.length - content.trimStart().length;
  const match = /^\S*/.exec(content.slice(start));
  return { line: lineNumber, column: start, endLine: lineNumber, endColumn: start + (match ? match[0].length : 0) };
}

/** The 0-based number of the first line whose content equals `content` (after `from`). */
export function lineOf(text: string, content: string, from = 0): number {
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = from; i < lines.length; i++) if (lines[i] === content) return i;
  throw new Error(`no line '${content}'`);
}

/** Diagnostics with the given code. */
export function withCode(diagnostics: readonly IqeDiagnostic[], code: string): IqeDiagnostic[] {
  return diagnostics.filter((d) => d.code === code);
}

/** A compact form of diagnostics for assertion messages. */
export function describe(diagnostics: readonly IqeDiagnostic[]): string {
  return diagnostics
    .map((d) => `${d.code}@${d.range.line}:${d.range.column}-${d.range.endLine}:${d.range.endColumn} (${d.severity}) ${d.message}`)
    .join('\n');
}

/** mulberry32: a small, seeded PRNG returning numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export function randomInt(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

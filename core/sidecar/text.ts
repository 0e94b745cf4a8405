// Small text helpers shared by the sidecar parsers.
import { decimalValue } from '../decimal';

/** Splits into lines (LF, CRLF or CR). */
export function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * `text` with every comment character (// to the line end, /* to *\/) replaced by a space: lines
 * and columns stay where they were, so the parsers can report positions in the original text.
 */
export function blankComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) out += text[i] === '\n' || text[i] === '\r' ? text[i] : ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** A whitespace-separated word of one line: 0-based line, UTF-16 columns, end exclusive. */
export interface SidecarToken {
  text: string;
  line: number;
  start: number;
  end: number;
}

/** The words of one line, with their columns. */
export function lineTokens(line: string, lineIndex: number): SidecarToken[] {
  const out: SidecarToken[] = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], line: lineIndex, start: m.index, end: m.index + m[0].length });
  return out;
}

/** A number as these files write it (`12`, `-3`, `10.000000`, `.5`, `1e3`), else NaN. */
export function sidecarNumber(t: string | undefined): number {
  return t !== undefined ? decimalValue(t) : NaN;
}

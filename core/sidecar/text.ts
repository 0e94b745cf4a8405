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

/**
 * The highest frame rate a sidecar may give. Quake 3 keeps a clip's frame time as 1000 / fps whole
 * milliseconds (cg_players.c frameLerp), which is 0 above 1,000, and no model is animated faster.
 */
export const MAX_SIDECAR_FPS = 1000;

/** A written frame rate a clip can be played at: finite and at most MAX_SIDECAR_FPS (each engine has its own rule for 0 and below). */
export function playableFps(fps: number): boolean {
  return Number.isFinite(fps) && fps <= MAX_SIDECAR_FPS;
}

/** What is wrong with a frame rate playableFps refuses: `not a finite number`, `over 1,000 frames per second`. */
export function fpsProblem(fps: number): string {
  return Number.isFinite(fps) ? `over ${MAX_SIDECAR_FPS.toLocaleString('en-US')} frames per second` : 'not a finite number';
}

// A chunk is a run of whole lines parsed into compact typed arrays: no object per line. A document
// is a list of chunks, so an edit re-parses only the chunks it touches (see document.ts).
import { Cmd } from './commands';
import { parseLine, line } from './line';

/** Target size of a chunk in characters: small enough that re-parsing one is well under 1 ms. */
export const CHUNK_CHARS = 32 * 1024;

export interface Chunk {
  /** Offset of the chunk's first character in the document text. */
  start: number;
  /** Offset just after the chunk's last line terminator (or the text's end). */
  end: number;
  /** Document line number of the chunk's first line. */
  firstLine: number;
  lineCount: number;
  /** Start of each line relative to `start`, and one more entry: `end - start`. */
  lineStart: Int32Array;
  kind: Uint8Array;
  /** Line-local problem bits (LineProblem). */
  flags: Uint32Array;
  /** Index of each line's first value in `values`, and one more entry: the total. */
  valueStart: Int32Array;
  values: Float64Array;
  /** Names of mesh, material, joint, animation and vertexarray lines, by line index in the chunk. */
  names: Map<number, string>;
}

class Growable<T extends Int32Array | Uint8Array | Uint32Array | Float64Array> {
  length = 0;
  constructor(public data: T, private readonly make: (n: number) => T) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  copy(): T {
    return this.data.slice(0, this.length) as T;
  }
}

const starts = new Growable(new Int32Array(4096), (n) => new Int32Array(n));
const kinds = new Growable(new Uint8Array(4096), (n) => new Uint8Array(n));
const flags = new Growable(new Uint32Array(4096), (n) => new Uint32Array(n));
const valueStarts = new Growable(new Int32Array(4096), (n) => new Int32Array(n));
const values = new Growable(new Float64Array(16384), (n) => new Float64Array(n));

// The next carriage return at or after crFrom in crText (-1: none). Cached so that a file without
// CRs is searched once, not once per line.
let crText = '';
let crFrom = 0;
let crPos = -1;

function nextCarriageReturn(text: string, p: number): number {
  if (text !== crText || p < crFrom || (crPos >= 0 && crPos < p)) {
    crText = text;
    crFrom = p;
    crPos = text.indexOf('\r', p);
  }
  return crPos;
}

/** End of the content of the line starting at `p` (before its terminator; `\n`, `\r\n` or `\r`). */
export function contentEnd(text: string, p: number, limit: number): number {
  const lf = text.indexOf('\n', p);
  const stop = lf < 0 || lf > limit ? limit : lf;
  const cr = nextCarriageReturn(text, p);
  if (cr >= 0 && cr < stop) return cr;
  return stop;
}

/** Offset after the terminator of a line whose content ends at `end` (the text's end if none). */
export function afterTerminator(text: string, end: number): number {
  if (end >= text.length) return end;
  const c = text.charCodeAt(end);
  if (c === 13 && end + 1 < text.length && text.charCodeAt(end + 1) === 10) return end + 2;
  return end + 1;
}

/** Commands whose name the chunk keeps (a lookup table by Cmd). */
const NAMED = new Uint8Array(64);
for (const k of [Cmd.Mesh, Cmd.Material, Cmd.Joint, Cmd.Animation, Cmd.Vertexarray]) NAMED[k] = 1;

/**
 * Parses whole lines from `from` into one chunk, stopping after about CHUNK_CHARS or at `limit`
 * (which must be a line start or the text's end). `firstLine` is the document line number of the
 * line at `from`. When the text ends with a terminator, the empty last line is part of the chunk
 * that reaches the end, as in LSP line numbering.
 */
export function parseChunk(text: string, from: number, limit: number, firstLine: number): Chunk {
  starts.length = kinds.length = flags.length = valueStarts.length = values.length = 0;
  const names = new Map<number, string>();
  let p = from;
  const target = from + CHUNK_CHARS;
  for (;;) {
    const end = contentEnd(text, p, limit);
    const index = starts.length;
    starts.push(p - from);
    valueStarts.push(values.length);
    const kind = parseLine(text, p, end, firstLine + index === 0);
    kinds.push(kind);
    flags.push(line.flags);
    for (let i = 0; i < line.count; i++) values.push(line.values[i]);
    if (NAMED[kind] === 1 && line.nameStart >= 0) names.set(index, text.slice(line.nameStart, line.nameEnd));
    if (end >= text.length) {
      p = text.length;
      break;
    }
    p = afterTerminator(text, end);
    if (p >= limit && limit < text.length) break;
    if (p >= target && p < text.length) break;
  }
  starts.push(p - from);
  valueStarts.push(values.length);
  return {
    start: from,
    end: p,
    firstLine,
    lineCount: kinds.length,
    lineStart: starts.copy(),
    kind: kinds.copy(),
    flags: flags.copy(),
    valueStart: valueStarts.copy(),
    values: values.copy(),
    names,
  };
}

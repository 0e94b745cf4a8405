// An IQE document kept parsed across edits: the text is split into chunks of whole lines
// (chunk.ts), an edit re-parses only the chunks it touches and shifts the rest, and validation is
// one pass over the chunks' typed arrays (validate.ts). Parsing is lazy and can be done in slices
// (parseSome) so that a caller can yield and cancel between them.
import { type Chunk, parseChunk } from './chunk';
import type { IqeDiagnostic, ValidateOptions } from './diagnostic';
import { analyse, type Analysis } from './validate';
import { materialize } from './report';

export class IqeDocument {
  private source: string;
  private chunks: Chunk[] = [];
  /** Text offset up to which chunks exist, and whether they reach the end of the text. */
  private parsedEnd = 0;
  private complete = false;
  private analysis: Analysis | undefined;

  constructor(text: string) {
    this.source = text;
  }

  get text(): string {
    return this.source;
  }

  /** Number of lines parsed so far (all of them once parsing is complete). */
  get lineCount(): number {
    const last = this.chunks[this.chunks.length - 1];
    return last ? last.firstLine + last.lineCount : 0;
  }

  /**
   * Lines startLine..oldEndLine (0-based, inclusive) of the previous text became lines
   * startLine..newEndLine of `text`. Re-parses only the chunks that held the old lines.
   */
  update(text: string, startLine: number, oldEndLine: number, newEndLine: number): void {
    const delta = text.length - this.source.length;
    this.source = text;
    this.analysis = undefined;
    const first = this.chunkIndexOf(startLine);
    if (first < 0) {
      // The edit lies beyond what is parsed: the parsed chunks are untouched.
      if (this.complete) this.reset();
      return;
    }
    const last = this.chunkIndexOf(oldEndLine);
    if (last < 0) {
      // The edit reaches into the unparsed tail: drop the chunks from `first` on.
      this.parsedEnd = this.chunks[first].start;
      this.chunks.length = first;
      this.complete = false;
      return;
    }
    const lineDelta = newEndLine - oldEndLine;
    const from = this.chunks[first].start;
    const oldEnd = this.chunks[last].end;
    const reachedEnd = last === this.chunks.length - 1 && this.complete;
    const limit = reachedEnd ? text.length : oldEnd + delta;
    const expectedLines = this.chunks[last].firstLine + this.chunks[last].lineCount - this.chunks[first].firstLine + lineDelta;
    const replacement: Chunk[] = [];
    let p = from;
    let lineNumber = this.chunks[first].firstLine;
    for (;;) {
      const chunk = parseChunk(text, p, limit, lineNumber);
      replacement.push(chunk);
      lineNumber += chunk.lineCount;
      p = chunk.end;
      if (p >= limit) break;
    }
    const parsedLines = lineNumber - this.chunks[first].firstLine;
    if (parsedLines !== expectedLines || (!reachedEnd && p !== limit)) {
      // The edit changed line breaks in a way the line numbers do not describe (e.g. it joined
      // a lone CR with an LF): start again rather than keep wrong line numbers.
      this.reset();
      return;
    }
    for (let k = last + 1; k < this.chunks.length; k++) {
      this.chunks[k].start += delta;
      this.chunks[k].end += delta;
      this.chunks[k].firstLine += lineDelta;
    }
    this.chunks.splice(first, last - first + 1, ...replacement);
    this.parsedEnd += delta;
    if (reachedEnd) this.parsedEnd = text.length;
  }

  /** Parses up to about maxChars not-yet-parsed characters; true when nothing is left. */
  parseSome(maxChars: number): boolean {
    const stop = this.parsedEnd + Math.max(1, maxChars);
    while (!this.complete && this.parsedEnd < stop) {
      const last = this.chunks[this.chunks.length - 1];
      const chunk = parseChunk(this.source, this.parsedEnd, this.source.length, last ? last.firstLine + last.lineCount : 0);
      this.chunks.push(chunk);
      this.parsedEnd = chunk.end;
      this.complete = chunk.end >= this.source.length;
    }
    return this.complete;
  }

  /** Parses whatever is left and validates the whole document. */
  diagnostics(options: ValidateOptions = {}): IqeDiagnostic[] {
    return materialize(this.source, this.chunks, this.analyse(), options);
  }

  /** The parsed chunks (all of them) and the cross-line analysis, for the compiler and tests. */
  analyse(): Analysis {
    this.parseSome(Infinity);
    this.analysis ??= analyse(this.chunks);
    return this.analysis;
  }

  get parsedChunks(): readonly Chunk[] {
    this.parseSome(Infinity);
    return this.chunks;
  }

  private reset(): void {
    this.chunks = [];
    this.parsedEnd = 0;
    this.complete = false;
  }

  /** Index of the chunk holding `lineNumber`, or -1 when that line is not parsed yet. */
  private chunkIndexOf(lineNumber: number): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const chunk = this.chunks[mid];
      if (lineNumber < chunk.firstLine) high = mid - 1;
      else if (lineNumber >= chunk.firstLine + chunk.lineCount) low = mid + 1;
      else return mid;
    }
    return -1;
  }
}

/** Validates a whole text at once (the CLI and tests). */
export function validateIqe(text: string, options: ValidateOptions = {}): IqeDiagnostic[] {
  return new IqeDocument(text).diagnostics(options);
}

// An IQE document kept parsed across edits. The text is split into chunks of whole lines, each
// holding its own slice of the text (chunk.ts); an edit replaces the text of the chunks it touches,
// re-parses only them and shifts the line numbers of the rest, so the whole document string is
// never rebuilt or scanned again. Validation is one pass over the chunks' typed arrays and
// summaries (validate.ts). Parsing is lazy and can be done in slices (parseSome) so that a caller
// can yield and cancel between them.
import { type Chunk, chunkIndexOfLine, lineStartOf, LineScanner, parseChunk, parseChunks } from './chunk';
import type { IqeDiagnostic, ValidateOptions } from './diagnostic';
import { analyseInSteps, type Analysis, PassMemo } from './validate';
import { eachDiagnostic, materialize } from './report';
import { releaseNumberKernel } from './line';

export class IqeDocument {
  /** The text as given to the constructor or the last full update, and the unparsed part of it. */
  private initial: string;
  private initialScanner: LineScanner;
  private chunks: Chunk[] = [];
  /** Offset in `initial` up to which chunks exist, while parsing is not complete. */
  private parsedEnd = 0;
  private complete = false;
  /** How far edits of the parsed part have moved the unparsed tail of `initial` (characters). */
  private tailShift = 0;
  /** The current text when it is known as one string (undefined after edits, until asked for). */
  private joined: string | undefined;
  private analysis: Analysis | undefined;
  /** Each chunk's part of the last analysis, for the next one (only the chunks an edit touched are checked again). */
  private passMemo = new PassMemo();
  /** Grows with every change of the text: an analysis begun before a change is not cached. */
  private generation = 0;

  constructor(text: string) {
    this.initial = text;
    this.initialScanner = new LineScanner(text, text.includes('\r'));
    this.joined = text;
  }

  /** The whole current text (joined from the chunks after edits; costs a copy of the document). */
  get text(): string {
    if (this.joined === undefined) {
      this.parseSome(Infinity);
      this.joined = this.chunks.map((c) => c.text).join('');
    }
    return this.joined;
  }

  /** Whether the whole text is parsed (parseSome has nothing left to do). */
  get fullyParsed(): boolean {
    return this.complete;
  }

  /**
   * The chunks parsed so far, in order, without parsing more: the language server answers a hover
   * from them while the rest of a large document is still being parsed in slices.
   */
  get chunksSoFar(): readonly Chunk[] {
    return this.chunks;
  }

  /** Number of lines parsed so far (all of them once parsing is complete). */
  get lineCount(): number {
    const last = this.chunks[this.chunks.length - 1];
    return last ? last.firstLine + last.lineCount : 0;
  }

  /**
   * Applies one LSP-style edit: the text between (startLine, startCharacter) and (endLine,
   * endCharacter) (0-based; characters are UTF-16 offsets in the line) becomes `newText`. Only the
   * chunks holding those lines are re-parsed.
   */
  edit(startLine: number, startCharacter: number, endLine: number, endCharacter: number, newText: string): void {
    this.invalidateAnalysis();
    // An edit reaching into the unparsed tail has the text parsed up to its last line, no further
    // (the tail still parses from `initial`). It used to parse the whole text and start again, so
    // a burst of edits just after a file was opened parsed it whole once per edit (issue 17:
    // requests waited seconds behind them).
    this.parseThrough(Math.max(startLine, endLine));
    this.joined = undefined;
    let first = this.chunkIndexOf(startLine);
    let last = this.chunkIndexOf(endLine);
    if (first < 0 || last < 0) {
      // Past the last line: clamp to the end of the document, as LSP does.
      const lastIndex = this.chunks.length - 1;
      const lastChunk = this.chunks[lastIndex];
      const lastLine = lastChunk.firstLine + lastChunk.lineCount - 1;
      if (first < 0) {
        first = lastIndex;
        startLine = lastLine;
        startCharacter = Number.MAX_SAFE_INTEGER;
      }
      if (last < 0) {
        last = lastIndex;
        endLine = lastLine;
        endCharacter = Number.MAX_SAFE_INTEGER;
      }
    }
    this.replaceRange(first, last, startLine, startCharacter, endLine, endCharacter, newText);
  }

  /** The edit of edit(), once the chunks holding its start and end lines are known. */
  private replaceRange(first: number, last: number, startLine: number, startCharacter: number, endLine: number, endCharacter: number, newText: string): void {
    const a = this.chunks[first];
    const b = this.chunks[last];
    const startOffset = offsetInChunk(a, startLine - a.firstLine, startCharacter);
    const endOffset = offsetInChunk(b, endLine - b.firstLine, endCharacter);
    const region = a === b
      ? a.text.slice(0, startOffset) + newText + a.text.slice(Math.max(startOffset, endOffset))
      : a.text.slice(0, startOffset) + newText + b.text.slice(endOffset);
    this.replace(first, last, region);
  }

  /**
   * Lines startLine..oldEndLine (0-based, inclusive) of the previous text became lines
   * startLine..newEndLine of `text`. Re-parses only the chunks that held the old lines. (edit()
   * is cheaper: this one reads the new text of those chunks out of the whole new string.)
   */
  update(text: string, startLine: number, oldEndLine: number, newEndLine: number): void {
    this.invalidateAnalysis();
    this.joined = undefined;
    const first = this.chunkIndexOf(startLine);
    const last = this.chunkIndexOf(oldEndLine);
    const total = this.complete ? this.chunks[this.chunks.length - 1].end : -1;
    if (!this.complete || first < 0 || last < 0) {
      this.reset(text);
      return;
    }
    const delta = text.length - total;
    const regionEnd = last === this.chunks.length - 1 ? text.length : this.chunks[last].end + delta;
    this.replace(first, last, text.slice(this.chunks[first].start, regionEnd), newEndLine - oldEndLine);
    this.joined = text;
  }

  /** Parses on until line `lineNumber` (0-based) is parsed, or the text ends; no further. */
  parseThrough(lineNumber: number): void {
    while (!this.complete && this.chunkIndexOf(lineNumber) < 0) this.parseSome(1);
  }

  /** Parses up to about maxChars not-yet-parsed characters; true when nothing is left. */
  parseSome(maxChars: number): boolean {
    const stop = this.parsedEnd + Math.max(1, maxChars);
    while (!this.complete && this.parsedEnd < stop) {
      const last = this.chunks[this.chunks.length - 1];
      const chunk = parseChunk(this.initialScanner, this.parsedEnd, last ? last.firstLine + last.lineCount : 0, true);
      this.parsedEnd = chunk.end;
      this.complete = chunk.end >= this.initial.length;
      chunk.start += this.tailShift;
      chunk.end += this.tailShift;
      this.chunks.push(chunk);
    }
    if (this.complete && this.initial.length > 0) {
      // Chunks hold slices of the initial text; nothing else needs the scanner's copy.
      this.initialScanner = new LineScanner('', false);
      releaseNumberKernel();
    }
    return this.complete;
  }

  /** Parses whatever is left and validates the whole document. */
  diagnostics(options: ValidateOptions = {}): IqeDiagnostic[] {
    return materialize(this.parsedChunks, this.analyse(), options);
  }

  /**
   * The diagnostics of diagnostics(), made one at a time as they are asked for (the CLI's check
   * prints or streams them without holding them all). The document must not be edited meanwhile.
   */
  eachDiagnostic(options: ValidateOptions = {}): Generator<IqeDiagnostic, void, undefined> {
    return eachDiagnostic(this.parsedChunks, this.analyse(), options);
  }

  /** The cross-line analysis (cached until the next edit). */
  analyse(): Analysis {
    const steps = this.analyseInSteps();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * analyse() a step at a time (about a chunk of lines a step; validate.ts analyseInSteps), for a
   * caller that yields between steps. The result is cached only when no edit came meanwhile (a
   * caller should stop stepping after an edit: the steps read the chunks of before it).
   */
  *analyseInSteps(): Generator<void, Analysis, undefined> {
    this.parseSome(Infinity);
    if (this.analysis) return this.analysis;
    const generation = this.generation;
    const analysis = yield* analyseInSteps(this.chunks, true, this.passMemo);
    if (this.generation === generation) this.analysis = analysis;
    return analysis;
  }

  private invalidateAnalysis(): void {
    this.analysis = undefined;
    this.generation++;
  }

  /** All chunks, in order (parses what is left). */
  get parsedChunks(): readonly Chunk[] {
    this.parseSome(Infinity);
    return this.chunks;
  }

  /**
   * Replaces chunks first..last by the chunks parsed from `region`, their new text. When the
   * caller knows how the line count changes (`lineDelta`), a disagreement means line breaks were
   * joined across the region's border, and the document is parsed again from its whole text.
   */
  private replace(first: number, last: number, region: string, lineDelta?: number): void {
    const atEnd = last === this.chunks.length - 1;
    if (atEnd && !this.complete && region.endsWith('\r') && this.initial.charCodeAt(this.parsedEnd) === 10) {
      // A CR at the end of the parsed part meeting the LF that starts the unparsed tail.
      this.reset(this.joinedWith(first, last, region));
      return;
    }
    // A CR at the region's end and an LF at the next chunk's start are one line break: take the
    // next chunk in (and likewise an LF at the start after a CR before it).
    while (!atEnd && region.endsWith('\r') && this.chunks[last + 1].text.startsWith('\n')) {
      region += this.chunks[++last].text;
    }
    while (first > 0 && region.startsWith('\n') && this.chunks[first - 1].text.endsWith('\r')) {
      region = this.chunks[--first].text + region;
    }
    const documentEnd = this.complete && last === this.chunks.length - 1;
    const oldStart = this.chunks[first].start;
    const oldEnd = this.chunks[last].end;
    const oldLines = this.chunks[last].firstLine + this.chunks[last].lineCount - this.chunks[first].firstLine;
    const replacement = parseChunks(new LineScanner(region, region.includes('\r')), this.chunks[first].firstLine, documentEnd);
    releaseNumberKernel();
    for (const chunk of replacement) {
      chunk.start += oldStart;
      chunk.end += oldStart;
    }
    const newLines = replacement.reduce((lines, chunk) => lines + chunk.lineCount, 0);
    if (lineDelta !== undefined && newLines - oldLines !== lineDelta) {
      this.reset(this.joinedWith(first, last, region));
      return;
    }
    const charDelta = region.length - (oldEnd - oldStart);
    for (let k = last + 1; k < this.chunks.length; k++) {
      const chunk = this.chunks[k];
      chunk.start += charDelta;
      chunk.end += charDelta;
      chunk.firstLine += newLines - oldLines;
    }
    this.chunks.splice(first, last - first + 1, ...replacement);
    if (!this.complete) this.tailShift += charDelta;
  }

  /** The whole text with chunks first..last replaced by `region` (and the unparsed tail, if any). */
  private joinedWith(first: number, last: number, region: string): string {
    const texts = (chunks: Chunk[]): string => chunks.map((c) => c.text).join('');
    const tail = this.complete ? '' : this.initial.slice(this.parsedEnd);
    return texts(this.chunks.slice(0, first)) + region + texts(this.chunks.slice(last + 1)) + tail;
  }

  private reset(text: string): void {
    this.initial = text;
    this.initialScanner = new LineScanner(text, text.includes('\r'));
    this.joined = text;
    this.chunks = [];
    this.parsedEnd = 0;
    this.complete = false;
    this.tailShift = 0;
    this.passMemo = new PassMemo();
    this.invalidateAnalysis();
  }

  /** Index of the chunk holding `lineNumber`, or -1 when that line is not parsed yet. */
  private chunkIndexOf(lineNumber: number): number {
    return chunkIndexOfLine(this.chunks, lineNumber);
  }

}

/** Offset in chunk.text of (line, character), the character clamped to the line (LSP semantics). */
function offsetInChunk(chunk: Chunk, lineIndex: number, character: number): number {
  const start = lineStartOf(chunk, lineIndex);
  const next = lineStartOf(chunk, lineIndex + 1);
  let end = next;
  // The line's content ends before its terminator.
  if (end > start && chunk.text.charCodeAt(end - 1) === 10) end--;
  if (end > start && chunk.text.charCodeAt(end - 1) === 13) end--;
  return start + Math.max(0, Math.min(character, end - start));
}

/** Offset in `text` of (line, character), with LSP line breaks and clamping. */
export function offsetOfPosition(text: string, lineNumber: number, character: number): number {
  const scanner = new LineScanner(text, text.includes('\r'));
  let p = 0;
  for (let l = 0; l < lineNumber; l++) {
    const end = scanner.contentEnd(p, text.length);
    if (end >= text.length) return text.length;
    p = scanner.afterTerminator(end);
  }
  const end = scanner.contentEnd(p, text.length);
  return p + Math.max(0, Math.min(character, end - p));
}

/** Validates a whole text at once (the CLI and tests). */
export function validateIqe(text: string, options: ValidateOptions = {}): IqeDiagnostic[] {
  return new IqeDocument(text).diagnostics(options);
}

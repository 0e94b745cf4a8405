// Stage 0 of a compile from a stream of text (the CLI reads large files in blocks): parses whole
// lines into chunks as the text arrives, adds each chunk to the InputGatherer and keeps only what
// the cross-line analysis reads of it, so the whole text, and the parsed values of every line,
// are never held at once (IQE-SEMANTICS.md §11: the reference compiler's 181 MiB on a 73 MB file).
//
// The verdict is the editor's: the same chunks go through the same analysis (validate.ts), and
// line-local problems are read from each chunk's flags as it passes. A file with an error is not
// compiled; its diagnostics, which need the text for their columns, come from parsing it again
// as a whole (the caller does that: errors are rare and small files are the common case).
import { type Chunk, LineScanner, noValues, type Offsets, parseChunk } from '../iqe/chunk';
import { Cmd } from '../iqe/commands';
import { analysisHasError, lineHasError } from '../iqe/report';
import { analyse } from '../iqe/validate';
import { assertSameModel, InputGatherer, type SkinArrays } from './input';
import type { SourceModel } from './source';

/**
 * `triangleCount`: the triangles of the file's faces (also where the input does not keep them:
 * skinOnly); `skin`: skinOnly's positions and blend weights (the input's are then empty).
 */
export type IngestResult = { ok: true; input: SourceModel; triangleCount: number; skin?: SkinArrays } | { ok: false };

/** Text is parsed once this much of it is waiting (characters): about one chunk. */
const PARSE_AT = 32 * 1024;
const VB_SLOT = Cmd.Vb - Cmd.Vt;
/** The cross-line analysis reads the values of these lines: faces, fs, joints, vertexarrays, ... (not vertex attributes or poses). */
const FIRST_STRUCTURAL_WITH_VALUES = Cmd.Fa;

export class IqeIngest {
  /** Text not parsed yet: what came after the last complete line. */
  private pending = '';
  /** Document offset (characters) and line number of pending[0]. */
  private offset = 0;
  private line = 0;
  private readonly chunks: Chunk[] = [];
  private readonly gatherer: InputGatherer;
  /** The text after the first `comment` line, in pieces; null before that line. */
  private comment: string[] | null = null;
  /** Document line of the first `comment` command, -1 before it. */
  private commentLine = -1;
  private jointsSoFar = 0;
  private lineError = false;

  /**
   * `parseAt`: how much text (characters) waits before it is parsed (tests make it small);
   * `skinOnly`: the input keeps only what sample needs (InputGatherer).
   */
  constructor(private readonly parseAt = PARSE_AT, private readonly skinOnly = false) {
    this.gatherer = new InputGatherer(skinOnly);
  }

  /** The next piece of the text (any length; a line may be split across pieces). */
  push(text: string): void {
    if (this.pending.length + text.length < this.parseAt) {
      this.pending += text;
      return;
    }
    const last = afterLastCompleteLine(text);
    if (last <= 0) {
      this.pending += text;
      return;
    }
    // The line that was waiting ends in this piece: joined with its end, it is parsed on its own,
    // so that the rest of the piece is parsed where it is (joining it all would copy the piece).
    const first = afterFirstCompleteLine(text);
    this.parse(this.pending + text.slice(0, first), false);
    if (last > first) this.parse(text.slice(first, last), false);
    this.pending = text.slice(last);
  }

  /** The end of the text: the verdict, and the data when the file has no error. */
  finish(): IngestResult {
    this.parse(this.pending, true);
    this.pending = '';
    // Zero-area faces are a warning: the verdict does not need the positions for them.
    const analysis = analyse(this.chunks, false);
    this.chunks.length = 0;
    if (this.lineError || analysisHasError(analysis)) return { ok: false };
    const input = this.gatherer.finish(this.comment && this.comment.join(''));
    assertSameModel(input, analysis);
    return { ok: true, input, triangleCount: this.gatherer.triangleCount, ...(this.skinOnly ? { skin: this.gatherer.skinArrays() } : {}) };
  }

  private parse(text: string, documentEnd: boolean): void {
    const scanner = new LineScanner(text, text.includes('\r'));
    let p = 0;
    do {
      let chunk = parseChunk(scanner, p, this.line, documentEnd, true);
      // The chunk with the comment is kept whole (the analysis summarises it again up to the
      // comment): parsed again into arrays of its own.
      if (chunk.summary.commentLine >= 0) chunk = parseChunk(scanner, p, this.line, documentEnd);
      p = chunk.end;
      chunk.start += this.offset;
      chunk.end += this.offset;
      this.line += chunk.lineCount;
      this.take(chunk);
    } while (p < text.length);
    this.offset += text.length;
  }

  private take(chunk: Chunk): void {
    const { summary } = chunk;
    if (this.commentLine < 0 && summary.commentLine >= 0) this.commentLine = chunk.firstLine + summary.commentLine;
    // Line-local errors before the comment (the lines after it are comment text).
    for (let f = 0; f < chunk.flagged.length && !this.lineError; f++) {
      const i = chunk.flagged[f];
      if (this.commentLine >= 0 && chunk.firstLine + i > this.commentLine) break;
      if (lineHasError(chunk.flags[f])) this.lineError = true;
    }
    if (this.comment) {
      this.comment.push(chunk.text);
    } else {
      const at = this.gatherer.add(chunk);
      if (at >= 0) this.comment = [chunk.text.slice(at)];
    }
    this.jointsSoFar += summary.jointLines.length;
    this.chunks.push(summary.commentLine >= 0 ? chunk : this.stripped(chunk));
  }

  /**
   * The chunk as far as analyse() reads it for the verdict: kinds, summary (without positions),
   * names, and the values of structural lines only, in arrays of its own (the parsed chunk's are
   * the parser's scratch arrays). The values of `vb` lines stay when the blend check might read
   * them: when a joint index is negative, not below the joints seen so far (the final count is at
   * least that) or >= 256, or a line has no weight. Text, line starts and flags are dropped.
   */
  private stripped(chunk: Chunk): Chunk {
    const { kind, valueStart, values, summary: s } = chunk;
    const keepBlends =
      s.attributeCount[VB_SLOT] > 0 &&
      (s.blendJointMin < 0 || s.blendJointMax >= Math.min(this.jointsSoFar, 256) || s.emptyBlends > 0);
    const lineCount = chunk.lineCount;
    // Where each line's kept values start; most chunks (vertex attributes only, or poses) keep
    // none and share one array of zeros.
    let starts: Offsets = noValues(lineCount + 1);
    let kept = 0;
    if (s.structuralLines > 0 || keepBlends) {
      starts = new Int32Array(lineCount + 1);
      for (let i = 0; i < lineCount; i++) {
        starts[i] = kept;
        const k = kind[i];
        if (k >= FIRST_STRUCTURAL_WITH_VALUES || (keepBlends && k === Cmd.Vb)) kept += valueStart[i + 1] - valueStart[i];
      }
      starts[lineCount] = kept;
      if (kept === 0) starts = noValues(lineCount + 1);
    }
    const keptValues = new Float64Array(kept);
    for (let i = 0; kept > 0 && i < lineCount; i++) {
      for (let a = starts[i], b = valueStart[i]; a < starts[i + 1]; a++, b++) keptValues[a] = values[b];
    }
    const names = new Map<number, string>();
    // Copied, so that a name is not a slice that keeps the whole parsed text alive.
    for (const [i, name] of chunk.names) names.set(i, detached(name));
    return {
      ...chunk,
      summary: { ...s },
      kind: kind.slice(),
      text: '',
      lineMarks: EMPTY,
      lineMarkStep: 1,
      flags: EMPTY_FLAGS,
      flagged: EMPTY,
      valueStart: starts,
      values: keptValues,
      names,
    };
  }
}

/** A whole text held in memory through an ingest. */
export function ingestText(text: string): IngestResult {
  const ingest = new IqeIngest();
  ingest.push(text);
  return ingest.finish();
}

const EMPTY = new Int32Array(0);
const EMPTY_FLAGS = new Uint32Array(0);

/** A copy of a string that does not refer to the string it was sliced from. */
function detached(s: string): string {
  return s.length === 0 ? s : s.split('').join('');
}

/** Offset after the first line terminator of `text` that is surely complete (as below), 0 if none. */
function afterFirstCompleteLine(text: string): number {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (cr < 0 || (lf >= 0 && lf < cr)) return lf + 1;
  if (text.charCodeAt(cr + 1) === 10) return cr + 2;
  return cr + 1 < text.length ? cr + 1 : lf + 1;
}

/**
 * Offset after the last line terminator of `text` that is surely complete: `\n`, or a lone `\r`
 * that is not the last character (a final `\r` may be the first half of a `\r\n`). 0 if none.
 */
function afterLastCompleteLine(text: string): number {
  let cut = text.lastIndexOf('\n') + 1;
  // Lone CRs after the last LF (searched forward: a backward search would scan the whole text
  // when there is none).
  for (let cr = text.indexOf('\r', cut); cr >= 0 && cr < text.length - 1; cr = text.indexOf('\r', cr + 1)) cut = cr + 1;
  return cut;
}

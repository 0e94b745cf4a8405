// A chunk is a run of whole lines parsed into compact typed arrays: no object per line. A document
// is a list of chunks, so an edit re-parses only the chunks it touches (see document.ts). Each
// chunk also keeps a summary of what the cross-line analysis needs from it (counts, line numbers,
// joints, flagged lines), so that re-validating after an edit does not walk every line again.
import { attributeSlot, Cmd, isAttribute } from './commands';
import { endNumberKernel, kernelLines, kernelRun, KernelSummary, parseLine, line, rewindowNumberKernel, useNumberKernelForChunk } from './line';
import { float64s, type Growable, int32s, type NumberArray, uint32s, uint8s } from '../growable';

/** Target size of a chunk in characters: small enough that re-parsing one is well under 1 ms. */
export const CHUNK_CHARS = 32 * 1024;
/** Per-vertex attribute kinds other than `vp` (Vt..Vs). */
export const ATTRIBUTE_KINDS = 16;

export interface ChunkSummary {
  vpCount: number;
  /** Lines (in the chunk) of the first and last `vp`, -1 if none. */
  firstVp: number;
  lastVp: number;
  attributeCount: Int32Array;
  /** Line (in the chunk) of the first and the last line of each attribute kind, -1 if none. */
  attributeFirst: Int32Array;
  attributeLast: Int32Array;
  /** Lines (in the chunk) of the first 4-value and the first 6-value `vx`, -1 if none. */
  firstVx4: number;
  firstVx6: number;
  /** Lines that matter to the line-by-line analysis: anything but vertex attributes, blanks, comments. */
  structuralLines: number;
  /** Lines (in the chunk) of `joint` commands and their parents (-1 when not given). */
  jointLines: number[];
  jointParents: number[];
  hasAnimation: boolean;
  faceLines: number;
  /** Number of `vp` before each `mesh` command of the chunk, counted from the chunk's start. */
  meshVertexOffsets: number[];
  /** Lines (in the chunk) of `vertexarray` commands. */
  vertexarrayLines: number[];
  /** Line (in the chunk) of the first `comment` command, -1 if none. */
  commentLine: number;
  /** Smallest and largest joint index of any `vb`, and how many `vb` lines have no weight above 0.001. */
  blendJointMin: number;
  blendJointMax: number;
  emptyBlends: number;
}

/**
 * Ascending offsets, one per line and one more. A chunk is about CHUNK_CHARS characters, so most
 * fit 16 bits: per line, the arrays of a chunk are then 5 bytes (with `kind`) instead of 13, which
 * for a file of short lines is most of its parsed size (issue 17: memory <= 4x the text).
 */
export type Offsets = Int32Array | Uint16Array;

/**
 * A chunk's numbers: in 32 bits when every one of them is a float32 exactly (small integers,
 * halves: `vp 1 2 3`, face indices), else in 64. Reading gives the same numbers either way; a
 * file of short lines of such numbers held 8 bytes per number, twice its text (issue 17).
 */
export type Values = Float64Array | Float32Array;

export interface Chunk {
  /** The chunk's own text: its lines with their terminators. Offsets below are relative to it. */
  text: string;
  /** Offset of the chunk's first character in the document text. */
  start: number;
  /** Offset just after the chunk's last line terminator (or the text's end). */
  end: number;
  /** Document line number of the chunk's first line. */
  firstLine: number;
  lineCount: number;
  /**
   * Start in `text` of every `lineMarkStep`-th line (16 bits when the text is short enough);
   * lineStartOf() finds the others from there. A chunk of short lines only (all under
   * SHORT_LINE chars) keeps every LINE_MARK_STEP-th: a start per line cost more than such a file
   * holds in characters. Other chunks keep every line's start (step 1), so that a lookup never
   * scans a long line.
   */
  lineMarks: Offsets;
  lineMarkStep: number;
  kind: Uint8Array;
  /** Lines (in the chunk) with line-local problems, ascending. */
  flagged: Int32Array;
  /** The problem bits (LineProblem) of each line of `flagged`, in the same order (no entry per clean line). */
  flags: Uint32Array;
  /** Index of each line's first value in `values`, and one more entry: the total (16 bits when few enough). */
  valueStart: Offsets;
  values: Values;
  /** Names of mesh, material, joint, animation and vertexarray lines, by line index in the chunk. */
  names: Map<number, string>;
  summary: ChunkSummary;
}

// Scratch arrays of the chunk being parsed; each chunk gets exact copies.
const starts = int32s(4096);
const kinds = uint8s(4096);
const flags = uint32s(4096);
const flaggedLines = int32s(256);
const valueStarts = int32s(4096);
const values = float64s(16384);

/**
 * Finds line ends in one version of a text: the one line splitter of every IQE path (the editor's
 * document, check, info, sample, the compile and its streaming reader). Lines end at `\n`,
 * `\r\n` or a lone `\r`, as in LSP. The next `\n` and the next `\r` are each cached with the
 * offset they were searched from, so a text without one of them is searched for it only once
 * (a search per line ran to the end of the text each time: quadratic in a CR-only file), and a
 * scan that starts again before the cached offset searches again.
 */
export class LineScanner {
  private lfFrom = 0;
  /** Next `\n` at or after lfFrom, -1 if none, -2 if not searched yet. */
  private lfPos = -2;
  private crFrom = 0;
  private crPos = -2;

  /**
   * `hasCarriageReturns: false` promises that the text has no `\r` at all, so none is searched
   * for (the search runs to the end of the text, which an edit of a large LF-only file must not pay).
   */
  constructor(readonly text: string, hasCarriageReturns = true) {
    if (!hasCarriageReturns) this.crPos = -1;
  }

  /** End of the content of the line starting at `p` (before its terminator), at most `limit`. */
  contentEnd(p: number, limit: number): number {
    const text = this.text;
    if (this.lfPos === -2 || p < this.lfFrom || (this.lfPos >= 0 && this.lfPos < p)) {
      this.lfFrom = p;
      this.lfPos = text.indexOf('\n', p);
    }
    if (this.crPos === -2 || p < this.crFrom || (this.crPos >= 0 && this.crPos < p)) {
      this.crFrom = p;
      this.crPos = text.indexOf('\r', p);
    }
    let stop = limit;
    if (this.lfPos >= 0 && this.lfPos < stop) stop = this.lfPos;
    if (this.crPos >= 0 && this.crPos < stop) stop = this.crPos;
    return stop;
  }

  /** Offset after the terminator of a line whose content ends at `end` (the text's end if none). */
  afterTerminator(end: number): number {
    return afterTerminator(this.text, end);
  }
}

/** Lines per entry of Chunk.lineMarks in a chunk of short lines, and what is short (characters). */
export const LINE_MARK_STEP = 8;
const SHORT_LINE = 64;

/** Start in chunk.text of the chunk's line `index` (text.length for index >= lineCount). */
export function lineStartOf(chunk: Chunk, index: number): number {
  const text = chunk.text;
  if (index >= chunk.lineCount) return text.length;
  const step = chunk.lineMarkStep;
  if (step === 1) return chunk.lineMarks[index];
  let p = chunk.lineMarks[(index / step) | 0];
  for (let k = index % step; k > 0 && p < text.length; k--) p = afterTerminator(text, lineContentEnd(text, p, text.length));
  return p;
}

/**
 * End of the content of the one line at `p` (before its terminator), at most `limit`: a scan of
 * that line only, for a single lookup (a LineScanner searches ahead, to the end of the text when
 * it has no CR, which per looked-up line was quadratic in the chunk's size).
 */
export function lineContentEnd(text: string, p: number, limit: number): number {
  let c = 0;
  while (p < limit && (c = text.charCodeAt(p)) !== 10 && c !== 13) p++;
  return p;
}

/** Index of the chunk holding document line `lineNumber` (binary search), or -1 when none does. */
export function chunkIndexOfLine(chunks: readonly Chunk[], lineNumber: number): number {
  let low = 0;
  let high = chunks.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const chunk = chunks[mid];
    if (lineNumber < chunk.firstLine) high = mid - 1;
    else if (lineNumber >= chunk.firstLine + chunk.lineCount) low = mid + 1;
    else return mid;
  }
  return -1;
}

/** Offset after the line terminator at `end` (\n, \r\n or \r; the text's end if none). */
export function afterTerminator(text: string, end: number): number {
  if (end >= text.length) return end;
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}

/** How far past a chunk's target the kernel's window reaches, for the line that ends the chunk. */
const LAST_LINE_SLACK = 512;
/** The length of a window the kernel takes after a character that is not ASCII. */
const REWINDOW_CHARS = 8192;

/** Commands whose name the chunk keeps (a lookup table by Cmd). */
const NAMED = new Uint8Array(64);
for (const k of [Cmd.Mesh, Cmd.Material, Cmd.Joint, Cmd.Animation, Cmd.Vertexarray]) NAMED[k] = 1;

/**
 * Parses whole lines of scanner.text from `from` into one chunk, stopping after about CHUNK_CHARS
 * or at the end of the scanned text (which must end after a line terminator unless it is the end
 * of the document). `firstLine` is the document line number of the line at `from`. `documentEnd`
 * says the scanned text ends the document: then a final terminator is followed by one more, empty
 * line, as in LSP line numbering. A `transient` chunk's arrays are views of the parser's scratch
 * arrays, valid until the next call (for a caller that takes what it needs and drops the chunk).
 */
export function parseChunk(scanner: LineScanner, from: number, firstLine: number, documentEnd: boolean, transient = false): Chunk {
  const limit = scanner.text.length;
  const text = scanner.text;
  starts.length = kinds.length = flags.length = flaggedLines.length = valueStarts.length = values.length = 0;
  const names = new Map<number, string>();
  const summary = emptySummary();
  let p = from;
  let longest = 0;
  const target = from + CHUNK_CHARS;
  // Most chunks end by target; a line that runs far past it goes to JavaScript.
  useNumberKernelForChunk(text, from, target + LAST_LINE_SLACK);
  try {
    for (;;) {
      if (p >= limit && !documentEnd && p > from) break;
      // The lines the kernel parses whole (most of a file), then one in JavaScript.
      if (firstLine + kinds.length !== 0 && kernelLines(p, target, from, kinds.length, values.length) > 0) {
        const n = kernelRun.count;
        starts.append(kernelRun.starts, n);
        kinds.append(kernelRun.kinds, n);
        valueStarts.append(kernelRun.valueStarts, n);
        values.append(kernelRun.values, kernelRun.valueCount);
        addKernelSummary(summary);
        if (kernelRun.longest > longest) longest = kernelRun.longest;
        p = kernelRun.end;
        if (p >= target && p < limit) break;
        continue;
      }
      const end = scanner.contentEnd(p, limit);
      const index = kinds.length;
      starts.push(p - from);
      if (end - p > longest) longest = end - p;
      const v = values.length;
      valueStarts.push(v);
      const kind = parseLine(text, p, end, firstLine + index === 0);
      kinds.push(kind);
      if (line.flags !== 0) {
        flaggedLines.push(index);
        flags.push(line.flags);
      }
      const n = line.count;
      values.pushMany(line.values, n);
      if (NAMED[kind] === 1 && line.nameStart >= 0) names.set(index, text.slice(line.nameStart, line.nameEnd));
      summarise(summary, kind, index, line.values, 0, n);
      if (end >= text.length) {
        p = text.length;
        break;
      }
      p = scanner.afterTerminator(end);
      if (p >= target && p < limit) break;
      // Past a character that is not ASCII, where the kernel's window stopped: a new one, of a
      // few KB (the next such character may be near), at most to the chunk's end.
      rewindowNumberKernel(p, Math.min(p + REWINDOW_CHARS, target + LAST_LINE_SLACK));
    }
  } finally {
    endNumberKernel();
  }
  valueStarts.push(values.length);
  const take = <T extends NumberArray>(g: Growable<T>): T => (transient ? g.view() : g.copy());
  return {
    text: text.slice(from, p),
    start: from,
    end: p,
    firstLine,
    lineCount: kinds.length,
    lineMarks: transient ? starts.view() : longest < SHORT_LINE ? marks(starts) : offsets(starts),
    lineMarkStep: transient || longest >= SHORT_LINE ? 1 : LINE_MARK_STEP,
    kind: take(kinds),
    flags: take(flags),
    flagged: take(flaggedLines),
    // A chunk without values (blank lines, comments, bare commands) shares one array of zeros: for a
    // file of empty lines these offsets were most of its parsed size.
    valueStart: transient ? valueStarts.view() : values.length === 0 ? noValues(valueStarts.length) : offsets(valueStarts),
    values: transient ? values.view() : compactValues(values),
    names,
    summary,
  };
}

/**
 * Parses the whole of scanner.text into chunks, its first line being document line `firstLine`
 * (offsets are relative to the text). `documentEnd` as for parseChunk: without it the text must
 * end after a line terminator (the part of a document before another part).
 */
export function parseChunks(scanner: LineScanner, firstLine: number, documentEnd: boolean): Chunk[] {
  const chunks: Chunk[] = [];
  let p = 0;
  let lineNumber = firstLine;
  do {
    const chunk = parseChunk(scanner, p, lineNumber, documentEnd);
    chunks.push(chunk);
    lineNumber += chunk.lineCount;
    p = chunk.end;
  } while (p < scanner.text.length);
  return chunks;
}

let zeroOffsets = new Uint16Array(0);
/** `n` zero offsets: a view of one shared array, which nothing writes to. */
export function noValues(n: number): Uint16Array {
  if (zeroOffsets.length < n) zeroOffsets = new Uint16Array(Math.max(n, 2 * zeroOffsets.length, 4096));
  return zeroOffsets.subarray(0, n);
}

/** A copy of the values, in 32 bits when that keeps every one exactly (NaN too). */
function compactValues(g: Growable<Float64Array>): Values {
  const all = g.view();
  for (let i = 0; i < all.length; i++) {
    const v = all[i];
    if (Math.fround(v) !== v && v === v) return g.copy();
  }
  return new Float32Array(all);
}

/** A copy of ascending offsets, in 16 bits when the last one fits. */
function offsets(g: Growable<Int32Array>): Offsets {
  return g.length > 0 && g.data[g.length - 1] < 0x10000 ? new Uint16Array(g.view()) : g.copy();
}

/** Every LINE_MARK_STEP-th of the line starts, as offsets(). */
function marks(g: Growable<Int32Array>): Offsets {
  const all = g.view();
  const out = (all.length > 0 && all[all.length - 1] < 0x10000 ? new Uint16Array(Math.ceil(all.length / LINE_MARK_STEP)) : new Int32Array(Math.ceil(all.length / LINE_MARK_STEP)));
  for (let i = 0, k = 0; i < all.length; i += LINE_MARK_STEP, k++) out[k] = all[i];
  return out;
}

function emptySummary(): ChunkSummary {
  return {
    vpCount: 0,
    firstVp: -1,
    lastVp: -1,
    attributeCount: new Int32Array(ATTRIBUTE_KINDS),
    attributeFirst: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    attributeLast: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    firstVx4: -1,
    firstVx6: -1,
    structuralLines: 0,
    jointLines: [],
    jointParents: [],
    hasAnimation: false,
    faceLines: 0,
    meshVertexOffsets: [],
    vertexarrayLines: [],
    commentLine: -1,
    blendJointMin: Infinity,
    blendJointMax: -Infinity,
    emptyBlends: 0,
  };
}

/** Adds the kernel's last lines (kernelRun) to the chunk's summary, as summarise() adds the others. */
function addKernelSummary(s: ChunkSummary): void {
  const k = kernelRun.summary;
  const F = KernelSummary;
  const earliest = (a: number, b: number): number => (a < 0 ? b : b < 0 ? a : Math.min(a, b));
  s.vpCount += k[F.vpCount];
  s.firstVp = earliest(s.firstVp, k[F.firstVp]);
  s.lastVp = Math.max(s.lastVp, k[F.lastVp]);
  s.firstVx4 = earliest(s.firstVx4, k[F.firstVx4]);
  s.firstVx6 = earliest(s.firstVx6, k[F.firstVx6]);
  s.structuralLines += k[F.structuralLines];
  s.faceLines += k[F.faceLines];
  s.emptyBlends += k[F.emptyBlends];
  for (let slot = 0; slot < ATTRIBUTE_KINDS; slot++) {
    s.attributeCount[slot] += k[F.attributeCount + slot];
    s.attributeFirst[slot] = earliest(s.attributeFirst[slot], k[F.attributeFirst + slot]);
    s.attributeLast[slot] = Math.max(s.attributeLast[slot], k[F.attributeLast + slot]);
  }
  s.blendJointMin = Math.min(s.blendJointMin, kernelRun.blendJoints[0]);
  s.blendJointMax = Math.max(s.blendJointMax, kernelRun.blendJoints[1]);
}

/**
 * The summary of the chunk's lines before line `stop` only: for the chunk that holds the
 * `comment` command, whose later lines are comment text.
 */
export function summariseUpTo(chunk: Chunk, stop: number): ChunkSummary {
  const summary = emptySummary();
  for (let i = 0; i < stop; i++) {
    const v = chunk.valueStart[i];
    summarise(summary, chunk.kind[i] as Cmd, i, chunk.values, v, chunk.valueStart[i + 1] - v);
  }
  return summary;
}

/** Adds a line (its numbers are values[v, v + n)) to a chunk's summary. */
function summarise(s: ChunkSummary, kind: Cmd, index: number, values: Values, v: number, n: number): void {
  if (kind >= Cmd.Pq) s.structuralLines++;
  switch (kind) {
    case Cmd.Vp:
      if (s.firstVp < 0) s.firstVp = index;
      s.lastVp = index;
      s.vpCount++;
      return;
    case Cmd.Vb: {
      // Review fix: a vb whose weights are all dropped (<= 0.001) has no weight either, like an
      // empty one (§9.2 weights-invalid; it was a line-local warning even in static models).
      let weighted = false;
      for (let i = 0; i + 1 < n; i += 2) {
        const joint = values[v + i];
        if (joint < s.blendJointMin) s.blendJointMin = joint;
        if (joint > s.blendJointMax) s.blendJointMax = joint;
        if (values[v + i + 1] > 0.001) weighted = true;
      }
      if (!weighted) s.emptyBlends++;
      break;
    }
    case Cmd.Vx:
      if (n >= 5) {
        if (s.firstVx6 < 0) s.firstVx6 = index;
      } else if (s.firstVx4 < 0) s.firstVx4 = index;
      break;
    case Cmd.Fa:
    case Cmd.Fm:
      s.faceLines++;
      return;
    default:
      if (kind >= Cmd.Smoothgroup) {
        summariseStructure(s, kind, index, values, v, n);
        return;
      }
  }
  if (isAttribute(kind)) {
    const slot = attributeSlot(kind);
    if (s.attributeCount[slot]++ === 0) s.attributeFirst[slot] = index;
    s.attributeLast[slot] = index;
  }
}

/**
 * summarise() of the commands from `smoothgroup` on. One call site for all of them: the first ones
 * (joint, mesh) come before the bulk of a file, so that the optimised summarise() has seen it,
 * and a later first `animation` line does not send it back to unoptimised code.
 */
function summariseStructure(s: ChunkSummary, kind: Cmd, index: number, values: Values, v: number, n: number): void {
  switch (kind) {
    case Cmd.Joint:
      s.jointLines.push(index);
      s.jointParents.push(n > 0 ? values[v] : -1);
      return;
    case Cmd.Animation:
      s.hasAnimation = true;
      return;
    case Cmd.Mesh:
      s.meshVertexOffsets.push(s.vpCount);
      return;
    case Cmd.Vertexarray:
      s.vertexarrayLines.push(index);
      return;
    case Cmd.Comment:
      if (s.commentLine < 0) s.commentLine = index;
      return;
    default:
      return;
  }
}

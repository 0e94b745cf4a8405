// Parses one IQE line the way the reference compiler reads it (IQE-SEMANTICS.md §2-3), and notes
// the line-local problems of §9.2. The result goes to module-level scratch buffers (no allocation
// per line): the chunk builder copies what it keeps, and the validator re-parses a flagged line to
// learn the columns of its problems, so the hot path never tracks more than it must.
import { attributeSlot, Cmd, COMMAND_NAMES, isAttribute, twoLetterCommand, wordCommand, VERTEXARRAY_FORMATS, VERTEXARRAY_TYPES } from './commands';
import { isAsciiSpace, scanInteger, scanReal, scanned } from './numbers';
import { POW10 } from '../decimal';
import { loadKernel } from '../wasm';
import numbersWasm from '../../wasm/numbers.wasm';

/** Line-local problems, one bit each; a line reports each at most once (the first occurrence). */
export enum LineProblem {
  Header = 0,
  NumberInvalid,
  NumberNonFinite,
  LineTooLong,
  UnknownCommand,
  UnterminatedQuote,
  QuaternionZero,
  QuaternionNotUnit,
  PmDegenerate,
  PmNotOrthogonal,
  VertexarrayType,
  VertexarrayFormat,
  VertexarraySize,
  VxW,
  CommentTrailingText,
  WeightDropped,
  WeightDuplicateJoint,
  WeightNone,
  BlendInfluences,
  FaceTooFew,
  Polygon,
  FsTooFew,
  SmoothangleReference,
  JointParentNegative,
  ValueMissing,
  FramerateNegative,
}
export const LINE_PROBLEM_COUNT = 26;

/** The most bytes of a line the reference reads at once (fgets into 512 bytes, §2.1). */
export const MAX_LINE_BYTES = 511;

const MAX_VALUES = 4096;

export const line = {
  /** Parsed numbers of the line, in order; for `vertexarray`: type, format, size (-1 = unknown/missing). */
  values: new Float64Array(MAX_VALUES),
  /** Column span of each value (start, end), relative to the text. */
  spans: new Int32Array(MAX_VALUES * 2),
  count: 0,
  flags: 0,
  /** Span of the first occurrence of each problem, and a number for its message. */
  problemStart: new Int32Array(LINE_PROBLEM_COUNT),
  problemEnd: new Int32Array(LINE_PROBLEM_COUNT),
  problemArg: new Float64Array(LINE_PROBLEM_COUNT),
  /** The command word's span. */
  commandStart: 0,
  commandEnd: 0,
  /** Name (mesh, material, joint, animation, vertexarray NAME) span, without quotes; -1 = none. */
  nameStart: -1,
  nameEnd: -1,
  /** vertexarray TYPE and FORMAT word spans. */
  typeStart: -1,
  typeEnd: -1,
  formatStart: -1,
  formatEnd: -1,
};

/**
 * How many lines parseLine has read since the process started: a check must read each line a
 * small, fixed number of times whatever the line holds (a test reads this; one add per line).
 * `inKernel`: how many of them the kernel parsed whole (kernelLines).
 */
export const parseCount = { lines: 0, inKernel: 0 };

let text = '';
let cursor = 0;
let lineEnd = 0;

function flag(problem: LineProblem, start: number, end: number, arg = 0): void {
  const bit = 1 << problem;
  if (line.flags & bit) return;
  line.flags |= bit;
  line.problemStart[problem] = start;
  line.problemEnd[problem] = end;
  line.problemArg[problem] = arg;
}

function skipSpace(p: number): number {
  while (p < lineEnd && isAsciiSpace(text.charCodeAt(p))) p++;
  return p;
}

function tokenEnd(p: number): number {
  while (p < lineEnd && !isAsciiSpace(text.charCodeAt(p))) p++;
  return p;
}

function push(value: number, start: number, end: number): void {
  const i = line.count;
  if (i >= MAX_VALUES) return;
  line.values[i] = value;
  line.spans[2 * i] = start;
  line.spans[2 * i + 1] = end;
  line.count = i + 1;
}

/** After a number at [start, end): it must end its token; a glued suffix (`1,5`, `0/1`) is invalid. */
function checkNumberEnd(start: number, end: number): void {
  if (end < lineEnd && !isAsciiSpace(text.charCodeAt(end))) flag(LineProblem.NumberInvalid, start, tokenEnd(end));
}


/**
 * Reads up to `max` numbers at the cursor, each as a separate token, as strtod does (or strtol
 * for `integers`); returns how many parsed (it stops at the first that does not, leaving the
 * cursor before it). The usual token, [sign] digits [. digits] with at most 15 digits (9 for an
 * integer, no fraction) and whitespace or the line's end after it, is read in this loop with
 * scanReal's exact arithmetic (an integer mantissa below 2^53 over a power of ten): this runs for
 * every number of a file, mostly before it is optimised, so it makes no calls. The mantissa is
 * summed in two int32 parts so that it never overflows int32. Anything else goes to scanReal or
 * scanInteger (readRealSlow, readIntegerSlow).
 */
function readNumbers(max: number, integers: boolean): number {
  if (kernelOn && lineEnd <= kernelEnd) return readNumbersKernel(max, integers);
  const most = integers ? 9 : 15;
  for (let i = 0; i < max; i++) {
    let p = cursor;
    let c = 0;
    while (p < lineEnd) {
      c = text.charCodeAt(p);
      if (c !== 32 && (c < 9 || c > 13)) break;
      p++;
    }
    const start = p;
    // Nothing left on the line: nothing reads (and no problem to note).
    if (p === lineEnd) return i;
    const negative = c === 45;
    if (negative || c === 43) p++;
    let high = 0;
    let low = 0;
    let digits = 0;
    // Digits before the `.` (-1: none yet).
    let point = -1;
    while (p < lineEnd) {
      c = text.charCodeAt(p) - 48;
      if (c < 0 || c > 9) {
        if (c !== 46 - 48 || integers || point >= 0) break;
        point = digits;
        p++;
        continue;
      }
      if (digits < 9) high = high * 10 + c;
      else if (digits < 15) low = low * 10 + c;
      p++;
      digits++;
    }
    const scale = point >= 0 ? digits - point : 0;
    if (digits > 0 && digits <= most && (p === lineEnd || c === 32 - 48 || (c >= 9 - 48 && c <= 13 - 48))) {
      let value: number;
      if (integers) {
        // strtol has no negative zero.
        value = negative && high !== 0 ? -high : high;
      } else {
        const mantissa = digits <= 9 ? high : high * POW10[digits - 9] + low;
        const quotient = scale === 0 ? mantissa : mantissa / POW10[scale];
        value = negative ? -quotient : quotient;
      }
      // Stored here rather than by a function: no call per number.
      const k = line.count;
      if (k < MAX_VALUES) {
        line.values[k] = value;
        line.spans[2 * k] = start;
        line.spans[2 * k + 1] = p;
        line.count = k + 1;
      }
      cursor = p;
      continue;
    }
    if (!(integers ? readIntegerSlow(start) : readRealSlow(start))) return i;
  }
  return max;
}

/** wasm/numbers.ts's exports. */
interface NumbersKernel {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  read(cursor: number, lineEnd: number, max: number, integers: number, base: number): number;
  parseLines(p: number, windowEnd: number, target: number, base: number, from: number, index: number, valueBase: number): number;
  valuesAddress(): number;
  spansAddress(): number;
  stateAddress(): number;
  runValuesAddress(): number;
  runStartsAddress(): number;
  runValueStartsAddress(): number;
  runKindsAddress(): number;
  summaryAddress(): number;
  tablesAddress(): number;
  textAddress(): number;
}
const numbersSlot: { kernel?: NumbersKernel | null } = {};
/** The kernel's memory holds this many characters of a text: a larger one goes there a window at a time. */
const KERNEL_TEXT_CHARS = 1 << 20;
/**
 * The text whose window [kernelBase, kernelEnd) is in the kernel's memory, and views of that
 * memory; set up on first use. A window stops before the first character that is not ASCII (it
 * would take more than a byte, and offsets would differ): kernelFinal says it stops there or at
 * the text's end, so that a window made from any later offset before it would stop there too.
 */
let kernelText: string | null = null;
let kernelBase = 0;
let kernelEnd = 0;
let kernelFinal = false;
/** Whether a window of this text stopped at a character that is not ASCII. */
let kernelCutShort = false;
let kernelState = new Int32Array(8);
let kernelBytes = new Uint8Array(0);
/** Whether readNumbers goes to the kernel: between useNumberKernel and endNumberKernel, for the text given there. */
let kernelOn = false;
let numbersKernel: NumbersKernel | null = null;

interface Encoder {
  encodeInto(source: string, into: Uint8Array): { read: number; written: number };
}
const TextEncoderClass = (globalThis as { TextEncoder?: new () => Encoder }).TextEncoder;
const encoder = TextEncoderClass ? new TextEncoderClass() : null;

/**
 * The lines parsed from now until endNumberKernel() are of `source` from offset `from`, mostly
 * before `upTo` (parseChunk's text and chunk): their numbers are read by the WebAssembly kernel
 * (wasm/numbers.ts: the same values) where it is to be had, and by readNumbers' JavaScript, as
 * always, for a line that ends past the window of the text the kernel holds. The window: from the
 * first chunk that needs it, up to KERNEL_TEXT_CHARS characters (a small text whole, once; a
 * large one, as `check` reads, a window at a time) and up to the first character that is not
 * ASCII. Each character is copied about once, whatever the text holds.
 */
export function useNumberKernel(source: string, from = 0, upTo = source.length): void {
  kernelOn = false;
  if (!encoder) return;
  const kernel = loadKernel(numbersSlot, numbersWasm);
  if (!kernel) return;
  if (kernel !== numbersKernel) {
    // Grown once to its full size, so that the views below stay valid.
    const bytes = kernel.textAddress() + KERNEL_TEXT_CHARS;
    if (kernel.memory.buffer.byteLength < bytes) kernel.memory.grow(Math.ceil((bytes - kernel.memory.buffer.byteLength) / 65536));
    const buffer = kernel.memory.buffer;
    line.values = new Float64Array(buffer, kernel.valuesAddress(), MAX_VALUES);
    line.spans = new Int32Array(buffer, kernel.spansAddress(), 2 * MAX_VALUES);
    kernelState = new Int32Array(buffer, kernel.stateAddress(), 8);
    kernelBytes = new Uint8Array(buffer, kernel.textAddress(), KERNEL_TEXT_CHARS);
    const runLines = (kernel.runKindsAddress() - kernel.runValueStartsAddress()) / 4;
    kernelRun.starts = new Int32Array(buffer, kernel.runStartsAddress(), runLines);
    kernelRun.valueStarts = new Int32Array(buffer, kernel.runValueStartsAddress(), runLines);
    kernelRun.kinds = new Uint8Array(buffer, kernel.runKindsAddress(), runLines);
    kernelRun.values = new Float64Array(buffer, kernel.runValuesAddress(), (kernel.runStartsAddress() - kernel.runValuesAddress()) / 8);
    kernelRun.summary = new Int32Array(buffer, kernel.summaryAddress(), KERNEL_SUMMARY_FIELDS);
    kernelRun.blendJoints = new Float64Array(buffer, kernel.summaryAddress() + 4 * KERNEL_SUMMARY_FIELDS, 2);
    fillKernelTables(new Uint8Array(buffer, kernel.tablesAddress(), 128 * 128 + 3 * 64));
    numbersKernel = kernel;
    kernelText = null;
  }
  const needed = Math.min(upTo, source.length);
  const sameText = source === kernelText;
  const reuse = sameText && from >= kernelBase && from < kernelEnd && (needed <= kernelEnd || kernelFinal);
  if (!reuse) {
    // After a window that stopped at a character that is not ASCII, the windows of this text
    // are as long as the chunk needs: a text with such characters all through it is then copied
    // about twice, not a whole window per chunk.
    const small = sameText && kernelCutShort;
    const length = small ? needed - from : KERNEL_TEXT_CHARS;
    const window = from === 0 && source.length <= length ? source : source.slice(from, from + length);
    const { read, written } = encoder.encodeInto(window, kernelBytes);
    let ascii = read;
    if (written !== read) {
      // The bytes before the first character that is not ASCII are its characters.
      ascii = 0;
      while (ascii < written && kernelBytes[ascii] < 0x80) ascii++;
    }
    // Short of the window's end only at such a character (the memory holds the whole window).
    const cut = ascii < window.length;
    kernelText = source;
    kernelBase = from;
    kernelEnd = from + ascii;
    kernelCutShort = small || cut;
    kernelFinal = cut || kernelEnd === source.length;
    rewindowBudget -= window.length;
  }
  kernelOn = kernelEnd > from;
}

/**
 * Characters that windows made by rewindowNumberKernel may still copy in the current chunk: four
 * times the chunk's text, so that a text with characters that are not ASCII on every line is
 * copied a few times over, not once per line.
 */
let rewindowBudget = 0;

/** useNumberKernel for a chunk (parseChunk): its window, and the budget of rewindowNumberKernel. */
export function useNumberKernelForChunk(source: string, from: number, upTo: number): void {
  useNumberKernel(source, from, upTo);
  rewindowBudget = 4 * (Math.min(upTo, source.length) - from);
}

/**
 * After a line that ended past the kernel's window, where the window stopped at a character that
 * is not ASCII: a new window from `p` (the start of the next line, up to `upTo`), so that the
 * chunk's later lines go to the kernel again rather than all to JavaScript; within the chunk's
 * budget (above).
 */
export function rewindowNumberKernel(p: number, upTo: number): void {
  if (kernelText === null || !kernelCutShort || p < kernelEnd || p >= kernelText.length) return;
  if (rewindowBudget < Math.min(upTo, kernelText.length) - p) return;
  useNumberKernel(kernelText, p, upTo);
}

/**
 * Where each field of the kernel's chunk summary is in kernelRun.summary (wasm/numbers.ts
 * SUMMARY, in the same order): counts and line numbers (-1: none), then 16 each of the attribute
 * counts, first lines and last lines, by attribute slot.
 */
export const KernelSummary = {
  vpCount: 0,
  firstVp: 1,
  lastVp: 2,
  firstVx4: 3,
  firstVx6: 4,
  structuralLines: 5,
  faceLines: 6,
  emptyBlends: 7,
  attributeCount: 8,
  attributeFirst: 24,
  attributeLast: 40,
} as const;
/** How many i32 fields KernelSummary spans (the attribute fields are 16 each). */
const KERNEL_SUMMARY_FIELDS = 56;

/**
 * What the last kernelLines() call parsed: `count` lines (their starts in the chunk, commands and
 * first values), their values, the offset after them, and what they add to the chunk's summary.
 * Views of the kernel's memory.
 */
export const kernelRun = {
  count: 0,
  valueCount: 0,
  /** The longest of the lines, without its terminator. */
  longest: 0,
  end: 0,
  starts: new Int32Array(0),
  kinds: new Uint8Array(0),
  valueStarts: new Int32Array(0),
  values: new Float64Array(0),
  /** The fields of KernelSummary. */
  summary: new Int32Array(0),
  /** The smallest and the largest joint of the kernel's `vb` lines. */
  blendJoints: new Float64Array(0),
};

/**
 * The kernel's tables (wasm/numbers.ts): the command of each two-letter word it takes, how it
 * reads each command's arguments and what each adds to a chunk's summary, as parseLine,
 * parseArguments and chunk.ts summarise() do.
 */
function fillKernelTables(tables: Uint8Array): void {
  const MODE = 128 * 128, ROLE = MODE + 64, BLANK_HASH = ROLE + 64;
  const REALS_MAX = 15, QUATERNION = 16, VX = 17, TRIANGLE = 18, BLEND = 19;
  const NO_SLOT = 31, VP = 32, STRUCTURAL = 64, FACE = 128;
  for (let k = 0; k < 64; k++) {
    let mode = REAL_COUNT[k] <= REALS_MAX ? REAL_COUNT[k] : 0;
    if (k === Cmd.Pq) mode = QUATERNION;
    else if (k === Cmd.Vx) mode = VX;
    else if (k === Cmd.Pm) mode = 0;
    else if (k === Cmd.Fa || k === Cmd.Fm) mode = TRIANGLE;
    else if (k === Cmd.Vb) mode = BLEND;
    tables[MODE + k] = mode;
    tables[ROLE + k] = (isAttribute(k) ? attributeSlot(k) : NO_SLOT) | (k === Cmd.Vp ? VP : 0) | (k >= Cmd.Pq ? STRUCTURAL : 0) | (k === Cmd.Fa || k === Cmd.Fm ? FACE : 0);
  }
  // The two-letter words (the rest of the table stays 0: the memory starts zeroed). A loop over
  // every pair of characters was optimised by V8 while it ran, which cost 4 MB of peak memory.
  for (const [kind, name] of Object.entries(COMMAND_NAMES)) {
    const k = Number(kind);
    if (name.length === 2 && twoLetterCommand(name.charCodeAt(0), name.charCodeAt(1)) === k && tables[MODE + k] !== 0) tables[name.charCodeAt(0) * 128 + name.charCodeAt(1)] = k;
  }
  tables[BLANK_HASH] = Cmd.Blank;
  tables[BLANK_HASH + 1] = Cmd.Hash;
}

/**
 * Parses in the kernel the lines from offset `p` of useNumberKernel's text that it takes whole
 * (wasm/numbers.ts parseLines: blank and `#` lines, and vertex, pose and triangle lines in which
 * parseLine would note nothing), while they start before `target`: `index` is the chunk's line
 * number of the line at `p`, `from` the chunk's start, `valueBase` its values so far. The lines
 * are in kernelRun; returns their count (0: the line at `p` is for parseLine).
 */
export function kernelLines(p: number, target: number, from: number, index: number, valueBase: number): number {
  kernelRun.count = 0;
  if (!kernelOn || p < kernelBase || p >= kernelEnd) return 0;
  const count = numbersKernel!.parseLines(p, kernelEnd, target, kernelBase, from, index, valueBase);
  kernelRun.count = count;
  kernelRun.end = kernelState[4];
  kernelRun.valueCount = kernelState[5];
  kernelRun.longest = kernelState[6];
  parseCount.lines += count;
  parseCount.inKernel += count;
  return count;
}

/** Whether readNumbers goes to the kernel now (tests). */
export function numberKernelOn(): boolean {
  return kernelOn;
}

/** The end of useNumberKernel's lines. */
export function endNumberKernel(): void {
  kernelOn = false;
}

/**
 * The caller parsed its last chunk of the text: the kernel forgets it (a large document is not
 * kept alive for the next text; that one is copied to the kernel anew, as any other text is).
 */
export function releaseNumberKernel(): void {
  kernelText = null;
  kernelOn = false;
}

/** readNumbers through the kernel: its fast path there, the tokens it leaves to the exact scanners here. */
function readNumbersKernel(max: number, integers: boolean): number {
  const kernel = numbersKernel!;
  const state = kernelState;
  let i = 0;
  for (;;) {
    state[0] = line.count;
    i += kernel.read(cursor, lineEnd, Math.min(max - i, 0x7fffffff), integers ? 1 : 0, kernelBase);
    line.count = state[0];
    cursor = state[1];
    if (state[3] === 0 || i >= max) return i;
    if (!(integers ? readIntegerSlow(state[2]) : readRealSlow(state[2]))) return i;
    i++;
  }
}

/** A real at `start` that the fast path of readNumbers does not take (exponents, hex, inf, nan, long mantissas, glued text). */
function readRealSlow(start: number): boolean {
  const end = scanReal(text, start, lineEnd);
  if (end < 0) {
    if (start < lineEnd) flag(LineProblem.NumberInvalid, start, tokenEnd(start));
    return false;
  }
  const value = scanned.value;
  if (!Number.isFinite(value)) flag(LineProblem.NumberNonFinite, start, end);
  push(value, start, end);
  checkNumberEnd(start, end);
  cursor = end;
  return true;
}

/** Reads a real at the cursor as strtod does; false when nothing parses (the cursor stays). */
function readReal(): boolean {
  return readNumbers(1, false) === 1;
}

function readIntegerSlow(start: number): boolean {
  const end = scanInteger(text, start, lineEnd);
  if (end < 0) {
    if (start < lineEnd) flag(LineProblem.NumberInvalid, start, tokenEnd(start));
    return false;
  }
  push(scanned.value, start, end);
  checkNumberEnd(start, end);
  cursor = end;
  return true;
}

/** Reads a base-10 integer at the cursor as strtol does; false when nothing parses. */
function readInteger(): boolean {
  return readNumbers(1, true) === 1;
}

/** A name as `trimname` reads it (§2.5): quoted up to the next quote, else up to whitespace. */
function readName(): void {
  const start = skipSpace(cursor);
  if (start < lineEnd && text.charCodeAt(start) === 34 /* " */) {
    const close = text.indexOf('"', start + 1);
    if (close < 0 || close >= lineEnd) {
      // Ours (B12): the name ends at the end of the line, without the terminator.
      flag(LineProblem.UnterminatedQuote, start, lineEnd);
      line.nameStart = start + 1;
      line.nameEnd = lineEnd;
      cursor = lineEnd;
    } else {
      line.nameStart = start + 1;
      line.nameEnd = close;
      cursor = close + 1;
    }
    return;
  }
  const end = tokenEnd(start);
  line.nameStart = start;
  line.nameEnd = end;
  cursor = end;
}

/** A whitespace-delimited word matched case-insensitively against `names`; -1 if absent or unknown. */
function readKeyword(names: readonly string[], problem: LineProblem): { index: number; start: number; end: number } {
  const start = skipSpace(cursor);
  const end = tokenEnd(start);
  cursor = end;
  if (start === end) {
    // Review fix: a missing word is reported once, at the command word (as value-missing; arg NaN
    // marks it for the message), not as an empty range at the end of the line, and the words
    // after it (missing too) are not reported again.
    if (!vertexarrayMissing) flag(problem, line.commandStart, line.commandEnd, NaN);
    vertexarrayMissing = true;
    return { index: -1, start, end };
  }
  const index = names.indexOf(text.slice(start, end).toLowerCase());
  if (index < 0) flag(problem, start, end);
  return { index, start, end };
}

function isLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 97 && l <= 122;
}

/** True when the first `#` of the line starts `# Inter-Quake Export` (§2.2). */
function isHeader(start: number): boolean {
  const hash = text.indexOf('#', start);
  if (hash < 0 || hash >= lineEnd) return false;
  return text.startsWith('# Inter-Quake Export', hash) && hash + 20 <= lineEnd;
}

/** UTF-8 length of text[start, end) (names are raw bytes in the reference's 512-byte buffer). */
function utf8Length(start: number, end: number): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/** Offset of the character that holds UTF-8 byte `byte` of text[start, end) (end if none). */
function byteColumn(start: number, end: number, byte: number): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : c >= 0xdc00 && c <= 0xdfff ? 0 : 3;
    if (bytes + size > byte) return i;
    bytes += size;
  }
  return end;
}

/**
 * Parses text[start, end) (a line without its terminator) and returns its command; numbers,
 * spans and problems are left in `line`. `first` marks the file's first line (the header).
 */
export function parseLine(source: string, start: number, end: number, first: boolean): Cmd {
  parseCount.lines++;
  text = source;
  lineEnd = end;
  line.count = 0;
  line.flags = 0;
  line.nameStart = line.nameEnd = -1;
  if (end - start > MAX_LINE_BYTES / 3 && utf8Length(start, end) > MAX_LINE_BYTES) {
    // Review fix: the tail starts at the character holding byte 511 (UTF-8), not at UTF-16
    // column 511, which for non-ASCII text was at or past the end (an empty range).
    flag(LineProblem.LineTooLong, byteColumn(start, end, MAX_LINE_BYTES), end, utf8Length(start, end));
  }
  // Review fix: a UTF-8 BOM before the header is accepted (§2.2); it is not a command word.
  const p = skipSpace(first && start < end && text.charCodeAt(start) === 0xfeff ? start + 1 : start);
  if (first) {
    if (isHeader(start)) {
      // Review fix: the reference reads the header line on its own and never as a command, so
      // text before its `#` (accepted, §2.2) is not an unknown command.
      line.commandStart = p;
      line.commandEnd = tokenEnd(p);
      return Cmd.Hash;
    }
    flag(LineProblem.Header, p, tokenEnd(p));
  }
  line.commandStart = p;
  if (p >= end) {
    line.commandEnd = p;
    return Cmd.Blank;
  }
  const c0 = text.charCodeAt(p);
  if (c0 === 35 /* # */) {
    line.commandEnd = p + 1;
    return Cmd.Hash;
  }
  let kind = Cmd.Unknown;
  if (isLetter(c0) && p + 1 < end) {
    const c1 = text.charCodeAt(p + 1);
    if ((isLetter(c1) || (c1 >= 48 && c1 <= 57)) && (p + 2 === end || isAsciiSpace(text.charCodeAt(p + 2)))) {
      kind = twoLetterCommand(c0, c1);
      line.commandEnd = p + 2;
    }
  }
  if (kind === Cmd.Unknown) {
    const wordEnd = tokenEnd(p);
    line.commandEnd = wordEnd;
    kind = wordCommand(text.slice(p, wordEnd));
    if (kind === Cmd.Unknown) {
      flag(LineProblem.UnknownCommand, p, wordEnd);
      return kind;
    }
  }
  cursor = line.commandEnd;
  parseArguments(kind);
  return kind;
}

/** How many reals a command of only reals reads (0 for the other commands). */
const REAL_COUNT = new Uint8Array(64);
for (const k of [Cmd.Vp, Cmd.Vt, Cmd.Vc, Cmd.V0, Cmd.V1, Cmd.V2, Cmd.V3, Cmd.V4, Cmd.V5, Cmd.V6, Cmd.V7, Cmd.V8, Cmd.V9]) REAL_COUNT[k] = 4;
REAL_COUNT[Cmd.Vn] = 3;
REAL_COUNT[Cmd.Vx] = 6;
REAL_COUNT[Cmd.Pq] = 10;
REAL_COUNT[Cmd.Pm] = 15;
REAL_COUNT[Cmd.Pa] = 9;

// The commands of most lines (vertices, poses, faces) go through one call of readNumbers, so that
// the optimised parser holds one copy of it.
function parseArguments(kind: Cmd): void {
  const reals = REAL_COUNT[kind];
  if (reals > 0) {
    readNumbers(reals, false);
    if (kind === Cmd.Pq) checkQuaternion();
    else if (kind === Cmd.Vx) checkVx();
    else if (kind === Cmd.Pm) checkMatrix();
    return;
  }
  if (kind === Cmd.Fa || kind === Cmd.Fm || kind === Cmd.Fs) {
    readNumbers(Infinity, true);
    if (kind === Cmd.Fs) {
      if (line.count < 3) flag(LineProblem.FsTooFew, line.commandStart, lineEnd, line.count);
    } else if (line.count < 3) flag(LineProblem.FaceTooFew, line.commandStart, lineEnd, line.count);
    else if (line.count > 3) flag(LineProblem.Polygon, line.spans[6], line.spans[2 * line.count - 1], line.count);
    return;
  }
  if (kind === Cmd.Vb) parseBlend();
  else parseOther(kind);
}

/** Review fix: only the 4-value vx has a w; with a 5th value (4th, 5th, 6th) are the bitangent and w is computed (§3.1, B2), so a 5-value vx is not checked here. */
function checkVx(): void {
  if (line.count === 4) {
    const w = line.values[3];
    if (w !== 1 && w !== -1) flag(LineProblem.VxW, line.spans[6], line.spans[7], w);
  }
}

/** The arguments of the rarer commands. */
function parseOther(kind: Cmd): void {
  switch (kind) {
    case Cmd.Vs:
      if (!readInteger()) valueMissing();
      return;
    case Cmd.Smoothgroup:
      if (!readInteger()) valueMissing();
      return;
    case Cmd.Smoothuv:
      readInteger();
      return;
    case Cmd.Smoothangle:
      if (!readReal()) valueMissing();
      // Review fix: |A| > 90 — cos is even, so -120 differs from the reference just as 120 does (B5).
      else if (Math.abs(line.values[0]) > 90) flag(LineProblem.SmoothangleReference, line.spans[0], line.spans[1], line.values[0]);
      return;
    case Cmd.Mesh:
    case Cmd.Material:
    case Cmd.Animation:
      readName();
      return;
    case Cmd.Joint:
      readName();
      if (readInteger() && line.values[0] < -1) flag(LineProblem.JointParentNegative, line.spans[0], line.spans[1], line.values[0]);
      return;
    case Cmd.Vertexarray:
      parseVertexarray();
      return;
    case Cmd.Framerate:
      if (!readReal()) valueMissing();
      else if (line.values[0] < 0) flag(LineProblem.FramerateNegative, line.spans[0], line.spans[1], line.values[0]);
      return;
    case Cmd.Comment: {
      const rest = skipSpace(cursor);
      if (rest < lineEnd) flag(LineProblem.CommentTrailingText, rest, lineEnd);
      return;
    }
    default:
      return;
  }
}

function valueMissing(): void {
  if (!(line.flags & (1 << LineProblem.NumberInvalid))) flag(LineProblem.ValueMissing, line.commandStart, line.commandEnd);
}

/** `vb i w i w …`: pairs until an index fails; a missing weight is 0 (§3.1, §4.8.4). */
function parseBlend(): void {
  while (readInteger()) {
    if (!readReal()) {
      const at = line.count - 1;
      push(0, line.spans[2 * at], line.spans[2 * at + 1]);
      break;
    }
  }
  let kept = 0;
  const pairs = line.count >> 1;
  // The kept joints so far, for a long line (a pairwise search is quadratic in its length).
  const seen = pairs > 8 ? new Set<number>() : null;
  for (let i = 0; i < pairs; i++) {
    const weight = line.values[2 * i + 1];
    if (!(weight > 0.001)) {
      // Dropping an exact 0 changes nothing (exporters write them as padding); a small or
      // negative weight is lost data.
      if (weight !== 0) flag(LineProblem.WeightDropped, line.spans[4 * i], line.spans[4 * i + 3], weight);
      continue;
    }
    kept++;
    const joint = line.values[2 * i];
    if (seen) {
      if (seen.has(joint)) flag(LineProblem.WeightDuplicateJoint, line.spans[4 * i], line.spans[4 * i + 1], joint);
      else seen.add(joint);
      continue;
    }
    for (let j = 0; j < i; j++) {
      if (line.values[2 * j] === joint && line.values[2 * j + 1] > 0.001) {
        flag(LineProblem.WeightDuplicateJoint, line.spans[4 * i], line.spans[4 * i + 1], joint);
      }
    }
  }
  // Review fix: a vb with no usable weight (LineProblem.WeightNone) is reported by validate.ts,
  // only while joints and animations exist (§9.2 weights-invalid), as for an empty vb.
  if (kept > 4) flag(LineProblem.BlendInfluences, line.spans[16], line.spans[2 * line.count - 1], kept);
}

/** `pq`: w given (7 values or more) must be unit length; without w, xyz must not exceed 1 (§3.3, B6). */
function checkQuaternion(): void {
  if (line.count < 3) return;
  const v = line.values;
  const x = line.count > 3 ? v[3] : 0;
  const y = line.count > 4 ? v[4] : 0;
  const z = line.count > 5 ? v[5] : 0;
  const xyz = x * x + y * y + z * z;
  const start = line.count > 3 ? line.spans[6] : line.commandStart;
  if (line.count >= 7) {
    const length = Math.sqrt(xyz + v[6] * v[6]);
    const end = line.spans[13];
    if (length === 0) flag(LineProblem.QuaternionZero, start, end);
    else if (Math.abs(length - 1) > 1e-4) flag(LineProblem.QuaternionNotUnit, start, end, length);
  } else if (line.count > 3 && Math.sqrt(xyz) > 1 + 1e-4) {
    flag(LineProblem.QuaternionNotUnit, start, line.spans[2 * line.count - 1], Math.sqrt(xyz));
  }
}

/** `pm`: rows A, B, C of R; a zero column gives NaN, shear is lost (§3.3). */
function checkMatrix(): void {
  // Review fix: no early return for fewer than 3 values: a `pm` without its matrix has all-zero
  // columns too (NaN pose), reported at the command word when nothing parsed.
  const v = line.values;
  const m = (i: number): number => (3 + i < line.count ? v[3 + i] : 0);
  const start = line.count > 3 ? line.spans[6] : line.commandStart;
  const end = line.count > 0 ? line.spans[2 * Math.min(line.count, 12) - 1] : line.commandEnd;
  const columns = [0, 1, 2].map((c) => [m(c), m(3 + c), m(6 + c)]);
  const lengths = columns.map((c) => Math.hypot(c[0], c[1], c[2]));
  if (lengths.some((l) => l === 0)) {
    flag(LineProblem.PmDegenerate, start, end);
    return;
  }
  for (let a = 0; a < 3; a++) {
    for (let b = a + 1; b < 3; b++) {
      const ca = columns[a];
      const cb = columns[b];
      const cosine = (ca[0] * cb[0] + ca[1] * cb[1] + ca[2] * cb[2]) / (lengths[a] * lengths[b]);
      if (Math.abs(cosine) > 1e-3) {
        flag(LineProblem.PmNotOrthogonal, start, end, (Math.acos(Math.min(1, Math.abs(cosine))) * 180) / Math.PI);
        return;
      }
    }
  }
}

/** `vertexarray TYPE FORMAT SIZE NAME` (§3.6): values are type, format, size (-1 = unknown). */
let vertexarrayMissing = false;

function parseVertexarray(): void {
  vertexarrayMissing = false;
  const type = readKeyword(VERTEXARRAY_TYPES, LineProblem.VertexarrayType);
  line.typeStart = type.start;
  line.typeEnd = type.end;
  const format = readKeyword(VERTEXARRAY_FORMATS, LineProblem.VertexarrayFormat);
  line.formatStart = format.start;
  line.formatEnd = format.end;
  line.count = 0;
  push(type.index, type.start, type.end);
  push(format.index, format.start, format.end);
  const sizeStart = skipSpace(cursor);
  const sizeEnd = scanInteger(text, sizeStart, lineEnd);
  if (sizeEnd < 0) {
    push(-1, sizeStart, tokenEnd(sizeStart));
    if (sizeStart < lineEnd) flag(LineProblem.VertexarraySize, sizeStart, tokenEnd(sizeStart), 0);
    else if (!vertexarrayMissing) flag(LineProblem.VertexarraySize, line.commandStart, line.commandEnd, NaN); // review fix, as above
    cursor = tokenEnd(sizeStart);
  } else {
    const size = scanned.value;
    push(size, sizeStart, sizeEnd);
    if (size < 1 || size > 4) flag(LineProblem.VertexarraySize, sizeStart, sizeEnd, size);
    checkNumberEnd(sizeStart, sizeEnd);
    cursor = sizeEnd;
  }
  readName();
}

/**
 * Drops parseLine's reference to the last text it read (a slice of it keeps the whole document
 * string alive): the compiler calls this once it has gathered a document's data.
 */
export function releaseLineText(): void {
  text = '';
}

// Type feedback for the number loops' rarer branches (a sign, more than nine digits, a tab
// between numbers, a face), so that their optimised code is not thrown away when a file first
// uses one of them partway through (a deoptimisation costs the rest of a file's parse in slower
// code until the loop is optimised again). V8 records feedback only once a function has run a
// few times, hence the repeats; together they take well under a millisecond.
for (let i = 0; i < 32; i++) {
  for (const sample of ['vp +1234567890.12345\t-0.5 .25', 'fm 1\t+2 -3']) parseLine(sample, 0, sample.length, false);
}
releaseLineText();

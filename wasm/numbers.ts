// AssemblyScript (checked by its compiler, asc, not by tsc or eslint), compiled to WebAssembly by
// esbuild.mjs (never committed as a binary): the hot loops of the IQE parser (core/iqe/line.ts,
// chunk.ts) over the text as bytes (the caller copies an all-ASCII window of the text here, so
// byte offsets are character offsets).
//
// - read(): the fast path of readNumbers, the loop every number of a line goes through: the same
//   tokens are taken and the same doubles made: [sign] digits [. digits], at most 15 digits (9 for
//   an integer), ended by whitespace or the line's end, as an integer mantissa (exact) over a
//   power of ten. A token it does not take is left to the caller's exact scanner.
// - parseLines(): whole lines, as parseLine and parseChunk make them, for the lines that hold
//   nothing a JavaScript parse would note: blank and `#` lines, and vertex, pose and triangle lines
//   whose numbers all take the fast path and that have no line-local problem. It stops at the
//   first other line, which the caller parses in JavaScript (and then calls again).
//
// Memory (fixed: the caller never grows it, so its views stay valid), from the second page on (the
// first holds the module's own data, heapBase() below):
// - VALUES f64 x MAX_VALUES, SPANS i32 x 2 MAX_VALUES: read()'s numbers of one line;
// - STATE i32 x 8: read()'s count, cursor, start of the token not taken, whether one was met;
//   parseLines()'s offset after its last line, its values' count and its longest line (STATE +
//   16, + 20, + 24);
// - RUN_*: parseLines()'s lines: start, kind, index of the first value; and their values;
// - SUMMARY: what parseLines()'s lines add to their chunk's summary (chunk.ts ChunkSummary), i32
//   fields then the blend joint minimum and maximum (f64);
// - KIND_OF_PAIR u8 x 128 x 128: the command of each two-letter word (0: not one parseLines takes),
//   MODE u8 x 64 and ROLE u8 x 64 by command, BLANK_HASH u8 x 2: filled by the caller once;
// - from TEXT on, a window of the text: the characters from offset `base` on (a large document is
//   copied here a window at a time).

const MAX_VALUES: i32 = 4096;
const RUN_LINES: i32 = 4096;
const RUN_VALUES: i32 = 65536;
/** The most values a line parseLines takes can hold (vb: 8 pairs). */
const LINE_VALUES_MAX: i32 = 16;
/** Longer lines go to the caller, which reports them (LineTooLong: the reference reads 511 bytes). */
const MAX_LINE_BYTES: i32 = 511;

const VALUES: usize = 65536;
const SPANS: usize = VALUES + 8 * MAX_VALUES;
const STATE: usize = SPANS + 8 * MAX_VALUES;
const RUN_VALUES_AT: usize = STATE + 64;
const RUN_STARTS: usize = RUN_VALUES_AT + 8 * RUN_VALUES;
const RUN_VALUE_STARTS: usize = RUN_STARTS + 4 * RUN_LINES;
const RUN_KINDS: usize = RUN_VALUE_STARTS + 4 * RUN_LINES;
const SUMMARY: usize = RUN_KINDS + RUN_LINES;
/** SUMMARY's i32 fields, in this order (line.ts KernelSummary names them for chunk.ts). */
const S_VP_COUNT = 0, S_FIRST_VP = 1, S_LAST_VP = 2, S_FIRST_VX4 = 3, S_FIRST_VX6 = 4, S_STRUCTURAL = 5, S_FACES = 6, S_EMPTY_BLENDS = 7;
const S_ATTRIBUTE_COUNT = 8, S_ATTRIBUTE_FIRST = 24, S_ATTRIBUTE_LAST = 40, S_FIELDS = 56;
const SUMMARY_BLEND: usize = SUMMARY + 4 * S_FIELDS;
const KIND_OF_PAIR: usize = SUMMARY_BLEND + 16;
const MODE: usize = KIND_OF_PAIR + 128 * 128;
const ROLE: usize = MODE + 64;
const BLANK_HASH: usize = ROLE + 64;
const TEXT: usize = BLANK_HASH + 64;

/** MODE: how parseLines reads a command's arguments (0: it does not take the command). */
const MODE_REALS_MAX = 15; // 1..15: that many reals at most, nothing to check
const MODE_QUATERNION = 16; // pq: 10 reals, the rotation must be unit length
const MODE_VX = 17; // vx: 6 reals, a 4-value one's w must be 1 or -1
const MODE_TRIANGLE = 18; // fa, fm: exactly three integers
const MODE_BLEND = 19; // vb: integer-real pairs
/** ROLE: the attribute slot (0..15, 31: none), and bits for the summary. */
const ROLE_NO_SLOT = 31, ROLE_VP = 32, ROLE_STRUCTURAL = 64, ROLE_FACE = 128;

export function valuesAddress(): usize { return VALUES; }
export function spansAddress(): usize { return SPANS; }
export function stateAddress(): usize { return STATE; }
export function runValuesAddress(): usize { return RUN_VALUES_AT; }
export function runStartsAddress(): usize { return RUN_STARTS; }
export function runValueStartsAddress(): usize { return RUN_VALUE_STARTS; }
export function runKindsAddress(): usize { return RUN_KINDS; }
export function summaryAddress(): usize { return SUMMARY; }
export function tablesAddress(): usize { return KIND_OF_PAIR; }
export function textAddress(): usize { return TEXT; }

@inline
function pow10(n: i32): f64 {
  return load<f64>(changetype<usize>(POW10) + 8 * n);
}
const POW10: StaticArray<f64> = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

@inline
function isSpace(c: i32): bool {
  return c == 32 || (c >= 9 && c <= 13);
}

// The token read by scan(): its value, start and end.
let tokenValue: f64 = 0;
let tokenStart: i32 = 0;
let tokenEnd: i32 = 0;

const TOKEN_NONE = 0; // only whitespace left on the line
const TOKEN_TAKEN = 1;
const TOKEN_OTHER = 2; // a token the fast path does not take (at tokenStart)

/** One number at `p` (after whitespace) of the line ending at `lineEnd`; `text` is the window's address less its base. */
@inline
function scan(text: usize, p: i32, lineEnd: i32, integers: bool): i32 {
  let c: i32 = 0;
  while (p < lineEnd) {
    c = <i32>load<u8>(text + <usize>p);
    if (c != 32 && (c < 9 || c > 13)) break;
    p++;
  }
  tokenStart = p;
  if (p == lineEnd) return TOKEN_NONE;
  const negative = c == 45;
  if (negative || c == 43) p++;
  // The digits as one integer (it wraps past 18 digits, but such a token is not taken: at most 15).
  let whole: i64 = 0;
  let digits: i32 = 0;
  let point: i32 = -1;
  while (p < lineEnd) {
    c = <i32>load<u8>(text + <usize>p) - 48;
    if (<u32>c > 9) {
      if (c != 46 - 48 || integers || point >= 0) break;
      point = digits;
      p++;
      continue;
    }
    whole = whole * 10 + <i64>c;
    p++;
    digits++;
  }
  const most = integers ? 9 : 15;
  if (digits == 0 || digits > most || !(p == lineEnd || c == 32 - 48 || (c >= 9 - 48 && c <= 13 - 48))) return TOKEN_OTHER;
  if (integers) {
    // strtol has no negative zero.
    tokenValue = negative && whole != 0 ? -(<f64>whole) : <f64>whole;
  } else {
    // Below 10^15, so exactly the integer line.ts's two parts make.
    const mantissa = <f64>whole;
    const scale = point >= 0 ? digits - point : 0;
    const quotient = scale == 0 ? mantissa : mantissa / pow10(scale);
    tokenValue = negative ? -quotient : quotient;
  }
  tokenEnd = p;
  return TOKEN_TAKEN;
}

/**
 * Reads up to `max` numbers from `cursor` on a line ending at `lineEnd` (offsets in the text; the
 * window at TEXT starts at offset `base`, and holds the line: the caller makes sure),
 * appending each to values/spans from state[0] (the line's count so far). Returns how many it
 * read; state[1] is the cursor after them; state[3] = 1 when it stopped before a token it does
 * not take (starting at state[2]), 0 when it stopped at the line's end or after `max`.
 */
export function read(cursor: i32, lineEnd: i32, max: i32, integers: i32, base: i32): i32 {
  const text: usize = TEXT - <usize>base;
  let count = load<i32>(STATE);
  let i: i32 = 0;
  let stopped: i32 = 0;
  for (; i < max; i++) {
    const status = scan(text, cursor, lineEnd, integers != 0);
    if (status == TOKEN_NONE) break;
    if (status == TOKEN_OTHER) {
      store<i32>(STATE + 8, tokenStart);
      stopped = 1;
      break;
    }
    if (count < MAX_VALUES) {
      store<f64>(VALUES + 8 * <usize>count, tokenValue);
      store<i32>(SPANS + 8 * <usize>count, tokenStart);
      store<i32>(SPANS + 8 * <usize>count + 4, tokenEnd);
      count++;
    }
    cursor = tokenEnd;
  }
  store<i32>(STATE, count);
  store<i32>(STATE + 4, cursor);
  store<i32>(STATE + 12, stopped);
  return i;
}

/** Empties SUMMARY: no lines yet. */
function resetSummary(): void {
  memory.fill(SUMMARY, 0, 4 * S_FIELDS);
  summarySet(S_FIRST_VP, -1);
  summarySet(S_LAST_VP, -1);
  summarySet(S_FIRST_VX4, -1);
  summarySet(S_FIRST_VX6, -1);
  for (let k = 0; k < 16; k++) {
    summarySet(S_ATTRIBUTE_FIRST + k, -1);
    summarySet(S_ATTRIBUTE_LAST + k, -1);
  }
  store<f64>(SUMMARY_BLEND, Infinity);
  store<f64>(SUMMARY_BLEND + 8, -Infinity);
}

@inline
function summaryGet(field: i32): i32 {
  return load<i32>(SUMMARY + 4 * <usize>field);
}
@inline
function summarySet(field: i32, value: i32): void {
  store<i32>(SUMMARY + 4 * <usize>field, value);
}

/**
 * Reads the arguments of a line whose command (mode `mode`) ends at `p`, to RUN_VALUES_AT from
 * `v`; returns how many values, or -1 when the line is the caller's (a token the fast path does
 * not take, or anything parseLine would note on the line).
 */
@inline
function readArguments(text: usize, p: i32, lineEnd: i32, mode: i32, v: i32): i32 {
  const out: usize = RUN_VALUES_AT + 8 * <usize>v;
  let n: i32 = 0;
  if (mode <= MODE_VX) {
    const max = mode <= MODE_REALS_MAX ? mode : mode == MODE_QUATERNION ? 10 : 6;
    while (n < max) {
      const status = scan(text, p, lineEnd, false);
      if (status == TOKEN_NONE) break;
      if (status == TOKEN_OTHER) return -1;
      store<f64>(out + 8 * <usize>n, tokenValue);
      n++;
      p = tokenEnd;
    }
    if (mode == MODE_QUATERNION) return quaternionClean(out, n) ? n : -1;
    // A 4-value vx (no bitangent) has w, which must be 1 or -1.
    if (mode == MODE_VX && n == 4) {
      const w = load<f64>(out + 24);
      if (w != 1 && w != -1) return -1;
    }
    return n;
  }
  if (mode == MODE_TRIANGLE) {
    for (;;) {
      const status = scan(text, p, lineEnd, true);
      if (status == TOKEN_NONE) break;
      // A polygon (more than 3) is reported by parseLine.
      if (status == TOKEN_OTHER || n == 3) return -1;
      store<f64>(out + 8 * <usize>n, tokenValue);
      n++;
      p = tokenEnd;
    }
    return n == 3 ? n : -1;
  }
  // MODE_BLEND: pairs until the line ends; each weight above 0.001 or exactly 0 (padding, which
  // parseLine drops without a note), at most 4 kept, no joint kept twice.
  let kept: i32 = 0;
  for (;;) {
    let status = scan(text, p, lineEnd, true);
    if (status == TOKEN_NONE) break;
    if (status == TOKEN_OTHER || n == LINE_VALUES_MAX) return -1;
    const joint = tokenValue;
    p = tokenEnd;
    status = scan(text, p, lineEnd, false);
    // A missing weight (read as 0 by parseLine) is the caller's too.
    if (status != TOKEN_TAKEN) return -1;
    const weight = tokenValue;
    p = tokenEnd;
    store<f64>(out + 8 * <usize>n, joint);
    store<f64>(out + 8 * <usize>n + 8, weight);
    n += 2;
    if (!(weight > 0.001)) {
      if (weight != 0) return -1;
      continue;
    }
    for (let j: i32 = 0; j < n - 2; j += 2) {
      if (load<f64>(out + 8 * <usize>j) == joint && load<f64>(out + 8 * <usize>j + 8) > 0.001) return -1;
    }
    kept++;
  }
  return kept > 4 ? -1 : n;
}

/** checkQuaternion's test (line.ts), true when it notes nothing: the same arithmetic in the same order. */
@inline
function quaternionClean(v: usize, n: i32): bool {
  if (n < 4) return true;
  const x = load<f64>(v + 24);
  const y = n > 4 ? load<f64>(v + 32) : 0;
  const z = n > 5 ? load<f64>(v + 40) : 0;
  const xyz = x * x + y * y + z * z;
  if (n >= 7) {
    const w = load<f64>(v + 48);
    const length = Math.sqrt(xyz + w * w);
    return length != 0 && !(Math.abs(length - 1) > 1e-4);
  }
  return !(Math.sqrt(xyz) > 1 + 1e-4);
}

const LF = i8x16.splat(10);
const CR = i8x16.splat(13);

/**
 * Parses whole lines from offset `p` while each is one it takes (above), ends before `windowEnd`
 * (with its terminator) and starts before `target`, at most RUN_LINES of them: each line's start
 * less `from`, command and first value (counted from `valueBase`) to RUN_*, its values to
 * RUN_VALUES_AT, and what they add to the chunk's summary (line `index` first) to SUMMARY. Returns how many; the
 * offset after the last one is at STATE + 16, their values' count at STATE + 20, the
 * longest one's length (without its terminator) at STATE + 24.
 */
export function parseLines(p: i32, windowEnd: i32, target: i32, base: i32, from: i32, index: i32, valueBase: i32): i32 {
  const text: usize = TEXT - <usize>base;
  const blank = <i32>load<u8>(BLANK_HASH);
  const hash = <i32>load<u8>(BLANK_HASH + 1);
  resetSummary();
  let lines: i32 = 0;
  let v: i32 = 0;
  let longest: i32 = 0;
  while (p < target && lines < RUN_LINES && v <= RUN_VALUES - LINE_VALUES_MAX) {
    // The line's content ends at the first \n or \r (sought 16 bytes at a time); a line not
    // ended in the window is the caller's.
    let end = p;
    while (end + 16 <= windowEnd) {
      const bytes = v128.load(text + <usize>end);
      const ends = i8x16.bitmask(v128.or(i8x16.eq(bytes, LF), i8x16.eq(bytes, CR)));
      if (ends != 0) {
        end += ctz(ends);
        break;
      }
      end += 16;
    }
    let c: i32 = 0;
    while (end < windowEnd) {
      c = <i32>load<u8>(text + <usize>end);
      if (c == 10 || c == 13) break;
      end++;
    }
    // The character after the terminator must be in the window too (a \r\n split by its end).
    if (end + 1 >= windowEnd || end - p > MAX_LINE_BYTES) break;
    let q = p;
    while (q < end && isSpace(<i32>load<u8>(text + <usize>q))) q++;
    let kind: i32;
    let n: i32 = 0;
    if (q == end) kind = blank;
    else {
      const c0 = <i32>load<u8>(text + <usize>q);
      if (c0 == 35) kind = hash;
      else {
        if (q + 1 >= end || (q + 2 < end && !isSpace(<i32>load<u8>(text + <usize>q + 2)))) break;
        kind = <i32>load<u8>(KIND_OF_PAIR + <usize>(c0 * 128 + <i32>load<u8>(text + <usize>q + 1)));
        const mode = kind == 0 ? 0 : <i32>load<u8>(MODE + <usize>kind);
        if (mode == 0) break;
        n = readArguments(text, q + 2, end, mode, v);
        if (n < 0) break;
        summarise(kind, index + lines, v, n);
      }
    }
    store<i32>(RUN_STARTS + 4 * <usize>lines, p - from);
    store<u8>(RUN_KINDS + <usize>lines, <u8>kind);
    store<i32>(RUN_VALUE_STARTS + 4 * <usize>lines, valueBase + v);
    lines++;
    v += n;
    if (end - p > longest) longest = end - p;
    // After the terminator: \r\n, \n or a lone \r.
    p = c == 13 && load<u8>(text + <usize>end + 1) == 10 ? end + 2 : end + 1;
  }
  store<i32>(STATE + 16, p);
  store<i32>(STATE + 20, v);
  store<i32>(STATE + 24, longest);
  return lines;
}

/** chunk.ts summarise() of a line parseLines took (`n` values at RUN_VALUES_AT from `v`). */
@inline
function summarise(kind: i32, index: i32, v: i32, n: i32): void {
  const role = <i32>load<u8>(ROLE + <usize>kind);
  if (role & ROLE_STRUCTURAL) summarySet(S_STRUCTURAL, summaryGet(S_STRUCTURAL) + 1);
  if (role & ROLE_VP) {
    if (summaryGet(S_FIRST_VP) < 0) summarySet(S_FIRST_VP, index);
    summarySet(S_LAST_VP, index);
    summarySet(S_VP_COUNT, summaryGet(S_VP_COUNT) + 1);
    return;
  }
  if (role & ROLE_FACE) {
    summarySet(S_FACES, summaryGet(S_FACES) + 1);
    return;
  }
  const mode = <i32>load<u8>(MODE + <usize>kind);
  if (mode == MODE_BLEND) {
    const values: usize = RUN_VALUES_AT + 8 * <usize>v;
    let weighted = false;
    let low = load<f64>(SUMMARY_BLEND);
    let high = load<f64>(SUMMARY_BLEND + 8);
    for (let i: i32 = 0; i + 1 < n; i += 2) {
      const joint = load<f64>(values + 8 * <usize>i);
      if (joint < low) low = joint;
      if (joint > high) high = joint;
      if (load<f64>(values + 8 * <usize>i + 8) > 0.001) weighted = true;
    }
    store<f64>(SUMMARY_BLEND, low);
    store<f64>(SUMMARY_BLEND + 8, high);
    if (!weighted) summarySet(S_EMPTY_BLENDS, summaryGet(S_EMPTY_BLENDS) + 1);
  } else if (mode == MODE_VX) {
    if (n >= 5) {
      if (summaryGet(S_FIRST_VX6) < 0) summarySet(S_FIRST_VX6, index);
    } else if (summaryGet(S_FIRST_VX4) < 0) summarySet(S_FIRST_VX4, index);
  }
  const slot = role & ROLE_NO_SLOT;
  if (slot != ROLE_NO_SLOT) {
    const count = summaryGet(S_ATTRIBUTE_COUNT + slot);
    if (count == 0) summarySet(S_ATTRIBUTE_FIRST + slot, index);
    summarySet(S_ATTRIBUTE_COUNT + slot, count + 1);
    summarySet(S_ATTRIBUTE_LAST + slot, index);
  }
}

/** Where the caller's memory may start (after this module's own data); the text must start after it. */
export function heapBase(): usize {
  return __heap_base;
}

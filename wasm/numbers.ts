// AssemblyScript (checked by its compiler, asc, not by tsc or eslint), compiled to WebAssembly by
// esbuild.mjs (never committed as a binary): the fast path of readNumbers (core/iqe/line.ts),
// the loop every number of a file goes through, over the text as bytes (the caller copies an
// all-ASCII text here, so byte offsets are character offsets). The same tokens are taken and the
// same doubles made: [sign] digits [. digits], at most 15 digits (9 for an integer), ended by
// whitespace or the line's end, as an integer mantissa (two parts, each exact) over a power of
// ten. A token it does not take is left to the caller's exact scanner.
//
// Memory (fixed: the caller never grows it, so its views stay valid): values f64 x MAX_VALUES at
// VALUES, spans i32 x 2 MAX_VALUES at SPANS, state i32 x 4 at STATE (count, cursor, start of the
// token not taken, and whether one was met), from TEXT on a window of the text: the characters
// from offset `base` on (a large document is copied here a window at a time).

const MAX_VALUES: i32 = 4096;
// From the second page on: the first holds the module's own data (heapBase() below).
const VALUES: usize = 65536;
const SPANS: usize = VALUES + 8 * MAX_VALUES;
const STATE: usize = SPANS + 8 * MAX_VALUES;
const TEXT: usize = STATE + 64;

export function valuesAddress(): usize {
  return VALUES;
}
export function spansAddress(): usize {
  return SPANS;
}
export function stateAddress(): usize {
  return STATE;
}
export function textAddress(): usize {
  return TEXT;
}

@inline
function pow10(n: i32): f64 {
  return load<f64>(changetype<usize>(POW10) + 8 * n);
}
const POW10: StaticArray<f64> = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Reads up to `max` numbers from `cursor` on a line ending at `lineEnd` (offsets in the text; the
 * window at TEXT starts at offset `base`, and holds the line: the caller makes sure),
 * appending each to values/spans from state[0] (the line's count so far). Returns how many it
 * read; state[1] is the cursor after them; state[3] = 1 when it stopped before a token it does
 * not take (starting at state[2]), 0 when it stopped at the line's end or after `max`.
 */
export function read(cursor: i32, lineEnd: i32, max: i32, integers: i32, base: i32): i32 {
  const text: usize = TEXT - <usize>base;
  const most = integers ? 9 : 15;
  let count = load<i32>(STATE);
  let i: i32 = 0;
  let stopped: i32 = 0;
  for (; i < max; i++) {
    let p = cursor;
    let c: i32 = 0;
    while (p < lineEnd) {
      c = <i32>load<u8>(text + <usize>p);
      if (c != 32 && (c < 9 || c > 13)) break;
      p++;
    }
    const start = p;
    if (p == lineEnd) break;
    const negative = c == 45;
    if (negative || c == 43) p++;
    let high: i32 = 0;
    let low: i32 = 0;
    let digits: i32 = 0;
    let point: i32 = -1;
    while (p < lineEnd) {
      c = <i32>load<u8>(text + <usize>p) - 48;
      if (c < 0 || c > 9) {
        if (c != 46 - 48 || integers || point >= 0) break;
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
    if (digits > 0 && digits <= most && (p == lineEnd || c == 32 - 48 || (c >= 9 - 48 && c <= 13 - 48))) {
      let value: f64;
      if (integers) {
        value = negative && high != 0 ? -(<f64>high) : <f64>high;
      } else {
        const mantissa = digits <= 9 ? <f64>high : <f64>high * pow10(digits - 9) + <f64>low;
        const quotient = scale == 0 ? mantissa : mantissa / pow10(scale);
        value = negative ? -quotient : quotient;
      }
      if (count < MAX_VALUES) {
        store<f64>(VALUES + 8 * <usize>count, value);
        store<i32>(SPANS + 8 * <usize>count, start);
        store<i32>(SPANS + 8 * <usize>count + 4, p);
        count++;
      }
      cursor = p;
      continue;
    }
    store<i32>(STATE + 8, start);
    stopped = 1;
    break;
  }
  store<i32>(STATE, count);
  store<i32>(STATE + 4, cursor);
  store<i32>(STATE + 12, stopped);
  return i;
}

/** Where the caller's memory may start (after this module's own data); the text must start after it. */
export function heapBase(): usize {
  return __heap_base;
}

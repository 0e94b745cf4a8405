// Decimal numbers as the MD5, SMD and OBJ readers and the sidecar files take a word: [sign] digits
// [. [digits]] or [sign] . digits, then optionally [eE] [sign] digits, and nothing else (no inf,
// nan, hex, spaces): a word strtod reads whole, whose double is JavaScript's Number() of it. The
// common word (no exponent, at most 15 digits) is read here exactly: its digits are an integer
// below 2^53 and a power of ten up to 10^15 is exact, so one correctly rounded division gives the
// correctly rounded value (the IQE parser's fast path, core/iqe/line.ts, rests on the same fact).
// The others go to Number(). This replaced a regular expression and Number() on every word, which
// were most of the SMD reader's time.

/** The powers of ten a double holds exactly (10^0..10^22): the IQE scanners' and this reader's. */
export const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/** The value of `word` when it is such a decimal number, else NaN. */
export function decimalValue(word: string): number {
  return decimalIn(word, 0, word.length);
}

/** Where the last decimalPrefix stopped: the offset of the first character it did not take. */
export const prefixEnd = { at: 0 };

/** decimalValue of text[start .. end) without taking it out of the text (no string per word). */
export function decimalIn(text: string, start: number, end: number): number {
  const value = decimalPrefix(text, start, end);
  let p = prefixEnd.at;
  // No digits (NaN), or the whole word: its value.
  if (p === end || Number.isNaN(value)) return value;
  // Else only an exponent may follow: [eE] [sign] digits, to the word's end.
  const c = text.charCodeAt(p);
  if (c !== 101 && c !== 69) return NaN;
  p++;
  if (p < end && (text.charCodeAt(p) === 43 || text.charCodeAt(p) === 45)) p++;
  const exponentStart = p;
  while (p < end && text.charCodeAt(p) >= 48 && text.charCodeAt(p) <= 57) p++;
  return p > exponentStart && p === end ? Number(text.slice(start, end)) : NaN;
}

/**
 * The [sign] digits [. [digits]] at text[start .. n), read in one pass (the readers' common word):
 * its value when the word ends where this stops, NaN without digits; prefixEnd.at is set to where
 * it stopped. A caller whose word goes on past that point (an exponent, a second point, a letter)
 * takes the whole word to decimalIn instead.
 */
export function decimalPrefix(text: string, start: number, n: number): number {
  let p = start;
  let c = p < n ? text.charCodeAt(p) : 0;
  const negative = c === 45;
  if (negative || c === 43) p++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; p < n; p++) {
    c = text.charCodeAt(p) - 48;
    if (c >= 0 && c <= 9) {
      mantissa = mantissa * 10 + c;
      digits++;
    } else if (c === 46 - 48 && fraction < 0) fraction = digits;
    else break;
  }
  prefixEnd.at = p;
  if (digits === 0) return NaN;
  if (digits > 15) return Number(text.slice(start, p));
  const scale = fraction < 0 ? 0 : digits - fraction;
  const value = scale === 0 ? mantissa : mantissa / POW10[scale];
  return negative ? -value : value;
}

// C-library number scanning as the reference compiler does it (IQE-SEMANTICS.md §2.4): `strtod`
// and base-10 `strtol` read the longest numeric prefix at a cursor and leave the cursor where they
// stopped, so `1.5abc` reads 1.5 and `1,5` reads 1. Each scanner returns the position after the
// number, or -1 when nothing parses (the cursor does not move), and leaves the value in `scanned`.
import { POW10 } from '../decimal';

export const scanned = { value: 0 };

export function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function lower(c: number): number {
  return c | 0x20;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = lower(c);
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

/** `strtol(s, &end, 10)` on text[pos, end) without skipping whitespace (callers skip it). */
export function scanInteger(text: string, pos: number, end: number): number {
  let p = pos;
  let negative = false;
  if (p < end) {
    const c = text.charCodeAt(p);
    if (c === 45 || c === 43) {
      negative = c === 45;
      p++;
    }
  }
  const digitsStart = p;
  let value = 0;
  while (p < end) {
    const d = text.charCodeAt(p) - 48;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
    p++;
  }
  if (p === digitsStart) return -1;
  // Review fix: strtol has no negative zero (`-0` is 0).
  scanned.value = negative && value !== 0 ? -value : value;
  return p;
}

/** `strtod` on text[pos, end) in the C locale, without skipping whitespace: decimal, hex, inf, nan. */
export function scanReal(text: string, pos: number, end: number): number {
  let p = pos;
  let negative = false;
  if (p < end) {
    const c = text.charCodeAt(p);
    if (c === 45 || c === 43) {
      negative = c === 45;
      p++;
    }
  }
  if (p >= end) return -1;
  const c0 = text.charCodeAt(p);
  if (!isDigit(c0) && c0 !== 46) {
    const special = scanSpecial(text, p, end);
    if (special < 0) return -1;
    if (negative) scanned.value = -scanned.value;
    return special;
  }
  if (c0 === 48 && p + 1 < end && lower(text.charCodeAt(p + 1)) === 120) {
    const hex = scanHex(text, p + 2, end);
    if (hex >= 0) {
      if (negative) scanned.value = -scanned.value;
      return hex;
    }
    // "0x" with no hex digits: strtod reads the "0".
    scanned.value = negative ? -0 : 0;
    return p + 1;
  }
  // Decimal: digits [. digits] [e [sign] digits]; the exponent only counts with a digit. The first
  // 15 digits (leading zeros included) accumulate exactly; more send the value to Number().
  let mantissa = 0;
  let digits: number;
  let scale = 0;
  const integerStart = p;
  while (p < end) {
    const d = text.charCodeAt(p) - 48;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    p++;
  }
  digits = p - integerStart;
  if (p < end && text.charCodeAt(p) === 46) {
    p++;
    const fractionStart = p;
    while (p < end) {
      const d = text.charCodeAt(p) - 48;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      p++;
    }
    scale = fractionStart - p;
    digits -= scale;
  }
  if (digits === 0) return -1;
  let exponent = 0;
  if (p < end && lower(text.charCodeAt(p)) === 101 /* e */) {
    const q = scanExponent(text, p + 1, end);
    if (q >= 0) {
      exponent = exponentValue;
      p = q;
    }
  }
  // Exact fast path (Clinger): an integer mantissa below 2^53 times a power of ten up to 1e22 is
  // one correctly rounded operation. Anything else goes through Number(), which rounds correctly.
  const e = scale + exponent;
  let value: number;
  if (digits <= 15 && e >= -22 && e <= 22) {
    value = e >= 0 ? mantissa * POW10[e] : mantissa / POW10[-e];
  } else {
    value = Number(text.slice(pos, p));
    if (Number.isNaN(value)) value = 0; // unreachable: the slice is a valid decimal literal
    scanned.value = value;
    return p;
  }
  scanned.value = negative ? -value : value;
  return p;
}

let exponentValue = 0;

/**
 * An exponent's [sign] digits at p (after the `e` or `p`): the position after it, with the value
 * in exponentValue (saturated far beyond any double's range), or -1 when no digit follows, in
 * which case the `e`/`p` is not part of the number.
 */
function scanExponent(text: string, p: number, end: number): number {
  let negative = false;
  if (p < end) {
    const s = text.charCodeAt(p);
    if (s === 45 || s === 43) {
      negative = s === 45;
      p++;
    }
  }
  if (p >= end || !isDigit(text.charCodeAt(p))) return -1;
  let value = 0;
  while (p < end && isDigit(text.charCodeAt(p))) {
    if (value < 100000) value = value * 10 + (text.charCodeAt(p) - 48);
    p++;
  }
  exponentValue = negative ? -value : value;
  return p;
}

/** inf, infinity, nan, nan(chars): case-insensitive. The sign was consumed by the caller. */
function scanSpecial(text: string, p: number, end: number): number {
  const l0 = lower(text.charCodeAt(p));
  if (l0 === 105 /* i */ && matchWord(text, p, end, 'inf')) {
    scanned.value = Infinity;
    return matchWord(text, p, end, 'infinity') ? p + 8 : p + 3;
  }
  if (l0 === 110 /* n */ && matchWord(text, p, end, 'nan')) {
    scanned.value = NaN;
    let q = p + 3;
    if (q < end && text.charCodeAt(q) === 40 /* ( */) {
      let r = q + 1;
      while (r < end) {
        const c = text.charCodeAt(r);
        const l = lower(c);
        if (!(isDigit(c) || (l >= 97 && l <= 122) || c === 95)) break;
        r++;
      }
      if (r < end && text.charCodeAt(r) === 41 /* ) */) q = r + 1;
    }
    return q;
  }
  return -1;
}

function matchWord(text: string, p: number, end: number, word: string): boolean {
  if (p + word.length > end) return false;
  for (let i = 0; i < word.length; i++) {
    if (lower(text.charCodeAt(p + i)) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** Hex float after "0x": hexdigits [. hexdigits] [p [sign] digits]. */
function scanHex(text: string, p: number, end: number): number {
  const digitsStart = p;
  let mantissa = 0;
  let any = false;
  let binaryScale = 0;
  while (p < end) {
    const h = hexValue(text.charCodeAt(p));
    if (h < 0) break;
    mantissa = mantissa * 16 + h;
    any = true;
    p++;
  }
  if (p < end && text.charCodeAt(p) === 46) {
    const q = p + 1;
    let r = q;
    while (r < end) {
      const h = hexValue(text.charCodeAt(r));
      if (h < 0) break;
      mantissa = mantissa * 16 + h;
      binaryScale -= 4;
      any = true;
      r++;
    }
    if (any) p = r;
  }
  if (!any) return -1;
  const digitsEnd = p;
  if (p < end && lower(text.charCodeAt(p)) === 112 /* p */) {
    const q = scanExponent(text, p + 1, end);
    if (q >= 0) {
      binaryScale += exponentValue;
      p = q;
    }
  }
  if (mantissa >= 2 ** 53) {
    // Review fix: past 53 bits the running sum rounded at every digit (double rounding, e.g.
    // 0x200000000000018 gave 2^57 instead of 2^57 + 32); BigInt → Number rounds once, correctly.
    const hex = text.slice(digitsStart, digitsEnd).replace('.', '');
    mantissa = Number(BigInt(`0x${hex}`));
  }
  scanned.value = mantissa * Math.pow(2, binaryScale);
  return p;
}

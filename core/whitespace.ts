// White space as JavaScript's `\s` and String.prototype.trim() take it, for readers that scan a
// text in place (no string per line or word) and must split where trim() and split(/\s+/) did.

/** Whether UTF-16 code unit `c` is `\s`: ASCII white space, no-break and Unicode spaces, the BOM. */
export function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

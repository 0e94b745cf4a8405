// The text table (IQE-SEMANTICS.md §4.12): empty until the first string is shared, which first
// inserts "" at offset 0; unique strings NUL-terminated in first-share order, as UTF-8 bytes.
import { utf8Length, writeUtf8 } from '../utf8';

export class TextTable {
  private readonly offsets = new Map<string, number>();
  private readonly strings: string[] = [];
  private size = 0;

  /** The offset of `s`, adding it when new. */
  share(s: string): number {
    if (this.size === 0) {
      this.offsets.set('', 0);
      this.strings.push('');
      this.size = 1;
    }
    const known = this.offsets.get(s);
    if (known !== undefined) return known;
    const offset = this.size;
    this.offsets.set(s, offset);
    this.strings.push(s);
    this.size += utf8Length(s) + 1;
    return offset;
  }

  /** Bytes without padding (0 while nothing was shared). */
  get length(): number {
    return this.size;
  }

  /** Writes the table (NUL-terminated strings) at `at`; the caller pads. */
  write(out: Uint8Array, at: number): void {
    let p = at;
    for (const s of this.strings) {
      p = writeUtf8(s, out, p);
      out[p++] = 0;
    }
  }
}

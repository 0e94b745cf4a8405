// A compact, growable list of cross-line problems found by the validator: parallel typed arrays,
// no object per problem, so a file with a million bad face indices stays small. Messages and
// ranges are made later, only for the problems that are reported (report.ts).
import { CodeId, type Code } from './codes';
import { float64s, int32s } from '../growable';

/** Where on its line a problem points. */
export enum Target {
  /** The whole line's content. */
  Line = -1,
  /** The command word. */
  Command = -2,
  /** The name (mesh, material, joint, animation). */
  Name = -3,
  // k >= 0: the k-th value of the line.
}

/**
 * Per problem: line, code, target and the two arguments most codes use (29 bytes); the rest (the
 * third argument, a range's last line, a related place) is kept apart for the few problems that
 * have one. A file of short lines with a problem on every face line must still fit in 4x its text
 * (issue 17): 45 bytes per problem, doubled by growth, did not.
 */
export class ProblemList {
  length = 0;
  line = new Int32Array(256);
  code = new Uint8Array(256);
  target = new Int32Array(256);
  private argA = new Float64Array(256);
  private argB = new Float64Array(256);
  /** Index into the rare fields below, -1 when the problem has none of them. */
  private rare = new Int32Array(256);
  private rareC = float64s(16);
  /** endLine, relatedLine, relatedTarget of each problem that has rare fields. */
  private rarePlaces = int32s(48);

  /** Text arguments of the few problems that need one, by problem index. */
  notes = new Map<number, string>();

  add(lineNumber: number, code: Code, target: number, a = 0, b = 0, relatedLine = -1, relatedTarget: number = Target.Line, endLine = -1, note?: string, c = 0): void {
    if (this.length === this.line.length) this.resize(this.line.length * 2);
    const i = this.length++;
    if (note !== undefined) this.notes.set(i, note);
    this.line[i] = lineNumber;
    this.code[i] = CodeId[code];
    this.target[i] = target;
    this.argA[i] = a;
    this.argB[i] = b;
    if (c === 0 && endLine === -1 && relatedLine === -1 && relatedTarget === Target.Line) {
      this.rare[i] = -1;
    } else {
      this.rare[i] = this.rareC.length;
      this.rareC.push(c);
      this.rarePlaces.push(endLine);
      this.rarePlaces.push(relatedLine);
      this.rarePlaces.push(relatedTarget);
    }
  }

  a(p: number): number {
    return this.argA[p];
  }

  b(p: number): number {
    return this.argB[p];
  }

  c(p: number): number {
    const r = this.rare[p];
    return r < 0 ? 0 : this.rareC.data[r];
  }

  /** Last line of a range that spans lines (-1: the problem is on one line). */
  endLine(p: number): number {
    const r = this.rare[p];
    return r < 0 ? -1 : this.rarePlaces.data[3 * r];
  }

  /** A related line (-1: none) and where on it. */
  relatedLine(p: number): number {
    const r = this.rare[p];
    return r < 0 ? -1 : this.rarePlaces.data[3 * r + 1];
  }

  relatedTarget(p: number): number {
    const r = this.rare[p];
    return r < 0 ? Target.Line : this.rarePlaces.data[3 * r + 2];
  }

  /** Drops the room kept for more problems (the list is complete: the analysis keeps it until the next edit). */
  trim(): void {
    if (this.line.length > this.length) this.resize(this.length);
  }

  /** Indices of the problems ordered by line (stable). */
  order(): Int32Array {
    const index = new Int32Array(this.length);
    let sorted = true;
    for (let i = 0; i < this.length; i++) {
      index[i] = i;
      if (i > 0 && this.line[i] < this.line[i - 1]) sorted = false;
    }
    if (sorted) return index;
    const lines = this.line;
    return Int32Array.from(Array.from(index).sort((x, y) => lines[x] - lines[y] || x - y));
  }

  private resize(n: number): void {
    const to = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(n);
      next.set(old.subarray(0, Math.min(n, this.length)));
      return next;
    };
    this.line = to(this.line, (k) => new Int32Array(k));
    this.code = to(this.code, (k) => new Uint8Array(k));
    this.target = to(this.target, (k) => new Int32Array(k));
    this.argA = to(this.argA, (k) => new Float64Array(k));
    this.argB = to(this.argB, (k) => new Float64Array(k));
    this.rare = to(this.rare, (k) => new Int32Array(k));
  }
}

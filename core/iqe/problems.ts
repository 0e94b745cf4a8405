// A compact, growable list of cross-line problems found by the validator: parallel typed arrays,
// no object per problem, so a file with a million bad face indices stays small. Messages and
// ranges are made later, only for the problems that are reported (report.ts).
import { CodeId, type Code } from './codes';

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

export class ProblemList {
  length = 0;
  line = new Int32Array(256);
  code = new Uint8Array(256);
  target = new Int32Array(256);
  /** Last line of a range that spans lines (-1: the problem is on one line). */
  endLine = new Int32Array(256);
  a = new Float64Array(256);
  b = new Float64Array(256);
  c = new Float64Array(256);
  /** A related line (-1: none) and where on it. */
  relatedLine = new Int32Array(256);
  relatedTarget = new Int32Array(256);

  /** Text arguments of the few problems that need one, by problem index. */
  notes = new Map<number, string>();

  add(lineNumber: number, code: Code, target: number, a = 0, b = 0, relatedLine = -1, relatedTarget: number = Target.Line, endLine = -1, note?: string, c = 0): void {
    if (this.length === this.line.length) this.grow();
    const i = this.length++;
    if (note !== undefined) this.notes.set(i, note);
    this.line[i] = lineNumber;
    this.code[i] = CodeId[code];
    this.target[i] = target;
    this.endLine[i] = endLine;
    this.a[i] = a;
    this.b[i] = b;
    this.c[i] = c;
    this.relatedLine[i] = relatedLine;
    this.relatedTarget[i] = relatedTarget;
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

  private grow(): void {
    const n = this.line.length * 2;
    const grow = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(n);
      next.set(old);
      return next;
    };
    this.line = grow(this.line, (k) => new Int32Array(k));
    this.code = grow(this.code, (k) => new Uint8Array(k));
    this.target = grow(this.target, (k) => new Int32Array(k));
    this.endLine = grow(this.endLine, (k) => new Int32Array(k));
    this.a = grow(this.a, (k) => new Float64Array(k));
    this.b = grow(this.b, (k) => new Float64Array(k));
    this.c = grow(this.c, (k) => new Float64Array(k));
    this.relatedLine = grow(this.relatedLine, (k) => new Int32Array(k));
    this.relatedTarget = grow(this.relatedTarget, (k) => new Int32Array(k));
  }
}

// A compact, growable list of cross-line problems found by the validator: parallel typed arrays,
// no object per problem, so a file with a million bad face indices stays small. Messages and
// ranges are made later, only for the problems that are reported (report.ts).
import { CODES, CodeId, type Code } from './codes';
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

/** Problems per block (a power of two): the list grows by blocks, never copying a full one. */
const BLOCK_BITS = 12;
const BLOCK = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK - 1;

/** One block of the list: the per-problem fields, parallel. */
class Block {
  line: Int32Array;
  code: Uint8Array;
  target: Int32Array;
  argA: Float64Array;
  argB: Float64Array;
  /** Index into the rare fields below, -1 when the problem has none of them. */
  rare: Int32Array;

  constructor(capacity: number, from?: Block, kept = 0) {
    this.line = new Int32Array(capacity);
    this.code = new Uint8Array(capacity);
    this.target = new Int32Array(capacity);
    this.argA = new Float64Array(capacity);
    this.argB = new Float64Array(capacity);
    this.rare = new Int32Array(capacity);
    if (from) {
      this.line.set(from.line.subarray(0, kept));
      this.code.set(from.code.subarray(0, kept));
      this.target.set(from.target.subarray(0, kept));
      this.argA.set(from.argA.subarray(0, kept));
      this.argB.set(from.argB.subarray(0, kept));
      this.rare.set(from.rare.subarray(0, kept));
    }
  }
}

/**
 * Per problem: line, code, target and the two arguments most codes use (29 bytes); the rest (the
 * third argument, a range's last line, a related place) is kept apart for the few problems that
 * have one. A file of short lines with a problem on every face line must still fit in 4x its text
 * (issue 17): 45 bytes per problem, doubled by growth, did not; nor did a list that doubled by
 * copying (each copy and the final trim left the old arrays as garbage: three times the list at
 * the peak). The list is blocks of 4,096 problems; only the last grows (by doubling, from 256).
 */
export class ProblemList {
  length = 0;
  private blocks: Block[] = [new Block(256)];
  private rareC = float64s(16);
  /** endLine, relatedLine, relatedTarget of each problem that has rare fields. */
  private rarePlaces = int32s(48);

  /** Text arguments of the few problems that need one, by problem index. */
  notes = new Map<number, string>();

  add(lineNumber: number, code: Code, target: number, a = 0, b = 0, relatedLine = -1, relatedTarget: number = Target.Line, endLine = -1, note?: string, c = 0): void {
    const i = this.length++;
    const at = i & IN_BLOCK;
    let block = this.blocks[i >>> BLOCK_BITS];
    if (block === undefined) {
      block = new Block(256);
      this.blocks.push(block);
    } else if (at === block.line.length) {
      block = this.blocks[i >>> BLOCK_BITS] = new Block(Math.min(BLOCK, Math.max(256, 2 * at)), block, at);
    }
    if (note !== undefined) this.notes.set(i, note);
    block.line[at] = lineNumber;
    block.code[at] = CodeId[code];
    block.target[at] = target;
    block.argA[at] = a;
    block.argB[at] = b;
    if (c === 0 && endLine === -1 && relatedLine === -1 && relatedTarget === Target.Line) {
      block.rare[at] = -1;
    } else {
      block.rare[at] = this.rareC.length;
      this.rareC.push(c);
      this.rarePlaces.push(endLine);
      this.rarePlaces.push(relatedLine);
      this.rarePlaces.push(relatedTarget);
    }
  }

  /** Adds problem p of `from` again, at `lineNumber` with `relatedLine` (kept lists name lines otherwise: linePass.ts). */
  copy(from: ProblemList, p: number, lineNumber: number, relatedLine: number): void {
    this.add(lineNumber, CODES[from.code(p)], from.target(p), from.a(p), from.b(p), relatedLine, from.relatedTarget(p), from.endLine(p), from.notes.get(p), from.c(p));
  }

  line(p: number): number {
    return this.blocks[p >>> BLOCK_BITS].line[p & IN_BLOCK];
  }

  code(p: number): number {
    return this.blocks[p >>> BLOCK_BITS].code[p & IN_BLOCK];
  }

  target(p: number): number {
    return this.blocks[p >>> BLOCK_BITS].target[p & IN_BLOCK];
  }

  a(p: number): number {
    return this.blocks[p >>> BLOCK_BITS].argA[p & IN_BLOCK];
  }

  b(p: number): number {
    return this.blocks[p >>> BLOCK_BITS].argB[p & IN_BLOCK];
  }

  private rare(p: number): number {
    return this.blocks[p >>> BLOCK_BITS].rare[p & IN_BLOCK];
  }

  c(p: number): number {
    const r = this.rare(p);
    return r < 0 ? 0 : this.rareC.data[r];
  }

  /** Last line of a range that spans lines (-1: the problem is on one line). */
  endLine(p: number): number {
    const r = this.rare(p);
    return r < 0 ? -1 : this.rarePlaces.data[3 * r];
  }

  /** A related line (-1: none) and where on it. */
  relatedLine(p: number): number {
    const r = this.rare(p);
    return r < 0 ? -1 : this.rarePlaces.data[3 * r + 1];
  }

  relatedTarget(p: number): number {
    const r = this.rare(p);
    return r < 0 ? Target.Line : this.rarePlaces.data[3 * r + 2];
  }

  /** Drops the room kept for more problems in the last block (the list is complete: the analysis keeps it until the next edit). */
  trim(): void {
    const last = this.blocks.length - 1;
    const used = this.length - (last << BLOCK_BITS);
    if (used < this.blocks[last].line.length) this.blocks[last] = new Block(used, this.blocks[last], used);
  }

  /** The typed arrays the list holds (memory accounting: bench/iqe-memory.ts). */
  arrays(): ArrayBufferView[] {
    return [...this.blocks.flatMap((b) => [b.line, b.code, b.target, b.argA, b.argB, b.rare]), this.rareC.data, this.rarePlaces.data];
  }

  /** Indices of the problems ordered by line (stable). */
  order(): Int32Array {
    const index = new Int32Array(this.length);
    let sorted = true;
    let previous = -Infinity;
    for (let i = 0; i < this.length; i++) {
      index[i] = i;
      const line = this.line(i);
      if (line < previous) sorted = false;
      previous = line;
    }
    if (sorted) return index;
    const lines = Int32Array.from(index, (i) => this.line(i));
    return Int32Array.from(Array.from(index).sort((x, y) => lines[x] - lines[y] || x - y));
  }
}

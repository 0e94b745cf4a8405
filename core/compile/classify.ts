// Equality classes of rows of numbers (vertices by value): one open-addressing hash table over
// typed arrays, no object per row. Values compare as C++ `==` does, so +0 and -0 are equal.

export interface Column {
  data: Float64Array | Uint8Array | Int32Array;
  stride: number;
}

const scratch = new Float64Array(1);
const scratchBits = new Int32Array(scratch.buffer);

function mix(h: number, x: number): number {
  scratch[0] = x === 0 ? 0 : x;
  h = Math.imul(h ^ scratchBits[0], 0x9e3779b1);
  h = Math.imul(h ^ scratchBits[1], 0x85ebca77);
  return h ^ (h >>> 15);
}

function rowHash(columns: readonly Column[], row: number): number {
  let h = 0x2545f491;
  for (let c = 0; c < columns.length; c++) {
    const { data, stride } = columns[c];
    const o = row * stride;
    for (let k = 0; k < stride; k++) h = mix(h, data[o + k]);
  }
  return h;
}

function rowsEqual(columns: readonly Column[], a: number, b: number): boolean {
  for (let c = 0; c < columns.length; c++) {
    const { data, stride } = columns[c];
    const oa = a * stride;
    const ob = b * stride;
    for (let k = 0; k < stride; k++) if (data[oa + k] !== data[ob + k]) return false;
  }
  return true;
}

/** The class of each row (classes numbered in first-appearance order) and the class count. */
export function classifyRows(columns: readonly Column[], count: number): { classOf: Int32Array; classCount: number } {
  const classOf = new Int32Array(count);
  let size = 16;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  let classCount = 0;
  for (let row = 0; row < count; row++) {
    let s = rowHash(columns, row) & mask;
    for (;;) {
      const other = slots[s];
      if (other < 0) {
        slots[s] = row;
        classOf[row] = classCount++;
        break;
      }
      if (rowsEqual(columns, other, row)) {
        classOf[row] = classOf[other];
        break;
      }
      s = (s + 1) & mask;
    }
  }
  return { classOf, classCount };
}

/** A map from pairs of non-negative integers to small integers, numbered in insertion order. */
export class PairTable {
  private keysA: Int32Array;
  private keysB: Int32Array;
  private vals: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected: number) {
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.mask = size - 1;
    this.keysA = new Int32Array(size).fill(-1);
    this.keysB = new Int32Array(size);
    this.vals = new Int32Array(size);
  }

  /** The value of (a, b), inserting the next number when absent. */
  get(a: number, b: number): number {
    if (this.size * 2 >= this.mask) this.grow();
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    let s = h & this.mask;
    for (;;) {
      const ka = this.keysA[s];
      if (ka < 0) {
        this.keysA[s] = a;
        this.keysB[s] = b;
        this.vals[s] = this.size;
        return this.size++;
      }
      if (ka === a && this.keysB[s] === b) return this.vals[s];
      s = (s + 1) & this.mask;
    }
  }

  /** The value of (a, b), or -1. */
  find(a: number, b: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    let s = h & this.mask;
    for (;;) {
      const ka = this.keysA[s];
      if (ka < 0) return -1;
      if (ka === a && this.keysB[s] === b) return this.vals[s];
      s = (s + 1) & this.mask;
    }
  }

  private grow(): void {
    const oldA = this.keysA, oldB = this.keysB, oldV = this.vals;
    const size = oldA.length * 2;
    this.mask = size - 1;
    this.keysA = new Int32Array(size).fill(-1);
    this.keysB = new Int32Array(size);
    this.vals = new Int32Array(size);
    for (let s = 0; s < oldA.length; s++) {
      const a = oldA[s];
      if (a < 0) continue;
      const b = oldB[s];
      let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
      h ^= h >>> 15;
      let t = h & this.mask;
      while (this.keysA[t] >= 0) t = (t + 1) & this.mask;
      this.keysA[t] = a;
      this.keysB[t] = b;
      this.vals[t] = oldV[s];
    }
  }
}

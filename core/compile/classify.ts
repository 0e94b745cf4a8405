// Equality classes of rows of numbers (vertices by value): one open-addressing hash table over
// typed arrays, no object per row. Values compare as C++ `==` does, so +0 and -0 are equal.
import { newArray } from '../pages';


export interface Column {
  data: Float64Array | Uint8Array | Int32Array;
  stride: number;
}

/** Mixes the values of a float column into each row's hash; +0 and -0 hash alike. */
function hashFloats(data: Float64Array, stride: number, count: number, hashes: Int32Array): void {
  const bits = new Int32Array(data.buffer, data.byteOffset, 2 * data.length);
  for (let row = 0; row < count; row++) {
    let h = hashes[row];
    for (let k = row * stride, end = k + stride; k < end; k++) {
      if (data[k] === 0) {
        h = Math.imul(h, 0x9e3779b1);
        h = Math.imul(h, 0x85ebca77);
      } else {
        h = Math.imul(h ^ bits[2 * k], 0x9e3779b1);
        h = Math.imul(h ^ bits[2 * k + 1], 0x85ebca77);
      }
    }
    hashes[row] = h;
  }
}

/** Mixes the values of an integer column into each row's hash. */
function hashIntegers(data: Uint8Array | Int32Array, stride: number, count: number, hashes: Int32Array): void {
  for (let row = 0; row < count; row++) {
    let h = hashes[row];
    for (let k = row * stride, end = k + stride; k < end; k++) h = Math.imul(h ^ data[k], 0x9e3779b1);
    hashes[row] = h;
  }
}

/**
 * A byte column whose rows are whole 4-byte words (encoded vertex arrays) as an Int32Array over
 * the same bytes: equal rows are equal words, and there are a quarter as many values to hash.
 */
function wordColumn(column: Column): Column {
  const { data, stride } = column;
  if (!(data instanceof Uint8Array) || stride % 4 !== 0 || data.byteOffset % 4 !== 0 || data.length % 4 !== 0) return column;
  return { data: new Int32Array(data.buffer, data.byteOffset, data.length / 4), stride: stride / 4 };
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

/**
 * The class of each row (classes numbered in first-appearance order) and the class count. The
 * rows' hashes are computed column by column (a loop per column type, cheap before it is
 * optimised), and rows are compared only when their hashes are equal.
 */
export function classifyRows(columns: readonly Column[], count: number): { classOf: Int32Array; classCount: number } {
  columns = columns.map(wordColumn);
  const hashes = newArray(Int32Array, count).fill(0x2545f491);
  for (const { data, stride } of columns) {
    if (data instanceof Float64Array) hashFloats(data, stride, count, hashes);
    else hashIntegers(data, stride, count, hashes);
  }
  const classOf = newArray(Int32Array, count);
  let size = 16;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const slots = newArray(Int32Array, size).fill(-1);
  let classCount = 0;
  for (let row = 0; row < count; row++) {
    const h = hashes[row];
    let s = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const other = slots[s];
      if (other < 0) {
        slots[s] = row;
        classOf[row] = classCount++;
        break;
      }
      if (hashes[other] === h && rowsEqual(columns, other, row)) {
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
    this.keysA = newArray(Int32Array, size).fill(-1);
    this.keysB = newArray(Int32Array, size);
    this.vals = newArray(Int32Array, size);
  }

  /** Empties the table (its size stays): one table serves several meshes in turn. */
  clear(): void {
    this.keysA.fill(-1);
    this.size = 0;
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
    this.keysA = newArray(Int32Array, size).fill(-1);
    this.keysB = newArray(Int32Array, size);
    this.vals = newArray(Int32Array, size);
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

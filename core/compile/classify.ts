// Equality classes of rows of numbers (vertices by value): one open-addressing hash table over
// typed arrays, no object per row. Values compare as C++ `==` does, so +0 and -0 are equal.
import { newArray } from '../pages';
import { type KernelMemory, kernelLayout, loadKernel } from '../wasm';
import classifyWasm from '../../wasm/classify.wasm';


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
  const inKernel = count <= KERNEL_MAX_ROWS ? classifyInKernel(columns, count) : null;
  if (inKernel) return inKernel;
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

interface ClassifyKernel extends KernelMemory {
  hashFloats(data: number, stride: number, count: number, hashes: number): void;
  hashIntegers(data: number, stride: number, count: number, hashes: number, bytes: number): void;
  classify(count: number, hashes: number, columns: number, n: number, slots: number, mask: number, classOf: number): number;
}
const classifySlot: { kernel?: ClassifyKernel | null } = {};

/**
 * Rows up to this many are classified in the kernel (wasm/classify.ts: the same classes): its
 * memory stays as large as the largest input it took (the columns, copied, and 12 bytes a row),
 * and a large input's loops are optimised while they run; the kernel is for the small compile,
 * whose code runs cold.
 */
const KERNEL_MAX_ROWS = 1 << 15;

/** Whether classifyRows runs the WebAssembly kernel here (tests). */
export function classifyKernelAvailable(): boolean {
  return loadKernel(classifySlot, classifyWasm) !== null;
}

/** classifyRows in the kernel (columns as wordColumn left them); null without it. */
function classifyInKernel(columns: readonly Column[], count: number): { classOf: Int32Array; classCount: number } | null {
  // A column shorter than its rows reads undefined in JavaScript: that case stays there.
  if (columns.some(({ data, stride }) => data.length < stride * count)) return null;
  const kernel = loadKernel(classifySlot, classifyWasm);
  if (!kernel) return null;
  let size = 16;
  while (size < count * 2) size *= 2;
  const offsets = kernelLayout(kernel, [4 * count, 12 * columns.length, 4 * size, 4 * count, ...columns.map(({ data, stride }) => data.BYTES_PER_ELEMENT * stride * count)]);
  const [hashesAt, columnsAt, slotsAt, classOfAt] = offsets;
  const dataAt = offsets.slice(4);
  const buffer = kernel.memory.buffer;
  new Int32Array(buffer, hashesAt, count).fill(0x2545f491);
  const descriptors = new Int32Array(buffer, columnsAt, 3 * columns.length);
  columns.forEach(({ data, stride }, c) => {
    const values = stride * count;
    const kind = data instanceof Float64Array ? 0 : data instanceof Int32Array ? 1 : 2;
    if (kind === 0) new Float64Array(buffer, dataAt[c], values).set(data.subarray(0, values));
    else if (kind === 1) new Int32Array(buffer, dataAt[c], values).set(data.subarray(0, values));
    else new Uint8Array(buffer, dataAt[c], values).set(data.subarray(0, values));
    descriptors.set([dataAt[c], stride, kind], 3 * c);
    if (kind === 0) kernel.hashFloats(dataAt[c], stride, count, hashesAt);
    else kernel.hashIntegers(dataAt[c], stride, count, hashesAt, kind === 2 ? 1 : 0);
  });
  new Int32Array(buffer, slotsAt, size).fill(-1);
  const classCount = kernel.classify(count, hashesAt, columnsAt, columns.length, slotsAt, size - 1, classOfAt);
  const classOf = newArray(Int32Array, count);
  classOf.set(new Int32Array(buffer, classOfAt, count));
  return { classOf, classCount };
}

/** A map from pairs of non-negative integers to small integers, numbered in insertion order. */
export class PairTable {
  private keysA: Int32Array;
  private keysB: Int32Array;
  private vals: Int32Array;
  /** The slot of each value, in insertion order, when the table is to be cleared: clear() empties only these. */
  private slots: Int32Array | null;
  private mask: number;
  size = 0;

  /** `clearable`: clear() will be called (it keeps each value's slot for that). */
  constructor(expected: number, clearable = false) {
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.mask = size - 1;
    this.keysA = newArray(Int32Array, size).fill(-1);
    this.keysB = newArray(Int32Array, size);
    this.vals = newArray(Int32Array, size);
    this.slots = clearable ? newArray(Int32Array, size / 2 + 1) : null;
  }

  /**
   * Empties the table (its size stays): one table serves several meshes in turn. Only the slots
   * in use are emptied: a table sized for one large mesh was filled whole for each of 20,000
   * one-triangle meshes after it (0.46 s; quadratic in the meshes).
   */
  clear(): void {
    const keysA = this.keysA, slots = this.slots;
    if (!slots) throw new Error('PairTable.clear: the table was not made clearable');
    for (let i = 0; i < this.size; i++) keysA[slots[i]] = -1;
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
        if (this.slots) this.slots[this.size] = s;
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
    const slots = this.slots ? (this.slots = newArray(Int32Array, size / 2 + 1)) : null;
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
      if (slots) slots[oldV[s]] = t;
    }
  }
}

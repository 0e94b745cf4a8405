// A typed array that grows by doubling: the parser's scratch lines, the validator's lists and the
// compiler's input arrays, which are filled before their final length is known. Past PAGED_FROM
// bytes an array moves to pages of its own (pages.ts) and grows there in place, without a copy.
import { type ArrayKind, heapArray, PAGED_FROM, Pages } from './pages';

export type NumberArray = Int32Array | Uint8Array | Uint32Array | Float64Array | Float32Array;

export class Growable<T extends NumberArray> {
  length = 0;
  data: T;
  /** The pages the values are on, once they are. */
  private pages: Pages | null = null;

  /** `shared`: kept on a SharedArrayBuffer (for worker threads) where the platform has one. */
  constructor(
    private readonly kind: ArrayKind<T>,
    capacity: number,
    private readonly shared = false,
  ) {
    this.data = heapArray(kind, capacity, shared);
  }

  /**
   * Makes room for `n` more values and returns the array to write them to (at `length`; the
   * caller then adds n to `length`). The array may be a new one after this call.
   */
  reserve(n: number): T {
    if (this.length + n > this.data.length) this.grow(Math.max(this.data.length * 2, this.length + n, 16));
    return this.data;
  }

  private grow(capacity: number): void {
    const kind = this.kind;
    const bytes = kind.BYTES_PER_ELEMENT * capacity;
    if (bytes >= PAGED_FROM) {
      const onPages = this.pages !== null;
      this.pages ??= Pages.open(this.shared);
      const buffer = this.pages?.grow(bytes);
      if (buffer) {
        // Growing keeps the values where they are.
        const bigger = new kind(buffer);
        if (!onPages) bigger.set(this.data.subarray(0, this.length));
        this.data = bigger;
        return;
      }
      this.pages = null;
    }
    const bigger = heapArray(kind, capacity, this.shared);
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  /** Appends source[0, n). */
  pushMany(source: ArrayLike<number>, n: number): void {
    const data = this.reserve(n);
    let at = this.length;
    for (let i = 0; i < n; i++) data[at++] = source[i];
    this.length = at;
  }

  /** Appends source[0, n), a typed array of the same kind of numbers (one copy, no loop here). */
  append(source: T, n: number): void {
    const data = this.reserve(n);
    data.set(source.subarray(0, n), this.length);
    this.length += n;
  }

  /** The values as an array of their own, exactly `length` long. */
  copy(): T {
    return this.data.slice(0, this.length) as T;
  }

  /**
   * The values without a copy: a view of the first `length` values. The spare capacity behind it
   * stays allocated, but pages never written are not resident, so for large arrays it costs
   * address space, not memory.
   */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export function int32s(capacity = 64): Growable<Int32Array> {
  return new Growable(Int32Array, capacity);
}

export function float64s(capacity = 64): Growable<Float64Array> {
  return new Growable(Float64Array, capacity);
}

export function uint8s(capacity = 64): Growable<Uint8Array> {
  return new Growable(Uint8Array, capacity);
}

export function uint32s(capacity = 64): Growable<Uint32Array> {
  return new Growable(Uint32Array, capacity);
}

/**
 * Doubles kept in 32 bits while every one of them is exactly a float32 (small integers, halves:
 * `vp 1 2 3`), and widened to 64 bits, once, at the first that is not: half the memory for such
 * values, the same numbers read back either way (sample's positions and weights, issue 17).
 */
export class NarrowDoubles {
  private narrow: Growable<Float32Array> | null;
  private wide: Growable<Float64Array> | null = null;

  constructor(capacity = 64) {
    this.narrow = new Growable(Float32Array, capacity);
  }

  get length(): number {
    return (this.narrow ?? this.wide)!.length;
  }

  push(value: number): void {
    const narrow = this.narrow;
    if (narrow) {
      // NaN is a float32 too.
      if (Math.fround(value) === value || value !== value) {
        narrow.push(value);
        return;
      }
      this.wide = new Growable(Float64Array, Math.max(2 * narrow.length, 64));
      this.wide.pushMany(narrow.view(), narrow.length);
      this.narrow = null;
    }
    this.wide!.push(value);
  }

  /** The values (a view: valid until the next push). */
  view(): Float32Array | Float64Array {
    return (this.narrow ?? this.wide)!.view();
  }
}

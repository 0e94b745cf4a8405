// A typed array that grows by doubling: the parser's scratch lines, the validator's lists and the
// compiler's input arrays, which are filled before their final length is known.

export type NumberArray = Int32Array | Uint8Array | Uint32Array | Float64Array;

export class Growable<T extends NumberArray> {
  length = 0;
  constructor(public data: T, private readonly make: (n: number) => T) {}

  /**
   * Makes room for `n` more values and returns the array to write them to (at `length`; the
   * caller then adds n to `length`). The array may be a new one after this call.
   */
  reserve(n: number): T {
    if (this.length + n > this.data.length) {
      const bigger = this.make(Math.max(this.data.length * 2, this.length + n, 16));
      bigger.set(this.data.subarray(0, this.length));
      this.data = bigger;
    }
    return this.data;
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
  return new Growable(new Int32Array(capacity), (n) => new Int32Array(n));
}

export function float64s(capacity = 64): Growable<Float64Array> {
  return new Growable(new Float64Array(capacity), (n) => new Float64Array(n));
}

export function uint8s(capacity = 64): Growable<Uint8Array> {
  return new Growable(new Uint8Array(capacity), (n) => new Uint8Array(n));
}

export function uint32s(capacity = 64): Growable<Uint32Array> {
  return new Growable(new Uint32Array(capacity), (n) => new Uint32Array(n));
}

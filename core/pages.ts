// Large typed arrays on pages of their own (a WebAssembly.Memory) rather than on malloc's heap.
// Why: an ArrayBuffer's memory comes from malloc, and glibc keeps most large blocks it is given
// back (it raises its mmap threshold to the size of each large block freed, and later blocks of
// that size come from its heap, which it seldom returns), so on a large compile every array
// freed between stages stayed resident and the peak was the sum of all of them
// (IQE-SEMANTICS.md §11 holds the compiler to the reference compiler's peak memory). A
// memory's pages are mapped as they are first written, it grows in place, and it is unmapped
// when collected. Where WebAssembly is missing, or the system gives no more address space, the
// arrays are ordinary ones.

/** A typed array constructor (Float64Array, Int32Array, ...). */
export interface ArrayKind<T> {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** Arrays of at least this many bytes go on pages of their own. */
export const PAGED_FROM = 1 << 20;
const PAGE = 65536;
/** Largest memory, in pages (4 GiB); a shared one must name its maximum. */
const MAX_PAGES = 65536;

/** Bytes of pages mapped since the last collection, and the host's collector (setCollector). */
let mappedSinceCollect = 0;
let collector: (() => void) | null = null;
/** Collections are asked for only when this much was mapped since the last one. */
const COLLECT_AFTER = 16 << 20;

/** WebAssembly.Memory, as far as it is used here (core/ is built without DOM or node types). */
interface PageMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}
type PageMemoryConstructor = new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => PageMemory;
const Memory = (globalThis as { WebAssembly?: { Memory?: PageMemoryConstructor } }).WebAssembly?.Memory;
const sharedAvailable = typeof SharedArrayBuffer === 'function';

/**
 * Pages that grow in place: `grow(bytes)` makes them at least that long and returns the buffer
 * (for an unshared memory, the previous buffer is detached; a shared one's stays valid).
 */
export class Pages {
  private constructor(private readonly memory: PageMemory) {}

  /** New pages, or null where there are none to be had (no WebAssembly, no address space). */
  static open(shared: boolean): Pages | null {
    if (!Memory || (shared && !sharedAvailable)) return null;
    try {
      return new Pages(new Memory({ initial: 0, maximum: shared ? MAX_PAGES : undefined, shared }));
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }

  /** The buffer, at least `bytes` long; null when the memory cannot grow that far. */
  grow(bytes: number): ArrayBufferLike | null {
    const pages = Math.ceil(bytes / PAGE);
    if (pages > MAX_PAGES) return null;
    const have = this.memory.buffer.byteLength / PAGE;
    try {
      if (pages > have) {
        this.memory.grow(pages - have);
        mappedSinceCollect += (pages - have) * PAGE;
      }
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
    return this.memory.buffer;
  }
}

/** A zeroed typed array on pages of its own (so page-aligned), or null where there are none. */
function pagedArray<T>(kind: ArrayKind<T>, length: number, shared: boolean): T | null {
  const buffer = Pages.open(shared)?.grow(kind.BYTES_PER_ELEMENT * length);
  return buffer ? new kind(buffer, 0, length) : null;
}

/** A zeroed ordinary typed array (malloc's), on a SharedArrayBuffer when `shared` where the platform has one. */
export function heapArray<T>(kind: ArrayKind<T>, length: number, shared = false): T {
  return shared && sharedAvailable ? new kind(new SharedArrayBuffer(kind.BYTES_PER_ELEMENT * length)) : new kind(length);
}

/**
 * A zeroed typed array of `length` values: on pages of its own when it is large, on a
 * SharedArrayBuffer when `shared` (for worker threads; ordinary when the platform has none).
 */
export function newArray<T>(kind: ArrayKind<T>, length: number, shared = false): T {
  const paged = kind.BYTES_PER_ELEMENT * length >= PAGED_FROM ? pagedArray(kind, length, shared) : null;
  return paged ?? heapArray(kind, length, shared);
}

/**
 * A zeroed typed array that starts on a page boundary (where pages are to be had), whatever its
 * size: for arrays whose records are read in cache-line-sized pieces (malloc aligns to 16 bytes
 * only, so where records fall across cache lines would change from one allocation to another).
 */
export function alignedArray<T>(kind: ArrayKind<T>, length: number): T {
  return pagedArray(kind, length, false) ?? new kind(length);
}

/**
 * Lets the host collect garbage on request (the CLI: node's gc). Pages of dropped arrays are
 * unmapped only when their memory objects are collected, and the compile's stages allocate too
 * little on the JS heap for a collection to come soon by itself.
 */
export function setCollector(collect: (() => void) | null): void {
  collector = collect;
}

/** Called where a stage has dropped large arrays: collects them when many pages were mapped since the last time. */
export function collectPages(): void {
  if (!collector || mappedSinceCollect < COLLECT_AFTER) return;
  mappedSinceCollect = 0;
  collector();
}

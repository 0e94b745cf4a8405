// The V8 code cache of the CLI bundle (cli/launch.ts reads it, the build writes it): a short
// command spends most of its time in code V8 has not compiled yet, and ~10-15 ms of that in
// parsing the bundle and compiling its functions to bytecode, which a code cache skips
// (bench/compile-small.ts). V8 itself rejects a cache made by another V8 version or with other
// flags; it only checks the source's length, so the file also names the bundle it was made
// from: its size and modification time when the cache was written.

/** Bytes before V8's data: the bundle's size and mtime (ms), as two little-endian float64s. */
const HEADER_BYTES = 16;

/** The cache file's bytes for V8's `data` made from a bundle of `size` bytes modified at `mtimeMs`. */
export function encodeCodeCache(size: number, mtimeMs: number, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES + data.length);
  const header = new DataView(bytes.buffer);
  header.setFloat64(0, size, true);
  header.setFloat64(8, mtimeMs, true);
  bytes.set(data, HEADER_BYTES);
  return bytes;
}

/** V8's data in a cache file, or undefined when the file was written for another bundle than the one of `size` bytes at `mtimeMs`. */
export function decodeCodeCache(bytes: Uint8Array, size: number, mtimeMs: number): Uint8Array | undefined {
  if (bytes.length <= HEADER_BYTES) return undefined;
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  if (header.getFloat64(0, true) !== size || header.getFloat64(8, true) !== mtimeMs) return undefined;
  return bytes.subarray(HEADER_BYTES);
}

/** A CommonJS module's source as Node wraps it (the cache is made for, and checked against, this text). */
export function wrapModuleSource(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

// Text decoding shared by the CLI's IQE commands: UTF-8 (names are bytes in the reference
// compiler; UTF-8 is what exporters write); a leading BOM is dropped, as VS Code drops it, so
// that line 1 columns agree with what the editor shows. Invalid bytes become U+FFFD.
import { closeSync, openSync, readSync } from 'node:fs';

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/**
 * Bytes read from the file at a time by readTextBlocks: small enough that each block's string is
 * an ordinary young-generation object that dies young (V8 puts strings of more than ~128 KB in
 * its large-object space, where a 73 MB file's blocks waited for a full collection: +60 MB peak).
 */
const BLOCK_BYTES = 1 << 16;

/**
 * Reads a file in blocks and gives its text piece by piece, decoded exactly as decodeText would
 * decode the whole file (a character split across blocks is joined); the whole file is never in
 * memory. Throws the read error (a NodeJS.ErrnoException).
 */
export function readTextBlocks(path: string, onText: (text: string) => void): void {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const block = new Uint8Array(BLOCK_BYTES);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, block, 0, BLOCK_BYTES, null);
      if (n === 0) break;
      onText(decoder.decode(block.subarray(0, n), { stream: true }));
    }
  } finally {
    closeSync(fd);
  }
  onText(decoder.decode());
}

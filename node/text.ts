// Text decoding shared by the CLI and the desktop compile worker: UTF-8 (names are bytes in the reference
// compiler; UTF-8 is what exporters write); a leading BOM is dropped, as VS Code drops it, so
// that line 1 columns agree with what the editor shows. Invalid bytes become U+FFFD.
import { Buffer, isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AnimationOptions, type CompileSource, iqeStreamSource } from '../core/compile/index';
import { type IngestResult, IqeIngest } from '../core/compile/ingest';
import type { ResourceReader } from '../core/gltf/source';
import { detectFormat, FORMATS, HEAD_BYTES, unusableMessage } from '../core/formats/registry';
import { openSource } from '../core/formats/sources';

export function decodeText(bytes: Uint8Array): string {
  // ASCII (nearly every model file): its Latin-1 copy, which node makes outside V8's heap in
  // memory from malloc (where the launcher's huge pages apply: cli/launch.ts), not in V8's
  // large-object space, which is mapped page by page.
  if (isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/**
 * Bytes read from the file at a time by readTextBlocks: small enough that each block's string is
 * an ordinary young-generation object that dies young (V8 puts strings of more than ~128 KB in
 * its large-object space, where a 73 MB file's blocks waited for a full collection: +60 MB peak).
 */
export const BLOCK_BYTES = 1 << 16;

/**
 * Reads a file in blocks and gives its text piece by piece, decoded exactly as decodeText would
 * decode the whole file (a character split across blocks is joined); the whole file is never in
 * memory. Throws the read error (a NodeJS.ErrnoException).
 */
export function readTextBlocks(path: string, onText: (text: string) => void): void {
  // The decoder keeps the BOM (a stream's first U+FEFF is dropped below, as decodeText drops it):
  // when it first sees text after ASCII blocks, that text is not the stream's start.
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  const block = new Uint8Array(BLOCK_BYTES);
  // Whether the decoder may hold the first bytes of a character split across blocks: not after
  // a block that ends in an ASCII byte.
  let pending = false;
  let first = true;
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, block, 0, BLOCK_BYTES, null);
      if (n === 0) break;
      const bytes = block.subarray(0, n);
      let text: string;
      // ASCII (nearly every model file): its UTF-8 decoding is its Latin-1 copy, which takes a
      // quarter of TextDecoder's time in node 20 (49 MB in 64 KiB blocks: 11-15 against 50-70 ms;
      // a whole file's copy gains little: a string that large is allocated outside the heap).
      if (!pending && isAscii(bytes)) text = Buffer.from(block.buffer, 0, n).toString('latin1');
      else {
        text = decoder.decode(bytes, { stream: true });
        if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        pending = bytes[n - 1] >= 0x80;
      }
      if (text.length > 0) first = false;
      onText(text);
    }
  } finally {
    closeSync(fd);
  }
  onText(decoder.decode());
}

/**
 * An IQE file streamed through the ingest in blocks (the whole text is never held); `skinOnly`:
 * see InputGatherer. The ingest, and the growing arrays it gathered in, are unreachable once this
 * returns. Throws the read error.
 */
export function ingestFile(path: string, skinOnly = false): IngestResult {
  const ingest = new IqeIngest(undefined, skinOnly);
  readTextBlocks(path, (text) => ingest.push(text));
  return ingest.finish();
}

/** The first bytes of a file (at most HEAD_BYTES: what the registry tells a format from). Throws the read error. */
export function readHead(path: string): Uint8Array {
  const head = new Uint8Array(HEAD_BYTES);
  const fd = openSync(path, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * A file as a compile's source, or one line that says why it is none (the registry's message: a
 * binary model, a Git LFS pointer, binary data). IQE text streams through the ingest in blocks
 * (never held whole) and is read whole only for the diagnostics of a file with errors; any other
 * source is read whole by the registry's reader (core/formats/sources.ts), with the files it names
 * read beside it (an OBJ's .mtl, a glTF's .bin and images). Read errors are thrown
 * (NodeJS.ErrnoException).
 */
export async function fileSource(path: string, options?: AnimationOptions): Promise<CompileSource | string> {
  const format = detectFormat(readHead(path), path);
  const unusable = unusableMessage(format, 'compile');
  if (unusable) return unusable;
  if (FORMATS[format].streams) return iqeFileSource(path, options);
  return openSource({ bytes: new Uint8Array(readFileSync(path)) }, path, resourceReader(path), options, format);
}

/** An IQE file as a compile source, streamed through the ingest in blocks (the text read whole only for the diagnostics of a file with errors). */
export function iqeFileSource(path: string, options?: AnimationOptions): CompileSource {
  return iqeStreamSource(
    path,
    () => ingestFile(path),
    () => decodeText(readFileSync(path)),
    options,
  );
}

/** Reads the files a source names (a glTF's .bin and images, an OBJ's .mtl), relative to its folder, as bytes (null when one cannot be read). */
export function resourceReader(path: string): ResourceReader {
  return (uri) => {
    try {
      return new Uint8Array(readFileSync(join(dirname(path), decodeURIComponent(uri).replace(/\\/g, '/'))));
    } catch {
      try {
        return new Uint8Array(readFileSync(join(dirname(path), uri.replace(/\\/g, '/'))));
      } catch {
        return null;
      }
    }
  };
}

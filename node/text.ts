// Text decoding shared by the CLI and the desktop compile worker: UTF-8 (names are bytes in the reference
// compiler; UTF-8 is what exporters write); a leading BOM is dropped, as VS Code drops it, so
// that line 1 columns agree with what the editor shows. Invalid bytes become U+FFFD.
import { Buffer, isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AnimationOptions, type CompileSource, iqeStreamSource, textSource } from '../core/compile/index';
import { sourceFormat } from '../core/compile/format';
import { type IngestResult, IqeIngest } from '../core/compile/ingest';
import { sniff } from '../core/sniff';
import { gltfSource, type ResourceReader } from '../core/gltf/source';

/** How far into a file a NUL byte says "binary data" (IQE text has none). */
const BINARY_PROBE_BYTES = 4096;

/**
 * Why a file is not IQE text at all, as one line for `check` and `compile` to print instead of a
 * page of diagnostics about its bytes: another model format by its magic (CLI.md), a Git LFS
 * pointer, or binary data (a NUL byte near the start). Null for text, IQE or not: a text file
 * without the IQE header gets the header diagnostic like any other problem.
 */
export function notIqeText(bytes: Uint8Array): string | null {
  const kind = sniff(bytes);
  switch (kind.format) {
    case 'iqe':
    case 'md5':
    case 'glb':
      // Sources the compiler reads (MD5 text, a binary glTF: core/compile/format.ts).
      return null;
    case 'lfs':
      return 'a Git LFS pointer, not the model it stands for (git lfs pull fetches it)';
    case 'unknown':
      return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0) ? 'binary data, not IQE text' : null;
    default:
      return `${kind.description}, not IQE text${kind.supported ? ' (iqm-tools info reads it)' : ''}`;
  }
}

export function decodeText(bytes: Uint8Array): string {
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

/** The first bytes of a file (at most BINARY_PROBE_BYTES: what notIqeText looks at). Throws the read error. */
export function readHead(path: string): Uint8Array {
  const head = new Uint8Array(BINARY_PROBE_BYTES);
  const fd = openSync(path, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * A file as a compile's source, read when the compile starts: an IQE streams through the ingest
 * in blocks (never held whole) and is read whole only for the diagnostics of a file with errors;
 * the other formats (MD5, SMD, OBJ) are read whole, and an OBJ's .mtl beside it. The format comes
 * from the content (sourceFormat), the extension only where the content says nothing. Read errors
 * are thrown (NodeJS.ErrnoException).
 */
export function fileSource(path: string, options?: AnimationOptions): CompileSource {
  const head = decodeText(readHead(path));
  const format = sourceFormat(head, path);
  if (format === 'iqe' || format === 'unknown') {
    return iqeStreamSource(
      path,
      () => ingestFile(path),
      () => decodeText(readFileSync(path)),
      options,
    );
  }
  return {
    name: path,
    options,
    read: () => textSource(decodeText(readFileSync(path)), path, options, siblingReader(path)).read(),
  };
}

/** Reads the files a source names, relative to its folder (null when one cannot be read). */
export function siblingReader(path: string): (name: string) => string | null {
  return (name) => {
    try {
      return decodeText(readFileSync(join(dirname(path), name.replace(/\\/g, '/'))));
    } catch {
      return null;
    }
  };
}

/** Reads the files a glTF names (its .bin, its images), relative to its folder, as bytes (null when one cannot be read). */
export function resourceReader(path: string): ResourceReader {
  return (uri) => {
    try {
      return new Uint8Array(readFileSync(join(dirname(path), decodeURIComponent(uri).replace(/\\/g, '/'))));
    } catch {
      return null;
    }
  };
}

/** Whether a file's first bytes are a glTF (a GLB, or glTF JSON: core/compile/format.ts). */
export function isGltfHead(head: Uint8Array, path: string): boolean {
  const format = sourceFormat(decodeText(head), path);
  return format === 'gltf' || format === 'glb';
}

/**
 * A file as a compile source, glTF included: a glTF is decoded now (core/gltf/source.ts: the glTF
 * library's reader is async) with the files beside it; any other format is fileSource's. Read
 * errors are thrown (NodeJS.ErrnoException).
 */
export async function openFileSource(path: string, options?: AnimationOptions): Promise<CompileSource> {
  if (!isGltfHead(readHead(path), path)) return fileSource(path, options);
  return gltfSource(new Uint8Array(readFileSync(path)), path, resourceReader(path), options);
}

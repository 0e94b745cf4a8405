// The injected file access (core/files.ts) over node:fs: POSIX paths as given (absolute or
// relative to the working directory); anything that cannot be read is null/false. Two of them: the
// CLI's synchronous one (nothing else runs on its thread, and a lookup's many stats are cheapest
// so), and an asynchronous one for a thread that must not wait on the disk (the Node extension
// host's reads of its own files, client/fileAccess.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { FileAccess } from '../core/files';

export const nodeFileAccess: FileAccess = {
  async readBytes(path) {
    try {
      return new Uint8Array(readFileSync(path));
    } catch {
      return null;
    }
  },
  async isFile(path) {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  },
  async listFolder(path) {
    try {
      return readdirSync(path);
    } catch {
      return null;
    }
  },
};

export const nodeFileAccessAsync: FileAccess = {
  async readBytes(path) {
    try {
      const buffer = await readFile(path);
      // A small file's Buffer may be a view into node's shared pool: copied, so that the bytes own their buffer.
      return buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength ? new Uint8Array(buffer.buffer) : new Uint8Array(buffer);
    } catch {
      return null;
    }
  },
  async isFile(path) {
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  },
  async listFolder(path) {
    try {
      return await readdir(path);
    } catch {
      return null;
    }
  },
};

// The injected file access (core/files.ts) over node:fs, for the CLI: POSIX paths as given
// (absolute or relative to the working directory); anything that cannot be read is null/false.
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

// The file access of core on a local disk (core/files.ts), for the CLI: the engine lookup
// (core/lookup) and the sidecar checks (core/sidecar/check.ts, with the model beside a sidecar).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { FileAccess } from '../core/files';
import { readModelSummary, type SidecarIo } from '../core/sidecar/check';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export const diskFiles: FileAccess = {
  isFile: async (path) => isFile(path),
  listFolder: async (path) => {
    try {
      return readdirSync(path);
    } catch {
      return null;
    }
  },
  readBytes: async (path) => {
    try {
      return isFile(path) ? new Uint8Array(readFileSync(path)) : null;
    } catch {
      return null; // unreadable: as if absent
    }
  },
};

export const diskSidecarIo: SidecarIo = {
  ...diskFiles,
  model: async (path) => {
    if (!isFile(path)) return null;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path));
    } catch (error) {
      return { error: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
    }
    return readModelSummary(path, bytes);
  },
};

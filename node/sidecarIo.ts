// The sidecar checks' file access on a local disk (core/sidecar/check.ts), for the CLI.
import { readFileSync, statSync } from 'node:fs';
import { readModelSummary, type SidecarIo } from '../core/sidecar/check';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export const diskSidecarIo: SidecarIo = {
  isFile: async (path) => isFile(path),
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

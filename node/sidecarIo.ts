// The sidecar checks' file access on a local disk (core/sidecar/check.ts): node/files.ts's, with
// the model beside a sidecar read and summarised.
import { readFileSync } from 'node:fs';
import { nodeFileAccess } from './files';
import { readModelSummary, type SidecarIo } from '../core/sidecarCheck/check';

export const diskSidecarIo: SidecarIo = {
  ...nodeFileAccess,
  model: async (path) => {
    if (!(await nodeFileAccess.isFile(path))) return null;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path));
    } catch (error) {
      return { error: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
    }
    return readModelSummary(path, bytes);
  },
};

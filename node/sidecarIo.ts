// The sidecar checks' file access on a local disk (core/sidecar/check.ts), for the CLI.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readModelSummary, type SidecarIo } from '../core/sidecar/check';
import { searchFolders } from '../core/sidecar/companions';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export const diskSidecarIo: SidecarIo = {
  isFile: async (path) => isFile(path),
  listFolder: async (path) => {
    try {
      return readdirSync(path);
    } catch {
      return null;
    }
  },
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
  // What a game loads: scripts/*.shader under its folder (any folder above the file may be it), and
  // the scripts lying beside the file.
  shaderScripts: async (dir) => {
    const out: { path: string; text: string }[] = [];
    for (const folder of [dir, ...searchFolders(dir).map((d) => join(d, 'scripts'))]) {
      let names: string[];
      try {
        names = readdirSync(folder).filter((n) => /\.shader$/i.test(n)).sort();
      } catch {
        continue;
      }
      for (const name of names) {
        try {
          out.push({ path: join(folder, name), text: readFileSync(join(folder, name), 'latin1') });
        } catch {
          // unreadable: as if absent
        }
      }
    }
    return out;
  },
};

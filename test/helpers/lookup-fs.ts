// The preview's texture/sidecar lookup (client/preview/resolve.ts) over node:fs, with
// ../shared/assets as the "workspace" whose *.shader files are searched. For tests only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LookupFs } from '../../client/preview/resolve';
import { ASSETS } from './model-assets';

export const nodeLookupFs: LookupFs = {
  async isFile(p) {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  },
  async listFolder(p) {
    try {
      return readdirSync(p);
    } catch {
      return null;
    }
  },
  async readText(p) {
    try {
      return readFileSync(p, 'latin1');
    } catch {
      return null;
    }
  },
  async shaderFiles() {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith('.shader')) out.push(p);
      }
    };
    walk(ASSETS);
    return out;
  },
};

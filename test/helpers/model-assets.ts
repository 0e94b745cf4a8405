// Real files from ../shared/assets (never copied into the repo). Tests skip with a message where
// the folder is absent.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED = resolve(process.cwd(), '..', 'shared');
export const ASSETS = join(SHARED, 'assets');
export const HAVE_ASSETS = existsSync(ASSETS);
export const NO_ASSETS = HAVE_ASSETS ? false : `../shared/assets is absent (${ASSETS}); real-file tests skipped`;

/** The bytes of an asset (path relative to ../shared/assets). */
export function asset(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(join(ASSETS, rel)));
}

export function assetText(rel: string): string {
  return readFileSync(join(ASSETS, rel), 'latin1');
}

/** Every .iqm, .md3 and .dpm under ../shared/assets, relative paths, sorted. */
export function modelAssets(): string[] {
  if (!HAVE_ASSETS) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(iqm|md3|dpm)$/i.test(name)) out.push(p.slice(ASSETS.length + 1));
    }
  };
  walk(ASSETS);
  return out.sort();
}

/** Every model and source file the CLI reads among the shared assets, absolute paths, sorted (the invalid/ folder is the error tests'). */
export function sharedModels(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'invalid') walk(p);
      } else if (/\.(iqm|iqe|md3|dpm|md5mesh|smd|obj|glb|gltf)$/i.test(e.name)) out.push(p);
    }
  };
  if (HAVE_ASSETS) walk(ASSETS);
  return out.sort();
}

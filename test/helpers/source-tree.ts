// The repository's source files, for the tests that check the code itself (layers.test.ts,
// names.test.ts): where the repository is, and the TypeScript files below a folder of it.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/** The repository (the test files run from out/test/...; their sources are in test/). */
function findRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'core', 'tsconfig.json'))) return dir;
  }
  throw new Error(`no repository above ${__dirname}`);
}
export const REPO = findRoot();

/** The .ts and .mts files (not .d.ts) below `dir`, as repository paths with '/', sorted. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

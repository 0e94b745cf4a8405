// Benchmark inputs: the synthetic IQE files of ../shared/tools/gen_big_iqe.py, generated once into
// bench/.data/ (git-ignored).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const dataDir = resolve('bench/.data');

/** Path of bench/.data/NAME, generated with gen_big_iqe.py ARGS when missing; undefined if it cannot be. */
export function syntheticIqe(name: string, args: string[] = []): string | undefined {
  const path = join(dataDir, name);
  if (existsSync(path)) return path;
  const generator = resolve('..', 'shared', 'tools', 'gen_big_iqe.py');
  if (!existsSync(generator)) {
    console.log(`skipped: ${generator} is absent`);
    return undefined;
  }
  mkdirSync(dataDir, { recursive: true });
  const run = spawnSync('python3', [generator, ...args, path], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.log(`skipped: gen_big_iqe.py failed (status ${run.status})`);
    return undefined;
  }
  return path;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** ../shared/assets: the real models (MANIFEST.tsv), absent on a machine without ../shared. */
export const assetsDir = resolve('..', 'shared', 'assets');

/** The real sources the reference compiler reads, by folder of ../shared/assets. */
const REAL_SOURCES: [string, RegExp][] = [['iqe', /\.iqe$/i], ['md5', /\.md5mesh$/i], ['smd', /\.smd$/i], ['obj', /\.obj$/i]];

/**
 * Every real source of ../shared/assets the reference compiler reads (IQE, md5mesh, SMD, OBJ), in
 * order of format, folder and name; `name`: folder/file for an IQE, format/folder/file otherwise.
 * Empty where ../shared/assets is absent.
 */
export function realSources(): { name: string; path: string }[] {
  const real: { name: string; path: string }[] = [];
  for (const [format, pattern] of REAL_SOURCES) {
    const root = join(assetsDir, format);
    if (!existsSync(root)) continue;
    for (const dir of readdirSync(root).sort()) {
      const folder = join(root, dir);
      if (!statSync(folder).isDirectory()) continue;
      for (const file of readdirSync(folder).sort()) {
        if (pattern.test(file)) real.push({ name: `${format === 'iqe' ? '' : `${format}/`}${dir}/${file}`, path: join(folder, file) });
      }
    }
  }
  return real;
}

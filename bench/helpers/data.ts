// Benchmark inputs: the synthetic IQE files of ../shared/tools/gen_big_iqe.py, generated once into
// bench/.data/ (git-ignored).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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

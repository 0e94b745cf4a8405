// One timed run of a command for the benchmarks that run the CLI as a user does: wall time as
// seen from here, and, where /usr/bin/time exists, the child's peak memory (maxRSS) and CPU time.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const timeTool = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

export interface Run {
  seconds: number;
  /** Peak resident memory in MiB (NaN without /usr/bin/time). */
  mib: number;
  /** CPU seconds of all its threads, user + system (NaN without /usr/bin/time). */
  cpu: number;
  ok: boolean;
  error?: string;
}

/** One run of a command: wall seconds (as seen from here), peak memory, success; `dir` holds /usr/bin/time's output. */
export function timed(command: string, args: string[], dir: string): Run {
  const rssFile = join(dir, 'rss');
  const [file, argv] = timeTool ? [timeTool, ['-f', '%M %U %S', '-o', rssFile, command, ...args]] : [command, args];
  const t = performance.now();
  const run = spawnSync(file, argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - t) / 1000;
  let mib = NaN, cpu = NaN;
  if (timeTool && existsSync(rssFile)) {
    const [kib, user, system] = readFileSync(rssFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    mib = kib / 1024;
    cpu = user + system;
  }
  const ok = run.status === 0;
  return { seconds, mib, cpu, ok, error: ok ? undefined : (run.stderr || run.stdout).trim().split('\n').slice(0, 3).join(' | ') };
}


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

/** One run of a command: wall seconds (as seen from here), peak memory, success; `dir` holds /usr/bin/time's output; `env` is added to this process's. */
export function timed(command: string, args: string[], dir: string, env?: Record<string, string>): Run {
  const rssFile = join(dir, 'rss');
  const [file, argv] = timeTool ? [timeTool, ['-f', '%M %U %S', '-o', rssFile, command, ...args]] : [command, args];
  const t = performance.now();
  const run = spawnSync(file, argv, { encoding: 'utf8', maxBuffer: 1 << 26, ...(env ? { env: { ...process.env, ...env } } : {}) });
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

/** Commands run one after another as one run: their wall and CPU seconds summed, the largest peak; ok when all were. */
export function timedSeries(commands: { command: string; args: string[] }[], dir: string): Run {
  const runs = commands.map(({ command, args }) => timed(command, args, dir));
  const failed = runs.find((r) => !r.ok);
  return {
    seconds: runs.reduce((a, r) => a + r.seconds, 0),
    cpu: runs.reduce((a, r) => a + r.cpu, 0),
    mib: Math.max(...runs.map((r) => r.mib)),
    ok: !failed,
    error: failed?.error,
  };
}

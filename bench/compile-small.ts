// Benchmark: small compiles, where nearly all the time is node starting and our code running
// before V8 has optimised it. Times whole `node dist/cli.js compile` runs on a mrfixit-size file
// (1,842 vertices, 1,200 triangles, 75 joints, 100 frames; target: under 0.15 s including node's
// start; the reference compiler takes 0.024 s on mrfixit) and on unvanquished/lgun_view.iqe
// (reference 0.065 s) beside `node -e 0`, interleaved, and the cold stages of one compile in fresh
// processes (of this bench's bundle: their sum is more than the CLI's own time, which has its
// code cache), and on Linux how the CLI's time is shared between its threads (the main thread waits
// for a CPU while V8's background compilers run: on 2 cores that is a large part of a small compile).
// Prints figures; never fails on slowness. The machine is shared: repeat, and compare medians.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compile } from '../core/compile/index';
import { iqeFileSource } from '../node/text';
import { median, syntheticIqe } from './helpers/data';
import type { SchedStat } from './helpers/schedstat';

const RUNS = 31;
const STAGE_RUNS = 7;
const SCHED_RUNS = 11;

/** One cold compile in this process (a fresh one), as the CLI does it: milliseconds per stage, as one JSON line. */
function stages(path: string): void {
  const t0 = performance.now();
  const source = iqeFileSource(path);
  let t1 = 0;
  const result = compile([{ ...source, read: () => { const read = source.read(); t1 = performance.now(); return read; } }], {});
  const t2 = performance.now();
  console.log(JSON.stringify({ load: t1 - t0, compile: t2 - t1, bytes: result.bytes?.length ?? 0 }));
}

/** Wall seconds of one `node ARGS` run, stdout and stderr pipes (as a caller that reads them gets). */
function wall(args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`${args.join(' ')}: ${run.stderr || run.stdout}`);
  return (performance.now() - t) / 1000;
}

/**
 * The environments the runs are timed in: this one, and where it sets NODE_EXTRA_CA_CERTS (this
 * machine does) also without it, because node 20 reads that file of certificates at start-up,
 * before any script: 40-55 ms of every `node` run here, which no code of ours can avoid and a
 * machine without the variable does not pay.
 */
function environments(): { label: string; env: NodeJS.ProcessEnv }[] {
  const all = [{ label: 'this environment', env: process.env }];
  if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    all.push({ label: 'without NODE_EXTRA_CA_CERTS', env });
  }
  return all;
}

/**
 * Where the whole CLI's time goes between threads (Linux only; null elsewhere): medians over
 * SCHED_RUNS runs of how long the main thread ran and waited for a CPU, and how long the other
 * threads ran. On a machine with few cores V8's background compilers and collector helpers take
 * turns with the main thread, so its waiting is part of the wall time.
 */
function scheduling(args: string[], env: NodeJS.ProcessEnv): SchedStat | null {
  const preload = join(__dirname, 'helpers', 'schedstat.js');
  if (!existsSync('/proc/self/task') || !existsSync(preload)) return null;
  const stats: SchedStat[] = [];
  for (let run = 0; run < SCHED_RUNS; run++) {
    const child = spawnSync(process.execPath, ['-r', preload, ...args], { encoding: 'utf8', env });
    const line = child.stderr.split('\n').find((l) => l.startsWith('SCHEDSTAT '));
    if (child.status !== 0 || !line) return null;
    stats.push(JSON.parse(line.slice('SCHEDSTAT '.length)) as SchedStat);
  }
  const of = (key: keyof SchedStat): number => median(stats.map((s) => s[key]));
  return { mainRun: of('mainRun'), mainWait: of('mainWait'), othersRun: of('othersRun') };
}

const stageFlag = process.argv.indexOf('--stages');
if (stageFlag >= 0) {
  stages(process.argv[stageFlag + 1]);
} else {
  const small = syntheticIqe('mrfixit-size.iqe', ['--grid', '10', '--joints', '75', '--anims', '1', '--frames-per-anim', '100']);
  const lgun = resolve('..', 'shared', 'assets', 'iqe', 'unvanquished', 'lgun_view.iqe');
  const cli = resolve('dist', 'cli.js');
  if (!existsSync(cli)) {
    console.log(`skipped: ${cli} is missing (npm run build)`);
    process.exit(0);
  }
  const dir = mkdtempSync(join(tmpdir(), 'iqm-bench-'));
  try {
    for (const [label, file] of [['mrfixit-size', small], ['lgun_view', existsSync(lgun) ? lgun : undefined]] as const) {
      if (!file) continue;
      // The environments' runs interleaved, so that the machine's changing speed is shared alike.
      const envs = environments();
      const node = envs.map((): number[] => []);
      const ours = envs.map((): number[] => []);
      for (let run = 0; run < RUNS; run++) {
        envs.forEach(({ env }, e) => {
          node[e].push(wall(['-e', '0'], env));
          ours[e].push(wall([cli, 'compile', file, '-o', join(dir, 'out.iqm')], env));
        });
      }
      envs.forEach(({ label: envLabel }, e) => {
        const n = median(node[e]), c = median(ours[e]);
        const first = e === 0 ? label.padEnd(12) : ''.padEnd(12);
        console.log(`${first} ${envLabel}: whole CLI ${c.toFixed(3)} s median of ${RUNS} (min ${Math.min(...ours[e]).toFixed(3)}); node -e 0 ${n.toFixed(3)} s; ours ${(c - n).toFixed(3)} s`);
      });
      if (label === 'mrfixit-size') console.log(`${''.padEnd(12)} target: whole run < 0.150 s including node's start`);
      const threads = scheduling([cli, 'compile', file, '-o', join(dir, 'out.iqm')], envs[envs.length - 1].env);
      if (threads) {
        console.log(
          `${''.padEnd(12)} threads (${envs[envs.length - 1].label}, median of ${SCHED_RUNS}): main on a CPU ${threads.mainRun.toFixed(0)} ms, ` +
            `waiting for one ${threads.mainWait.toFixed(0)} ms; V8's compiler and collector threads on a CPU ${threads.othersRun.toFixed(0)} ms`,
        );
      }
      const figures: { load: number; compile: number }[] = [];
      for (let run = 0; run < STAGE_RUNS; run++) {
        const child = spawnSync(process.execPath, [__filename, '--stages', file], { encoding: 'utf8' });
        if (child.status === 0) figures.push(JSON.parse(child.stdout.trim().split('\n').pop()!));
      }
      if (figures.length > 0) {
        const ms = (key: 'load' | 'compile'): string => median(figures.map((f) => f[key])).toFixed(1);
        console.log(`${''.padEnd(12)} cold stages (median of ${figures.length} fresh processes of this bench's bundle, which has no code cache): read, parse and check ${ms('load')} ms, compile ${ms('compile')} ms`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

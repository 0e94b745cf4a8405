// Preloaded (`node -r out/bench/helpers/schedstat.js ...`) into a process whose scheduling a
// benchmark wants to see: at exit it writes one line to stderr, `SCHEDSTAT {json}`, with how long
// the main thread ran on a CPU and waited in the run queue for one, and how long the process's
// other threads (V8's compiler and collector helpers) ran, in milliseconds, from Linux's
// /proc/self/task/TID/schedstat (run ns, wait ns, slices). Elsewhere it writes nothing.
import { readdirSync, readFileSync, writeSync } from 'node:fs';

export interface SchedStat {
  mainRun: number;
  mainWait: number;
  othersRun: number;
}

/** Run and wait nanoseconds of one thread, or null when the kernel does not say. */
function threadTimes(tid: string): [number, number] | null {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? [run, wait] : null;
  } catch {
    return null;
  }
}

process.on('exit', () => {
  const main = threadTimes(String(process.pid));
  if (!main) return;
  let othersRun = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (tid === String(process.pid)) continue;
    othersRun += threadTimes(tid)?.[0] ?? 0;
  }
  const stat: SchedStat = { mainRun: main[0] / 1e6, mainWait: main[1] / 1e6, othersRun: othersRun / 1e6 };
  writeSync(2, `SCHEDSTAT ${JSON.stringify(stat)}\n`);
});

// Benchmark: the editor's compile of each real source of ../shared/assets (IQE, md5mesh, SMD, OBJ)
// through dist/compileWorker.js as the Node extension host runs it (a request naming the file,
// which the worker streams from disk), beside the reference compiler run on the same file
// (REF_IQM, default ~/.cache/ref-iqm/iqm: bash ../shared/reference-compiler/build.sh). Two ways:
//   fresh: a new worker per compile (its start and cold code included), as every compile was
//          before the worker was kept (client/compile/warmWorker.ts);
//   warm:  the kept worker, after WARM_UPS compiles of the same file (what a user who compiles
//          or previews a model again and again gets).
// Issue 18's goal for the editor's compile: warm <= 0.25x the reference's wall time on the real
// files. Then the editor's compile of all of them at once (one after another through one worker,
// started cold) against the reference run file by file: issue 18's batch goal, <= 0.3x.
// Medians of RUNS, interleaved; prints figures, never fails on slowness.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompileReply, CompileRequest } from '../core/host/compileProtocol';
import { median, realSources } from './helpers/data';
import { timed } from './helpers/timed';

const WORKER = resolve('dist', 'compileWorker.js');
const RUNS = Number(process.env.IQM_WARM_RUNS ?? 9);
const WARM_UPS = 3;
const reference = process.env.REF_IQM ?? join(homedir(), '.cache', 'ref-iqm', 'iqm');

/** One compile in `worker`: wall seconds from the request to the reply; throws on a failed compile. */
function compileIn(worker: Worker, request: CompileRequest): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    worker.once('message', (reply: CompileReply) => {
      if (!reply.ok) fail(new Error(reply.message));
      else done((performance.now() - t0) / 1000);
    });
    worker.postMessage(request);
  });
}

/** A compile in a new worker: from its start to the reply, the worker ended after. */
async function compileFresh(request: CompileRequest): Promise<number> {
  const t0 = performance.now();
  const worker = new Worker(WORKER);
  try {
    await compileIn(worker, request);
  } finally {
    await worker.terminate();
  }
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  if (!existsSync(WORKER)) {
    console.log(`skipped: ${WORKER} is missing (npm run build)`);
    return;
  }
  const files = realSources();
  if (files.length === 0) {
    console.log('skipped: ../shared/assets is absent');
    return;
  }
  const withReference = existsSync(reference);
  if (!withReference) console.log(`note: no reference compiler at ${reference}: ours only`);
  const dir = mkdtempSync(join(tmpdir(), 'iqm-warm-'));
  console.log(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; medians of ${RUNS}; goal: warm <= 0.25x the reference`);
  console.log('file | ref s | fresh s | warm s | fresh/ref | warm/ref | met');
  const worstOf: number[] = [];
  try {
    for (const { name, path } of files) {
      const request: CompileRequest = { source: { path }, options: {} };
      const warm = new Worker(WORKER);
      try {
        for (let i = 0; i < WARM_UPS; i++) await compileIn(warm, request);
        const refs: number[] = [], fresh: number[] = [], warmed: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          if (withReference) {
            const run = timed(reference, [join(dir, 'ref.iqm'), path], dir);
            if (run.ok) refs.push(run.seconds);
          }
          fresh.push(await compileFresh(request));
          warmed.push(await compileIn(warm, request));
        }
        const ref = refs.length > 0 ? median(refs) : NaN;
        const ratio = median(warmed) / ref;
        if (Number.isFinite(ratio)) worstOf.push(ratio);
        const cell = (s: number): string => (Number.isFinite(s) ? s.toFixed(3) : '-');
        const times = (s: number): string => (Number.isFinite(s) ? s.toFixed(2) : '-');
        console.log(`${name} | ${cell(ref)} | ${cell(median(fresh))} | ${cell(median(warmed))} | ${times(median(fresh) / ref)} | ${times(ratio)} | ${Number.isFinite(ratio) ? (ratio <= 0.25 ? 'yes' : 'NO') : '-'}`);
      } catch (error) {
        console.log(`${name} | failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      } finally {
        await warm.terminate();
      }
    }
    // The editor's compile of many files (the explorer's selection: one after another through the
    // kept worker), in a worker that starts cold, against the reference run file by file.
    {
      const requests = files.map(({ path }) => ({ source: { path }, options: {} }) as CompileRequest);
      const ours: number[] = [], refs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const worker = new Worker(WORKER);
        try {
          for (const request of requests) await compileIn(worker, request);
        } finally {
          await worker.terminate();
        }
        ours.push((performance.now() - t0) / 1000);
        if (withReference) {
          let total = 0;
          for (const { path } of files) total += timed(reference, [join(dir, 'ref.iqm'), path], dir).seconds;
          refs.push(total);
        }
      }
      const ref = refs.length > 0 ? median(refs) : NaN;
      const ratio = median(ours) / ref;
      console.log(`all ${files.length} one after another in one new worker | ${Number.isFinite(ref) ? ref.toFixed(3) : '-'} (file by file) | ${median(ours).toFixed(3)} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'} | goal <= 0.3x: ${Number.isFinite(ratio) ? (ratio <= 0.3 ? 'yes' : 'NO') : '-'}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (worstOf.length > 0) console.log(`warm/ref: best ${Math.min(...worstOf).toFixed(2)}, worst ${Math.max(...worstOf).toFixed(2)}; met on ${worstOf.filter((r) => r <= 0.25).length} of ${worstOf.length}; load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

void main();

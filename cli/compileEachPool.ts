// The threads of `compile --each` (cli/compileEach.ts): this thread and workers that each run the
// CLI bundle again (dist/cli.js with its code cache, started with the hidden command
// POOL_WORKER_COMMAND) take the next input, largest first, from a counter they share, compile it,
// write its IQM and send back what to print. An input a worker took and did not finish (the worker
// failed) is compiled on this thread at the end, so a failing worker costs time, never a file.
// A worker is a new V8 isolate that starts cold (~40-60 ms of CPU before its first file, and its
// first file runs unoptimised code): it pays only when there is enough input for the other core.
import { join } from 'node:path';
import type { BoundsProvider, CompileOptions } from '../core/compile/index';
import { setCollector } from '../core/pages';
import { parallelBounds } from '../node/compileParallel';
import { compileHeap } from '../node/heap';
import { compileOneOf, type EachInput, type FileResult } from './compileOne';

/** The command line of a pool worker (process.argv of the worker thread; not for users). */
export const POOL_WORKER_COMMAND = '__compile-each-worker';

/**
 * Input bytes from which the batch may go to a pool. A worker costs 0.2-0.4 s of CPU before it
 * pays (its isolate's start, and every stage and reader run cold once more: the real corpus took
 * 2.8 s of CPU on one thread, 3.0-3.3 s on two; docs/PERFORMANCE.md), so a batch smaller than about
 * twice that on one thread stays on it.
 */
const MIN_POOL_BYTES = 2 << 20;

/**
 * Cores a compiling thread keeps busy: V8 compiles its hot functions and collects its garbage on
 * helper threads. The real corpus four times over (64 files, 28 MB) on one thread: 1.3 s of wall
 * and 2.0 s of CPU on two cores, 2.0 s of wall on one; on two threads it took 1.6-1.8 s of wall,
 * against 1.1-1.4 on one (docs/PERFORMANCE.md, eighth session).
 */
const CORES_PER_THREAD = 1.5;

/**
 * The threads for a batch of inputs of these sizes: 1 (this thread only), or as many as the idle
 * cores (their count less the one-minute load average) keep busy at CORES_PER_THREAD each, at most
 * one per input: on two cores, or a busy machine, the batch stays on this thread.
 * IQM_TOOLS_EACH_THREADS=N sets it (tests, bench).
 */
export function poolThreads(sizes: readonly number[]): number {
  const forced = process.env.IQM_TOOLS_EACH_THREADS;
  if (forced !== undefined && /^\d+$/.test(forced)) return Math.max(1, Math.min(Number(forced), sizes.length));
  if (sizes.length < 2 || sizes.reduce((a, b) => a + b, 0) < MIN_POOL_BYTES) return 1;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a large batch, not at start-up
  const { availableParallelism, loadavg } = require('node:os') as typeof import('node:os');
  return threadsFor(sizes.length, availableParallelism(), loadavg()[0]);
}

/** The threads for `inputs` inputs on `cores` cores at a load average of `load` (poolThreads). */
export function threadsFor(inputs: number, cores: number, load: number): number {
  return Math.max(1, Math.min(inputs, Math.floor((cores - load) / CORES_PER_THREAD)));
}

/** What every thread of the pool gets (structured-clonable; the counter is shared). */
interface PoolJob {
  iqmToolsEach: true;
  inputs: EachInput[];
  options: CompileOptions;
  json: boolean;
  /** The largest input's size (node/heap.ts settings). */
  largest: number;
  /** Input indices, largest first. */
  order: number[];
  /** [0]: the next position in `order` to take. */
  cursor: Int32Array;
}

/** Takes inputs from the job until none are left. */
async function takeInputs(job: PoolJob, bounds: BoundsProvider, done: (index: number, result: FileResult) => void): Promise<void> {
  for (;;) {
    const position = Atomics.add(job.cursor, 0, 1);
    if (position >= job.order.length) return;
    const index = job.order[position];
    done(index, await compileOneOf(job.inputs[index], job.options, job.json, bounds));
  }
}

/** Compiles the batch on `threads` threads (this one included); `settle` gets each input's result on this thread. */
export async function compileInPool(
  batch: { inputs: EachInput[]; sizes: readonly number[]; options: CompileOptions; json: boolean; largest: number },
  threads: number,
  settle: (index: number, result: FileResult) => void,
): Promise<void> {
  const order = batch.inputs.map((_, i) => i).sort((a, b) => batch.sizes[b] - batch.sizes[a] || a - b);
  const job: PoolJob = { iqmToolsEach: true, inputs: batch.inputs, options: batch.options, json: batch.json, largest: batch.largest, order, cursor: new Int32Array(new SharedArrayBuffer(4)) };
  const settled = batch.inputs.map(() => false);
  const take = (index: number, result: FileResult): void => {
    if (settled[index]) return;
    settled[index] = true;
    settle(index, result);
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a pool, not at start-up
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  const ended: Promise<void>[] = [];
  for (let t = 1; t < threads; t++) {
    try {
      const worker = new Worker(join(__dirname, 'cli.js'), { argv: [POOL_WORKER_COMMAND], workerData: job });
      ended.push(
        new Promise((resolve) => {
          worker.on('message', (message: { index: number; result: FileResult }) => take(message.index, message.result));
          // Its unfinished input is compiled below.
          worker.on('error', () => undefined);
          worker.on('exit', () => resolve());
        }),
      );
    } catch {
      // No worker: this thread takes its share.
    }
  }
  const bounds = parallelBounds();
  await takeInputs(job, bounds, take);
  await Promise.all(ended);
  for (const index of order) if (!settled[index]) take(index, await compileOneOf(batch.inputs[index], batch.options, batch.json, bounds));
}

/** The worker's side (cli/main.ts runs it for POOL_WORKER_COMMAND): exit status 2 where it is not a pool's worker. */
export async function runPoolWorker(): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only in a pool's worker
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const job = workerData as Partial<PoolJob> | null;
  if (!parentPort || job?.iqmToolsEach !== true) {
    process.stderr.write(`iqm-tools: unknown command '${POOL_WORKER_COMMAND}'\n`);
    return 2;
  }
  setCollector(compileHeap(job.largest!));
  await takeInputs(job as PoolJob, parallelBounds(), (index, result) => parentPort.postMessage({ index, result }));
  return 0;
}

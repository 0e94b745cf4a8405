// The per-frame bounds of a large compile on two threads (IQE-SEMANTICS.md §4.10, §11): core
// stays free of Node imports and only offers a plan and a runner for frame ranges
// (core/compile/bounds.ts); this module is the BoundsProvider of the CLI and the desktop compile worker, and node/boundsWorker.ts
// (dist/boundsWorker.js) the worker. Both threads take chunks of frames until none are left;
// the main thread then waits for the worker's. Chunks are claimed through a SharedArrayBuffer,
// so a worker that is slow to start, or fails, only means more work for the main thread. Any
// split gives the same bytes: every frame's bounds are exact.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { boundsRunner, type BoundsPlan } from '../core/compile/bounds';
import type { BoundsProvider } from '../core/compile/index';

/** Frames per chunk (one block of the bounds runner). */
const CHUNK = 32;
/** Below this many vertex-frames, a worker costs more than it saves. */
const MIN_WORK = 20_000_000;

const FREE = 0, CLAIMED = 1, DONE = 2;

export interface Job {
  iqmToolsBounds: true;
  plan: BoundsPlan;
  /** cursor[0]: next chunk to try from the start; cursor[1]: how many were tried from the end. */
  cursor: Int32Array;
  /** Per chunk: FREE, CLAIMED or DONE. */
  status: Int32Array;
  out: Float64Array;
}

/**
 * Takes chunks while there are any: the main thread from the first frames on, the worker from
 * the last ones back, so that each thread's chunks are neighbours (their seeds carry over).
 * Returns how many this thread computed.
 */
export function work(job: Job, run: (first: number, end: number, out: Float64Array) => void, fromEnd: boolean): number {
  const frameCount = job.plan.frames.length;
  const chunks = job.status.length;
  let done = 0;
  for (;;) {
    const c = fromEnd ? chunks - 1 - Atomics.add(job.cursor, 1, 1) : Atomics.add(job.cursor, 0, 1);
    if (c < 0 || c >= chunks) return done;
    if (Atomics.compareExchange(job.status, c, FREE, CLAIMED) !== FREE) continue;
    try {
      run(c * CHUNK, Math.min((c + 1) * CHUNK, frameCount), job.out);
    } catch (error) {
      Atomics.store(job.status, c, FREE);
      Atomics.notify(job.status, c);
      throw error;
    }
    Atomics.store(job.status, c, DONE);
    Atomics.notify(job.status, c);
    done++;
  }
}

export interface ParallelOptions {
  /** The worker bundle (default: boundsWorker.js next to this bundle). */
  workerScript?: string;
  /** Smallest vertex count x frame count that is worth a worker (tests set 0). */
  minWork?: number;
}

/** The CLI's bounds provider: one worker thread (dist/boundsWorker.js next to the CLI bundle). */
export function parallelBounds(options: ParallelOptions = {}): BoundsProvider {
  const workerScript = options.workerScript ?? join(__dirname, 'boundsWorker.js');
  const minWork = options.minWork ?? MIN_WORK;
  return {
    takes(vertexCount: number, frameCount: number): boolean {
      return vertexCount * frameCount >= minWork && frameCount >= 2 * CHUNK && existsSync(workerScript);
    },
    compute(plan: BoundsPlan): Float64Array {
      const chunks = Math.ceil(plan.frames.length / CHUNK);
      const job: Job = {
        iqmToolsBounds: true,
        plan,
        cursor: new Int32Array(new SharedArrayBuffer(8)),
        status: new Int32Array(new SharedArrayBuffer(4 * chunks)),
        out: new Float64Array(new SharedArrayBuffer(8 * 8 * plan.frames.length)),
      };
      let worker: import('node:worker_threads').Worker | null = null;
      try {
        worker = new (workerThreads().Worker)(workerScript, { workerData: job });
        worker.unref();
        // A failing worker has released its chunk; the main thread computes what is left.
        worker.on('error', () => undefined);
      } catch {
        worker = null;
      }
      try {
        const run = boundsRunner(plan);
        work(job, run, false);
        // Chunks the worker still holds: wait for them, or take them back if it let them go.
        for (let c = 0; c < chunks; c++) {
          for (;;) {
            const state = Atomics.load(job.status, c);
            if (state === DONE) break;
            if (state === FREE && Atomics.compareExchange(job.status, c, FREE, CLAIMED) === FREE) {
              run(c * CHUNK, Math.min((c + 1) * CHUNK, plan.frames.length), job.out);
              Atomics.store(job.status, c, DONE);
              break;
            }
            Atomics.wait(job.status, c, CLAIMED, 100);
          }
        }
      } finally {
        void worker?.terminate();
      }
      return job.out;
    },
  };
}

/**
 * node:worker_threads, loaded when a compile first takes a worker: loading it (and the streams
 * it brings) costs a small compile ~5 ms of its start (bench/compile-small.ts).
 */
function workerThreads(): typeof import('node:worker_threads') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  return require('node:worker_threads') as typeof import('node:worker_threads');
}

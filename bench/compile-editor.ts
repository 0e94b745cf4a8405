// Benchmark: the editor's compile of bench/.data/big.iqe (72.8 MB) through dist/compileWorker.js,
// as the compile command runs it: for a file that is not open the request names the file and the
// worker streams it from disk (as the CLI does); for an open document the host sends its text.
// Each way in a fresh process (the extension host's part is this process: ~40 MiB of node, and the
// text when it is sent): wall time and peak memory (maxRSS of the whole process), beside the
// reference compiler's 16.1 s / 181 MiB. Prints figures; never fails on slowness.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompileReply, CompileRequest } from '../core/host/compileProtocol';
import { compileWorkerOptions } from '../client/node/workerOptions';
import { syntheticIqe } from './helpers/data';

const WORKER = resolve('dist', 'compileWorker.js');

/** One compile in this process; prints one JSON line of figures. */
function one(way: 'path' | 'text', path: string): void {
  const t0 = performance.now();
  const request: CompileRequest = { source: way === 'path' ? { path } : { text: readFileSync(path, 'utf8') }, options: {} };
  // Started as the compile command starts it (a large input's heap limit).
  const worker = new Worker(WORKER, compileWorkerOptions(way === 'path' ? statSync(path).size : (request.source as { text: string }).text.length));
  worker.once('message', (reply: CompileReply) => {
    const seconds = (performance.now() - t0) / 1000;
    void worker.terminate();
    if (!reply.ok || !reply.bytes) throw new Error(reply.ok ? 'no bytes' : reply.message);
    console.log(JSON.stringify({ seconds, mib: process.resourceUsage().maxRSS / 1024, bytes: reply.bytes.length }));
  });
  worker.postMessage(request);
}

const oneFlag = process.argv.indexOf('--one');
if (oneFlag >= 0) {
  one(process.argv[oneFlag + 1] as 'path' | 'text', process.argv[oneFlag + 2]);
} else {
  const path = syntheticIqe('big.iqe');
  if (!path) process.exit(0);
  if (!existsSync(WORKER)) {
    console.log(`skipped: ${WORKER} is missing (npm run build)`);
    process.exit(0);
  }
  for (const [way, label] of [['path', 'file not open (the worker streams it)'], ['text', 'open document (its text is sent)']] as const) {
    const run = spawnSync(process.execPath, [__filename, '--one', way, path], { encoding: 'utf8' });
    if (run.status !== 0) {
      console.log(`${label}: failed: ${run.stderr.trim().split('\n').pop()}`);
      continue;
    }
    const f = JSON.parse(run.stdout.trim().split('\n').pop()!) as { seconds: number; mib: number; bytes: number };
    console.log(`${label.padEnd(40)} ${f.seconds.toFixed(2)} s = ${(f.seconds / 16.1).toFixed(3)}x the reference; peak ${f.mib.toFixed(0)} MiB = ${(f.mib / 181).toFixed(2)}x; ${f.bytes} bytes`);
  }
}

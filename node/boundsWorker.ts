// The bounds worker (dist/boundsWorker.js), started by node/compileParallel.ts: takes chunks of
// frames from the last ones back until none are left.
import { workerData } from 'node:worker_threads';
import { boundsRunner } from '../core/compile/bounds';
import { type Job, work } from './compileParallel';

if ((workerData as Partial<Job> | null)?.iqmToolsBounds === true) {
  const job = workerData as Job;
  work(job, boundsRunner(job.plan), true);
}

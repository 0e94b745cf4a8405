// Benchmark: compiles bench/.data/big.iqe (the timing-baseline file of IQE-SEMANTICS.md §11:
// 72.8 MB, 300,056 vertices, 199,692 triangles, 150 joints, 2,000 frames) in this process the way
// `iqm-tools compile` does (its heap settings of node/heap.ts, read and check in a stream, compile
// with the bounds worker of node/compileParallel.ts), and prints wall time, CPU time (all threads),
// peak memory (maxRSS) and the ratios to the reference compiler's 16.1 s / 181 MiB (targets:
// <= 0.25x time, <= 1x memory).
// Small files are bench/compile-small.ts.
// Prints figures; never fails on slowness. The machine is shared: compare CPU times, and repeat.
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { compile } from '../core/compile/index';
import { boundsStats } from '../core/compile/bounds';
import { parallelBounds } from '../node/compileParallel';
import { iqeFileSource } from '../node/text';
import { compileHeap } from '../node/heap';
import { setCollector } from '../core/pages';
import { syntheticIqe } from './helpers/data';

const REFERENCE_SECONDS = 16.1;
const REFERENCE_MIB = 181;
const workerScript = resolve('dist', 'boundsWorker.js');

const dataPath = syntheticIqe('big.iqe');
if (!dataPath) process.exit(0);
if (!existsSync(workerScript)) console.log(`note: ${workerScript} is missing (npm run build): bounds on one thread`);

setCollector(compileHeap(statSync(dataPath).size));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const source = iqeFileSource(dataPath);
// The load (read, parse, check, gather) is the source's read, which the compile starts with.
let t1 = 0;
const timed = { ...source, read: () => { const read = source.read(); t1 = performance.now(); return read; } };
const result = compile([timed], {}, parallelBounds({ workerScript }));
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
const seconds = (t2 - t0) / 1000;
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const mib = process.resourceUsage().maxRSS / 1024;
if (!result.bytes) {
  console.log('compile failed:', result.diagnostics.filter((d) => d.diagnostic.severity === 'error').slice(0, 5));
  process.exit(1);
}
const s = result.stats;
console.log(`input      ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ${s.joints} joints, ${s.frames} frames, ${s.frameChannels} channels`);
console.log(`output     ${s.bytes} bytes (reference: 24,126,064), sha256 ${createHash('sha256').update(result.bytes).digest('hex').slice(0, 16)}`);
if (boundsStats.groups > 0) {
  console.log(`bounds     ${boundsStats.groups} vertex groups; in the main thread's frames, per frame ${(boundsStats.boxes / Math.max(s.frames, 1)).toFixed(0)} group boxes and ${(boundsStats.evaluated / Math.max(s.frames, 1)).toFixed(0)} vertices evaluated`);
}
console.log(`load       ${((t1 - t0) / 1000).toFixed(2)} s (read, decode, parse, check, gather: streamed)`);
console.log(`compile    ${((t2 - t1) / 1000).toFixed(2)} s`);
console.log(`wall       ${seconds.toFixed(2)} s  = ${(seconds / REFERENCE_SECONDS).toFixed(3)}x the reference's ${REFERENCE_SECONDS} s (target <= 0.25x)`);
console.log(`CPU        ${cpuSeconds.toFixed(2)} s (all threads)`);
console.log(`peak RSS   ${mib.toFixed(0)} MiB = ${(mib / REFERENCE_MIB).toFixed(2)}x the reference's ${REFERENCE_MIB} MiB (target <= 1x)`);

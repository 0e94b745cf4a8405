// Benchmark: compiles bench/.data/big.iqe (the timing-baseline file of IQE-SEMANTICS.md §11:
// 72.8 MB, 300,056 vertices, 199,692 triangles, 150 joints, 2,000 frames) in this process the way
// `iqm-tools compile` does (read and check in a stream, compile with the bounds worker of
// cli/compileParallel.ts), and prints wall time, CPU time (all threads), peak memory (maxRSS) and
// the ratios to the reference compiler's 16.1 s / 181 MiB (targets: <= 0.25x time, <= 1x memory).
// Then times whole `node dist/cli.js compile` runs on a mrfixit-size file (1,842 vertices, 75
// joints, 100 frames; target < 0.15 s) and on unvanquished/lgun_view.iqe.
// Prints figures; never fails on slowness. The machine is shared: compare CPU times, and repeat.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileChecked } from '../core/compile/index';
import { boundsStats } from '../core/compile/bounds';
import { parallelBounds } from '../cli/compileParallel';
import { loadForCompile } from '../cli/compile';
import { median, syntheticIqe } from './helpers/data';

const REFERENCE_SECONDS = 16.1;
const REFERENCE_MIB = 181;
const cli = resolve('dist', 'cli.js');
const workerScript = resolve('dist', 'boundsWorker.js');

const dataPath = syntheticIqe('big.iqe');
if (!dataPath) process.exit(0);
if (!existsSync(workerScript)) console.log(`note: ${workerScript} is missing (npm run build): bounds on one thread`);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const checked = loadForCompile(dataPath);
if (typeof checked === 'string') throw new Error(`cannot read ${dataPath}: ${checked}`);
const t1 = performance.now();
const result = compileChecked(checked, {}, parallelBounds({ workerScript }));
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
const seconds = (t2 - t0) / 1000;
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const mib = process.resourceUsage().maxRSS / 1024;
if (!result.bytes) {
  console.log('compile failed:', result.diagnostics.filter((d) => d.severity === 'error').slice(0, 5));
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

// Whole CLI runs on small files (node start included).
if (existsSync(cli)) {
  const small = syntheticIqe('mrfixit-size.iqe', ['--grid', '10', '--joints', '75', '--anims', '1', '--frames-per-anim', '100']);
  const lgun = resolve('..', 'shared', 'assets', 'iqe', 'unvanquished', 'lgun_view.iqe');
  const dir = mkdtempSync(join(tmpdir(), 'iqm-bench-'));
  try {
    for (const [label, file, reference] of [['mrfixit-size', small, '0.024 s (mrfixit)'], ['lgun_view', existsSync(lgun) ? lgun : undefined, '0.065 s']] as const) {
      if (!file) continue;
      const times: number[] = [];
      for (let run = 0; run < 7; run++) {
        const t = performance.now();
        const child = spawnSync(process.execPath, [cli, 'compile', file, '-o', join(dir, 'out.iqm')], { encoding: 'utf8' });
        times.push((performance.now() - t) / 1000);
        if (child.status !== 0) {
          console.log(`${label}: compile failed: ${child.stderr || child.stdout}`);
          break;
        }
      }
      const node = [];
      for (let run = 0; run < 3; run++) {
        const t = performance.now();
        spawnSync(process.execPath, ['-e', '0']);
        node.push((performance.now() - t) / 1000);
      }
      console.log(`${label.padEnd(10)} whole CLI run ${median(times).toFixed(3)} s median of ${times.length} (node -e 0: ${median(node).toFixed(3)} s; reference ${reference}; target < 0.15 s for mrfixit size)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

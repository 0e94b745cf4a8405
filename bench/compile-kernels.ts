// The WebAssembly kernels (wasm/*.ts) against their JavaScript versions, in this one thread, CPU
// time (process.cpuUsage: steadier than wall time on a shared machine), interleaved run by run:
// - bounds: whole frames over every distinct point (boundsRunner's 'batch' mode: the kernel is
//   f64x2 SIMD) on the matrix's generated shapes (bench/compile-matrix.ts makes them in
//   $IQM_BENCH_DATA); the bounds must be the same doubles both ways.
// (The vertex-cache kernel is measured through the CLI: IQM_TOOLS_WASM=0 runs the JavaScript pass.)
// IQM_KERNELS=a,b: only the inputs whose name contains a or b. Prints figures; never fails on slowness.
import { existsSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { boundsRunner, type BoundsPlan } from '../core/compile/bounds';
import { compile, type BoundsProvider } from '../core/compile/index';
import { iqeFileSource } from '../node/text';
import { setWasmEnabled } from '../core/wasm';
import { median } from './helpers/data';

const dataDir = process.env.IQM_BENCH_DATA ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'iqm-tools-bench');
const filters = (process.env.IQM_KERNELS ?? '').split(',').filter((s) => s !== '');
const chosen = (name: string): boolean => filters.length === 0 || filters.some((f) => name.includes(f));
const cpuMs = (f: () => void): number => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

console.log(`load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('bounds, whole frames (ms of CPU, median of 3; ns per point and frame)');
// Beside them, with the kernels: the pruned way (bounds.ts) and the runner's own choice per block ('auto').
console.log('shape                 points  frames    js ms  wasm ms   js ns  wasm ns  ratio pruned ms  auto ms  same');
for (const name of ['g129-f25', 'g64-f250', 'g16-f1000', 'g64-f250-4infl', 'g64-f250-j20', 'g16-m60-f250', 'default']) {
  const path = join(dataDir, `${name}.iqe`);
  if (!chosen(name)) continue;
  if (!existsSync(path)) {
    console.log(`${name}: skipped (${path} is absent: npm run bench -- compile-matrix makes it)`);
    continue;
  }
  // The compile hands its plan here; the bounds are timed both ways and one result returned.
  const provider: BoundsProvider = {
    takes: () => true,
    compute(plan: BoundsPlan): Float64Array {
      const frames = plan.frames.length;
      const js: number[] = [], wasm: number[] = [], pruned: number[] = [], auto: number[] = [];
      const a = new Float64Array(8 * frames), b = new Float64Array(8 * frames), c = new Float64Array(8 * frames), d = new Float64Array(8 * frames);
      for (let r = 0; r < 3; r++) {
        setWasmEnabled(false);
        js.push(cpuMs(() => boundsRunner(plan, 'batch')(0, frames, a)));
        setWasmEnabled(true);
        wasm.push(cpuMs(() => boundsRunner(plan, 'batch')(0, frames, b)));
        pruned.push(cpuMs(() => boundsRunner(plan, 'prune')(0, frames, c)));
        auto.push(cpuMs(() => boundsRunner(plan, 'auto')(0, frames, d)));
      }
      const same = [b, c, d].every((x) => a.every((v, i) => Object.is(v, x[i])));
      const points = plan.vertices.length;
      const [j, w] = [median(js), median(wasm)];
      const ns = (ms: number): string => ((ms * 1e6) / (points * frames)).toFixed(1);
      console.log(`${name.padEnd(20)}${String(points).padStart(8)}${String(frames).padStart(8)}${j.toFixed(0).padStart(9)}${w.toFixed(0).padStart(9)}${ns(j).padStart(8)}${ns(w).padStart(9)}${(w / j).toFixed(2).padStart(7)}${median(pruned).toFixed(0).padStart(9)}${median(auto).toFixed(0).padStart(9)}  ${same ? 'yes' : 'NO'}`);
      return b;
    },
  };
  // Planned without the kernels, so that the plan has the pruning's groups (the compile plans
  // none where the bounds kernel runs); compute() turns the kernels on and off itself.
  setWasmEnabled(false);
  compile([iqeFileSource(path)], {}, provider);
  setWasmEnabled(true);
}
console.log(`\nload average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

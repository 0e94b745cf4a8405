// Benchmark (issue 32): `iqm-tools convert IN -o OUT.glb` beside `iqm-tools compile IN -o OUT.iqm`
// of the same input, as a user runs them (node's start included): the largest shared model the
// command line reads (../shared/assets) and the generated 100,000-vertex, 100-joint, 2,000-frame
// glTF (bench/helpers/bigGltf.ts; compile and convert both read it through the compile). The goal:
// the export takes no longer than the compile. Prints the median wall time, CPU time and peak
// memory (maxRSS) over IQM_CONVERT_RUNS runs (default 3) and the ratio; never fails on slowness.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bigGltf } from './helpers/bigGltf';
import { median } from './helpers/data';
import { type Run, timed } from './helpers/timed';

const cli = resolve('dist', 'cli.js');
const runs = Number(process.env.IQM_CONVERT_RUNS ?? 3);
if (!existsSync(cli)) {
  console.log(`skipped: ${cli} is missing (npm run build)`);
  process.exit(0);
}

/** The largest file among the shared assets that `compile` takes as a source (the compile is the baseline). */
function largestAsset(): string | null {
  const root = resolve('..', 'shared', 'assets');
  if (!existsSync(root)) return null;
  let best: { path: string; size: number } | null = null;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(iqe|md5mesh|smd|obj|glb|gltf)$/i.test(e.name) && (!best || statSync(p).size > best.size)) best = { path: p, size: statSync(p).size };
    }
  };
  walk(root);
  return best === null ? null : (best as { path: string }).path;
}

const inputs: { name: string; path: string }[] = [];
const largest = largestAsset();
if (largest) inputs.push({ name: largest.slice(resolve('..', 'shared', 'assets').length + 1), path: largest });
else console.log('note: ../shared/assets is absent: the real sample is skipped');
inputs.push({ name: 'generated 100k v, 100 j, 2000 f', path: bigGltf() });

const dir = mkdtempSync(join(tmpdir(), 'iqm-convert-bench-'));
const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
try {
  console.log(`node ${process.versions.node}; load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${runs} runs each`);
  console.log(`${'input'.padEnd(36)} ${'command'.padEnd(16)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'peak MiB'.padStart(8)}`);
  for (const input of inputs) {
    const walls: number[] = [];
    for (const [label, args] of [['compile -> .iqm', ['compile', input.path, '-o', join(dir, 'out.iqm')]], ['convert -> .glb', ['convert', input.path, '-o', join(dir, 'out.glb')]]] as const) {
      const done: Run[] = [];
      for (let i = 0; i < runs; i++) {
        const run = timed(process.execPath, [cli, ...args], dir);
        if (!run.ok) {
          console.log(`${input.name}: ${label} failed: ${run.error}`);
          break;
        }
        done.push(run);
      }
      if (done.length === 0) continue;
      walls.push(median(done.map((r) => r.seconds)));
      const peak = Number.isFinite(done[0].mib) ? Math.max(...done.map((r) => r.mib)).toFixed(0) : '-';
      console.log(`${input.name.padEnd(36)} ${label.padEnd(16)} ${fmt(walls[walls.length - 1]).padStart(7)} ${fmt(median(done.map((r) => r.cpu))).padStart(7)} ${peak.padStart(8)}`);
    }
    if (walls.length === 2) console.log(`${input.name.padEnd(36)} ${'export/compile'.padEnd(16)} ${(walls[1] / walls[0]).toFixed(2).padStart(7)}x`);
  }
  console.log(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

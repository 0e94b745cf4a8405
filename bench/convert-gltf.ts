// Benchmark (issue 32): `iqm-tools convert IN -o OUT.glb` beside `iqm-tools compile IN -o OUT.iqm`
// of the same input, as a user runs them (node's start included): the largest shared model the
// command line reads (../shared/assets) and the generated 100,000-vertex, 100-joint, 2,000-frame
// glTF (bench/helpers/bigGltf.ts; compile and convert both read it through the compile). The goal:
// the export takes no longer than the compile. Prints the median wall time, CPU time and peak
// memory (maxRSS) over IQM_CONVERT_RUNS runs (default 3) and the ratios (wall, CPU); never fails on slowness.
// IQM_BASE_CLI=/path/to/another/dist/cli.js runs that build too, alternating with this one run by
// run (A/B on a shared machine: both see the same load), and prints its rows beside these.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bigGltf } from './helpers/bigGltf';
import { median } from './helpers/data';
import { type Run, timed } from './helpers/timed';

const cli = resolve('dist', 'cli.js');
const baseCli = process.env.IQM_BASE_CLI ? resolve(process.env.IQM_BASE_CLI) : undefined;
const runs = Number(process.env.IQM_CONVERT_RUNS ?? 3);
if (!existsSync(cli)) {
  console.log(`skipped: ${cli} is missing (npm run build)`);
  process.exit(0);
}
if (baseCli && !existsSync(baseCli)) {
  console.log(`skipped: IQM_BASE_CLI ${baseCli} is missing`);
  process.exit(0);
}
/** The builds measured: this one, and the baseline where one is given. */
const builds = [{ label: '', path: cli }, ...(baseCli ? [{ label: 'base ', path: baseCli }] : [])];

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
  console.log(`node ${process.versions.node}; load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${runs} runs each${baseCli ? `; base: ${baseCli} (alternating)` : ''}`);
  console.log(`${'input'.padEnd(36)} ${'command'.padEnd(21)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'peak MiB'.padStart(8)}`);
  for (const input of inputs) {
    const commands = [['compile -> .iqm', ['compile', input.path, '-o', join(dir, 'out.iqm')]], ['convert -> .glb', ['convert', input.path, '-o', join(dir, 'out.glb')]]] as const;
    // Run i of every build and command before run i + 1 of any (the load changes over a bench).
    const done = builds.map(() => commands.map(() => [] as Run[]));
    const failed = builds.map(() => commands.map(() => false));
    for (let i = 0; i < runs; i++) {
      builds.forEach((build, b) => commands.forEach(([label, args], c) => {
        if (failed[b][c]) return;
        const run = timed(process.execPath, [build.path, ...args], dir);
        if (run.ok) done[b][c].push(run);
        else {
          failed[b][c] = true;
          console.log(`${input.name}: ${build.label}${label} failed: ${run.error}`);
        }
      }));
    }
    builds.forEach((build, b) => {
      const walls: number[] = [];
      const cpus: number[] = [];
      commands.forEach(([label], c) => {
        const rows = done[b][c];
        if (rows.length === 0) return;
        walls.push(median(rows.map((r) => r.seconds)));
        cpus.push(median(rows.map((r) => r.cpu)));
        const peak = Number.isFinite(rows[0].mib) ? Math.max(...rows.map((r) => r.mib)).toFixed(0) : '-';
        console.log(`${input.name.padEnd(36)} ${(build.label + label).padEnd(21)} ${fmt(walls[walls.length - 1]).padStart(7)} ${fmt(median(rows.map((r) => r.cpu))).padStart(7)} ${peak.padStart(8)}`);
      });
      // CPU time (all threads: the compile's bounds run on two) is the steadier figure on a busy machine.
      if (walls.length === 2) console.log(`${input.name.padEnd(36)} ${(build.label + 'export/compile').padEnd(21)} ${(walls[1] / walls[0]).toFixed(2).padStart(6)}x ${(cpus[1] / cpus[0]).toFixed(2).padStart(6)}x`);
    });
  }
  console.log(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Benchmark (issue 15): `iqm-tools compile` on glTF, as a user runs it (`node dist/cli.js compile
// IN -o OUT`, node's start included): the largest real sample, ../shared/assets/gltf/raylib/Wizard.glb
// (5,413 vertices, 32 joints, 11 animations), and a generated skinned tube of 100,000 vertices, 100
// joints and 2,000 keys per channel at 30 per second (test/helpers/gltf-writer.ts; the compile samples
// it at the evident 30 fps: 2,000 frames), written once to $IQM_BENCH_DATA (default
// ~/.cache/iqm-tools-bench). Prints the median wall time, CPU time (all threads) and the largest
// peak memory (maxRSS, from /usr/bin/time where it exists) over IQM_GLTF_RUNS runs (default 3).
// Prints figures; never fails on slowness.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readModel } from '../core/formats/models';
import { median } from './helpers/data';
import { bigGltf } from './helpers/bigGltf';
import { type Run, timed } from './helpers/timed';

const cli = resolve('dist', 'cli.js');
const runs = Number(process.env.IQM_GLTF_RUNS ?? 3);

if (!existsSync(cli)) {
  console.log(`skipped: ${cli} is missing (npm run build)`);
  process.exit(0);
}

const inputs: { name: string; path: string }[] = [];
const wizard = resolve('..', 'shared', 'assets', 'gltf', 'raylib', 'Wizard.glb');
if (existsSync(wizard)) inputs.push({ name: 'Wizard.glb', path: wizard });
else console.log(`note: ${wizard} is absent: the real sample is skipped`);
inputs.push({ name: 'generated 100k v, 100 j, 2000 keys', path: bigGltf() });

const dir = mkdtempSync(join(tmpdir(), 'iqm-gltf-bench-'));
const sizeText = (bytes: number): string => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`);
try {
  console.log(`node ${process.versions.node}; load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${runs} runs each`);
  console.log(`${'input'.padEnd(32)} ${'size'.padStart(8)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'peak MiB'.padStart(8)}  output`);
  for (const input of inputs) {
    const out = join(dir, 'out.iqm');
    const done: Run[] = [];
    for (let i = 0; i < runs; i++) {
      const run = timed(process.execPath, [cli, 'compile', input.path, '-o', out], dir);
      if (!run.ok) {
        console.log(`${input.name}: compile failed: ${run.error}`);
        break;
      }
      done.push(run);
    }
    if (done.length === 0) continue;
    const model = readModel(new Uint8Array(readFileSync(out)));
    const vertices = model.meshes.reduce((n, m) => n + m.vertexCount, 0);
    const what = `${vertices} vertices, ${model.skeleton?.names.length ?? 0} joints, ${model.clips.length} animations, ${model.frameCount} frames, ${sizeText(statSync(out).size)}`;
    const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
    console.log(`${input.name.padEnd(32)} ${sizeText(statSync(input.path).size).padStart(8)} ${fmt(median(done.map((r) => r.seconds))).padStart(7)} ${fmt(median(done.map((r) => r.cpu))).padStart(7)} ${(Number.isFinite(done[0].mib) ? Math.max(...done.map((r) => r.mib)).toFixed(0) : '-').padStart(8)}  ${what}`);
  }
  console.log(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Read throughput of the binary model readers into the neutral Model (typed arrays, views of the
// file where aligned). Targets (issue 3): IQM >= 500 MB/s; a 3 MB DPM in <= 30 ms.
// Real files come from ../shared/assets (skipped when absent); the 3 MB DPM is generated.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { readDpm } from '../core/dpm/reader';
import { readIqm } from '../core/iqm/reader';
import { readMd3 } from '../core/md3/reader';
import type { Model } from '../core/model/model';
import { writeDpm, type DpmSpec } from '../test/helpers/model-writers';

const assets = resolve(process.cwd(), '..', 'shared', 'assets');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Median milliseconds per read over enough runs to fill ~0.5 s, after a warm-up: [CPU, wall].
 * CPU time of this process is the figure compared with the targets (these machines are shared).
 */
function time(read: (b: Uint8Array) => Model, bytes: Uint8Array): [number, number] {
  for (let i = 0; i < 5; i++) read(bytes);
  const cpu: number[] = [], wall: number[] = [];
  const until = performance.now() + 500;
  while (performance.now() < until || wall.length < 10) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    read(bytes);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return [median(cpu), median(wall)];
}

function report(name: string, read: (b: Uint8Array) => Model, bytes: Uint8Array): [number, number] {
  const [cpu, wall] = time(read, bytes);
  const mbs = bytes.length / 1e6 / (Math.max(cpu, 1e-3) / 1000);
  console.log(`${name.padEnd(34)} ${(bytes.length / 1e6).toFixed(2).padStart(6)} MB  ${cpu.toFixed(3).padStart(8)} ms CPU ${wall.toFixed(3).padStart(8)} ms wall  ${mbs.toFixed(0).padStart(6)} MB/s`);
  return [mbs, cpu];
}

/** A generated DPM of about `megabytes` MB: a grid mesh, 2 influences per vertex, 64 bones, 200 frames (like grunt.dpm, a fifth of the bytes are frames). */
function bigDpm(megabytes: number): Uint8Array {
  const bones = Array.from({ length: 64 }, (_, i) => ({ name: `bone${i}`, parent: i - 1, flags: 0 }));
  const frames = Array.from({ length: 200 }, (_, f) => ({
    name: `frame${f}`,
    bounds: [-1, -1, -1, 1, 1, 1, 1, 1],
    matrices: bones.flatMap(() => [Math.cos(f / 10), -Math.sin(f / 10), 0, 0.1, Math.sin(f / 10), Math.cos(f / 10), 0, 0, 0, 0, 1, 0.05]),
  }));
  // Per vertex: 4 + 2 × 32 bytes + 8 (st) + ~6 (indices) ≈ 82 bytes.
  const n = Math.floor((megabytes * 1e6 - frames.length * 64 * 48) / 82);
  const side = Math.floor(Math.sqrt(n));
  const verts = [];
  const texcoords: number[] = [];
  const indices: number[] = [];
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const b = (x + y) % 63;
      verts.push([
        { origin: [x * 0.3, y * 0.3, 0], influence: 0.3, normal: [0, 0, 0.3], bone: b },
        { origin: [x * 0.7, y * 0.7, 0], influence: 0.7, normal: [0, 0, 0.7], bone: b + 1 },
      ]);
      texcoords.push(x / side, y / side);
      if (x + 1 < side && y + 1 < side && (x + y) % 2 === 0) {
        const i = y * side + x;
        indices.push(i, i + side, i + 1, i + 1, i + side, i + side + 1);
      }
    }
  }
  const spec: DpmSpec = { bones, meshes: [{ shader: 'grid', verts, texcoords, indices, groupIds: null }], frames };
  return writeDpm(spec);
}

console.log(`load average ${loadavg()[0].toFixed(1)}`);
console.log('file                                  size        time (median)                rate');
let iqmWorst = Infinity;
for (const f of ['iqm/redeclipse/rifle.iqm', 'iqm/nuclide/logo.iqm', 'iqm/excessive/ld36_bird.iqm', 'iqm/redeclipse/RE_Player_male.iqm', 'iqm/mrfixit/mrfixit.iqm']) {
  const p = join(assets, f);
  if (!existsSync(p)) continue;
  iqmWorst = Math.min(iqmWorst, report(f, readIqm, new Uint8Array(readFileSync(p)))[0]);
}
for (const f of ['md3/oa_soldier/upper.md3', 'md3/oa_soldier/lower.md3']) {
  const p = join(assets, f);
  if (existsSync(p)) report(f, readMd3, new Uint8Array(readFileSync(p)));
}
const grunt = join(assets, 'dpm/nexuiz/grunt.dpm');
if (existsSync(grunt)) report('dpm/nexuiz/grunt.dpm', readDpm, new Uint8Array(readFileSync(grunt)));
const big = bigDpm(3);
const [, dpmMs] = report('generated 3 MB DPM', readDpm, big);
console.log('');
if (Number.isFinite(iqmWorst)) console.log(`IQM read: slowest file ${iqmWorst.toFixed(0)} MB/s (target >= 500 MB/s) ${iqmWorst >= 500 ? 'OK' : 'BELOW TARGET'}`);
else console.log('IQM read: ../shared/assets absent, not measured');
console.log(`DPM read: ${(big.length / 1e6).toFixed(2)} MB in ${dpmMs.toFixed(2)} ms (target <= 30 ms) ${dpmMs <= 30 ? 'OK' : 'ABOVE TARGET'}`);

// The validator's throughput (issue 33: >= 200 MB/s) on a large generated IQM, beside the reader
// that `info` uses on the same bytes, and both commands run whole (node's start included); then
// a matrix: generated shapes (many frames, many joints) and every real IQM, MD3 and DPM of
// ../shared/assets, with the worst and best rows. Figures, not pass/fail: this machine is shared.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { readIqm } from '../core/iqm/reader';
import { readModel } from '../core/formats/models';
import { detectFormat } from '../core/formats/registry';
import { validateModel } from '../core/validate/index';
import { bigIqm } from './helpers/bigIqm';

function cpuMs(run: () => void): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const c0 = process.cpuUsage();
    run();
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) / 1000);
  }
  return times.sort((a, b) => a - b)[2];
}

const bytes = bigIqm(Number(process.env.IQM_BENCH_SIDE ?? 1200));
const mb = bytes.length / 1e6;
const report = validateModel(bytes)!;
console.log(`generated IQM: ${mb.toFixed(1)} MB; its report: ${JSON.stringify(report.counts)}${report.notes.length ? `; ${report.notes.join('; ')}` : ''} (load average ${loadavg()[0].toFixed(1)})`);
const validate = cpuMs(() => validateModel(bytes));
const read = cpuMs(() => readIqm(bytes));
console.log(`validate (core)      ${validate.toFixed(0).padStart(6)} ms CPU  ${(mb / (validate / 1000)).toFixed(0).padStart(5)} MB/s`);
console.log(`read as info does   ${read.toFixed(0).padStart(6)} ms CPU  ${(mb / (read / 1000)).toFixed(0).padStart(5)} MB/s   validate / read = ${(validate / read).toFixed(2)}x`);

// Both commands whole, on the same file: node's start, reading the file and printing included.
const dir = mkdtempSync(join(tmpdir(), 'iqm-validate-bench-'));
try {
  const file = join(dir, 'big.iqm');
  writeFileSync(file, bytes);
  const wall = (args: string[]) => {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 1) throw new Error(`${args.join(' ')}: ${run.stderr}`);
    return performance.now() - t0;
  };
  const median = (f: () => number) => [f(), f(), f()].sort((a, b) => a - b)[1];
  const check = median(() => wall(['check', file, '--json']));
  const info = median(() => wall(['info', file, '--json']));
  console.log(`iqm-tools check      ${check.toFixed(0).padStart(6)} ms wall  ${(mb / (check / 1000)).toFixed(0).padStart(5)} MB/s`);
  console.log(`iqm-tools info       ${info.toFixed(0).padStart(6)} ms wall  ${(mb / (info / 1000)).toFixed(0).padStart(5)} MB/s   check / info = ${(check / info).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The matrix: CPU medians of the validator and of the reader (readModel, as the preview reads).
interface Row {
  name: string;
  bytes: Uint8Array;
}
const rows: Row[] = [
  { name: 'generated: 300x300 grid, 2,000 frames', bytes: bigIqm(300, 2000) },
  { name: 'generated: 600x600 grid, 250 joints, 100 frames', bytes: bigIqm(600, 100, 250) },
  { name: 'generated: 40x40 grid, 10,000 frames', bytes: bigIqm(40, 10000) },
];
const assets = resolve('..', 'shared', 'assets');
const walk = (folder: string): void => {
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(iqm|md3|dpm)$/i.test(name)) {
      const file = new Uint8Array(readFileSync(path));
      if (detectFormat(file) !== null) rows.push({ name: relative(assets, path), bytes: file });
    }
  }
};
if (existsSync(assets)) walk(assets);
else console.log(`note: ${assets} is absent: the real files are left out`);
console.log(`\n${'input'.padEnd(48)} ${'MB'.padStart(7)} ${'validate ms'.padStart(12)} ${'MB/s'.padStart(6)} ${'read ms'.padStart(8)}  validate/read  (CPU medians of 5; load average ${loadavg()[0].toFixed(1)})`);
const figures: { name: string; mbps: number; ms: number }[] = [];
for (const row of rows) {
  const rowMb = row.bytes.length / 1e6;
  const v = cpuMs(() => validateModel(row.bytes));
  const r = cpuMs(() => {
    try {
      readModel(row.bytes);
    } catch {
      // A file the reader refuses (the invalid samples) still costs its read up to the refusal.
    }
  });
  figures.push({ name: row.name, mbps: rowMb / (v / 1000), ms: v });
  console.log(`${row.name.slice(0, 48).padEnd(48)} ${rowMb.toFixed(2).padStart(7)} ${v.toFixed(1).padStart(12)} ${(rowMb / (v / 1000)).toFixed(0).padStart(6)} ${r.toFixed(1).padStart(8)}  ${(v / Math.max(r, 0.01)).toFixed(1).padStart(13)}x`);
}
// Files under 1 MB are dominated by their fixed costs and the bounds check's skinning of every
// frame: their MB/s says little, their time says what a user waits.
const large = figures.filter((f) => rows.find((r) => r.name === f.name)!.bytes.length >= 1e6).sort((a, b) => a.mbps - b.mbps);
if (large.length > 0) console.log(`files of 1 MB or more: worst ${large[0].mbps.toFixed(0)} MB/s (${large[0].name}), best ${large[large.length - 1].mbps.toFixed(0)} MB/s (${large[large.length - 1].name})`);
const slowest = [...figures].sort((a, b) => b.ms - a.ms)[0];
console.log(`longest check: ${slowest.ms.toFixed(1)} ms of CPU (${slowest.name})`);

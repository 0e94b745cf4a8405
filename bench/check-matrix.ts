// Benchmark: `iqm-tools check` (parse, validate, print) through the command line as a user runs
// it, node's start included, on a matrix of inputs: the generated shapes of compile-matrix.ts
// (read from the same $IQM_BENCH_DATA; the 73 MB `default` is issue 18's file, goal >= 100 MB/s),
// one of them with a comment line of characters that are not ASCII every 300 lines (the parser's
// WebAssembly number reader takes ASCII only, so this is its worst text), every real IQE of
// ../shared/assets, and those real files concatenated to 50 MB (issue 35: >= 100 MB/s there too).
// Each row times `node -e 0` too, interleaved run by run, and, with
// CHECK_MATRIX_OTHER=path/to/cli.js (a copy of another build's dist/, made with `cp -a`), that
// build beside ours, and whether its output is the same. Prints median wall and CPU seconds (user
// + system, all threads), MB/s on the wall time, and peak memory; never fails on slowness.
// Environment: CHECK_MATRIX=a,b runs only the rows whose name contains a or b; CHECK_MATRIX_RUNS=N
// (default 3 for inputs over 8 MB, 7 under).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './helpers/data';
import { type Run, timed } from './helpers/timed';

const dataDir = process.env.IQM_BENCH_DATA ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'iqm-tools-bench');
const assets = resolve('..', 'shared', 'assets', 'iqe');
const cli = resolve('dist', 'cli.js');
const other = process.env.CHECK_MATRIX_OTHER;
const filters = (process.env.CHECK_MATRIX ?? '').split(',').filter((s) => s !== '');

interface Row {
  name: string;
  path: string;
}

const rows: Row[] = [];
for (const name of ['default', 'g64-f250', 'g129-f25', 'g16-f1000', 'g64-f250-nonormals', 'g16-m60-f250', 'mrfixit-size']) {
  const path = join(dataDir, `${name}.iqe`);
  if (existsSync(path)) rows.push({ name, path });
  else console.log(`${name}: skipped (${path} is absent: npm run bench -- compile-matrix generates it)`);
}
const dir = mkdtempSync(join(tmpdir(), 'iqm-check-matrix-'));
const notAsciiSource = join(dataDir, 'g64-f250.iqe');
if (existsSync(notAsciiSource)) rows.push({ name: 'g64-f250, a comment line that is not ASCII every 300', path: notAscii(notAsciiSource, join(dir, 'not-ascii.iqe')) });
if (existsSync(assets)) {
  for (const folder of readdirSync(assets).sort()) {
    if (!statSync(join(assets, folder)).isDirectory()) continue;
    for (const file of readdirSync(join(assets, folder)).sort()) if (/\.iqe$/i.test(file)) rows.push({ name: `${folder}/${file}`, path: join(assets, folder, file) });
  }
  // Issue 35's second input for the 100 MB/s goal: the real files over and over, to 50 MB.
  const real = rows.filter((r) => !r.name.includes(' ') && r.path.startsWith(assets)).map((r) => r.path);
  if (real.length > 0) rows.splice(1, 0, { name: 'real IQE files concatenated to 50 MB', path: concatenated(real, 50e6, join(dir, 'real-50mb.iqe')) });
} else console.log(`note: ${assets} is absent: no real files`);

/** The files one after another, again and again, until `bytes` are written (each starts on a line of its own). */
function concatenated(paths: string[], bytes: number, to: string): string {
  const out = openSync(to, 'w');
  let written = 0;
  for (let k = 0; written < bytes; k = (k + 1) % paths.length) {
    const text = readFileSync(paths[k]);
    written += writeSync(out, text);
    if (text[text.length - 1] !== 10) written += writeSync(out, '\n');
  }
  closeSync(out);
  return to;
}

/** The file with `# é …` before every 300th line (written in blocks). */
function notAscii(from: string, to: string): string {
  const lines = readFileSync(from, 'utf8').split('\n');
  const out = openSync(to, 'w');
  let block: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % 300 === 0) block.push('# é – not ASCII');
    block.push(lines[i]);
    if (block.length >= 65536) {
      writeSync(out, block.join('\n') + '\n');
      block = [];
    }
  }
  writeSync(out, block.join('\n'));
  closeSync(out);
  return to;
}

const outputOf = (script: string, path: string): string => spawnSync(process.execPath, [script, 'check', path], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
const mbps = (bytes: number, s: number): string => (Number.isFinite(s) && s > 0 ? (bytes / 1e6 / s).toFixed(0) : '-');
const med = (runs: Run[], key: 'seconds' | 'cpu' | 'mib'): number => median(runs.map((r) => r[key]));

const header = ['input', 'size', 'ours s', 'MB/s', 'cpu s', 'MiB', ...(other ? ['other s', 'MB/s', 'cpu s', 'MiB', 'same'] : []), 'node s', 'goal'];
const widths = [56, 9, 7, 5, 6, 5, ...(other ? [8, 5, 6, 5, 5] : []), 7, 12];
const line = (cells: string[]): string => cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join(' ');
console.log(`check-matrix: ${new Date().toISOString()}, load average ${loadavg()[0].toFixed(1)} at start; medians; MB/s on the wall time (node's start included)`);
console.log(line(header));
for (const row of rows.filter((r) => filters.length === 0 || filters.some((f) => r.name.includes(f)))) {
  const bytes = statSync(row.path).size;
  const runs = Number(process.env.CHECK_MATRIX_RUNS) || (bytes > 8e6 ? 3 : 7);
  const ours: Run[] = [], others: Run[] = [], node: Run[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(timed(process.execPath, [cli, 'check', row.path], dir));
    if (other) others.push(timed(process.execPath, [other, 'check', row.path], dir));
    node.push(timed(process.execPath, ['-e', '0'], dir));
  }
  const same = other ? (outputOf(cli, row.path) === outputOf(other, row.path) ? 'yes' : 'NO') : '';
  const wall = med(ours, 'seconds');
  const goal = row.name === 'default' || row.name.includes('concatenated') ? `>=100: ${bytes / 1e6 / wall >= 100 ? 'met' : 'NO'}` : '';
  const size = bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} KB`;
  const otherCells = other ? [med(others, 'seconds').toFixed(3), mbps(bytes, med(others, 'seconds')), med(others, 'cpu').toFixed(2), med(others, 'mib').toFixed(0), same] : [];
  console.log(line([row.name, size, wall.toFixed(3), mbps(bytes, wall), med(ours, 'cpu').toFixed(2), med(ours, 'mib').toFixed(0), ...otherCells, med(node, 'seconds').toFixed(3), goal]));
}
console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
rmSync(dir, { recursive: true, force: true });

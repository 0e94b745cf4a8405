// Benchmark: the compile on a matrix of shapes, each side by side with the reference compiler.
// Every row runs `node dist/cli.js compile IN -o OUT` (node's start included, as a user runs it)
// and, when REF_IQM names the reference `iqm` binary (bash ../shared/reference-compiler/build.sh
// builds it), `$REF_IQM OUT IN`, interleaved run by run so that the shared machine's changing speed
// falls on both alike; it prints the median wall time of each, their ratio, the peak memory
// (maxRSS, from /usr/bin/time where it exists) and the ratio of CPU times (all threads, user and
// system: on a loaded machine the wall times of a multi-threaded node and a one-thread reference
// are disturbed unequally; CPU time is the steadier figure).
// Shapes: gen_big_iqe.py's defaults (the old benchmark file) and the shapes of issue 18 (many
// vertices and few frames, few vertices and long animations, no normals), then one thing varied
// at a time from the 24 MB shape: joints, influences per vertex (all rigid, all four), meshes;
// then every real source of ../shared/assets the reference compiles (IQE, MD5, SMD, OBJ), then the
// batch: all those real files four times over (issue 35: 64 files; the copies are links under
// names of their own) in one `compile --each` (as it chooses its threads, then on one and on two
// threads) against the reference run file by file. The synthetic inputs are generated once
// into $IQM_BENCH_DATA (default ~/.cache/iqm-tools-bench, outside the repository).
// Each row also times `node -e 0` (interleaved the same way) and says whether it meets issue 18's
// goal, on the wall times and on the CPU times: a generated shape <= 0.25x the reference; a real
// file <= 1.0x, or, where the reference takes under 0.15 s, <= node's own start + 0.05 s; the
// batch <= 1.0x the reference file by file (issue 35's restatement of issue 18's 0.3x).
// Environment: IQM_MATRIX=a,b runs only the rows whose name contains a or b; IQM_MATRIX_RUNS=N
// (default 3 for inputs over 8 MB, 7 under); IQM_MATRIX_OTHER=path/to/cli.js adds a column for
// another build of the CLI (e.g. a copy of main's dist/, made with `cp -a` so that its code cache
// still fits), interleaved the same way, and whether its output is the same bytes as ours.
// Prints figures; never fails on slowness. Read the ratios, not the seconds, on a shared machine.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { assetsDir, median, realSources } from './helpers/data';
import { type Run, timed, timedSeries } from './helpers/timed';

interface Row {
  name: string;
  /** What the goal is for (see the top). */
  kind: 'generated' | 'real' | 'batch';
  /** The input path (generated when missing; a batch: its first input). */
  path: string;
  /** A batch's inputs, and its IQM_TOOLS_EACH_THREADS when set. */
  batch?: { inputs: string[]; threads?: string };
  /** How to make it: gen_big_iqe.py arguments, optionally with a rewrite of its `vb` lines. */
  make?: { args: string[]; vb?: (fields: string[]) => string[] };
  /** Or its text, made here (a shape gen_big_iqe.py does not make). */
  write?: () => string;
}

const dataDir = process.env.IQM_BENCH_DATA ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'iqm-tools-bench');
const generator = resolve('..', 'shared', 'tools', 'gen_big_iqe.py');
const cli = resolve('dist', 'cli.js');
const reference = process.env.REF_IQM ?? join(homedir(), '.cache', 'ref-iqm', 'iqm');
const other = process.env.IQM_MATRIX_OTHER;
const batchDir = mkdtempSync(join(tmpdir(), 'iqm-matrix-batch-'));

/** `vb` fields (joint weight pairs) -> one influence: the heaviest joint, weight 1 (a rigid model). */
function rigid(fields: string[]): string[] {
  let best = 0;
  for (let k = 2; k < fields.length; k += 2) if (Number(fields[k + 1]) > Number(fields[best + 1])) best = k;
  return [fields[best], '1'];
}

/** `vb` fields -> four influences on four different joints (the first one's neighbours added). */
function fourInfluences(fields: string[]): string[] {
  const joints = fields.filter((_, k) => k % 2 === 0).map(Number);
  const weights = fields.filter((_, k) => k % 2 === 1).map(Number);
  for (let j = joints[0] + 1; joints.length < 4; j++) {
    if (!joints.includes(j % 150)) {
      joints.push(j % 150);
      weights.push(0.1);
    }
  }
  const sum = weights.reduce((a, b) => a + b, 0);
  return joints.flatMap((j, k) => [String(j), (weights[k] / sum).toFixed(8)]);
}

function synthetic(name: string, args: string[], vb?: (fields: string[]) => string[]): Row {
  return { name, kind: 'generated', path: join(dataDir, `${name}.iqe`), make: { args, vb } };
}

const MID = ['--grid', '64', '--frames-per-anim', '250'];
const rows: Row[] = [
  synthetic('g64-f250', MID),
  synthetic('g64-f250-nonormals', [...MID, '--no-normals']),
  synthetic('g16-f1000', ['--grid', '16', '--frames-per-anim', '1000']),
  synthetic('g129-f25', ['--grid', '129', '--frames-per-anim', '25']),
  synthetic('default', []),
  synthetic('g64-f250-j20', [...MID, '--joints', '20']),
  synthetic('g64-f250-j250', [...MID, '--joints', '250']),
  synthetic('g64-f250-rigid', MID, rigid),
  synthetic('g64-f250-4infl', MID, fourInfluences),
  synthetic('g16-m60-f250', ['--grid', '16', '--shared-meshes', '30', '--perquad-meshes', '30', '--frames-per-anim', '250']),
  synthetic('g129-noanim', ['--anims', '0']),
  synthetic('mrfixit-size', ['--grid', '10', '--joints', '75', '--anims', '1', '--frames-per-anim', '100']),
  // One vertex shared by every triangle (a disc fanned from its centre): the reference's time grows
  // with the square of the triangles there (vertex cache, welding); ours did too until the sixth session.
  { name: 'fan-20k', kind: 'generated', path: join(dataDir, 'fan-20k.iqe'), write: () => fan(20_000) },
];

/**
 * Each path `times` times: the first as it is, each copy k a symbolic link NAME-k.EXT in a folder
 * of its own beside links to every file of the original's folder (an OBJ's .mtl, an MD5's or
 * SMD's neighbours), so that `compile --each -o FOLDER/` gives every copy an output of its own.
 * The copies live in batchDir (removed at the end).
 */
function timesOver(paths: string[], times: number): string[] {
  const all = [...paths];
  for (let k = 1; k < times; k++) {
    paths.forEach((path, i) => {
      const folder = join(batchDir, `${k}-${i}`);
      mkdirSync(folder);
      for (const entry of readdirSync(dirname(path))) symlinkSync(join(dirname(path), entry), join(folder, entry));
      const copy = join(folder, basename(path).replace(/(\.[^.]*)?$/, (ext) => `-${k}${ext}`));
      symlinkSync(path, copy);
      all.push(copy);
    });
  }
  return all;
}

/** An IQE disc of n triangles fanned from its centre (vertex 0), no normals (they are welded). */
function fan(n: number): string {
  const lines = ['# Inter-Quake Export', 'mesh disc', 'vp 0 0 0'];
  for (let i = 0; i <= n; i++) lines.push(`vp ${Math.cos((2 * Math.PI * i) / n).toFixed(6)} ${Math.sin((2 * Math.PI * i) / n).toFixed(6)} 0`);
  for (let i = 1; i <= n; i++) lines.push(`fm 0 ${i + 1} ${i}`);
  return lines.join('\n') + '\n';
}
if (existsSync(assetsDir)) {
  const real: Row[] = realSources().map(({ name, path }) => ({ name, kind: 'real', path }));
  rows.push(...real);
  const inputs = timesOver(real.map((r) => r.path), 4);
  if (inputs.length > 1) {
    for (const [label, threads] of [['chosen', undefined], ['1 thread', '1'], ['2 threads', '2']] as const) {
      rows.push({ name: `batch ${inputs.length} real, ${label}`, kind: 'batch', path: inputs[0], batch: { inputs, threads } });
    }
  }
} else {
  console.log(`note: ${assetsDir} is absent: no real files`);
}

/** Generates a synthetic row's input when missing (to a temporary name, renamed when complete). */
function ensure(row: Row): boolean {
  if (existsSync(row.path)) return true;
  if (row.write) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(`${row.path}.${process.pid}.tmp`, row.write());
    renameSync(`${row.path}.${process.pid}.tmp`, row.path);
    return true;
  }
  if (!row.make) return false;
  if (!existsSync(generator)) {
    console.log(`${row.name}: skipped (${generator} is absent)`);
    return false;
  }
  mkdirSync(dataDir, { recursive: true });
  const temporary = `${row.path}.${process.pid}.tmp`;
  const run = spawnSync('python3', [generator, ...row.make.args, temporary], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) {
    rmSync(temporary, { force: true });
    console.log(`${row.name}: skipped (gen_big_iqe.py exit ${run.status})`);
    return false;
  }
  if (row.make.vb) rewriteBlends(temporary, row.make.vb);
  renameSync(temporary, row.path);
  return true;
}

/** Rewrites every `vb` line of a file in place (through a second file). */
function rewriteBlends(path: string, vb: (fields: string[]) => string[]): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const out = openSync(`${path}.vb`, 'w');
  let chunk: string[] = [];
  for (const line of lines) {
    const t = line.trimStart();
    chunk.push(t.startsWith('vb ') ? `\tvb ${vb(t.slice(3).trim().split(/\s+/)).join(' ')}` : line);
    if (chunk.length >= 65536) {
      writeSync(out, chunk.join('\n') + '\n');
      chunk = [];
    }
  }
  writeSync(out, chunk.join('\n'));
  closeSync(out);
  renameSync(`${path}.vb`, path);
}

function digest(path: string): string {
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : '';
}

const sizeText = (bytes: number): string => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`);
const secs = (s: number): string => (Number.isFinite(s) ? s.toFixed(3) : '-');

/** Issue 18's goal for a row, and whether `ours` meets it against `ref` and node's start (seconds of wall, or of CPU). */
function goal(kind: Row['kind'], refWall: number): string {
  if (kind === 'generated') return '<=0.25x';
  if (kind === 'batch') return '<=1.0x';
  return refWall < 0.15 ? '<=node+.05' : '<=1.0x';
}
function meets(text: string, ours: number, ref: number, node: number): string {
  const bound = text === '<=node+.05' ? node + 0.05 : Number(text.slice(2, -1)) * ref;
  return Number.isFinite(bound) && Number.isFinite(ours) ? (ours <= bound ? 'yes' : 'NO') : '-';
}

/** The digest of a file, or of every file of a folder (names and contents). */
function digestOf(path: string): string {
  if (!existsSync(path)) return '';
  if (!statSync(path).isDirectory()) return digest(path);
  return createHash('sha256').update(readdirSync(path).sort().map((name) => `${name}:${digest(join(path, name))}`).join('\n')).digest('hex');
}
const mibText = (m: number): string => (Number.isFinite(m) ? m.toFixed(0) : '-');
/** Median CPU seconds (all threads, user + system; /usr/bin/time counts in hundredths). */
const cpuText = (side: Run[]): string => (side.length > 0 && Number.isFinite(median(side.map((x) => x.cpu))) ? median(side.map((x) => x.cpu)).toFixed(2) : '-');
/** Median CPU time (all threads) of one side over the reference's: what a loaded machine disturbs least. */
const cpuRatio = (side: Run[], refs: Run[]): string => {
  const r = refs.length > 0 ? median(refs.map((x) => x.cpu)) : NaN;
  return Number.isFinite(r) && r > 0 ? (median(side.map((x) => x.cpu)) / r).toFixed(2) : '-';
};

if (!existsSync(cli)) {
  console.log(`skipped: ${cli} is missing (npm run build)`);
  process.exit(0);
}
const withReference = existsSync(reference);
if (!withReference) console.log(`note: no reference compiler at ${reference} (bash ../shared/reference-compiler/build.sh, or set REF_IQM): ours only`);
const filters = (process.env.IQM_MATRIX ?? '').split(',').filter((s) => s !== '');
const chosen = rows.filter((r) => filters.length === 0 || filters.some((f) => r.name.includes(f)));
const load0 = loadavg();
console.log(`machine: ${readCpuName()}, ${readdirSync('/sys/devices/system/cpu').filter((d) => /^cpu\d+$/.test(d)).length || '?'} CPUs, node ${process.versions.node}; load average at start ${load0.map((l) => l.toFixed(2)).join(' ')}`);
const dir = mkdtempSync(join(tmpdir(), 'iqm-matrix-'));
const header = ['shape', 'size', 'ours s', 'ref s', 'ratio', 'node s', ...(other ? ['other s', 'o/ref'] : []), 'ours cpu', 'ref cpu', 'cpu ratio', 'node cpu', ...(other ? ['o cpu', 'o ratio'] : []), 'ours MiB', 'ref MiB', 'goal', 'wall', 'cpu', ...(other ? ['=other'] : [])];
const widths = [40, 8, 7, 7, 6, 6, ...(other ? [7, 6] : []), 8, 7, 9, 8, ...(other ? [6, 7] : []), 8, 7, 10, 4, 4, 6];
const line = (cells: string[]): string => cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join(' ');
try {
  const nodeStart: number[] = [];
  for (let i = 0; i < 11; i++) nodeStart.push(timed(process.execPath, ['-e', '0'], dir).seconds);
  console.log(`node -e 0: ${secs(median(nodeStart))} s (median of 11)\n`);
  console.log(line(header));
  for (const row of chosen) {
    if (!ensure(row)) continue;
    const inputs = row.batch?.inputs ?? [row.path];
    const bytes = inputs.reduce((total, path) => total + statSync(path).size, 0);
    const runs = Number(process.env.IQM_MATRIX_RUNS ?? (bytes > 8 << 20 || row.batch ? 3 : 7));
    const ours: Run[] = [], refs: Run[] = [], others: Run[] = [], nodes: Run[] = [];
    // A batch writes into folders (-o FOLDER/), a file its IQM.
    const oursOut = join(dir, row.batch ? 'ours/' : 'ours.iqm'), refOut = join(dir, 'ref.iqm'), otherOut = join(dir, row.batch ? 'other/' : 'other.iqm');
    const compileArgs = (out: string): string[] => (row.batch ? ['compile', '--each', ...inputs, '-o', out] : ['compile', row.path, '-o', out]);
    const env = row.batch?.threads !== undefined ? { IQM_TOOLS_EACH_THREADS: row.batch.threads } : undefined;
    for (let i = 0; i < runs; i++) {
      nodes.push(timed(process.execPath, ['-e', '0'], dir));
      ours.push(timed(process.execPath, [cli, ...compileArgs(oursOut)], dir, env));
      if (withReference) refs.push(timedSeries(inputs.map((path) => ({ command: reference, args: [refOut, path] })), dir));
      if (other) others.push(timed(process.execPath, [other, ...compileArgs(otherOut)], dir, env));
    }
    const failed = ours.find((r) => !r.ok);
    if (failed) {
      console.log(line([row.name, sizeText(bytes), 'failed']) + `  ${failed.error}`);
      continue;
    }
    const o = median(ours.map((r) => r.seconds));
    const r = withReference && refs.every((x) => x.ok) ? median(refs.map((x) => x.seconds)) : NaN;
    const x = other ? median(others.map((y) => y.seconds)) : NaN;
    const n = median(nodes.map((y) => y.seconds));
    const cpuOf = (side: Run[]): number => (side.length > 0 ? median(side.map((y) => y.cpu)) : NaN);
    const target = goal(row.kind, r);
    // Ours against the other build's bytes (a speed change must not change them; against the
    // reference they differ where it is wrong: README, IQE-SEMANTICS.md §6).
    const same = other ? (others.every((y) => y.ok) && digestOf(oursOut) === digestOf(otherOut) ? 'yes' : 'NO') : '';
    console.log(
      line([
        row.name,
        sizeText(bytes),
        secs(o),
        secs(r),
        Number.isFinite(r) ? (o / r).toFixed(2) : '-',
        secs(n),
        ...(other ? [secs(x), Number.isFinite(r) ? (x / r).toFixed(2) : '-'] : []),
        cpuText(ours),
        cpuText(refs),
        cpuRatio(ours, refs),
        cpuText(nodes),
        ...(other ? [cpuText(others), cpuRatio(others, refs)] : []),
        mibText(Math.max(...ours.map((y) => y.mib))),
        mibText(withReference ? Math.max(...refs.map((y) => y.mib)) : NaN),
        target,
        meets(target, o, r, n),
        meets(target, cpuOf(ours), cpuOf(refs), cpuOf(nodes)),
        ...(other ? [same] : []),
      ]),
    );
  }
  console.log(`\nload average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}; times are medians of interleaved runs; MiB is the largest peak RSS of the runs`);
  console.log('node: `node -e 0` in the same runs; goal: issue 18, and issue 35 for the batch (against the reference run file by file); wall/cpu: met on the wall times / on the CPU times (CPU: /usr/bin/time counts hundredths)');
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(batchDir, { recursive: true, force: true });
}

function readCpuName(): string {
  try {
    const model = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return model ? model[1].trim() : 'unknown CPU';
  } catch {
    return 'unknown CPU';
  }
}

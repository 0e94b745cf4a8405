// `npm run fuzz:ci` (.ci/run): the fuzz of every format (IQM, MD3, DPM readers, one input in
// CONVERT_EVERY also converted to IQE that must compile; the validator of those three
// (core/validate), a target of its own; the IQE paths; the MD5, SMD, OBJ and glTF readers and
// their compile, source-fuzz.ts; the files beside a model and the TGA, PNG and JPEG images,
// sidecar-fuzz.ts) for a fixed wall-clock budget, with a watchdog per input. Each format runs in child processes (two
// at a time: the CI's 2 cores), each for its share of the budget, after replaying the corpus of
// inputs that ever failed (test/fuzz/corpus/FORMAT/). An input fails the run when reading it
// throws what the reader should not, takes more than 1 s, or leaves a result holding more than 4x
// the input's size (at least 64 KiB: FLOOR) in typed arrays (counted exactly: heap accounting, not the process's RSS,
// which another process or the GC's timing would blur); a child that dies (its heap is capped) or
// stops answering fails it too. Failing inputs go to out/fuzz-failures/ (copy them into the
// corpus to keep them). The last line says FUZZ OK or FUZZ FAILED with the figures.
//   node out/test/fuzz/ci-fuzz.run.js [--seconds 180] [--workers 2] [--seed S] [--formats iqe,sidecar,...]
// (without --seed: a new one, printed; without --formats: every format)
import { spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { asset, HAVE_ASSETS, modelAssets } from '../helpers/model-assets';
import { exercise, exerciseValidator, generatedSeeds, lastOwnedBytes, mutate, sectionBoundaries } from '../helpers/model-fuzz';
import { cpuMs, exerciseIqe, generatedIqeSeeds, mutateIqe } from '../helpers/iqe-fuzz';
import { prng } from '../helpers/iqe-fixtures';
import { skinnedModel } from '../helpers/skinned-model';
import { detectFormat } from '../../core/formats/registry';
import { exerciseSource, generatedSourceSeeds, mutateGltf, mutateSource, SOURCE_EXTENSIONS, type FuzzSourceFormat } from '../helpers/source-fuzz';
import { exerciseImage, exerciseSidecar, fuzzKind, generatedImageSeeds, generatedSidecarSeeds, mutateSidecar } from '../helpers/sidecar-fuzz';

const FORMATS = ['iqm', 'md3', 'dpm', 'validator', 'iqe', 'md5', 'smd', 'obj', 'gltf', 'sidecar', 'image'] as const;
type Format = (typeof FORMATS)[number];
/**
 * The validator's inputs: the IQM, MD3 and DPM seeds and corpus, mutated as the readers' are. A
 * target of its own, not a step of every reader input: it checks everything a file holds (all
 * frames skinned for the bounds, every triangle) where a reader gives up at the first bad count,
 * so run on each reader input it took ~50x the reader's time and cut the readers' inputs from
 * ~98,000 to ~700 in a run (IQM).
 */
const VALIDATED: readonly Format[] = ['iqm', 'md3', 'dpm'];
/**
 * A binary reader's input is converted to IQE and compiled (convert's promise) one time in this
 * many, and every corpus input: the convert and compile take ~70x the read and pose (13.5 against
 * 0.19 ms an IQM input), so on every input they left the readers a seventh of the inputs.
 */
const CONVERT_EVERY = 8;
/** The text formats read by the compile's source readers (their inputs are read as files of their name). */
const isSource = (format: Format): format is FuzzSourceFormat => format === 'md5' || format === 'smd' || format === 'obj' || format === 'gltf';
const CORPUS = resolve('test', 'fuzz', 'corpus');
const FAILURES = resolve('out', 'fuzz-failures');
/**
 * The watchdog: a path using more than HANG_MS of CPU time fails; a result holding more than RATIO x its input in
 * typed arrays fails. An input so small that RATIO x is under FLOOR bytes may hold FLOOR: what
 * every result holds whatever the input's size (a chunk's and a model's fixed tables) would
 * otherwise fail a 10-byte input. The rule was RATIO x + FLOOR for every input, which let a
 * large input pass above RATIO x; the largest ratio is now reported over the inputs the ratio
 * applies to, and the most a small input held apart. A glTF whose scene draws a mesh from several
 * nodes is held to its input times those copies (gltfCopies): IQM has no instancing, and the reader
 * allows up to 16 copies of what the file stores (core/gltf/reader.ts).
 */
const HANG_MS = 1000;
const RATIO = 4;
const FLOOR = 64 * 1024;
/**
 * A child that prints nothing while it uses this much CPU time is hung (its current input is then
 * the failure). CPU time, not wall time: on a loaded machine a child waiting for a CPU for 10 s
 * was taken for a hung one (a truncated MD3 that reads in 26 ms failed a run so). Where the
 * child's CPU time cannot be read, and in any case after SILENT_WALL_MS, wall time decides.
 */
const SILENT_CPU_MS = 10_000;
const SILENT_WALL_MS = 120_000;
/** Real files larger than this are not fuzzed (each input would take long; the budget is fixed). */
const MAX_SEED_BYTES = 300_000;
const IMAGE_NAME = /\.(tga|png|jpe?g)$/i;
/** A saved sidecar input keeps its file's name after this prefix: the name says what kind it is. */
const SAVED_SIDECAR = /^sidecar-[0-9a-f]{12}-/;

/** Every file under `dir` (depth: how many folders down) whose name `keep` accepts, as seeds named by their path from `dir`. */
function filesUnder(dir: string, keep: (name: string) => boolean, depth = 3, label = ''): Seed[] {
  if (!existsSync(dir)) return [];
  const seeds: Seed[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth > 0) seeds.push(...filesUnder(path, keep, depth - 1, `${label}${entry.name}/`));
    else if (entry.isFile() && keep(entry.name)) {
      const bytes = new Uint8Array(readFileSync(path));
      if (bytes.length <= MAX_SEED_BYTES) seeds.push({ name: `${label}${entry.name}`, bytes });
    }
  }
  return seeds;
}

/** Where a binary input's truncations are tried first: its header fields and sections. */
function boundariesOf(format: Format, bytes: Uint8Array): number[] {
  if (format === 'iqe' || format === 'sidecar' || isSource(format)) return [];
  // A TGA's header fields and the end of its ID and colour map; a PNG's IHDR; a JPEG's first markers.
  if (format === 'image') return [1, 2, 3, 5, 8, 12, 16, 18, 18 + (bytes[0] ?? 0), 24, 33];
  return sectionBoundaries(bytes);
}

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

interface Seed {
  name: string;
  bytes: Uint8Array;
}

function seedsOf(format: Format): Seed[] {
  const assets = resolve('..', 'shared', 'assets');
  if (format === 'sidecar') return [...generatedSidecarSeeds(), ...filesUnder(assets, (name) => fuzzKind(name) !== undefined)];
  if (format === 'image') return [...generatedImageSeeds(), ...filesUnder(assets, (name) => IMAGE_NAME.test(name))];
  if (isSource(format)) {
    // Real files, in the format's folder of the assets (a glTF's own folder too: assimp/BoxTextured/).
    return [...generatedSourceSeeds(format), ...filesUnder(join(assets, format), (name) => SOURCE_EXTENSIONS[format].some((e) => name.endsWith(`.${e}`)), 2)];
  }
  if (format === 'iqe') {
    const seeds = generatedIqeSeeds(skinnedModel(3, { frames: 8, speed: 0.5 })).map((s) => ({ name: s.name, bytes: Buffer.from(s.text) }));
    const dir = resolve('..', 'shared', 'assets', 'iqe');
    if (existsSync(dir)) {
      for (const sub of readdirSync(dir)) {
        for (const name of readdirSync(join(dir, sub))) {
          if (!name.endsWith('.iqe')) continue;
          const bytes = readFileSync(join(dir, sub, name));
          if (bytes.length <= MAX_SEED_BYTES) seeds.push({ name: `${sub}/${name}`, bytes });
        }
      }
    }
    return seeds;
  }
  if (format === 'validator') return VALIDATED.flatMap((f) => seedsOf(f));
  const seeds = generatedSeeds().filter((s) => detectFormat(s.bytes) === format);
  if (HAVE_ASSETS) {
    for (const f of modelAssets()) {
      const bytes = asset(f);
      if (detectFormat(bytes) === format && bytes.length <= MAX_SEED_BYTES) seeds.push({ name: f, bytes });
    }
  }
  return seeds;
}

/** Input `index` of a child's sequence: its own generator, so the parent can make it again. */
function makeInput(format: Format, seeds: Seed[], bounds: number[][], seed: number, index: number): { bytes: Uint8Array; what: string; name: string } {
  const random = prng(seed * 1_000_003 + index);
  const k = index % seeds.length;
  const name = seeds[k].name.slice(seeds[k].name.lastIndexOf('/') + 1);
  if (format === 'sidecar') {
    const m = mutateSidecar(name, Buffer.from(seeds[k].bytes).toString('latin1'), random);
    return { bytes: Buffer.from(m.text, 'latin1'), what: `${seeds[k].name}: ${m.what}`, name };
  }
  if (format === 'gltf') {
    const m = mutateGltf(seeds[k].bytes, random);
    return { bytes: m.bytes, what: `${seeds[k].name}: ${m.what}`, name };
  }
  if (isSource(format)) {
    const m = mutateSource(format, Buffer.from(seeds[k].bytes).toString('utf8'), random);
    return { bytes: Buffer.from(m.text), what: `${seeds[k].name}: ${m.what}`, name };
  }
  if (format === 'iqe') {
    const m = mutateIqe(Buffer.from(seeds[k].bytes).toString('utf8'), random);
    return { bytes: Buffer.from(m.text), what: `${seeds[k].name}: ${m.what}`, name };
  }
  let [bytes, what] = mutate(seeds[k].bytes, random, bounds[k]);
  if (random() < 0.3) {
    const [again, more] = mutate(bytes.length ? bytes : seeds[k].bytes, random, bounds[k]);
    bytes = again;
    what += `; ${more}`;
  }
  return { bytes, what: `${seeds[k].name}: ${what}`, name };
}

/** Runs one input (a source read as the file `name`; `convert`: a binary model's IQE compiled too); the failure's message, or null. */
async function runInput(format: Format, bytes: Uint8Array, name: string, convert: boolean): Promise<{ error: string | null; ms: number; ratio: number; owned: number }> {
  // CPU time (the watchdog's hang is work, not a wait for a CPU: a 20 ms read took 1047 ms of wall
  // time at a load average of 12 and failed a run).
  const start = cpuMs();
  let owned = 0;
  // A glTF scene that draws a mesh from several nodes holds a copy per node: the limit is its
  // input times those copies.
  let copies = 1;
  let error: string | null = null;
  // The IQE exercise runs every path (check, server, info, compile, streamed reader, sample, CR
  // variant): the watchdog holds each path to the limit; a binary reader is one path.
  let slowest = { path: 'read', ms: 0 };
  try {
    if (format === 'sidecar' || format === 'image') {
      const r = format === 'sidecar' ? await exerciseSidecar(bytes, name.replace(SAVED_SIDECAR, '')) : exerciseImage(bytes);
      owned = r.owned;
      slowest = { path: r.slowestPath, ms: r.slowestMs };
    } else if (format === 'iqe' || isSource(format)) {
      const r = format === 'iqe' ? exerciseIqe(Buffer.from(bytes).toString('utf8')) : await exerciseSource(bytes, name);
      owned = r.owned;
      if ('copies' in r && typeof r.copies === 'number') copies = r.copies;
      slowest = { path: r.slowestPath, ms: r.slowestMs };
    } else if (format === 'validator') {
      slowest.path = 'validate';
      exerciseValidator(bytes);
    } else {
      // Read, posed, skinned, and (`convert`) converted to IQE that must compile.
      exercise(bytes, convert);
      owned = lastOwnedBytes;
    }
  } catch (e) {
    error = e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' | ') : String(e);
  }
  const ms = cpuMs() - start;
  if (format !== 'iqe' && format !== 'sidecar' && format !== 'image' && !isSource(format)) slowest.ms = ms;
  const ratio = owned / Math.max(1, copies * bytes.length);
  if (!error && slowest.ms > HANG_MS) error = `${slowest.path} took ${slowest.ms.toFixed(0)} ms (watchdog: ${HANG_MS} ms per path; the input: ${ms.toFixed(0)} ms)`;
  const drawn = copies > 1 ? ` drawn ${copies.toFixed(1)} times` : '';
  if (!error && owned > Math.max(RATIO * copies * bytes.length, FLOOR)) error = `the result holds ${owned} bytes of typed arrays for ${bytes.length} input bytes${drawn} (${ratio.toFixed(1)}x; watchdog: ${RATIO}x, at least ${FLOOR} bytes)`;
  return { error, ms, ratio, owned };
}

interface Report {
  inputs: number;
  slowestMs: number;
  slowest: string;
  /** The largest ratio of an input the ratio applies to (RATIO x its size at least FLOOR), and that input. */
  ratio: number;
  ratioInput: string;
  /** The most a smaller input's result held (bytes). */
  smallOwned: number;
  peakRssBytes: number;
  failures: { what: string; error: string; file: string }[];
}

/** Keeps a failing input, named with its format's extension (a source's own: .md5anim, .smd, ...). */
function saveFailure(format: Format, bytes: Uint8Array, inputName: string, what: string, error: string): string {
  mkdirSync(FAILURES, { recursive: true });
  const name = `${format}-${createHash('sha1').update(bytes).digest('hex').slice(0, 12)}`;
  // A sidecar keeps its whole name (animation.cfg is one by name); a source or an image its extension.
  const file = format === 'sidecar' ? `${name}-${inputName}` : `${name}.${isSource(format) || format === 'image' || format === 'validator' ? inputName.slice(inputName.lastIndexOf('.') + 1) : format}`;
  writeFileSync(join(FAILURES, file), bytes);
  writeFileSync(join(FAILURES, `${name}.txt`), `${what}\n${error}\n`);
  return join(FAILURES, file);
}

function peakRss(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/** Child mode: the corpus of one format, or inputs of its sequence until `seconds` pass. */
async function child(format: Format, seed: number, seconds: number, corpus: boolean): Promise<void> {
  const report: Report = { inputs: 0, slowestMs: 0, slowest: '', ratio: 0, ratioInput: '', smallOwned: 0, peakRssBytes: 0, failures: [] };
  const one = async (bytes: Uint8Array, name: string, what: string, index: number): Promise<void> => {
    process.stdout.write(`start ${index}\n`);
    const r = await runInput(format, bytes, name, corpus || index % CONVERT_EVERY === 0);
    report.inputs++;
    if (r.ms > report.slowestMs) {
      report.slowestMs = r.ms;
      report.slowest = what;
    }
    if (RATIO * bytes.length < FLOOR) report.smallOwned = Math.max(report.smallOwned, r.owned);
    else if (r.ratio > report.ratio) {
      report.ratio = r.ratio;
      report.ratioInput = what;
    }
    if (r.error) report.failures.push({ what, error: r.error, file: saveFailure(format, bytes, name, what, r.error) });
  };
  if (corpus) {
    // The validator replays the readers' corpus too: each input there once broke a reader.
    const folders = format === 'validator' ? [...VALIDATED, format] : [format];
    const files = folders.flatMap((folder) => {
      const dir = join(CORPUS, folder);
      return existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.txt')).sort().map((f) => join(folder, f)) : [];
    });
    for (const [i, f] of files.entries()) await one(readFileSync(join(CORPUS, f)), f.slice(f.indexOf('/') + 1), `corpus ${f}`, i);
  } else {
    const seeds = seedsOf(format);
    const bounds = seeds.map((s) => boundariesOf(format, s.bytes));
    const end = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < end; i++) {
      const input = makeInput(format, seeds, bounds, seed, i);
      await one(input.bytes, input.name, input.what, i);
    }
  }
  report.peakRssBytes = peakRss();
  process.stdout.write(`report ${JSON.stringify(report)}\n`);
}

interface Job {
  format: Format;
  seed: number;
  seconds: number;
  corpus: boolean;
}

/** CPU time a process has run (ms; Linux's /proc/PID/schedstat), NaN where it cannot be read. */
function cpuMsOf(pid: number | undefined): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Runs a job in a child process (heap capped) and gives its report; a death or a hang is a failure. */
function runJob(job: Job): Promise<Report> {
  return new Promise((done) => {
    const args = ['--max-old-space-size=1024', '--enable-source-maps', __filename, '--child', job.format, String(job.seed), String(job.seconds), job.corpus ? 'corpus' : 'mutations'];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = -1;
    let buffer = '';
    let report: Report | null = null;
    let stderr = '';
    let heard = Date.now();
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (text: string) => {
      heard = Date.now();
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('start ')) last = Number(line.slice(6));
        else if (line.startsWith('report ')) report = JSON.parse(line.slice(7)) as Report;
      }
    });
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
    let hung = false;
    let cpuHeard = cpuMsOf(proc.pid);
    proc.stdout.on('data', () => (cpuHeard = cpuMsOf(proc.pid)));
    const watchdog = setInterval(() => {
      const cpu = cpuMsOf(proc.pid);
      const silentCpu = Number.isNaN(cpu) || Number.isNaN(cpuHeard) ? Date.now() - heard : cpu - cpuHeard;
      if (silentCpu > SILENT_CPU_MS || Date.now() - heard > SILENT_WALL_MS) {
        hung = true;
        proc.kill('SIGKILL');
      }
    }, 500);
    proc.on('exit', (code, signal) => {
      clearInterval(watchdog);
      if (report && code === 0) return done(report);
      // The child died or hung on input `last`: make it again here, to keep it.
      const failed: Report = report ?? { inputs: Math.max(0, last + 1), slowestMs: 0, slowest: '', ratio: 0, ratioInput: '', smallOwned: 0, peakRssBytes: 0, failures: [] };
      let what = `${job.format} input ${last}`;
      let file = '';
      if (!job.corpus && last >= 0) {
        const seeds = seedsOf(job.format);
        const input = makeInput(job.format, seeds, seeds.map((s) => boundariesOf(job.format, s.bytes)), job.seed, last);
        what = input.what;
        file = saveFailure(job.format, input.bytes, input.name, input.what, hung ? 'hung' : `child died (${signal ?? code})`);
      }
      failed.failures.push({ what, error: hung ? `no answer for ${SILENT_CPU_MS / 1000} s of its CPU time (hung)` : `the child process died (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`, file });
      done(failed);
    });
  });
}

async function parent(): Promise<number> {
  const seconds = arg('--seconds', 180);
  const workers = Math.max(1, arg('--workers', 2));
  // Without --seed a new one each run (printed, so that a failing run can be repeated).
  const seed = arg('--seed', randomInt(1, 2 ** 31));
  const started = performance.now();
  const only = process.argv.includes('--formats') ? process.argv[process.argv.indexOf('--formats') + 1].split(',') : null;
  const formats = FORMATS.filter((f) => !only || only.includes(f));
  // The corpus first (short), then each format's share of the budget on every worker.
  const jobs: Job[] = formats.map((format) => ({ format, seed, seconds: 0, corpus: true }));
  // IQE gets 40% of the budget: each of its inputs runs every path (check, server, compile, ...).
  const others = formats.filter((f) => f !== 'iqe').length;
  const share = (format: Format): number => (format === 'iqe' ? (others > 0 ? 0.4 : 1) : (formats.includes('iqe') ? 0.6 : 1) / others);
  for (const format of formats) for (let w = 0; w < workers; w++) jobs.push({ format, seed: seed * 16 + w, seconds: seconds * share(format), corpus: false });
  const results = new Map<Format, Report[]>(formats.map((f) => [f, []]));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++];
      results.get(job.format)!.push(await runJob(job));
    }
  };
  console.log(`fuzz: ${formats.join(', ')}; ${seconds} s on ${workers} workers; seed ${seed}; watchdog ${HANG_MS} ms of CPU time per path and ${RATIO}x the input (at least ${FLOOR / 1024} KiB) per input`);
  await Promise.all(Array.from({ length: workers }, worker));
  let failures = 0;
  let slowest = { ms: 0, what: '' };
  let ratio = { value: 0, what: '' };
  const counts: string[] = [];
  for (const format of formats) {
    const reports = results.get(format)!;
    const inputs = reports.reduce((n, r) => n + r.inputs, 0);
    const corpusInputs = reports[0]?.inputs ?? 0;
    const rss = Math.max(...reports.map((r) => r.peakRssBytes));
    const worst = reports.reduce((a, r) => (r.slowestMs > a.slowestMs ? r : a), reports[0]);
    const big = reports.reduce((a, r) => (r.ratio > a.ratio ? r : a), reports[0]);
    const small = Math.max(...reports.map((r) => r.smallOwned));
    // The validator keeps no model: its inputs have no result to weigh.
    const held = format === 'validator' ? '' : `largest result ${big.ratio.toFixed(2)}x its input${format === 'gltf' ? ' (times the copies its scene draws)' : ''} (${big.ratioInput.slice(0, 120)}), inputs under ${FLOOR / RATIO / 1024} KiB: at most ${(small / 1024).toFixed(1)} KiB; `;
    console.log(`${format}: ${inputs} inputs (${corpusInputs} from the corpus); slowest ${worst.slowestMs.toFixed(0)} ms (${worst.slowest.slice(0, 160)}); ${held}peak RSS of a child ${(rss / 2 ** 20).toFixed(0)} MiB`);
    counts.push(`${format} ${inputs}`);
    if (worst.slowestMs > slowest.ms) slowest = { ms: worst.slowestMs, what: `${format}: ${worst.slowest.slice(0, 100)}` };
    if (big.ratio > ratio.value) ratio = { value: big.ratio, what: `${format}` };
    for (const r of reports) {
      for (const f of r.failures) {
        failures++;
        if (failures <= 20) console.log(`FAIL ${format}: ${f.what.slice(0, 300)}\n  ${f.error.slice(0, 600)}${f.file ? `\n  input: ${f.file}` : ''}`);
      }
    }
  }
  const wall = ((performance.now() - started) / 1000).toFixed(0);
  const figures = `inputs ${counts.join(', ')}; slowest ${slowest.ms.toFixed(0)} ms (${slowest.what}); peak memory ratio ${ratio.value.toFixed(2)}x (${ratio.what}; inputs of ${FLOOR / RATIO / 1024} KiB or more); ${wall} s`;
  if (failures > 0) {
    console.log(`failing inputs are in ${FAILURES}; copy them into ${CORPUS}/FORMAT/ to keep them`);
    console.log(`FUZZ FAILED: ${failures} failures; ${figures}`);
    return 1;
  }
  console.log(`FUZZ OK: ${figures}`);
  return 0;
}

if (process.argv[2] === '--child') void child(process.argv[3] as Format, Number(process.argv[4]), Number(process.argv[5]), process.argv[6] === 'corpus');
else void parent().then((code) => (process.exitCode = code));

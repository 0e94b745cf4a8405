// Memory of the IQE paths as a multiple of the text size (issue 17, item 5: <= 4x), on a generated
// model, the real assets and hand-made files of short lines (the worst case: the per-line arrays
// against few characters per line):
//   check  - the parsed document after validation: its typed arrays and problem list counted
//            exactly; and `check`'s work in a process of its own: its peak RSS above its RSS
//            before it read the file;
//   server - the real language server with the file open: what it retains after a GC
//            (iqmTools/debugMemory: heap used + array buffers) above its baseline, and how long
//            the first diagnostics took to come;
//   sample - `iqm-tools sample --frame 0`'s work (read, compile of the skeleton and animation,
//            pose) in a process of its own: peak RSS as for check.
// Peak RSS is given three times. cold: the process did the same work on a 14-line file first (code
// loaded), as a one-shot CLI run is. warm: it did the same work on a generated 0.8 MB model first,
// so that the code is compiled by the optimising JIT and V8's heap has its working size; what that
// warm-up left resident (printed: about 10-14 MB, whatever the file's size) is then in the
// baseline, not in the figure. cold minus warm is that fixed cost; on a file below a few MB it is
// most of the cold figure. whole: the whole process's peak (node's start included) above the same
// command's on the 14-line file in a process of its own, as a user sees it with /usr/bin/time.
// The RSS is the process's own (other processes do not count). `check` is the CLI's (runCheck
// with --json, its output to /dev/null): reading, validation and every diagnostic written.
// The last column says which of the figures are within 4x (issue 17's target).
// Also the times of issue 17's items 2 and 4 (long lines, CR-only files) through the CLI.
// Prints figures; never fails on a figure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Chunk } from '../core/iqe/chunk';
import { DebugMemoryRequest } from '../core/lspMethods';
import { IqeDocument } from '../core/iqe/document';
import { dataDir, syntheticIqe } from './helpers/data';

const CLI = resolve('dist', 'cli.js');
const SERVER = resolve('dist', 'server.js');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const x = (bytes: number, size: number): string => `${(bytes / size).toFixed(2)}x`;

/** The typed arrays a chunk holds. */
function chunkArrays(chunk: Chunk): ArrayBufferView[] {
  const s = chunk.summary;
  return [chunk.lineMarks, chunk.kind, chunk.flags, chunk.flagged, chunk.valueStart, chunk.values, s.attributeCount, s.attributeFirst, s.attributeLast];
}

/** The check's parsed document: its typed arrays and its problem list, counted exactly (an array shared by several chunks once). */
function checkArrays(text: string): number {
  const doc = new IqeDocument(text);
  doc.diagnostics();
  const { problems } = doc.analyse();
  const buffers = new Set<ArrayBufferLike>();
  for (const array of [...doc.parsedChunks.flatMap(chunkArrays), ...problems.arrays()]) buffers.add(array.buffer);
  return [...buffers].reduce((n, b) => n + b.byteLength, 0);
}

/**
 * `check` or `sample` in a process of its own (child mode, below): its peak RSS above its RSS
 * before it read the file, after the same work on a small file (code loaded and compiled). RSS is
 * the process's own, so other processes on the machine do not count.
 */
function measureChild(what: 'check' | 'sample', file: string, warmUp: string): { peak: number; fixed: number } | string {
  // The command's output (check --json) goes to /dev/null; the figures come on stderr.
  const run = spawnSync(process.execPath, ['--expose-gc', __filename, '--child', what, file, warmUp], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const match = /^peak (-?\d+) fixed (-?\d+)$/m.exec(run.stderr);
  return match ? { peak: Number(match[1]), fixed: Number(match[2]) } : `failed: ${run.stderr.trim().split('\n')[0]}`;
}

/** The whole process's peak RSS (VmHWM, node's start included) for the command on `file` alone. */
function wholeProcessPeak(what: 'check' | 'sample', file: string): number | string {
  const run = spawnSync(process.execPath, ['--expose-gc', __filename, '--whole', what, file], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const match = /^whole (\d+)$/m.exec(run.stderr);
  return match ? Number(match[1]) : `failed: ${run.stderr.trim().split('\n')[0]}`;
}

async function measureServer(text: string): Promise<{ retained: number; publishMs: number }> {
  const child = spawn(process.execPath, ['--expose-gc', SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const uri = pathToFileURL(join(dataDir, 'memory.iqe')).toString();
  let published: () => void = () => undefined;
  const diagnostics = new Promise<void>((r) => (published = r));
  connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string }) => {
    if (p.uri === uri) published();
  });
  connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({ debounceMs: 0 })));
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } } });
  connection.sendNotification('initialized', {});
  type Memory = { heapUsed: number; arrayBuffers: number };
  const memory = (): Promise<Memory> => connection.sendRequest<Memory>(DebugMemoryRequest.method, { gc: true });
  const used = (m: Memory): number => m.heapUsed + m.arrayBuffers;
  const baseline = await memory();
  const opened = performance.now();
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'iqe', version: 1, text } });
  await diagnostics;
  const publishMs = performance.now() - opened;
  const after = await memory();
  await connection.sendRequest('shutdown');
  const exited = new Promise((r) => child.once('exit', r));
  await connection.sendNotification('exit');
  await exited;
  connection.dispose();
  return { retained: used(after) - used(baseline), publishMs };
}

/** Hand-made files of short lines: many lines for their size. */
function shortLines(kind: 'vertices' | 'blanks'): string {
  const parts = ['# Inter-Quake Export\n', 'joint a -1\npq 0 0 0 0 0 0 1\nmesh m\n'];
  if (kind === 'blanks') {
    parts.push('vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfa 0 1 2\n', '\n'.repeat(4_000_000));
  } else {
    for (let i = 0; i < 200_000; i++) parts.push(`vp ${i % 10} ${(i >> 3) % 10} ${(i >> 6) % 10}\nvb 0 1\n`);
    for (let i = 0; i + 2 < 200_000; i += 3) parts.push(`fa ${i} ${i + 1} ${i + 2}\n`);
  }
  return parts.join('');
}

function timeCli(args: string[]): string {
  const start = performance.now();
  spawnSync(process.execPath, [CLI, ...args], { stdio: 'ignore' });
  return `${((performance.now() - start) / 1000).toFixed(2)} s`;
}

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const inputs: [string, string][] = [];
  const generated = syntheticIqe('memory-10mb.iqe', ['--grid', '60', '--anims', '1', '--frames-per-anim', '20']);
  if (generated) inputs.push(['gen_big_iqe, 10 MB', generated]);
  const assets = resolve('..', 'shared', 'assets', 'iqe');
  if (existsSync(assets)) {
    for (const dir of readdirSync(assets)) {
      for (const name of readdirSync(join(assets, dir))) if (name.endsWith('.iqe') && statSync(join(assets, dir, name)).size > 200_000) inputs.push([`${dir}/${name}`, join(assets, dir, name)]);
    }
  } else console.log(`(${assets} is absent: real assets skipped)`);
  for (const kind of ['vertices', 'blanks'] as const) {
    const path = join(dataDir, `memory-short-${kind}.iqe`);
    if (!existsSync(path)) writeFileSync(path, shortLines(kind));
    inputs.push([`short lines (${kind})`, path]);
  }
  // The warm-up model: the same mix of commands as a real skinned, animated file.
  const warmUp = syntheticIqe('memory-warm-up.iqe', ['--grid', '15', '--anims', '1', '--frames-per-anim', '10']) ?? join(dataDir, 'memory-small.iqe');
  const trivial = join(dataDir, 'memory-small.iqe');
  writeFileSync(trivial, SMALL_IQE);
  const commands = ['check', 'sample'] as const;
  const trivialPeak = new Map(commands.map((what) => [what, wholeProcessPeak(what, trivial)]));
  for (const what of commands) {
    const peak = trivialPeak.get(what)!;
    console.log(`${what} of the 14-line file, whole process peak RSS: ${typeof peak === 'string' ? peak : `${(peak / 2 ** 20).toFixed(1)} MiB`}`);
  }
  console.log('memory as a multiple of the file size (target <= 4x); peak RSS: cold / warm (fixed: what the warm-up left resident) / whole (above the 14-line file\'s):');
  console.log('input | size | check: typed arrays | check: peak RSS | server: retained | server: first diagnostics | sample: peak RSS | <= 4x?');
  for (const [label, path] of inputs) {
    const text = readFileSync(path, 'utf8');
    const size = statSync(path).size;
    const arrays = checkArrays(text);
    const server = await measureServer(text);
    const within: string[] = [];
    const verdict = (name: string, ratio: number): void => {
      within.push(`${name} ${ratio <= 4 ? 'yes' : 'NO'}`);
    };
    verdict('server', server.retained / size);
    const [check, sample] = commands.map((what) => {
      const cold = measureChild(what, path, '');
      const warm = measureChild(what, path, warmUp);
      const whole = wholeProcessPeak(what, path);
      const base = trivialPeak.get(what)!;
      if (typeof cold === 'string') return cold;
      if (typeof warm === 'string') return warm;
      if (typeof whole === 'string' || typeof base === 'string') return typeof whole === 'string' ? whole : String(base);
      verdict(`${what} cold`, cold.peak / size);
      verdict(`${what} warm`, warm.peak / size);
      verdict(`${what} whole`, (whole - base) / size);
      return `${x(cold.peak, size)} / ${x(warm.peak, size)} (fixed ${(warm.fixed / 2 ** 20).toFixed(0)} MiB) / ${x(whole - base, size)}`;
    });
    console.log(`${label} | ${(size / 1e6).toFixed(1)} MB | ${x(arrays, size)} | ${check} | ${x(server.retained, size)} | ${server.publishMs.toFixed(0)} ms | ${sample} | ${within.join(', ')}`);
  }

  // Issue 17 items 2 and 4: times through the CLI (node's start included).
  console.log('\ncheck times (issue 17: long lines, CR-only files):');
  const header = '# Inter-Quake Export\njoint a -1\npq 0 0 0 0 0 0 1\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\n';
  for (const n of [10_000, 50_000]) {
    const vb = join(dataDir, `long-vb-${n}.iqe`);
    writeFileSync(vb, `${header}vb ${Array.from({ length: n }, (_, i) => `${300 + i} 0.5`).join(' ')}\nvb 0 1\nvb 0 1\nfa 0 1 2\n`);
    const fm = join(dataDir, `long-fm-${n}.iqe`);
    writeFileSync(fm, `${header}fm ${Array.from({ length: n }, (_, i) => String(1000 + i)).join(' ')}\n`);
    console.log(`  one vb line of ${n} bad pairs: ${timeCli(['check', vb])}; one fm line of ${n} bad indices: ${timeCli(['check', fm])}`);
  }
  if (generated) {
    const lf = readFileSync(generated, 'latin1');
    const cr = join(dataDir, 'memory-10mb-cr.iqe');
    if (!existsSync(cr)) writeFileSync(cr, lf.replace(/\n/g, '\r'), 'latin1');
    console.log(`  ${(lf.length / 1e6).toFixed(1)} MB file, check: LF ${timeCli(['check', generated])}, CR-only ${timeCli(['check', cr])}`);
    console.log(`  ${(lf.length / 1e6).toFixed(1)} MB file, sample: LF ${timeCli(['sample', generated, '--frame', '0', '--json'])}, CR-only ${timeCli(['sample', cr, '--frame', '0', '--json'])}`);
  }
}

/**
 * Child mode: the command's work on a small file (code loaded), then on `warmUp` when given (code
 * compiled, heap at its working size), then on `file`; prints the peak RSS above the RSS just
 * before `file` was read, and what the warm-up left resident.
 */
/** The command's work on `path`: `check --json` (its output to stdout), or sample's (no output). */
async function commandWork(what: string): Promise<(path: string) => Promise<void>> {
  const { loadModel } = await import('../cli/info');
  const { sampleModel } = await import('../cli/sample');
  const { runCheck } = await import('../cli/check');
  return async (path: string): Promise<void> => {
    if (what === 'check') {
      await runCheck([path, '--json']);
      return;
    }
    const loaded = await loadModel(path, 'vp');
    if (!loaded.ok) throw new Error(loaded.message);
    const result = sampleModel(loaded.model, loaded.model.frameCount > 0 ? 0 : -1);
    if (typeof result === 'string') throw new Error(result);
  };
}

const SMALL_IQE = '# Inter-Quake Export\njoint a -1\npq 0 0 0 0 0 0 1\nmesh m\nvp 0 0 0\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfa 0 1 2\nanimation a\nframe\npq 0 0 0 0 0 0 1\n';

/** Whole mode: the command's work on `file` in a fresh process; prints the process's peak RSS (VmHWM, bytes). */
async function whole(what: string, file: string): Promise<void> {
  const work = await commandWork(what);
  await work(file);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  console.error(`whole ${(hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS) * 1024}`);
}

async function child(what: string, file: string, warmUp: string): Promise<void> {
  const work = await commandWork(what);
  const small = join(dataDir, 'memory-small.iqe');
  writeFileSync(small, SMALL_IQE);
  await work(small);
  gc();
  const loaded = process.memoryUsage().rss;
  if (warmUp) {
    await work(warmUp);
    gc();
  }
  const before = process.memoryUsage().rss;
  // The peak so far (the warm-up's) is reset where Linux allows it (clear_refs 5), so that the
  // peak read after the work is this work's.
  let reset = true;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    reset = false;
  }
  await work(file);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(reset ? readFileSync('/proc/self/status', 'utf8') : '');
  // VmHWM and maxRSS are in KiB; without the reset a warm-up's higher peak would be taken for this one.
  if (!hwm && warmUp) throw new Error('the peak RSS cannot be reset here: only the cold figure is measured');
  const peak = (hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS) * 1024;
  console.error(`peak ${peak - before} fixed ${before - loaded}`);
}

if (process.argv[2] === '--child') void child(process.argv[3], process.argv[4], process.argv[5] ?? '');
else if (process.argv[2] === '--whole') void whole(process.argv[3], process.argv[4]);
else void main();

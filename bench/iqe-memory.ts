// Memory of the IQE paths as a multiple of the text size (issue 17, item 5: <= 4x), on a generated
// model, the real assets and hand-made files of short lines (the worst case: the per-line arrays
// against few characters per line):
//   check  - the parsed document after validation: its typed arrays counted exactly (chunk arrays);
//            and `check`'s work in a process of its own: its peak RSS above its RSS before it
//            read the file (after the same work on a small file: code loaded and compiled);
//   server - the real language server with the file open: what it retains after a GC
//            (iqmTools/debugMemory) above its baseline;
//   sample - the same for `iqm-tools sample --frame 0` (the peak includes the compile's stages).
// Also the times of issue 17's items 2 and 4 (long lines, CR-only files) through the CLI.
// Prints figures; never fails on a figure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Chunk } from '../core/iqe/chunk';
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
  const problems = doc.analyse().problems as unknown as Record<string, unknown>;
  const buffers = new Set<ArrayBufferLike>();
  for (const array of [...doc.parsedChunks.flatMap(chunkArrays), ...Object.values(problems).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v))]) buffers.add(array.buffer);
  return [...buffers].reduce((n, b) => n + b.byteLength, 0);
}

/**
 * `check` or `sample` in a process of its own (child mode, below): its peak RSS above its RSS
 * before it read the file, after the same work on a small file (code loaded and compiled). RSS is
 * the process's own, so other processes on the machine do not count.
 */
function measureChild(what: 'check' | 'sample', file: string): number | string {
  const run = spawnSync(process.execPath, ['--expose-gc', __filename, '--child', what, file], { encoding: 'utf8' });
  const match = /^peak (\d+)$/m.exec(run.stdout);
  return match ? Number(match[1]) : `failed: ${(run.stderr || run.stdout).trim().split('\n')[0]}`;
}

async function measureServer(text: string): Promise<number> {
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
  const memory = (): Promise<Memory> => connection.sendRequest<Memory>('iqmTools/debugMemory', { gc: true });
  const used = (m: Memory): number => m.heapUsed + m.arrayBuffers;
  const baseline = await memory();
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'iqe', version: 1, text } });
  await diagnostics;
  const after = await memory();
  await connection.sendRequest('shutdown');
  const exited = new Promise((r) => child.once('exit', r));
  await connection.sendNotification('exit');
  await exited;
  connection.dispose();
  return used(after) - used(baseline);
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
  console.log('memory as a multiple of the file size (target <= 4x):');
  console.log('input | size | check: typed arrays | check: peak RSS | server: retained | sample: peak RSS');
  for (const [label, path] of inputs) {
    const text = readFileSync(path, 'utf8');
    const size = statSync(path).size;
    const arrays = checkArrays(text);
    const server = await measureServer(text);
    const [check, sample] = (['check', 'sample'] as const).map((what) => {
      const peak = measureChild(what, path);
      return typeof peak === 'number' ? x(peak, size) : peak;
    });
    console.log(`${label} | ${(size / 1e6).toFixed(1)} MB | ${x(arrays, size)} | ${check} | ${x(server, size)} | ${sample}`);
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

/** Child mode: the command's work on a small file, then on `file`; prints the peak RSS above the RSS in between. */
async function child(what: string, file: string): Promise<void> {
  const { loadModel } = await import('../cli/info');
  const { sampleModel } = await import('../cli/sample');
  const { decodeText } = await import('../node/text');
  const { validateIqe } = await import('../core/iqe/document');
  const work = (path: string): void => {
    if (what === 'check') {
      validateIqe(decodeText(readFileSync(path)), { maxProblems: Number.MAX_SAFE_INTEGER });
      return;
    }
    const loaded = loadModel(path, 'vp');
    if (!loaded.ok) throw new Error(loaded.message);
    const result = sampleModel(loaded.model, loaded.model.frameCount > 0 ? 0 : -1);
    if (typeof result === 'string') throw new Error(result);
  };
  const small = join(dataDir, 'memory-small.iqe');
  writeFileSync(small, '# Inter-Quake Export\njoint a -1\npq 0 0 0 0 0 0 1\nmesh m\nvp 0 0 0\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfa 0 1 2\nanimation a\nframe\npq 0 0 0 0 0 0 1\n');
  work(small);
  gc();
  const before = process.memoryUsage().rss;
  work(file);
  // maxRSS is in KiB.
  console.log(`peak ${process.resourceUsage().maxRSS * 1024 - before}`);
}

if (process.argv[2] === '--child') void child(process.argv[3], process.argv[4]);
else void main();

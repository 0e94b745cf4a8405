// Benchmark: the language server on a ~20 MB IQE document over a real LSP connection (stdio).
//   1. open: time until the first publishDiagnostics (full parse + validate + transfer)
//   2. one-line incremental edits: time from didChange until publishDiagnostics for that version
//      (target <= 50 ms), ~10 edits spread over the file; median and max
//   3. server memory (iqmTools/debugMemory, a request meant for tests and benchmarks): peak while
//      opening and retained after GC, per document, relative to its text size (target <= 3x)
// Prints figures; never fails on slowness.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { DebugMemoryRequest, type DebugMemoryResult } from '../core/lspMethods';

interface Published {
  uri: string;
  version?: number;
  diagnostics: { code?: string | number; severity?: number }[];
}

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package.json found');
    dir = parent;
  }
  return dir;
}

const root = repoRoot();
const serverPath = process.env.LSP_BENCH_SERVER ?? join(root, 'dist', 'server.js');
const dataPath = join(root, 'bench', '.data', 'lsp-edit-20mb.iqe');
const GENERATOR = '/work/shared/tools/gen_big_iqe.py';
const GENERATOR_ARGS = ['--grid', '72', '--anims', '2', '--frames-per-anim', '200']; // ~19.8 MB

const MB = 1024 * 1024;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** A valid ~20 MB document made here, when the generator is not available. */
function synthesise(bytes: number): string {
  const parts = ['# Inter-Quake Export\njoint "root" -1\n\tpq 0 0 0 0 0 0 1\n'];
  let size = parts[0].length;
  for (let m = 0; size < bytes; m++) {
    const chunk = [`mesh "m${m}"\n\tmaterial "mat.tga"\n`];
    for (let i = 0; i < 2000; i++) chunk.push(`vp ${(i * 0.001).toFixed(6)} ${(m * 0.01).toFixed(6)} 0.000000\n\tvt 0.5 0.5\n\tvn 0 0 1\n`);
    for (let i = 0; i < 1998; i++) chunk.push(`fm ${i} ${i + 1} ${i + 2}\n`);
    const text = chunk.join('');
    parts.push(text);
    size += text.length;
  }
  return parts.join('');
}

function loadDocument(): { text: string; origin: string } {
  if (!existsSync(dataPath) && existsSync(GENERATOR)) {
    mkdirSync(dirname(dataPath), { recursive: true });
    const run = spawnSync('python3', [GENERATOR, dataPath, ...GENERATOR_ARGS], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0) console.log('generator failed; synthesising instead');
  }
  if (existsSync(dataPath)) return { text: readFileSync(dataPath, 'utf8'), origin: `${dataPath} (gen_big_iqe.py ${GENERATOR_ARGS.join(' ')})` };
  return { text: synthesise(20 * MB), origin: 'synthesised in memory' };
}

/** "[code x count, ...]" of the errors and warnings. */
function summary(diagnostics: Published['diagnostics'] | number): string {
  if (typeof diagnostics === 'number') return `${diagnostics} publishes`;
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(String(d.code), (counts.get(String(d.code)) ?? 0) + 1);
  return `[${[...counts].map(([code, n]) => (n > 1 ? `${code} x${n}` : code)).join(', ')}]`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  if (!existsSync(serverPath)) throw new Error(`${serverPath} missing: npm run build`);
  const { text, origin } = loadDocument();
  const lines = text.split('\n');
  console.log(`document: ${mb(text.length)} (${text.length} chars, ${lines.length} lines), ${origin}`);

  // LSP_BENCH_NODE_ARGS adds node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const extra = (process.env.LSP_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--expose-gc', ...extra, serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiters: { version: number; resolve: (p: Published) => void }[] = [];
  const uri = pathToFileURL(dataPath).href;
  connection.onNotification('textDocument/publishDiagnostics', (params: Published) => {
    if (params.uri !== uri) return;
    published++;
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].version === params.version) {
        waiters[i].resolve(params);
        waiters.splice(i, 1);
      }
    }
  });
  let settings: Record<string, unknown> = { debounceMs: 0, maxProblems: 1000 };
  let published = 0;
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({ diagnostics: settings })));
  connection.listen();
  const waitFor = (version: number, timeoutMs = 120_000) =>
    new Promise<Published>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for version ${version} within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({ version, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  const memory = (gc = false) => connection.sendRequest(DebugMemoryRequest, { gc });
  const used = (m: DebugMemoryResult) => m.heapUsed + m.external; // external includes arrayBuffers

  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } } });
    await connection.sendNotification('initialized', {});
    const baseline = await memory(true);

    // 1. Open and wait for the first diagnostics, sampling memory meanwhile (the server answers between slices).
    let peak = baseline;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const m = await memory();
        if (used(m) > used(peak)) peak = { ...m, rss: Math.max(m.rss, peak.rss) };
        else if (m.rss > peak.rss) peak = { ...peak, rss: m.rss };
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const openStart = performance.now();
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'iqe', version: 1, text } });
    const first = await waitFor(1);
    const openMs = performance.now() - openStart;
    sampling = false;
    await sampler;
    console.log(`open -> first diagnostics: ${fmt(openMs)} (${first.diagnostics.length} diagnostics; full parse + validate + transfer over LSP)`);
    const afterOpen = await memory(true);

    // 2. One-line edits spread over the file, alternately breaking and fixing a face or a number.
    const faceLines: number[] = [];
    const vertexLines: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].startsWith('fm ') || lines[i].startsWith('fa ')) faceLines.push(i);
      else if (lines[i].startsWith('vp ')) vertexLines.push(i);
    }
    let version = 1;
    const EDITS = 12;
    const runEdits = async (label: string) => {
      const times: number[] = [];
      let lastBroken = '';
      for (let k = 0; k < EDITS; k++) {
        const pool = k % 4 < 2 ? faceLines : vertexLines;
        if (pool.length === 0) continue;
        const line = pool[Math.floor(((k >> 1) + 0.5) * (pool.length / (EDITS / 2 + 1))) % pool.length];
        const original = lines[line];
        // Break (even k): a huge face index or a letter in a number; fix (odd k): restore the line.
        const breakIt = k % 2 === 0;
        const replacement = breakIt ? (pool === faceLines ? `${original.replace(/\s+\S+$/, '')} 99999999` : original.replace(/\d/, 'x')) : original;
        const current = breakIt ? original : lastBroken;
        lastBroken = replacement;
        version++;
        const start = performance.now();
        await connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: current.length } }, text: replacement }],
        });
        const published = await waitFor(version);
        const ms = performance.now() - start;
        times.push(ms);
        console.log(`  edit ${k + 1} (line ${line + 1}, ${breakIt ? 'break' : 'fix'}): ${fmt(ms)}  ${summary(published.diagnostics)}`);
      }
      console.log(`edit -> diagnostics, ${label}: median ${fmt(median(times))}, max ${fmt(Math.max(...times))}   (target <= 50 ms)`);
    };
    await runEdits(`${first.diagnostics.length} diagnostics per publish`);

    // The generated file has thousands of weights-invalid warnings (zero vb weights); without them
    // the figure shows the cost of an edit in a clean document.
    settings = { debounceMs: 0, maxProblems: 1000, ignore: ['weights-invalid'] };
    const before = published;
    await connection.sendNotification('workspace/didChangeConfiguration', { settings: { iqmTools: { diagnostics: settings } } });
    while (published === before) await new Promise((resolve) => setTimeout(resolve, 5));
    await runEdits('weights-invalid ignored');

    const afterEdits = await memory(true);
    // 3. Memory per document relative to its text size (UTF-16 strings of ASCII are stored 1 byte per char).
    const size = text.length;
    console.log(`server memory, baseline: heap ${mb(baseline.heapUsed)}, external ${mb(baseline.external)}, rss ${mb(baseline.rss)}`);
    console.log(
      `  peak while opening:  +${mb(used(peak) - used(baseline))} heap+external = ${((used(peak) - used(baseline)) / size).toFixed(2)}x text` +
        ` (includes the 20 MB JSON message being decoded); rss +${mb(peak.rss - baseline.rss)}`,
    );
    console.log(`  retained after open: +${mb(used(afterOpen) - used(baseline))} = ${((used(afterOpen) - used(baseline)) / size).toFixed(2)}x text   (target <= 3x); heap +${mb(afterOpen.heapUsed - baseline.heapUsed)}, external +${mb(afterOpen.external - baseline.external)}`);
    console.log(`  retained after edits: +${mb(used(afterEdits) - used(baseline))} = ${((used(afterEdits) - used(baseline)) / size).toFixed(2)}x text; rss ${mb(afterEdits.rss)}`);

    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
  } finally {
    setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    child.once('exit', () => connection.dispose());
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

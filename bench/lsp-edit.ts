// Benchmark: the language server (the real dist/server.js process, over stdio) while a user types
// into an IQE document (issue 35). Per document and server:
//   1. open: time from sending didOpen until the first publishDiagnostics (the message's transfer
//      and decoding included), and the latency of hovers sent every 25 ms meanwhile (the editor's
//      other requests must not queue behind a whole parse; goal: first diagnostics of 24 MB <= 0.5 s
//      after the server has the text: the server's own figure, from its didOpen handler to its first
//      publish, asked for with DebugTimingRequest; and the hovers sent after that moment, which
//      waited for the parse at most, not for the message's transfer)
//   2. typing: one character every 50 ms near the middle of the document (a face line typed out
//      after a face line, then deleted again, over and over), with a hover, a definition, a
//      references and an outline (documentSymbol) request 5, 15, 25 and 35 ms after each keystroke;
//      p50/p95/max of each kind (goals: hover, definition, references <= 16 ms p95, outline <= 50 ms)
//      and of "diagnostics reflecting a keystroke": from sending it to the first publishDiagnostics
//      whose version is at least its version (goal <= 100 ms p95, the default debounce included)
//   3. memory retained by the server after a full collection, relative to the text
// Documents: a 0.6 MB real IQE (the baseline in the same run), gen_big_iqe's 24 MB file of issue 35
// (--grid 64 --frames-per-anim 250) and a 95 MB one. Servers: LSP_BENCH_SERVER (default
// dist/server.js) and, with LSP_BENCH_BASELINE=other/dist/server.js, another build, alternating run
// by run. LSP_BENCH_RUNS=N runs each pair N times (default 1); LSP_BENCH_DOCS=a,b keeps the documents
// whose label contains a or b; LSP_BENCH_KEYSTROKES=N (default 80); LSP_BENCH_PLAIN_SERVER=1 starts
// the server without the environment the extension gives it (node/serverProcess.ts: huge pages); LSP_BENCH_NODE_ARGS adds node
// flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". Prints figures; never fails on slowness.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { DebugMemoryRequest, DebugTimingRequest } from '../core/lspMethods';
import { serverEnv } from '../node/serverProcess';
import { assetsDir, syntheticIqe } from './helpers/data';
import { places, TYPED } from './helpers/typing';

interface Published {
  uri: string;
  version?: number;
  diagnostics: unknown[];
}

interface Doc {
  label: string;
  path: string;
  text: string;
}

const KEYSTROKE_MS = 50;
/** When each request is sent after a keystroke (ms), so that they land in different phases of the server's work. */
const REQUEST_OFFSETS: [Kind, number][] = [
  ['hover', 5],
  ['definition', 15],
  ['references', 25],
  ['outline', 35],
];
type Kind = 'hover' | 'definition' | 'references' | 'outline';
const GOALS: Record<Kind | 'diagnostics', number> = { hover: 16, definition: 16, references: 16, outline: 50, diagnostics: 100 };

const MB = 1e6;
/** Keystrokes left out of the second set of p95 figures (cold code after the open). */
const COLD_KEYSTROKES = 10;
const servers = [
  { name: 'this build', path: resolve(process.env.LSP_BENCH_SERVER ?? join('dist', 'server.js')) },
  ...(process.env.LSP_BENCH_BASELINE ? [{ name: 'baseline', path: resolve(process.env.LSP_BENCH_BASELINE) }] : []),
];
const runs = Math.max(1, Number(process.env.LSP_BENCH_RUNS ?? 1));
const keystrokes = Math.max(4, Number(process.env.LSP_BENCH_KEYSTROKES ?? 80));
const docFilters = (process.env.LSP_BENCH_DOCS ?? '').split(',').filter((s) => s !== '');

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const stats = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 95))} / ${ms(Math.max(...values))}`;

function documents(): Doc[] {
  const out: Doc[] = [];
  const add = (label: string, path: string | undefined) => {
    if (docFilters.length > 0 && !docFilters.some((f) => label.includes(f))) return;
    if (path === undefined || !existsSync(path)) {
      console.log(`${label}: skipped (${path ?? 'no generator'} is absent)`);
      return;
    }
    out.push({ label, path, text: readFileSync(path, 'utf8') });
  };
  add('real medistat.iqe 0.6 MB', join(assetsDir, 'iqe', 'unvanquished', 'medistat.iqe'));
  add('g64-f250 24 MB', syntheticIqe('lsp-g64-f250.iqe', ['--grid', '64', '--frames-per-anim', '250']));
  add('g150-f600 95 MB', syntheticIqe('lsp-g150-f600.iqe', ['--grid', '150', '--frames-per-anim', '600']));
  return out;
}

interface Result {
  firstDiagnostics: number;
  /** From the server's didOpen handler (the text received and decoded) to its first publish, measured by the server. */
  serverFirstDiagnostics: number;
  duringOpen: number[];
  /** Hovers of duringOpen sent after the server had the text: what the goal "answered meanwhile, never queued behind a full parse" is about. */
  hoversWhileParsing: number[];
  requests: Record<Kind, number[]>;
  reflect: number[];
  missed: number;
  retainedPerText: number;
}

async function session(serverPath: string, doc: Doc): Promise<Result> {
  const extra = (process.env.LSP_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // Started as the extension starts it (node/serverProcess.ts), unless LSP_BENCH_PLAIN_SERVER=1.
  const plain = process.env.LSP_BENCH_PLAIN_SERVER === '1';
  const child = spawn(process.execPath, ['--expose-gc', ...extra, serverPath, '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: plain ? process.env : serverEnv(process.env),
  });
  const connection: MessageConnection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const uri = pathToFileURL(doc.path).href;
  const publishes: { at: number; version: number }[] = [];
  const versionWaiters: { version: number; resolve: () => void }[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: Published) => {
    if (params.uri !== uri || params.version === undefined) return;
    const version = params.version;
    publishes.push({ at: performance.now(), version });
    for (let i = versionWaiters.length - 1; i >= 0; i--) {
      if (version >= versionWaiters[i].version) {
        versionWaiters[i].resolve();
        versionWaiters.splice(i, 1);
      }
    }
  });
  // The user's settings: the defaults (server/settings.ts DEFAULT_SETTINGS: debounce and maxProblems).
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.listen();
  const published = (version: number, timeoutMs: number) =>
    new Promise<boolean>((resolve) => {
      if (publishes.some((p) => p.version >= version)) return resolve(true);
      const timer = setTimeout(() => resolve(false), timeoutMs);
      versionWaiters.push({ version, resolve: () => (clearTimeout(timer), resolve(true)) });
    });
  /** A request's send time and latency (ms). */
  const sentRequest = async (method: string, params: unknown): Promise<{ sentAt: number; latency: number }> => {
    const sentAt = performance.now();
    await connection.sendRequest(method, params);
    return { sentAt, latency: performance.now() - sentAt };
  };
  const timedRequest = async (method: string, params: unknown): Promise<number> => (await sentRequest(method, params)).latency;
  const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } } });
    await connection.sendNotification('initialized', {});
    const before = await connection.sendRequest(DebugMemoryRequest, { gc: true });
    const lines = doc.text.split('\n');
    const at = places(lines);
    const textDocument = { uri };
    const hoverParams = { textDocument, position: { line: at.face, character: at.faceIndexColumn } };

    // 1. Open, with a hover every 25 ms until the first diagnostics.
    const openStart = performance.now();
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'iqe', version: 1, text: doc.text } });
    let opened = false;
    const firstPublish = published(1, 120_000).then((ok) => {
      opened = true;
      if (!ok) throw new Error('no diagnostics within 120 s of the open');
      return performance.now() - openStart;
    });
    const duringOpen: Promise<{ sentAt: number; latency: number }>[] = [];
    while (!opened) {
      duringOpen.push(sentRequest('textDocument/hover', hoverParams));
      await Promise.race([firstPublish, new Promise((resolve) => setTimeout(resolve, 25))]);
    }
    const firstDiagnostics = await firstPublish;
    const openHovers = await Promise.all(duringOpen);
    // The server's own figure, from its having the text (a build without the request: NaN).
    const timing = await connection.sendRequest(DebugTimingRequest, { uri }).catch(() => ({ openToFirstDiagnosticsMs: undefined }));
    const serverFirstDiagnostics = timing.openToFirstDiagnosticsMs ?? NaN;
    // When the server had the text, on this side's clock: the first publish's arrival less the
    // server's own figure (the publish's transfer, a few ms, counts against the hovers). A hover
    // sent before then waited for the 24 MB message itself to arrive and be decoded, not for the parse.
    const serverHadText = openStart + firstDiagnostics - serverFirstDiagnostics;
    const hoversWhileParsing = openHovers.filter((h) => h.sentAt >= serverHadText).map((h) => h.latency);
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the open's garbage settle

    // 2. Typing, with the four requests after each keystroke.
    const requests: Record<Kind, Promise<number>[]> = { hover: [], definition: [], references: [], outline: [] };
    const params: Record<Kind, [string, unknown]> = {
      hover: ['textDocument/hover', hoverParams],
      definition: ['textDocument/definition', hoverParams],
      references: ['textDocument/references', { textDocument, position: { line: at.vertex, character: at.vertexColumn }, context: { includeDeclaration: true } }],
      outline: ['textDocument/documentSymbol', { textDocument }],
    };
    const sent: { at: number; version: number }[] = [];
    let typed = 0; // characters of TYPED now in the document
    const start = performance.now() + 20;
    for (let k = 0; k < keystrokes; k++) {
      const t = start + k * KEYSTROKE_MS;
      await sleepUntil(t);
      // Type TYPED out, then delete it character by character (backspace), then again.
      const deleting = Math.floor(k / TYPED.length) % 2 === 1;
      const version = k + 2;
      // The end of what is typed: (line, character) after `typed` characters of TYPED.
      const typedText = TYPED.slice(0, typed);
      const newlines = typedText.split('\n').length - 1;
      const endLine = at.typeAfter + newlines;
      const endCharacter = newlines > 0 ? typedText.length - typedText.lastIndexOf('\n') - 1 : at.typeColumn + typed;
      let change: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string };
      if (!deleting) {
        const position = { line: endLine, character: endCharacter };
        change = { range: { start: position, end: position }, text: TYPED[typed] };
        typed++;
      } else {
        const previous = TYPED.slice(0, typed - 1);
        const prevNewlines = previous.split('\n').length - 1;
        const startPos = { line: at.typeAfter + prevNewlines, character: prevNewlines > 0 ? previous.length - previous.lastIndexOf('\n') - 1 : at.typeColumn + typed - 1 };
        change = { range: { start: startPos, end: { line: endLine, character: endCharacter } }, text: '' };
        typed--;
      }
      sent.push({ at: performance.now(), version });
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      for (const [kind, offset] of REQUEST_OFFSETS) {
        setTimeout(() => requests[kind].push(timedRequest(params[kind][0], params[kind][1])), Math.max(0, t + offset - performance.now()));
      }
    }
    await sleepUntil(start + keystrokes * KEYSTROKE_MS + 50);
    const lastVersion = keystrokes + 1;
    await published(lastVersion, 10_000);
    const requestTimes = {} as Record<Kind, number[]>;
    for (const [kind] of REQUEST_OFFSETS) requestTimes[kind] = await Promise.all(requests[kind]);
    const reflect: number[] = [];
    let missed = 0;
    for (const keystroke of sent) {
      const publish = publishes.find((p) => p.version >= keystroke.version && p.at >= keystroke.at);
      if (publish) reflect.push(publish.at - keystroke.at);
      else missed++;
    }
    const after = await connection.sendRequest(DebugMemoryRequest, { gc: true });
    const retained = after.heapUsed + after.external - (before.heapUsed + before.external);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    return { firstDiagnostics, serverFirstDiagnostics, duringOpen: openHovers.map((h) => h.latency), hoversWhileParsing, requests: requestTimes, reflect, missed, retainedPerText: retained / doc.text.length };
  } finally {
    setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    child.once('exit', () => connection.dispose());
  }
}

function report(doc: Doc, server: string, r: Result): void {
  const flag = (values: number[], goal: number) => (percentile(values, 95) <= goal ? 'met' : 'NOT met');
  console.log(`${doc.label}, ${server}:`);
  console.log(
    `  first diagnostics after didOpen was sent: ${ms(r.firstDiagnostics)} ms; after the server had the text: ${ms(r.serverFirstDiagnostics)} ms (goal <= 500 ms on 24 MB); ${r.duringOpen.length} hovers meanwhile, p50/p95/max ${stats(r.duringOpen)} ms`,
  );
  console.log(
    `  of those, the ${r.hoversWhileParsing.length} sent after the server had the text (while it parsed and analysed): p50/p95/max ${stats(r.hoversWhileParsing)} ms   (goal p95 <= ${GOALS.hover} ms: ${r.hoversWhileParsing.length === 0 ? 'none sent' : flag(r.hoversWhileParsing, GOALS.hover)})`,
  );
  for (const [kind] of REQUEST_OFFSETS) {
    console.log(`  ${kind.padEnd(11)} p50/p95/max ${stats(r.requests[kind])} ms   (goal p95 <= ${GOALS[kind]} ms: ${flag(r.requests[kind], GOALS[kind])})`);
  }
  console.log(
    `  diagnostics reflecting a keystroke p50/p95/max ${stats(r.reflect)} ms over ${r.reflect.length} keystrokes${r.missed ? `, ${r.missed} never reflected` : ''}   (goal p95 <= ${GOALS.diagnostics} ms: ${r.missed ? 'NOT met' : flag(r.reflect, GOALS.diagnostics)})`,
  );
  // The first keystrokes after an open run cold code (V8 optimises the server's functions as they
  // get hot): the same figures without them, beside the goal's (which keep them).
  const warm = (values: number[]) => ms(percentile(values.slice(COLD_KEYSTROKES), 95));
  console.log(
    `  p95 after the first ${COLD_KEYSTROKES} keystrokes: ${REQUEST_OFFSETS.map(([kind]) => `${kind} ${warm(r.requests[kind])}`).join(', ')}, diagnostics ${warm(r.reflect)} ms`,
  );
  console.log(`  retained by the server after typing: ${r.retainedPerText.toFixed(2)}x the text`);
}

async function main(): Promise<void> {
  for (const server of servers) if (!existsSync(server.path)) throw new Error(`${server.path} missing: npm run build`);
  const docs = documents();
  console.log(`servers: ${servers.map((s) => `${s.name} = ${s.path}`).join('; ')}; ${keystrokes} keystrokes every ${KEYSTROKE_MS} ms, ${runs} run(s) each, alternating`);
  for (const doc of docs) {
    console.log(`\n${doc.label}: ${(doc.text.length / MB).toFixed(1)} MB, ${doc.path}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (let run = 0; run < runs; run++) {
      for (const server of servers) report(doc, `${server.name}, run ${run + 1}`, await session(server.path, doc));
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

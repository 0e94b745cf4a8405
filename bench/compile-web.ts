// Benchmark: the compile of a mid-size IQE (bench/.data/mid.iqe, 8.5 MB: 41,666 vertices, 27,648
// triangles, 80 joints, 300 frames) in the web build beside the desktop one. Two layers:
// 1. The compile worker alone, on the file's text, a fresh worker per compile as the command
//    starts it, from posting the request to receiving the bytes: desktop = dist/compileWorker.js
//    in a Node worker thread (bounds shared with a second thread where that pays); web =
//    dist/web/compileWorker.js in a Web Worker in headless Chromium (playwright-core), started
//    from a Blob URL as the web extension host starts it, in a page that is not cross-origin
//    isolated (no SharedArrayBuffer: one thread, as on vscode.dev and code-server).
// 2. "IQE: Compile to IQM" end to end inside VS Code (code-server through ../shared/vscode-harness,
//    bench/vscode/compileHost.ts), in the Node extension host and in the browser's web worker
//    host: reading the file (the Node worker streams it; the web host reads it through
//    workspace.fs and posts the text), the worker, writing through workspace.fs, opening the tab.
// Prints medians of RUNS; never fails on slowness (the machine is shared: compare medians).
import { existsSync, mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompileReply, CompileRequest } from '../core/host/compileProtocol';
import { compileWorkerOptions } from '../client/node/workerOptions';
import { median, syntheticIqe } from './helpers/data';
import { benchInVsCode, harnessMissing } from './helpers/vscodeHarness';

const RUNS = 5;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** A Web Worker as the page sees it (this file is type-checked with Node's types, not the DOM's). */
interface PageWorker {
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message: string }) => void) | null;
  postMessage(message: unknown): void;
  terminate(): void;
}

interface Figure {
  totalMs: number;
  compileMs: number;
  bytes: number;
}

function summary(label: string, figures: Figure[], note = ''): void {
  const total = median(figures.map((f) => f.totalMs));
  const compile = median(figures.map((f) => f.compileMs));
  console.log(`${label.padEnd(52)} ${(total / 1000).toFixed(3)} s (compile ${(compile / 1000).toFixed(3)} s), ${figures[0].bytes} bytes${note}`);
}

/** One compile by the Node worker on the text, as the command runs it for an open document. */
async function nodeWorker(text: string): Promise<Figure> {
  const t0 = performance.now();
  const reply = await new Promise<CompileReply>((done, fail) => {
    const worker = new Worker(resolve('dist', 'compileWorker.js'), compileWorkerOptions(text.length));
    worker.once('message', (r: CompileReply) => {
      void worker.terminate();
      done(r);
    });
    worker.once('error', fail);
    worker.postMessage({ source: { text }, options: {} } satisfies CompileRequest);
  });
  if (!reply.ok || !reply.bytes) throw new Error(reply.ok ? 'no bytes' : reply.message);
  return { totalMs: performance.now() - t0, compileMs: reply.milliseconds, bytes: reply.bytes.length };
}

/** A Chromium page holding the text and the browser build's worker script (a Blob URL, as the web extension host starts it). */
async function chromiumPage(text: string): Promise<{ compile(): Promise<Figure>; shared: boolean; close(): Promise<void> } | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`web worker in Chromium: skipped: ${CHROMIUM} is absent`);
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  await page.goto('about:blank');
  const script = readFileSync(resolve('dist', 'web', 'compileWorker.js'), 'utf8');
  const shared = await page.evaluate(
    ({ script, text }) => {
      const scope = globalThis as unknown as { crossOriginIsolated: boolean; bench: { url: string; text: string } };
      scope.bench = { url: URL.createObjectURL(new Blob([script], { type: 'text/javascript' })), text };
      return typeof SharedArrayBuffer === 'function' && scope.crossOriginIsolated;
    },
    { script, text },
  );
  return {
    shared,
    compile: () =>
      page.evaluate(async () => {
        const scope = globalThis as unknown as { Worker: new (url: string) => PageWorker; bench: { url: string; text: string } };
        const t0 = performance.now();
        const worker = new scope.Worker(scope.bench.url);
        const reply = await new Promise<{ ok: boolean; message?: string; bytes?: Uint8Array; milliseconds: number }>((done, fail) => {
          worker.onmessage = (event) => done(event.data as { ok: boolean; milliseconds: number });
          worker.onerror = (event) => fail(new Error(event.message));
          worker.postMessage({ source: { text: scope.bench.text }, options: {} });
        });
        worker.terminate();
        if (!reply.ok || !reply.bytes) throw new Error(reply.message ?? 'no bytes');
        return { totalMs: performance.now() - t0, compileMs: reply.milliseconds, bytes: reply.bytes.length };
      }),
    close: () => browser.close(),
  };
}

/** The command in VS Code, in one extension host; undefined (said why) when the harness is absent or fails. */
async function inVsCode(host: 'node' | 'web', source: string): Promise<Figure[] | undefined> {
  const workspace = mkdtempSync(join(tmpdir(), 'iqm-bench-web-'));
  try {
    copyFileSync(source, join(workspace, 'mid.iqe'));
    const lines = await benchInVsCode<{ host: string; run: number; commandMs: number; compileMs: number; bytes: number }>(host, 'bench/vscode/compileHost.ts', workspace, `bench-compile-${host}`);
    if (!lines) return undefined;
    const runs = [...new Map(lines.map((r) => [r.run, r])).values()];
    if (runs.some((r) => r.host !== host)) throw new Error(`ran in the ${runs[0].host} host, not the ${host} one`);
    return runs.map((r) => ({ totalMs: r.commandMs, compileMs: r.compileMs, bytes: r.bytes }));
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const path = syntheticIqe('mid.iqe', ['--grid', '48', '--joints', '80', '--anims', '2', '--frames-per-anim', '150']);
  if (!path) return;
  for (const needed of ['dist/compileWorker.js', 'dist/web/compileWorker.js']) {
    if (!existsSync(needed)) {
      console.log(`skipped: ${needed} is missing (npm run build)`);
      return;
    }
  }
  const text = readFileSync(path, 'utf8');
  console.log(`${path}: ${(text.length / 1048576).toFixed(1)} MB; medians of ${RUNS} runs, a fresh worker each; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs\n`);
  console.log('The compile worker alone (request posted to bytes received; desktop and web runs interleaved):');
  const page = await chromiumPage(text);
  const desktop: Figure[] = [];
  const web: Figure[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      desktop.push(await nodeWorker(text));
      if (page) web.push(await page.compile());
    }
  } finally {
    await page?.close();
  }
  summary('  desktop: Node worker thread (dist/compileWorker.js)', desktop);
  if (page) {
    summary('  web: Chromium Web Worker (dist/web/compileWorker.js)', web, page.shared ? '' : '; no SharedArrayBuffer: bounds on one thread');
    const ratio = median(web.map((f) => f.totalMs)) / median(desktop.map((f) => f.totalMs));
    console.log(`  web / desktop: ${ratio.toFixed(2)}x${web[0].bytes === desktop[0].bytes ? '' : ' (the outputs differ in size!)'}`);
  }
  const missing = harnessMissing();
  if (missing) {
    console.log(`\nThe command in VS Code: skipped: ${missing}`);
    return;
  }
  console.log('\n"IQE: Compile to IQM" in VS Code (code-server), the file not open (read, compile, write, open the tab):');
  const hosts: [string, Figure[] | undefined][] = [];
  for (const host of ['node', 'web'] as const) {
    const figures = await inVsCode(host, path);
    if (figures) summary(`  ${host === 'node' ? 'desktop: Node extension host' : 'web: web worker extension host'}`, figures);
    hosts.push([host, figures]);
  }
  const [node, webHost] = hosts.map(([, f]) => f);
  if (node && webHost) console.log(`  web / desktop: ${(median(webHost.map((f) => f.totalMs)) / median(node.map((f) => f.totalMs))).toFixed(2)}x`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

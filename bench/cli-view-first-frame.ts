// Benchmark: the preview outside VS Code. `iqm-tools view --no-open` serves the generated 100 MB
// IQM and the largest model of ../shared/assets; Chromium (playwright-core, headless, SwiftShader)
// opens each model's viewer page RUNS times, each in a fresh browser context. Printed per model:
// the phases from the page's navigation to its first drawn frame, on the webview's own stamps
// (media/timeline.ts, read from the `timeline` message the page posts to the server), the total
// beside node's own read and parse of the file (issue 35's baseline: the first frame within twice
// it), and then the intervals between animation frames while the model plays for FRAME_SECONDS
// (a software GPU falls behind on 2.5 M triangles): whether, and when, the preview stopped
// animating it (media/slowFrames.ts), and the page's frame intervals after.
// Never fails on slowness: the machine is shared, compare medians and read the load average.
//   npm run bench -- cli-view-first-frame      IQM_BENCH_RUNS=N (default 3), IQM_BENCH_MODELS=iqm-100mb,largest
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assetsDir, median } from './helpers/data';
import { bigIqm } from './helpers/bigIqm';
import { GENERATED_100MB, largestModel, readAndParseMs } from './helpers/previewModels';
import { CHROMIUM, CHROMIUM_ARGS, skipReason, startView } from '../test/browser/harness';

const RUNS = Number(process.env.IQM_BENCH_RUNS ?? 3);
const FRAME_SECONDS = 8;
/** A first frame later than this is reported as not drawn (the run goes on with the next). */
const FIRST_FRAME_LIMIT_MS = 180_000;
const chosen = (label: string) => !process.env.IQM_BENCH_MODELS || process.env.IQM_BENCH_MODELS.split(',').includes(label);

/** Phases on the webview's stamps; `navigation` is the bench's own, taken just before page.goto. */
const PHASES: { label: string; from: string; to: string }[] = [
  { label: 'navigation → document starts', from: 'navigation', to: 'webviewStart' },
  { label: 'document → viewer built (bundle, WebGL2 context)', from: 'webviewStart', to: 'viewerBuilt' },
  { label: '`load` host → page (read, sent, decoded)', from: 'readyPosted', to: 'loadReceived' },
  { label: 'page: model parsed', from: 'loadReceived', to: 'parsed' },
  { label: 'page: scene and GPU buffers', from: 'parsed', to: 'gpuBuilt' },
  { label: 'page: first frame drawn', from: 'gpuBuilt', to: 'firstFrame' },
  { label: 'navigation → first frame', from: 'navigation', to: 'firstFrame' },
];

interface Run {
  stamps: Record<string, number>;
  /** Milliseconds between animation frames while it animated (empty: not measured). */
  intervals: number[];
  /** The same after the preview stopped animating (empty: it did not). */
  after: number[];
  /** Milliseconds from the first measured frame to the stop, -1: it did not stop; and the frame time the preview gave. */
  stoppedAfterMs: number;
  slowFrameMs: number;
}

/** One open of file `index` in a fresh context: its stamps, then the frame intervals while it plays. */
async function openOnce(browser: Browser, url: string, index: number): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 900, height: 640 } });
  try {
    const page: Page = await context.newPage();
    const stamps: Record<string, number> = {};
    let drawn: () => void = () => undefined;
    const firstFrame = new Promise<void>((resolve) => (drawn = resolve));
    // The page posts its stamps to the server as `timeline` messages (media/modelLoading.ts).
    page.on('request', (r) => {
      if (r.method() !== 'POST') return;
      try {
        const m = JSON.parse(r.postData() ?? '') as { type?: string; stamps?: Record<string, number> };
        if (m.type === 'timeline' && m.stamps) Object.assign(stamps, m.stamps);
        if (stamps.firstFrame !== undefined) drawn();
      } catch {
        // not a message of the preview
      }
    });
    stamps.navigation = Date.now();
    await page.goto(`${url}view?file=${index}`);
    const limit = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), FIRST_FRAME_LIMIT_MS).unref());
    if ((await Promise.race([firstFrame, limit])) === 'late') return { stamps, intervals: [], after: [], stoppedAfterMs: -1, slowFrameMs: -1 };
    // Frame intervals while it plays: requestAnimationFrame's timestamps over FRAME_SECONDS, split
    // where the preview stopped animating a model drawn too slowly (media/slowFrames.ts), if it did.
    const { intervals, stoppedAt, slowFrameMs } = await page.evaluate(
      (seconds) =>
        new Promise<{ intervals: number[]; stoppedAt: number; slowFrameMs: number }>((resolve) => {
          const times: number[] = [];
          let stoppedAt = -1;
          const g = globalThis as unknown as { requestAnimationFrame(f: (t: number) => void): void; document: { getElementById(id: string): { dataset: Record<string, string | undefined> } | null } };
          const tick = (t: number) => {
            times.push(t);
            if (stoppedAt < 0 && g.document.getElementById('viewer')?.dataset.slowFrames !== undefined) stoppedAt = times.length - 1;
            if (t - times[0] < seconds * 1000) g.requestAnimationFrame(tick);
            else resolve({ intervals: times.slice(1).map((x, i) => x - times[i]), stoppedAt, slowFrameMs: Number(g.document.getElementById('viewer')?.dataset.slowFrames ?? -1) });
          };
          g.requestAnimationFrame(tick);
        }),
      FRAME_SECONDS,
    );
    return { stamps, intervals: stoppedAt < 0 ? intervals : intervals.slice(0, stoppedAt), after: stoppedAt < 0 ? [] : intervals.slice(stoppedAt), stoppedAfterMs: stoppedAt < 0 ? -1 : intervals.slice(0, stoppedAt).reduce((a, b) => a + b, 0), slowFrameMs };
  } finally {
    await context.close();
  }
}

function cell(values: (number | undefined)[]): string {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === 0 ? '—' : `${Math.round(median(known))} (${Math.round(Math.max(...known))})`;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function main(): Promise<void> {
  const skip = skipReason();
  if (skip) return console.log(`skipped: ${skip}`);
  const work = mkdtempSync(join(tmpdir(), 'iqm-view-bench-'));
  const models: { label: string; path: string }[] = [];
  if (chosen(GENERATED_100MB.label)) {
    const path = join(work, GENERATED_100MB.file);
    const bytes = bigIqm(GENERATED_100MB.side);
    writeFileSync(path, bytes);
    models.push({ label: `${GENERATED_100MB.file} (${(bytes.length / 1e6).toFixed(1)} MB)`, path });
  }
  const largest = chosen('largest') ? largestModel() : null;
  if (largest) models.push({ label: `${largest} (largest shared)`, path: join(assetsDir, largest) });
  else if (chosen('largest')) console.log(`the largest shared model: skipped (${assetsDir} is absent)`);
  if (models.length === 0) return;
  const baselines = models.map((m) => readAndParseMs(m.path));
  console.log(`cli-view-first-frame: ${new Date().toISOString()}, load average ${loadavg()[0].toFixed(1)} at start; ${RUNS} opens per model, each in a fresh browser context; ms, median (worst)`);

  const { child, url } = await startView(models.map((m) => m.path));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const runs: Run[][] = models.map(() => []);
  try {
    for (let r = 0; r < RUNS; r++) for (let i = 0; i < models.length; i++) runs[i].push(await openOnce(browser, url, i));
  } finally {
    await browser.close();
    child.kill();
    rmSync(work, { recursive: true, force: true });
  }

  console.log(`| phase | ${models.map((m) => m.label).join(' | ')} |`);
  console.log(`|---|${models.map(() => '---:').join('|')}|`);
  for (const p of PHASES) console.log(`| ${p.label} | ${runs.map((rs) => cell(rs.map((r) => (r.stamps[p.from] !== undefined && r.stamps[p.to] !== undefined ? r.stamps[p.to] - r.stamps[p.from] : undefined)))).join(' | ')} |`);
  console.log(`| node: read and parse the file (baseline) | ${baselines.map((b) => b.toFixed(0)).join(' | ')} |`);
  const total = (r: Run) => (r.stamps.firstFrame === undefined ? undefined : r.stamps.firstFrame - r.stamps.navigation);
  const ratio = (rs: Run[], b: number, pick: (v: number[]) => number) => {
    const known = rs.map(total).filter((v): v is number => v !== undefined);
    return known.length ? `${(pick(known) / b).toFixed(1)}x` : '—';
  };
  console.log(`| first frame / baseline, median (worst); goal ≤ 2x | ${runs.map((rs, i) => `${ratio(rs, baselines[i], median)} (${ratio(rs, baselines[i], (v) => Math.max(...v))})`).join(' | ')} |`);
  console.log(`| runs without a first frame within ${FIRST_FRAME_LIMIT_MS / 1000} s | ${runs.map((rs) => rs.filter((r) => total(r) === undefined).length).join(' | ')} |`);
  const frames = (of: (r: Run) => number[], pick: (v: number[]) => number) =>
    runs.map((rs) => {
      const all = rs.flatMap(of);
      return all.length ? pick(all).toFixed(0) : '—';
    });
  const animating = (r: Run) => r.intervals;
  console.log(`| animating: frames in the first ${FRAME_SECONDS} s, all runs | ${runs.map((rs) => rs.reduce((n, r) => n + r.intervals.length, 0)).join(' | ')} |`);
  console.log(`| animating: frame interval, median | ${frames(animating, median).join(' | ')} |`);
  console.log(`| animating: frame interval, p90 | ${frames(animating, (v) => percentile(v, 90)).join(' | ')} |`);
  console.log(`| animating: frame interval, max | ${frames(animating, (v) => Math.max(...v)).join(' | ')} |`);
  console.log(`| runs where the preview stopped animating (too slow) | ${runs.map((rs) => `${rs.filter((r) => r.stoppedAfterMs >= 0).length} of ${rs.length}`).join(' | ')} |`);
  console.log(`| … stopped after, ms; its frame time, ms | ${runs.map((rs) => cell(rs.map((r) => (r.stoppedAfterMs >= 0 ? r.stoppedAfterMs : undefined))) + '; ' + cell(rs.map((r) => (r.slowFrameMs >= 0 ? r.slowFrameMs : undefined)))).join(' | ')} |`);
  console.log(`| … then: frame interval, median (max) | ${runs.map((rs) => { const all = rs.flatMap((r) => r.after); return all.length ? `${median(all).toFixed(0)} (${Math.max(...all).toFixed(0)})` : '—'; }).join(' | ')} |`);
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
}

void main();

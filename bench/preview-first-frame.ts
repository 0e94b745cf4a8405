// Benchmark: where the preview's time to its first drawn frame goes, in the real VS Code
// (code-server through ../shared/vscode-harness), in the Node extension host and in the browser's
// web worker host. bench/vscode/previewFirstFrameHost.ts opens each model below in its preview
// RUNS times (the files interleaved) and prints the first load's timeline: stamps taken in the
// extension host (client/preview/panel.ts) and in the webview (media/timeline.ts) on the shared
// clock (Date.now(), ms), named in core/previewTimeline.ts. Printed per file: each phase's median
// and worst milliseconds, and the totals from the open command to the first frame and to the
// first frame with the model's textures. Phases may overlap (the host reads and compiles while the
// webview starts), so they need not add up to the totals. Never fails on slowness: the machine is
// shared, compare medians and say how loaded it was (the load average is printed).
// Issue 35's rows: a generated 100 MB IQM (label iqm-100mb) and the largest model of
// ../shared/assets (label largest), each beside the time node takes to read and parse the file
// (readFileSync + the core reader the webview runs, median of 3: the baseline; goal: the first
// frame within twice it).
//   npm run bench -- preview-first-frame          IQM_BENCH_RUNS=N (default 5), IQM_BENCH_HOSTS=node,web, IQM_BENCH_MODELS=dpm,iqm,iqm-100mb,largest
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { assetsDir, median } from './helpers/data';
import { bigIqm } from './helpers/bigIqm';
import { GENERATED_100MB, largestModel, readAndParseMs } from './helpers/previewModels';
import { benchInVsCode, harnessMissing } from './helpers/vscodeHarness';

const RUNS = Number(process.env.IQM_BENCH_RUNS ?? 5);
const HOSTS = (process.env.IQM_BENCH_HOSTS ?? 'node,web').split(',') as ('node' | 'web')[];

/** One model per format, from ../shared/assets, with its folder (textures, sidecars, .mtl). */
const ALL_MODELS: { label: string; asset: string; viewType: string }[] = [
  { label: 'glb', asset: 'gltf/bevy/Fox.glb', viewType: 'iqmTools.glbPreview' },
  { label: 'iqm', asset: 'iqm/mrfixit/mrfixit.iqm', viewType: 'iqmTools.preview' },
  { label: 'md3', asset: 'md3/watercan/watercan.md3', viewType: 'iqmTools.preview' },
  { label: 'dpm', asset: 'dpm/xonotic/reactor.dpm', viewType: 'iqmTools.preview' },
  { label: 'smd', asset: 'smd/assimp/WusonSMD.smd', viewType: 'iqmTools.preview' },
  { label: 'obj', asset: 'obj/assimp/spider.obj', viewType: 'iqmTools.objPreview' },
];
const largest = largestModel();
if (largest) ALL_MODELS.push({ label: 'largest', asset: largest, viewType: 'iqmTools.preview' });
/** The generated 100 MB IQM (written into the workspace, not an asset). */
const GENERATED = GENERATED_100MB;

/** IQM_BENCH_MODELS=dpm,iqm: only those labels. */
const chosen = (label: string) => !process.env.IQM_BENCH_MODELS || process.env.IQM_BENCH_MODELS.split(',').includes(label);
const MODELS = ALL_MODELS.filter((m) => chosen(m.label));

interface Line {
  host: string;
  file: string;
  run: number;
  stamps: Record<string, number>;
  compileMs: number | null;
  /** The textures were not answered within the host script's wait. */
  unanswered: boolean;
}

/** A phase: from the first of `from` that was stamped (`latest`: the latest of them) to `to` (absent: the file has no such step). */
interface Phase {
  label: string;
  from: string[];
  to: string;
  latest?: boolean;
}

const PHASES: Phase[] = [
  { label: 'open command → custom editor resolved', from: ['open'], to: 'resolved' },
  { label: 'webview HTML set', from: ['resolved'], to: 'htmlSet' },
  { label: 'webview document starts', from: ['htmlSet'], to: 'webviewStart' },
  { label: 'bundle loaded (document → script runs)', from: ['webviewStart'], to: 'scriptStart' },
  { label: 'bundle evaluated', from: ['scriptStart'], to: 'bundleEvaluated' },
  { label: 'viewer built (WebGL2 context)', from: ['bundleEvaluated'], to: 'viewerBuilt' },
  { label: '`ready` webview → host', from: ['readyPosted'], to: 'readyReceived' },
  { label: 'host: model read starts (after open)', from: ['open'], to: 'readStart' },
  { label: 'host: model bytes read', from: ['readStart'], to: 'modelRead' },
  { label: 'host: sidecars read', from: ['modelRead'], to: 'sidecarsFound' },
  { label: 'host: companion files read', from: ['sidecarsFound'], to: 'companionsFound' },
  { label: 'host: compile (request → reply)', from: ['compileStart'], to: 'compileDone' },
  { label: 'host: engine checks', from: ['compileDone', 'sidecarsFound'], to: 'enginesChecked' },
  { label: 'host: `load` ready to post (after open)', from: ['open'], to: 'loadPosted' },
  // Posted when the webview is ready: the later of the two.
  { label: '`load` host → webview', from: ['loadPosted', 'readyReceived'], to: 'loadReceived', latest: true },
  { label: 'webview: model parsed', from: ['loadReceived'], to: 'parsed' },
  { label: 'webview: scene and GPU buffers', from: ['parsed'], to: 'gpuBuilt' },
  { label: 'webview: first frame drawn', from: ['gpuBuilt'], to: 'firstFrame' },
  { label: 'textures asked for', from: ['firstFrame'], to: 'texturesRequested' },
  { label: 'host: texture lookup', from: ['textureLookupStart'], to: 'textureLookupDone' },
  { label: 'textures host → webview', from: ['textureLookupDone'], to: 'texturesReceived' },
  { label: 'webview: textures decoded and uploaded', from: ['texturesReceived'], to: 'texturesDecoded' },
  { label: 'webview: textured frame drawn', from: ['texturesDecoded'], to: 'texturedFrame' },
];

/** Milliseconds of `phase` in one run, or undefined when a stamp is missing. */
function phaseMs(stamps: Record<string, number>, phase: Phase): number | undefined {
  const known = phase.from.map((f) => stamps[f]).filter((t) => t !== undefined);
  const from = phase.latest ? (known.length ? Math.max(...known) : undefined) : known[0];
  const to = stamps[phase.to];
  return from === undefined || to === undefined ? undefined : to - from;
}

function cell(values: (number | undefined)[]): string {
  const known = values.filter((v): v is number => v !== undefined);
  if (known.length === 0) return '—';
  return `${Math.round(median(known))} (${Math.round(Math.max(...known))})`;
}

function printTable(lines: Line[], files: string[], baselines: Map<string, number>): void {
  const byFile = files.map((f) => lines.filter((l) => l.file === f));
  const row = (label: string, values: (l: Line) => number | undefined) => console.log(`| ${label} | ${byFile.map((runs) => cell(runs.map(values))).join(' | ')} |`);
  console.log(`| phase, ms: median (worst) of ${RUNS} | ${files.map((f) => basename(f)).join(' | ')} |`);
  console.log(`|---|${files.map(() => '---:').join('|')}|`);
  for (const phase of PHASES) row(phase.label, (l) => phaseMs(l.stamps, phase));
  row('compile in the worker (its own figure)', (l) => l.compileMs ?? undefined);
  row('compile: worker start and messages', (l) => {
    const total = phaseMs(l.stamps, PHASES.find((p) => p.to === 'compileDone') as Phase);
    return total === undefined || l.compileMs === null ? undefined : total - l.compileMs;
  });
  const final = (l: Line) => {
    const end = l.stamps.texturedFrame ?? l.stamps.noTextures;
    return end === undefined ? undefined : end - l.stamps.open;
  };
  row('**open → first frame**', (l) => l.stamps.firstFrame - l.stamps.open);
  row('**open → final frame (with textures)**', final);
  row('first open of the session → final frame', (l) => (l.run === 0 ? final(l) : undefined));
  for (const [i, f] of files.entries()) {
    const base = baselines.get(f);
    const first = byFile[i].map((l) => l.stamps.firstFrame - l.stamps.open).filter((v) => Number.isFinite(v));
    if (base === undefined || first.length === 0) continue;
    const m = median(first), worst = Math.max(...first);
    console.log(`${basename(f)}: open → first frame ${Math.round(m)} ms median (${Math.round(worst)} worst) against ${Math.round(base)} ms for node to read and parse it: ${(m / base).toFixed(2)}x (${(worst / base).toFixed(2)}x worst; goal 2x)`);
  }
  const unanswered = byFile.flatMap((runs, i) => (runs.some((l) => l.unanswered) ? [files[i]] : []));
  if (unanswered.length) console.log(`textures never answered (within 20 s of the first frame) in some opens of: ${unanswered.join(', ')}`);
}

async function main(): Promise<void> {
  const missing = harnessMissing() ?? (existsSync(assetsDir) ? undefined : `${assetsDir} is absent`) ?? (existsSync('dist/webview.js') ? undefined : 'dist/webview.js is missing (npm run build)');
  if (missing) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const workspace = mkdtempSync(join(tmpdir(), 'iqm-bench-first-frame-'));
  try {
    // Each model with its whole folder (what its preview looks up), under a folder of its format.
    const files = MODELS.map((m) => {
      cpSync(join(assetsDir, dirname(m.asset)), join(workspace, m.label), { recursive: true });
      return { path: `${m.label}/${basename(m.asset)}`, viewType: m.viewType };
    });
    if (chosen(GENERATED.label)) {
      mkdirSync(join(workspace, GENERATED.label));
      const bytes = bigIqm(GENERATED.side);
      writeFileSync(join(workspace, GENERATED.label, GENERATED.file), bytes);
      console.log(`generated: ${GENERATED.label}/${GENERATED.file}, ${(bytes.length / 1e6).toFixed(1)} MB (${GENERATED.side * GENERATED.side} skinned vertices, 100 frames)`);
      files.push({ path: `${GENERATED.label}/${GENERATED.file}`, viewType: 'iqmTools.preview' });
    }
    // The baselines of the files issue 35 names: node reading and parsing each.
    const baselines = new Map<string, number>();
    for (const f of files) if (f.path.startsWith('largest/') || f.path.startsWith(`${GENERATED.label}/`)) baselines.set(f.path, readAndParseMs(join(workspace, f.path)));
    writeFileSync(join(workspace, 'bench-files.json'), JSON.stringify({ runs: RUNS, files }));
    console.log(`models: ${MODELS.map((m) => m.asset).join(', ')} (../shared/assets)${chosen(GENERATED.label) ? ` and the generated ${GENERATED.label}` : ''}; ${RUNS} opens each, interleaved`);
    for (const host of HOSTS) {
      const before = loadavg()[0];
      const lines = await benchInVsCode<Line>(host, 'bench/vscode/previewFirstFrameHost.ts', workspace, `bench-first-frame-${host}`, 900_000);
      console.log(`\n${host === 'node' ? 'Node extension host (desktop)' : 'web worker extension host'}: load average ${before.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end, ${availableParallelism()} CPUs`);
      if (!lines) continue;
      if (lines.some((l) => l.host !== host)) throw new Error(`ran in the ${lines[0].host} host, not the ${host} one`);
      printTable(lines, files.map((f) => f.path), baselines);
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

// Benchmark: what one keystroke costs the language server, in one process, CPU time (issue 35).
// The same typing as bench/lsp-edit.ts (TYPED typed out after a face line near the middle of the
// document, then deleted again, one character a keystroke), and after each keystroke the server's
// work done directly: the document's edit, the cross-line analysis, the diagnostics (default
// settings: 1,000 at most) with their LSP conversion and JSON, the outline + JSON, references of a
// vertex, the definition and the hover of a face index. First the open: parse, first analysis,
// first diagnostics, each alone, and the open as the server does it (the real ValidationScheduler:
// parse, analysis and diagnostics in 4 ms slices, then the LSP conversion), CPU and wall time from
// the open to the publish. CPU time (process.cpuUsage) weighs the machine's load less than wall time.
// Env: LSP_KEYSTROKE_DOCS=a,b keeps the documents whose label contains a or b;
// LSP_KEYSTROKE_COUNT=N keystrokes (default 60). Prints figures; never fails on slowness.
import { readFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { IqeDocument } from '../core/iqe/document';
import { toLspDiagnostics } from '../server/diagnostics';
import { hover } from '../server/hover';
import { definition, references } from '../server/references';
import { DEFAULT_SETTINGS, validateOptions } from '../server/settings';
import { documentSymbols } from '../server/symbols';
import { OpenDocument } from '../server/documents';
import { ValidationScheduler } from '../server/scheduler';
import { SettingsStore } from '../server/settings';
import { assetsDir, median, syntheticIqe } from './helpers/data';
import { places, TYPED } from './helpers/typing';

const count = Math.max(4, Number(process.env.LSP_KEYSTROKE_COUNT ?? 60));
const filters = (process.env.LSP_KEYSTROKE_DOCS ?? '').split(',').filter((s) => s !== '');

/** CPU milliseconds (user + system) that `work` takes. */
function cpu<T>(work: () => T): [number, T] {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return [(used.user + used.system) / 1000, result];
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
}

/** The open as the server validates it: CPU and wall ms from opened() to the publish (settings pushed, not pulled: no client). */
async function openThroughScheduler(text: string): Promise<{ cpu: number; wall: number; diagnostics: number }> {
  const settings = new SettingsStore(undefined as never);
  const logger = { error: (m: string) => console.error(m), info: () => undefined };
  return new Promise((resolve) => {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const scheduler = new ValidationScheduler(settings, logger, (_uri, _version, diagnostics) => {
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpuBefore);
      scheduler.dispose();
      resolve({ cpu: (used.user + used.system) / 1000, wall, diagnostics: JSON.stringify(diagnostics).length });
    });
    scheduler.opened(new OpenDocument({ uri: 'file:///open.iqe', languageId: 'iqe', version: 1, text }));
  });
}

async function run(label: string, path: string): Promise<void> {
  const text = readFileSync(path, 'utf8');
  const uri = 'file:///bench.iqe';
  const options = validateOptions(DEFAULT_SETTINGS);
  const at = places(text.split('\n'));
  const facePosition = { line: at.face, character: at.faceIndexColumn };
  const vertexPosition = { line: at.vertex, character: at.vertexColumn };

  // First, while nothing of the parser or the analysis is compiled yet (as in a new server).
  const open = await openThroughScheduler(text);
  const doc = new IqeDocument(text);
  const [parse] = cpu(() => doc.parseSome(Infinity));
  const [firstAnalysis] = cpu(() => doc.analyse());
  const [firstDiagnostics] = cpu(() => JSON.stringify(toLspDiagnostics(uri, doc.diagnostics(options))).length);

  const columns = ['edit', 'analysis', 'diagnostics+JSON', 'outline+JSON', 'references', 'definition', 'hover'] as const;
  const times: Record<(typeof columns)[number], number[]> = { edit: [], analysis: [], 'diagnostics+JSON': [], 'outline+JSON': [], references: [], definition: [], hover: [] };
  let typed = 0;
  for (let k = 0; k < count; k++) {
    const deleting = Math.floor(k / TYPED.length) % 2 === 1;
    const typedText = TYPED.slice(0, typed);
    const newlines = typedText.split('\n').length - 1;
    const endLine = at.typeAfter + newlines;
    const endCharacter = newlines > 0 ? typedText.length - typedText.lastIndexOf('\n') - 1 : at.typeColumn + typed;
    if (!deleting) {
      const ch = TYPED[typed++];
      times.edit.push(cpu(() => doc.edit(endLine, endCharacter, endLine, endCharacter, ch))[0]);
    } else {
      const previous = TYPED.slice(0, typed - 1);
      const prevNewlines = previous.split('\n').length - 1;
      const startLine = at.typeAfter + prevNewlines;
      const startCharacter = prevNewlines > 0 ? previous.length - previous.lastIndexOf('\n') - 1 : at.typeColumn + typed - 1;
      typed--;
      times.edit.push(cpu(() => doc.edit(startLine, startCharacter, endLine, endCharacter, ''))[0]);
    }
    times.analysis.push(cpu(() => doc.analyse())[0]);
    times['diagnostics+JSON'].push(cpu(() => JSON.stringify(toLspDiagnostics(uri, doc.diagnostics(options))).length)[0]);
    times['outline+JSON'].push(cpu(() => JSON.stringify(documentSymbols(doc)).length)[0]);
    times.references.push(cpu(() => JSON.stringify(references(doc, uri, vertexPosition, true)).length)[0]);
    times.definition.push(cpu(() => JSON.stringify(definition(doc, uri, facePosition)).length)[0]);
    times.hover.push(cpu(() => JSON.stringify(hover(doc, facePosition)).length)[0]);
  }
  console.log(`${label}: ${(text.length / 1e6).toFixed(1)} MB; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`  open through the scheduler (a new process's first document): first diagnostics ${open.wall.toFixed(0)} ms wall, ${open.cpu.toFixed(0)} ms CPU`);
  console.log(`  open again, each step alone: parse ${parse.toFixed(1)} ms, first analysis ${firstAnalysis.toFixed(1)} ms, first diagnostics + JSON ${firstDiagnostics.toFixed(1)} ms (CPU)`);
  console.log(`  per keystroke, CPU ms median (p95) over ${count}: ${columns.map((c) => `${c} ${median(times[c]).toFixed(2)} (${p95(times[c]).toFixed(2)})`).join(', ')}`);
}

const docs: [string, string | undefined][] = [
  ['real medistat.iqe 0.6 MB', join(assetsDir, 'iqe', 'unvanquished', 'medistat.iqe')],
  ['g64-f250 24 MB', syntheticIqe('lsp-g64-f250.iqe', ['--grid', '64', '--frames-per-anim', '250'])],
  ['g150-f600 95 MB', syntheticIqe('lsp-g150-f600.iqe', ['--grid', '150', '--frames-per-anim', '600'])],
];
async function main(): Promise<void> {
  for (const [label, path] of docs) {
    if (filters.length > 0 && !filters.some((f) => label.includes(f))) continue;
    if (path === undefined || !existsSync(path)) console.log(`${label}: skipped (${path ?? 'no generator'} is absent)`);
    else await run(label, path);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

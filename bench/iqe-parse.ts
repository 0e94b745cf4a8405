// Parse + validate throughput of core/iqe on gen_big_iqe.py's default file (72.8 MB), the memory
// a parsed document holds relative to its text, and the cost of re-validating after a one-line
// edit in the core (the LSP round trip is measured by bench/lsp-edit.ts).
// Targets (issue: IQE language support): >= 100 MB/s; <= 3x the text size per document.
import { readFileSync } from 'node:fs';
import { IqeDocument } from '../core/iqe/document';
import { median, syntheticIqe } from './helpers/data';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function memory(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const path = syntheticIqe('big.iqe');
if (path) {
  const text = readFileSync(path, 'latin1');
  const megabytes = text.length / 1e6;
  console.log(`input: ${path} (${megabytes.toFixed(1)} MB, ${text.split('\n').length} lines)`);

  const times: number[] = [];
  let problems = 0;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    const doc = new IqeDocument(text);
    problems = doc.diagnostics({ maxProblems: 1000 }).length;
    times.push(performance.now() - start);
  }
  const best = Math.min(...times);
  console.log(`parse + validate: median ${median(times).toFixed(0)} ms, best ${best.toFixed(0)} ms, ${problems} diagnostics reported`);
  console.log(`throughput: ${(megabytes / (median(times) / 1000)).toFixed(0)} MB/s median, ${(megabytes / (best / 1000)).toFixed(0)} MB/s best (target >= 100 MB/s)`);

  const before = memory();
  const kept = new IqeDocument(text);
  kept.diagnostics();
  const after = memory();
  const held = after - before;
  // The text itself is held by the editor/server anyway; the target counts text + parsed data.
  console.log(`parsed data held: ${(held / 1e6).toFixed(1)} MB = ${(held / text.length).toFixed(2)}x the text; with the text: ${((held + text.length) / text.length).toFixed(2)}x (target <= 3x)`);

  // One-line edit in the middle (insert a line with an error, then remove it), then re-validate:
  // re-parses one chunk and re-runs the analysis over the chunk summaries.
  const middle = Math.floor(kept.lineCount / 2);
  const edits: number[] = [];
  for (let k = 0; k < 20; k++) {
    const start = performance.now();
    if (k % 2 === 0) kept.edit(middle, 0, middle, 0, 'fa 0 1 999999999\n');
    else kept.edit(middle, 0, middle + 1, 0, '');
    kept.diagnostics();
    edits.push(performance.now() - start);
  }
  console.log(`one-line edit + re-validate (core only): median ${median(edits).toFixed(1)} ms, max ${Math.max(...edits).toFixed(1)} ms`);
}

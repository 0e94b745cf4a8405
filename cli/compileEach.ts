// `iqm-tools compile --each A.iqe B.iqe ... [-o FOLDER/] [options]`: each input compiled as its own
// model (not merged as `compile A.iqe B.iqe` merges animation files), one after another in this
// process: node starts once, and each file after the first runs code V8 has already optimised
// (docs/PERFORMANCE.md: a small file's compile is mostly that warm-up when it runs alone). A large
// file's bounds still take the worker thread (node/compileParallel.ts).
// -s/-t/-r apply to every file; --name, --fps, --loop, --start, --end to the file they precede.
// Outputs: FOLDER/NAME.iqm, or NAME.iqm beside each input without -o. A file that cannot be read
// or has errors is reported and skipped; the others are still written. Exit status: 0 when every
// file was written, 1 when some had errors, 2 for usage or read/write problems.
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { compile } from '../core/compile/index';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { setCollector } from '../core/pages';
import { sameFile, writeFileAtomically } from '../node/atomicWrite';
import { parallelBounds } from '../node/compileParallel';
import { compileHeap } from '../node/heap';
import { fileDiagnosticToJson, formatDiagnostic } from './check';
import { type CompileArguments, compileNotes, openForCompile } from './compile';
import { writeStderr, writeStdout } from './write';

/** The output of each input: FOLDER/NAME.iqm with -o (a folder), else NAME.iqm beside the input. */
export function eachOutputs(parsed: CompileArguments): string[] | string {
  const { outputGiven } = parsed;
  const outputs = parsed.inputs.map(({ path }) => {
    const name = /\.iqe$/i.test(path) ? basename(path).replace(/\.iqe$/i, '.iqm') : `${basename(path)}.iqm`;
    return outputGiven ? join(parsed.output, name) : join(dirname(path), name);
  });
  if (outputGiven) {
    let folder = parsed.output.endsWith('/') || parsed.output.endsWith(sep);
    try {
      folder = statSync(parsed.output).isDirectory();
    } catch {
      /* made below when it ends with / */
    }
    if (!folder) return `-o ${parsed.output}: with --each, -o names a folder (an existing one, or one ending in /)`;
  }
  const seen = new Map<string, string>();
  for (let i = 0; i < outputs.length; i++) {
    const key = resolve(outputs[i]);
    const other = seen.get(key);
    if (other !== undefined) return `${other} and ${parsed.inputs[i].path} would both be written to ${outputs[i]}`;
    seen.set(key, parsed.inputs[i].path);
    const input = parsed.inputs.find(({ path }) => sameFile(path, outputs[i]));
    if (input) return `the output ${outputs[i]} is the input ${input.path} (the same file); the IQM would replace it`;
  }
  return outputs;
}

/** What happened to one input (the --json result's entries). */
type Outcome =
  | { input: string; output: string; stats: Record<string, number>; notes: Record<string, unknown>[] }
  | { input: string; diagnostics: Record<string, unknown>[] }
  | { input: string; error: string };

/** Compiles each input of `parsed` as its own model. */
export async function runCompileEach(parsed: CompileArguments): Promise<number> {
  const outputs = eachOutputs(parsed);
  if (typeof outputs === 'string') {
    process.stderr.write(`compile: ${outputs}\n`);
    return 2;
  }
  if (parsed.outputGiven) {
    try {
      mkdirSync(parsed.output, { recursive: true });
    } catch (error) {
      process.stderr.write(`${parsed.output}: cannot make the folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return 2;
    }
  }
  // Heap settings for the largest input (node/heap.ts): they only ever apply from a size on.
  let largest = 0;
  for (const { path } of parsed.inputs) {
    try {
      largest = Math.max(largest, statSync(path).size);
    } catch {
      /* reported when it is read */
    }
  }
  setCollector(compileHeap(largest));
  const bounds = parallelBounds();
  const outcomes: Outcome[] = [];
  let status = 0;
  for (const [i, { path, options }] of parsed.inputs.entries()) {
    const output = outputs[i];
    const report = (outcome: Outcome, text: string, code: number, stream: 'out' | 'err'): void => {
      outcomes.push(outcome);
      status = Math.max(status, code);
      if (!parsed.json) (stream === 'out' ? writeStdout : writeStderr)(text);
    };
    const source = await openForCompile(path, options);
    if (typeof source === 'string') {
      report({ input: path, error: source }, `${path}: ${source}\n`, 2, 'err');
      continue;
    }
    const result = compile([source], parsed.options, bounds);
    if (!result.bytes) {
      const errors = result.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error');
      report({ input: path, diagnostics: errors.map((d) => fileDiagnosticToJson(path, d)) }, errors.map((d) => formatDiagnostic(path, d)).join('\n') + '\n', 1, 'out');
      continue;
    }
    const notes: IqeDiagnostic[] = compileNotes(result).map((d) => d.diagnostic);
    if (!parsed.json) for (const d of notes) writeStderr(formatDiagnostic(path, d) + '\n');
    try {
      writeFileAtomically(output, result.bytes);
    } catch (error) {
      report({ input: path, error: `${output}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}` }, `${output}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`, 2, 'err');
      continue;
    }
    const s = result.stats;
    const stats = { meshes: s.meshes, vertices: s.vertices, triangles: s.triangles, joints: s.joints, animations: s.animations, frames: s.frames, bytes: s.bytes };
    report(
      { input: path, output, stats, notes: notes.map((d) => fileDiagnosticToJson(path, d)) },
      `${output}: ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ${s.joints} joints, ${s.animations} animations, ${s.frames} frames, ${s.bytes} bytes\n`,
      0,
      'out',
    );
  }
  if (parsed.json) writeStdout(JSON.stringify({ results: outcomes }) + '\n');
  return status;
}

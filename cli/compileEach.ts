// `iqm-tools compile --each A.iqe B.iqe ... [-o FOLDER/] [options]`: each input compiled as its own
// model (not merged as `compile A.iqe B.iqe` merges animation files), in one process: node starts
// once, and each file after the first on a thread runs code V8 has already optimised
// (docs/PERFORMANCE.md). Enough input for the cores to pay for a worker's start goes to a pool of
// threads (cli/compileEachPool.ts), largest files first; a small batch stays on this thread.
// -s/-t/-r apply to every file; --name, --fps, --loop, --start, --end to the file they precede.
// Outputs: FOLDER/NAME.iqm, or NAME.iqm beside each input without -o. A file that cannot be read
// or has errors is reported and skipped; the others are still written. What each file prints comes
// in input order whichever thread compiled it. Exit status: 0 when every file was written, 1 when
// some had errors, 2 for usage or read/write problems.
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { outputName } from '../core/formats/registry';
import { setCollector } from '../core/pages';
import { sameFile } from '../node/atomicWrite';
import { parallelBounds } from '../node/compileParallel';
import { compileHeap } from '../node/heap';
import { type CompileArguments, compileOneOf, type EachInput, type FileResult } from './compileOne';
import { compileInPool, poolThreads } from './compileEachPool';
import { writeStderr, writeStdout } from './write';

/** The output of each input: FOLDER/NAME.iqm with -o (a folder), else NAME.iqm beside the input. */
export function eachOutputs(parsed: CompileArguments): string[] | string {
  const { outputGiven } = parsed;
  const outputs = parsed.inputs.map(({ path }) => {
    // The name `compile` gives one input's output (a source's extension replaced: a.obj → a.iqm).
    const name = outputName(basename(path), '.iqm');
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
  const inputs: EachInput[] = parsed.inputs.map(({ path, options }, i) => ({ path, options, output: outputs[i] }));
  // Sizes: the heap settings for the largest input (node/heap.ts), and the pool's order and size.
  const sizes = inputs.map(({ path }) => {
    try {
      return statSync(path).size;
    } catch {
      return 0; // reported when it is read
    }
  });
  const largest = Math.max(0, ...sizes);
  setCollector(compileHeap(largest));

  // Each file's lines in input order, printed as soon as every earlier file has been printed.
  const results: (FileResult | undefined)[] = inputs.map(() => undefined);
  let printed = 0;
  const settle = (index: number, result: FileResult): void => {
    results[index] = result;
    for (; printed < results.length && results[printed]; printed++) {
      if (parsed.json) continue;
      for (const { stream, text } of results[printed]!.writes) (stream === 'out' ? writeStdout : writeStderr)(text);
    }
  };

  const threads = poolThreads(sizes);
  if (threads > 1) {
    await compileInPool({ inputs, sizes, options: parsed.options, json: parsed.json, largest }, threads, settle);
  } else {
    const bounds = parallelBounds();
    for (const [i, input] of inputs.entries()) settle(i, await compileOneOf(input, parsed.options, parsed.json, bounds));
  }
  if (parsed.json) writeStdout(JSON.stringify({ results: results.map((r) => r!.outcome) }) + '\n');
  return Math.max(0, ...results.map((r) => r!.status));
}

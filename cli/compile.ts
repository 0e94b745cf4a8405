// `iqm-tools compile IN.iqe [-o OUT.iqm] [options]` (CLI.md): IQE -> IQM v2 with the options of
// the reference compiler (IQE-SEMANTICS.md §1). Errors from `check` stop the compile (exit 1,
// printed as `check` prints them); usage and I/O problems are one stderr line and exit 2. The
// output is written to a temporary file beside it and renamed (atomicWrite.ts: through symbolic
// links, keeping the replaced file's permissions), so a failed compile never leaves a partial file.
import { statSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { IqeDocument } from '../core/iqe/document';
import { type CheckedIqe, checkIqe, compileChecked, compileInputs, type CompileOptions, type CompileResult } from '../core/compile/index';
import type { InputPart } from '../core/compile/merge';
import type { AnimationOptions } from '../core/compile/options';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { fileDiagnosticToJson, formatDiagnostic } from './check';
import { parallelBounds } from '../node/compileParallel';
import { fileSource, notIqeText, readHead } from '../node/text';
import { compileHeap } from '../node/heap';
import { writeStderr, writeStdout } from './write';
import { sameFile, writeFileAtomically } from '../node/atomicWrite';
import { setCollector } from '../core/pages';
import { runCompileEach } from './compileEach';

const USAGE = [
  'usage: iqm-tools compile IN.iqe [ANIM.iqe ...] [-o OUT.iqm|FOLDER/] [-s SCALE] [-t X,Y,Z] [-r X,Y,Z] [--name N] [--fps F] [--loop] [--start F] [--end F] [--json]',
  '  Several inputs (a mesh file, then animation files) are merged as the reference compiler merges them.',
  '  --name, --fps, --loop, --start and --end apply to the next input (options after the last input: to it).',
  '  --json: one JSON object on stdout: {output, stats, notes} when written, {diagnostics} on errors (exit 1).',
  '  --each: each input compiled as its own model in this one process (-o: a folder), {results: [...]} with --json.',
].join('\n');

class UsageError extends Error {}

/** `sscanf("%lf , %lf , %lf")`-like: up to three comma-separated numbers; none is an error. */
function parseTriple(option: string, value: string): number[] {
  const parts = value.split(',');
  const numbers: number[] = [];
  for (const part of parts) {
    const trimmed = part.trim();
    if (trimmed === '' || !Number.isFinite(Number(trimmed))) break;
    numbers.push(Number(trimmed));
    if (numbers.length === 3) break;
  }
  if (numbers.length === 0 || numbers.length < parts.length) throw new UsageError(`${option}: expected up to three numbers separated by commas, got '${value}'`);
  return numbers;
}

function parseNumber(option: string, value: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${option}: expected a number, got '${value}'`);
  return n;
}

function parseInteger(option: string, value: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(value)) throw new UsageError(`${option}: expected an integer, got '${value}'`);
  return parseInt(value, 10);
}

export interface InputArgument {
  path: string;
  /** Its animation options (§1). */
  options: AnimationOptions;
}

export interface CompileArguments {
  inputs: InputArgument[];
  output: string;
  /** --json: the result as one JSON object on stdout (errors, or the output's figures and the notes). */
  json: boolean;
  /** The options for every input: -s, -t, -r. */
  options: CompileOptions;
  /** Whether -o was given (output is otherwise the first input's name with .iqm). */
  outputGiven: boolean;
}

export function parseCompileArguments(args: readonly string[]): CompileArguments {
  const inputs: InputArgument[] = [];
  let output: string | undefined;
  let json = false;
  const options: CompileOptions = {};
  // Per-input options apply to the next input (as in the reference).
  let pending: AnimationOptions = {};
  let scale = 1;
  let scaled = false;
  const translate = [0, 0, 0];
  let translated = false;
  const rotate: [number, number, number][] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = (): string => {
      if (i + 1 >= args.length) throw new UsageError(`${arg}: missing value`);
      return args[++i];
    };
    switch (arg) {
      case '-o':
      case '--output':
        output = value();
        break;
      case '--json':
        json = true;
        break;
      case '-s':
      case '--scale': {
        const s = parseNumber(arg, value());
        if (!(s > 0)) throw new UsageError(`${arg}: the scale must be greater than 0`);
        scale *= Math.min(Math.max(s, 1e-8), 1e8);
        scaled = true;
        break;
      }
      case '-t':
      case '--meshtrans': {
        const t = parseTriple(arg, value());
        if (t.length === 1) translate[2] += t[0];
        else for (let k = 0; k < t.length; k++) translate[k] += t[k];
        translated = true;
        break;
      }
      case '-r':
      case '--rotate': {
        const r = parseTriple(arg, value());
        rotate.push([r[0] ?? 0, r[1] ?? 0, r[2] ?? 0]);
        break;
      }
      case '--name':
        pending.name = value();
        break;
      case '--fps':
        pending.fps = parseNumber(arg, value());
        break;
      case '--loop':
        pending.loop = true;
        break;
      case '--start':
        pending.start = Math.max(parseInteger(arg, value()), 0);
        break;
      case '--end':
        pending.end = parseInteger(arg, value());
        break;
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option '${arg}'`);
        inputs.push({ path: arg, options: pending });
        pending = {};
    }
  }
  if (inputs.length === 0) throw new UsageError('no input file');
  Object.assign(inputs[inputs.length - 1].options, pending);
  const input = inputs[0].path;
  if (scaled) options.scale = scale;
  if (translated) options.translate = [translate[0], translate[1], translate[2]];
  if (rotate.length > 0) options.rotate = rotate;
  return { inputs, output: output ?? defaultOutput(input), json, options, outputGiven: output !== undefined };
}

/** IN.iqe -> IN.iqm (another name gets .iqm added). */
function defaultOutput(input: string): string {
  return /\.iqe$/i.test(input) ? input.replace(/\.iqe$/i, '.iqm') : `${input}.iqm`;
}

/** `-o DIR` (an existing folder, or any path ending in /) means DIR/IN.iqm, as a folder in the editor's outputPath does. */
function outputInFolder(output: string, input: string): string {
  let folder = output.endsWith('/') || output.endsWith(sep);
  if (!folder) {
    try {
      folder = statSync(output).isDirectory();
    } catch {
      /* no such file yet: the output itself */
    }
  }
  return folder ? join(output, basename(defaultOutput(input))) : output;
}

/**
 * Reads a file and checks it, with its data when it has no error, or says in one line why it
 * cannot be compiled at all (a read error's code, or bytes that are not IQE text: notIqeText).
 * The text streams through the compiler's ingest (core/compile/ingest.ts), so neither the whole
 * text nor its parsed lines are held; a file with errors is read again as a whole for their
 * diagnostics (warnings are not collected when there is no error: the compile does not show them).
 */
export function loadForCompile(path: string): CheckedIqe | string {
  try {
    const other = notIqeText(readHead(path));
    if (other) return other;
    const source = fileSource(path);
    const result = source.ingest();
    if (result.ok) return { diagnostics: [], input: result.input };
    return checkIqe(new IqeDocument(source.text()));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return `cannot read: ${code}`;
  }
}

/** The size of a file in bytes, 0 when it cannot be read (loadForCompile reports that). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export function runCompile(args: string[]): number {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  let parsed: CompileArguments;
  const each = args.includes('--each');
  try {
    parsed = parseCompileArguments(each ? args.filter((arg) => arg !== '--each') : args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`compile: ${error.message} (see iqm-tools compile --help)\n`);
    return 2;
  }
  if (each) return runCompileEach(parsed);
  const { inputs, options } = parsed;
  const output = outputInFolder(parsed.output, inputs[0].path);
  // A slip such as `-o model.iqe` must not replace the source with the IQM.
  const overwritten = inputs.find(({ path }) => sameFile(path, output));
  if (overwritten) {
    process.stderr.write(`compile: the output ${output} is the input ${overwritten.path} (the same file); the IQM would replace it\n`);
    return 2;
  }
  // Heap settings for the compile (node/heap.ts): the young generation kept small for large inputs,
  // and the pages the stages drop collected when they ask (core/pages.ts).
  setCollector(compileHeap(inputs.reduce((total, { path }) => total + fileSize(path), 0)));
  // Each input is read and checked on its own; any error stops the compile.
  const checked: CheckedIqe[] = [];
  for (const { path } of inputs) {
    const loaded = loadForCompile(path);
    if (typeof loaded === 'string') {
      process.stderr.write(`${path}: ${loaded}\n`);
      return 2;
    }
    checked.push(loaded);
  }
  const errors = checked.flatMap((c, i) => c.diagnostics.filter((d) => d.severity === 'error').map((diagnostic) => ({ path: inputs[i].path, diagnostic })));
  if (errors.length > 0) return printErrors(errors, parsed.json);
  // What the compile itself noticed (an ignored option, tangents that needed a fallback, ...),
  // each with its file; the documents' own warnings are `check`'s to show.
  const notes: { path: string; diagnostic: IqeDiagnostic }[] = [];
  let result: CompileResult;
  if (inputs.length === 1) {
    result = compileChecked(checked[0], { ...options, ...inputs[0].options }, parallelBounds());
    for (const d of result.notes) notes.push({ path: inputs[0].path, diagnostic: d });
  } else {
    const parts: InputPart[] = checked.map((c, i) => ({ input: c.input!, options: inputs[i].options }));
    const compiled = compileInputs(parts, options, parallelBounds());
    for (const n of compiled.notes) notes.push({ path: inputs[n.text].path, diagnostic: n.diagnostic });
    result = { bytes: compiled.bytes, diagnostics: [], notes: compiled.notes.map((n) => n.diagnostic), stats: compiled.stats };
  }
  if (!result.bytes) return printErrors(result.diagnostics.filter((d) => d.severity === 'error').map((diagnostic) => ({ path: inputs[0].path, diagnostic })), parsed.json);
  if (!parsed.json) for (const { path, diagnostic } of notes) writeStderr(formatDiagnostic(path, diagnostic) + '\n');
  try {
    writeFileAtomically(output, result.bytes);
  } catch (error) {
    process.stderr.write(`${output}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 2;
  }
  const s = result.stats;
  if (parsed.json) {
    const stats = { meshes: s.meshes, vertices: s.vertices, triangles: s.triangles, joints: s.joints, animations: s.animations, frames: s.frames, bytes: s.bytes };
    writeStdout(JSON.stringify({ output, stats, notes: notes.map(({ path, diagnostic }) => fileDiagnosticToJson(path, diagnostic)) }) + '\n');
  } else {
    writeStdout(
      `${output}: ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ${s.joints} joints, ${s.animations} animations, ${s.frames} frames, ${s.bytes} bytes\n`,
    );
  }
  return 0;
}

/** The errors that stop a compile, on stdout as `check` prints them (or as JSON); exit 1. */
function printErrors(errors: { path: string; diagnostic: IqeDiagnostic }[], json: boolean): number {
  if (json) writeStdout(JSON.stringify({ diagnostics: errors.map(({ path, diagnostic }) => fileDiagnosticToJson(path, diagnostic)) }) + '\n');
  else writeStdout(errors.map(({ path, diagnostic }) => formatDiagnostic(path, diagnostic)).join('\n') + '\n');
  return 1;
}

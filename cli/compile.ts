// `iqm-tools compile IN [ANIM ...] [-o OUT.iqm] [options]` (CLI.md): IQE, MD5, SMD or OBJ -> IQM
// v2 with the options of the reference compiler (IQE-SEMANTICS.md §1). Errors in a source stop
// the compile (exit 1, printed as `check` prints them, FILE:LINE:COL); usage and I/O problems are
// one stderr line and exit 2. The
// output is written to a temporary file beside it and renamed (atomicWrite.ts: through symbolic
// links, keeping the replaced file's permissions), so a failed compile never leaves a partial file.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GltfCompileSource } from '../core/gltf/source';
import { type AnimationOptions, compile, type CompileOptions, type CompileSource } from '../core/compile/index';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { outputName } from '../core/formats/registry';
import { DiagnosticLines, fileDiagnosticToJson, formatDiagnostic } from './check';
import { parallelBounds } from '../node/compileParallel';
import { compileHeap } from '../node/heap';
import { outputExtensionProblem } from '../core/formats/outputName';
import { outputInFolder } from './output';
import { writeStderr, writeStdout } from './write';
import { sameFile, writeFileAtomically } from '../node/atomicWrite';
import { setCollector } from '../core/pages';
import { engineNames, parseEngineList } from '../core/engines/index';
import { formatLint, lintFile, lintJson, type LintResult } from './lint';
import { runCompileEach } from './compileEach';
import { type CompileArguments, compileNotes, type InputArgument, openForCompile } from './compileOne';
import type { EngineProfile } from '../core/engines/types';

const USAGE = [
  'usage: iqm-tools compile IN [ANIM ...] [-o OUT.iqm|FOLDER/] [-s SCALE] [-t X,Y,Z] [-r X,Y,Z] [-j] [--name N] [--fps F] [--loop] [--start F] [--end F] [--textures DIR] [--no-material-colors] [--json]',
  '  IN and ANIM: .iqe, .md5mesh/.md5anim, .smd, .obj, .gltf/.glb (the format is read from the content).',
  '  glTF: every animation is sampled at --fps F frames per second (default: the rate its key times are on, 24, 25, 50 or 60, else 30);',
  '    Y-up is turned Z-up; --textures DIR writes its embedded images there, named as its materials name them;',
  '    a material with a colour and no texture gives its meshes that vertex colour (--no-material-colors: not).',
  '  Several inputs (a mesh file, then animation files) are merged as the reference compiler merges them.',
  '  -j (--forcejoints): write the joints even without a mesh.',
  '  --name, --fps, --loop, --start and --end apply to the next input (options after the last input: to it).',
  '  --json: one JSON object on stdout: {output, stats, notes} when written, {diagnostics} on errors (exit 1).',
  '  --engine NAME[,NAME]: also warn where the output breaks these engine profiles (iqm-tools lint; the exit status is unchanged).',
  '  --each: each input compiled as its own model in this one process (-o: a folder; from 2 MiB of input on worker threads, one per idle core), {results: [...]} with --json.',
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

export function parseCompileArguments(args: readonly string[]): CompileArguments {
  const inputs: InputArgument[] = [];
  let output: string | undefined;
  let json = false;
  let textures: string | undefined;
  let materialColors = true;
  const engines: EngineProfile[] = [];
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
      case '--textures':
        textures = value();
        break;
      case '--no-material-colors':
        materialColors = false;
        break;
      case '--engine': {
        const { engines: found, unknown } = parseEngineList(value());
        if (unknown.length > 0) throw new UsageError(`--engine: unknown engine ${unknown.map((u) => `'${u}'`).join(', ')}; known: ${engineNames()}`);
        engines.push(...found.filter((e) => !engines.includes(e)));
        break;
      }
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
      case '-j':
      case '--forcejoints':
        options.forceJoints = true;
        break;
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
  if (!materialColors) for (const i of inputs) i.options.materialColors = false;
  const input = inputs[0].path;
  if (scaled) options.scale = scale;
  if (translated) options.translate = [translate[0], translate[1], translate[2]];
  if (rotate.length > 0) options.rotate = rotate;
  return { inputs, output: output ?? defaultOutput(input), json, options, engines, outputGiven: output !== undefined, textures };
}

/** IN.iqe (.md5mesh, .smd, .obj, .gltf, .glb: a source's extension) -> IN.iqm (another name gets .iqm added). */
function defaultOutput(input: string): string {
  return outputName(input, '.iqm');
}

/** The size of a file in bytes, 0 when it cannot be read (loadForCompile reports that). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export async function runCompile(args: string[]): Promise<number> {
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
  const output = outputInFolder(parsed.output, defaultOutput(inputs[0].path));
  // A slip such as `-o model.iqe` must not replace the source with the IQM.
  const overwritten = inputs.find(({ path }) => sameFile(path, output));
  if (overwritten) {
    process.stderr.write(`compile: the output ${output} is the input ${overwritten.path} (the same file); the IQM would replace it\n`);
    return 2;
  }
  const misnamed = outputExtensionProblem(output, 'iqm');
  if (misnamed) {
    process.stderr.write(`compile: ${misnamed}\n`);
    return 2;
  }
  // Heap settings for the compile (node/heap.ts): the young generation kept small for large inputs,
  // and the pages the stages drop collected when they ask (core/pages.ts).
  setCollector(compileHeap(inputs.reduce((total, { path }) => total + fileSize(path), 0)));
  const sources: CompileSource[] = [];
  for (const { path, options: animation } of inputs) {
    const loaded = await openForCompile(path, animation);
    if (typeof loaded === 'string') {
      process.stderr.write(`${path}: ${loaded}\n`);
      return 2;
    }
    sources.push(loaded);
  }
  let result;
  try {
    result = compile(sources, options, parallelBounds());
  } catch (error) {
    // A file that went away or became a folder between the check above and its reading.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    process.stderr.write(`compile: cannot read an input: ${code}\n`);
    return 2;
  }
  // Any source with errors stops the compile (each source's errors with its file).
  const errors = result.diagnostics.filter((d) => d.diagnostic.severity === 'error').map(({ source, diagnostic }) => ({ path: inputs[source].path, diagnostic }));
  if (!result.bytes) return await printErrors(errors, parsed.json);
  // What the compile noticed (an ignored option, tangents that needed a fallback, ...) and what
  // the reading of a source that compiles noticed (a glTF's notes), each with its file.
  const notes = compileNotes(result).map(({ source, diagnostic }) => ({ path: inputs[source].path, diagnostic }));
  if (!parsed.json) for (const { path, diagnostic } of notes) writeStderr(formatDiagnostic(path, diagnostic) + '\n');
  try {
    writeFileAtomically(output, result.bytes);
  } catch (error) {
    process.stderr.write(`${output}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 2;
  }
  let written: string[] = [];
  if (parsed.textures !== undefined) {
    const wrote = writeTextures(sources, parsed.textures);
    if (typeof wrote === 'string') {
      process.stderr.write(`${wrote}\n`);
      return 2;
    }
    written = wrote;
  }
  const s = result.stats;
  // --engine: where the written model breaks the chosen engines' profiles (warnings only).
  const engineFindings: LintResult[] = [];
  if (parsed.engines.length > 0) {
    const linted = await lintFile(output, result.bytes, parsed.engines);
    if ('findings' in linted) for (const finding of linted.findings) engineFindings.push({ file: output, finding });
  }
  if (parsed.json) {
    const stats = { meshes: s.meshes, vertices: s.vertices, triangles: s.triangles, joints: s.joints, animations: s.animations, frames: s.frames, bytes: s.bytes };
    const engines = parsed.engines.length > 0 ? { engines: engineFindings.map(lintJson) } : {};
    const textures = parsed.textures !== undefined ? { textures: written } : {};
    writeStdout(JSON.stringify({ output, stats, notes: notes.map(({ path, diagnostic }) => fileDiagnosticToJson(path, diagnostic)), ...textures, ...engines }) + '\n');
  } else {
    for (const r of engineFindings) writeStderr(formatLint(r) + '\n');
    if (parsed.textures !== undefined) writeStderr(written.length > 0 ? `wrote ${written.join(', ')}\n` : `--textures: no glTF source with images: nothing written to ${parsed.textures}\n`);
    writeStdout(
      `${output}: ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ${s.joints} joints, ${s.animations} animations, ${s.frames} frames, ${s.bytes} bytes\n`,
    );
  }
  return 0;
}

/** The errors that stop a compile, on stdout as `check` prints them (or as JSON); exit 1. */
async function printErrors(errors: { path: string; diagnostic: IqeDiagnostic }[], json: boolean): Promise<number> {
  if (json) writeStdout(JSON.stringify({ diagnostics: errors.map(({ path, diagnostic }) => fileDiagnosticToJson(path, diagnostic)) }) + '\n');
  else {
    const lines = new DiagnosticLines(writeStdout, `iqm-tools check --all prints them all, --json lists them all`);
    // Each input's errors together (they come input after input).
    for (let i = 0; i < errors.length; ) {
      let j = i;
      while (j < errors.length && errors[j].path === errors[i].path) j++;
      await lines.print(errors[i].path, errors.slice(i, j).map((e) => e.diagnostic));
      i = j;
    }
    await lines.finish();
  }
  return 1;
}

/**
 * --textures DIR: the images of the glTF sources (embedded or beside them), each as the file its
 * materials name (NAME.png, NAME.jpg): the paths written, or the one-line error.
 */
export function writeTextures(sources: readonly CompileSource[], folder: string): string[] | string {
  const written: string[] = [];
  for (const source of sources) {
    for (const image of (source as Partial<GltfCompileSource>).images ?? []) {
      if (!image.bytes || image.bytes.length === 0) continue;
      const path = join(folder, `${image.stem}.${image.extension}`);
      if (written.includes(path)) continue;
      try {
        mkdirSync(folder, { recursive: true });
        writeFileAtomically(path, image.bytes);
      } catch (error) {
        return `${path}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
      }
      written.push(path);
    }
  }
  return written;
}

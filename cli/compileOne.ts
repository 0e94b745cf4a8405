// One input of a compile as the CLI opens and compiles it: what `compile` (one model from several
// inputs) and `compile --each` (each input its own model, in this thread or a pool's) share. Kept
// apart from both so that neither imports the other (compileEachPool runs compileOneOf in its
// threads).
import { type BoundsProvider, compile, type CompileOptions, type CompileResult, type CompileSource, type SourceDiagnostic, type SourceOptions } from '../core/compile/index';
import type { EngineProfile } from '../core/engines/types';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { writeFileAtomically } from '../node/atomicWrite';
import { fileSource } from '../node/text';
import { fileDiagnosticToJson, formatDiagnostic } from './check';

export interface InputArgument {
  path: string;
  /** Its animation options (§1), and a glTF's --no-material-colors. */
  options: SourceOptions;
}

export interface CompileArguments {
  inputs: InputArgument[];
  output: string;
  /** --json: the result as one JSON object on stdout (errors, or the output's figures and the notes). */
  json: boolean;
  /** The options for every input: -s, -t, -r. */
  options: CompileOptions;
  /** --engine: engine profiles the output is checked against. */
  engines: EngineProfile[];
  /** Whether -o was given (output is otherwise the first input's name with .iqm). */
  outputGiven: boolean;
  /** --textures: the folder a glTF's images are written to. */
  textures?: string;
}

/**
 * A file as a compile source (node/text.ts fileSource: the registry's reader; an IQE streams
 * through the ingest), or one line that says why it cannot be compiled at all (a read error's
 * code, or the registry's message for bytes that are no compile source).
 */
export async function openForCompile(path: string, options?: SourceOptions): Promise<CompileSource | string> {
  try {
    return await fileSource(path, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return `cannot read: ${code}`;
  }
}

/** What a compile that succeeded has to say: its notes and the non-error diagnostics of its sources. */
export function compileNotes(result: CompileResult): SourceDiagnostic[] {
  return result.diagnostics.filter((d) => d.diagnostic.severity !== 'error');
}

/** What happened to one input (the --json result's entries). */
export type Outcome =
  | { input: string; output: string; stats: Record<string, number>; notes: Record<string, unknown>[] }
  | { input: string; diagnostics: Record<string, unknown>[] }
  | { input: string; error: string };

/** One input's compile as any thread does it: what to print (in order), the outcome, the exit status it asks for. */
export interface FileResult {
  outcome: Outcome;
  /** Text for stdout ('out') or stderr ('err'), in the order it is printed (empty with --json). */
  writes: { stream: 'out' | 'err'; text: string }[];
  status: number;
}

/** One input of the batch, as the threads get it (structured-clonable). */
export interface EachInput {
  path: string;
  options: SourceOptions;
  output: string;
}

/** Compiles one input and writes its IQM; never throws for a file's own problems. */
export async function compileOneOf(input: EachInput, options: CompileOptions, json: boolean, bounds: BoundsProvider | undefined): Promise<FileResult> {
  const { path, output } = input;
  const writes: FileResult['writes'] = [];
  const done = (outcome: Outcome, text: string, status: number, stream: 'out' | 'err'): FileResult => {
    if (!json) writes.push({ stream, text });
    return { outcome, writes, status };
  };
  const source = await openForCompile(path, input.options);
  if (typeof source === 'string') return done({ input: path, error: source }, `${path}: ${source}\n`, 2, 'err');
  let result;
  try {
    result = compile([source], options, bounds);
  } catch (error) {
    // A file that went away or became a folder between its opening and its reading.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return done({ input: path, error: `cannot read: ${code}` }, `${path}: cannot read: ${code}\n`, 2, 'err');
  }
  if (!result.bytes) {
    const errors = result.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error');
    return done({ input: path, diagnostics: errors.map((d) => fileDiagnosticToJson(path, d)) }, errors.map((d) => formatDiagnostic(path, d)).join('\n') + '\n', 1, 'out');
  }
  const notes: IqeDiagnostic[] = compileNotes(result).map((d) => d.diagnostic);
  if (!json) for (const d of notes) writes.push({ stream: 'err', text: formatDiagnostic(path, d) + '\n' });
  try {
    writeFileAtomically(output, result.bytes);
  } catch (error) {
    const message = `${output}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    return done({ input: path, error: message }, `${message}\n`, 2, 'err');
  }
  const s = result.stats;
  const stats = { meshes: s.meshes, vertices: s.vertices, triangles: s.triangles, joints: s.joints, animations: s.animations, frames: s.frames, bytes: s.bytes };
  return done(
    { input: path, output, stats, notes: notes.map((d) => fileDiagnosticToJson(path, d)) },
    `${output}: ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ${s.joints} joints, ${s.animations} animations, ${s.frames} frames, ${s.bytes} bytes\n`,
    0,
    'out',
  );
}


// The model of a compile source as every face shows it (the preview, info, convert, diff, sample,
// Compare): the source compiled with the files that go with it (its animation files merged after
// it, the files it names as resources), with -j so that an animation file alone still has its
// skeleton, then read back as a model. The CLI runs this in its process; the extension host asks
// its compile worker for the same request (core/host/compileRun.ts takes it through sources.ts too).

import { compile, type BoundsProvider, type CompileOptions, type CompileResult, type CompileSource } from '../compile/index';
import type { Model } from '../model/model';
import { fileNameOf } from '../paths';
import type { CompanionFiles } from './companions';
import { readModel } from './models';
import { extensionWarning, FORMATS, type FormatId, modelOptions } from './registry';
import { openSource } from './sources';

/** A source's model: the IQM its compile wrote (`bytes`) read back, or the first error as one line. */
export type CompiledModel = { ok: true; model: Model; bytes: Uint8Array; warnings: string[]; animations: string[] } | { ok: false; message: string };

/** The resource reader of gathered companion files: by the name the source gives (or its decoding). */
export function companionResources(companions: CompanionFiles): (uri: string) => Uint8Array | null {
  const byUri = new Map(companions.resources.map((r) => [r.uri, r.bytes]));
  return (uri) => byUri.get(uri) ?? byUri.get(safeDecode(uri)) ?? null;
}

function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/** The sources of the compile of `path` (its bytes) with its companions: the source, then its animation files. */
export async function companionSources(path: string, bytes: Uint8Array, companions: CompanionFiles, format?: FormatId): Promise<CompileSource[]> {
  const resources = companionResources(companions);
  const sources = [await openSource({ bytes }, path, resources, undefined, format)];
  for (const a of companions.animations) sources.push(await openSource({ bytes: a.bytes }, a.path, resources));
  return sources;
}

/**
 * The model of a result: the IQM read back, marked as IQE where the source was IQE text; or the
 * first error as one line `FILE: message [code] (at line L, column C)`, the file the one with errors.
 */
export function modelOfResult(result: CompileResult, format: FormatId, files: readonly string[]): CompiledModel {
  const error = result.diagnostics.find((d) => d.diagnostic.severity === 'error');
  if (error || !result.bytes) {
    const d = error?.diagnostic;
    const where = d ? ` (at line ${d.range.line + 1}, column ${d.range.column + 1})` : '';
    const file = files[error?.source ?? 0];
    return { ok: false, message: `${file}: ${d ? `${d.message} [${d.code}]` : `${FORMATS[format].label} does not compile`}${where}` };
  }
  const compiled = readModel(result.bytes);
  const iqe = format === 'iqe' || format === 'text';
  const model: Model = iqe ? { ...compiled, format: 'iqe', version: 0 } : compiled;
  const warnings = [...model.warnings];
  if (!iqe) warnings.unshift(`${FORMATS[format].label} source, shown as the IQM that iqm-tools compile makes of it`);
  const w = extensionWarning(fileNameOf(files[0]), format);
  if (w) warnings.unshift(w);
  const animations = files.slice(1).map((f) => fileNameOf(f));
  if (animations.length > 0) warnings.push(`with the animation files beside it: ${animations.join(', ')}`);
  return { ok: true, model, bytes: result.bytes, warnings, animations };
}

/** Compiles the source at `path` with its companions, in this thread, and reads the model back; `modelOnly`: see CompileOptions. */
export async function modelOfSource(path: string, bytes: Uint8Array, format: FormatId, companions: CompanionFiles, bounds?: BoundsProvider, options: Pick<CompileOptions, 'modelOnly'> = {}): Promise<CompiledModel> {
  const sources = await companionSources(path, bytes, companions, format);
  return modelOfResult(compile(sources, { ...modelOptions(format), ...options }, bounds), format, [path, ...companions.animations.map((a) => a.path)]);
}

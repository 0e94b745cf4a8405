// `iqm-tools convert` and `compile` in the test's own process: the functions the CLI runs
// (cli/convert.ts; core/formats: a source opened with its companions and compiled), without a
// node start per command. What the CLI adds around them (arguments, exit codes, atomic writes) is
// checked by one CLI run per output format (convert-gltf.test.ts's smoke test).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertInputs, convertToGltf, convertToIqe } from '../../cli/convert';
import { compile } from '../../core/compile/index';
import { companionSources, modelOfResult } from '../../core/formats/compiled';
import { openModel } from '../../core/formats/open';
import { nodeFileAccess } from '../../node/files';
import type { Model } from '../../core/model/model';

export interface Converted {
  /** The output file written into the folder (x.glb, x.gltf with its files beside it, x.iqe). */
  path: string;
  /** Its bytes (a .gltf: the JSON). */
  bytes: Uint8Array;
  /** What convert prints as notes and warnings (`--json`'s `warnings`). */
  warnings: string[];
}

/** `convert INPUTS -o DIR/x.EXT` (EXT: .glb, .gltf, .iqe) here; an error line is thrown. */
export async function convertHere(dir: string, inputs: string[], extension: '.glb' | '.gltf' | '.iqe'): Promise<Converted> {
  const loaded = await convertInputs(inputs, extension !== '.iqe');
  if ('error' in loaded) throw new Error(loaded.error);
  const path = join(dir, `x${extension}`);
  if (extension === '.iqe') {
    const iqe = convertToIqe(inputs, loaded.models, loaded.notes);
    if ('error' in iqe) throw new Error(iqe.error);
    const bytes = new TextEncoder().encode(iqe.text);
    writeFileSync(path, bytes);
    return { path, bytes, warnings: loaded.notes };
  }
  const gltf = await convertToGltf(inputs, loaded.models, extension === '.glb' ? 'glb' : 'gltf', 'x', loaded.notes);
  if ('error' in gltf) throw new Error(gltf.error);
  for (const r of gltf.result.resources) writeFileSync(join(dir, r.name), r.bytes);
  writeFileSync(path, gltf.result.bytes);
  return { path, bytes: gltf.result.bytes, warnings: loaded.notes };
}

/** `compile SOURCE` here, read back as a model (its companions read beside it); an error line is thrown. */
export async function compileHere(file: string): Promise<Model> {
  return (await compileSourceHere(file)).model;
}

/**
 * `compile SOURCE` here with the command's defaults (no -j: an IQE or SMD of joints and no mesh
 * writes none, as the reference compiler does), read back as a model, with the codes of the
 * compile's notes (warnings and information). An error line is thrown.
 */
export async function compileSourceHere(file: string): Promise<{ model: Model; codes: string[] }> {
  const opened = await openModel(file, nodeFileAccess);
  if (opened.kind !== 'source') throw new Error(`${file}: not a compile source (${opened.kind})`);
  const result = compile(await companionSources(file, opened.bytes, opened.companions, opened.format));
  const compiled = modelOfResult(result, opened.format, [file]);
  if (!compiled.ok) throw new Error(compiled.message);
  return { model: compiled.model, codes: result.diagnostics.map((d) => d.diagnostic.code) };
}

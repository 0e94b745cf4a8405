// `iqm-tools convert IN [ANIM ...] [-o OUT.iqe|FOLDER/] [--json]`: any model we read as IQE text
// that compiles back to the same model (core/iqe/writer.ts). IN is read by its magic bytes (IQM
// v1/v2, MD3, DPM, IQE: an IQE goes through the compile, so the output is the compiled model
// written out: smoothing resolved into normals, sections merged, weights renormalised); each
// ANIM adds its animations (an animation-only IQM or IQE whose poses match IN's joints). IN's clips
// are those its preview plays (core/lookup/clips.ts: `<IN>.framegroups`, animation.cfg for an MD3,
// else the model's own). Bad input: one line
// `file: what is wrong (at byte N)` and exit 2; the output is written atomically and never over
// an input.
import { basename, resolve } from 'node:path';
import { IqeWriteError, writeIqe } from '../core/iqe/writer';
import { clipsBeside, withClips } from '../core/lookup/clips';
import type { Model } from '../core/model/model';
import { sameFile, writeFileAtomically } from '../node/atomicWrite';
import { loadModel } from './info';
import { outputName } from '../core/formats/registry';
import { nodeFileAccess } from '../node/files';
import { outputExtensionProblem, outputInFolder } from './output';
import { writeStderr, writeStdout } from './write';

export const CONVERT_USAGE = [
  'usage: iqm-tools convert IN [ANIM ...] [-o OUT.iqe|FOLDER/] [--json]',
  '  IN: an IQM (v1, v2), MD3 (frame 0), DPM or IQE model, or a source the compiler reads (MD5, SMD, OBJ, glTF/GLB: as the IQM it compiles to); each ANIM: a model whose animations are added (its poses must match IN\'s joints).',
  '  Writes IQE text that `iqm-tools compile` turns back into the same model (default OUT: IN with .iqe).',
  '  What IQE cannot carry is printed as a warning on stderr.',
  '  --json: one JSON object on stdout: {output, warnings, stats}.',
].join('\n');

/** IN.ext -> IN.iqe (the registry's rule: a model's or source's extension replaced, another kept). */
function defaultOutput(input: string): string {
  return outputName(input, '.iqe');
}

/** Reads a model with the clips its preview plays (the sidecars beside it); a string is the one-line error. */
async function load(file: string, notes: string[], animationFiles: boolean): Promise<Model | string> {
  const loaded = await loadModel(file, 'compiled', animationFiles);
  if (!loaded.ok) return loaded.message;
  for (const w of loaded.warnings) notes.push(`${file}: warning: ${w}`);
  const found = await clipsBeside(nodeFileAccess, resolve(file), loaded.model);
  if (found.file) notes.push(`${file}: animations from ${found.file}`);
  for (const w of found.warnings) notes.push(`${file}: warning: ${w}`);
  return withClips(loaded.model, found);
}

export async function runConvert(args: string[]): Promise<number> {
  const inputs: string[] = [];
  let output: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(CONVERT_USAGE + '\n');
      return 0;
    }
    if (a === '--json') json = true;
    else if (a === '-o' || a === '--output') {
      if (i + 1 >= args.length) return usageError(`${a}: missing value`);
      output = args[++i];
    } else if (a.startsWith('-') && a !== '-') return usageError(`unknown option '${a}'`);
    else inputs.push(a);
  }
  if (inputs.length === 0) return usageError('no input file');
  const out = output === undefined ? defaultOutput(inputs[0]) : outputInFolder(output, defaultOutput(inputs[0]));
  // `convert model.iqe` (or -o naming an input) must not replace a source with its own conversion.
  const overwritten = inputs.find((path) => sameFile(path, out));
  if (overwritten) {
    process.stderr.write(`convert: the output ${out} is the input ${overwritten} (the same file); name another output with -o\n`);
    return 2;
  }
  // Until convert writes glTF, only an IQE name can hold what it writes.
  const misnamed = outputExtensionProblem(out, 'iqe');
  if (misnamed) {
    process.stderr.write(`convert: ${misnamed}${/\.(gltf|glb)$/i.test(out) ? ' (convert does not write glTF)' : ''}\n`);
    return 2;
  }

  const notes: string[] = [];
  const models: Model[] = [];
  for (const file of inputs) {
    // The animation files beside a source go with it unless animation inputs are given.
    const model = await load(file, notes, inputs.length === 1);
    if (typeof model === 'string') {
      process.stderr.write(model + '\n');
      return 2;
    }
    models.push(model);
  }
  let result;
  try {
    result = writeIqe(models[0], {
      label: basename(inputs[0]),
      animations: models.slice(1).map((model, i) => ({ label: basename(inputs[i + 1]), model })),
      comments: [`converted by iqm-tools from ${basename(inputs[0])} (${models[0].format.toUpperCase()})${inputs.length > 1 ? ` with the animations of ${inputs.slice(1).map((f) => basename(f)).join(', ')}` : ''}`],
    });
  } catch (error) {
    if (!(error instanceof IqeWriteError)) throw error;
    process.stderr.write(`${inputs[error.input]}: ${error.message}\n`);
    return 2;
  }
  for (const w of result.warnings) notes.push(`${inputs[0]}: warning: ${w}`);
  const bytes = Buffer.from(result.text, 'utf8');
  try {
    writeFileAtomically(out, bytes);
  } catch (error) {
    process.stderr.write(`${out}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 2;
  }
  const model = models[0];
  const stats = {
    meshes: model.meshes.length,
    vertices: model.meshes.reduce((n, m) => n + m.vertexCount, 0),
    triangles: model.meshes.reduce((n, m) => n + m.triangleCount, 0),
    joints: model.skeleton?.names.length ?? 0,
    animations: result.animations,
    bytes: bytes.byteLength,
  };
  if (json) writeStdout(JSON.stringify({ output: out, warnings: notes, stats }) + '\n');
  else {
    if (notes.length) writeStderr(notes.join('\n') + '\n');
    writeStdout(`${out}: ${stats.meshes} meshes, ${stats.vertices} vertices, ${stats.triangles} triangles, ${stats.joints} joints, ${stats.animations} animations, ${stats.bytes} bytes\n`);
  }
  return 0;
}

function usageError(message: string): number {
  process.stderr.write(`convert: ${message} (see iqm-tools convert --help)\n`);
  return 2;
}

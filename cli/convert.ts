// `iqm-tools convert IN [ANIM ...] [-o OUT.iqe|OUT.glb|OUT.gltf|FOLDER/] [--json]`: any model we
// read as IQE text that compiles back to the same model (core/iqe/writer.ts), or as glTF 2.0
// (core/gltf/writer.ts: skeleton, skin, clips, MD3 frames as morph targets, textures as the
// preview finds them, made PNG where they are TGA) that our glTF input compiles back to it. IN is read by its magic bytes (IQM
// v1/v2, MD3, DPM, IQE: an IQE goes through the compile, so the output is the compiled model
// written out: smoothing resolved into normals, sections merged, weights renormalised); each
// ANIM adds its animations (an animation-only IQM or IQE whose poses match IN's joints). IN's clips
// are those its preview plays (core/lookup/clips.ts: `<IN>.framegroups`, animation.cfg for an MD3,
// else the model's own). Bad input: one line
// `file: what is wrong (at byte N)` and exit 2; the output is written atomically and never over
// an input.
import { basename, dirname, join, resolve } from 'node:path';
import { textureExtensions } from '../core/engines/textures';
import { GltfWriteError, writeGltf, type GltfWriteResult } from '../core/gltf/writer';
import { writeGltfPlayer, type PlayerPartIn } from '../core/gltf/player';
import { PLAYER_PARTS, playerPart, readPlayerSet, type PlayerPart } from '../core/lookup/player';
import { statSync } from 'node:fs';
import { IqeWriteError, writeIqe } from '../core/iqe/writer';
import { gltfMaterials } from '../core/lookup/gltfTextures';
import { extensionOf } from '../core/paths';
import { clipsBeside, withClips } from '../core/lookup/clips';
import type { Model } from '../core/model/model';
import { sameFile, writeFileAtomically } from '../node/atomicWrite';
import { loadModel } from './info';
import { outputName } from '../core/formats/registry';
import { nodeFileAccess } from '../node/files';
import { outputExtensionProblem } from '../core/formats/outputName';
import { nodeDeflate } from '../node/deflate';
import { outputInFolder } from './output';
import { writeStderr, writeStdout } from './write';

export const CONVERT_USAGE = [
  'usage: iqm-tools convert IN [ANIM ...] [-o OUT.iqe|OUT.glb|OUT.gltf|FOLDER/] [--json]',
  '       iqm-tools convert PLAYER-FOLDER|lower.md3 upper.md3 head.md3 -o OUT.glb|OUT.gltf',
  '  IN: an IQM (v1, v2), MD3, DPM or IQE model, or a source the compiler reads (MD5, SMD, OBJ, glTF/GLB: as the IQM it compiles to); each ANIM: a model whose animations are added (its poses must match IN\'s joints).',
  '  OUT.iqe (the default: IN with .iqe): IQE text that `iqm-tools compile` turns back into the same model (MD3: frame 0).',
  '  OUT.glb / OUT.gltf: glTF 2.0 (Y-up) with the skeleton, one animation per clip, MD3 frames as morph targets and tags as nodes, each material\'s texture as the preview finds it (TGA made PNG); a .gltf writes OUT.bin and its images beside it.',
  '  A Quake 3 player (its folder, or its three parts): one glTF scene, upper on lower\'s tag_torso, head on upper\'s tag_head, animation.cfg\'s LEGS_* clips on lower, TORSO_* on upper, BOTH_* on both (as the preview assembles it).',
  '  What the output cannot carry is printed as a warning on stderr.',
  '  --json: one JSON object on stdout: {output, warnings, stats}.',
].join('\n');

/** IN.ext -> IN.iqe (the registry's rule: a model's or source's extension replaced, another kept). */
function defaultOutput(input: string): string {
  return outputName(input, '.iqe');
}

/**
 * Reads a model with the clips its preview plays (the sidecars beside it); a string is the one-line
 * error. `toGltf`: a source's compile leaves out the bounds and adjacency (glTF carries neither).
 */
async function load(file: string, notes: string[], animationFiles: boolean, toGltf: boolean): Promise<Model | string> {
  const loaded = await loadModel(file, 'compiled', animationFiles, undefined, { modelOnly: toGltf });
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
  const player = await playerInputs(inputs);
  if (typeof player === 'string') {
    process.stderr.write(`convert: ${player}\n`);
    return 2;
  }
  if (player) return convertPlayer(player, output, json);
  const out = output === undefined ? defaultOutput(inputs[0]) : outputInFolder(output, defaultOutput(inputs[0]));
  // `convert model.iqe` (or -o naming an input) must not replace a source with its own conversion.
  const overwritten = inputs.find((path) => sameFile(path, out));
  if (overwritten) {
    process.stderr.write(`convert: the output ${out} is the input ${overwritten} (the same file); name another output with -o\n`);
    return 2;
  }
  const ext = extensionOf(out);
  const container = ext === '.glb' ? 'glb' : ext === '.gltf' ? 'gltf' : null;
  const misnamed = container ? null : outputExtensionProblem(out, 'iqe');
  if (misnamed) {
    process.stderr.write(`convert: ${misnamed} (or .glb, .gltf for glTF)\n`);
    return 2;
  }

  const loaded = await convertInputs(inputs, container !== null);
  if ('error' in loaded) {
    process.stderr.write(loaded.error + '\n');
    return 2;
  }
  const { models, notes } = loaded;
  if (container) {
    const gltf = await convertToGltf(inputs, models, container, stemOf(out), notes);
    if ('error' in gltf) {
      process.stderr.write(gltf.error + '\n');
      return 2;
    }
    return writeGltfFiles(inputs, out, gltf.result, modelCounts([models[0]]), gltf.textures, notes, json);
  }
  const result = convertToIqe(inputs, models, notes);
  if ('error' in result) {
    process.stderr.write(result.error + '\n');
    return 2;
  }
  const bytes = Buffer.from(result.text, 'utf8');
  try {
    writeFileAtomically(out, bytes);
  } catch (error) {
    process.stderr.write(`${out}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 2;
  }
  const stats = { ...modelCounts([models[0]]), animations: result.animations, bytes: bytes.byteLength };
  if (json) writeStdout(JSON.stringify({ output: out, warnings: notes, stats }) + '\n');
  else {
    if (notes.length) writeStderr(notes.join('\n') + '\n');
    writeStdout(`${out}: ${stats.meshes} meshes, ${stats.vertices} vertices, ${stats.triangles} triangles, ${stats.joints} joints, ${stats.animations} animations, ${stats.bytes} bytes\n`);
  }
  return 0;
}

/**
 * The inputs as convert reads them (the first the model, the rest animation inputs), each with the
 * clips its preview plays; `notes` what it printed of them; the first error as one line. `toGltf`:
 * a source's compile leaves out what glTF does not carry (load).
 */
export async function convertInputs(inputs: readonly string[], toGltf: boolean): Promise<{ models: Model[]; notes: string[] } | { error: string }> {
  const notes: string[] = [];
  const models: Model[] = [];
  for (const file of inputs) {
    // The animation files beside a source go with it unless animation inputs are given.
    const model = await load(file, notes, inputs.length === 1, toGltf);
    if (typeof model === 'string') return { error: model };
    models.push(model);
  }
  return { models, notes };
}

/** The provenance line both outputs carry. */
function provenance(inputs: readonly string[], model: Model): string {
  return `converted by iqm-tools from ${basename(inputs[0])} (${model.format.toUpperCase()})${inputs.length > 1 ? ` with the animations of ${inputs.slice(1).map((f) => basename(f)).join(', ')}` : ''}`;
}

/** The IQE text of the loaded inputs (its warnings added to `notes`), or the error line naming the input. */
export function convertToIqe(inputs: readonly string[], models: readonly Model[], notes: string[]): { text: string; animations: number } | { error: string } {
  try {
    const result = writeIqe(models[0], {
      label: basename(inputs[0]),
      animations: models.slice(1).map((model, i) => ({ label: basename(inputs[i + 1]), model })),
      comments: [provenance(inputs, models[0])],
    });
    for (const w of result.warnings) notes.push(`${inputs[0]}: warning: ${w}`);
    return { text: result.text, animations: result.animations };
  } catch (error) {
    if (!(error instanceof IqeWriteError)) throw error;
    return { error: `${inputs[error.input]}: ${error.message}` };
  }
}

/**
 * The glTF of the loaded inputs: textures found and made PNG, the writer (`stem`: the output's
 * name without extension, for a .gltf's files); what it could not carry added to `notes`; or the
 * error line naming the input. Nothing is written.
 */
export async function convertToGltf(inputs: readonly string[], models: readonly Model[], container: 'glb' | 'gltf', stem: string, notes: string[]): Promise<{ result: GltfWriteResult; textures: number } | { error: string }> {
  const model = models[0];
  const found = await gltfMaterials(model, nodeFileAccess, resolve(inputs[0]), textureExtensions([]), nodeDeflate);
  for (const w of found.warnings) notes.push(`${inputs[0]}: ${w}`);
  let result;
  try {
    result = writeGltf(model, {
      container,
      stem,
      label: basename(inputs[0]),
      materials: found.materials,
      animations: models.slice(1).map((m, i) => ({ label: basename(inputs[i + 1]), model: m })),
      comments: [provenance(inputs, model)],
    });
  } catch (error) {
    if (!(error instanceof GltfWriteError)) throw error;
    return { error: `${inputs[error.input]}: ${error.message}` };
  }
  for (const w of result.warnings) notes.push(`${inputs[0]}: warning: ${w}`);
  return { result, textures: found.materials.filter((m) => m?.image).length };
}

/** OUT.glb -> OUT. */
function stemOf(out: string): string {
  return basename(out).slice(0, basename(out).length - extensionOf(out).length);
}

/** The glTF's files (those beside a .gltf first), each atomically, and what `convert` prints of them. */
function writeGltfFiles(inputs: string[], out: string, result: GltfWriteResult, counts: ReturnType<typeof modelCounts>, textures: number, notes: string[], json: boolean): number {
  const files = [...result.resources.map((r) => ({ path: join(dirname(out), r.name), bytes: r.bytes })), { path: out, bytes: result.bytes }];
  const overwritten = files.find((f) => inputs.some((i) => sameFile(i, f.path)));
  if (overwritten) {
    process.stderr.write(`convert: ${overwritten.path} would replace the input of the same name; name another output with -o\n`);
    return 2;
  }
  for (const f of files) {
    try {
      writeFileAtomically(f.path, f.bytes);
    } catch (error) {
      process.stderr.write(`${f.path}: cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return 2;
    }
  }
  const stats = { ...counts, animations: result.animations, textures, bytes: files.reduce((n, f) => n + f.bytes.byteLength, 0) };
  if (json) writeStdout(JSON.stringify({ output: out, files: files.map((f) => f.path), warnings: notes, stats }) + '\n');
  else {
    if (notes.length) writeStderr(notes.join('\n') + '\n');
    writeStdout(`${out}: ${stats.meshes} meshes, ${stats.vertices} vertices, ${stats.triangles} triangles, ${stats.joints} joints, ${stats.animations} animations, ${stats.textures} textures, ${stats.bytes} bytes${files.length > 1 ? ` in ${files.length} files` : ''}\n`);
  }
  return 0;
}

/** What `convert` prints of the model it wrote (both outputs, text and --json). */
function modelCounts(models: readonly Model[]): { meshes: number; vertices: number; triangles: number; joints: number } {
  const sum = (f: (m: Model) => number): number => models.reduce((n, m) => n + f(m), 0);
  return {
    meshes: sum((m) => m.meshes.length),
    vertices: sum((m) => m.meshes.reduce((n, mesh) => n + mesh.vertexCount, 0)),
    triangles: sum((m) => m.meshes.reduce((n, mesh) => n + mesh.triangleCount, 0)),
    joints: sum((m) => m.skeleton?.names.length ?? 0),
  };
}

function usageError(message: string): number {
  process.stderr.write(`convert: ${message} (see iqm-tools convert --help)\n`);
  return 2;
}

/**
 * The parts of a Quake 3 player when the inputs are one (its folder, holding lower, upper and
 * head.md3) or its three parts (any order); null for any other input; a string: what is missing.
 */
async function playerInputs(inputs: string[]): Promise<{ parts: Record<PlayerPart, string>; label: string } | string | null> {
  const isFolder = (path: string): boolean => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  };
  if (inputs.length === 1 && isFolder(inputs[0])) {
    const set = await readPlayerSet(nodeFileAccess, resolve(inputs[0]));
    const missing = PLAYER_PARTS.filter((p) => !set?.parts[p]);
    if (!set || missing.length) return `${inputs[0]}: a folder converts as a Quake 3 player, which needs lower.md3, upper.md3 and head.md3; ${missing.map((p) => `${p}.md3`).join(', ')} not found there`;
    return { parts: set.parts as Record<PlayerPart, string>, label: basename(resolve(inputs[0])) };
  }
  if (inputs.length !== 3) return null;
  const named = inputs.map((file) => ({ file, part: playerPart(basename(file)) }));
  if (!PLAYER_PARTS.every((p) => named.filter((n) => n.part === p).length === 1)) return null;
  const parts = Object.fromEntries(named.map((n) => [n.part, n.file])) as Record<PlayerPart, string>;
  return { parts, label: basename(dirname(resolve(parts.lower))) };
}

/** A Quake 3 player as one glTF scene (core/gltf/player.ts): each part read with its clips (animation.cfg) and textures (its skin). */
async function convertPlayer(player: { parts: Record<PlayerPart, string>; label: string }, output: string | undefined, json: boolean): Promise<number> {
  const out = output === undefined ? undefined : outputInFolder(output, `${player.label}.glb`);
  const ext = out === undefined ? '' : extensionOf(out);
  if (out === undefined || (ext !== '.glb' && ext !== '.gltf')) {
    process.stderr.write(`convert: a Quake 3 player converts to glTF only (one scene of its three parts): name the output with -o NAME.glb or NAME.gltf\n`);
    return 2;
  }
  const inputs = PLAYER_PARTS.map((p) => player.parts[p]);
  const overwritten = inputs.find((path) => sameFile(path, out));
  if (overwritten) {
    process.stderr.write(`convert: the output ${out} is the input ${overwritten} (the same file); name another output with -o\n`);
    return 2;
  }
  const made = await convertPlayerToGltf(player.parts, player.label, ext === '.glb' ? 'glb' : 'gltf', stemOf(out));
  if ('error' in made) {
    process.stderr.write(made.error + '\n');
    return 2;
  }
  return writeGltfFiles(inputs, out, made.result, modelCounts(made.models), made.textures, made.notes, json);
}

/**
 * A Quake 3 player as one glTF (core/gltf/player.ts): each part read with its clips (animation.cfg)
 * and textures (its skin); `notes` what convert prints of them; or the error line. Nothing is written.
 */
export async function convertPlayerToGltf(files: Record<PlayerPart, string>, label: string, container: 'glb' | 'gltf', stem: string): Promise<{ result: GltfWriteResult; models: Model[]; textures: number; notes: string[] } | { error: string }> {
  const inputs = PLAYER_PARTS.map((p) => files[p]);
  const notes: string[] = [];
  const parts = {} as Record<PlayerPart, PlayerPartIn>;
  const models: Model[] = [];
  for (const part of PLAYER_PARTS) {
    const file = files[part];
    const model = await load(file, notes, false, true);
    if (typeof model === 'string') return { error: model };
    const found = await gltfMaterials(model, nodeFileAccess, resolve(file), textureExtensions([]), nodeDeflate);
    for (const w of found.warnings) notes.push(`${file}: ${w}`);
    parts[part] = { model, label: basename(file), materials: found.materials };
    models.push(model);
  }
  let result: GltfWriteResult;
  try {
    result = writeGltfPlayer(parts, { container, stem, label, comments: [`converted by iqm-tools from the Quake 3 player ${label} (${inputs.map((f) => basename(f)).join(', ')})`] });
  } catch (error) {
    if (!(error instanceof GltfWriteError)) throw error;
    return { error: `${inputs[error.input]}: ${error.message}` };
  }
  for (const w of result.warnings) notes.push(`warning: ${w}`);
  const textures = PLAYER_PARTS.reduce((n, p) => n + (parts[p].materials?.filter((m) => m?.image).length ?? 0), 0);
  return { result, models, textures, notes };
}

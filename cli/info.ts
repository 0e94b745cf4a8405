// `iqm-tools info FILE [--json]` (../shared/docs/CLI.md): a summary of an IQM, MD3, DPM (or IQE)
// file, chosen by magic bytes. Errors: one line `file: what is wrong (at byte N)` and status 2.

import { IqeDocument } from '../core/iqe/document';
import { summarizeIqe } from '../core/iqe/summary';
import { compile, type CompileOptions, textIqeSource } from '../core/compile/index';
import { type IngestResult, ingestText } from '../core/compile/ingest';
import { takeVpOrder, withVpOrder } from '../core/compile/vpOrder';
import { COLLECT_BETWEEN_STEPS_FROM, fullCollector } from '../node/heap';
import { iqmToModel, readIqmDocument } from '../core/iqm/reader';
import { decodeText, ingestFile, readHead } from '../node/text';
import { nodeFileAccess } from '../node/files';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Clip, Model } from '../core/model/model';
import { modelOfResult, modelOfSource } from '../core/formats/compiled';
import { openModel } from '../core/formats/open';
import { detectFormat, extensionWarning, HEAD_BYTES } from '../core/formats/registry';
import { fileNameOf } from '../core/paths';
import { engineNames, parseEngineList } from '../core/engines/index';
import { formatLint, lintFile, lintJson } from './lint';
import { clipsBeside, type ModelClips } from '../core/lookup/clips';

/** What a sub-command needs from its input: the bytes, or the one-line error it should print. */
export type InfoModel = { ok: true; model: Model; warnings: string[] } | { ok: false; message: string };

/** Parses `FILE [--json]` plus any `--name value` options listed in `valued`. */
export function parseArgs(args: string[], valued: string[] = []): { file?: string; json: boolean; options: Map<string, string>; error?: string } {
  const options = new Map<string, string>();
  let file: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (valued.includes(a)) {
      if (i + 1 >= args.length) return { json, options, error: `${a} needs a value` };
      options.set(a, args[++i]);
    } else if (a.startsWith('--') && a.includes('=') && valued.includes(a.slice(0, a.indexOf('=')))) {
      options.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    } else if (a.startsWith('-') && a !== '-' && !/^-\d/.test(a)) return { json, options, error: `unknown option ${a}` };
    else if (file === undefined) file = a;
    else return { json, options, error: `unexpected argument ${a}` };
  }
  return { file, json, options };
}

/** A file that cannot be read, as the one-line error. */
function unreadable(file: string, e: unknown): InfoModel {
  const code = (e as { code?: string }).code;
  return { ok: false, message: `${file}: cannot read the file${code ? ` (${code})` : ''}` };
}

/**
 * The model of any file, as the preview shows it (core/formats open): a binary model as read; a
 * compile source (IQE, MD5, SMD, OBJ, glTF) as the IQM its compile makes, with the files that go
 * with it (an .md5mesh's animation files, an OBJ's .mtl, a glTF's buffers). Every failure is one
 * message line (`file: what is wrong (at byte N)`). With `iqeOrder: 'vp'` (sample) an IQE's
 * vertices are those of its `vp` lines, in their order, and the file is read in blocks (neither
 * its bytes nor its text held whole). `animationFiles: false` leaves out the animation files beside a
 * source (a caller that is given animation files of its own). `given`: the file's bytes, when the
 * caller has read them already. `compileOptions.modelOnly`: a source's compile leaves out what
 * only an IQM file carries (CompileOptions; convert to glTF).
 */
export async function loadModel(file: string, iqeOrder: 'compiled' | 'vp' = 'compiled', animationFiles = true, given?: Uint8Array, compileOptions: Pick<CompileOptions, 'modelOnly'> = {}): Promise<InfoModel> {
  let bytes: Uint8Array;
  try {
    if (iqeOrder === 'vp' && detectFormat(readHead(file), file) === 'iqe') {
      const ingested = ingestFile(file, true);
      // A collection between steps where their arrays are large (a few ms each).
      const collect = statSync(file).size >= COLLECT_BETWEEN_STEPS_FROM ? (fullCollector() ?? undefined) : undefined;
      return vpOrderModel(file, ingested, () => decodeText(readFileSync(file)), collect);
    }
    bytes = given ?? new Uint8Array(readFileSync(file));
  } catch (e) {
    return unreadable(file, e);
  }
  const opened = await openModel(file, nodeFileAccess, bytes);
  switch (opened.kind) {
    case 'failed':
      return { ok: false, message: `${file}: ${opened.message}${opened.offset !== null ? ` (at byte ${opened.offset})` : ''}` };
    case 'model':
      return { ok: true, model: opened.model, warnings: opened.warnings };
    case 'source': {
      const companions = animationFiles ? opened.companions : { ...opened.companions, animations: [] };
      const compiled = await modelOfSource(file, bytes, opened.format, companions, undefined, compileOptions);
      return compiled.ok ? { ok: true, model: compiled.model, warnings: compiled.warnings } : compiled;
    }
  }
}

/**
 * The model of an IQE text: what the compiler makes of it (weights: the 4 largest, renormalised;
 * meshes merged by (mesh, material); vertex-cache order), or with `iqeOrder: 'vp'` its skeleton
 * and animation with every vertex of a `vp` line, in their order (vpOrder.ts). A text with errors
 * is the first error as one message line.
 */
export function iqeModel(file: string, text: string, iqeOrder: 'compiled' | 'vp'): InfoModel {
  return iqeOrder === 'vp' ? vpOrderModel(file, ingestText(text), () => text) : compiledIqe(file, text);
}

/** What the compiler makes of IQE text (its first error as the message). */
function compiledIqe(file: string, text: string): InfoModel {
  return modelOfResult(compile([textIqeSource(text, file)]), 'iqe', [file]);
}

/**
 * The `vp`-order model (sample) of an ingested IQE: its vertices as read, and the skeleton and
 * animation as the compile writes them (a compile of those alone: the compiled vertices would be
 * replaced). `text` gives the whole text for the message of a file with errors. `collect` frees
 * each large array the steps drop before the next is made (takeVpOrder).
 */
function vpOrderModel(file: string, ingested: IngestResult, text: () => string, collect?: () => void): InfoModel {
  if (!ingested.ok) return compiledIqe(file, text());
  const vp = takeVpOrder(ingested.input, ingested.triangleCount, collect, ingested.skin);
  const result = compile([{ name: file, read: () => ({ model: ingested.input, diagnostics: [] }) }], { forceJoints: vp.forceJoints });
  if (!result.bytes) return compiledIqe(file, text());
  const compiled = iqmToModel(withVpOrder(readIqmDocument(result.bytes).document, vp.arrays, vp.vertexCount), []);
  const model = { ...compiled, format: 'iqe' as const, version: 0 };
  const warnings = [...model.warnings];
  const w = extensionWarning(fileNameOf(file), 'iqe');
  if (w) warnings.unshift(w);
  return { ok: true, model, warnings };
}

export interface InfoJson {
  format: string;
  version: number;
  meshes: { name: string; material: string; vertices: number; triangles: number }[];
  joints: { name: string; parent: number }[];
  animations: { name: string; first_frame: number; frames: number; framerate: number; loop: boolean }[];
  /** Where the animations come from: a sidecar's file name (`grunt.dpm.framegroups`, `animation.cfg`), or 'model'. */
  /** The clips the preview plays, where a sidecar beside the file decides them (core/lookup/clips.ts). */
  clips?: { name: string; first_frame: number; frames: number; framerate: number; loop: boolean }[];
  /** The file that gave `clips`. */
  clips_from?: string;
  frames: number;
  tags: string[];
  warnings: string[];
  winding: string;
  extensions?: { name: string; size: number }[];
}

/**
 * The CLI.md `info` object for a model (extra keys: winding, extensions, clips, clips_from).
 * `animations` are the file's own, as CLI.md has them (IQM anims, IQE animations; [] for MD3/DPM,
 * whose clips come from sidecars); where `clips` (core/lookup/clips.ts) come from a sidecar beside
 * the file, `clips` lists what the preview plays and `clips_from` names the file that gave them.
 */
export function infoJson(model: Model, warnings: string[], clips?: ModelClips): InfoJson {
  const out: InfoJson = {
    format: model.format,
    version: model.version,
    meshes: model.meshes.map((m) => ({ name: m.name, material: m.material, vertices: m.vertexCount, triangles: m.triangleCount })),
    joints: model.skeleton ? model.skeleton.names.map((name, i) => ({ name, parent: model.skeleton!.parents[i] })) : [],
    animations: (model.format === 'iqm' || model.format === 'iqe' ? model.clips : []).map(clipJson),
    ...(clips && clips.from !== 'model' && clips.file ? { clips: clips.clips.map(clipJson), clips_from: clips.file } : {}),
    frames: model.frameCount,
    tags: model.tags ? model.tags.names : [],
    warnings,
    winding: model.winding,
  };
  if (model.iqm) out.extensions = model.iqm.extensions.map((e) => ({ name: e.name, size: e.size }));
  return out;
}

function clipJson(c: Clip): NonNullable<InfoJson['clips']>[number] {
  return { name: c.name, first_frame: c.firstFrame, frames: c.frameCount, framerate: c.fps, loop: c.loop };
}

/** The human lines of the clips of `list`, under their `heading` line. */
function clipLines(heading: string, list: InfoJson['animations']): string[] {
  const lines = [heading];
  for (const a of list) {
    const frames = a.frames > 0 ? `frames ${a.first_frame}..${a.first_frame + a.frames - 1}` : 'no frames';
    lines.push(`  ${a.name}: ${frames}, ${a.framerate || 'unspecified'} fps${a.loop ? ', loop' : ''}`);
  }
  return lines;
}

/** The human lines of the meshes and joints, then (after `extra`) of the animations: the same for models and IQE text. */
function structureLines(info: InfoJson, extra: string[] = []): string[] {
  const lines = [`meshes: ${info.meshes.length}`];
  for (const m of info.meshes) lines.push(`  ${m.name || '(unnamed)'}  material ${m.material ? JSON.stringify(m.material) : '(none)'}  ${m.vertices} vertices, ${m.triangles} triangles`);
  lines.push(`joints: ${info.joints.length}`);
  for (const [i, j] of info.joints.entries()) lines.push(`  ${i} ${j.name}${j.parent >= 0 ? ` (parent ${j.parent})` : ''}`);
  lines.push(...extra, ...clipLines(`animations: ${info.animations.length}`, info.animations));
  // What the preview plays, where a sidecar decides it (a DPM's .framegroups, an MD3's animation.cfg).
  if (info.clips) lines.push(...clipLines(`clips: ${info.clips.length} (from ${info.clips_from})`, info.clips));
  return lines;
}

function human(file: string, info: InfoJson, model: Model): string {
  const lines = [`${file}: ${info.format.toUpperCase()} version ${info.version}, ${info.frames} frames, winding ${info.winding}, Z up`];
  lines.push(...structureLines(info, !model.skeleton && model.animation ? [`  (animation-only: ${model.animation.poseCount} poses, no joints)`] : []));
  if (info.tags.length) lines.push(`tags: ${info.tags.join(', ')}`);
  if (info.extensions?.length) lines.push(`extensions: ${info.extensions.map((e) => `${e.name} (${e.size} bytes)`).join(', ')}`);
  for (const w of info.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n') + '\n';
}

/**
 * `info` for IQE text: the document's own structure (core/iqe/summary.ts: meshes per `mesh`
 * command, joints, animations), and its error diagnostics as warnings, since a broken IQE still
 * has a structure worth showing.
 */
function iqeInfo(file: string, bytes: Uint8Array): InfoJson {
  const doc = new IqeDocument(decodeText(bytes));
  const summary = summarizeIqe(doc);
  const diagnostics = doc.diagnostics({ maxProblems: 20 });
  const warnings = diagnostics
    .filter((d) => d.severity === 'error' || d.code === 'too-many-problems')
    .map((d) => `line ${d.range.line + 1}: ${d.message} [${d.code}]`);
  const w = extensionWarning(fileNameOf(file), 'iqe');
  if (w) warnings.unshift(w);
  return { format: 'iqe', version: 0, ...summary, tags: [], warnings, winding: 'cw' };
}

export async function runInfo(args: string[]): Promise<number> {
  const parsed = parseArgs(args, ['--engine']);
  const engineArg = parsed.options.get('--engine');
  const engines = engineArg === undefined ? undefined : parseEngineList(engineArg);
  if (engines && (engines.unknown.length > 0 || engines.engines.length === 0)) parsed.error ??= `unknown engine ${engines.unknown.map((u) => `'${u}'`).join(', ') || "''"}; known: ${engineNames()}`;
  if (parsed.error || parsed.file === undefined) {
    process.stderr.write(`iqm-tools info: ${parsed.error ?? 'missing FILE'}\nusage: iqm-tools info FILE [--json] [--engine NAME[,NAME]]\n`);
    return 2;
  }
  const file = parsed.file;
  let head: Uint8Array | undefined;
  try {
    head = readFileSync(file);
  } catch {
    head = undefined; // loadModel reports it
  }
  // --engine: that engine's view of the model, as `lint` gives it (info still exits 0).
  const found = engines && head ? await lintFile(file, head, engines.engines) : undefined;
  const findings = found && 'findings' in found ? found.findings.map((finding) => ({ file, finding })) : [];
  const withEngines = <T extends object>(info: T) => (engines ? { ...info, engines: findings.map(lintJson) } : info);
  const engineLines = findings.map((r) => formatLint(r) + '\n').join('');
  if (head && detectFormat(head.subarray(0, HEAD_BYTES), file) === 'iqe') {
    const info = iqeInfo(file, head);
    if (parsed.json) process.stdout.write(JSON.stringify(withEngines(info)) + '\n');
    else {
      const lines = [`${file}: IQE, ${info.frames} frames, winding cw, Z up`, ...structureLines(info)];
      for (const w of info.warnings) lines.push(`warning: ${w}`);
      process.stdout.write(lines.join('\n') + '\n' + engineLines);
    }
    return 0;
  }
  const loaded = await loadModel(file, 'compiled', true, head);
  if (!loaded.ok) {
    process.stderr.write(loaded.message + '\n');
    return 2;
  }
  // The clips the preview plays: the sidecars beside the file decide (core/lookup/clips.ts).
  const clips = await clipsBeside(nodeFileAccess, resolve(file), loaded.model);
  const info = infoJson(loaded.model, [...loaded.warnings, ...clips.warnings], clips);
  process.stdout.write(parsed.json ? JSON.stringify(withEngines(info)) + '\n' : human(file, info, loaded.model) + engineLines);
  return 0;
}

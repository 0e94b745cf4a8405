// `iqm-tools lint FILE... --engine NAME[,NAME] [--json]`: what each engine would refuse or mangle
// in a model (core/engines). A folder, or a lower/upper/head.md3 next to an animation.cfg, is also
// checked as a Quake 3 player. Exit 2: bad arguments or a file that cannot be read as a model;
// 1: some engine refuses or mangles something; 0: only notes, or nothing.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkEngine } from '../core/engines/check';
import { factsFromModel, type TextureFacts } from '../core/engines/facts';
import { imageSize } from '../core/image/size';
import { engineNames, parseEngineList } from '../core/engines/index';
import { factsFromIqe } from '../core/engines/iqe';
import { checkPlayer } from '../core/engines/player';
import { playerPart, readPlayerInput, type PlayerInput } from '../core/lookup/player';
import { textureLookup } from '../core/lookup/textures';
import { folderOf } from '../core/paths';
import { nodeFileAccess } from '../node/files';
import { citeSource, type EngineFinding, type EngineProfile } from '../core/engines/types';
import { IqeDocument } from '../core/iqe/document';
import type { Model } from '../core/model/model';
import { readModel } from '../core/formats/models';
import { detectFormat } from '../core/formats/registry';
import { FormatError } from '../core/binary';
import { decodeText } from '../node/text';
import { quotedName } from '../core/names';

const usage = () => `usage: iqm-tools lint FILE... --engine NAME[,NAME] [--json]\nengines: ${engineNames()}`;

export interface LintResult {
  file: string;
  finding: EngineFinding;
}

/** Findings as printed by `--json` (one object per finding, with its file and the fact's source). */
export function lintJson(r: LintResult): Record<string, unknown> {
  const f = r.finding;
  return {
    file: r.file,
    engine: f.engine,
    code: f.code,
    severity: f.severity,
    message: f.message,
    location: f.location,
    fact: { text: f.fact.text, source: f.fact.source, cite: citeSource(f.fact.source) },
  };
}

function where(r: LintResult): string {
  const l = r.finding.location;
  const file = l.file && l.file !== basename(r.file) ? join(r.file, l.file) : r.file;
  if (l.line !== undefined) return `${file}:${l.line + 1}`;
  return file;
}

export function formatLint(r: LintResult): string {
  const f = r.finding;
  const at = f.location.byteOffset !== undefined ? ` (at byte ${f.location.byteOffset})` : '';
  return `${where(r)}: ${f.severity}: [${f.engine}] ${f.message} [${f.code}]${at}\n    ${f.fact.text} — ${citeSource(f.fact.source)}`;
}

/** The model of a binary file, or a one-line error. */
function readBinary(file: string, bytes: Uint8Array): { model: Model } | { error: string } {
  try {
    return { model: readModel(bytes) };
  } catch (e) {
    if (e instanceof FormatError) return { error: `${file}: ${e.message} (at byte ${e.offset})` };
    throw e;
  }
}

/** Engine findings for one model file (IQE text or a binary model). */
export async function lintFile(file: string, bytes: Uint8Array, engines: readonly EngineProfile[]): Promise<{ findings: EngineFinding[] } | { error: string }> {
  if (detectFormat(bytes, file) === 'iqe') {
    const facts = factsFromIqe(new IqeDocument(decodeText(bytes)));
    return { findings: engines.flatMap((e) => checkEngine(facts, e)) };
  }
  const read = readBinary(file, bytes);
  if ('error' in read) return read;
  const facts = factsFromModel(read.model, bytes);
  const findings: EngineFinding[] = [];
  for (const e of engines) {
    // Textures are looked up per engine: each has its own extensions.
    // A Quake 3 player part takes its textures from its .skin files, not from its shader names.
    const lookUp = e.textures && !(e.player && playerPart(basename(file)));
    const withTextures = lookUp ? { ...facts, textures: await textureFacts(file, read.model, e.textures!.extensions) } : facts;
    findings.push(...checkEngine(withTextures, e));
  }
  return { findings };
}

/**
 * The textures the meshes name, looked up as the engine would (core/lookup/textures.ts, the lookup
 * the preview and the sidecar checks ask): a shader of that name first, then the image from the
 * game's root, which is not known here: the model's folder and each folder above it are tried.
 */
async function textureFacts(file: string, model: Model, extensions: readonly string[]): Promise<TextureFacts[]> {
  const lookup = textureLookup(nodeFileAccess, folderOf(resolve(file)), extensions);
  const searched = `tried as a shader, then with ${extensions.map((e) => `.${e}`).join(', ')} from the model's folder upwards`;
  const out: TextureFacts[] = [];
  for (const [i, mesh] of model.meshes.entries()) {
    const name = mesh.material;
    if (!name) continue;
    const where = { what: `${model.format === 'md3' ? 'surface' : 'mesh'} ${i} ${quotedName(mesh.name)}`, mesh: i };
    const a = await lookup.texture(name);
    // Where the engine looks only: an image lying beside the model under another path is not found by it.
    let found: TextureFacts = { mesh: i, name, searched, where };
    if (a.found === 'engine' && a.path !== null) {
      const size = imageSize((await nodeFileAccess.readBytes(a.path)) ?? new Uint8Array(0));
      found = { ...found, path: a.candidate, width: size?.width, height: size?.height };
    } else if (a.shader) {
      // A shader of that name is what the engine draws, whatever its stages name (its script is checked on its own).
      found = { ...found, path: `shader ${quotedName(a.shader.name)}` };
    }
    out.push(found);
  }
  return out;
}

/** A Quake 3 player folder: the three parts (read when present), animation.cfg and the .skin files (core/lookup/player.ts). */
export async function readPlayerFolder(folder: string): Promise<PlayerInput> {
  return (await readPlayerInput(nodeFileAccess, resolve(folder))) ?? { parts: { lower: undefined, upper: undefined, head: undefined }, skins: [] };
}

/** Model files under a folder (its subfolders too), sorted. */
function modelFiles(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const p = join(folder, name);
    if (statSync(p).isDirectory()) out.push(...modelFiles(p));
    else if (/\.(iqm|iqe|md3|dpm)$/i.test(name)) out.push(p);
  }
  return out;
}

export async function runLint(args: string[]): Promise<number> {
  const files: string[] = [];
  let json = false;
  let engineArg: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--engine' || a === '-e') {
      if (i + 1 >= args.length) return usageError('--engine needs a value');
      engineArg = args[++i];
    } else if (a.startsWith('--engine=')) engineArg = a.slice('--engine='.length);
    else if (a === '-h' || a === '--help') {
      process.stdout.write(usage() + '\n');
      return 0;
    } else if (a.startsWith('-') && a !== '-') return usageError(`unknown option ${a}`);
    else files.push(a);
  }
  if (files.length === 0) return usageError('missing FILE');
  if (engineArg === undefined) return usageError('--engine is required');
  const { engines, unknown } = parseEngineList(engineArg);
  if (unknown.length > 0 || engines.length === 0) return usageError(`unknown engine ${unknown.map((u) => `'${u}'`).join(', ') || "''"}; known: ${engineNames()}`);

  const results: LintResult[] = [];
  const errors: string[] = [];
  const players = new Set<string>();
  for (const file of files) {
    let isDir = false;
    try {
      isDir = statSync(file).isDirectory();
    } catch (e) {
      errors.push(`${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      continue;
    }
    if (isDir) {
      const found = modelFiles(file);
      if (found.length === 0) errors.push(`${file}: no .iqm, .iqe, .md3 or .dpm file in this folder`);
      for (const f of found) {
        if (playerPart(basename(f))) players.add(dirname(f));
        await lintOne(f);
      }
      continue;
    }
    await lintOne(file);
    if (playerPart(basename(file))) {
      const folder = dirname(file);
      try {
        if (readdirSync(folder).some((n) => n.toLowerCase() === 'animation.cfg')) players.add(folder);
      } catch {
        // the folder cannot be listed: no player check
      }
    }
  }
  for (const folder of players) {
    const input = await readPlayerFolder(folder);
    for (const e of engines) for (const finding of checkPlayer(input, e)) results.push({ file: folder, finding });
  }

  async function lintOne(file: string): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(file));
    } catch (e) {
      errors.push(`${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      return;
    }
    const r = await lintFile(file, bytes, engines);
    if ('error' in r) errors.push(r.error);
    else for (const finding of r.findings) results.push({ file, finding });
  }

  for (const e of errors) process.stderr.write(e + '\n');
  if (json) process.stdout.write(JSON.stringify({ engines: engines.map((e) => e.id), findings: results.map(lintJson) }) + '\n');
  else if (results.length > 0) process.stdout.write(results.map(formatLint).join('\n') + '\n');
  if (errors.length > 0) return 2;
  return results.some((r) => r.finding.severity !== 'information') ? 1 : 0;
}

function usageError(message: string): number {
  process.stderr.write(`iqm-tools lint: ${message}\n${usage()}\n`);
  return 2;
}

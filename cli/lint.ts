// `iqm-tools lint FILE... --engine NAME[,NAME] [--json]`: what each engine would refuse or mangle
// in a model (core/engines). A folder, or a lower/upper/head.md3 next to an animation.cfg, is also
// checked as a Quake 3 player. Exit 2: bad arguments or a file that cannot be read as a model;
// 1: some engine refuses or mangles something; 0: only notes, or nothing.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkEngine } from '../core/engines/check';
import { factsFromModel, type TextureFacts } from '../core/engines/facts';
import { textureCandidates } from '../core/engines/textures';
import { imageSize } from '../core/image/size';
import { engineNames, parseEngineList } from '../core/engines/index';
import { factsFromIqe } from '../core/engines/iqe';
import { checkPlayer, PLAYER_PARTS, type PlayerInput } from '../core/engines/player';
import { citeSource, type EngineFinding, type EngineProfile } from '../core/engines/types';
import { IqeDocument } from '../core/iqe/document';
import type { Model } from '../core/model/model';
import { readModel } from '../core/formats/models';
import { detectFormat } from '../core/formats/registry';
import { FormatError } from '../core/binary';
import { decodeText } from '../node/text';

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
export function lintFile(file: string, bytes: Uint8Array, engines: readonly EngineProfile[]): { findings: EngineFinding[] } | { error: string } {
  if (detectFormat(bytes, file) === 'iqe') {
    const facts = factsFromIqe(new IqeDocument(decodeText(bytes)));
    return { findings: engines.flatMap((e) => checkEngine(facts, e)) };
  }
  const read = readBinary(file, bytes);
  if ('error' in read) return read;
  const facts = factsFromModel(read.model, bytes);
  return {
    findings: engines.flatMap((e) => {
      // Textures are looked up per engine: each has its own extensions.
      // A Quake 3 player part takes its textures from its .skin files, not from its shader names.
      const lookUp = e.textures && !(e.player && isPlayerPart(file));
      const withTextures = lookUp ? { ...facts, textures: textureFacts(file, read.model, e.textures!.extensions) } : facts;
      return checkEngine(withTextures, e);
    }),
  };
}

/**
 * The textures the meshes name, looked up as the engine would from the game's root. The root is
 * not known here: the names are tried from the model's folder and each folder above it.
 */
function textureFacts(file: string, model: Model, extensions: readonly string[]): TextureFacts[] {
  const folders: string[] = [];
  for (let d = dirname(resolve(file)), i = 0; i < 8; i++) {
    folders.push(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  const seen = new Map<string, TextureFacts>();
  return model.meshes.flatMap((mesh, i) => {
    const name = mesh.material;
    if (!name) return [];
    const where = { what: `${model.format === 'md3' ? 'surface' : 'mesh'} ${i} "${mesh.name}"`, mesh: i };
    const known = seen.get(name);
    if (known) return [{ ...known, mesh: i, where }];
    let found: TextureFacts = { mesh: i, name, searched: `tried with ${extensions.map((e) => `.${e}`).join(', ')} from the model's folder upwards`, where };
    search: for (const candidate of textureCandidates(name, extensions)) {
      for (const folder of folders) {
        const path = join(folder, candidate);
        let bytes: Uint8Array;
        try {
          if (!statSync(path).isFile()) continue;
          bytes = new Uint8Array(readFileSync(path));
        } catch {
          continue;
        }
        const size = imageSize(bytes);
        found = { ...found, path: candidate, width: size?.width, height: size?.height };
        break search;
      }
    }
    seen.set(name, found);
    return [found];
  });
}

/** A Quake 3 player folder: the three parts (read when present), animation.cfg and the .skin files. */
export function readPlayerFolder(folder: string): PlayerInput {
  const names = readdirSync(folder);
  const lower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const parts = {} as PlayerInput['parts'];
  for (const part of PLAYER_PARTS) {
    const name = lower.get(`${part}.md3`);
    let model: Model | undefined;
    if (name) {
      try {
        const read = readBinary(name, new Uint8Array(readFileSync(join(folder, name))));
        if ('model' in read) model = read.model;
      } catch {
        model = undefined;
      }
    }
    parts[part] = model;
  }
  const cfgName = lower.get('animation.cfg');
  const skins = names.filter((n) => /\.skin$/i.test(n)).map((n) => ({ file: n, text: readFileSync(join(folder, n), 'latin1') }));
  return { parts, animationCfg: cfgName ? readFileSync(join(folder, cfgName), 'latin1') : undefined, skins };
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

function isPlayerPart(file: string): boolean {
  return /^(lower|upper|head)\.md3$/i.test(basename(file));
}

export function runLint(args: string[]): number {
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
        if (isPlayerPart(f)) players.add(dirname(f));
        lintOne(f);
      }
      continue;
    }
    lintOne(file);
    if (isPlayerPart(file)) {
      const folder = dirname(file);
      try {
        if (readdirSync(folder).some((n) => n.toLowerCase() === 'animation.cfg')) players.add(folder);
      } catch {
        // the folder cannot be listed: no player check
      }
    }
  }
  for (const folder of players) {
    const input = readPlayerFolder(folder);
    for (const e of engines) for (const finding of checkPlayer(input, e)) results.push({ file: folder, finding });
  }

  function lintOne(file: string): void {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(file));
    } catch (e) {
      errors.push(`${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      return;
    }
    const r = lintFile(file, bytes, engines);
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

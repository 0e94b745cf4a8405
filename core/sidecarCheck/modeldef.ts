// A MODELDEF checked as GZDoom / UZDoom load it: every file it names resolved inside the mod's
// folder as the engine's file system resolves a lump's full name (case-insensitively, from the mod's
// root), the models read, and each sprite frame's model frame looked up. Shared by the language
// server and `iqm-tools check`; the I/O is injected (SidecarIo), so this stays pure.
//
// Engine rules, by where they are in the sources (see core/sidecar/modeldef.ts for the parser's):
// - ZDoom/gzdoom src/r_data/models.cpp @a36382cbcdbe1d6cd5a364c50e2ce635ff1811a7, ParseModelDefLump:
//   `Path` ends in `/` (one is added) and `\` become `/` (FixPathSeperator); `Model N file` and
//   `Animation N file` are FindModel(path, file); `Skin N file` and `SurfaceSkin N S file` are
//   LoadSkin(path, file); an index below 0 or at/after modelsAmount is a script error ("Too many
//   models"), as is a SurfaceSkin surface at/after MD3_MAX_SURFACES; `Frame` looks the name up with
//   the model's FindFrame and a name it does not find is a script error ("Unknown frame"), while a
//   Frame for an index with no model yet gives frame -1; FrameIndex takes the number as it is; each
//   frame letter pushes a copy of the definition as it is at that line (a Model line after it does
//   not reach it); the sprite is matched on its first 4 characters (strnicmp(..., 4)) and an unknown
//   one is a script error; frame letters are A..Z and the three after Z ([ \ ]), else a script error;
//   `#include` takes a full lump name (CheckNumForFullName(name, true): also a short lump name) and
//   a missing one is a script error; a found one is parsed there and then (ParseModelDefLump calls
//   itself, with no guard against a file that includes itself, directly or round a cycle), so its
//   definitions come before the includer's later ones.
// - ZDoom/gzdoom src/common/models/model.cpp @941c0850ba7c98663c55fa7b3b4a9d2b5657aeb3: FindModel (154-238)
//   looks up path+file by full name (no extension is tried) and picks the loader by the bytes:
//   IDP2 (MD2), IDP3 (MD3), INTERQUAKEMODEL (IQM), DMDM, `.obj`, `_d.3d`/`_a.3d`, else a KVX voxel,
//   else "Unknown model format"; LoadSkin/FindGFXFile (116-125, 89-107) try path+file as written, then with the
//   extension replaced by .png, .jpg, .tga, .pcx, then the bare name as a texture name.
// - IQM: IQMModel::Load refuses any version but 2; IQMModel::FindFrame takes `name` or
//   `name:offset`, matches the first animation whose name begins with `name` (strnicmp over the
//   length of `name`), and an offset at or past the animation's frames is "not found". MD3 and MD2:
//   FindFrame compares the frame names case-insensitively (models_iqm.cpp, models_md3.cpp,
//   models_md2.cpp under src/common/models/). FMD3Model::RenderFrame draws nothing for a frame at
//   or past the model's frames; IQMModel::CalculateBones (models_iqm.cpp @5de178b4) clamps it to
//   the last frame.

import type { IqeDiagnostic, Range, Severity } from '../iqe/diagnostic';
import { md2FrameNames } from '../md2/frames';
import { FolderListings, readText, searchFolders } from '../lookup/folders';
import { MAX_TEXTURE_PATH } from '../lookup/textures';
import { fileNameOf, folderOf, joinPath } from '../paths';
import { quotedName } from '../names';
import { isModeldefName, MD3_MAX_SURFACES, MIN_MODELS, parseModeldef, modeldefTokenRange, type ModeldefBlock, type ModeldefDialect, type ModeldefFile, type ModeldefInclude, type ModeldefStatement } from '../sidecar/modeldef';
import type { SidecarIo } from './check';
import type { ModelSummary } from './lint';

/** A model file a MODELDEF names, as resolved and read. */
export interface ModeldefModel {
  /** The absolute path found, or undefined where nothing is there. */
  path?: string;
  /** As the engine looks it up: Path + file name. */
  lookedUp: string;
  summary?: ModelSummary;
  /** MD2: the frame names (iqm-tools reads nothing else of an MD2). */
  md2Frames?: string[];
  /** Why the engine would not load it, or why it could not be read here. */
  error?: string;
}

/** What one place in the text refers to, for hover, go to definition and the ▶ code lens. */
export type ModeldefLink =
  | { kind: 'model' | 'animation'; range: Range; index: number; model: ModeldefModel }
  | { kind: 'skin'; range: Range; lookedUp: string; path?: string }
  | { kind: 'include'; range: Range; lookedUp: string; path?: string }
  | {
      kind: 'frame';
      /** The whole Frame / FrameIndex statement. */
      range: Range;
      /** Its model-frame argument. */
      frameRange: Range;
      sprite: string;
      letters: string;
      index: number;
      model: ModeldefModel;
      /** The model frame the engine shows (0-based). */
      frame: number;
      /** The IQM animation it is in, with the frame's offset in it. */
      clip?: { name: string; firstFrame: number; frameCount: number; offset: number };
    };

export interface ModeldefCheck {
  file: ModeldefFile;
  /** The engine the text was read as (iqmTools.engine: uzdoom, else gzdoom). */
  dialect: ModeldefDialect;
  /** The mod's root folder the names are resolved from. */
  root: string;
  diagnostics: IqeDiagnostic[];
  links: ModeldefLink[];
  /** Every model file found, then every file included (the server watches them). */
  modelPaths: string[];
  /** The files `#include`d (also through other included files), each checked once, with its own problems. */
  included: ModeldefIncluded[];
}

/** An included MODELDEF file and its problems (positions in that file). */
export interface ModeldefIncluded {
  path: string;
  diagnostics: IqeDiagnostic[];
}

const IMAGE_EXTENSIONS = ['.png', '.jpg', '.tga', '.pcx'];

/** FMD3Model::Load keeps 15 characters of an MD3 frame name (core/engines/gzdoom.ts, frameNameLength). */
const MD3_FRAME_NAME_KEPT = 15;

/** The MD2 header's num_glcmds (int32 at byte 36): FMD2Model::Load refuses 0 and below (core/engines/gzdoom.ts, glCommands). */
const MD2_GL_COMMANDS_AT = 36;

function diag(range: Range, severity: Severity, code: string, message: string): IqeDiagnostic {
  return { range, severity, code, message };
}

/**
 * The mod's root: the folder of a file named MODELDEF* (the engine reads that lump from the root);
 * for an `#include`d file, the nearest folder above it with a MODELDEF* file, else its own folder.
 */
export async function modRoot(path: string, io: Pick<SidecarIo, 'listFolder'>): Promise<string> {
  const dir = folderOf(path);
  if (isModeldefName(fileNameOf(path))) return dir;
  for (const folder of searchFolders(dir)) {
    const names = await io.listFolder(folder).catch(() => null);
    if (names?.some((n) => n.toLowerCase().startsWith('modeldef'))) return folder;
  }
  return dir;
}

/** Resolves lump full names under a root, ignoring case as the engine's file system does. */
class ModFiles {
  private readonly listings: FolderListings;
  constructor(
    readonly root: string,
    private readonly io: SidecarIo,
  ) {
    this.listings = new FolderListings(io);
  }

  /** The file at `name` (a /-separated full lump name) under the root, or undefined. */
  async find(name: string): Promise<string | undefined> {
    // No file system opens a longer path (core/lookup/textures.ts): not looked up.
    if (name.length > MAX_TEXTURE_PATH) return undefined;
    const parts = name.split('/').filter((p) => p !== '');
    if (parts.length === 0) return undefined;
    let dir = this.root;
    for (const part of parts) {
      const names = await this.listings.names(dir);
      const real = names?.get(part.toLowerCase());
      if (real === undefined) return undefined;
      dir = joinPath(dir, real);
    }
    return (await this.io.isFile(dir)) ? dir : undefined;
  }

  /** A short lump name (up to 8 characters, no folder): a root file whose name before its first dot is it. */
  async findShort(name: string): Promise<string | undefined> {
    if (name.includes('/') || name.length === 0 || name.length > 8) return undefined;
    const names = await this.listings.names(this.root);
    for (const [lowerName, real] of names ?? []) {
      if (lowerName.split('.')[0] === name.toLowerCase() && (await this.io.isFile(joinPath(this.root, real)))) return joinPath(this.root, real);
    }
    return undefined;
  }
}

/** FixPathSeperator: `\` to `/`. */
const fixSeparators = (s: string): string => s.replace(/\\/g, '/');

/** Checks the MODELDEF at `path` whose text is `text`, with the files it `#include`s, as `dialect`'s engine reads it. */
export async function checkModeldef(path: string, text: string, io: SidecarIo, dialect: ModeldefDialect = 'gzdoom'): Promise<ModeldefCheck> {
  const file = parseModeldef(text, dialect);
  const root = await modRoot(path, io);
  const mod = new ModCheck(root, io, dialect);
  const links: ModeldefLink[] = [];
  const diagnostics = await mod.checkFile(path, file, [path], links);
  const modelPaths: string[] = [];
  for (const m of mod.models.values()) {
    const read = await m;
    if (read.path !== undefined) modelPaths.push(read.path);
  }
  return { file, root, dialect, diagnostics, links, modelPaths: [...modelPaths, ...mod.included.keys()], included: [...mod.included.values()] };
}

/** A definition of an actor's sprite frame: where it is. */
interface Definition {
  path: string;
  line: number;
}

/** One MODELDEF's check with the files it includes: the mod's files, the models read, the frames defined so far. */
class ModCheck {
  readonly files: ModFiles;
  /** Models by their looked-up name (lower case), read once. */
  readonly models = new Map<string, Promise<ModeldefModel>>();
  /** The included files checked so far (each once), by path. */
  readonly included = new Map<string, ModeldefIncluded>();
  /** Sprite frames defined so far, in the engine's order: "actor|SPRT|letter" → the first definition. */
  private readonly defined = new Map<string, Definition>();
  private readonly where: string;

  /** The engine's name, for messages. */
  private readonly engine: string;

  constructor(
    readonly root: string,
    private readonly io: SidecarIo,
    private readonly dialect: ModeldefDialect,
  ) {
    this.engine = dialect === 'uzdoom' ? 'UZDoom' : 'GZDoom';
    this.files = new ModFiles(root, io);
    this.where = root === '/' ? 'the mod folder' : `the mod folder ${quotedName(fileNameOf(root))}`;
  }

  private loadModel(lookedUp: string): Promise<ModeldefModel> {
    const key = lookedUp.toLowerCase();
    let m = this.models.get(key);
    if (!m) {
      m = readModeldefModel(lookedUp, this.files, this.io);
      this.models.set(key, m);
    }
    return m;
  }

  /**
   * The problems of one file (`chain`: the files being read, the first the one opened, this one
   * last): its `Model` blocks and `#include`s in the engine's order (an included file is read where
   * its `#include` is). `links` (hover, lenses) are collected for the opened file only.
   */
  async checkFile(path: string, file: ModeldefFile, chain: readonly string[], links?: ModeldefLink[]): Promise<IqeDiagnostic[]> {
    const out: IqeDiagnostic[] = file.problems.map((p) => diag(p.range, p.severity, p.code, p.message));
    const items = [...file.includes.map((inc) => ({ at: inc.keyword, inc })), ...file.blocks.map((block) => ({ at: block.keyword, block }))].sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
    for (const item of items) {
      if ('inc' in item) await this.checkInclude(item.inc, chain, out, links);
      else await this.checkBlock(path, item.block, out, links);
    }
    return out.sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
  }

  /** An `#include`: the file found as the engine finds it, then read and checked in place (once; never round a cycle). */
  private async checkInclude(inc: ModeldefInclude, chain: readonly string[], out: IqeDiagnostic[], links?: ModeldefLink[]): Promise<void> {
    if (!inc.path) return;
    const range = modeldefTokenRange(inc.path);
    const name = fixSeparators(inc.path.text);
    const found = (await this.files.find(name)) ?? (await this.files.findShort(name));
    links?.push({ kind: 'include', range, lookedUp: name, path: found });
    if (!found) {
      // The engine's one exception (models.cpp: the Gene Tech mod's broken #include).
      if (inc.path.text !== 'sentinel.modl') out.push(diag(range, 'error', 'modeldef-include-not-found', `#include ${quotedName(inc.path.text)}: no such file in ${this.where} (names are full paths from the mod's root): GZDoom stops with "Lump not found".`));
      return;
    }
    const cycle = chain.findIndex((p) => p.toLowerCase() === found.toLowerCase());
    if (cycle >= 0) {
      const round = [...chain.slice(cycle), found].map((p) => this.relative(p)).join(' → ');
      out.push(diag(range, 'error', 'modeldef-include-cycle', `#include ${quotedName(inc.path.text)} includes a file that is being read already (${round}): GZDoom has no guard against this and includes it again and again until it runs out of stack.`));
      return;
    }
    if (this.included.has(found)) return;
    const text = await readText(this.io, found);
    const entry: ModeldefIncluded = { path: found, diagnostics: [] };
    this.included.set(found, entry);
    if (text === null) {
      out.push(diag(range, 'error', 'modeldef-include-not-found', `#include ${quotedName(inc.path.text)}: ${quotedName(this.relative(found))} cannot be read.`));
      return;
    }
    entry.diagnostics = await this.checkFile(found, parseModeldef(text, this.dialect), [...chain, found]);
    const shown = entry.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
    if (shown.length === 0) return;
    const worst = shown.some((d) => d.severity === 'error') ? 'error' : 'warning';
    const list = shown.slice(0, 3).map((d) => `line ${d.range.line + 1}: ${d.message.replace(/\.$/, '')}`).join('; ');
    out.push({
      ...diag(range, worst, 'modeldef-include-problems', `${quotedName(this.relative(found))} (included here, read by GZDoom at this line) has ${shown.length} problem${shown.length === 1 ? '' : 's'}: ${list}${shown.length > 3 ? `; and ${shown.length - 3} more` : ''}`),
      related: shown.slice(0, 20).map((d) => ({ path: found, range: d.range, message: d.message })),
    });
  }

  /** A path for messages: from the mod's root. */
  private relative(path: string): string {
    const prefix = this.root === '/' ? '/' : `${this.root}/`;
    return path.startsWith(prefix) ? path.slice(prefix.length) : path;
  }

  /** One `Model Actor { ... }` block of the file at `path`. */
  private async checkBlock(path: string, block: ModeldefBlock, out: IqeDiagnostic[], links?: ModeldefLink[]): Promise<void> {
    const actor = block.actor?.text ?? '';
    let folder = '';
    // The model (and animation) file of each slot as the statements so far set it.
    const slots = new Map<number, { model: ModeldefModel; line: number }>();
    const failedSlots = new Set<number>();
    // The Animation file of each slot (UZDoom finds Frame names in it).
    const animations = new Map<number, ModeldefModel>();
    for (const st of block.statements) {
      if (st.kind !== 'keyword') continue;
      const kw = st.tokens[0];
      const argRange = (k: number): Range => modeldefTokenRange(st.tokens[k] ?? kw);
      // ParseModelDefLump's index checks: "Model/Animation index must be 0 or greater" for those two
      // keywords, "Too many models" for an index at or past modelsAmount (and for a negative one elsewhere).
      const indexProblem = (index: number, at: number): boolean => {
        if (index >= 0 && index < block.modelsAmount) return false;
        const ownMessage = index < 0 && (st.keyword === 'model' || st.keyword === 'animation');
        const engine = ownMessage ? `${cap(st.keyword)} index must be 0 or greater` : 'Too many models';
        const why = index < 0 ? `Index ${index} is negative` : `Index ${index} is past this block's ${block.modelsAmount} model slots (its last "Model N" line gives N + 1, at least ${MIN_MODELS})`;
        out.push(diag(argRange(at), 'error', 'modeldef-index', `${why}: GZDoom stops with "${engine}" for ${quotedName(actor)}.`));
        return true;
      };
      if (st.keyword === 'path') {
        if (!st.complete) continue;
        folder = fixSeparators(String(st.values[0]));
        if (!folder.endsWith('/')) folder += '/';
        continue;
      }
      if (st.keyword === 'model' || st.keyword === 'animation') {
        if (!st.complete) continue;
        const index = Number(st.values[0]);
        if (indexProblem(index, 1)) continue;
        const nameToken = st.tokens[2];
        const lookedUp = normalizeLump(folder + fixSeparators(String(st.values[1])));
        const model = await this.loadModel(lookedUp);
        links?.push({ kind: st.keyword, range: modeldefTokenRange(nameToken), index, model });
        if (model.path === undefined) {
          out.push(diag(modeldefTokenRange(nameToken), 'error', 'modeldef-file-not-found', `${quotedName(lookedUp)} is not in ${this.where} (Path ${quotedName(folder)} + ${quotedName(String(st.values[1]))}, looked up as a full name, any case): GZDoom prints "${st.keyword === 'model' ? 'model' : 'animation model'} not found" and draws nothing for index ${index}.`));
        } else if (model.error !== undefined) {
          out.push(diag(modeldefTokenRange(nameToken), 'error', 'modeldef-model-unreadable', `${quotedName(fileNameOf(model.path))}: ${model.error}`));
        }
        if (st.keyword === 'animation') {
          if (model.path === undefined || model.error !== undefined) animations.delete(index);
          else animations.set(index, model);
        }
        if (st.keyword === 'model') {
          if (model.path === undefined || model.error !== undefined) {
            failedSlots.add(index);
            slots.delete(index);
          } else {
            failedSlots.delete(index);
            slots.set(index, { model, line: kw.line });
          }
        }
        continue;
      }
      if (st.keyword === 'skin' || st.keyword === 'surfaceskin') {
        if (!st.complete) continue;
        const index = Number(st.values[0]);
        const nameAt = st.keyword === 'skin' ? 2 : 3;
        if (indexProblem(index, 1)) continue;
        if (st.keyword === 'surfaceskin') {
          const surface = Number(st.values[1]);
          if (surface < 0 || surface >= MD3_MAX_SURFACES) {
            out.push(diag(argRange(2), 'error', 'modeldef-surface', `Surface ${surface}: SurfaceSkin takes surfaces 0–${MD3_MAX_SURFACES - 1} (MD3_MAX_SURFACES): GZDoom stops with "Invalid MD3 Surface".`));
            continue;
          }
          const slot = slots.get(index);
          const surfaces = slot?.model.summary?.surfaces;
          if (surfaces && surface >= surfaces.length) {
            out.push(diag(argRange(2), 'warning', 'modeldef-surface', `${quotedName(fileNameOf(slot.model.path ?? ''))} has ${surfaces.length} surface${surfaces.length === 1 ? '' : 's'} (0–${surfaces.length - 1}): this skin is never drawn.`));
          }
        }
        const raw = String(st.values[nameAt - 1]);
        if (raw === '') continue; // an empty name clears the skin
        const lookedUp = normalizeLump(folder + fixSeparators(raw));
        const found = await findSkin(lookedUp, this.files);
        links?.push({ kind: 'skin', range: modeldefTokenRange(st.tokens[nameAt]), lookedUp, path: found });
        if (found === undefined) {
          out.push(diag(modeldefTokenRange(st.tokens[nameAt]), 'warning', 'modeldef-skin-not-found', `No image ${quotedName(lookedUp)} in ${this.where} (nor with .png, .jpg, .tga or .pcx for its extension): GZDoom then takes a texture named ${quotedName(raw)} if the mod defines one, else prints "${st.keyword === 'skin' ? 'Skin' : 'Surface Skin'} … not found" and the model is drawn without it.`));
        }
        continue;
      }
      if (st.keyword === 'frame' || st.keyword === 'frameindex') {
        if (!st.complete) continue;
        const [sprite, letters] = [String(st.values[0]), String(st.values[1])];
        const index = Number(st.values[2]);
        const spriteFrame = quotedName(`${sprite.slice(0, 4).toUpperCase()} ${letters.toUpperCase()}`);
        if (sprite.length < 4) {
          out.push(diag(argRange(1), 'error', 'modeldef-sprite', `Sprite ${quotedName(sprite)}: sprite names have 4 characters and GZDoom compares the first 4, so no sprite matches: it stops with "Unknown sprite".`));
        } else if (sprite.length > 4) {
          out.push(diag(argRange(1), 'warning', 'modeldef-sprite', `Sprite ${quotedName(sprite)}: GZDoom reads only its first 4 characters (${quotedName(sprite.slice(0, 4))}).`));
        }
        const bad = [...letters].find((c) => c.toUpperCase().charCodeAt(0) - 65 < 0 || c.toUpperCase().charCodeAt(0) - 65 >= 29);
        if (bad !== undefined) {
          out.push(diag(argRange(2), 'error', 'modeldef-sprite', `Frame letter ${quotedName(bad)}: sprite frames are A–Z, [, \\ and ]: GZDoom stops with "Invalid frame character".`));
        }
        if (indexProblem(index, 3)) continue;
        const frameToken = st.tokens[4];
        const slot = slots.get(index);
        if (!slot) {
          // A model that failed to load has its own error on its line.
          if (!failedSlots.has(index)) {
            out.push(diag(argRange(3), 'warning', 'modeldef-model-unset', `Model index ${index} has no model at this line${modelLineAfter(block.statements, st, index)}: GZDoom draws nothing for it in ${spriteFrame} (a frame keeps the models given above it).`));
          }
        } else {
          // UZDoom looks a Frame's name up in the index's Animation file where one is given (ParseModelDefLump: `if (smf.animationIDs[index] >= 0) model = Models[smf.animationIDs[index]]`).
          const source = st.keyword === 'frame' && this.dialect === 'uzdoom' ? (animations.get(index) ?? slot.model) : slot.model;
          const resolved = st.keyword === 'frame' ? findFrame(source, String(st.values[3])) : { frame: Number(st.values[3]) };
          const count = frameCountOf(source);
          const name = quotedName(fileNameOf(source.path ?? ''));
          if (resolved === null) {
            out.push(diag(modeldefTokenRange(frameToken), 'error', 'modeldef-frame-unknown', `${name} has no frame ${quotedName(String(st.values[3]))} (${frameNamesHint(source)}): ${this.engine} stops with "Unknown frame" for ${quotedName(actor)}.`));
          } else if (resolved !== undefined && count !== undefined && (resolved.frame < 0 || resolved.frame >= count)) {
            const engine = source.summary?.format === 'iqm' ? `${this.engine} shows its last frame instead for ${spriteFrame} (IQMModel::CalculateBones clamps it)` : `${this.engine} draws no model for ${spriteFrame}`;
            out.push(diag(modeldefTokenRange(frameToken), 'error', 'modeldef-frame-index', `Frame ${resolved.frame} is past ${name}'s ${count} frame${count === 1 ? '' : 's'} (0–${count - 1}): ${engine}.`));
          } else if (resolved !== undefined) {
            links?.push({ kind: 'frame', range: modeldefTokenRange(kw, st.tokens[st.tokens.length - 1]), frameRange: modeldefTokenRange(frameToken), sprite, letters, index, model: source, frame: resolved.frame, clip: clipOf(source, resolved.frame) });
            if (resolved.prefixOf !== undefined) {
              out.push(diag(modeldefTokenRange(frameToken), 'information', 'modeldef-frame-prefix', `${quotedName(String(st.values[3]).split(':')[0])} is matched to the animation ${quotedName(resolved.prefixOf)} by its first letters (${this.engine} takes the first animation whose name begins so).`));
            }
          }
        }
        for (const c of new Set(letters.toUpperCase())) {
          const key = `${actor.toLowerCase()}|${sprite.slice(0, 4).toUpperCase()}|${c}`;
          const first = this.defined.get(key);
          if (first === undefined) this.defined.set(key, { path, line: kw.line });
          else if (first.path !== path || first.line !== kw.line) {
            const there = first.path === path ? `on line ${first.line + 1}` : `in ${quotedName(this.relative(first.path))}, line ${first.line + 1}`;
            out.push({
              ...diag(argRange(2), 'warning', 'modeldef-duplicate', `${quotedName(`${actor} ${sprite.slice(0, 4).toUpperCase()} ${c}`)} is already defined ${there}: GZDoom uses this later definition and ignores that one.`),
              related: [{ ...(first.path === path ? {} : { path: first.path }), range: { line: first.line, column: 0, endLine: first.line, endColumn: 0 }, message: 'the earlier definition' }],
            });
          }
        }
      }
    }
  }
}

const cap = (s: string): string => s[0].toUpperCase() + s.slice(1);

/** Lump full names have no `./` or doubled `/`. */
function normalizeLump(name: string): string {
  return name.replace(/\/{2,}/g, '/').replace(/^\//, '');
}

/** ` (Model N is given on line L, below)` when a later line of the block sets that index. */
function modelLineAfter(statements: readonly ModeldefStatement[], st: ModeldefStatement, index: number): string {
  const later = statements.slice(statements.indexOf(st) + 1).find((s) => s.keyword === 'model' && s.complete && Number(s.values[0]) === index);
  return later ? ` (Model ${index} is given on line ${later.tokens[0].line + 1}, below)` : ` (no "Model ${index}" line in this block)`;
}

/** LoadSkin's file lookup: the name as written, then with its extension replaced by each image extension. */
async function findSkin(lookedUp: string, files: ModFiles): Promise<string | undefined> {
  const exact = await files.find(lookedUp);
  if (exact) return exact;
  const dot = lookedUp.lastIndexOf('.');
  const base = dot > lookedUp.lastIndexOf('/') ? lookedUp.slice(0, dot) : lookedUp;
  // FindGFXFile keeps the last one found in its order (the highest lump number); in one folder that is the last extension present.
  let best: string | undefined;
  for (const ext of IMAGE_EXTENSIONS) best = (await files.find(base + ext)) ?? best;
  return best;
}

/** Reads a model as FindModel would: found by full name, its loader chosen by its bytes. */
async function readModeldefModel(lookedUp: string, files: ModFiles, io: SidecarIo): Promise<ModeldefModel> {
  const path = await files.find(lookedUp);
  if (path === undefined) return { lookedUp };
  const lowerName = lookedUp.toLowerCase();
  // Formats GZDoom loads that iqm-tools does not read: frames are not checked.
  if (lowerName.endsWith('.obj') || lowerName.endsWith('_d.3d') || lowerName.endsWith('_a.3d')) return { path, lookedUp };
  const bytes = await io.readBytes(path);
  if (bytes === null) return { path, lookedUp, error: 'the file cannot be read' };
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic === 'IDP2') {
    const md2 = md2FrameNames(bytes);
    if (!('names' in md2)) return { path, lookedUp, error: `${md2.error}: GZDoom's MD2 loader fails ("file too short") and the model is not found.` };
    const glCommands = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(MD2_GL_COMMANDS_AT, true);
    if (glCommands <= 0) return { path, lookedUp, md2Frames: md2.names, error: `the MD2 header's num_glcmds is ${glCommands} (byte ${MD2_GL_COMMANDS_AT}): GZDoom refuses it ("invalid NumGLCommands") and the model is not found.` };
    return { path, lookedUp, md2Frames: md2.names };
  }
  if (magic === 'DMDM') return { path, lookedUp };
  const read = await io.model(path);
  if (read === null) return { lookedUp };
  if ('error' in read) {
    return magic === 'IDP3' || String.fromCharCode(...bytes.subarray(0, 15)) === 'INTERQUAKEMODEL' ? { path, lookedUp, error: `${read.error}: GZDoom's loader fails on it and the model is not found.` } : { path, lookedUp, error: `not a model GZDoom loads (it takes IQM, MD3, MD2, DMD, OBJ, Unreal 3D and KVX voxels): it prints "LoadModel: Unknown model format"; iqm-tools: ${read.error}.` };
  }
  const summary = read.summary;
  if (summary.format === 'iqm' && summary.version !== 2) return { path, lookedUp, summary, error: `an IQM of version ${summary.version}: GZDoom loads version 2 only (IQMModel::Load) and the model is not found.` };
  if (summary.format !== 'iqm' && summary.format !== 'md3') return { path, lookedUp, summary, error: `${summary.format?.toUpperCase() ?? 'this format'} is not a model GZDoom loads (it takes IQM, MD3, MD2, DMD, OBJ, Unreal 3D and KVX voxels): it prints "LoadModel: Unknown model format".` };
  return { path, lookedUp, summary };
}

/** The model's frame count where iqm-tools knows it. */
function frameCountOf(model: ModeldefModel): number | undefined {
  if (model.md2Frames) return model.md2Frames.length;
  return model.summary?.frameCount;
}

/**
 * The model's FindFrame: the frame a `Frame` name gives, null when the engine finds none, undefined
 * when iqm-tools cannot tell (a format it does not read). `prefixOf`: the IQM animation matched by
 * its first letters only.
 */
export function findFrame(model: ModeldefModel, name: string): { frame: number; prefixOf?: string } | null | undefined {
  const names = model.md2Frames ?? (model.summary?.format === 'md3' ? model.summary.frameNames?.map((n) => n.slice(0, MD3_FRAME_NAME_KEPT)) : undefined);
  if (names) {
    const i = names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
    return i < 0 ? null : { frame: i };
  }
  if (model.summary?.format !== 'iqm') return undefined;
  const colon = name.lastIndexOf(':');
  const prefix = (colon < 0 ? name : name.slice(0, colon)).toLowerCase();
  const clip = (model.summary.clips ?? []).find((c) => c.name.length >= prefix.length && c.name.slice(0, prefix.length).toLowerCase() === prefix);
  if (!clip) return null;
  const prefixOf = clip.name.toLowerCase() === prefix ? undefined : clip.name;
  if (colon < 0) return { frame: clip.firstFrame, prefixOf };
  const offset = atoi(name.slice(colon + 1));
  // Read into an unsigned: a negative offset is past every animation.
  if (offset < 0 || offset >= clip.frameCount) return null;
  return { frame: clip.firstFrame + offset, prefixOf };
}

/** C's atoi: leading spaces, a sign, digits; 0 when there are none. */
function atoi(s: string): number {
  const m = /^\s*([+-]?\d+)/.exec(s);
  return m ? parseInt(m[1], 10) : 0;
}

/** The IQM animation a frame is in. */
function clipOf(model: ModeldefModel, frame: number): { name: string; firstFrame: number; frameCount: number; offset: number } | undefined {
  const clip = model.summary?.format === 'iqm' ? model.summary.clips?.find((c) => frame >= c.firstFrame && frame < c.firstFrame + c.frameCount) : undefined;
  return clip ? { name: clip.name, firstFrame: clip.firstFrame, frameCount: clip.frameCount, offset: frame - clip.firstFrame } : undefined;
}

/** For messages: the names a Frame may use. */
function frameNamesHint(model: ModeldefModel): string {
  if (model.summary?.format === 'iqm') {
    const clips = model.summary.clips ?? [];
    if (clips.length === 0) return 'it has no named animations';
    const shown = clips.slice(0, 6).map((c) => `${quotedName(c.name)} (${c.frameCount} frame${c.frameCount === 1 ? '' : 's'})`);
    return `its animations: ${shown.join(', ')}${clips.length > 6 ? ` and ${clips.length - 6} more` : ''}; "name:N" is frame N of one`;
  }
  const names = model.md2Frames ?? model.summary?.frameNames ?? [];
  return `its frames: ${names.slice(0, 6).map((n) => quotedName(n)).join(', ')}${names.length > 6 ? ` and ${names.length - 6} more` : ''}`;
}

/** The link at a position (hover, definition), innermost first. */
export function modeldefLinkAt(check: ModeldefCheck, line: number, character: number): ModeldefLink | undefined {
  const inside = (r: Range): boolean => (r.line < line || (r.line === line && r.column <= character)) && (r.endLine > line || (r.endLine === line && character <= r.endColumn));
  return check.links.find((l) => l.kind !== 'frame' && inside(l.range)) ?? check.links.find((l) => l.kind === 'frame' && inside(l.frameRange)) ?? check.links.find((l) => inside(l.range));
}


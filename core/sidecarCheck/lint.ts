// Diagnostics for the files beside a model (.framegroups, animation.cfg, .skin, Q3 .shader), as
// the language server and `iqm-tools check` report them. Two steps, both pure: `readSidecar` parses
// the text and says which texture paths need looking up; the caller finds the model(s) beside the
// file (companions.ts) and checks which texture candidates exist; `lintSidecar` then compares.
// Positions: 0-based lines, UTF-16 columns, ends exclusive (the IQE diagnostics' convention).

import type { IqeDiagnostic, Range, Severity } from '../iqe/diagnostic';
import type { Clip, Model } from '../model/model';
import { animCfgParts, FPS_WARNING, parseAnimCfg, type AnimCfgEntry } from '../sidecar/animcfg';
import type { SidecarKind } from '../lookup/companions';
import { folderOf } from '../paths';
import { MAX_TEXTURE_PATH, texturePathTooLong } from '../lookup/textures';
import { DEFAULT_FRAMEGROUPS_FPS, readFramegroups } from '../sidecar/framegroups';
import { parseShaders } from '../sidecar/shader';
import { parseSkin, type SkinEntry } from '../sidecar/skin';
import { fpsProblem, lines, MAX_SIDECAR_FPS, playableFps, type SidecarToken } from '../sidecar/text';
import { quotedName } from '../names';

/** How a sidecar is read where engines differ. */
export interface SidecarOptions {
  /** animation.cfg: 'quake3' names the animations by position as Quake 3 does (core/engines/player.ts animCfgNames); 'auto' takes a game's own list from its comments. */
  animCfgNames?: 'auto' | 'quake3';
}

/** What the checks need of a model. */
export interface ModelSummary {
  /** File name (for messages), e.g. `grunt.dpm`. */
  file: string;
  frameCount: number;
  /** Mesh / surface names, in file order. */
  surfaces: string[];
  /** Each mesh's material (MD3: first shader name; DPM: shader name). */
  materials: string[];
  tags: string[];
  /** What the MODELDEF check needs: the format and version (GZDoom loads IQM 2 only), the file's own clips (IQM animations) and frame names (MD3). */
  format?: Model['format'];
  version?: number;
  clips?: readonly Clip[];
  frameNames?: readonly string[];
}

export function summarizeModel(file: string, model: Model): ModelSummary {
  return {
    file,
    frameCount: model.frameCount,
    surfaces: model.meshes.map((m) => m.name),
    materials: model.meshes.map((m) => m.material),
    tags: model.tags?.names ?? [],
    format: model.format,
    version: model.version,
    clips: model.clips,
    frameNames: model.frameNames,
  };
}

/** The model a sidecar was paired with: found and read, unreadable (with the reader's error), or missing. */
export type CompanionResult =
  | { part?: 'lower' | 'upper' | 'head'; state: 'read'; model: ModelSummary }
  | { part?: 'lower' | 'upper' | 'head'; state: 'unreadable'; file: string; error: string }
  | { part?: 'lower' | 'upper' | 'head'; state: 'missing'; tried: string[] };

/** One playable clip of the file, for hover and the "▶ Play" code lens. */
export interface SidecarClip {
  name: string;
  /** Index among the file's clips (the order the preview lists them in). */
  index: number;
  /** The line's words that define it. */
  range: Range;
  /** As the engine plays it (LEGS_* already lowered by the legs offset). */
  firstFrame: number;
  frameCount: number;
  /** As the engine uses it (framegroups: 20 when absent, at least 1; animation.cfg: 0 means 1). */
  fps: number;
  loop: boolean;
  reverse: boolean;
  /** Written with no frames (reported as such; left out of the range and overlap checks). */
  empty: boolean;
  /** The first frame as written when the engine changes it (animation.cfg LEGS_*). */
  writtenFirst?: number;
  /** Which player parts it plays on (animation.cfg), else undefined. */
  parts?: ('lower' | 'upper')[];
}

/** A texture path the file names, to be looked up by the caller. */
export interface TextureRef {
  path: string;
  range: Range;
  /** For messages: `surface "h_face"`, `shader "x/y" (map)`. */
  what: string;
  /** A skin's texture may name a shader (tried first by the engine); a shader stage names an image. */
  mayBeShader: boolean;
}

/** A surface or tag name a .skin gives, checked against the model. */
interface SurfaceRef {
  name: string;
  range: Range;
  tag: boolean;
}

export interface SidecarDocument {
  kind: SidecarKind;
  clips: SidecarClip[];
  textures: TextureRef[];
  surfaces: SurfaceRef[];
  /** Problems of the text alone (syntax, fps, empty ranges). */
  diagnostics: IqeDiagnostic[];
  /** animation.cfg: first(LEGS_WALKCR) - first(TORSO_GESTURE). */
  legsOffset: number;
  /** Internal: clip index → the part of the text to point at for frame problems. */
  frameRanges: Range[];
}

/** What became of a texture path: found where the engine looks, found only beside the file, or nowhere. */
export type TextureLookupResult =
  | { state: 'found'; path: string }
  /** A shader of that name in a shader script (the engine tries shaders before images). */
  | { state: 'shader'; file: string }
  | { state: 'beside'; path: string }
  | { state: 'missing'; tried: number; extensions: readonly string[]; shaderFiles: number };

const span = (t: SidecarToken, u: SidecarToken = t): Range => ({ line: t.line, column: t.start, endLine: u.line, endColumn: u.end });
const lineRange = (line: number, start: number, end: number): Range => ({ line, column: start, endLine: line, endColumn: end });
const FILE_START: Range = { line: 0, column: 0, endLine: 0, endColumn: 0 };

function diag(range: Range, severity: Severity, code: string, message: string): IqeDiagnostic {
  return { range, severity, code, message };
}

export function readSidecar(kind: SidecarKind, text: string, options: SidecarOptions = {}): SidecarDocument {
  const doc: SidecarDocument = { kind, clips: [], textures: [], surfaces: [], diagnostics: [], legsOffset: 0, frameRanges: [] };
  switch (kind) {
    case 'framegroups':
      readFramegroupsDoc(text, doc);
      break;
    case 'animcfg':
      readAnimCfgDoc(text, doc, options.animCfgNames ?? 'auto');
      break;
    case 'skin':
      readSkinDoc(text, doc);
      break;
    case 'shader':
      readShaderDoc(text, doc);
      break;
  }
  return doc;
}

function readFramegroupsDoc(text: string, doc: SidecarDocument): void {
  const { entries, bad } = readFramegroups(text);
  for (const b of bad) {
    doc.diagnostics.push(diag(span(b.tokens[0], b.tokens[b.tokens.length - 1]), 'error', 'sidecar-syntax', 'Expected "first count [fps] [loop] [name]": the first two words must be numbers (DarkPlaces stops reading the file here).'));
  }
  entries.forEach((e, index) => {
    const [first, count, fps] = e.tokens;
    if (e.count < 1) doc.diagnostics.push(diag(span(count), 'warning', 'frame-range-empty', `An empty range (${e.count} frames): DarkPlaces plays 1 frame instead.`));
    if (e.first < 0) doc.diagnostics.push(diag(span(first), 'warning', 'frame-range', `First frame ${e.first} is negative: DarkPlaces uses frame 0.`));
    const unplayable = e.fps !== undefined && !playableFps(e.fps);
    if (unplayable) doc.diagnostics.push(diag(span(fps), 'error', 'fps-invalid', `Frame rate ${fps.text} is ${fpsProblem(e.fps as number)}: no clip plays so; the preview and conversions use 20 (DarkPlaces' default).`));
    else if (e.fps !== undefined && e.fps <= 0) doc.diagnostics.push(diag(span(fps), 'warning', 'fps-invalid', `Frame rate ${fps.text} is not above 0: DarkPlaces plays it at 1 frame per second.`));
    else if (e.fps === undefined && fps !== undefined) doc.diagnostics.push(diag(span(fps), 'warning', 'fps-invalid', `${quotedName(fps.text)} is not a number: DarkPlaces reads it as 0 and plays the clip at 1 frame per second.`));
    const range = span(first, count);
    doc.clips.push({ name: e.name, index, range: span(e.tokens[0], e.tokens[e.tokens.length - 1]), firstFrame: Math.max(0, e.first), frameCount: Math.max(1, e.count), fps: unplayable ? DEFAULT_FRAMEGROUPS_FPS : Math.max(1, e.fps ?? DEFAULT_FRAMEGROUPS_FPS), loop: e.loop, reverse: false, empty: e.count < 1 });
    doc.frameRanges.push(range);
  });
}

function readAnimCfgDoc(text: string, doc: SidecarDocument, names: 'auto' | 'quake3'): void {
  const cfg = parseAnimCfg(text, { names });
  doc.legsOffset = cfg.legsOffset;
  if (cfg.names === 'comments') {
    const first = cfg.entries[0].tokens;
    doc.diagnostics.push(diag(span(first[0], first[3]), 'information', 'animcfg-own-list', `${cfg.entries.length} animations named by their comments (${cfg.entries.slice(0, 3).map((e) => e.name).join(', ')}, …): a game's own list, not Quake 3's 25. With iqmTools.engine set to ioquake3 or quake3 it is checked as Quake 3 reads it, by position.`));
  }
  cfg.warnings.forEach((w, i) => {
    const at = cfg.warningAt[i];
    const range = at ? span(at) : FILE_START;
    if (FPS_WARNING.test(w)) return; // at its animation, below
    if (w.startsWith('unknown keyword')) doc.diagnostics.push(diag(range, 'warning', 'sidecar-syntax', `${w[0].toUpperCase()}${w.slice(1)}: Quake 3 ignores it (known: sex, footsteps, headoffset, fixedlegs, fixedtorso).`));
    else if (w.includes('required animations')) doc.diagnostics.push(diag(range, 'error', 'animcfg-incomplete', `Only ${cfg.entries.length} of the 25 animations up to LEGS_TURN: Quake 3 refuses the player model (CG_ParseAnimationFile).`));
    else doc.diagnostics.push(diag(range, 'error', 'sidecar-syntax', `${w[0].toUpperCase()}${w.slice(1)} ("first numFrames loopFrames fps").`));
  });
  cfg.entries.forEach((e: AnimCfgEntry, index) => {
    const [first, count, , fps] = e.tokens;
    const clip = cfg.clips[index];
    if (e.count === 0) doc.diagnostics.push(diag(span(count), 'warning', 'frame-range-empty', `${e.name} has 0 frames: nothing plays.`));
    if (e.fps < 0) doc.diagnostics.push(diag(span(fps), 'error', 'fps-invalid', `${e.name}: a negative frame rate (${fps.text}) makes Quake 3 compute a negative frame time.`));
    else if (e.fps === 0) doc.diagnostics.push(diag(span(fps), 'warning', 'fps-invalid', `${e.name}: frame rate 0; Quake 3 uses 1 frame per second.`));
    else if (!playableFps(e.fps)) doc.diagnostics.push(diag(span(fps), 'error', 'fps-invalid', `${e.name}: frame rate ${fps.text} is ${fpsProblem(e.fps)}: Quake 3's frame time, 1000 / fps whole milliseconds, is 0 there; the preview and conversions use ${MAX_SIDECAR_FPS}.`));
    if (e.loop < 0 || e.loop > Math.abs(e.count)) doc.diagnostics.push(diag(span(e.tokens[2]), 'warning', 'animcfg-loop-frames', `${e.name}: ${e.loop} looping frames, but the animation has ${Math.abs(e.count)}.`));
    const isLegs = e.name.startsWith('LEGS_');
    doc.clips.push({
      name: e.name,
      index,
      range: span(first, fps),
      firstFrame: clip.firstFrame,
      frameCount: clip.frameCount,
      fps: clip.fps,
      loop: clip.loop,
      reverse: clip.reverse === true,
      empty: e.count === 0,
      writtenFirst: isLegs && cfg.legsOffset !== 0 ? e.first : undefined,
      parts: animCfgParts(e.name),
    });
    doc.frameRanges.push(span(first, count));
  });
}

function readSkinDoc(text: string, doc: SidecarDocument): void {
  const skin = parseSkin(text);
  // Split once: splitting the text again for each bad line was quadratic (4,500 of them took 1.2 s).
  const rawLines = skin.warningLines.length > 0 ? lines(text) : [];
  skin.warningLines.forEach((line) => {
    const raw = rawLines[line] ?? '';
    const start = raw.length - raw.trimStart().length;
    doc.diagnostics.push(diag(lineRange(line, start, raw.replace(/\/\/.*$/, '').trimEnd().length), 'error', 'sidecar-syntax', 'Expected "surface,texture" (or "replace surface texture"): the engine skips this line.'));
  });
  for (const e of skin.entries as SkinEntry[]) {
    doc.surfaces.push({ name: e.surface, range: lineRange(e.line, e.surfaceStart, e.surfaceEnd), tag: e.tag });
    if (!e.tag && e.texture && tooLong(doc, e.texture, lineRange(e.line, e.textureStart, e.textureEnd))) continue;
    if (!e.tag && e.texture) doc.textures.push({ path: e.texture, range: lineRange(e.line, e.textureStart, e.textureEnd), what: `surface ${quotedName(e.surface)}`, mayBeShader: true });
    if (!e.tag && !e.texture) doc.diagnostics.push(diag(lineRange(e.line, e.surfaceStart, e.surfaceEnd), 'warning', 'skin-texture-empty', `Surface ${quotedName(e.surface)} gets no texture: it is drawn with the engine's default (missing) texture.`));
  }
}

function readShaderDoc(text: string, doc: SidecarDocument): void {
  for (const shader of parseShaders(text)) {
    for (const image of shader.images ?? []) {
      if (tooLong(doc, image.path, lineRange(image.line, image.start, image.end))) continue;
      doc.textures.push({ path: image.path, range: lineRange(image.line, image.start, image.end), what: `shader ${quotedName(shader.name)} (${image.keyword})`, mayBeShader: false });
    }
  }
}

/** True (and a warning at `range`) when a texture path is too long to look up (core/lookup/textures.ts MAX_TEXTURE_PATH). */
function tooLong(doc: SidecarDocument, path: string, range: Range): boolean {
  const long = texturePathTooLong(path);
  if (long === undefined) return false;
  const folders = long.folders === 1 ? '1 folder' : `${long.folders.toLocaleString('en-US')} folders`;
  doc.diagnostics.push(diag(range, 'warning', 'texture-path-too-long', `A texture path of ${folders}, ${quotedName(path, 40)}: no file system opens a path of more than ${MAX_TEXTURE_PATH.toLocaleString('en-US')} characters (Linux's PATH_MAX; macOS: 1,024, Windows: 260), so it is not looked up and the engine draws its missing texture.`));
  return true;
}

/** A model name list for messages: `"a", "b" and 3 more`. */
function listNames(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map((n) => quotedName(n)).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown || 'none';
}

/** The name a surface is matched under (ioquake3 lower-cases it and cuts a trailing `_X` of MD3 surfaces). */
function surfaceKeys(name: string): string[] {
  const n = name.toLowerCase();
  return n.length > 2 && n[n.length - 2] === '_' ? [n, n.slice(0, -2)] : [n];
}

/**
 * Every diagnostic of the file: its own (readSidecar) and those against the model(s) beside it and
 * the texture lookups (`textures[i]` answers `doc.textures[i]`).
 */
export function lintSidecar(doc: SidecarDocument, companions: readonly CompanionResult[], textures: readonly TextureLookupResult[]): IqeDiagnostic[] {
  const out = [...doc.diagnostics];
  for (const c of companions) {
    if (c.state === 'missing' && doc.kind !== 'animcfg') {
      out.push(diag(FILE_START, 'warning', 'model-not-found', `No model beside this file (looked for ${c.tried.join(', ')}): frame ranges and surface names are not checked.`));
    } else if (c.state === 'missing' && c.part !== 'head') {
      out.push(diag(FILE_START, 'warning', 'model-not-found', `No ${c.tried.join(', ')} beside this animation.cfg: its ${c.part === 'lower' ? 'BOTH_* and LEGS_*' : 'BOTH_* and TORSO_*'} frames are not checked, and Quake 3 refuses a player without it.`));
    } else if (c.state === 'unreadable') {
      out.push(diag(FILE_START, 'error', 'model-unreadable', `${c.file} cannot be read: ${c.error}.`));
    }
  }
  const models = companions.filter((c): c is Extract<CompanionResult, { state: 'read' }> => c.state === 'read');
  // Appended one at a time: a spread of a long list overflows the stack.
  const add = (list: IqeDiagnostic[]): void => {
    for (const d of list) out.push(d);
  };
  if (doc.kind === 'framegroups' && models[0]) add(frameDiagnostics(doc, models[0].model, undefined));
  if (doc.kind === 'animcfg') {
    for (const part of ['lower', 'upper'] as const) {
      const m = models.find((c) => c.part === part);
      if (m) add(frameDiagnostics(doc, m.model, part));
    }
  }
  if (doc.kind === 'skin' && models[0]) add(surfaceDiagnostics(doc, models[0].model));
  doc.textures.forEach((t, i) => {
    const r = textures[i];
    if (!r || r.state === 'found' || r.state === 'shader') return;
    if (r.state === 'beside') {
      out.push(diag(t.range, 'information', 'texture-outside-game-path', `${quotedName(t.path)} is not found where the engine looks (the path under the game's folder), only as ${quotedName(r.path)} beside this file. The engine finds it once this folder is ${quotedName(`${folderOf(t.path.replace(/\\/g, '/'))}/`)} under the game's folder.`));
    } else {
      const shaders = t.mayBeShader ? ` No shader of that name either (${r.shaderFiles} shader script${r.shaderFiles === 1 ? '' : 's'} read).` : '';
      out.push(diag(t.range, 'warning', 'texture-not-found', `No image ${quotedName(t.path)} (${t.what}): looked in this folder and each one above it as the game's folder, with ${r.extensions.map((e) => `.${e}`).join(', ')} (${r.tried} paths).${shaders} The engine draws its missing-texture image.`));
    }
  });
  return out.sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
}

/** Ranges past the model's frames, and overlaps between clips that play on the same model. */
function frameDiagnostics(doc: SidecarDocument, model: ModelSummary, part: 'lower' | 'upper' | undefined): IqeDiagnostic[] {
  const out: IqeDiagnostic[] = [];
  const clips = doc.clips.filter((c) => !c.empty && (part === undefined || c.parts?.includes(part)));
  for (const c of clips) {
    const last = c.firstFrame + c.frameCount - 1;
    if (c.frameCount > 0 && last >= model.frameCount) {
      const offset = c.writtenFirst !== undefined ? ` (written ${c.writtenFirst}, lowered by the LEGS_* offset ${doc.legsOffset}: first(LEGS_WALKCR) - first(TORSO_GESTURE))` : '';
      const what = part ? `${c.name} plays frames ${c.firstFrame}–${last}${offset} of ${model.file}` : `Frames ${c.firstFrame}–${last} of ${model.file}`;
      const engine = part ? 'Quake 3 draws frame 0 for the frames past the end' : 'DarkPlaces clamps the range to the last frame';
      out.push(diag(doc.frameRanges[c.index], 'error', 'frame-range', `${what}, which has ${model.frameCount} frames (0–${model.frameCount - 1}): ${engine}.`));
    }
  }
  for (const [a, b] of overlappingPairs(clips)) {
    // A death animation ending in its dead pose (BOTH_DEATHn / BOTH_DEADn) is how players are made.
    if (/^BOTH_DEATH\d$/.test(a.name) && b.name === a.name.replace('DEATH', 'DEAD')) continue;
    // With two parts, only for the part where it first shows.
    if (part === 'upper' && a.parts?.includes('lower') && b.parts?.includes('lower')) continue;
    const from = Math.max(a.firstFrame, b.firstFrame);
    const to = Math.min(clipEnd(a), clipEnd(b)) - 1;
    const frames = from === to ? `frame ${from}` : `frames ${from}–${to}`;
    out.push(diag(doc.frameRanges[b.index], 'warning', 'frame-range-overlap', `${frames} ${from === to ? 'also belongs' : 'also belong'} to ${quotedName(a.name)} (line ${a.range.line + 1}).`));
  }
  return out;
}

/** One past a clip's last frame. */
const clipEnd = (c: SidecarClip): number => c.firstFrame + c.frameCount;

/**
 * Clips that share frames, as pairs [earlier line, later line], at most one pair for each clip of
 * the later line: an overlap is usually a typing mistake, and its warning goes on the later line.
 * Clips with the very same frames (TORSO_STAND2 = TORSO_STAND) are not an overlap. A sweep in
 * frame order, O(n log n): each clip is paired with the clip before it in that order that reaches
 * furthest (a clip overlaps an earlier-starting one only if it overlaps that one). Pairing every
 * two clips was quadratic: a .framegroups of 1,000 nested ranges made 500,000 warnings, 2.5 s,
 * and a stack overflow in `check` (issue 17).
 */
function overlappingPairs(clips: readonly SidecarClip[]): [SidecarClip, SidecarClip][] {
  const order = clips.map((_, i) => i).sort((i, j) => clips[i].firstFrame - clips[j].firstFrame || i - j);
  const sameFrames = (a: SidecarClip, b: SidecarClip): boolean => a.firstFrame === b.firstFrame && a.frameCount === b.frameCount;
  // The clip that reaches furthest so far, and the one that reaches furthest with other frames
  // than it (the candidate when a clip has the very frames of the first).
  let reach: SidecarClip | undefined;
  let other: SidecarClip | undefined;
  const warned = new Set<number>();
  const pairs: [SidecarClip, SidecarClip][] = [];
  for (const k of order) {
    const clip = clips[k];
    const candidate = reach && !sameFrames(reach, clip) ? reach : other;
    if (candidate && clipEnd(candidate) > clip.firstFrame) {
      const [a, b] = candidate.index < clip.index ? [candidate, clip] : [clip, candidate];
      if (!warned.has(b.index)) {
        warned.add(b.index);
        pairs.push([a, b]);
      }
    }
    if (!reach || clipEnd(clip) > clipEnd(reach)) {
      // The old furthest is then the furthest of the rest, and its frames differ (it ends sooner).
      other = reach;
      reach = clip;
    } else if (!sameFrames(reach, clip) && (!other || clipEnd(clip) > clipEnd(other))) other = clip;
  }
  return pairs.sort((x, y) => x[1].index - y[1].index);
}

/** Surface and tag names of a .skin that the model does not have. */
function surfaceDiagnostics(doc: SidecarDocument, model: ModelSummary): IqeDiagnostic[] {
  const out: IqeDiagnostic[] = [];
  const names = new Set<string>();
  for (const s of [...model.surfaces, ...model.materials]) for (const k of surfaceKeys(s)) names.add(k);
  const tags = new Set(model.tags.map((t) => t.toLowerCase()));
  for (const s of doc.surfaces) {
    if (s.tag) {
      if (!tags.has(s.name.toLowerCase())) out.push(diag(s.range, 'information', 'skin-tag-unknown', `${model.file} has no tag ${quotedName(s.name)} (its tags: ${listNames(model.tags)}); the line does nothing.`));
      continue;
    }
    if (!names.has(s.name.toLowerCase())) {
      out.push(diag(s.range, 'warning', 'skin-surface-unknown', `${model.file} has no surface ${quotedName(s.name)} (its surfaces: ${listNames(model.surfaces)}): this line gives nothing a texture.`));
    }
  }
  return out;
}

/** The clip on a line, or undefined. */
export function clipAtLine(doc: SidecarDocument, line: number): SidecarClip | undefined {
  return doc.clips.find((c) => c.range.line <= line && line <= c.range.endLine);
}

/** Markdown for a clip's hover: its frames and how long it plays. */
export function clipHover(doc: SidecarDocument, clip: SidecarClip): string {
  const last = clip.firstFrame + clip.frameCount - 1;
  const seconds = clip.frameCount / clip.fps;
  const frames = clip.frameCount === 1 ? `frame ${clip.firstFrame} (1 frame)` : `frames ${clip.firstFrame}–${last} (${clip.frameCount} frames)`;
  const parts = clip.parts ? ` of ${clip.parts.map((p) => `${p}.md3`).join(' and ')}` : '';
  const lines = [`**${clip.name}**: ${frames}${parts}`, `${formatNumber(clip.fps)} fps: ${formatNumber(seconds)} s${clip.reverse ? ', played backwards' : ''}${clip.loop ? ', loops' : ', plays once'}`];
  if (clip.writtenFirst !== undefined) lines.push(`written as frame ${clip.writtenFirst}; Quake 3 lowers LEGS_* first frames by ${doc.legsOffset} = first(LEGS_WALKCR) − first(TORSO_GESTURE)`);
  return lines.join('\n\n');
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

// Quake 3 `animation.cfg` (FORMAT-PITFALLS §8.4; ioq3 cg_players.c). Keywords first (sex,
// footsteps, headoffset, fixedlegs, fixedtorso, soundpath); the first number ends them. Then one
// `first numFrames loopFrames fps` per animation in a fixed order. LEGS_* first frames count the
// torso-only frames too: skip = first(LEGS_WALKCR) - first(TORSO_GESTURE) is subtracted from them.

import type { Clip } from '../model/model';
import { blankComments, fpsProblem, lines, lineTokens, MAX_SIDECAR_FPS, playableFps, sidecarNumber, type SidecarToken } from './text';
import { quotedName } from '../names';

export const Q3_ANIMATIONS = [
  'BOTH_DEATH1', 'BOTH_DEAD1', 'BOTH_DEATH2', 'BOTH_DEAD2', 'BOTH_DEATH3', 'BOTH_DEAD3',
  'TORSO_GESTURE', 'TORSO_ATTACK', 'TORSO_ATTACK2', 'TORSO_DROP', 'TORSO_RAISE', 'TORSO_STAND', 'TORSO_STAND2',
  'LEGS_WALKCR', 'LEGS_WALK', 'LEGS_RUN', 'LEGS_BACK', 'LEGS_SWIM', 'LEGS_JUMP', 'LEGS_LAND', 'LEGS_JUMPB',
  'LEGS_LANDB', 'LEGS_IDLE', 'LEGS_IDLECR', 'LEGS_TURN',
  'TORSO_GETFLAG', 'TORSO_GUARDBASE', 'TORSO_PATROL', 'TORSO_FOLLOWME', 'TORSO_AFFIRMATIVE', 'TORSO_NEGATIVE',
] as const;
const REQUIRED = 25; // up to LEGS_TURN; the Team Arena ones are optional

export interface AnimCfg {
  sex?: string;
  footsteps?: string;
  headOffset?: [number, number, number];
  fixedLegs: boolean;
  fixedTorso: boolean;
  /**
   * How the animations are named: 'quake3', by position in Q3_ANIMATIONS (how Quake 3 reads any
   * file); 'comments', by the line comments of a game's own list (not 25 to 31 animations, each
   * line's comment naming it, not as Quake 3 does).
   */
  names: 'quake3' | 'comments';
  /** Frame numbers as the engine uses them (LEGS_* already adjusted). */
  clips: Clip[];
  /** What was subtracted from the LEGS_* first frames: first(LEGS_WALKCR) - first(TORSO_GESTURE). */
  legsOffset: number;
  /** The animation lines as written, in file order (index k is Q3_ANIMATIONS[k] when names is 'quake3'). */
  entries: AnimCfgEntry[];
  warnings: string[];
  /** Where each warning points (same order as `warnings`); undefined: the file as a whole. */
  warningAt: (SidecarToken | undefined)[];
}

/** One `first numFrames loopFrames fps` quadruple with its words' positions; numbers as written (truncated to integers except fps). */
export interface AnimCfgEntry {
  name: string;
  tokens: [SidecarToken, SidecarToken, SidecarToken, SidecarToken];
  first: number;
  count: number;
  loop: number;
  fps: number;
}

/**
 * Which model an animation plays on: TORSO_* on upper.md3, LEGS_* on lower.md3, BOTH_* (and a
 * game's own names without these prefixes) on both.
 */
export function animCfgParts(name: string): ('lower' | 'upper')[] {
  return name.startsWith('TORSO_') ? ['upper'] : name.startsWith('LEGS_') ? ['lower'] : ['lower', 'upper'];
}

/** The most animations of a game's own list read (Quake 3 reads 31). */
const MAX_OWN_ANIMATIONS = 1000;

/** A line comment's first word when it is a name (`// LEGS_BACK (backward)` names LEGS_BACK). */
const COMMENT_NAME = /\/\/\s*([A-Za-z_][A-Za-z0-9_]*)/;

export interface AnimCfgOptions {
  /** 'quake3': by position in Quake 3's list, whatever the comments say (the ioquake3 and quake3 profiles); default 'auto'. */
  names?: 'auto' | 'quake3';
}

/** The warning of a frame rate over MAX_SIDECAR_FPS (the checks report it at its animation). */
export const FPS_WARNING = /^\S+: frame rate \S+ is .*; \d+ used$/;

/** Unknown keywords each warned of; those after them are counted in one more warning. */
const MAX_UNKNOWN_WARNINGS = 100;

/**
 * The words of a text outside comments, tokenised a line at a time as they are read: the engine
 * reads the keywords and 31 animations, and a file may hold far more words than that (a fuzzed
 * file of 12 million words made 12 million tokens at once, and ran out of memory).
 */
class Words {
  private readonly lineTexts: string[];
  private line = 0;
  private queue: SidecarToken[] = [];
  private at = 0;

  constructor(text: string) {
    this.lineTexts = lines(blankComments(text));
  }

  /** The word `k` places ahead (0: the next), or undefined past the end. */
  peek(k = 0): SidecarToken | undefined {
    while (this.at + k >= this.queue.length && this.line < this.lineTexts.length) {
      this.queue = this.queue.slice(this.at).concat(lineTokens(this.lineTexts[this.line], this.line));
      this.at = 0;
      this.line++;
    }
    return this.queue[this.at + k];
  }

  skip(n = 1): void {
    this.at += n;
  }

  /** The text's last word. */
  last(): SidecarToken | undefined {
    for (let l = this.lineTexts.length - 1; l >= 0; l--) {
      const words = lineTokens(this.lineTexts[l], l);
      if (words.length > 0) return words[words.length - 1];
    }
    return undefined;
  }
}

/**
 * The names a game's own list gives its animations in line comments, or undefined when the file is
 * read as Quake 3's: its animation count is not Quake 3's (25 to 31), and each animation line's
 * comment names it, not with Quake 3's name at that place throughout.
 */
function commentNames(text: string, entries: readonly AnimCfgEntry[]): string[] | undefined {
  if (entries.length === 0 || (entries.length >= REQUIRED && entries.length <= Q3_ANIMATIONS.length)) return undefined;
  const raw = lines(text);
  const names: string[] = [];
  for (const e of entries) {
    // The comment after the animation's last number, on its line.
    const last = e.tokens[3];
    const name = COMMENT_NAME.exec((raw[last.line] ?? '').slice(last.end))?.[1];
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names.every((n, k) => n.toUpperCase() === Q3_ANIMATIONS[k]) ? undefined : names;
}

/** A game's own list's clips: as written, but for LEGS_* lowered as Quake 3 does where it names LEGS_WALKCR and TORSO_GESTURE. */
function ownClips(cfg: AnimCfg): void {
  const byName = (name: string) => cfg.entries.find((e) => e.name.toUpperCase() === name);
  const gesture = byName('TORSO_GESTURE');
  const walkcr = byName('LEGS_WALKCR');
  cfg.legsOffset = gesture && walkcr ? walkcr.first - gesture.first : 0;
  for (const a of cfg.entries) {
    cfg.clips.push({
      name: a.name,
      firstFrame: a.first - (a.name.toUpperCase().startsWith('LEGS_') ? cfg.legsOffset : 0),
      frameCount: Math.abs(a.count),
      fps: a.fps > 0 ? Math.min(a.fps, MAX_SIDECAR_FPS) : 1,
      loop: a.loop > 0,
      loopFrames: a.loop,
      reverse: a.count < 0,
    });
  }
}

export function parseAnimCfg(text: string, options: AnimCfgOptions = {}): AnimCfg {
  const words = new Words(text);
  const cfg: AnimCfg = { names: 'quake3', fixedLegs: false, fixedTorso: false, clips: [], legsOffset: 0, entries: [], warnings: [], warningAt: [] };
  const warn = (message: string, at: SidecarToken | undefined) => {
    cfg.warnings.push(message);
    cfg.warningAt.push(at);
  };
  const isNumber = (t: SidecarToken | undefined) => t !== undefined && Number.isFinite(sidecarNumber(t.text)) && !/[eE]/.test(t.text);
  let unknown = 0;
  let firstUnwarned: SidecarToken | undefined;
  for (let t = words.peek(); t !== undefined && !isNumber(t); t = words.peek()) {
    const key = t.text.toLowerCase();
    if (key === 'sex') cfg.sex = words.peek(1)?.text;
    else if (key === 'footsteps') cfg.footsteps = words.peek(1)?.text;
    else if (key === 'headoffset') cfg.headOffset = [Number(words.peek(1)?.text), Number(words.peek(2)?.text), Number(words.peek(3)?.text)];
    else if (key === 'fixedlegs') cfg.fixedLegs = true;
    else if (key === 'fixedtorso') cfg.fixedTorso = true;
    else if (key !== 'soundpath') {
      if (unknown++ < MAX_UNKNOWN_WARNINGS) warn(`unknown keyword ${quotedName(t.text)}`, t);
      else firstUnwarned ??= t;
    }
    // The keyword and its arguments.
    words.skip(key === 'headoffset' ? 4 : key === 'sex' || key === 'footsteps' || key === 'soundpath' ? 2 : 1);
  }
  const more = unknown - MAX_UNKNOWN_WARNINGS - 1;
  if (firstUnwarned) warn(`unknown keyword ${quotedName(firstUnwarned.text)}${more > 0 ? ` and ${more} more unknown words after it` : ''}`, firstUnwarned);
  // Every quadruple (up to MAX_OWN_ANIMATIONS), and where reading stopped: Quake 3 reads 31 and
  // ignores the rest, a game's own list may have more.
  let stop: { message: string; at: SidecarToken | undefined; index: number } | undefined;
  while (words.peek() !== undefined && cfg.entries.length < MAX_OWN_ANIMATIONS) {
    const q = [0, 1, 2, 3].map((k) => words.peek(k)).filter((t): t is SidecarToken => t !== undefined);
    if (q.length < 4 || !q.every(isNumber)) {
      stop = { message: 'expected 4 numbers', at: q.find((t) => !isNumber(t)) ?? q[q.length - 1], index: cfg.entries.length };
      break;
    }
    const n = q.map((t) => Number(t.text));
    cfg.entries.push({ name: Q3_ANIMATIONS[cfg.entries.length] ?? '', tokens: q as AnimCfgEntry['tokens'], first: Math.trunc(n[0]), count: Math.trunc(n[1]), loop: Math.trunc(n[2]), fps: n[3] });
    words.skip(4);
  }
  const own = options.names !== 'quake3' ? commentNames(text, cfg.entries) : undefined;
  if (own) {
    cfg.names = 'comments';
    cfg.entries.forEach((e, k) => (e.name = own[k]));
  } else if (cfg.entries.length > Q3_ANIMATIONS.length) cfg.entries.length = Q3_ANIMATIONS.length;
  if (stop && (own || stop.index < Q3_ANIMATIONS.length)) {
    const name = own ? `animation ${stop.index + 1}` : `animation ${Q3_ANIMATIONS[stop.index]}`;
    warn(`${name}: ${stop.message}`, stop.at);
  }
  for (const e of cfg.entries) {
    if (!playableFps(e.fps)) warn(`${e.name}: frame rate ${e.tokens[3].text} is ${fpsProblem(e.fps)}; ${MAX_SIDECAR_FPS} used`, e.tokens[3]);
  }
  if (own) {
    ownClips(cfg);
    return cfg;
  }
  const raw = cfg.entries;
  if (raw.length < REQUIRED) warn(`only ${raw.length} of the ${REQUIRED} required animations`, words.last());
  const gesture = raw[6];
  const walkcr = raw[13];
  const skip = gesture && walkcr ? walkcr.first - gesture.first : 0;
  cfg.legsOffset = skip;
  for (let k = 0; k < Q3_ANIMATIONS.length; k++) {
    // Missing Team Arena animations copy TORSO_GESTURE (ioq3).
    const a = raw[k] ?? (k >= REQUIRED && gesture ? gesture : undefined);
    if (!a) break;
    let first = a.first;
    if (k >= 13 && k <= 24) first -= skip;
    const reverse = a.count < 0;
    cfg.clips.push({
      name: Q3_ANIMATIONS[k],
      firstFrame: first,
      frameCount: Math.abs(a.count),
      // fps 0 means 1 (ioq3); over MAX_SIDECAR_FPS Quake 3's whole-millisecond frame time is 0.
      fps: a.fps > 0 ? Math.min(a.fps, MAX_SIDECAR_FPS) : 1,
      loop: a.loop > 0,
      loopFrames: a.loop,
      reverse,
    });
  }
  return cfg;
}

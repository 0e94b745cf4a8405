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
  /** Clips named as Q3_ANIMATIONS; frame numbers as the engine uses them (LEGS_* already adjusted). */
  clips: Clip[];
  /** What was subtracted from the LEGS_* first frames: first(LEGS_WALKCR) - first(TORSO_GESTURE). */
  legsOffset: number;
  /** The animation lines as written, in file order (index k is Q3_ANIMATIONS[k]). */
  entries: AnimCfgEntry[];
  warnings: string[];
  /** Where each warning points (same order as `warnings`); undefined: the file as a whole. */
  warningAt: (SidecarToken | undefined)[];
}

/** One `first numFrames loopFrames fps` quadruple with its words' positions; numbers as written (truncated to integers except fps). */
export interface AnimCfgEntry {
  name: (typeof Q3_ANIMATIONS)[number];
  tokens: [SidecarToken, SidecarToken, SidecarToken, SidecarToken];
  first: number;
  count: number;
  loop: number;
  fps: number;
}

/** Which model an animation plays on: BOTH_* on lower.md3 and upper.md3, TORSO_* on upper, LEGS_* on lower. */
export function animCfgParts(name: string): ('lower' | 'upper')[] {
  return name.startsWith('BOTH_') ? ['lower', 'upper'] : name.startsWith('TORSO_') ? ['upper'] : ['lower'];
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

export function parseAnimCfg(text: string): AnimCfg {
  const words = new Words(text);
  const cfg: AnimCfg = { fixedLegs: false, fixedTorso: false, clips: [], legsOffset: 0, entries: [], warnings: [], warningAt: [] };
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
  while (words.peek() !== undefined && cfg.entries.length < Q3_ANIMATIONS.length) {
    const q = [0, 1, 2, 3].map((k) => words.peek(k)).filter((t): t is SidecarToken => t !== undefined);
    if (q.length < 4 || !q.every(isNumber)) {
      warn(`animation ${Q3_ANIMATIONS[cfg.entries.length]}: expected 4 numbers`, q.find((t) => !isNumber(t)) ?? q[q.length - 1]);
      break;
    }
    const n = q.map((t) => Number(t.text));
    cfg.entries.push({ name: Q3_ANIMATIONS[cfg.entries.length], tokens: q as AnimCfgEntry['tokens'], first: Math.trunc(n[0]), count: Math.trunc(n[1]), loop: Math.trunc(n[2]), fps: n[3] });
    words.skip(4);
  }
  for (const e of cfg.entries) {
    if (!playableFps(e.fps)) warn(`${e.name}: frame rate ${e.tokens[3].text} is ${fpsProblem(e.fps)}; ${MAX_SIDECAR_FPS} used`, e.tokens[3]);
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

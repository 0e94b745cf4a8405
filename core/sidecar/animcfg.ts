// Quake 3 `animation.cfg` (FORMAT-PITFALLS §8.4; ioq3 cg_players.c). Keywords first (sex,
// footsteps, headoffset, fixedlegs, fixedtorso, soundpath); the first number ends them. Then one
// `first numFrames loopFrames fps` per animation in a fixed order. LEGS_* first frames count the
// torso-only frames too: skip = first(LEGS_WALKCR) - first(TORSO_GESTURE) is subtracted from them.

import type { Clip } from '../model/model';
import { blankComments, lines, lineTokens, sidecarNumber, type Token } from './text';

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
  warningAt: (Token | undefined)[];
}

/** One `first numFrames loopFrames fps` quadruple with its words' positions; numbers as written (truncated to integers except fps). */
export interface AnimCfgEntry {
  name: (typeof Q3_ANIMATIONS)[number];
  tokens: [Token, Token, Token, Token];
  first: number;
  count: number;
  loop: number;
  fps: number;
}

/** Which model an animation plays on: BOTH_* on lower.md3 and upper.md3, TORSO_* on upper, LEGS_* on lower. */
export function animCfgParts(name: string): ('lower' | 'upper')[] {
  return name.startsWith('BOTH_') ? ['lower', 'upper'] : name.startsWith('TORSO_') ? ['upper'] : ['lower'];
}

export function parseAnimCfg(text: string): AnimCfg {
  const tokens = lines(blankComments(text)).flatMap((line, i) => lineTokens(line, i));
  const cfg: AnimCfg = { fixedLegs: false, fixedTorso: false, clips: [], legsOffset: 0, entries: [], warnings: [], warningAt: [] };
  const warn = (message: string, at: Token | undefined) => {
    cfg.warnings.push(message);
    cfg.warningAt.push(at);
  };
  const isNumber = (t: Token | undefined) => t !== undefined && Number.isFinite(sidecarNumber(t.text)) && !/[eE]/.test(t.text);
  let i = 0;
  while (i < tokens.length && !isNumber(tokens[i])) {
    const key = tokens[i].text.toLowerCase();
    if (key === 'sex') cfg.sex = tokens[++i]?.text;
    else if (key === 'footsteps') cfg.footsteps = tokens[++i]?.text;
    else if (key === 'headoffset') {
      cfg.headOffset = [Number(tokens[i + 1]?.text), Number(tokens[i + 2]?.text), Number(tokens[i + 3]?.text)];
      i += 3;
    } else if (key === 'fixedlegs') cfg.fixedLegs = true;
    else if (key === 'fixedtorso') cfg.fixedTorso = true;
    else if (key === 'soundpath') i++;
    else warn(`unknown keyword "${tokens[i].text}"`, tokens[i]);
    i++;
  }
  while (i < tokens.length && cfg.entries.length < Q3_ANIMATIONS.length) {
    const q = tokens.slice(i, i + 4);
    if (q.length < 4 || !q.every(isNumber)) {
      warn(`animation ${Q3_ANIMATIONS[cfg.entries.length]}: expected 4 numbers`, q.find((t) => !isNumber(t)) ?? q[q.length - 1]);
      break;
    }
    const n = q.map((t) => Number(t.text));
    cfg.entries.push({ name: Q3_ANIMATIONS[cfg.entries.length], tokens: q as AnimCfgEntry['tokens'], first: Math.trunc(n[0]), count: Math.trunc(n[1]), loop: Math.trunc(n[2]), fps: n[3] });
    i += 4;
  }
  const raw = cfg.entries;
  if (raw.length < REQUIRED) warn(`only ${raw.length} of the ${REQUIRED} required animations`, tokens[tokens.length - 1]);
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
      fps: a.fps > 0 ? a.fps : 1, // fps 0 means 1 (ioq3)
      loop: a.loop > 0,
      loopFrames: a.loop,
      reverse,
    });
  }
  return cfg;
}

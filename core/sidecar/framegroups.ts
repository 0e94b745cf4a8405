// DarkPlaces `.framegroups` (FORMAT-PITFALLS §10): one clip per line, `first count [fps] [loop]
// [name]`; `first` is a 0-based frame index clamped to the model's frames; `count` at least 1;
// fps defaults to 20, minimum 1; loop defaults to 1; the optional name is one token; extra tokens
// are ignored; // and /* */ are comments. Without a name token, a line's // comment names its clip
// (`1 19 10 0 // zombie attackleap`, how exporters and modders write them), else the engine's
// `groupified_<i>_anim`.

import type { Clip } from '../model/model';
import { blankComments, fpsProblem, lineTokens, lines, playableFps, sidecarNumber, type SidecarToken } from './text';

/** One group line as written, before the engine clamps it (for diagnostics, hover and code lenses). */
export interface FramegroupEntry {
  /** 0-based line. */
  line: number;
  /** The line's words outside comments: first, count, [fps], [loop], [name], ... */
  tokens: SidecarToken[];
  first: number;
  count: number;
  /** As written (1e309 is Infinity); undefined when the line gives none or no number (the engine uses 20). */
  fps?: number;
  loop: boolean;
  name: string;
  /** Where the name came from: a name token, the line's // comment, or the engine's default. */
  nameFrom: 'token' | 'comment' | 'default';
}

export interface FramegroupsLines {
  entries: FramegroupEntry[];
  /** Lines whose first two words are not numbers (the engine stops reading there). */
  bad: { line: number; tokens: SidecarToken[] }[];
}

/** Reads each group line with its positions; nothing is clamped. */
export function readFramegroups(text: string): FramegroupsLines {
  const entries: FramegroupEntry[] = [];
  const bad: FramegroupsLines['bad'] = [];
  const raw = lines(text);
  lines(blankComments(text)).forEach((lineText, line) => {
    const tokens = lineTokens(lineText, line);
    if (tokens.length === 0) return;
    const first = Math.trunc(sidecarNumber(tokens[0]?.text));
    const count = Math.trunc(sidecarNumber(tokens[1]?.text));
    if (!Number.isFinite(first) || !Number.isFinite(count)) {
      bad.push({ line, tokens });
      return;
    }
    const fpsToken = tokens.length > 2 ? sidecarNumber(tokens[2].text) : NaN;
    const loopToken = tokens.length > 3 ? sidecarNumber(tokens[3].text) : 1;
    const comment = /\/\/(.*)$/.exec(raw[line] ?? '')?.[1].trim();
    const nameFrom: FramegroupEntry['nameFrom'] = tokens.length > 4 ? 'token' : comment ? 'comment' : 'default';
    const name = nameFrom === 'token' ? tokens[4].text : nameFrom === 'comment' ? (comment as string) : `groupified_${entries.length}_anim`;
    entries.push({ line, tokens, first, count, fps: Number.isNaN(fpsToken) ? undefined : fpsToken, loop: Number.isFinite(loopToken) ? loopToken !== 0 : true, name, nameFrom });
  });
  return { entries, bad };
}

/** The frame rate DarkPlaces gives a group line without one. */
export const DEFAULT_FRAMEGROUPS_FPS = 20;

export interface FramegroupsResult {
  clips: Clip[];
  /** Lines that could not be read, with 1-based line numbers. */
  warnings: string[];
}

/** Parses a .framegroups text; `frameCount` (the model's frames) clamps the ranges when given. */
export function parseFramegroups(text: string, frameCount?: number): FramegroupsResult {
  const { entries, bad } = readFramegroups(text);
  const warnings: { line: number; text: string }[] = bad.map((b) => ({ line: b.line, text: `line ${b.line + 1}: expected "first count [fps] [loop] [name]"` }));
  const clips = entries.map((e): Clip => {
    let { first, count } = e;
    // An unplayable rate (1e308, 1e309) would reach the preview and a conversion's output.
    const unplayable = e.fps !== undefined && !playableFps(e.fps);
    if (unplayable) warnings.push({ line: e.line, text: `line ${e.line + 1}: frame rate ${e.tokens[2].text} is ${fpsProblem(e.fps as number)}; 20 used` });
    const fps = unplayable ? DEFAULT_FRAMEGROUPS_FPS : Math.max(1, e.fps ?? DEFAULT_FRAMEGROUPS_FPS);
    if (first < 0) first = 0;
    if (frameCount !== undefined && frameCount > 0 && first >= frameCount) {
      warnings.push({ line: e.line, text: `line ${e.line + 1}: first frame ${first} is past the model's ${frameCount} frames; clamped` });
      first = frameCount - 1;
    }
    if (count < 1) count = 1;
    if (frameCount !== undefined && frameCount > 0 && first + count > frameCount) count = Math.max(1, frameCount - first);
    return { name: e.name, firstFrame: first, frameCount: count, fps, loop: e.loop };
  });
  return { clips, warnings: warnings.sort((a, b) => a.line - b.line).map((w) => w.text) };
}

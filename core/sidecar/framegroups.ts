// DarkPlaces `.framegroups` (FORMAT-PITFALLS §10): one clip per line, `first count [fps] [loop]
// [name]`; `first` is a 0-based frame index clamped to the model's frames; `count` at least 1;
// fps defaults to 20, minimum 1; loop defaults to 1; the optional name is one token; extra tokens
// are ignored; // and /* */ are comments. Without a name token, a line's // comment names its clip
// (`1 19 10 0 // zombie attackleap`, how exporters and modders write them), else the engine's
// `groupified_<i>_anim`.

import type { Clip } from '../model/model';
import { lines, stripComments } from './text';

export interface FramegroupsResult {
  clips: Clip[];
  /** Lines that could not be read, with 1-based line numbers. */
  warnings: string[];
}

/** Parses a .framegroups text; `frameCount` (the model's frames) clamps the ranges when given. */
export function parseFramegroups(text: string, frameCount?: number): FramegroupsResult {
  const clips: Clip[] = [];
  const warnings: string[] = [];
  const raw = lines(text);
  lines(stripComments(text)).forEach((line, lineIndex) => {
    const tokens = line.trim().split(/\s+/).filter((t) => t.length > 0);
    if (tokens.length === 0) return;
    const num = (t: string | undefined) => (t !== undefined && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : NaN);
    let first = Math.trunc(num(tokens[0]));
    let count = Math.trunc(num(tokens[1]));
    if (!Number.isFinite(first) || !Number.isFinite(count)) {
      warnings.push(`line ${lineIndex + 1}: expected "first count [fps] [loop] [name]"`);
      return;
    }
    let fps = tokens.length > 2 ? num(tokens[2]) : 20;
    if (!Number.isFinite(fps)) fps = 20;
    if (fps < 1) fps = 1;
    const loopToken = tokens.length > 3 ? num(tokens[3]) : 1;
    const loop = Number.isFinite(loopToken) ? loopToken !== 0 : true;
    const comment = /\/\/(.*)$/.exec(raw[lineIndex] ?? '')?.[1].trim();
    const name = tokens.length > 4 ? tokens[4] : comment ? comment : `groupified_${clips.length}_anim`;
    if (first < 0) first = 0;
    if (frameCount !== undefined && frameCount > 0 && first >= frameCount) {
      warnings.push(`line ${lineIndex + 1}: first frame ${first} is past the model's ${frameCount} frames; clamped`);
      first = frameCount - 1;
    }
    if (count < 1) count = 1;
    if (frameCount !== undefined && frameCount > 0 && first + count > frameCount) count = Math.max(1, frameCount - first);
    clips.push({ name, firstFrame: first, frameCount: count, fps, loop });
  });
  return { clips, warnings };
}

// Options of a compile that are about one input: its animation options (§1), and the notes the
// compile makes at a line of an input.
import type { IqeDiagnostic } from '../iqe/diagnostic';
import type { CompileOptions } from './index';
import type { IqeInput } from './input';

/** A note of the compile at `line` (columns column..endColumn; by default the line's start). */
export function lineNote(severity: IqeDiagnostic['severity'], code: string, message: string, line: number, column = 0, endColumn = column): IqeDiagnostic {
  return { range: { line, column, endLine: line, endColumn }, severity, code, message };
}

/** The per-input animation options of CompileOptions. */
export type AnimationOptions = Pick<CompileOptions, 'name' | 'fps' | 'loop' | 'start' | 'end'>;

/**
 * The per-input animation options (§1) on one input: they apply only when it has exactly one
 * animation (else a `cli-option-ignored` note). Renames, re-rates and loops that animation in
 * place; gives the frames (indices into the input's frame list) each animation keeps.
 */
export function applyAnimationOptions(input: IqeInput, options: AnimationOptions): { selection: { first: number; last: number }[]; note: IqeDiagnostic | null } {
  const selection = input.animations.map((a) => ({ first: a.firstFrame, last: a.firstFrame + a.frameCount - 1 }));
  const given = options.name !== undefined || options.fps !== undefined || options.loop || options.start !== undefined || options.end !== undefined;
  if (!given) return { selection, note: null };
  if (input.animations.length !== 1) {
    // At the second animation, or at the top of a file that has none.
    const at = input.animations[1] ?? { line: 0, column: 0 };
    const message = `--name, --fps, --loop, --start and --end apply only to a file with exactly one animation; this file has ${input.animations.length}`;
    return { selection, note: lineNote('warning', 'cli-option-ignored', message, at.line, at.column, at.column + (input.animations[1] ? 'animation'.length : 0)) };
  }
  const a = input.animations[0];
  if (options.name !== undefined) a.name = options.name;
  if (options.fps !== undefined && options.fps > 0) a.framerate = options.fps;
  if (options.loop) a.flags |= 1;
  let startFrame = a.firstFrame;
  let endFrame = Infinity;
  const end = options.end ?? -1;
  if (end >= 0) endFrame = startFrame + end;
  else if (end < -1) endFrame = startFrame + Math.max(input.frameCount - startFrame + end + 1, 0);
  startFrame += Math.max(options.start ?? 0, 0);
  selection[0] = { first: startFrame, last: Math.min(a.firstFrame + a.frameCount - 1, endFrame) };
  return { selection, note: null };
}

// The options of a compile (IQE-SEMANTICS.md §1): those for every source (-s -t -r -j) and those
// about one source, its animation options; and the notes the compile makes at a line of a source.
import type { IqeDiagnostic } from '../iqe/diagnostic';
import type { SourceModel } from './source';

/** The reference compiler's options for the whole compile. */
export interface CompileOptions {
  /** `-s`: scales mesh positions and every pose's translation. */
  scale?: number;
  /** `-t`: added to mesh positions after scale and rotation. */
  translate?: readonly [number, number, number];
  /** `-r` options: rotations in degrees about X, then Y, then Z, composed in order. */
  rotate?: readonly (readonly [number, number, number])[];
  /** `-j`: write the joints even when there is no mesh (an animation-only model). */
  forceJoints?: boolean;
  /** Not a compiler option: also return the source map (sourceMap.ts; the editor's preview asks for it). */
  sourceMap?: boolean;
  /**
   * Not a compiler option: leave out the two blocks that only an IQM file's users need, the
   * per-frame bounds and the triangle adjacency (the rest is the same bytes). For a compile whose
   * IQM is read back as a model and written as another format that carries neither (convert to
   * glTF): on an animated model they are a large part of the compile's time.
   */
  modelOnly?: boolean;
}

/** The per-source animation options (`--name --fps --loop --start --end` before a file); applied only when it has exactly one animation. */
export interface AnimationOptions {
  name?: string;
  fps?: number;
  loop?: boolean;
  start?: number;
  end?: number;
}

/** The options of one source: its animation options, and how a glTF's materials are read. */
export interface SourceOptions extends AnimationOptions {
  /** glTF: a material's colour without a texture written as its meshes' vertex colours (IQM has no material colour); default true. */
  materialColors?: boolean;
}

/** A note of the compile at `line` (columns column..endColumn; by default the line's start). */
export function lineNote(severity: IqeDiagnostic['severity'], code: string, message: string, line: number, column = 0, endColumn = column): IqeDiagnostic {
  return { range: { line, column, endLine: line, endColumn }, severity, code, message };
}

/**
 * The per-input animation options (§1) on one input: they apply only when it has exactly one
 * animation (else a `cli-option-ignored` note). Renames, re-rates and loops that animation in
 * place; gives the frames (indices into the input's frame list) each animation keeps. What the
 * reference does silently is noted at the `animation` line: an `--fps` that is not above 0
 * (ignored, `cli-option-ignored`), and a `--start`/`--end` that keep no frame (the animation is
 * written with none, `animation-empty`).
 */
export function applyAnimationOptions(input: SourceModel, options: AnimationOptions): { selection: { first: number; last: number }[]; notes: IqeDiagnostic[] } {
  const selection = input.animations.map((a) => ({ first: a.firstFrame, last: a.firstFrame + a.frameCount - 1 }));
  const given = options.name !== undefined || options.fps !== undefined || options.loop || options.start !== undefined || options.end !== undefined;
  if (!given) return { selection, notes: [] };
  if (input.animations.length !== 1) {
    // At the second animation, or at the top of a file that has none.
    const at = input.animations[1] ?? { line: 0, column: 0 };
    const message = `--name, --fps, --loop, --start and --end apply only to a file with exactly one animation; this file has ${input.animations.length}`;
    return { selection, notes: [lineNote('warning', 'cli-option-ignored', message, at.line, at.column, at.column + (input.animations[1] ? 'animation'.length : 0))] };
  }
  const notes: IqeDiagnostic[] = [];
  const a = input.animations[0];
  const atAnimation = (severity: IqeDiagnostic['severity'], code: string, message: string): void => {
    notes.push(lineNote(severity, code, message, a.line, a.column, a.column + 'animation'.length));
  };
  if (options.name !== undefined) a.name = options.name;
  if (options.fps !== undefined) {
    if (options.fps > 0) a.framerate = options.fps;
    else atAnimation('warning', 'cli-option-ignored', `--fps ${options.fps} is ignored: a frame rate must be above 0 (the file's ${a.framerate} stays)`);
  }
  if (options.loop) a.flags |= 1;
  let startFrame = a.firstFrame;
  let endFrame = Infinity;
  const end = options.end ?? -1;
  if (end >= 0) endFrame = startFrame + end;
  else if (end < -1) endFrame = startFrame + Math.max(input.frameCount - startFrame + end + 1, 0);
  startFrame += Math.max(options.start ?? 0, 0);
  selection[0] = { first: startFrame, last: Math.min(a.firstFrame + a.frameCount - 1, endFrame) };
  if (a.frameCount > 0 && selection[0].last < selection[0].first) {
    const range = [options.start !== undefined ? `--start ${options.start}` : '', options.end !== undefined ? `--end ${options.end}` : ''].filter(Boolean).join(' ');
    atAnimation('warning', 'animation-empty', `no frame of the animation's ${a.frameCount} (0..${a.frameCount - 1}) is within ${range}: it is written with none, as the reference compiler writes it`);
  }
  return { selection, notes };
}

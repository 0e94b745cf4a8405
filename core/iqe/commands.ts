// IQE commands and how a line's first word selects one (IQE-SEMANTICS.md §2.3): a two-letter
// command is a letter, then a letter or digit, then whitespace or end of line, matched
// case-sensitively; any other first word is compared exactly with the word commands.

import { FORMAT_NAMES, TYPE_NAMES } from '../iqm/layout';

export enum Cmd {
  Blank = 0,
  /** A `#` line (the header is one too). */
  Hash,
  Unknown,
  Vp, Vt, Vn, Vx, Vb, Vc, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, Vs,
  Pq, Pm, Pa,
  Fa, Fm, Fs,
  Smoothgroup, Smoothangle, Smoothuv,
  Mesh, Material, Joint, Vertexarray,
  Animation, Frame, Framerate, Loop, Comment,
}

/** The per-vertex attribute kinds other than position, in the order of `Cmd` (Vt..Vs). */
export const ATTRIBUTE_COMMANDS = ['vt', 'vn', 'vx', 'vb', 'vc', 'v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'vs'] as const;
/** Index of an attribute command in ATTRIBUTE_COMMANDS (Vt → 0 … Vs → 15). */
export function attributeSlot(kind: Cmd): number {
  return kind - Cmd.Vt;
}
export function isAttribute(kind: Cmd): boolean {
  return kind >= Cmd.Vt && kind <= Cmd.Vs;
}
export function isPose(kind: Cmd): boolean {
  return kind >= Cmd.Pq && kind <= Cmd.Pa;
}

export const COMMAND_NAMES: Readonly<Record<number, string>> = {
  [Cmd.Vp]: 'vp', [Cmd.Vt]: 'vt', [Cmd.Vn]: 'vn', [Cmd.Vx]: 'vx', [Cmd.Vb]: 'vb', [Cmd.Vc]: 'vc',
  [Cmd.V0]: 'v0', [Cmd.V1]: 'v1', [Cmd.V2]: 'v2', [Cmd.V3]: 'v3', [Cmd.V4]: 'v4', [Cmd.V5]: 'v5',
  [Cmd.V6]: 'v6', [Cmd.V7]: 'v7', [Cmd.V8]: 'v8', [Cmd.V9]: 'v9', [Cmd.Vs]: 'vs',
  [Cmd.Pq]: 'pq', [Cmd.Pm]: 'pm', [Cmd.Pa]: 'pa', [Cmd.Fa]: 'fa', [Cmd.Fm]: 'fm', [Cmd.Fs]: 'fs',
  [Cmd.Smoothgroup]: 'smoothgroup', [Cmd.Smoothangle]: 'smoothangle', [Cmd.Smoothuv]: 'smoothuv',
  [Cmd.Mesh]: 'mesh', [Cmd.Material]: 'material', [Cmd.Joint]: 'joint', [Cmd.Vertexarray]: 'vertexarray',
  [Cmd.Animation]: 'animation', [Cmd.Frame]: 'frame', [Cmd.Framerate]: 'framerate', [Cmd.Loop]: 'loop',
  [Cmd.Comment]: 'comment',
};

const WORD_COMMANDS: ReadonlyMap<string, Cmd> = new Map([
  ['smoothgroup', Cmd.Smoothgroup], ['smoothangle', Cmd.Smoothangle], ['smoothuv', Cmd.Smoothuv],
  ['mesh', Cmd.Mesh], ['material', Cmd.Material], ['joint', Cmd.Joint], ['vertexarray', Cmd.Vertexarray],
  ['animation', Cmd.Animation], ['frame', Cmd.Frame], ['framerate', Cmd.Framerate], ['loop', Cmd.Loop],
  ['comment', Cmd.Comment],
]);

/** Every command name, for messages that suggest one. */
export const ALL_COMMAND_NAMES: readonly string[] = Object.values(COMMAND_NAMES);

/**
 * The two-letter command whose letters are c0 c1 (char codes), or Unknown. Only called when the
 * character after them is whitespace or the end of the line.
 */
export function twoLetterCommand(c0: number, c1: number): Cmd {
  if (c0 === 0x76 /* v */) {
    if (c1 >= 0x30 && c1 <= 0x39) return (Cmd.V0 + (c1 - 0x30)) as Cmd;
    switch (c1) {
      case 0x70: return Cmd.Vp;
      case 0x74: return Cmd.Vt;
      case 0x6e: return Cmd.Vn;
      case 0x78: return Cmd.Vx;
      case 0x62: return Cmd.Vb;
      case 0x63: return Cmd.Vc;
      case 0x73: return Cmd.Vs;
    }
  } else if (c0 === 0x70 /* p */) {
    if (c1 === 0x71) return Cmd.Pq;
    if (c1 === 0x6d) return Cmd.Pm;
    if (c1 === 0x61) return Cmd.Pa;
  } else if (c0 === 0x66 /* f */) {
    if (c1 === 0x61) return Cmd.Fa;
    if (c1 === 0x6d) return Cmd.Fm;
    if (c1 === 0x73) return Cmd.Fs;
  }
  return Cmd.Unknown;
}

export function wordCommand(word: string): Cmd {
  return WORD_COMMANDS.get(word) ?? Cmd.Unknown;
}

/** The command a user probably meant by an unknown word (wrong case, glued digit), or undefined. */
export function suggestCommand(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (ALL_COMMAND_NAMES.includes(lower)) return lower;
  const stripped = lower.replace(/[0-9]+$/, '');
  if (stripped !== lower && ALL_COMMAND_NAMES.includes(stripped)) return stripped;
  return undefined;
}

/**
 * `vertexarray` TYPE names (matched case-insensitively): IQM's standard types, whose index is the
 * IQM vertex array type, then IQE's ten custom slots.
 */
export const VERTEXARRAY_TYPES = [
  ...TYPE_NAMES,
  'custom0', 'custom1', 'custom2', 'custom3', 'custom4', 'custom5', 'custom6', 'custom7', 'custom8', 'custom9',
] as const;
/** `vertexarray` FORMAT names (case-insensitive): IQM's, the index is the IQM format code. */
export const VERTEXARRAY_FORMATS = FORMAT_NAMES;

/** The attribute command whose data a vertexarray TYPE declares (-1 for none). */
export function commandOfVertexarrayType(type: number): Cmd | -1 {
  switch (type) {
    case 0: return Cmd.Vp;
    case 1: return Cmd.Vt;
    case 2: return Cmd.Vn;
    case 3: return Cmd.Vx;
    case 4: case 5: return Cmd.Vb;
    case 6: return Cmd.Vc;
    default: return type >= 7 && type <= 16 ? ((Cmd.V0 + (type - 7)) as Cmd) : -1;
  }
}

// Engine profiles: what one engine's loaders accept, refuse or silently change, as data. Each fact
// carries the place in the engine's own source it was read from (docs/ENGINES.md lists them all).
// The checker (check.ts) is the only code that interprets these tables.

import type { FORMAT_NAMES, TYPE_NAMES } from '../iqm/layout';

/** Where a fact was read: a file of a public repository at a commit, with a line or a function. */
export interface SourceRef {
  /** owner/name on GitHub. */
  repo: string;
  path: string;
  /** The commit the file was read at. */
  commit: string;
  /** 1-based line or range ("454", "312-316"), where it was counted. */
  lines?: string;
  /** The function (and, in very long files, the character offset) where no line was counted. */
  at?: string;
}

/** One thing an engine does, in a sentence, and where that is written. */
export interface Fact {
  text: string;
  source: SourceRef;
}

/**
 * What happens when a model breaks a rule: the engine refuses the model (or drops to the
 * console), loads it but shows something else (mangles), or merely does something worth knowing.
 */
export type Effect = 'refuse' | 'mangle' | 'note';

export interface Rule {
  effect: Effect;
  fact: Fact;
}

/** A count the engine accepts up to and including `max`. */
export interface LimitRule extends Rule {
  max: number;
}

export type IqmArrayType = (typeof TYPE_NAMES)[number] | 'custom';
export type IqmFormatName = (typeof FORMAT_NAMES)[number];

/** The (format, size) pairs an engine takes for one vertex array type, and what it does with others. */
export interface ArrayRule extends Rule {
  accepts: readonly { format: IqmFormatName; size: number }[];
  /** What becomes of an array outside `accepts`: the model is refused, the array ignored, or misread. */
  otherwise: 'refused' | 'ignored' | 'misread';
}

export interface IqmRules {
  loader: Fact;
  versions: readonly number[];
  version: Rule;
  /** The header's filesize field. */
  maxFileBytes?: LimitRule;
  /** The header's filesize must equal the file's size. */
  exactFileSize?: Rule;
  /** Every vertex array, custom ones too, must use one of these formats. */
  arrayFormats?: Rule & { allowed: readonly IqmFormatName[] };
  arrays: Partial<Record<IqmArrayType, ArrayRule>>;
  /** Arrays without which the model is not loaded. */
  required?: Rule & { arrays: readonly IqmArrayType[] };
  /** Arrays required once the model has joints (`joints`), frames or animations (`animated`), or any of them (`any`). */
  requiredWhenSkinned?: Rule & { arrays: readonly IqmArrayType[]; when: 'joints' | 'animated' | 'any' };
  maxJoints?: LimitRule;
  maxPoses?: LimitRule;
  maxMeshVertices?: LimitRule;
  maxMeshTriangles?: LimitRule;
  /** A joint's parent must come before it. */
  parentsFirst?: Rule;
  /** num_poses must be 0 or num_joints (or anything when there are no joints, with `animationOnly`). */
  posesMatchJoints?: Rule & { animationOnly?: boolean };
  /** Joint and pose scales must be non-negative and uniform (differences truncated to integers). */
  uniformScale?: Rule;
  /** Joint (bind) scale is thrown away. */
  jointScaleIgnored?: Rule;
  /** Animated scale channels are thrown away. */
  scaleChannelsIgnored?: Rule;
  /** Characters of a joint name kept (longer names are cut). */
  jointNameLength?: LimitRule;
  /** An animation with no frames. */
  emptyAnimation?: Rule;
  /** The largest blend index read correctly. */
  maxBlendIndex?: LimitRule;
  /** Mesh materials are not used to find textures. */
  materialsIgnored?: Rule;
}

/** MD3 header counts checked against the MD3_MAX_* constants of the format's tools. */
export interface Md3FormatLimits extends Rule {
  frames: number;
  tags: number;
  surfaces: number;
  shaders: number;
  vertices: number;
  triangles: number;
}

export interface Md3Rules {
  loader: Fact;
  /** MD3 version 15 only. */
  version?: Rule;
  /** A model with no frames. */
  noFrames?: Rule;
  maxSurfaceVertices?: LimitRule;
  maxSurfaceTriangles?: LimitRule;
  formatLimits?: Md3FormatLimits;
  /** Every surface must have as many frames as the header. */
  surfaceFrames?: Rule;
  /** Surface names are lower-cased and a trailing `_X` (any one character) is cut before .skin matching. */
  surfaceNameSuffix?: Rule;
  /** Triangle corners are stored in 16 bits: a surface may have at most `max` vertices. */
  maxIndexedVertices?: LimitRule;
  /** The shader names in the file are not used to find textures. */
  shadersIgnored?: Rule;
  /** Characters of a frame name kept (longer names are cut; a MODELDEF `Frame` matches the cut name). */
  frameNameLength?: LimitRule;
  /** Facts the checker has nothing to test against (the units and axes, what is not checked, where skins come from). */
  notes?: Readonly<Record<string, Fact>>;
}

/** MD2 (Quake 2) models: iqm-tools reads only their frame names (core/md2/frames.ts), for MODELDEF. */
export interface Md2Rules {
  loader: Fact;
  /** The header's GL command count must be above 0 (`max` is the count refused: 0 and below). */
  glCommands?: Rule;
  /** The frames (ofs_frames + framesize × num_frames) must end inside the file. */
  framesInFile?: Rule;
  notes?: Readonly<Record<string, Fact>>;
}

export interface DpmRules {
  loader: Fact;
}

/** Quake 3 player models: lower/upper/head.md3, their .skin files, animation.cfg, tags. */
export interface PlayerRules {
  /** The three parts, each required. */
  parts: Rule;
  /** Skin file names: `lower_<skin>.skin` (Quake 3) or `lower.md3_<N>.skin` (DarkPlaces). */
  skinNaming: 'q3' | 'darkplaces';
  skins: Rule;
  animationCfg: Rule;
  /** LEGS_* first frames count the TORSO_* frames; the engine subtracts that offset. */
  legsOffset: Rule;
  /** An animation frame past the part's frames: the renderer falls back to frame 0. */
  frameRange: Rule;
  /** Tags the parts are joined by. */
  tags: Rule & { lower: readonly string[]; upper: readonly string[] };
}

/** How the engine finds and uploads a model's textures. */
export interface TextureRules {
  /** Image extensions tried, in order, when the named file is not there (or has none). */
  extensions: readonly string[];
  lookup: Fact;
  /** A texture whose sides are not powers of two is resampled. */
  powerOfTwo?: Rule;
}

export interface EngineProfile {
  /** Short name used on the command line and in settings: `darkplaces`, `ioquake3`, ... */
  id: string;
  name: string;
  /** Other names accepted for `id` (`xonotic`, `ioq3`, ...). */
  aliases: readonly string[];
  /** What the profile covers and what it leaves out, in a sentence or two. */
  scope: string;
  /** Which of IQM, MD3 and DPM the engine loads at all (the others are refused). */
  formats: Fact;
  iqm?: IqmRules;
  md3?: Md3Rules;
  md2?: Md2Rules;
  dpm?: DpmRules;
  player?: PlayerRules;
  textures?: TextureRules;
}

export type FindingSeverity = 'error' | 'warning' | 'information';

/** Where in the model a finding is: named parts, and a byte offset (binary) or a 0-based line (IQE). */
export interface FindingLocation {
  /** Human description: `mesh 0 "body"`, `joint 130 "hand.L"`, `vertex array 2 (texcoord)`, `header`. */
  what: string;
  mesh?: number;
  joint?: number;
  frame?: number;
  animation?: number;
  array?: number;
  byteOffset?: number;
  /** 0-based line in IQE text. */
  line?: number;
  /** For MD3 players: which file of the set. */
  file?: string;
}

export interface EngineFinding {
  /** Stable code, e.g. `md3-surface-vertices` (the list is in docs/ENGINES.md). */
  code: string;
  severity: FindingSeverity;
  message: string;
  engine: string;
  engineName: string;
  fact: Fact;
  location: FindingLocation;
}

export function severityOf(effect: Effect): FindingSeverity {
  return effect === 'refuse' ? 'error' : effect === 'mangle' ? 'warning' : 'information';
}

/** `repo path:lines @commit` (or `path, at` without lines), for messages and docs. */
export function citeSource(s: SourceRef): string {
  const where = s.lines ? `${s.path}:${s.lines}` : s.at ? `${s.path} (${s.at})` : s.path;
  return `${s.repo} ${where} @${s.commit.slice(0, 8)}`;
}

export function fact(text: string, source: SourceRef): Fact {
  return { text, source };
}

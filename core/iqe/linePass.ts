// The line-by-line pass of the cross-line analysis (validate.ts), one chunk at a time, with each
// chunk's results kept so that analysing again after an edit redoes only the chunks whose input
// changed (issue 35: a keystroke re-checked every line of a 95 MB document, 25 ms of CPU).
//
// A chunk's pass is a function of three things: its lines (the chunk object, which an edit
// replaces, and how many of its lines are analysed), the running state at its start (PassState,
// as the reference compiler keeps it, §3) and the document's totals (PassGlobals: vertex and joint
// counts, mesh starts, the skeleton, the positions). Its results are the problems it finds, the
// arities of its face and fs lines (for the fs pairing) and the vertices its faces use. They are
// reused when all three are the same as when they were found; a change of the totals starts over.
//
// Line numbers move when an edit above them adds or removes lines, so states and kept problems
// name lines by anchor (the chunk, the line's index in it): chunks keep their identity across
// edits of other chunks and their firstLine is kept current, so an anchor resolves to the line's
// number of the moment (resolveLine).
import type { Chunk, Values } from './chunk';
import { Cmd, commandOfVertexarrayType, attributeSlot } from './commands';
import { IQM_FLOAT, IQM_UBYTE } from '../iqm/layout';
import { ProblemList, Target } from './problems';
import type { Code } from './codes';
import { int32s } from '../growable';

/** A line named by its chunk and its index there (its line number moves with edits above it). */
export interface Anchor {
  readonly chunk: Chunk;
  readonly index: number;
}

export function resolveLine(anchor: Anchor | undefined): number {
  return anchor === undefined ? -1 : anchor.chunk.firstLine + anchor.index;
}

function sameAnchor(a: Anchor | undefined, b: Anchor | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.chunk === b.chunk && a.index === b.index);
}

/** The running state between chunks. Never changed once made (a chunk's pass makes a new one). */
export interface PassState {
  readonly verticesSoFar: number;
  /** Global index of the current mesh's first vertex (fm indices count from it). */
  readonly fmOffset: number;
  readonly meshOrdinal: number;
  readonly jointOrdinal: number;
  // Sections: the current names, whether a new section is pending, each pair's first section.
  readonly meshName: string;
  readonly materialName: string;
  readonly meshLine: Anchor | undefined;
  readonly sectionPending: boolean;
  readonly lastSectionMesh: string | undefined;
  readonly lastSectionMaterial: string | undefined;
  /** Copied when a pass adds to it, so that a kept state never changes. */
  readonly sectionFirstLine: ReadonlyMap<string, Anchor>;
  // Poses and frames (§3.7).
  readonly basePoses: number;
  readonly firstExtraBasePoseLine: Anchor | undefined;
  readonly animationLine: Anchor | undefined;
  readonly animationPoses: number;
  readonly framePoses: number;
  readonly frameOpenLine: Anchor | undefined;
  readonly frameStartLine: Anchor | undefined;
  /** The `vertexarray` line declaring each type, by type (copied when a pass adds to it). */
  readonly declaredAt: readonly (Anchor | undefined)[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A PassState that a chunk's pass changes as it goes; kept (and never changed again) as the state
 * at the chunk's end. A class, so that every state has the same shape: the pass reads and writes
 * its fields per line.
 */
class RunningState implements Mutable<PassState> {
  verticesSoFar: number;
  fmOffset: number;
  meshOrdinal: number;
  jointOrdinal: number;
  meshName: string;
  materialName: string;
  meshLine: Anchor | undefined;
  sectionPending: boolean;
  lastSectionMesh: string | undefined;
  lastSectionMaterial: string | undefined;
  sectionFirstLine: ReadonlyMap<string, Anchor>;
  basePoses: number;
  firstExtraBasePoseLine: Anchor | undefined;
  animationLine: Anchor | undefined;
  animationPoses: number;
  framePoses: number;
  frameOpenLine: Anchor | undefined;
  frameStartLine: Anchor | undefined;
  declaredAt: readonly (Anchor | undefined)[];

  constructor(from: PassState) {
    this.verticesSoFar = from.verticesSoFar;
    this.fmOffset = from.fmOffset;
    this.meshOrdinal = from.meshOrdinal;
    this.jointOrdinal = from.jointOrdinal;
    this.meshName = from.meshName;
    this.materialName = from.materialName;
    this.meshLine = from.meshLine;
    this.sectionPending = from.sectionPending;
    this.lastSectionMesh = from.lastSectionMesh;
    this.lastSectionMaterial = from.lastSectionMaterial;
    this.sectionFirstLine = from.sectionFirstLine;
    this.basePoses = from.basePoses;
    this.firstExtraBasePoseLine = from.firstExtraBasePoseLine;
    this.animationLine = from.animationLine;
    this.animationPoses = from.animationPoses;
    this.framePoses = from.framePoses;
    this.frameOpenLine = from.frameOpenLine;
    this.frameStartLine = from.frameStartLine;
    this.declaredAt = from.declaredAt;
  }
}

export function runningState(from: PassState): Mutable<PassState> {
  return new RunningState(from);
}

export const START_STATE: PassState = new RunningState({
  verticesSoFar: 0,
  fmOffset: 0,
  meshOrdinal: -1,
  jointOrdinal: 0,
  meshName: '',
  materialName: '',
  meshLine: undefined,
  sectionPending: true,
  lastSectionMesh: undefined,
  lastSectionMaterial: undefined,
  sectionFirstLine: new Map<string, Anchor>(),
  basePoses: 0,
  firstExtraBasePoseLine: undefined,
  animationLine: undefined,
  animationPoses: 0,
  framePoses: 0,
  frameOpenLine: undefined,
  frameStartLine: undefined,
  declaredAt: [],
});

function sameState(a: PassState, b: PassState): boolean {
  if (a === b) return true;
  if (
    a.verticesSoFar !== b.verticesSoFar ||
    a.fmOffset !== b.fmOffset ||
    a.meshOrdinal !== b.meshOrdinal ||
    a.jointOrdinal !== b.jointOrdinal ||
    a.meshName !== b.meshName ||
    a.materialName !== b.materialName ||
    a.sectionPending !== b.sectionPending ||
    a.lastSectionMesh !== b.lastSectionMesh ||
    a.lastSectionMaterial !== b.lastSectionMaterial ||
    a.basePoses !== b.basePoses ||
    a.animationPoses !== b.animationPoses ||
    a.framePoses !== b.framePoses ||
    !sameAnchor(a.meshLine, b.meshLine) ||
    !sameAnchor(a.firstExtraBasePoseLine, b.firstExtraBasePoseLine) ||
    !sameAnchor(a.animationLine, b.animationLine) ||
    !sameAnchor(a.frameOpenLine, b.frameOpenLine) ||
    !sameAnchor(a.frameStartLine, b.frameStartLine)
  ) {
    return false;
  }
  if (a.sectionFirstLine !== b.sectionFirstLine) {
    if (a.sectionFirstLine.size !== b.sectionFirstLine.size) return false;
    for (const [key, anchor] of a.sectionFirstLine) if (!sameAnchor(anchor, b.sectionFirstLine.get(key))) return false;
  }
  if (a.declaredAt !== b.declaredAt) {
    const n = Math.max(a.declaredAt.length, b.declaredAt.length);
    for (let type = 0; type < n; type++) if (!sameAnchor(a.declaredAt[type], b.declaredAt[type])) return false;
  }
  return true;
}

/** What the pass reads of the whole document (validate.ts gathers it from the chunks' summaries). */
export interface PassGlobals {
  readonly vertexCount: number;
  readonly jointCount: number;
  /** Global vertex count before each `mesh` command. */
  readonly meshStarts: readonly number[];
  readonly jointParents: readonly number[];
  readonly jointAnchors: readonly Anchor[];
  /** For each joint, the length of the cycle of parents it is on, or 0 (derived from jointParents). */
  readonly onCycle: Int32Array;
  /** x, y, z per vertex (when zeroAreas); positionsEpoch changes whenever their values do. */
  readonly positions: Values;
  readonly positionsEpoch: number;
  readonly zeroAreas: boolean;
  /** Whether the document has an `fs` line (the faces' arities are then kept for the pairing). */
  readonly pairsFs: boolean;
  readonly hasFaces: boolean;
  /** Lines of each per-vertex attribute kind other than vp (ATTRIBUTE_KINDS). */
  readonly attributeCount: Int32Array;
}

function sameNumbers(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sameGlobals(a: PassGlobals, b: PassGlobals): boolean {
  if (
    a.vertexCount !== b.vertexCount ||
    a.jointCount !== b.jointCount ||
    a.positionsEpoch !== b.positionsEpoch ||
    a.zeroAreas !== b.zeroAreas ||
    a.pairsFs !== b.pairsFs ||
    a.hasFaces !== b.hasFaces ||
    !sameNumbers(a.meshStarts, b.meshStarts) ||
    !sameNumbers(a.jointParents, b.jointParents) ||
    !sameNumbers(a.attributeCount, b.attributeCount)
  ) {
    return false;
  }
  for (let j = 0; j < a.jointAnchors.length; j++) if (!sameAnchor(a.jointAnchors[j], b.jointAnchors[j])) return false;
  return true;
}

/** One chunk's pass: its input (globals, lineCount, entry) and its results. */
export interface ChunkPass {
  readonly chunk: Chunk;
  readonly globals: PassGlobals;
  readonly lineCount: number;
  readonly entry: PassState;
  readonly exit: PassState;
  /**
   * The problems found, their lines (and related lines) encoded: i >= 0 is the chunk's line i,
   * -1 none, -2 - k the line of foreign[k] (a line of another chunk: a frame's start, the mesh).
   */
  readonly problems: ProblemList | undefined;
  readonly foreign: readonly Anchor[];
  /** Arity and line (index in the chunk) of its face lines (only when globals.pairsFs) and of its fs lines. */
  readonly faceArity: Int32Array | undefined;
  readonly faceArityLine: Int32Array | undefined;
  readonly fsArity: Int32Array | undefined;
  readonly fsLine: Int32Array | undefined;
  /**
   * The vertices its faces use: bit v - usedFrom of `used` (usedFrom a multiple of 8), or, when
   * they are spread too thinly for a bitmap to be small, their list.
   */
  readonly usedFrom: number;
  readonly used: Uint8Array | Int32Array | undefined;
}

/** The kept passes of a document, valid while the globals stay the same. */
export class PassMemo {
  globals: PassGlobals | undefined;
  passes = new WeakMap<Chunk, ChunkPass>();
  /** Chunks with structural lines that the last analysis passed (not reused): what its work was proportional to. */
  passedLastTime = 0;
  /** The positions of the last analysis, the parts (chunks with vp lines) they were read from, and their epoch. */
  positions: { values: Values; parts: { chunk: Chunk; lineCount: number; vertexStart: number }[]; epoch: number } | undefined;
  private readonly fsChunks = new WeakMap<Chunk, boolean>();

  /** Whether the chunk has an `fs` line (looked for once per chunk). */
  hasFs(chunk: Chunk): boolean {
    let has = this.fsChunks.get(chunk);
    if (has === undefined) {
      has = chunk.kind.includes(Cmd.Fs);
      this.fsChunks.set(chunk, has);
    }
    return has;
  }

  /** The kept pass of `chunk` when its input is the same, else undefined. */
  reusable(chunk: Chunk, lineCount: number, entry: PassState, globals: PassGlobals): ChunkPass | undefined {
    const kept = this.passes.get(chunk);
    if (kept === undefined || kept.globals !== globals || kept.lineCount !== lineCount || !sameState(kept.entry, entry)) return undefined;
    return kept;
  }

  /** Takes `globals` as the current totals; when they differ from the last ones, every kept pass is dropped. */
  useGlobals(globals: PassGlobals): PassGlobals {
    if (this.globals !== undefined && sameGlobals(this.globals, globals)) return this.globals;
    this.globals = globals;
    this.passes = new WeakMap();
    return globals;
  }
}

/** Records a pass's problems with their lines encoded (ChunkPass.problems); `chunk` undefined: every line is foreign. */
export class ProblemRecorder {
  problems: ProblemList | undefined;
  readonly foreign: Anchor[] = [];
  private foreignIndex: Map<Anchor, number> | undefined;

  constructor(readonly chunk: Chunk | undefined) {}

  encode(anchor: Anchor | undefined): number {
    if (anchor === undefined) return -1;
    if (anchor.chunk === this.chunk) return anchor.index;
    this.foreignIndex ??= new Map();
    let k = this.foreignIndex.get(anchor);
    if (k === undefined) {
      k = this.foreign.length;
      this.foreign.push(anchor);
      this.foreignIndex.set(anchor, k);
    }
    return -2 - k;
  }

  /** A problem on the chunk's line `index` (the arguments of ProblemList.add; related by anchor). */
  add(index: number, code: Code, target: number, a = 0, b = 0, related?: Anchor, relatedTarget: number = Target.Line, note?: string, c = 0): void {
    this.problems ??= new ProblemList();
    this.problems.add(index, code, target, a, b, this.encode(related), relatedTarget, -1, note, c);
  }

  addAt(anchor: Anchor | undefined, code: Code, target: number, a = 0, b = 0): void {
    this.add(this.encode(anchor), code, target, a, b);
  }
}

/** Line number of an encoded line of `pass` (see ChunkPass.problems). */
export function decodeLine(chunk: Chunk | undefined, foreign: readonly Anchor[], code: number): number {
  if (code >= 0) return chunk!.firstLine + code;
  return code === -1 ? -1 : resolveLine(foreign[-2 - code]);
}

/** Closes the open frame and animation (at a new `animation` line and at the end of the document). */
export function closeAnimation(s: Mutable<PassState>, jointCount: number, out: ProblemRecorder): void {
  if (s.animationLine === undefined) return;
  closeFrame(s, jointCount, out);
  if (s.animationPoses === 0) out.addAt(s.animationLine, 'animation-empty', Target.Command);
  s.animationPoses = 0;
}

function closeFrame(s: Mutable<PassState>, jointCount: number, out: ProblemRecorder): void {
  if (s.framePoses > 0 && s.framePoses !== jointCount) out.addAt(s.frameStartLine, 'frame-pose-count', Target.Command, s.framePoses, jointCount);
  s.framePoses = 0;
}

/** The joint limit of engines that store joint indices in a byte (DarkPlaces, FTE's GPU path). */
const ENGINE_MAX_JOINTS = 256;
/** The most joints a cycle's description names before it elides the rest. */
const CYCLE_SHOWN = 6;

/** A cycle of parents from joint j, e.g. "2 → 1 → 2", or "0 → 1 → … → 0" when it is long. */
function describeCycle(parents: readonly number[], j: number, length: number): string {
  const path = [String(j)];
  let k = parents[j];
  for (let step = 1; step < Math.min(length, CYCLE_SHOWN); step++, k = parents[k]) path.push(String(k));
  if (length > CYCLE_SHOWN) path.push('…');
  path.push(String(j));
  return path.join(' → ');
}

function zeroArea(positions: Values, a: number, b: number, c: number): boolean {
  const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
  const e1x = positions[3 * b] - ax, e1y = positions[3 * b + 1] - ay, e1z = positions[3 * b + 2] - az;
  const e2x = positions[3 * c] - ax, e2y = positions[3 * c + 1] - ay, e2z = positions[3 * c + 2] - az;
  return e2y * e1z - e2z * e1y === 0 && e2z * e1x - e2x * e1z === 0 && e2x * e1y - e2y * e1x === 0;
}

// Scratch lists of the chunk being passed (each pass keeps exact copies).
const usedScratch = int32s(4096);
const faceArityScratch = int32s(256);
const faceLineScratch = int32s(256);
const fsArityScratch = int32s(16);
const fsLineScratch = int32s(16);

/**
 * The pass over lines 0..lineCount-1 of `chunk` from the state `entry`. `vpCount`: the chunk's
 * vp lines among them. A chunk of vertex attributes only (no structural line) only counts its
 * vertices.
 */
export function passChunk(chunk: Chunk, lineCount: number, vpCount: number, structural: boolean, entry: PassState, g: PassGlobals): ChunkPass {
  if (!structural) {
    let exit = entry;
    if (vpCount > 0) {
      const counted = new RunningState(entry);
      counted.verticesSoFar += vpCount;
      exit = counted;
    }
    return { chunk, globals: g, lineCount, entry, exit, problems: undefined, foreign: [], faceArity: undefined, faceArityLine: undefined, fsArity: undefined, fsLine: undefined, usedFrom: 0, used: undefined };
  }
  const s = new RunningState(entry);
  const out = new ProblemRecorder(chunk);
  const { vertexCount, jointCount, positions, zeroAreas } = g;
  usedScratch.length = faceArityScratch.length = faceLineScratch.length = fsArityScratch.length = fsLineScratch.length = 0;
  let usedMin = Infinity;
  let usedMax = -1;

  const checkFace = (fm: boolean, index0: number, values: Values, v: number, n: number): void => {
    const meshEnd = fm && s.meshOrdinal + 1 < g.meshStarts.length ? g.meshStarts[s.meshOrdinal + 1] : vertexCount;
    const meshStart = fm ? s.fmOffset : 0;
    let i0 = -1;
    let i1 = -1;
    let reportedDegenerate = false;
    const used = usedScratch.reserve(n);
    for (let a = 0; a < n; a++) {
      const raw = values[v + a];
      let index: number;
      if (raw < 0) {
        index = s.verticesSoFar + raw;
        if (index < 0) {
          out.add(index0, 'face-index-clamped', a, raw, s.verticesSoFar);
          index = 0;
        }
      } else {
        index = fm ? s.fmOffset + raw : raw;
      }
      if (index >= vertexCount) {
        out.add(index0, 'face-index-range', a, index, vertexCount);
        index = -1;
      } else {
        used[usedScratch.length++] = index;
        if (index < usedMin) usedMin = index;
        if (index > usedMax) usedMax = index;
        if (fm && (index < meshStart || index >= meshEnd)) {
          out.add(index0, 'face-index-mesh', a, index, meshStart, s.meshLine, Target.Name, undefined, meshEnd);
        }
      }
      if (a === 0) i0 = index;
      else if (a === 1) i1 = index;
      else {
        // Fan triangle (i0, i1, index) (§3.2).
        if (!reportedDegenerate && i0 >= 0 && i1 >= 0 && index >= 0) {
          if (i0 === i1 || i1 === index || i0 === index) {
            out.add(index0, 'degenerate-triangle', Target.Line, a - 2, 0);
            reportedDegenerate = true;
          } else if (zeroAreas && zeroArea(positions, i0, i1, index)) {
            out.add(index0, 'degenerate-triangle', Target.Line, a - 2, 1);
            reportedDegenerate = true;
          }
        }
        i1 = index;
      }
    }
  };

  const { kind, valueStart, values, names } = chunk;
  for (let i = 0; i < lineCount; i++) {
    const k = kind[i] as Cmd;
    if (k === Cmd.Vp) {
      s.verticesSoFar++;
      continue;
    }
    if (k < Cmd.Pq) continue;
    const v = valueStart[i];
    const n = valueStart[i + 1] - v;
    switch (k) {
      case Cmd.Fa:
      case Cmd.Fm:
        if (n >= 3 && g.pairsFs) {
          faceArityScratch.push(n);
          faceLineScratch.push(i);
        }
        if (n < 2) break;
        if (s.sectionPending) {
          const key = `${s.meshName}\u0000${s.materialName}`;
          const first = s.sectionFirstLine.get(key);
          if (first === undefined) {
            const copy = new Map(s.sectionFirstLine);
            copy.set(key, s.meshLine ?? { chunk, index: i });
            s.sectionFirstLine = copy;
          } else {
            out.add(i, 'repeated-section', Target.Command, 0, 0, first, Target.Line, key);
          }
          s.lastSectionMesh = s.meshName;
          s.lastSectionMaterial = s.materialName;
          s.sectionPending = false;
        }
        checkFace(k === Cmd.Fm, i, values, v, n);
        break;
      case Cmd.Fs:
        if (n >= 3) {
          fsArityScratch.push(n);
          fsLineScratch.push(i);
        }
        break;
      case Cmd.Mesh:
        s.meshOrdinal++;
        s.fmOffset = s.verticesSoFar;
        s.meshName = names.get(i) ?? '';
        s.meshLine = { chunk, index: i };
        if (s.lastSectionMesh !== s.meshName) s.sectionPending = true;
        break;
      case Cmd.Material:
        s.materialName = names.get(i) ?? '';
        if (s.lastSectionMaterial !== s.materialName) s.sectionPending = true;
        break;
      case Cmd.Joint: {
        const parent = n > 0 ? values[v] : -1;
        const j = s.jointOrdinal++;
        const cycleLength = g.onCycle[j];
        if (parent >= 0 && (parent >= j || parent >= jointCount || cycleLength)) {
          const related = parent < jointCount ? g.jointAnchors[parent] : undefined;
          const cycle = cycleLength > 0 ? `${describeCycle(g.jointParents, j, cycleLength)}\u0000${cycleLength}` : undefined;
          out.add(i, 'joint-parent', 0, parent, j + (cycle ? 0.5 : 0), related, Target.Name, cycle);
        }
        if (j === ENGINE_MAX_JOINTS) out.add(i, 'engine-compat', Target.Line, 1, jointCount);
        break;
      }
      case Cmd.Pq:
      case Cmd.Pm:
      case Cmd.Pa:
        if (s.animationLine === undefined) {
          s.basePoses++;
          if (s.basePoses > jointCount && s.firstExtraBasePoseLine === undefined) s.firstExtraBasePoseLine = { chunk, index: i };
        } else {
          if (s.framePoses === 0) s.frameStartLine = s.frameOpenLine;
          s.framePoses++;
          s.animationPoses++;
        }
        break;
      case Cmd.Animation:
        closeAnimation(s, jointCount, out);
        s.animationLine = s.frameOpenLine = { chunk, index: i };
        break;
      case Cmd.Frame:
        if (s.animationLine === undefined) out.add(i, 'animation-command-outside', Target.Command);
        else {
          closeFrame(s, jointCount, out);
          s.frameOpenLine = { chunk, index: i };
        }
        break;
      case Cmd.Framerate:
      case Cmd.Loop:
        if (s.animationLine === undefined) out.add(i, 'animation-command-outside', Target.Command);
        break;
      case Cmd.Vertexarray: {
        const type = values[v];
        const format = values[v + 1];
        if (type < 0 || format < 0) break;
        const declared = s.declaredAt[type];
        if (declared !== undefined) {
          out.add(i, 'vertexarray-format', Target.Line, 1, type, declared);
          break;
        }
        const declaredAt = [...s.declaredAt];
        declaredAt[type] = { chunk, index: i };
        s.declaredAt = declaredAt;
        const command = commandOfVertexarrayType(type);
        let hasData = command === Cmd.Vp ? vertexCount > 0 : command !== -1 && g.attributeCount[attributeSlot(command)] > 0;
        // Review fix: normals are generated when triangles exist, tangents when normals and
        // texcoords do (§4.2), so declaring them without vn / vx still describes written data.
        if (type === 2 /* normal */) hasData ||= g.hasFaces;
        else if (type === 3 /* tangent */) hasData ||= g.hasFaces && g.attributeCount[attributeSlot(Cmd.Vt)] > 0;
        if (!hasData) out.add(i, 'vertexarray-format', Target.Line, 2, type);
        // Review fix: at the FORMAT word (value 1), the token at fault (§9.2 Positions).
        else if (format !== IQM_UBYTE && format !== IQM_FLOAT) out.add(i, 'engine-compat', 1, 2, format);
        break;
      }
    }
  }
  out.problems?.trim();
  let used: Uint8Array | Int32Array | undefined;
  let usedFrom = 0;
  if (usedMax >= 0 && (usedMax - usedMin) >> 3 > 4 * usedScratch.length) {
    used = usedScratch.copy();
  } else if (usedMax >= 0) {
    usedFrom = usedMin & ~7;
    used = new Uint8Array(((usedMax - usedFrom) >> 3) + 1);
    const list = usedScratch.data;
    for (let u = 0; u < usedScratch.length; u++) {
      const bit = list[u] - usedFrom;
      used[bit >> 3] |= 1 << (bit & 7);
    }
  }
  const kept = (list: { length: number; copy(): Int32Array }) => (list.length > 0 ? list.copy() : undefined);
  return {
    chunk,
    globals: g,
    lineCount,
    entry,
    exit: s,
    problems: out.problems,
    foreign: out.foreign,
    faceArity: kept(faceArityScratch),
    faceArityLine: kept(faceLineScratch),
    fsArity: kept(fsArityScratch),
    fsLine: kept(fsLineScratch),
    usedFrom,
    used,
  };
}

// The cross-line checks of IQE-SEMANTICS.md §9.2: counts, indices, skeleton, frames, sections.
// Two passes over the chunks' typed arrays: the first gathers totals (vertex count, joints,
// declarations), the second checks every line against them in file order. Lines after the first
// `comment` command are comment text (§3.7) and are not looked at.
import { ATTRIBUTE_KINDS, type Chunk, type ChunkSummary, summariseUpTo, type Values } from './chunk';
import { attributeSlot, Cmd, commandOfVertexarrayType, VERTEXARRAY_TYPES } from './commands';
import { IQM_BLENDINDEXES, IQM_FLOAT, IQM_UBYTE } from '../iqm/layout';
import { ProblemList, Target } from './problems';
import { int32s } from '../growable';

export interface Analysis {
  problems: ProblemList;
  /** Line of the first `comment` command, -1 when there is none. */
  commentLine: number;
  vertexCount: number;
  jointCount: number;
  faceLineCount: number;
}

const DECLARABLE_TYPES = VERTEXARRAY_TYPES.length;
/** The joint limit of engines that store joint indices in a byte (DarkPlaces, FTE's GPU path). */
const ENGINE_MAX_JOINTS = 256;
const VX = attributeSlot(Cmd.Vx);
const VS = attributeSlot(Cmd.Vs);
const VB = attributeSlot(Cmd.Vb);

/** What the analysis reads of each chunk: its summary, cut at the `comment` line where needed. */
interface Part {
  chunk: Chunk;
  summary: ChunkSummary;
  /** Lines of the chunk that are analysed (all, or those before the comment). */
  lineCount: number;
  /** Global index of the chunk's first vertex. */
  vertexStart: number;
}

interface Totals {
  parts: Part[];
  vertexCount: number;
  /** x, y, z per vertex: in 32 bits when every chunk holds its numbers so (they are then exact in 32 bits). */
  positions: Values;
  firstVpLine: number;
  lastVpLine: number;
  attributeCount: Int32Array;
  attributeFirstLine: Int32Array;
  attributeLastLine: Int32Array;
  firstVx4Line: number;
  firstVx6Line: number;
  jointLines: number[];
  jointParents: number[];
  hasAnimation: boolean;
  faceLines: number;
  /** Global vertex count before each `mesh` command. */
  meshStarts: number[];
  blendIndexFormat: number;
  commentLine: number;
}

/** x, y, z of the chunk's `vp` lines first..last (defaults 0) into out from `at` (the values hold them; nothing keeps a copy). */
function readPositions(chunk: Chunk, first: number, last: number, out: Values, at: number): void {
  const { kind, valueStart, values } = chunk;
  let o = at;
  for (let i = first; i <= last; i++) {
    if (kind[i] !== Cmd.Vp) continue;
    const v = valueStart[i];
    const n = valueStart[i + 1] - v;
    out[o++] = n > 0 ? values[v] : 0;
    out[o++] = n > 1 ? values[v + 1] : 0;
    out[o++] = n > 2 ? values[v + 2] : 0;
  }
}

function gatherTotals(chunks: readonly Chunk[], withPositions: boolean): Totals {
  const parts: Part[] = [];
  let commentLine = -1;
  let vertexCount = 0;
  for (const chunk of chunks) {
    const cut = chunk.summary.commentLine;
    const summary = cut >= 0 ? summariseUpTo(chunk, cut) : chunk.summary;
    parts.push({ chunk, summary, lineCount: cut >= 0 ? cut + 1 : chunk.lineCount, vertexStart: vertexCount });
    vertexCount += summary.vpCount;
    if (cut >= 0) {
      commentLine = chunk.firstLine + cut;
      break;
    }
  }
  const t: Totals = {
    parts,
    vertexCount,
    positions: withPositions && parts.every((p) => p.summary.vpCount === 0 || p.chunk.values instanceof Float32Array) ? new Float32Array(3 * vertexCount) : new Float64Array(withPositions ? 3 * vertexCount : 0),
    firstVpLine: -1,
    lastVpLine: -1,
    attributeCount: new Int32Array(ATTRIBUTE_KINDS),
    attributeFirstLine: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    attributeLastLine: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    firstVx4Line: -1,
    firstVx6Line: -1,
    jointLines: [],
    jointParents: [],
    hasAnimation: false,
    faceLines: 0,
    meshStarts: [],
    blendIndexFormat: IQM_UBYTE,
    commentLine,
  };
  let blendDeclared = false;
  for (const { chunk, summary: s, vertexStart } of parts) {
    const base = chunk.firstLine;
    if (withPositions && s.vpCount > 0) readPositions(chunk, s.firstVp, s.lastVp, t.positions, 3 * vertexStart);
    if (s.firstVp >= 0) {
      if (t.firstVpLine < 0) t.firstVpLine = base + s.firstVp;
      t.lastVpLine = base + s.lastVp;
    }
    for (let slot = 0; slot < ATTRIBUTE_KINDS; slot++) {
      if (s.attributeCount[slot] === 0) continue;
      if (t.attributeCount[slot] === 0) t.attributeFirstLine[slot] = base + s.attributeFirst[slot];
      t.attributeCount[slot] += s.attributeCount[slot];
      t.attributeLastLine[slot] = base + s.attributeLast[slot];
    }
    if (t.firstVx4Line < 0 && s.firstVx4 >= 0) t.firstVx4Line = base + s.firstVx4;
    if (t.firstVx6Line < 0 && s.firstVx6 >= 0) t.firstVx6Line = base + s.firstVx6;
    for (let j = 0; j < s.jointLines.length; j++) {
      t.jointLines.push(base + s.jointLines[j]);
      t.jointParents.push(s.jointParents[j]);
    }
    t.hasAnimation ||= s.hasAnimation;
    t.faceLines += s.faceLines;
    for (const offset of s.meshVertexOffsets) t.meshStarts.push(vertexStart + offset);
    for (const i of s.vertexarrayLines) {
      const v = chunk.valueStart[i];
      if (!blendDeclared && chunk.values[v] === IQM_BLENDINDEXES && chunk.values[v + 1] >= 0) {
        blendDeclared = true;
        t.blendIndexFormat = chunk.values[v + 1];
      }
    }
  }
  return t;
}

/** For each joint, the length of the cycle of parents it is on (following parents from it comes back to it), or 0. */
function jointsOnCycles(parents: readonly number[]): Int32Array {
  const n = parents.length;
  const onCycle = new Int32Array(n);
  const state = new Uint8Array(n); // 0 new, 1 on the current walk, 2 done
  const walk: number[] = [];
  for (let start = 0; start < n; start++) {
    let j = start;
    walk.length = 0;
    while (j >= 0 && j < n && Number.isInteger(j) && state[j] === 0) {
      state[j] = 1;
      walk.push(j);
      j = parents[j];
    }
    if (j >= 0 && j < n && state[j] === 1) {
      // The walk came back to j: j and everything after it on the walk form a cycle.
      const from = walk.indexOf(j);
      for (let w = from; w < walk.length; w++) onCycle[walk[w]] = walk.length - from;
    }
    for (const w of walk) state[w] = 2;
  }
  return onCycle;
}

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

/**
 * The cross-line analysis. Without `zeroAreas`, faces are not checked for zero area (that needs
 * every position; it is a warning, so a caller that only wants to know about errors skips it).
 */
export function analyse(chunks: readonly Chunk[], zeroAreas = true): Analysis {
  const steps = analyseInSteps(chunks, zeroAreas);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * analyse() a step at a time: each next() does the work of about one chunk of lines, so that the
 * language server can answer requests between steps (issue 35: a keystroke's validation of a large
 * document held hovers back for its whole length). The chunks must not change meanwhile.
 */
export function* analyseInSteps(chunks: readonly Chunk[], zeroAreas = true): Generator<void, Analysis, undefined> {
  const t = gatherTotals(chunks, zeroAreas);
  yield;
  const problems = new ProblemList();
  const { vertexCount, positions } = t;
  const jointCount = t.jointLines.length;
  const onCycle = jointsOnCycles(t.jointParents);
  const referenced = new Uint8Array(vertexCount);

  // Running state of the line-by-line pass, as the reference compiler keeps it (§3).
  let verticesSoFar = 0;
  let fmOffset = 0;
  let meshOrdinal = -1;
  let jointOrdinal = 0;
  // Sections: the current names, whether a new section is pending, each pair's first section.
  let meshName = '';
  let materialName = '';
  let meshLine = -1;
  let sectionPending = true;
  let lastSectionMesh: string | undefined;
  let lastSectionMaterial: string | undefined;
  const sectionFirstLine = new Map<string, number>();
  // Poses and frames (§3.7).
  let basePoses = 0;
  let firstExtraBasePoseLine = -1;
  let animationLine = -1;
  let animationPoses = 0;
  let framePoses = 0;
  let frameOpenLine = -1;
  let frameStartLine = -1;
  // fs pairing: arities of face lines and of fs lines, in order (the faces' only when the file
  // has an fs line: a list per face line was a fifth of the check's memory on a file of faces).
  const pairsFs = t.parts.some((part) => part.chunk.kind.includes(Cmd.Fs));
  const faceArity = int32s();
  const faceArityLine = int32s();
  const fsArity = int32s();
  const fsLine = int32s();
  const declaredAt = new Int32Array(DECLARABLE_TYPES).fill(-1);

  const closeFrame = (): void => {
    if (framePoses > 0 && framePoses !== jointCount) problems.add(frameStartLine, 'frame-pose-count', Target.Command, framePoses, jointCount);
    framePoses = 0;
  };
  const closeAnimation = (): void => {
    if (animationLine < 0) return;
    closeFrame();
    if (animationPoses === 0) problems.add(animationLine, 'animation-empty', Target.Command);
    animationPoses = 0;
  };

  const checkFace = (fm: boolean, lineNumber: number, values: Values, v: number, n: number): void => {
    const meshEnd = fm && meshOrdinal + 1 < t.meshStarts.length ? t.meshStarts[meshOrdinal + 1] : vertexCount;
    const meshStart = fm ? fmOffset : 0;
    let i0 = -1;
    let i1 = -1;
    let reportedDegenerate = false;
    for (let a = 0; a < n; a++) {
      const raw = values[v + a];
      let index: number;
      if (raw < 0) {
        index = verticesSoFar + raw;
        if (index < 0) {
          problems.add(lineNumber, 'face-index-clamped', a, raw, verticesSoFar);
          index = 0;
        }
      } else {
        index = fm ? fmOffset + raw : raw;
      }
      if (index >= vertexCount) {
        problems.add(lineNumber, 'face-index-range', a, index, vertexCount);
        index = -1;
      } else {
        referenced[index] = 1;
        if (fm && (index < meshStart || index >= meshEnd)) {
          problems.add(lineNumber, 'face-index-mesh', a, index, meshStart, meshLine, Target.Name, -1, undefined, meshEnd);
        }
      }
      if (a === 0) i0 = index;
      else if (a === 1) i1 = index;
      else {
        // Fan triangle (i0, i1, index) (§3.2).
        if (!reportedDegenerate && i0 >= 0 && i1 >= 0 && index >= 0) {
          if (i0 === i1 || i1 === index || i0 === index) {
            problems.add(lineNumber, 'degenerate-triangle', Target.Line, a - 2, 0);
            reportedDegenerate = true;
          } else if (zeroAreas && zeroArea(positions, i0, i1, index)) {
            problems.add(lineNumber, 'degenerate-triangle', Target.Line, a - 2, 1);
            reportedDegenerate = true;
          }
        }
        i1 = index;
      }
    }
  };

  for (const part of t.parts) {
    const { chunk, summary } = part;
    if (summary.structuralLines === 0) {
      // Only vertex attributes: nothing here depends on the running state but the vertex count.
      verticesSoFar += summary.vpCount;
      continue;
    }
    const { kind, valueStart, values, names } = chunk;
    for (let i = 0; i < part.lineCount; i++) {
      const k = kind[i] as Cmd;
      if (k === Cmd.Vp) {
        verticesSoFar++;
        continue;
      }
      if (k < Cmd.Pq) continue;
      const lineNumber = chunk.firstLine + i;
      const v = valueStart[i];
      const n = valueStart[i + 1] - v;
      switch (k) {
        case Cmd.Fa:
        case Cmd.Fm:
          if (n >= 3 && pairsFs) {
            faceArity.push(n);
            faceArityLine.push(lineNumber);
          }
          if (n < 2) break;
          if (sectionPending) {
            const key = `${meshName}\u0000${materialName}`;
            const first = sectionFirstLine.get(key);
            if (first === undefined) sectionFirstLine.set(key, meshLine >= 0 ? meshLine : lineNumber);
            else problems.add(lineNumber, 'repeated-section', Target.Command, 0, 0, first, Target.Line, -1, key);
            lastSectionMesh = meshName;
            lastSectionMaterial = materialName;
            sectionPending = false;
          }
          checkFace(k === Cmd.Fm, lineNumber, values, v, n);
          break;
        case Cmd.Fs:
          if (n >= 3) {
            fsArity.push(n);
            fsLine.push(lineNumber);
          }
          break;
        case Cmd.Mesh:
          meshOrdinal++;
          fmOffset = verticesSoFar;
          meshName = names.get(i) ?? '';
          meshLine = lineNumber;
          if (lastSectionMesh !== meshName) sectionPending = true;
          break;
        case Cmd.Material:
          materialName = names.get(i) ?? '';
          if (lastSectionMaterial !== materialName) sectionPending = true;
          break;
        case Cmd.Joint: {
          const parent = n > 0 ? values[v] : -1;
          const j = jointOrdinal++;
          if (parent >= 0 && (parent >= j || parent >= jointCount || onCycle[j])) {
            const related = parent < jointCount ? t.jointLines[parent] : -1;
            const cycle = onCycle[j] > 0 ? `${describeCycle(t.jointParents, j, onCycle[j])}\u0000${onCycle[j]}` : undefined;
            problems.add(lineNumber, 'joint-parent', 0, parent, j + (cycle ? 0.5 : 0), related, Target.Name, -1, cycle);
          }
          if (j === ENGINE_MAX_JOINTS) problems.add(lineNumber, 'engine-compat', Target.Line, 1, jointCount);
          break;
        }
        case Cmd.Pq:
        case Cmd.Pm:
        case Cmd.Pa:
          if (animationLine < 0) {
            basePoses++;
            if (basePoses > jointCount && firstExtraBasePoseLine < 0) firstExtraBasePoseLine = lineNumber;
          } else {
            if (framePoses === 0) frameStartLine = frameOpenLine;
            framePoses++;
            animationPoses++;
          }
          break;
        case Cmd.Animation:
          closeAnimation();
          animationLine = lineNumber;
          frameOpenLine = lineNumber;
          break;
        case Cmd.Frame:
          if (animationLine < 0) problems.add(lineNumber, 'animation-command-outside', Target.Command);
          else {
            closeFrame();
            frameOpenLine = lineNumber;
          }
          break;
        case Cmd.Framerate:
        case Cmd.Loop:
          if (animationLine < 0) problems.add(lineNumber, 'animation-command-outside', Target.Command);
          break;
        case Cmd.Vertexarray: {
          const type = values[v];
          const format = values[v + 1];
          if (type < 0 || format < 0) break;
          if (declaredAt[type] >= 0) {
            problems.add(lineNumber, 'vertexarray-format', Target.Line, 1, type, declaredAt[type]);
            break;
          }
          declaredAt[type] = lineNumber;
          const command = commandOfVertexarrayType(type);
          let hasData = command === Cmd.Vp ? vertexCount > 0 : command !== -1 && t.attributeCount[attributeSlot(command)] > 0;
          // Review fix: normals are generated when triangles exist, tangents when normals and
          // texcoords do (§4.2), so declaring them without vn / vx still describes written data.
          if (type === 2 /* normal */) hasData ||= t.faceLines > 0;
          else if (type === 3 /* tangent */) hasData ||= t.faceLines > 0 && t.attributeCount[attributeSlot(Cmd.Vt)] > 0;
          if (!hasData) problems.add(lineNumber, 'vertexarray-format', Target.Line, 2, type);
          // Review fix: at the FORMAT word (value 1), the token at fault (§9.2 Positions).
          else if (format !== IQM_UBYTE && format !== IQM_FLOAT) problems.add(lineNumber, 'engine-compat', 1, 2, format);
          break;
        }
      }
    }
    yield;
  }
  closeAnimation();

  checkBlends(t, jointCount, problems);
  yield;
  checkAttributeCounts(t, problems);

  // Explicit tangents: the forms must not mix; the reference mishandles them all (B2).
  if (t.firstVx4Line >= 0 && t.firstVx6Line >= 0) {
    const second = Math.max(t.firstVx4Line, t.firstVx6Line);
    const other = Math.min(t.firstVx4Line, t.firstVx6Line);
    problems.add(second, 'vx-mixed-forms', Target.Line, second === t.firstVx6Line ? 6 : 4, 0, other);
  }
  if (t.attributeFirstLine[VX] >= 0) problems.add(t.attributeFirstLine[VX], 'reference-vx', Target.Command);
  if (t.attributeFirstLine[VS] >= 0) problems.add(t.attributeFirstLine[VS], 'reference-smoothing', Target.Command, -1);

  // Base poses (§9.2 base-pose-missing; B10).
  if (jointCount > 0 && basePoses < jointCount && t.faceLines > 0) {
    problems.add(t.jointLines[basePoses], 'base-pose-missing', Target.Line, basePoses, jointCount);
  }
  if (firstExtraBasePoseLine >= 0) problems.add(firstExtraBasePoseLine, 'base-pose-missing', Target.Line, basePoses, jointCount);

  // fs entries against faces (§3.2).
  if (fsArity.length > 0) {
    const pairs = Math.min(fsArity.length, faceArity.length);
    for (let p = 0; p < pairs; p++) {
      if (fsArity.data[p] !== faceArity.data[p]) {
        problems.add(fsLine.data[p], 'fs-count', Target.Line, fsArity.data[p], faceArity.data[p], faceArityLine.data[p]);
      }
    }
    if (fsArity.length < faceArity.length) {
      problems.add(fsLine.data[fsArity.length - 1], 'fs-count', Target.Line, -1, faceArity.length - fsArity.length, faceArityLine.data[fsArity.length]);
    } else if (fsArity.length > faceArity.length) {
      problems.add(fsLine.data[faceArity.length], 'fs-count', Target.Line, -2, fsArity.length - faceArity.length);
    }
  }

  // Vertices no face uses, as runs of consecutive vertices; or no faces at all.
  if (vertexCount > 0 && t.faceLines === 0) {
    problems.add(t.firstVpLine, 'no-faces', Target.Command, vertexCount);
  } else if (t.faceLines > 0) {
    let run = -1;
    for (let index = 0; index <= vertexCount; index++) {
      const used = index === vertexCount || referenced[index] === 1;
      if (!used && run < 0) run = index;
      else if (used && run >= 0) {
        problems.add(vertexLine(t, run), 'unreferenced-vertex', Target.Line, run, index - 1, -1, Target.Line, vertexLine(t, index - 1));
        run = -1;
      }
    }
  }

  // Commands after `comment` that are comment text (§3.7).
  if (t.commentLine >= 0) {
    let swallowed = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.lineCount; i++) {
        const k = chunk.kind[i] as Cmd;
        if (chunk.firstLine + i > t.commentLine && k !== Cmd.Blank && k !== Cmd.Hash && k !== Cmd.Unknown) swallowed++;
      }
    }
    if (swallowed > 0) problems.add(t.commentLine, 'comment-swallows', Target.Command, swallowed);
  }

  problems.trim();
  return { problems, commentLine: t.commentLine, vertexCount, jointCount, faceLineCount: t.faceLines };
}

function zeroArea(positions: Values, a: number, b: number, c: number): boolean {
  const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
  const e1x = positions[3 * b] - ax, e1y = positions[3 * b + 1] - ay, e1z = positions[3 * b + 2] - az;
  const e2x = positions[3 * c] - ax, e2y = positions[3 * c + 1] - ay, e2z = positions[3 * c + 2] - az;
  return e2y * e1z - e2z * e1y === 0 && e2z * e1x - e2x * e1z === 0 && e2x * e1y - e2y * e1x === 0;
}

/** The line of the global vertex `index` (its `vp`): the part that holds it, then a scan. */
function vertexLine(t: Totals, index: number): number {
  let part = t.parts[0];
  for (const p of t.parts) {
    if (p.vertexStart > index) break;
    if (p.summary.vpCount > 0) part = p;
  }
  let seen = part.vertexStart;
  for (let i = 0; i < part.lineCount; i++) {
    if (part.chunk.kind[i] === Cmd.Vp && seen++ === index) return part.chunk.firstLine + i;
  }
  return t.lastVpLine;
}

/** `vb` joint indices against the skeleton, read only in chunks whose summary shows a problem. */
function checkBlends(t: Totals, jointCount: number, problems: ProblemList): void {
  const wrapsUbyte = t.blendIndexFormat === IQM_UBYTE;
  const emptyMatters = jointCount > 0 && t.hasAnimation;
  for (const { chunk, summary: s, lineCount } of t.parts) {
    const suspect =
      s.blendJointMin < 0 || (jointCount > 0 && s.blendJointMax >= jointCount) || (wrapsUbyte && s.blendJointMax >= 256) || (emptyMatters && s.emptyBlends > 0);
    if (!suspect || s.attributeCount[VB] === 0) continue;
    for (let i = 0; i < lineCount; i++) {
      if (chunk.kind[i] !== Cmd.Vb) continue;
      const lineNumber = chunk.firstLine + i;
      const v = chunk.valueStart[i];
      const n = chunk.valueStart[i + 1] - v;
      for (let a = 0; a + 1 < n; a += 2) {
        const joint = chunk.values[v + a];
        if (joint < 0 || (jointCount > 0 && joint >= jointCount)) problems.add(lineNumber, 'blend-joint-range', a, joint, jointCount);
        else if (joint >= 256 && wrapsUbyte) problems.add(lineNumber, 'blend-joint-range', a, joint, -1);
      }
      if (emptyMatters) {
        // Review fix: also when every weight is dropped (<= 0.001), at the whole line then.
        let weighted = false;
        for (let a = 1; a < n; a += 2) if (chunk.values[v + a] > 0.001) weighted = true;
        if (!weighted) problems.add(lineNumber, 'weights-invalid', n === 0 ? Target.Command : Target.Line, 0);
      }
    }
  }
}

/** Each attribute array must be absent or as long as the `vp` array (§9.2 attribute-count). */
/**
 * The line of the `vp` of vertex `index` (0-based, < vertexCount), or of the `mesh` command just
 * before it when no other vertex comes between (the vertex starts that mesh).
 */
function whereVerticesStart(t: Totals, index: number): number {
  for (let p = 0; p < t.parts.length; p++) {
    const { chunk, summary, lineCount, vertexStart } = t.parts[p];
    if (index >= vertexStart + summary.vpCount) continue;
    let seen = vertexStart;
    for (let i = 0; i < lineCount; i++) {
      if (chunk.kind[i] !== Cmd.Vp || seen++ !== index) continue;
      // Back to the previous vertex or mesh line (through earlier chunks when needed).
      for (let q = p, k = i - 1; q >= 0; k = --q >= 0 ? t.parts[q].lineCount - 1 : -1) {
        const kinds = t.parts[q].chunk.kind;
        for (; k >= 0; k--) {
          if (kinds[k] === Cmd.Vp) return chunk.firstLine + i;
          if (kinds[k] === Cmd.Mesh) return t.parts[q].chunk.firstLine + k;
        }
      }
      return chunk.firstLine + i;
    }
  }
  return t.lastVpLine;
}

function checkAttributeCounts(t: Totals, problems: ProblemList): void {
  for (let slot = 0; slot < ATTRIBUTE_KINDS; slot++) {
    const count = t.attributeCount[slot];
    if (count === 0 || count === t.vertexCount) continue;
    if (count < t.vertexCount) {
      // Reported where the array stops: at the first vertex without one (vertex `count`), or at
      // its `mesh` line when that vertex starts a mesh; related: the array's last line.
      problems.add(whereVerticesStart(t, count), 'attribute-count', Target.Command, count, t.vertexCount, t.attributeLastLine[slot], Target.Command, -1, undefined, slot);
      continue;
    }
    // Reported at the first line of this kind that has no matching vp.
    let seen = 0;
    const command = (Cmd.Vt + slot) as Cmd;
    for (const { chunk, summary, lineCount } of t.parts) {
      if (seen + summary.attributeCount[slot] <= t.vertexCount) {
        seen += summary.attributeCount[slot];
        continue;
      }
      for (let i = 0; i < lineCount; i++) {
        if (chunk.kind[i] === command && ++seen === t.vertexCount + 1) {
          problems.add(chunk.firstLine + i, 'attribute-count', Target.Command, count, t.vertexCount, t.lastVpLine, Target.Command, -1, undefined, slot);
          break;
        }
      }
      break;
    }
  }
}

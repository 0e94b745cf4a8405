// The cross-line checks of IQE-SEMANTICS.md §9.2: counts, indices, skeleton, frames, sections.
// Two passes over the chunks' typed arrays: the first gathers totals (vertex count, joints,
// declarations), the second checks every line against them in file order. Lines after the first
// `comment` command are comment text (§3.7) and are not looked at.
import { type Chunk } from './chunk';
import { attributeSlot, Cmd, commandOfVertexarrayType, FORMAT_UBYTE, isAttribute, TYPE_BLENDINDEXES, VERTEXARRAY_TYPES } from './commands';
import { ProblemList, Target } from './problems';

export interface Analysis {
  problems: ProblemList;
  /** Line of the first `comment` command, -1 when there is none. */
  commentLine: number;
  vertexCount: number;
  jointCount: number;
  faceLineCount: number;
}

class IntList {
  length = 0;
  data = new Int32Array(64);
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

class RealList {
  length = 0;
  data = new Float64Array(192);
  push3(x: number, y: number, z: number): void {
    if (this.length + 3 > this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
    this.data[this.length++] = y;
    this.data[this.length++] = z;
  }
}

const ATTRIBUTE_KINDS = 16;
const DECLARABLE_TYPES = VERTEXARRAY_TYPES.length;
/** The joint limit of engines that store joint indices in a byte (DarkPlaces, FTE's GPU path). */
const ENGINE_MAX_JOINTS = 256;

interface Totals {
  vertexCount: number;
  lastVpLine: number;
  firstVpLine: number;
  attributeCount: Int32Array;
  attributeLastLine: Int32Array;
  vpLines: IntList;
  positions: RealList;
  jointLines: IntList;
  jointParents: number[];
  hasAnimation: boolean;
  faceLines: number;
  meshStarts: IntList;
  declarationLine: Int32Array;
  declarationFormat: Int32Array;
  blendIndexFormat: number;
  commentLine: number;
}

function gatherTotals(chunks: readonly Chunk[]): Totals {
  const t: Totals = {
    vertexCount: 0,
    lastVpLine: -1,
    firstVpLine: -1,
    attributeCount: new Int32Array(ATTRIBUTE_KINDS),
    attributeLastLine: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    vpLines: new IntList(),
    positions: new RealList(),
    jointLines: new IntList(),
    jointParents: [],
    hasAnimation: false,
    faceLines: 0,
    meshStarts: new IntList(),
    declarationLine: new Int32Array(DECLARABLE_TYPES).fill(-1),
    declarationFormat: new Int32Array(DECLARABLE_TYPES).fill(-1),
    blendIndexFormat: FORMAT_UBYTE,
    commentLine: -1,
  };
  for (const chunk of chunks) {
    const { kind, valueStart, values } = chunk;
    for (let i = 0; i < chunk.lineCount; i++) {
      const k = kind[i] as Cmd;
      const lineNumber = chunk.firstLine + i;
      const v = valueStart[i];
      const n = valueStart[i + 1] - v;
      switch (k) {
        case Cmd.Vp:
          if (t.firstVpLine < 0) t.firstVpLine = lineNumber;
          t.lastVpLine = lineNumber;
          t.vertexCount++;
          t.vpLines.push(lineNumber);
          t.positions.push3(n > 0 ? values[v] : 0, n > 1 ? values[v + 1] : 0, n > 2 ? values[v + 2] : 0);
          break;
        case Cmd.Joint:
          t.jointLines.push(lineNumber);
          t.jointParents.push(n > 0 ? values[v] : -1);
          break;
        case Cmd.Animation:
          t.hasAnimation = true;
          break;
        case Cmd.Fa:
        case Cmd.Fm:
          t.faceLines++;
          break;
        case Cmd.Mesh:
          t.meshStarts.push(t.vertexCount);
          break;
        case Cmd.Vertexarray: {
          const type = values[v];
          const format = values[v + 1];
          if (type >= 0 && format >= 0 && t.declarationLine[type] < 0) {
            t.declarationLine[type] = lineNumber;
            t.declarationFormat[type] = format;
            if (type === TYPE_BLENDINDEXES) t.blendIndexFormat = format;
          }
          break;
        }
        case Cmd.Comment:
          t.commentLine = lineNumber;
          return t;
        default:
          if (isAttribute(k)) {
            const slot = attributeSlot(k);
            t.attributeCount[slot]++;
            t.attributeLastLine[slot] = lineNumber;
          }
      }
    }
  }
  return t;
}

/** For each joint, whether following parents from it comes back to it. */
function jointsOnCycles(parents: readonly number[]): Uint8Array {
  const n = parents.length;
  const onCycle = new Uint8Array(n);
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
      for (let w = walk.indexOf(j); w < walk.length; w++) onCycle[walk[w]] = 1;
    }
    for (const w of walk) state[w] = 2;
  }
  return onCycle;
}

export function analyse(chunks: readonly Chunk[]): Analysis {
  const t = gatherTotals(chunks);
  const problems = new ProblemList();
  const vertexCount = t.vertexCount;
  const jointCount = t.jointLines.length;
  const onCycle = jointsOnCycles(t.jointParents);
  const referenced = new Uint8Array(vertexCount);
  const positions = t.positions.data;

  // Running state of the second pass, as the reference compiler keeps it (§3).
  let verticesSoFar = 0;
  let fmOffset = 0;
  let meshOrdinal = -1;
  const attributeSeen = new Int32Array(ATTRIBUTE_KINDS);
  let vx4Line = -1;
  let vx6Line = -1;
  let firstVxLine = -1;
  let firstVsLine = -1;
  let jointOrdinal = 0;
  // Sections: the current names, whether a new section is pending, and each (mesh, material)
  // pair's first section.
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
  // fs pairing: arities of face lines and of fs lines, in order.
  const faceArity = new IntList();
  const faceArityLine = new IntList();
  const fsArity = new IntList();
  const fsLine = new IntList();
  const declaredAt = new Int32Array(DECLARABLE_TYPES).fill(-1);

  const closeFrame = (): void => {
    if (framePoses > 0 && framePoses !== jointCount) {
      problems.add(frameStartLine, 'frame-pose-count', Target.Command, framePoses, jointCount);
    }
    framePoses = 0;
  };
  const closeAnimation = (): void => {
    if (animationLine < 0) return;
    closeFrame();
    if (animationPoses === 0) problems.add(animationLine, 'animation-empty', Target.Command);
    animationPoses = 0;
  };

  outer: for (const chunk of chunks) {
    const { kind, valueStart, values, names } = chunk;
    for (let i = 0; i < chunk.lineCount; i++) {
      const k = kind[i] as Cmd;
      const lineNumber = chunk.firstLine + i;
      const v = valueStart[i];
      const n = valueStart[i + 1] - v;
      switch (k) {
        case Cmd.Vp:
          verticesSoFar++;
          break;
        case Cmd.Fa:
        case Cmd.Fm: {
          if (n >= 3) {
            faceArity.push(n);
            faceArityLine.push(lineNumber);
          }
          if (n < 2) break;
          if (sectionPending || lastSectionMesh === undefined) {
            const key = `${meshName}\u0000${materialName}`;
            const first = sectionFirstLine.get(key);
            const here = meshLine >= 0 ? meshLine : lineNumber;
            if (first === undefined) sectionFirstLine.set(key, here);
            else problems.add(lineNumber, 'repeated-section', Target.Command, 0, 0, first, Target.Line, -1, `${meshName}\u0000${materialName}`);
            lastSectionMesh = meshName;
            lastSectionMaterial = materialName;
            sectionPending = false;
          }
          checkFace(k === Cmd.Fm, lineNumber, values, v, n);
          break;
        }
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
          if (lastSectionMesh === undefined || lastSectionMesh !== meshName) sectionPending = true;
          break;
        case Cmd.Material:
          materialName = names.get(i) ?? '';
          if (lastSectionMaterial === undefined || lastSectionMaterial !== materialName) sectionPending = true;
          break;
        case Cmd.Vb:
          checkBlend(lineNumber, values, v, n);
          countAttribute(k, lineNumber);
          break;
        case Cmd.Vx:
          if (n >= 5) {
            if (vx6Line < 0) vx6Line = lineNumber;
          } else if (vx4Line < 0) vx4Line = lineNumber;
          if (vx4Line >= 0 && vx6Line >= 0 && (vx4Line === lineNumber || vx6Line === lineNumber)) {
            problems.add(lineNumber, 'vx-mixed-forms', Target.Line, n >= 5 ? 6 : 4, 0, vx4Line === lineNumber ? vx6Line : vx4Line);
          }
          if (firstVxLine < 0) {
            firstVxLine = lineNumber;
            problems.add(lineNumber, 'reference-vx', Target.Command);
          }
          countAttribute(k, lineNumber);
          break;
        case Cmd.Vs:
          if (firstVsLine < 0) {
            firstVsLine = lineNumber;
            problems.add(lineNumber, 'reference-smoothing', Target.Command, -1);
          }
          countAttribute(k, lineNumber);
          break;
        case Cmd.Joint: {
          const parent = n > 0 ? values[v] : -1;
          const j = jointOrdinal++;
          if (parent >= 0 && (parent >= j || parent >= jointCount || onCycle[j])) {
            const related = parent < jointCount ? t.jointLines.data[parent] : -1;
            problems.add(lineNumber, 'joint-parent', 0, parent, j + (onCycle[j] ? 0.5 : 0), related, Target.Name);
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
          const hasData = command === Cmd.Vp ? vertexCount > 0 : command !== -1 && t.attributeCount[attributeSlot(command)] > 0;
          if (!hasData) problems.add(lineNumber, 'vertexarray-format', Target.Line, 2, type);
          else if (format !== FORMAT_UBYTE && format !== 7 /* float */) problems.add(lineNumber, 'engine-compat', Target.Line, 2, format);
          break;
        }
        case Cmd.Comment:
          break outer;
        default:
          if (isAttribute(k)) countAttribute(k, lineNumber);
      }
    }
  }
  closeAnimation();

  function countAttribute(k: Cmd, lineNumber: number): void {
    const slot = attributeSlot(k);
    const seen = ++attributeSeen[slot];
    if (seen === vertexCount + 1) {
      // The first line of this kind with no matching vp (§9.2 attribute-count).
      problems.add(lineNumber, 'attribute-count', Target.Command, t.attributeCount[slot], vertexCount, t.lastVpLine, Target.Command);
    }
  }

  function checkFace(fm: boolean, lineNumber: number, values: Float64Array, v: number, n: number): void {
    const meshEnd = fm && meshOrdinal + 1 < t.meshStarts.length ? t.meshStarts.data[meshOrdinal + 1] : vertexCount;
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
        if (fm && (index < meshStart || index >= meshEnd)) problems.add(lineNumber, 'face-index-mesh', a, index, meshStart, meshLine, Target.Name, -1, undefined, meshEnd);
      }
      if (a === 0) i0 = index;
      else if (a === 1) i1 = index;
      else {
        // Fan triangle (i0, i1, index) (§3.2).
        if (!reportedDegenerate && i0 >= 0 && i1 >= 0 && index >= 0) {
          if (i0 === i1 || i1 === index || i0 === index) {
            problems.add(lineNumber, 'degenerate-triangle', Target.Line, a - 2, 0);
            reportedDegenerate = true;
          } else if (zeroArea(i0, i1, index)) {
            problems.add(lineNumber, 'degenerate-triangle', Target.Line, a - 2, 1);
            reportedDegenerate = true;
          }
        }
        i1 = index;
      }
    }
  }

  function zeroArea(a: number, b: number, c: number): boolean {
    const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
    const e1x = positions[3 * b] - ax, e1y = positions[3 * b + 1] - ay, e1z = positions[3 * b + 2] - az;
    const e2x = positions[3 * c] - ax, e2y = positions[3 * c + 1] - ay, e2z = positions[3 * c + 2] - az;
    const cx = e2y * e1z - e2z * e1y;
    const cy = e2z * e1x - e2x * e1z;
    const cz = e2x * e1y - e2y * e1x;
    return cx === 0 && cy === 0 && cz === 0;
  }

  function checkBlend(lineNumber: number, values: Float64Array, v: number, n: number): void {
    for (let a = 0; a + 1 < n; a += 2) {
      const joint = values[v + a];
      if (joint < 0 || (jointCount > 0 && joint >= jointCount)) {
        problems.add(lineNumber, 'blend-joint-range', a, joint, jointCount);
      } else if (joint >= 256 && t.blendIndexFormat === FORMAT_UBYTE) {
        problems.add(lineNumber, 'blend-joint-range', a, joint, -1);
      }
    }
    if (n === 0 && jointCount > 0 && t.hasAnimation) problems.add(lineNumber, 'weights-invalid', Target.Command, 0);
  }

  // Attribute arrays shorter than the vp array: reported at the last vp (§9.2).
  for (let slot = 0; slot < ATTRIBUTE_KINDS; slot++) {
    const count = t.attributeCount[slot];
    if (count > 0 && count < vertexCount) {
      problems.add(t.lastVpLine, 'attribute-count', Target.Command, count, vertexCount, t.attributeLastLine[slot], Target.Command, -1, undefined, slot);
    }
  }
  // Attributes with no vp at all are caught by countAttribute (seen === 1 when vertexCount is 0).

  // Base poses (§9.2 base-pose-missing; B10).
  if (jointCount > 0 && basePoses < jointCount && t.faceLines > 0) {
    problems.add(t.jointLines.data[basePoses], 'base-pose-missing', Target.Line, basePoses, jointCount);
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
        problems.add(t.vpLines.data[run], 'unreferenced-vertex', Target.Line, run, index - 1, -1, Target.Line, t.vpLines.data[index - 1]);
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

  return { problems, commentLine: t.commentLine, vertexCount, jointCount, faceLineCount: t.faceLines };
}

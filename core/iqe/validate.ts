// The cross-line checks of IQE-SEMANTICS.md §9.2: counts, indices, skeleton, frames, sections.
// Two passes over the chunks' typed arrays: the first gathers totals (vertex count, joints,
// declarations) from the chunks' summaries, the second checks every line against them in file
// order, a chunk at a time (linePass.ts), keeping each chunk's results so that after an edit only
// the chunks whose input changed are passed again. Lines after the first `comment` command are
// comment text (§3.7) and are not looked at.
import { ATTRIBUTE_KINDS, type Chunk, type ChunkSummary, summariseUpTo, type Values } from './chunk';
import { attributeSlot, Cmd } from './commands';
import { IQM_BLENDINDEXES, IQM_UBYTE } from '../iqm/layout';
import { ProblemList, Target } from './problems';
import { int32s } from '../growable';
import { type Anchor, type ChunkPass, closeAnimation, decodeLine, passChunk, PassMemo, type PassGlobals, ProblemRecorder, resolveLine, runningState, START_STATE } from './linePass';

export { PassMemo } from './linePass';

export interface Analysis {
  problems: ProblemList;
  /** Line of the first `comment` command, -1 when there is none. */
  commentLine: number;
  vertexCount: number;
  jointCount: number;
  faceLineCount: number;
}

const VX = attributeSlot(Cmd.Vx);
const VS = attributeSlot(Cmd.Vs);
const VB = attributeSlot(Cmd.Vb);
/** Chunks whose kept pass is reused between two yields of analyseInSteps (a reuse is a few comparisons). */
const REUSED_PER_STEP = 256;

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
  positionsEpoch: number;
  firstVpLine: number;
  lastVpLine: number;
  attributeCount: Int32Array;
  attributeFirstLine: Int32Array;
  attributeLastLine: Int32Array;
  firstVx4Line: number;
  firstVx6Line: number;
  jointLines: number[];
  jointAnchors: Anchor[];
  jointParents: number[];
  hasAnimation: boolean;
  faceLines: number;
  /** Global vertex count before each `mesh` command. */
  meshStarts: number[];
  blendIndexFormat: number;
  commentLine: number;
  pairsFs: boolean;
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

/**
 * The positions of every vertex. The last analysis's (memo) are reused when the parts holding vp
 * lines start at the same vertices: only the parts whose chunk an edit replaced are read again,
 * and the epoch moves only when a position changed (the kept passes then check faces again).
 */
function positionsOf(parts: readonly Part[], vertexCount: number, memo: PassMemo): { positions: Values; epoch: number } {
  const vpParts = parts.filter((p) => p.summary.vpCount > 0);
  const kept = memo.positions;
  if (
    kept !== undefined &&
    kept.values.length === 3 * vertexCount &&
    kept.parts.length === vpParts.length &&
    kept.parts.every((p, k) => p.vertexStart === vpParts[k].vertexStart)
  ) {
    let epoch = kept.epoch;
    for (let k = 0; k < vpParts.length; k++) {
      const { chunk, summary: s, lineCount, vertexStart } = vpParts[k];
      if (kept.parts[k].chunk === chunk && kept.parts[k].lineCount === lineCount) continue;
      // 32-bit positions cannot hold a chunk's 64-bit numbers: read them all again then.
      if (kept.values instanceof Float32Array && !(chunk.values instanceof Float32Array)) return readAllPositions(vpParts, vertexCount, memo, kept.epoch + 1);
      const fresh = new Float64Array(3 * s.vpCount);
      readPositions(chunk, s.firstVp, s.lastVp, fresh, 0);
      const at = 3 * vertexStart;
      for (let i = 0; i < fresh.length; i++) {
        if (kept.values[at + i] === fresh[i]) continue;
        kept.values[at + i] = fresh[i];
        epoch = kept.epoch + 1;
      }
      kept.parts[k] = { chunk, lineCount, vertexStart };
    }
    kept.epoch = epoch;
    return { positions: kept.values, epoch };
  }
  return readAllPositions(vpParts, vertexCount, memo, (kept?.epoch ?? 0) + 1);
}

function readAllPositions(vpParts: readonly Part[], vertexCount: number, memo: PassMemo, epoch: number): { positions: Values; epoch: number } {
  const positions = vpParts.every((p) => p.chunk.values instanceof Float32Array) ? new Float32Array(3 * vertexCount) : new Float64Array(3 * vertexCount);
  for (const { chunk, summary: s, vertexStart } of vpParts) readPositions(chunk, s.firstVp, s.lastVp, positions, 3 * vertexStart);
  memo.positions = { values: positions, parts: vpParts.map(({ chunk, lineCount, vertexStart }) => ({ chunk, lineCount, vertexStart })), epoch };
  return { positions, epoch };
}

function gatherTotals(chunks: readonly Chunk[], withPositions: boolean, memo: PassMemo): Totals {
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
  const { positions, epoch } = withPositions ? positionsOf(parts, vertexCount, memo) : { positions: new Float64Array(0), epoch: 0 };
  const t: Totals = {
    parts,
    vertexCount,
    positions,
    positionsEpoch: epoch,
    firstVpLine: -1,
    lastVpLine: -1,
    attributeCount: new Int32Array(ATTRIBUTE_KINDS),
    attributeFirstLine: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    attributeLastLine: new Int32Array(ATTRIBUTE_KINDS).fill(-1),
    firstVx4Line: -1,
    firstVx6Line: -1,
    jointLines: [],
    jointAnchors: [],
    jointParents: [],
    hasAnimation: false,
    faceLines: 0,
    meshStarts: [],
    blendIndexFormat: IQM_UBYTE,
    commentLine,
    pairsFs: false,
  };
  let blendDeclared = false;
  for (const { chunk, summary: s, vertexStart } of parts) {
    const base = chunk.firstLine;
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
      t.jointAnchors.push({ chunk, index: s.jointLines[j] });
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
    if (!t.pairsFs && s.structuralLines > 0) t.pairsFs = memo.hasFs(chunk);
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

/**
 * The cross-line analysis. Without `zeroAreas`, faces are not checked for zero area (that needs
 * every position; it is a warning, so a caller that only wants to know about errors skips it).
 */
export function analyse(chunks: readonly Chunk[], zeroAreas = true, memo?: PassMemo): Analysis {
  const steps = analyseInSteps(chunks, zeroAreas, memo);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Adds a kept pass's problems to `problems`, at the lines their anchors have now. */
function addProblemsOf(chunk: Chunk | undefined, kept: ProblemList, foreign: readonly Anchor[], problems: ProblemList): void {
  for (let p = 0; p < kept.length; p++) {
    problems.copy(kept, p, decodeLine(chunk, foreign, kept.line(p)), decodeLine(chunk, foreign, kept.relatedLine(p)));
  }
}

/**
 * analyse() a step at a time: each next() does the work of about one chunk of lines, so that the
 * language server can answer requests between steps (issue 35: a keystroke's validation of a large
 * document held hovers back for its whole length). The chunks must not change meanwhile. `memo`
 * keeps each chunk's pass for the next analysis of the same document (IqeDocument keeps one): a
 * chunk whose lines, starting state and document totals are unchanged is not passed again.
 */
export function* analyseInSteps(chunks: readonly Chunk[], zeroAreas = true, memo = new PassMemo()): Generator<void, Analysis, undefined> {
  const t = gatherTotals(chunks, zeroAreas, memo);
  yield;
  const problems = new ProblemList();
  const { vertexCount, positions } = t;
  const jointCount = t.jointLines.length;
  const globals: PassGlobals = memo.useGlobals({
    vertexCount,
    jointCount,
    meshStarts: t.meshStarts,
    jointParents: t.jointParents,
    jointAnchors: t.jointAnchors,
    onCycle: jointsOnCycles(t.jointParents),
    positions,
    positionsEpoch: t.positionsEpoch,
    zeroAreas,
    pairsFs: t.pairsFs,
    hasFaces: t.faceLines > 0,
    attributeCount: t.attributeCount,
  });

  // The line-by-line pass, a chunk at a time; a chunk's kept pass when its input is unchanged.
  const passes: ChunkPass[] = [];
  let state = START_STATE;
  let reused = 0;
  memo.passedLastTime = 0;
  for (const part of t.parts) {
    let pass = memo.reusable(part.chunk, part.lineCount, state, globals);
    if (pass === undefined) {
      pass = passChunk(part.chunk, part.lineCount, part.summary.vpCount, part.summary.structuralLines > 0, state, globals);
      memo.passes.set(part.chunk, pass);
      if (part.summary.structuralLines > 0) {
        memo.passedLastTime++;
        yield;
      }
    } else if (++reused % REUSED_PER_STEP === 0) {
      yield;
    }
    passes.push(pass);
    state = pass.exit;
  }
  const end = runningState(state);
  const atEnd = new ProblemRecorder(undefined);
  closeAnimation(end, jointCount, atEnd);

  // The passes' results, in file order: problems, the vertices faces use, the fs pairing's lists.
  const referenced = new Uint8Array((vertexCount + 7) >> 3);
  const faceArity = int32s();
  const faceArityLine = int32s();
  const fsArity = int32s();
  const fsLine = int32s();
  for (const pass of passes) {
    if (pass.problems) addProblemsOf(pass.chunk, pass.problems, pass.foreign, problems);
    const { used, usedFrom } = pass;
    if (used instanceof Uint8Array) {
      for (let b = 0, at = usedFrom >> 3; b < used.length; b++) referenced[at + b] |= used[b];
    } else if (used) {
      for (let u = 0; u < used.length; u++) referenced[used[u] >> 3] |= 1 << (used[u] & 7);
    }
    const base = pass.chunk.firstLine;
    if (pass.faceArity && pass.faceArityLine) {
      faceArity.pushMany(pass.faceArity, pass.faceArity.length);
      for (const line of pass.faceArityLine) faceArityLine.push(base + line);
    }
    if (pass.fsArity && pass.fsLine) {
      fsArity.pushMany(pass.fsArity, pass.fsArity.length);
      for (const line of pass.fsLine) fsLine.push(base + line);
    }
  }
  if (atEnd.problems) addProblemsOf(undefined, atEnd.problems, atEnd.foreign, problems);
  const basePoses = end.basePoses;
  const firstExtraBasePoseLine = resolveLine(end.firstExtraBasePoseLine);

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
    for (let index = 0; index <= vertexCount; ) {
      // Eight vertices at a time where their byte says they all continue the same state.
      if ((index & 7) === 0 && index + 8 <= vertexCount && referenced[index >> 3] === (run < 0 ? 0xff : 0)) {
        index += 8;
        continue;
      }
      const used = index === vertexCount || ((referenced[index >> 3] >> (index & 7)) & 1) === 1;
      if (!used && run < 0) run = index;
      else if (used && run >= 0) {
        problems.add(vertexLine(t, run), 'unreferenced-vertex', Target.Line, run, index - 1, -1, Target.Line, vertexLine(t, index - 1));
        run = -1;
      }
      index++;
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

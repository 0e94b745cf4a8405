// Valve SMD source reader (Half-Life; the Xonotic/Nexuiz sources behind DPMs), `version 1`, into
// the neutral SourceModel (core/compile/source.ts) as the reference compiler reads it: `nodes`
// (joints by id), `skeleton` (`time N` blocks of parent-relative poses, Euler angles in radians;
// a bone a frame leaves out keeps its pose of the first frame), `triangles` (a material line and
// three vertex lines: parent bone, position, normal, texture coordinates with v flipped, and in
// the extended form a count of bone links and their weights; what the links leave of 1 goes to
// the parent bone). The three corners are new vertices each, written in reverse (the reference's
// winding); a mesh per run of triangles with the same material (named without its extension).
// A file with triangles is a mesh whose base pose is its first frame; one without is an
// animation named after the file. Malformed lines are errors at their line and column.
import { decimalIn, decimalPrefix, prefixEnd } from '../decimal';
import { isSpace } from '../whitespace';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { blendCombo } from '../compile/input';
import { lineNote } from '../compile/options';
import { ReadError, readFailed } from '../compile/readError';
import { posesFit, posesTooMany } from '../compile/budget';
import { emptySourceModel, type InputJoint, type SourceSection } from '../compile/source';
import type { SourceRead } from '../compile/sources';
import { float64s, Growable, int32s } from '../growable';
import { POSE_STRIDE, poseFromAngles } from '../math/pose';


/** The text's lines (split at \r\n, \r or \n) from `from`: line i is text[starts[i] .. ends[i]). */
function lineRanges(text: string, from: number): { starts: Int32Array; ends: Int32Array } {
  const starts = int32s(1024), ends = int32s(1024);
  let p = from;
  // The next \n and \r at or after p, each looked for again only once p has passed it.
  let lf = text.indexOf('\n', p);
  let cr = text.indexOf('\r', p);
  for (;;) {
    starts.push(p);
    if (lf >= 0 && lf < p) lf = text.indexOf('\n', p);
    if (cr >= 0 && cr < p) cr = text.indexOf('\r', p);
    if (lf < 0 && cr < 0) {
      ends.push(text.length);
      break;
    }
    const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
    ends.push(end);
    p = end === cr && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
  }
  return { starts: starts.view(), ends: ends.view() };
}

/**
 * The words of one line, found in place (no string per word): separated by spaces and tabs, a
 * quoted word keeps its spaces; word k is text[from[k] .. to[k]) (a quoted word's inside) at
 * columns column[k] .. end[k] of its line. One is reused line after line.
 */
class Words {
  count = 0;
  private from: Int32Array = new Int32Array(32);
  private to: Int32Array = new Int32Array(32);
  column: Int32Array = new Int32Array(32);
  end: Int32Array = new Int32Array(32);
  /** Each word as a decimal number (core/decimal.ts), NaN when it is not one: read with the word. */
  private values: Float64Array = new Float64Array(32);

  constructor(private readonly text: string) {}

  /** The words of the line text[a .. b). */
  read(a: number, b: number): this {
    const text = this.text;
    this.count = 0;
    let p = a;
    while (p < b) {
      const c = text.charCodeAt(p);
      if (c === 32 || c === 9) {
        p++;
        continue;
      }
      if (c === 34) {
        const close = text.indexOf('"', p + 1);
        const e = close < 0 || close > b ? b : close;
        this.add(p + 1, e, p - a, Math.min(e + 1, b) - a, decimalIn(text, p + 1, e));
        p = e + 1;
        continue;
      }
      // A number in one pass when the word is one; else to the word's end.
      let value = decimalPrefix(text, p, b);
      let e = prefixEnd.at;
      if (e < b && text.charCodeAt(e) !== 32 && text.charCodeAt(e) !== 9) {
        for (; e < b; e++) {
          const d = text.charCodeAt(e);
          if (d === 32 || d === 9) break;
        }
        value = decimalIn(text, p, e);
      }
      this.add(p, e, p - a, e - a, value);
      p = e;
    }
    return this;
  }

  private add(from: number, to: number, column: number, end: number, value: number): void {
    const k = this.count++;
    if (k === this.from.length) {
      const grow = (a: Int32Array): Int32Array => {
        const b = new Int32Array(2 * a.length);
        b.set(a);
        return b;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
      this.column = grow(this.column);
      this.end = grow(this.end);
      const values = new Float64Array(2 * k);
      values.set(this.values);
      this.values = values;
    }
    this.values[k] = value;
    this.from[k] = from;
    this.to[k] = to;
    this.column[k] = column;
    this.end[k] = end;
  }

  word(k: number): string {
    return this.text.slice(this.from[k], this.to[k]);
  }

  /** Whether word k is `s`. */
  is(k: number, s: string): boolean {
    return this.to[k] - this.from[k] === s.length && this.text.startsWith(s, this.from[k]);
  }

  /** Word k as a decimal number (core/decimal.ts), NaN when it is not one. */
  value(k: number): number {
    return this.values[k];
  }
}

/** Whether text[a .. b) is a comment or blank line (`#`, `;`, `//` after trimStart's white space), as the reference skips them. */
function skipped(text: string, a: number, b: number): boolean {
  let p = a;
  while (p < b && isSpace(text.charCodeAt(p))) p++;
  if (p === b) return true;
  const c = text.charCodeAt(p);
  return c === 35 || c === 59 || (c === 47 && p + 1 < b && text.charCodeAt(p + 1) === 47);
}

/**
 * How much the frames `time` lines skip over may hold (each becomes a copy of the first frame): a
 * multiple of the file's size (issue 17: memory within 4x the text), or this floor for a small file.
 */
const SKIPPED_FRAMES_TEXT_MULTIPLE = 4;
const SKIPPED_FRAMES_FLOOR = 64 * 1024;

/** What the values after a vertex line's parent bone are (for errors). */
const VERTEX_VALUES = ['the position x', 'the position y', 'the position z', 'the normal x', 'the normal y', 'the normal z', 'the texture u', 'the texture v'];

/** Reads an SMD; `name` names the animation of a file without triangles (the file name without its extension). */
export function readSmd(text: string, name: string): SourceRead {
  try {
    const diagnostics: IqeDiagnostic[] = [];
    return { model: smd(text, name, diagnostics), diagnostics };
  } catch (error) {
    return readFailed(error);
  }
}

function smd(text: string, name: string, diagnostics: IqeDiagnostic[]): ReturnType<typeof emptySourceModel> {
  const { starts, ends } = lineRanges(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const lineCount = starts.length;
  const lineLength = (line: number): number => ends[line] - starts[line];
  const isSkipped = (line: number): boolean => skipped(text, starts[line], ends[line]);
  const ws = new Words(text);
  const wordsOf = (line: number): Words => ws.read(starts[line], ends[line]);
  const joints: (InputJoint | null)[] = [];
  /** Frames of poses, `joints.length` per frame once the skeleton starts. */
  const frames: Float64Array[] = [];
  let frameLines: number[] = [];
  /** Frames `time` lines skipped over (made copies of the first), in all. */
  let skippedFrames = 0;
  let hasTriangles = false;
  let versionSeen = false;
  const positions = float64s(1024);
  const normals = float64s(1024);
  const texcoords = float64s(1024);
  const bones = new Growable(Uint8Array, 1024);
  const weights = float64s(1024);
  const vertexLines = int32s(1024);
  const sections: SourceSection[] = [];
  /** A vertex line's values after its parent bone, and its (bone, weight) pairs: scratch, one line at a time. */
  const v = new Float64Array(VERTEX_VALUES.length);
  let pairs = new Float64Array(16);
  let l = 0;
  /** The number in word k of a line, or an error there. */
  const num = (ws: Words, k: number, line: number, what: string, integer = false): number => {
    if (k >= ws.count) throw new ReadError('smd-values', `expected ${what} (value ${k + 1} of the line)`, line, lineLength(line), lineLength(line));
    const value = ws.value(k);
    if (Number.isNaN(value) || (integer && !Number.isInteger(value))) throw new ReadError('number-invalid', `expected ${what}, found '${ws.word(k)}'`, line, ws.column[k], ws.end[k]);
    return value;
  };
  /** The lines of a block up to its `end` (an error at the block's line when there is none). */
  const block = (keyword: string, start: number, each: (ws: Words, line: number) => void): void => {
    for (l = start + 1; l < lineCount; l++) {
      if (isSkipped(l)) continue;
      const ws = wordsOf(l);
      if (ws.is(0, 'end')) return;
      each(ws, l);
    }
    throw new ReadError('unterminated-block', `unterminated block: '${keyword}' has no 'end'`, start, 0, keyword.length);
  };
  const bone = (ws: Words, k: number, line: number, what: string): number => {
    const b = num(ws, k, line, what, true);
    if (b < 0 || b >= joints.length || !joints[b]) {
      throw new ReadError('smd-bone-range', `${what} ${b} is not in nodes (${joints.length > 0 ? `0..${joints.length - 1}` : 'none'})`, line, ws.column[k], ws.end[k]);
    }
    return b;
  };
  for (; l < lineCount; l++) {
    if (isSkipped(l)) continue;
    const ws = wordsOf(l);
    const start = l;
    switch (ws.word(0)) {
      case 'version': {
        const v = num(ws, 1, l, 'the SMD version', true);
        if (v !== 1) throw new ReadError('smd-version', `SMD version ${v} is not read: only version 1 is (as the reference compiler)`, l, ws.column[1], ws.end[1]);
        versionSeen = true;
        break;
      }
      case 'nodes':
        block('nodes', start, (n, line) => {
          const id = num(n, 0, line, 'the node id', true);
          if (n.count < 2) throw new ReadError('smd-values', 'expected the node name', line, lineLength(line), lineLength(line));
          const parent = num(n, 2, line, 'the parent node id', true);
          if (id < 0 || id > 255) throw new ReadError('smd-bone-range', `node ${id}: ids run from 0 to 255`, line, n.column[0], n.end[0]);
          if (joints[id]) throw new ReadError('smd-node-repeated', `node ${id} is listed twice`, line, n.column[0], n.end[0]);
          if (parent < -1 || parent >= id || (parent >= 0 && !joints[parent])) {
            throw new ReadError('joint-parent', `node ${id} ('${n.word(1)}'): parent ${parent} is not an earlier node (-1 for a root)`, line, n.column[2], n.end[2]);
          }
          while (joints.length <= id) joints.push(null);
          joints[id] = { name: n.word(1), parent };
        });
        break;
      case 'skeleton': {
        let frame = -1;
        const seen: boolean[] = [];
        frameLines = [];
        block('skeleton', start, (s, line) => {
          if (s.is(0, 'time')) {
            const t = num(s, 1, line, 'the frame number', true);
            if (t < 0) throw new ReadError('smd-values', `time ${t}: a frame number cannot be negative`, line, s.column[1], s.end[1]);
            // Each frame skipped over is a copy of the first: a gap of a billion would never end,
            // and one of thousands in a small file would hold many times its size.
            const skip = t - frames.length;
            if (skip > 0) {
              skippedFrames += skip;
              const copies = skippedFrames * Math.max(joints.length, 1) * POSE_STRIDE * 8;
              if (copies > Math.max(SKIPPED_FRAMES_TEXT_MULTIPLE * text.length, SKIPPED_FRAMES_FLOOR)) {
                throw new ReadError('smd-values', `time ${t}: ${skip} frames skipped after frame ${frames.length - 1}, ${skippedFrames} in all: their copies of the first frame would take ${(copies / 2 ** 20).toFixed(1)} MiB, more than ${SKIPPED_FRAMES_TEXT_MULTIPLE} times this file (an SMD lists every frame; a gap is filled with copies of the first)`, line, s.column[1], s.end[1]);
              }
            }
            if (frame >= 0) fillFromFirst(frames, frame, seen);
            // Every frame holds a pose of every bone (those it leaves out are copies of the first).
            const poses = Math.max(frames.length, t + 1) * Math.max(joints.length, 1);
            if (!posesFit(poses, text.length)) throw new ReadError('smd-values', `time ${t}: ${Math.max(frames.length, t + 1)} frames of ${joints.length} bones are ${posesTooMany(poses, text.length)} (a bone a frame leaves out is a copy of its first pose)`, line, s.column[1], s.end[1]);
            // Frames skipped over are copies of the first (the reference's rule).
            while (frames.length <= t) {
              frames.push(frames.length > 0 ? frames[0].slice() : identityPoses(joints.length));
              frameLines.push(line);
            }
            frame = t;
            seen.length = 0;
            return;
          }
          if (frame < 0) throw new ReadError('smd-values', "a bone pose before the first 'time' line", line, s.column[0], s.end[0]);
          const b = bone(s, 0, line, 'bone');
          const values = Float64Array.of(num(s, 1, line, 'the position x'), num(s, 2, line, 'the position y'), num(s, 3, line, 'the position z'), num(s, 4, line, 'the rotation x'), num(s, 5, line, 'the rotation y'), num(s, 6, line, 'the rotation z'));
          poseFromAngles(frames[frame].subarray(POSE_STRIDE * b, POSE_STRIDE * (b + 1)), values, 0, 6);
          seen[b] = true;
        });
        if (frame >= 0) fillFromFirst(frames, frame, seen);
        break;
      }
      case 'triangles': {
        hasTriangles = true;
        let current: string | null = null;
        let material = '';
        let triangle = 0;
        for (l = start + 1; ; l++) {
          while (l < lineCount && isSkipped(l)) l++;
          if (l >= lineCount) throw new ReadError('unterminated-block', "unterminated block: 'triangles' has no 'end'", start, 0, 'triangles'.length);
          // The line's first word after trim() (a space or a tab ends it), the same string while it repeats.
          let from = starts[l], to = ends[l];
          while (from < to && isSpace(text.charCodeAt(from))) from++;
          while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
          let wordEnd = from;
          for (; wordEnd < to; wordEnd++) {
            const c = text.charCodeAt(wordEnd);
            if (c === 32 || c === 9) break;
          }
          if (wordEnd - from !== material.length || !text.startsWith(material, from)) material = text.slice(from, wordEnd);
          if (material === 'end') break;
          const meshName = material.includes('.') ? material.slice(0, material.indexOf('.')) : material;
          if (meshName !== current) {
            current = meshName;
            sections.push({ mesh: meshName, material, firstTriangle: triangle, line: l });
          }
          const materialLine = l;
          for (let k = 0; k < 3; k++) {
            l++;
            while (l < lineCount && isSkipped(l)) l++;
            const ws = l < lineCount ? wordsOf(l) : null;
            if (!ws || ws.is(0, 'end')) {
              throw new ReadError('smd-values', `triangle ${triangle}: ${k} of its 3 vertex lines before the end`, materialLine, 0, material.length);
            }
            vertex(ws, l);
          }
          triangle++;
        }
        break;
      }
      case 'vertexanimation':
        block('vertexanimation', start, () => undefined);
        break;
      default:
        throw new ReadError('smd-syntax', `'${ws.word(0)}' is not an SMD section (version, nodes, skeleton, triangles, vertexanimation)`, l, ws.column[0], ws.end[0]);
    }
  }

  /** One vertex line: a new vertex (the triangles are made reversed from them at the end). */
  function vertex(ws: Words, line: number): void {
    const parent = bone(ws, 0, line, 'parent bone');
    for (let k = 0; k < VERTEX_VALUES.length; k++) v[k] = num(ws, k + 1, line, VERTEX_VALUES[k]);
    const links = ws.count > 9 ? num(ws, 9, line, 'the link count', true) : 0;
    // Room for the links the line's words hold (two words a link): a count beyond them fails at the
    // first missing word below; sized by the count, 2e21 made an array that cannot be.
    const room = Math.min(links, Math.floor((ws.count - 10) / 2));
    if (pairs.length < 2 * room + 2) pairs = new Float64Array(2 * room + 2);
    let count = 0;
    let parentWeight = 0, total = 0;
    for (let k = 0; k < links; k++) {
      const b = bone(ws, 10 + 2 * k, line, 'linked bone');
      const w = num(ws, 11 + 2 * k, line, `the weight of link ${k + 1}`);
      total += w;
      if (b === parent) parentWeight += w;
      else {
        pairs[count++] = b;
        pairs[count++] = w;
      }
    }
    if (total < 1) parentWeight += 1 - total;
    if (parentWeight > 0) {
      pairs[count++] = parent;
      pairs[count++] = parentWeight;
    }
    const p = positions.reserve(4);
    const at = positions.length;
    p[at] = v[0];
    p[at + 1] = v[1];
    p[at + 2] = v[2];
    p[at + 3] = 1;
    positions.length += 4;
    const nv = normals.reserve(3);
    const at3 = normals.length;
    nv[at3] = v[3];
    nv[at3 + 1] = v[4];
    nv[at3 + 2] = v[5];
    normals.length += 3;
    texcoords.push(v[6]);
    texcoords.push(1 - v[7]);
    const o = bones.length;
    blendCombo(pairs, 0, count, bones.reserve(4), weights.reserve(4), o);
    bones.length += 4;
    weights.length += 4;
    vertexLines.push(line);
  }

  if (!versionSeen) diagnostics.push(lineNote('warning', 'smd-version', "no 'version 1' line: read as version 1", 0));
  const jointList = joints.map((j, i) => {
    if (j) return j;
    diagnostics.push(lineNote('warning', 'smd-node-missing', `node ${i} is not listed: an unnamed root joint stands for it`, 0));
    return { name: '', parent: -1 };
  });
  const model = emptySourceModel();
  model.joints = jointList;
  if (hasTriangles) {
    const vertexCount = vertexLines.length;
    // Each triangle's corners are its three vertices, the last line first.
    const triangles = new Int32Array(vertexCount);
    for (let t = 0; t < vertexCount; t += 3) {
      triangles[t] = t + 2;
      triangles[t + 1] = t + 1;
      triangles[t + 2] = t;
    }
    Object.assign(model, {
      vertexCount,
      vertexLines: vertexLines.copy(),
      positions: positions.copy(),
      normals: normals.copy(),
      texcoords: texcoords.copy(),
      texcoordWidth: 2,
      blendBones: bones.copy(),
      blendWeights: weights.copy(),
      triangles,
      triangleGroup: new Int32Array(vertexCount / 3),
      triangleLines: new Int32Array(0),
      sections,
      basePoses: frames.length > 0 ? frames[0] : new Float64Array(0),
      basePoseCount: frames.length > 0 ? jointList.length : 0,
    });
    return model;
  }
  const framePoses = new Float64Array(POSE_STRIDE * jointList.length * frames.length);
  const framePoseStart = new Int32Array(frames.length + 1);
  frames.forEach((f, i) => {
    framePoses.set(f.subarray(0, POSE_STRIDE * jointList.length), POSE_STRIDE * jointList.length * i);
    framePoseStart[i] = i * jointList.length;
  });
  framePoseStart[frames.length] = frames.length * jointList.length;
  Object.assign(model, {
    framePoses,
    framePoseStride: POSE_STRIDE,
    frameCount: frames.length,
    framePoseStart,
    // The reference gives an SMD animation no frame rate (0) unless --fps says one.
    animations: [{ name, framerate: 0, flags: 0, firstFrame: 0, frameCount: frames.length, line: frameLines[0] ?? 0, column: 0 }],
  });
  return model;
}

/** Identity poses for `n` joints. */
function identityPoses(n: number): Float64Array {
  const poses = new Float64Array(POSE_STRIDE * n);
  for (let j = 0; j < n; j++) poses.set([0, 0, 0, 0, 0, 0, -1, 1, 1, 1], POSE_STRIDE * j);
  return poses;
}

/** The bones a frame left out take their pose of the first frame. */
function fillFromFirst(frames: Float64Array[], frame: number, seen: boolean[]): void {
  if (frame === 0) return;
  const n = frames[0].length / POSE_STRIDE;
  for (let b = 0; b < n; b++) if (!seen[b]) frames[frame].set(frames[0].subarray(POSE_STRIDE * b, POSE_STRIDE * (b + 1)), POSE_STRIDE * b);
}

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
import { decimalValue } from '../decimal';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { blendCombo } from '../compile/input';
import { lineNote } from '../compile/options';
import { ReadError, readFailed } from '../compile/readError';
import { emptySourceModel, type InputJoint, type Section } from '../compile/source';
import type { SourceRead } from '../compile/sources';
import { float64s, Growable, int32s } from '../growable';
import { POSE_STRIDE, poseFromAngles } from '../math/pose';


/** The words of a line with their columns (a quoted word keeps its spaces). */
function words(line: string): { text: string; column: number; end: number }[] {
  const out: { text: string; column: number; end: number }[] = [];
  let p = 0;
  while (p < line.length) {
    const c = line[p];
    if (c === ' ' || c === '\t') {
      p++;
      continue;
    }
    if (c === '"') {
      const close = line.indexOf('"', p + 1);
      const e = close < 0 ? line.length : close;
      out.push({ text: line.slice(p + 1, e), column: p, end: Math.min(e + 1, line.length) });
      p = e + 1;
      continue;
    }
    let e = p;
    while (e < line.length && line[e] !== ' ' && line[e] !== '\t') e++;
    out.push({ text: line.slice(p, e), column: p, end: e });
    p = e;
  }
  return out;
}

/** A comment or blank line (`#`, `;`, `//`), as the reference skips them. */
function skipped(line: string): boolean {
  let p = 0;
  // trimStart's whitespace: spaces and tabs at once, the rare others by the same rule.
  for (; p < line.length; p++) {
    const c = line.charCodeAt(p);
    if (c !== 32 && c !== 9 && !/\s/.test(line[p])) break;
  }
  if (p === line.length) return true;
  const c = line.charCodeAt(p);
  return c === 35 || c === 59 || (c === 47 && line.charCodeAt(p + 1) === 47);
}

/** What the values after a vertex line's parent bone are (for errors). */
const VERTEX_VALUES = ['the position x', 'the position y', 'the position z', 'the normal x', 'the normal y', 'the normal z', 'the texture u', 'the texture v'];

/** Reads an SMD; `name` names the animation of a file without triangles (the file name without its extension). */
export function readSmd(text: string, name: string): SourceRead {
  try {
    const diagnostics: IqeDiagnostic[] = [];
    const body = text.replace(/^\uFEFF/, '');
    // Splitting at '\n' alone is several times faster, where there is no '\r' to care for.
    return { model: smd(body.includes('\r') ? body.split(/\r\n?|\n/) : body.split('\n'), name, diagnostics), diagnostics };
  } catch (error) {
    return readFailed(error);
  }
}

function smd(lines: string[], name: string, diagnostics: IqeDiagnostic[]): ReturnType<typeof emptySourceModel> {
  const joints: (InputJoint | null)[] = [];
  /** Frames of poses, `joints.length` per frame once the skeleton starts. */
  const frames: Float64Array[] = [];
  let frameLines: number[] = [];
  let hasTriangles = false;
  let versionSeen = false;
  const positions = float64s(1024);
  const normals = float64s(1024);
  const texcoords = float64s(1024);
  const bones = new Growable(Uint8Array, 1024);
  const weights = float64s(1024);
  const vertexLines = int32s(1024);
  const sections: Section[] = [];
  /** A vertex line's values after its parent bone, and its (bone, weight) pairs: scratch, one line at a time. */
  const v = new Float64Array(VERTEX_VALUES.length);
  let pairs = new Float64Array(16);
  let l = 0;
  /** The number in word k of a line, or an error there. */
  const num = (ws: ReturnType<typeof words>, k: number, line: number, what: string, integer = false): number => {
    const w = ws[k];
    if (!w) throw new ReadError('smd-values', `expected ${what} (value ${k + 1} of the line)`, line, lines[line].length, lines[line].length);
    const value = decimalValue(w.text);
    if (Number.isNaN(value) || (integer && !Number.isInteger(value))) throw new ReadError('number-invalid', `expected ${what}, found '${w.text}'`, line, w.column, w.end);
    return value;
  };
  /** The lines of a block up to its `end` (an error at the block's line when there is none). */
  const block = (keyword: string, start: number, each: (ws: ReturnType<typeof words>, line: number) => void): void => {
    for (l = start + 1; l < lines.length; l++) {
      if (skipped(lines[l])) continue;
      const ws = words(lines[l]);
      if (ws[0].text === 'end') return;
      each(ws, l);
    }
    throw new ReadError('unterminated-block', `unterminated block: '${keyword}' has no 'end'`, start, 0, keyword.length);
  };
  const bone = (ws: ReturnType<typeof words>, k: number, line: number, what: string): number => {
    const b = num(ws, k, line, what, true);
    if (b < 0 || b >= joints.length || !joints[b]) {
      throw new ReadError('smd-bone-range', `${what} ${b} is not in nodes (${joints.length > 0 ? `0..${joints.length - 1}` : 'none'})`, line, ws[k].column, ws[k].end);
    }
    return b;
  };
  for (; l < lines.length; l++) {
    if (skipped(lines[l])) continue;
    const ws = words(lines[l]);
    const start = l;
    switch (ws[0].text) {
      case 'version': {
        const v = num(ws, 1, l, 'the SMD version', true);
        if (v !== 1) throw new ReadError('smd-version', `SMD version ${v} is not read: only version 1 is (as the reference compiler)`, l, ws[1].column, ws[1].end);
        versionSeen = true;
        break;
      }
      case 'nodes':
        block('nodes', start, (n, line) => {
          const id = num(n, 0, line, 'the node id', true);
          if (!n[1]) throw new ReadError('smd-values', 'expected the node name', line, lines[line].length, lines[line].length);
          const parent = num(n, 2, line, 'the parent node id', true);
          if (id < 0 || id > 255) throw new ReadError('smd-bone-range', `node ${id}: ids run from 0 to 255`, line, n[0].column, n[0].end);
          if (joints[id]) throw new ReadError('smd-node-repeated', `node ${id} is listed twice`, line, n[0].column, n[0].end);
          if (parent < -1 || parent >= id || (parent >= 0 && !joints[parent])) {
            throw new ReadError('joint-parent', `node ${id} ('${n[1].text}'): parent ${parent} is not an earlier node (-1 for a root)`, line, n[2].column, n[2].end);
          }
          while (joints.length <= id) joints.push(null);
          joints[id] = { name: n[1].text, parent };
        });
        break;
      case 'skeleton': {
        let frame = -1;
        const seen: boolean[] = [];
        frameLines = [];
        block('skeleton', start, (s, line) => {
          if (s[0].text === 'time') {
            const t = num(s, 1, line, 'the frame number', true);
            if (t < 0) throw new ReadError('smd-values', `time ${t}: a frame number cannot be negative`, line, s[1].column, s[1].end);
            if (frame >= 0) fillFromFirst(frames, frame, seen);
            // Frames skipped over are copies of the first (the reference's rule).
            while (frames.length <= t) {
              frames.push(frames.length > 0 ? frames[0].slice() : identityPoses(joints.length));
              frameLines.push(line);
            }
            frame = t;
            seen.length = 0;
            return;
          }
          if (frame < 0) throw new ReadError('smd-values', "a bone pose before the first 'time' line", line, s[0].column, s[0].end);
          const b = bone(s, 0, line, 'bone');
          const values = Float64Array.of(num(s, 1, line, 'the position x'), num(s, 2, line, 'the position y'), num(s, 3, line, 'the position z'), num(s, 4, line, 'the rotation x'), num(s, 5, line, 'the rotation y'), num(s, 6, line, 'the rotation z'));
          poseFromAngles(values, 0, 6, frames[frame].subarray(POSE_STRIDE * b, POSE_STRIDE * (b + 1)));
          seen[b] = true;
        });
        if (frame >= 0) fillFromFirst(frames, frame, seen);
        break;
      }
      case 'triangles': {
        hasTriangles = true;
        let current: string | null = null;
        let triangle = 0;
        for (l = start + 1; ; l++) {
          while (l < lines.length && skipped(lines[l])) l++;
          if (l >= lines.length) throw new ReadError('unterminated-block', "unterminated block: 'triangles' has no 'end'", start, 0, 'triangles'.length);
          const material = lines[l].trim().split(/[ \t]/)[0];
          if (material === 'end') break;
          const meshName = material.includes('.') ? material.slice(0, material.indexOf('.')) : material;
          if (meshName !== current) {
            current = meshName;
            sections.push({ mesh: meshName, material, firstTriangle: triangle, line: l });
          }
          const materialLine = l;
          for (let k = 0; k < 3; k++) {
            l++;
            while (l < lines.length && skipped(lines[l])) l++;
            const ws = l < lines.length ? words(lines[l]) : null;
            if (!ws || ws[0].text === 'end') {
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
        throw new ReadError('smd-syntax', `'${ws[0].text}' is not an SMD section (version, nodes, skeleton, triangles, vertexanimation)`, l, ws[0].column, ws[0].end);
    }
  }

  /** One vertex line: a new vertex (the triangles are made reversed from them at the end). */
  function vertex(ws: ReturnType<typeof words>, line: number): void {
    const parent = bone(ws, 0, line, 'parent bone');
    for (let k = 0; k < VERTEX_VALUES.length; k++) v[k] = num(ws, k + 1, line, VERTEX_VALUES[k]);
    const links = ws.length > 9 ? num(ws, 9, line, 'the link count', true) : 0;
    if (pairs.length < 2 * links + 2) pairs = new Float64Array(2 * links + 2);
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
    normals.pushMany(v.subarray(3, 6), 3);
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

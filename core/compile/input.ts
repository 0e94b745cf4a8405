// Stage 1 of an IQE source: its chunks -> the neutral source model (source.ts), typed arrays per attribute, with the reference compiler's defaults
// (IQE-SEMANTICS.md §3), in one pass over the parsed lines. Lines after the first `comment` are
// comment text (§3.7).
import { type Chunk, lineStartOf, type Values } from '../iqe/chunk';
import { Cmd } from '../iqe/commands';
import { float64s, Growable, int32s, NarrowDoubles, uint8s } from '../growable';
import { newArray } from '../pages';
import type { Declaration, InputJoint, InputAnimation, SourceSection, SmoothGroup, SourceModel } from './source';
import { type PoseValues, POSE_STRIDE, poseFromMatrix, poseFromAngles, poseFromQuaternion, UNSCALED_STRIDE } from '../math/pose';

const CUSTOMS = 10;

/** Value k of a line (values[v..v+n)), or the default when the line has fewer. */
function val(values: Values, v: number, n: number, k: number, fallback: number): number {
  return k < n ? values[v + k] : fallback;
}

/** The command of custom0 (`v0`); custom k is `v<k>`. */
const CUSTOMS_FIRST = Cmd.V0;

/**
 * Gathers a document's data chunk by chunk, in file order, into growing typed arrays, so that a
 * caller can drop each chunk (and its text) once it is added: the CLI streams large files through
 * this without ever holding their whole text (ingest.ts).
 */
export class InputGatherer {
  /** Triangles of the faces so far (each face of n indices: n - 2). */
  triangleCount = 0;

  /**
   * `skinOnly`: only what posing the vertices needs (sample in `vp` order): positions, blend data,
   * the skeleton and animation. Other vertex attributes, the triangles (counted, in their
   * sections) and the lines of the vertices are not kept: for a file of short lines they were
   * most of sample's memory.
   */
  constructor(private readonly skinOnly = false) {}

  /**
   * Positions, blend data and frame poses are on SharedArrayBuffers where there are any, so that
   * the CLI's bounds worker reads them without a copy (node/compileParallel.ts).
   */
  private readonly positions = new Growable(Float64Array, 1024, true);
  /**
   * skinOnly: the positions (x, y, z, w) and blend weights, in 32 bits while every value is
   * exact in 32 (a file of small integers: half its memory), for skinArrays(); `positions` and
   * `blendWeights` stay empty.
   */
  private readonly skinPositions = new NarrowDoubles(1024);
  private readonly skinWeights = new NarrowDoubles(64);
  /** One `vb` line's bones and weights (blendCombo's), before they are kept. */
  private readonly skinBones = new Uint8Array(4);
  private readonly skinFour = new Float64Array(4);
  private readonly vertexLines = int32s(256);
  private readonly texcoords = float64s();
  /** Most values on a `vt` line. */
  private texcoordValues = 0;
  private readonly normals = float64s();
  private readonly tangents = float64s();
  /** Three per `vx` line (zeros for the 4-value form); kept only if some line has 6 values. */
  private readonly bitangents = float64s();
  private sixValueTangents = false;
  private readonly blendBones = new Growable(Uint8Array, 64, true);
  private readonly blendWeights = new Growable(Float64Array, 64, true);
  private readonly colors = float64s();
  private readonly customs = Array.from({ length: CUSTOMS }, () => float64s(16));
  private readonly smoothIds = float64s();
  private readonly triangles = int32s(1024);
  private readonly triangleGroup = int32s(256);
  private readonly triangleLines = int32s(256);
  /** Edge flags of `fs` lines, one per triangle they describe (§3.2). */
  private readonly edgeFlags = uint8s(16);
  private readonly basePoses = float64s(256);
  private readonly framePoses = new Growable(Float64Array, 64, true);
  private frameStride = UNSCALED_STRIDE;
  private readonly frameStarts = int32s(64);

  private readonly groups: SmoothGroup[] = [{ key: -1, threshold: -1, uv: false, used: false }];
  private readonly sections: SourceSection[] = [];
  private readonly joints: InputJoint[] = [];
  private readonly declarations: (Declaration | null)[] = new Array<Declaration | null>(17).fill(null);
  private readonly animations: InputAnimation[] = [];
  private frameOpen = false;
  private fmOffset = 0;
  private meshName = '';
  private meshLine = -1;
  private materialName = '';
  private pending = true;
  private group = 0;
  private readonly pose: PoseValues = new Float64Array(POSE_STRIDE);
  /** Set by the first `comment` line: nothing after it is data (§3.7). */
  private ended = false;

  /**
   * Adds the lines of one chunk (the next one in file order). Returns -1, or, for the chunk with
   * the file's first `comment` command, the offset in chunk.text where the comment text starts
   * (after that line); the caller gives finish() that text and the text of every later chunk.
   */
  add(chunk: Chunk): number {
    if (this.ended) return -1;
    const { kind, valueStart, values } = chunk;
    for (let i = 0; i < chunk.lineCount; i++) {
      const v = valueStart[i];
      const n = valueStart[i + 1] - v;
      const k = kind[i] as Cmd;
      switch (k) {
        case Cmd.Vp: {
          if (this.skinOnly) {
            const p = this.skinPositions;
            p.push(val(values, v, n, 0, 0));
            p.push(val(values, v, n, 1, 0));
            p.push(val(values, v, n, 2, 0));
            p.push(val(values, v, n, 3, 1));
            break;
          }
          const positions = this.positions.reserve(4);
          const o = this.positions.length;
          positions[o] = val(values, v, n, 0, 0); positions[o + 1] = val(values, v, n, 1, 0); positions[o + 2] = val(values, v, n, 2, 0); positions[o + 3] = val(values, v, n, 3, 1);
          this.positions.length += 4;
          if (!this.skinOnly) this.vertexLines.push(chunk.firstLine + i);
          break;
        }
        case Cmd.Vt:
          if (this.skinOnly) break;
          addFour(this.texcoords, values, v, n, 0);
          if (n > this.texcoordValues) this.texcoordValues = n;
          break;
        case Cmd.Vc:
          if (this.skinOnly) break;
          addFour(this.colors, values, v, n, 1);
          break;
        case Cmd.Vn: {
          if (this.skinOnly) break;
          const normals = this.normals.reserve(3);
          const o = this.normals.length;
          normals[o] = val(values, v, n, 0, 0); normals[o + 1] = val(values, v, n, 1, 0); normals[o + 2] = val(values, v, n, 2, 0);
          this.normals.length += 3;
          break;
        }
        case Cmd.Vx: {
          if (this.skinOnly) break;
          const tangents = this.tangents.reserve(4);
          const bitangents = this.bitangents.reserve(3);
          const o = this.tangents.length;
          const b = this.bitangents.length;
          tangents[o] = val(values, v, n, 0, 0); tangents[o + 1] = val(values, v, n, 1, 0); tangents[o + 2] = val(values, v, n, 2, 0);
          if (n >= 5) {
            this.sixValueTangents = true;
            tangents[o + 3] = 0;
            bitangents[b] = val(values, v, n, 3, 0); bitangents[b + 1] = val(values, v, n, 4, 0); bitangents[b + 2] = val(values, v, n, 5, 0);
          } else {
            tangents[o + 3] = val(values, v, n, 3, 0);
            bitangents[b] = bitangents[b + 1] = bitangents[b + 2] = 0;
          }
          this.tangents.length += 4;
          this.bitangents.length += 3;
          break;
        }
        case Cmd.Vb: {
          if (this.skinOnly) {
            const bones = this.blendBones.reserve(4);
            const o = this.blendBones.length;
            blendCombo(values, v, n, this.skinBones, this.skinFour, 0);
            for (let k = 0; k < 4; k++) {
              bones[o + k] = this.skinBones[k];
              this.skinWeights.push(this.skinFour[k]);
            }
            this.blendBones.length += 4;
            break;
          }
          const o = this.blendWeights.length;
          blendCombo(values, v, n, this.blendBones.reserve(4), this.blendWeights.reserve(4), o);
          this.blendBones.length += 4;
          this.blendWeights.length += 4;
          break;
        }
        case Cmd.Vs:
          if (this.skinOnly) break;
          this.smoothIds.push(val(values, v, n, 0, 0));
          break;
        case Cmd.Fa:
        case Cmd.Fm:
          if (n >= 2) this.addFace(k === Cmd.Fm, values, v, n, chunk.firstLine + i);
          break;
        case Cmd.Fs:
          if (this.skinOnly) break;
          if (n >= 3) this.addEdgeFlags(values, v, n);
          break;
        case Cmd.Pq:
        case Cmd.Pm:
        case Cmd.Pa:
          this.addPose(k, values, v, n);
          break;
        default: {
          const c = k - CUSTOMS_FIRST;
          if (c >= 0 && c < CUSTOMS) {
            if (!this.skinOnly) addFour(this.customs[c], values, v, n, 0);
          } else if (k >= Cmd.Smoothgroup && this.addStructure(chunk, i, k, v, n)) return lineStartOf(chunk, i + 1);
        }
      }
    }
    return -1;
  }

  /**
   * The commands other than vertex attributes, faces and poses; true for a `comment` line. One
   * call site for all of them: the first ones (joint, mesh, material) come before the bulk of a
   * file, so that the optimised add() has seen it, and a later first `animation` or `frame` line
   * does not send add() back to unoptimised code (it did, on every file with animations).
   */
  private addStructure(chunk: Chunk, i: number, k: Cmd, v: number, n: number): boolean {
    const { values, names } = chunk;
    switch (k) {
      case Cmd.Smoothgroup:
        this.touchGroup();
        if (n > 0) this.groups[this.group].key = values[v];
        break;
      case Cmd.Smoothangle: {
        this.touchGroup();
        // Ours (B5): cos of the clamped angle, without the reference's fabs.
        const angle = Math.min(Math.max(val(values, v, n, 0, 0), -180), 180);
        this.groups[this.group].threshold = Math.cos((angle * Math.PI) / 180);
        break;
      }
      case Cmd.Smoothuv:
        this.touchGroup();
        this.groups[this.group].uv = !(n > 0 && values[v] <= 0);
        break;
      case Cmd.Mesh: {
        const sections = this.sections;
        this.meshName = names.get(i) ?? '';
        this.meshLine = chunk.firstLine + i;
        this.fmOffset = this.vertexCount;
        if (sections.length === 0 || sections[sections.length - 1].mesh !== this.meshName) this.pending = true;
        break;
      }
      case Cmd.Material: {
        const sections = this.sections;
        this.materialName = names.get(i) ?? '';
        if (sections.length === 0 || sections[sections.length - 1].material !== this.materialName) this.pending = true;
        break;
      }
      case Cmd.Joint:
        this.joints.push({ name: names.get(i) ?? '', parent: val(values, v, n, 0, -1), line: chunk.firstLine + i });
        break;
      case Cmd.Vertexarray: {
        const type = values[v];
        const format = values[v + 1];
        if (type < 0 || format < 0 || this.declarations[type] !== null) break;
        const size = values[v + 2];
        this.declarations[type] = { format, size: Math.min(Math.max(size, 1), 4), name: names.get(i) ?? '' };
        break;
      }
      case Cmd.Animation:
        this.animations.push({
          name: names.get(i) ?? '', framerate: 0, flags: 0, firstFrame: this.frameStarts.length, frameCount: 0,
          line: chunk.firstLine + i, column: commandColumn(chunk.text, lineStartOf(chunk, i)),
        });
        this.frameOpen = false;
        break;
      case Cmd.Frame:
        if (this.animations.length > 0) this.frameOpen = false;
        break;
      case Cmd.Framerate:
        if (this.animations.length > 0 && n > 0) this.animations[this.animations.length - 1].framerate = Math.max(values[v], 0);
        break;
      case Cmd.Loop:
        if (this.animations.length > 0) this.animations[this.animations.length - 1].flags |= 1;
        break;
      case Cmd.Comment:
        this.ended = true;
        return true;
      default:
        break;
    }
    return false;
  }

  /** A face of n >= 2 indices, as a fan of triangles (§3.2). */
  private addFace(fm: boolean, values: Values, v: number, n: number, line: number): void {
    const vertexCount = this.vertexCount;
    const offset = fm ? this.fmOffset : 0;
    if (this.pending) {
      this.sections.push({ mesh: this.meshName, material: this.materialName, firstTriangle: this.triangleCount, line: this.meshLine >= 0 ? this.meshLine : line });
      this.pending = false;
    }
    this.groups[this.group].used = true;
    this.triangleCount += n - 2;
    if (this.skinOnly) return;
    const triangles = this.triangles.reserve(3 * (n - 2));
    let t = this.triangles.length;
    const i0 = resolveIndex(values[v], vertexCount, offset);
    let i1 = resolveIndex(values[v + 1], vertexCount, offset);
    for (let k = 2; k < n; k++) {
      const i2 = resolveIndex(values[v + k], vertexCount, offset);
      triangles[t++] = i0;
      triangles[t++] = i1;
      triangles[t++] = i2;
      this.triangleGroup.push(this.group);
      this.triangleLines.push(line);
      i1 = i2;
    }
    this.triangles.length = t;
  }

  /** An `fs` line of n >= 3 flags: one entry per triangle of the matching face (§3.2). */
  private addEdgeFlags(values: Values, v: number, n: number): void {
    this.groups[this.group].used = true;
    const bit = (k: number): number => (values[v + k] > 0 ? 1 : 0);
    let flags = bit(0) | (bit(1) << 1) | (bit(2) << 2);
    for (let k = 3; k < n; k++) {
      this.edgeFlags.push(flags | 4);
      flags = 1 | ((flags & 4) >> 1) | (bit(k) << 2);
    }
    this.edgeFlags.push(flags);
  }

  private addPose(k: Cmd, values: Values, v: number, n: number): void {
    const pose = this.pose;
    if (k === Cmd.Pq) poseFromQuaternion(pose, values, v, n);
    else if (k === Cmd.Pm) poseFromMatrix(pose, values, v, n);
    else poseFromAngles(pose, values, v, n);
    if (this.animations.length === 0) {
      this.basePoses.pushMany(pose, POSE_STRIDE);
      return;
    }
    if (!this.frameOpen) {
      this.frameStarts.push(this.framePoses.length / this.frameStride);
      this.animations[this.animations.length - 1].frameCount++;
      this.frameOpen = true;
    }
    if (this.frameStride === UNSCALED_STRIDE && !(pose[7] === 1 && pose[8] === 1 && pose[9] === 1)) this.scaleFrames();
    this.framePoses.pushMany(pose, this.frameStride);
  }

  /** The first frame pose with a scale other than 1: the poses so far get theirs (1, 1, 1). */
  private scaleFrames(): void {
    const g = this.framePoses;
    const count = g.length / UNSCALED_STRIDE;
    const data = g.reserve(count * (POSE_STRIDE - UNSCALED_STRIDE));
    // From the last pose back, each moves to its wider place, which is never before its old one.
    for (let p = count - 1; p >= 0; p--) {
      const from = UNSCALED_STRIDE * p, to = POSE_STRIDE * p;
      for (let k = UNSCALED_STRIDE - 1; k >= 0; k--) data[to + k] = data[from + k];
      data[to + 7] = data[to + 8] = data[to + 9] = 1;
    }
    g.length = count * POSE_STRIDE;
    this.frameStride = POSE_STRIDE;
  }

  private touchGroup(): void {
    const groups = this.groups;
    if (groups[this.group].used) {
      groups.push({ ...groups[this.group] });
      this.group = groups.length - 1;
    }
  }

  /** The vertices so far. */
  private get vertexCount(): number {
    return (this.skinOnly ? this.skinPositions.length : this.positions.length) / 4;
  }

  /** skinOnly: the positions (x, y, z, w per vertex) and blend weights (four per vertex, or null), each in 32 or 64 bits. */
  skinArrays(): SkinArrays {
    return { positions: this.skinPositions.view(), blendWeights: this.skinWeights.length > 0 ? this.skinWeights.view() : null };
  }

  /** The gathered data; `comment` is the text after the first `comment` line, or null. */
  finish(comment: string | null): SourceModel {
    const present = (g: Growable<Float64Array>): Float64Array | null => (g.length > 0 ? g.view() : null);
    const triangleCount = this.triangleGroup.length;
    let edgeFlags: Uint8Array | null = null;
    if (this.edgeFlags.length > 0) {
      edgeFlags = new Uint8Array(Math.max(triangleCount, this.edgeFlags.length)).fill(7);
      edgeFlags.set(this.edgeFlags.view());
    }
    const frameStarts = this.frameStarts;
    frameStarts.push(this.framePoses.length / this.frameStride);
    // Texture coordinates with two values each take half the memory as pairs (a large file: MBs).
    let texcoords = present(this.texcoords);
    const texcoordWidth = texcoords && this.texcoordValues <= 2 ? 2 : 4;
    if (texcoords && texcoordWidth === 2) texcoords = pairs(texcoords);
    return {
      vertexCount: this.vertexCount,
      vertexLines: this.vertexLines.view(),
      positions: this.positions.view(),
      texcoords,
      texcoordWidth,
      normals: present(this.normals),
      tangents: present(this.tangents),
      bitangents: this.sixValueTangents ? this.bitangents.view() : null,
      blendBones: this.blendBones.length > 0 ? this.blendBones.view() : null,
      blendWeights: present(this.blendWeights),
      colors: present(this.colors),
      customs: this.customs.map(present),
      smoothIds: present(this.smoothIds),
      triangles: this.triangles.view(),
      triangleGroup: this.triangleGroup.view(),
      triangleLines: this.triangleLines.view(),
      edgeFlags,
      groups: this.groups,
      sections: this.sections,
      joints: this.joints,
      basePoses: this.basePoses.view(),
      basePoseCount: this.basePoses.length / POSE_STRIDE,
      framePoses: this.framePoses.view(),
      framePoseStride: this.frameStride,
      frameCount: frameStarts.length - 1,
      framePoseStart: frameStarts.copy(),
      animations: this.animations,
      declarations: this.declarations,
      comment,
    };
  }
}

/** sample's positions and blend weights (InputGatherer.skinArrays). */
export interface SkinArrays {
  positions: Float32Array | Float64Array;
  blendWeights: Float32Array | Float64Array | null;
}

/** The first two of every four values. */
function pairs(fours: Float64Array): Float64Array {
  const out = newArray(Float64Array, fours.length / 2);
  for (let i = 0, o = 0; o < out.length; i += 4, o += 2) {
    out[o] = fours[i];
    out[o + 1] = fours[i + 1];
  }
  return out;
}

/** Column of the first word of the line starting at `start` (after spaces and tabs). */
function commandColumn(text: string, start: number): number {
  let p = start;
  while (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9) p++;
  return p - start;
}

/** A face index as the reference resolves it: negative ones count back from the vertices so far. */
function resolveIndex(raw: number, vertexCount: number, fmOffset: number): number {
  return raw < 0 ? Math.max(vertexCount + raw, 0) : raw + fmOffset;
}

/** Four values of a line (missing ones: 0, and `lastDefault` for the fourth). */
function addFour(out: Growable<Float64Array>, values: Values, v: number, n: number, lastDefault: number): void {
  const data = out.reserve(4);
  const o = out.length;
  data[o] = val(values, v, n, 0, 0); data[o + 1] = val(values, v, n, 1, 0); data[o + 2] = val(values, v, n, 2, 0); data[o + 3] = val(values, v, n, 3, lastDefault);
  out.length += 4;
}

/**
 * Throws when the gathered data lost what the check counted (vertices and joints before the
 * `comment` line): the compile's reader and the check read the same lines, and a compile that
 * disagrees with them must stop before anything is written (a CR-only file once lost its model
 * this way). The message says what each side saw.
 */
export function assertSameModel(input: SourceModel, checked: { vertexCount: number; jointCount: number }): void {
  if (input.vertexCount === checked.vertexCount && input.joints.length === checked.jointCount) return;
  throw new Error(
    `internal error: the compile read ${input.vertexCount} vertices and ${input.joints.length} joints where the check read ` +
      `${checked.vertexCount} and ${checked.jointCount}; nothing was written`,
  );
}

/** A whole parsed document's data (its text gives the comment). */
export function gatherInput(text: string, chunks: readonly Chunk[]): SourceModel {
  const gatherer = new InputGatherer();
  for (const chunk of chunks) {
    const at = gatherer.add(chunk);
    if (at >= 0) return gatherer.finish(text.slice(chunk.start + at));
  }
  return gatherer.finish(null);
}

/**
 * `vb` pairs -> four bone bytes and four normalised weights (§4.8.4): weights <= 0.001 dropped,
 * a descending top 4 by strict `>`, unused slots (0, bone 0), weights scaled by 1 / sum.
 */
export function blendCombo(values: Values, v: number, n: number, bones: Uint8Array, weights: Float64Array, o: number): void {
  let count = 0;
  for (let k = 0; k < 4; k++) {
    bones[o + k] = 0;
    weights[o + k] = 0;
  }
  for (let p = 0; p + 1 < n; p += 2) {
    const weight = values[v + p + 1];
    if (!(weight > 0.001)) continue;
    const bone = values[v + p] & 255;
    let slot = 0;
    while (slot < count && !(weight > weights[o + slot])) slot++;
    if (slot >= 4) continue;
    for (let s = Math.min(count, 3); s > slot; s--) {
      weights[o + s] = weights[o + s - 1];
      bones[o + s] = bones[o + s - 1];
    }
    weights[o + slot] = weight;
    bones[o + slot] = bone;
    if (count < 4) count++;
  }
  if (count === 0) return;
  let total = 0;
  for (let k = 0; k < count; k++) total += weights[o + k];
  const scale = 1 / total;
  for (let k = 0; k < count; k++) weights[o + k] *= scale;
}

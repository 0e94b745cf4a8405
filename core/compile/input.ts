// Stage 1: IQE chunks -> typed arrays per attribute, with the reference compiler's defaults
// (IQE-SEMANTICS.md §3). Two passes over the parsed lines: the first counts, the second fills
// exactly sized arrays. Lines after the first `comment` are comment text (§3.7).
import { type Chunk, afterTerminator, contentEnd } from '../iqe/chunk';
import { Cmd } from '../iqe/commands';
import { type Pose, POSE_STRIDE, poseFromMatrix, poseFromAngles, poseFromQuaternion } from './pose';

export interface SmoothGroup {
  key: number;
  /** Smallest dot product of face normals that still welds (-1: no limit). */
  threshold: number;
  uv: boolean;
  used: boolean;
}

export interface Section {
  mesh: string;
  material: string;
  /** Index of the section's first triangle; it runs to the next section's first triangle. */
  firstTriangle: number;
}

export interface Declaration {
  format: number;
  size: number;
  name: string;
}

export interface InputAnimation {
  name: string;
  framerate: number;
  flags: number;
  /** Index of the animation's first frame in the file's frame list, and its frame count. */
  firstFrame: number;
  frameCount: number;
}

export interface InputJoint {
  name: string;
  parent: number;
}

/** Every vertex attribute of the file, one typed array per kind (null when the file has none). */
export interface IqeInput {
  vertexCount: number;
  /** x, y, z, w per vertex. */
  positions: Float64Array;
  texcoords: Float64Array | null;
  normals: Float64Array | null;
  /** Explicit tangents (vx): x, y, z, w per vertex. */
  tangents: Float64Array | null;
  /** The 6-value vx form's bitangents: x, y, z per vertex (null for the 4-value form). */
  bitangents: Float64Array | null;
  /** Four bone bytes and four normalised weights per vertex (§4.8.4). */
  blendBones: Uint8Array | null;
  blendWeights: Float64Array | null;
  colors: Float64Array | null;
  customs: (Float64Array | null)[];
  smoothIds: Float64Array | null;
  /** Three input vertex indices per triangle, and each triangle's smoothing group. */
  triangles: Int32Array;
  triangleGroup: Int32Array;
  /** Edge flags per triangle (§3.2), or null when the file has no `fs`. */
  edgeFlags: Uint8Array | null;
  groups: SmoothGroup[];
  sections: Section[];
  joints: InputJoint[];
  /** Base poses (10 values each: translate, rotate, scale) and their count. */
  basePoses: Float64Array;
  basePoseCount: number;
  /** Frame poses, frame after frame; each frame starts at framePoseStart[f]. */
  framePoses: Float64Array;
  frameCount: number;
  framePoseStart: Int32Array;
  animations: InputAnimation[];
  /** vertexarray declarations by IQM type (0..6) and custom0..9 (7..16). */
  declarations: (Declaration | null)[];
  /** Text after the first `comment` line, or null. */
  comment: string | null;
}

const CUSTOMS = 10;

/** Value k of a line (values[v..v+n)), or the default when the line has fewer. */
function val(values: Float64Array, v: number, n: number, k: number, fallback: number): number {
  return k < n ? values[v + k] : fallback;
}

function addPose(out: Float64Array, index: number, pose: Pose): void {
  out.set(pose, index * POSE_STRIDE);
}

export function gatherInput(text: string, chunks: readonly Chunk[]): IqeInput {
  // Pass 1: counts.
  let vp = 0, vt = 0, vn = 0, vx = 0, vxSix = 0, vb = 0, vc = 0, vs = 0;
  const vcustom = new Int32Array(CUSTOMS);
  let triangleCount = 0, fsCount = 0, basePoseTotal = 0, framePoseTotal = 0;
  let seenAnimation = false;
  let stop = false;
  for (const chunk of chunks) {
    const { kind, valueStart } = chunk;
    for (let i = 0; i < chunk.lineCount && !stop; i++) {
      const n = valueStart[i + 1] - valueStart[i];
      switch (kind[i] as Cmd) {
        case Cmd.Vp: vp++; break;
        case Cmd.Vt: vt++; break;
        case Cmd.Vn: vn++; break;
        case Cmd.Vx: vx++; if (n >= 5) vxSix++; break;
        case Cmd.Vb: vb++; break;
        case Cmd.Vc: vc++; break;
        case Cmd.Vs: vs++; break;
        case Cmd.Fa: case Cmd.Fm: if (n >= 3) triangleCount += n - 2; break;
        case Cmd.Fs: if (n >= 3) fsCount += n - 2; break;
        case Cmd.Pq: case Cmd.Pm: case Cmd.Pa: if (seenAnimation) framePoseTotal++; else basePoseTotal++; break;
        case Cmd.Animation: seenAnimation = true; break;
        case Cmd.Comment: stop = true; break;
        default: {
          const k = kind[i] - Cmd.V0;
          if (k >= 0 && k < CUSTOMS) vcustom[k]++;
        }
      }
    }
    if (stop) break;
  }

  const positions = new Float64Array(4 * vp);
  const texcoords = vt > 0 ? new Float64Array(4 * vt) : null;
  const normals = vn > 0 ? new Float64Array(3 * vn) : null;
  const tangents = vx > 0 ? new Float64Array(4 * vx) : null;
  const bitangents = vxSix > 0 ? new Float64Array(3 * vx) : null;
  const blendBones = vb > 0 ? new Uint8Array(4 * vb) : null;
  const blendWeights = vb > 0 ? new Float64Array(4 * vb) : null;
  const colors = vc > 0 ? new Float64Array(4 * vc) : null;
  const smoothIds = vs > 0 ? new Float64Array(vs) : null;
  const customs: (Float64Array | null)[] = [];
  for (let k = 0; k < CUSTOMS; k++) customs.push(vcustom[k] > 0 ? new Float64Array(4 * vcustom[k]) : null);
  const ccount = new Int32Array(CUSTOMS);
  const triangles = new Int32Array(3 * triangleCount);
  const triangleGroup = new Int32Array(triangleCount);
  const edgeFlags = fsCount > 0 ? new Uint8Array(Math.max(triangleCount, fsCount)).fill(7) : null;
  const basePoses = new Float64Array(POSE_STRIDE * basePoseTotal);
  // On a SharedArrayBuffer where there is one, so that the CLI's bounds worker reads the frames
  // without a copy (cli/compileParallel.ts).
  const framePoses = typeof SharedArrayBuffer === 'function'
    ? new Float64Array(new SharedArrayBuffer(8 * POSE_STRIDE * framePoseTotal))
    : new Float64Array(POSE_STRIDE * framePoseTotal);

  const groups: SmoothGroup[] = [{ key: -1, threshold: -1, uv: false, used: false }];
  const sections: Section[] = [];
  const joints: InputJoint[] = [];
  const declarations: (Declaration | null)[] = new Array<Declaration | null>(17).fill(null);
  const animations: InputAnimation[] = [];
  const frameStarts: number[] = [];
  let basePoseCount = 0;
  let framePoseCount = 0;
  let frameOpen = false;
  let comment: string | null = null;

  let nvp = 0, nvt = 0, nvn = 0, nvx = 0, nvb = 0, nvc = 0, nvs = 0, ntri = 0, nfs = 0;
  let fmOffset = 0;
  let meshName = '';
  let materialName = '';
  let pending = true;
  let group = 0;
  const pose: Pose = new Float64Array(POSE_STRIDE);

  const touchGroup = (): void => {
    if (groups[group].used) {
      groups.push({ ...groups[group] });
      group = groups.length - 1;
    }
  };

  outer: for (const chunk of chunks) {
    const { kind, valueStart, values, names } = chunk;
    for (let i = 0; i < chunk.lineCount; i++) {
      const v = valueStart[i];
      const n = valueStart[i + 1] - v;
      switch (kind[i] as Cmd) {
        case Cmd.Vp: {
          const o = 4 * nvp++;
          positions[o] = val(values, v, n, 0, 0); positions[o + 1] = val(values, v, n, 1, 0); positions[o + 2] = val(values, v, n, 2, 0); positions[o + 3] = val(values, v, n, 3, 1);
          break;
        }
        case Cmd.Vt: {
          const o = 4 * nvt++;
          texcoords![o] = val(values, v, n, 0, 0); texcoords![o + 1] = val(values, v, n, 1, 0); texcoords![o + 2] = val(values, v, n, 2, 0); texcoords![o + 3] = val(values, v, n, 3, 0);
          break;
        }
        case Cmd.Vn: {
          const o = 3 * nvn++;
          normals![o] = val(values, v, n, 0, 0); normals![o + 1] = val(values, v, n, 1, 0); normals![o + 2] = val(values, v, n, 2, 0);
          break;
        }
        case Cmd.Vx: {
          const j = nvx++;
          const o = 4 * j;
          tangents![o] = val(values, v, n, 0, 0); tangents![o + 1] = val(values, v, n, 1, 0); tangents![o + 2] = val(values, v, n, 2, 0);
          if (n >= 5) {
            tangents![o + 3] = 0;
            bitangents![3 * j] = val(values, v, n, 3, 0); bitangents![3 * j + 1] = val(values, v, n, 4, 0); bitangents![3 * j + 2] = val(values, v, n, 5, 0);
          } else {
            tangents![o + 3] = val(values, v, n, 3, 0);
          }
          break;
        }
        case Cmd.Vb:
          blendCombo(values, v, n, blendBones!, blendWeights!, 4 * nvb++);
          break;
        case Cmd.Vc: {
          const o = 4 * nvc++;
          colors![o] = val(values, v, n, 0, 0); colors![o + 1] = val(values, v, n, 1, 0); colors![o + 2] = val(values, v, n, 2, 0); colors![o + 3] = val(values, v, n, 3, 1);
          break;
        }
        case Cmd.Vs:
          smoothIds![nvs++] = val(values, v, n, 0, 0);
          break;
        case Cmd.Fa:
        case Cmd.Fm: {
          if (n < 2) break;
          const fm = kind[i] === Cmd.Fm;
          const resolve = (raw: number): number => (raw < 0 ? Math.max(nvp + raw, 0) : fm ? raw + fmOffset : raw);
          if (pending) {
            sections.push({ mesh: meshName, material: materialName, firstTriangle: ntri });
            pending = false;
          }
          groups[group].used = true;
          const i0 = resolve(values[v]);
          let i1 = resolve(values[v + 1]);
          for (let k = 2; k < n; k++) {
            const i2 = resolve(values[v + k]);
            triangles[3 * ntri] = i0;
            triangles[3 * ntri + 1] = i1;
            triangles[3 * ntri + 2] = i2;
            triangleGroup[ntri++] = group;
            i1 = i2;
          }
          break;
        }
        case Cmd.Fs: {
          if (n < 3) break;
          groups[group].used = true;
          const bit = (k: number): number => (values[v + k] > 0 ? 1 : 0);
          let flags = bit(0) | (bit(1) << 1) | (bit(2) << 2);
          for (let k = 3; k < n; k++) {
            edgeFlags![nfs++] = flags | 4;
            flags = 1 | ((flags & 4) >> 1) | (bit(k) << 2);
          }
          edgeFlags![nfs++] = flags;
          break;
        }
        case Cmd.Smoothgroup:
          touchGroup();
          if (n > 0) groups[group].key = values[v];
          break;
        case Cmd.Smoothangle: {
          touchGroup();
          // Ours (B5): cos of the clamped angle, without the reference's fabs.
          const angle = Math.min(Math.max(val(values, v, n, 0, 0), -180), 180);
          groups[group].threshold = Math.cos((angle * Math.PI) / 180);
          break;
        }
        case Cmd.Smoothuv:
          touchGroup();
          groups[group].uv = !(n > 0 && values[v] <= 0);
          break;
        case Cmd.Mesh:
          meshName = names.get(i) ?? '';
          fmOffset = nvp;
          if (sections.length === 0 || sections[sections.length - 1].mesh !== meshName) pending = true;
          break;
        case Cmd.Material:
          materialName = names.get(i) ?? '';
          if (sections.length === 0 || sections[sections.length - 1].material !== materialName) pending = true;
          break;
        case Cmd.Joint:
          joints.push({ name: names.get(i) ?? '', parent: val(values, v, n, 0, -1) });
          break;
        case Cmd.Vertexarray: {
          const type = values[v];
          const format = values[v + 1];
          if (type < 0 || format < 0 || declarations[type] !== null) break;
          const size = values[v + 2];
          declarations[type] = { format, size: Math.min(Math.max(size, 1), 4), name: names.get(i) ?? '' };
          break;
        }
        case Cmd.Pq:
        case Cmd.Pm:
        case Cmd.Pa: {
          const k = kind[i] as Cmd;
          if (k === Cmd.Pq) poseFromQuaternion(values, v, n, pose);
          else if (k === Cmd.Pm) poseFromMatrix(values, v, n, pose);
          else poseFromAngles(values, v, n, pose);
          if (animations.length === 0) {
            addPose(basePoses, basePoseCount++, pose);
          } else {
            if (!frameOpen) {
              frameStarts.push(framePoseCount);
              animations[animations.length - 1].frameCount++;
              frameOpen = true;
            }
            addPose(framePoses, framePoseCount++, pose);
          }
          break;
        }
        case Cmd.Animation:
          animations.push({ name: names.get(i) ?? '', framerate: 0, flags: 0, firstFrame: frameStarts.length, frameCount: 0 });
          frameOpen = false;
          break;
        case Cmd.Frame:
          if (animations.length > 0) frameOpen = false;
          break;
        case Cmd.Framerate:
          if (animations.length > 0 && n > 0) animations[animations.length - 1].framerate = Math.max(values[v], 0);
          break;
        case Cmd.Loop:
          if (animations.length > 0) animations[animations.length - 1].flags |= 1;
          break;
        case Cmd.Comment: {
          const lineStart = chunk.start + chunk.lineStart[i];
          const end = contentEnd(text, lineStart, text.length);
          comment = text.slice(afterTerminator(text, end));
          break outer;
        }
        default: {
          const c = kind[i] - Cmd.V0;
          if (c >= 0 && c < CUSTOMS) {
            const o = 4 * ccount[c]++;
            const a = customs[c]!;
            a[o] = val(values, v, n, 0, 0); a[o + 1] = val(values, v, n, 1, 0); a[o + 2] = val(values, v, n, 2, 0); a[o + 3] = val(values, v, n, 3, 0);
          }
        }
      }
    }
  }

  frameStarts.push(framePoseCount);

  return {
    vertexCount: vp,
    positions,
    texcoords,
    normals,
    tangents,
    bitangents,
    blendBones,
    blendWeights,
    colors,
    customs,
    smoothIds,
    triangles: triangles.subarray(0, 3 * ntri),
    triangleGroup: triangleGroup.subarray(0, ntri),
    edgeFlags,
    groups,
    sections,
    joints,
    basePoses,
    basePoseCount,
    framePoses,
    frameCount: frameStarts.length - 1,
    framePoseStart: Int32Array.from(frameStarts),
    animations,
    declarations,
    comment,
  };
}

/**
 * `vb` pairs -> four bone bytes and four normalised weights (§4.8.4): weights <= 0.001 dropped,
 * a descending top 4 by strict `>`, unused slots (0, bone 0), weights scaled by 1 / sum.
 */
export function blendCombo(values: Float64Array, v: number, n: number, bones: Uint8Array, weights: Float64Array, o: number): void {
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

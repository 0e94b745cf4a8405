// What the engine checker looks at: a model's counts, arrays, joints and animations, each with
// where it is (byte offset in a binary file, line in IQE). Built from the neutral Model (plus the
// file's bytes for offsets and header fields) or from an IQE document (iqe.ts).

import type { Model } from '../model/model';
import type { FindingLocation, IqmArrayType, IqmFormatName } from './types';
import { TYPE_NAMES } from '../iqm/layout';
import { quotedName } from '../names';

export interface ArrayFacts {
  index: number;
  type: IqmArrayType;
  /** `position`, ..., or the custom array's name. */
  name: string;
  format: IqmFormatName;
  size: number;
  where: FindingLocation;
}

export interface MeshFacts {
  index: number;
  name: string;
  material: string;
  vertices: number;
  triangles: number;
  /** MD3: the surface's own frame count and shader count. */
  frames?: number;
  shaders?: number;
  where: FindingLocation;
}

export interface JointFacts {
  index: number;
  name: string;
  parent: number;
  /** Bind scale, when known. */
  scale?: [number, number, number];
  where: FindingLocation;
}

export interface AnimationFacts {
  index: number;
  name: string;
  frames: number;
  where: FindingLocation;
}

/** A texture a mesh names, as found next to the model (the caller looks it up; see textures.ts). */
export interface TextureFacts {
  mesh: number;
  /** The material or shader name in the file. */
  name: string;
  /** The image found, relative to the folder it was found from; undefined when none was. */
  path?: string;
  width?: number;
  height?: number;
  /** Where the lookup looked: the folders, for messages. */
  searched: string;
  where: FindingLocation;
}

/** A pose scale found in a frame (the first one of its kind). */
export interface PoseScale {
  frame: number;
  pose: number;
  scale: [number, number, number];
}

export interface ModelFacts {
  /** The format the engine loads: an IQE is judged as the IQM it compiles to. */
  format: 'iqm' | 'md3' | 'dpm';
  origin: 'file' | 'iqe';
  version: number;
  /** Size of the file; the IQM header's filesize field. */
  fileBytes?: number;
  headerFileBytes?: number;
  /** IQM vertex arrays; `arraysComplete` false when only some are known (IQE declarations). */
  arrays: ArrayFacts[];
  arraysComplete: boolean;
  meshes: MeshFacts[];
  joints: JointFacts[];
  poses: number;
  frames: number;
  animations: AnimationFacts[];
  /** MD3 header counts. */
  tags: string[];
  /** MD3 frame names, as stored (16 bytes each). */
  frameNames?: readonly string[];
  /** The largest blend index used by a weighted influence (-1: none or unknown). */
  maxBlendIndex: number;
  /** Textures looked up by the caller (absent: not looked up). */
  textures?: TextureFacts[];
  /** Pose scales: the first one not 1, the first non-uniform one, the first one Daemon refuses. */
  scaledPose?: PoseScale;
  nonUniformPose?: PoseScale;
  refusedPose?: PoseScale;
  header: FindingLocation;
}

export function arrayTypeOf(type: number): IqmArrayType {
  return type < TYPE_NAMES.length ? TYPE_NAMES[type] : 'custom';
}

function u32(bytes: Uint8Array | undefined, at: number): number | undefined {
  if (!bytes || at + 4 > bytes.length) return undefined;
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

const EPS = 1e-4;

/** Daemon's test (tr_model_iqm.cpp): negative x, or x-y or y-z whose integer part is not 0. */
export function daemonRefusesScale(s: readonly number[]): boolean {
  return s[0] < 0 || Math.trunc(s[0] - s[1]) !== 0 || Math.trunc(s[1] - s[2]) !== 0;
}

export function nonUniform(s: readonly number[]): boolean {
  return Math.abs(s[0] - s[1]) > EPS || Math.abs(s[1] - s[2]) > EPS;
}

export function notOne(s: readonly number[]): boolean {
  return Math.abs(s[0] - 1) > EPS || Math.abs(s[1] - 1) > EPS || Math.abs(s[2] - 1) > EPS;
}

/** The first scaled, non-uniform and Daemon-refused pose scales of an IQM's frames. */
function poseScales(model: Model): Pick<ModelFacts, 'scaledPose' | 'nonUniformPose' | 'refusedPose'> {
  const out: Pick<ModelFacts, 'scaledPose' | 'nonUniformPose' | 'refusedPose'> = {};
  const a = model.animation;
  if (!a || a.kind !== 'channels') return out;
  const s: [number, number, number] = [1, 1, 1];
  for (let f = 0; f < a.frameCount; f++) {
    const base = f * a.frameChannels;
    for (let p = 0; p < a.poseCount; p++) {
      let sample = base + a.firstSample[p];
      for (let c = 0; c < 10; c++) {
        let v = a.offset[p * 10 + c];
        if (a.mask[p] & (1 << c)) v += a.samples[sample++] * a.scale[p * 10 + c];
        if (c >= 7) s[c - 7] = v;
      }
      if (!out.scaledPose && notOne(s)) out.scaledPose = { frame: f, pose: p, scale: [...s] };
      if (!out.nonUniformPose && nonUniform(s)) out.nonUniformPose = { frame: f, pose: p, scale: [...s] };
      if (!out.refusedPose && daemonRefusesScale(s)) out.refusedPose = { frame: f, pose: p, scale: [...s] };
      if (out.scaledPose && out.nonUniformPose && out.refusedPose) return out;
    }
  }
  return out;
}

/** The largest joint index with a non-zero weight. */
function maxBlendIndex(model: Model): number {
  let max = -1;
  for (const mesh of model.meshes) {
    const idx = mesh.blendIndices;
    const w = mesh.blendWeights;
    if (!idx || !w) continue;
    for (let i = 0; i < idx.length; i++) if (w[i] > 0 && idx[i] > max && idx[i] !== 0xffffffff) max = idx[i];
  }
  return max;
}

/** MD3 surface header offsets, walked by OFS_END as the reader does. */
function md3SurfaceOffsets(bytes: Uint8Array | undefined, count: number): number[] {
  const out: number[] = [];
  let at = u32(bytes, 100);
  for (let s = 0; s < count && at !== undefined; s++) {
    out.push(at);
    const end = u32(bytes, at + 104);
    if (end === undefined || end < 108) break;
    at += end;
  }
  return out;
}

/**
 * Facts of a model read from a file. `bytes` (the file) adds the IQM header's filesize and byte
 * offsets of the records findings point at; without it locations name the part only.
 */
export function factsFromModel(model: Model, bytes?: Uint8Array): ModelFacts {
  const format = model.format === 'iqe' ? 'iqm' : model.format;
  const isIqm = format === 'iqm';
  const ofs = (field: number, stride: number, i: number): number | undefined => {
    if (!isIqm) return undefined;
    const base = u32(bytes, field);
    return base === undefined || base === 0 ? undefined : base + stride * i;
  };
  const md3Surfaces = format === 'md3' ? md3SurfaceOffsets(bytes, model.meshes.length) : [];
  const jointStride = model.version === 1 ? 44 : 48;
  const arrays: ArrayFacts[] = (model.iqm?.vertexArrays ?? []).map((a, i) => ({
    index: i,
    type: arrayTypeOf(a.type),
    name: a.name,
    format: a.format as IqmFormatName,
    size: a.size,
    where: { what: `vertex array ${i} (${a.name})`, array: i, byteOffset: ofs(52, 20, i) },
  }));
  const meshes: MeshFacts[] = model.meshes.map((m, i) => ({
    index: i,
    name: m.name,
    material: m.material,
    vertices: m.vertexCount,
    triangles: m.triangleCount,
    frames: m.morph?.frameCount,
    shaders: format === 'md3' ? m.shaders.length : undefined,
    where: { what: `${format === 'md3' ? 'surface' : 'mesh'} ${i} ${quotedName(m.name)}`, mesh: i, byteOffset: format === 'md3' ? md3Surfaces[i] : ofs(40, 24, i) },
  }));
  const sk = model.skeleton;
  const joints: JointFacts[] = sk
    ? sk.names.map((name, i) => ({
        index: i,
        name,
        parent: sk.parents[i],
        scale: [sk.bindLocal[i * 10 + 7], sk.bindLocal[i * 10 + 8], sk.bindLocal[i * 10 + 9]] as [number, number, number],
        where: { what: `joint ${i} ${quotedName(name)}`, joint: i, byteOffset: ofs(72, jointStride, i) },
      }))
    : [];
  const animations: AnimationFacts[] =
    isIqm ? model.clips.map((c, i) => ({ index: i, name: c.name, frames: c.frameCount, where: { what: `animation ${i} ${quotedName(c.name)}`, animation: i, byteOffset: ofs(88, 20, i) } })) : [];
  return {
    format,
    origin: 'file',
    version: model.version,
    fileBytes: bytes?.length,
    headerFileBytes: isIqm ? u32(bytes, 20) : undefined,
    arrays,
    arraysComplete: isIqm,
    meshes,
    joints,
    poses: (isIqm ? u32(bytes, 76) : undefined) ?? (model.animation ? model.animation.poseCount : 0),
    frames: model.frameCount,
    animations,
    tags: model.tags?.names ?? [],
    frameNames: format === 'md3' ? model.frameNames : undefined,
    maxBlendIndex: maxBlendIndex(model),
    ...poseScales(model),
    header: { what: 'header', byteOffset: 0 },
  };
}

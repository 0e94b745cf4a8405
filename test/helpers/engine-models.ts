// Generated models for the engine-profile tests: one knob per limit (vertices, triangles, joints,
// name lengths, blend indexes, array formats, scales, file size; MD3 surfaces, frames, tags).

import type { IqmDocument, IqmDocVertexArray } from '../../core/iqm/document';
import { IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_FLOAT, IQM_NORMAL, IQM_POSITION, IQM_TEXCOORD, IQM_UBYTE } from '../../core/iqm/layout';
import { writeIqmDocument } from './iqm-writer';
import { writeMd3, type Md3Spec } from './model-writers';

export interface IqmOptions {
  vertices?: number;
  /** Triangles of the one mesh (corners cycle through the vertices). */
  triangles?: number;
  joints?: number;
  jointName?: (i: number) => string;
  /** parent of joint i (default i - 1). */
  parent?: (i: number) => number;
  /** Bind scale of joint i. */
  scale?: (i: number) => [number, number, number];
  /** The joint every vertex is weighted to (default 0). */
  blendIndex?: number;
  /** Replace the format/size of an array: [type, format, size]. */
  arrayFormat?: [number, number, number];
  /** Leave an array out. */
  without?: number;
  /** Animations, each with this many frames (poses = joints, one constant frame each). */
  anims?: number[];
  /** A pose scale for every pose of every frame. */
  poseScale?: [number, number, number];
  material?: string;
  comment?: string;
}

function typed(format: number, n: number): IqmDocVertexArray['data'] {
  return format === IQM_FLOAT ? new Float32Array(n) : format === IQM_UBYTE ? new Uint8Array(n) : format === 0 ? new Int8Array(n) : format === 2 ? new Int16Array(n) : format === 3 ? new Uint16Array(n) : format === 4 ? new Int32Array(n) : format === 5 ? new Uint32Array(n) : format === 6 ? new Uint16Array(n) : new Float64Array(n);
}

export function iqmDocument(o: IqmOptions = {}): IqmDocument {
  const vertices = o.vertices ?? 3;
  const triangles = o.triangles ?? 1;
  const joints = o.joints ?? 0;
  const arrays: IqmDocVertexArray[] = [];
  const add = (type: number, name: string, format: number, size: number, fill: (d: IqmDocVertexArray['data']) => void) => {
    if (o.without === type) return;
    let f = format;
    let s = size;
    if (o.arrayFormat && o.arrayFormat[0] === type) [, f, s] = o.arrayFormat;
    const data = typed(f, vertices * s);
    if (f === format && s === size) fill(data);
    arrays.push({ type, name, flags: 0, format: f, size: s, data, offset: 0 });
  };
  add(IQM_POSITION, 'position', IQM_FLOAT, 3, (d) => {
    for (let v = 0; v < vertices; v++) {
      d[v * 3] = v % 7;
      d[v * 3 + 1] = v % 11;
      d[v * 3 + 2] = v % 13;
    }
  });
  add(IQM_TEXCOORD, 'texcoord', IQM_FLOAT, 2, () => undefined);
  add(IQM_NORMAL, 'normal', IQM_FLOAT, 3, (d) => {
    for (let v = 0; v < vertices; v++) d[v * 3 + 2] = 1;
  });
  if (joints > 0) {
    add(IQM_BLENDINDEXES, 'blendindexes', IQM_UBYTE, 4, (d) => {
      for (let v = 0; v < vertices; v++) d[v * 4] = o.blendIndex ?? 0;
    });
    add(IQM_BLENDWEIGHTS, 'blendweights', IQM_UBYTE, 4, (d) => {
      for (let v = 0; v < vertices; v++) d[v * 4] = 255;
    });
  }
  const tris = new Uint32Array(triangles * 3);
  for (let i = 0; i < tris.length; i++) tris[i] = i % vertices;
  const anims = o.anims ?? [];
  const frameCount = anims.reduce((n, f) => n + f, 0);
  const ps = o.poseScale ?? [1, 1, 1];
  return {
    version: 2,
    flags: 0,
    vertexCount: vertices,
    meshes: [{ name: 'body', material: o.material ?? '', firstVertex: 0, vertexCount: vertices, firstTriangle: 0, triangleCount: triangles }],
    vertexArrays: arrays,
    triangles: tris,
    adjacency: null,
    joints: Array.from({ length: joints }, (_, i) => ({
      name: o.jointName ? o.jointName(i) : `j${i}`,
      parent: o.parent ? o.parent(i) : i - 1,
      trs: new Float32Array([0, 0, 0, 0, 0, 0, 1, ...(o.scale ? o.scale(i) : [1, 1, 1])]),
    })),
    poses: frameCount > 0 ? Array.from({ length: joints }, (_, i) => ({ parent: i - 1, mask: 0, offset: new Float32Array([0, 0, 0, 0, 0, 0, 1, ...ps]), scale: new Float32Array(10) })) : [],
    anims: anims.map((frames, i) => ({ name: `anim${i}`, firstFrame: anims.slice(0, i).reduce((n, f) => n + f, 0), frameCount: frames, framerate: 10, flags: 0 })),
    frameCount,
    frameChannels: 0,
    frames: new Uint16Array(0),
    bounds: null,
    comment: o.comment ?? '',
    extensions: [],
  };
}

export function iqm(o: IqmOptions = {}): Uint8Array {
  return writeIqmDocument(iqmDocument(o));
}

/** An IQM of exactly `bytes` bytes (padded with a comment). */
export function iqmOfSize(bytes: number): Uint8Array {
  let pad = Math.max(0, bytes - iqm().length);
  for (let i = 0; i < 8; i++) {
    const out = iqm({ comment: 'x'.repeat(pad) });
    if (out.length === bytes) return out;
    pad += bytes - out.length;
  }
  throw new Error(`cannot make an IQM of ${bytes} bytes`);
}

export interface Md3Options {
  vertices?: number;
  triangles?: number;
  frames?: number;
  tags?: number;
  tagNames?: string[];
  surfaces?: number;
  shaders?: number;
  surfaceName?: string;
  /** Frames of the first surface when it differs from the header. */
  firstSurfaceFrames?: number;
}

export function md3Spec(o: Md3Options = {}): Md3Spec {
  const nv = o.vertices ?? 3;
  const nt = o.triangles ?? 1;
  const frames = o.frames ?? 1;
  const tagNames = o.tagNames ?? Array.from({ length: o.tags ?? 0 }, (_, i) => `tag_${i}`);
  const triangles = Array.from({ length: nt * 3 }, (_, i) => i % nv);
  const st = new Array<number>(nv * 2).fill(0);
  const surface = (s: number) => {
    const sf = s === 0 && o.firstSurfaceFrames !== undefined ? o.firstSurfaceFrames : frames;
    return {
      name: s === 0 && o.surfaceName !== undefined ? o.surfaceName : `surface${s}`,
      shaders: Array.from({ length: o.shaders ?? 1 }, (_, i) => `textures/s${i}`),
      triangles,
      st,
      xyz: Array.from({ length: sf }, () => Array.from({ length: nv * 3 }, (_, i) => i % 100)),
      normals: Array.from({ length: sf }, () => new Array<number>(nv).fill(0)),
    };
  };
  return {
    name: 'generated',
    frames: Array.from({ length: frames }, (_, f) => ({ mins: [-1, -1, -1], maxs: [1, 1, 1], origin: [0, 0, 0], radius: 2, name: `f${f}` })),
    tags: Array.from({ length: frames }, () => tagNames.map((name) => ({ name, origin: [0, 0, 0], axis: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }))),
    surfaces: Array.from({ length: o.surfaces ?? 1 }, (_, s) => surface(s)),
  };
}

export function md3(o: Md3Options = {}): Uint8Array {
  return writeMd3(md3Spec(o));
}

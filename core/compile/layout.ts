// Stage: the IQM file layout (IQE-SEMANTICS.md §4.13): header, text, meshes, vertex array
// headers, padding to 8, the vertex block, triangles, adjacency, joints, poses, anims, frames,
// bounds, comment; every offset 4-aligned and 0 for an empty block.
import { FORMAT_SIZES, IQM_HEADER_SIZE, IQM_MAGIC, IQM_RECORD } from '../iqm/document';
import type { TextTable } from './text';
import type { VertexArray } from './vertexarrays';
import { HOST_LITTLE_ENDIAN } from '../binary';

export interface OutputMesh {
  name: number;
  material: number;
  firstVertex: number;
  vertexCount: number;
  firstTriangle: number;
  triangleCount: number;
}

export interface OutputJoint {
  name: number;
  parent: number;
  /** translate 3, rotate 4, scale 3 (written as float). */
  pose: ArrayLike<number>;
}

export interface OutputAnim {
  name: number;
  firstFrame: number;
  frameCount: number;
  framerate: number;
  flags: number;
}

export interface IqmParts {
  text: TextTable;
  meshes: OutputMesh[];
  vertexCount: number;
  arrays: VertexArray[];
  triangles: Uint32Array;
  adjacency: Uint32Array;
  joints: OutputJoint[];
  poses: { parent: number; mask: number; offset: ArrayLike<number>; scale: ArrayLike<number> }[];
  anims: OutputAnim[];
  frameCount: number;
  frameChannels: number;
  frames: Uint16Array;
  /** 8 values per frame (bbmin 3, bbmax 3, xyradius, radius), or null. */
  bounds: Float64Array | null;
  /** UTF-8 comment bytes without the NUL, or null. */
  comment: Uint8Array | null;
}

const pad4 = (n: number): number => (n + 3) & ~3;

export function writeIqm(parts: IqmParts): Uint8Array {
  const textSize = pad4(parts.text.length);
  let size = IQM_HEADER_SIZE;
  const ofsText = textSize > 0 ? size : 0;
  size += textSize;
  const ofsMeshes = parts.meshes.length > 0 ? size : 0;
  size += IQM_RECORD.mesh * parts.meshes.length;
  const ofsArrays = parts.arrays.length > 0 ? size : 0;
  size += IQM_RECORD.vertexArray * parts.arrays.length;
  size += (8 - (size % 8)) % 8;
  const vertexBlock = size;
  const arrayOffsets: number[] = [];
  for (const array of parts.arrays) {
    const align = Math.max(FORMAT_SIZES[array.format], 4);
    size = vertexBlock + Math.ceil((size - vertexBlock) / align) * align;
    arrayOffsets.push(size);
    size += array.bytes.length;
  }
  size = vertexBlock + pad4(size - vertexBlock);
  const triCount = parts.triangles.length / 3;
  const ofsTriangles = triCount > 0 ? size : 0;
  size += IQM_RECORD.triangle * triCount;
  const ofsAdjacency = triCount > 0 ? size : 0;
  size += IQM_RECORD.triangle * triCount;
  const ofsJoints = parts.joints.length > 0 ? size : 0;
  size += IQM_RECORD.joint * parts.joints.length;
  const ofsPoses = parts.poses.length > 0 ? size : 0;
  size += IQM_RECORD.pose * parts.poses.length;
  const ofsAnims = parts.anims.length > 0 ? size : 0;
  size += IQM_RECORD.anim * parts.anims.length;
  const ofsFrames = parts.frames.length > 0 ? size : 0;
  size += 2 * parts.frames.length;
  const boundsCount = parts.bounds ? parts.bounds.length / 8 : 0;
  const ofsBounds = boundsCount > 0 ? size : 0;
  size += IQM_RECORD.bounds * boundsCount;
  const commentSize = parts.comment ? pad4(parts.comment.length + 1) : 0;
  const ofsComment = commentSize > 0 ? size : 0;
  size += commentSize;

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  for (let i = 0; i < IQM_MAGIC.length; i++) out[i] = IQM_MAGIC.charCodeAt(i);
  const header = [
    2, size, 0,
    textSize, ofsText,
    parts.meshes.length, ofsMeshes,
    parts.arrays.length, parts.vertexCount, ofsArrays,
    triCount, ofsTriangles, ofsAdjacency,
    parts.joints.length, ofsJoints,
    parts.poses.length, ofsPoses,
    parts.anims.length, ofsAnims,
    parts.frameCount, parts.frameChannels, ofsFrames, ofsBounds,
    commentSize, ofsComment,
    0, 0,
  ];
  header.forEach((v, i) => view.setUint32(16 + 4 * i, v, true));
  if (textSize > 0) parts.text.write(out, ofsText);
  let p = ofsMeshes;
  for (const m of parts.meshes) {
    for (const v of [m.name, m.material, m.firstVertex, m.vertexCount, m.firstTriangle, m.triangleCount]) {
      view.setUint32(p, v, true);
      p += 4;
    }
  }
  p = ofsArrays;
  parts.arrays.forEach((a, i) => {
    for (const v of [a.type, 0, a.format, a.size, arrayOffsets[i]]) {
      view.setUint32(p, v, true);
      p += 4;
    }
    out.set(a.bytes, arrayOffsets[i]);
  });
  if (HOST_LITTLE_ENDIAN) {
    // The blocks are 4-aligned: a typed-array copy writes the same little-endian bytes as the
    // DataView loops below, without a call per value.
    new Uint32Array(out.buffer, ofsTriangles, parts.triangles.length).set(parts.triangles);
    new Uint32Array(out.buffer, ofsAdjacency, parts.adjacency.length).set(parts.adjacency);
    new Uint16Array(out.buffer, ofsFrames, parts.frames.length).set(parts.frames);
  } else {
    p = ofsTriangles;
    for (let i = 0; i < parts.triangles.length; i++, p += 4) view.setUint32(p, parts.triangles[i], true);
    p = ofsAdjacency;
    for (let i = 0; i < parts.adjacency.length; i++, p += 4) view.setUint32(p, parts.adjacency[i], true);
    p = ofsFrames;
    for (let i = 0; i < parts.frames.length; i++, p += 2) view.setUint16(p, parts.frames[i], true);
  }
  p = ofsJoints;
  for (const j of parts.joints) {
    view.setUint32(p, j.name, true);
    view.setInt32(p + 4, j.parent, true);
    for (let k = 0; k < 10; k++) view.setFloat32(p + 8 + 4 * k, j.pose[k], true);
    p += IQM_RECORD.joint;
  }
  p = ofsPoses;
  for (const pose of parts.poses) {
    view.setInt32(p, pose.parent, true);
    view.setUint32(p + 4, pose.mask, true);
    for (let k = 0; k < 10; k++) view.setFloat32(p + 8 + 4 * k, pose.offset[k], true);
    for (let k = 0; k < 10; k++) view.setFloat32(p + 48 + 4 * k, pose.scale[k], true);
    p += IQM_RECORD.pose;
  }
  p = ofsAnims;
  for (const a of parts.anims) {
    view.setUint32(p, a.name, true);
    view.setUint32(p + 4, a.firstFrame, true);
    view.setUint32(p + 8, a.frameCount, true);
    view.setFloat32(p + 12, a.framerate, true);
    view.setUint32(p + 16, a.flags, true);
    p += IQM_RECORD.anim;
  }
  if (parts.bounds) {
    p = ofsBounds;
    for (let i = 0; i < parts.bounds.length; i++, p += 4) view.setFloat32(p, parts.bounds[i], true);
  }
  if (parts.comment) out.set(parts.comment, ofsComment);
  return out;
}

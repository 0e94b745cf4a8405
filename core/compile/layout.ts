// Stage: the IQM file's bytes, placed by the one description of the layout (core/iqm/layout.ts:
// header, text, meshes, vertex array headers, padding to 8, the vertex block, triangles,
// adjacency, joints, poses, anims, frames, bounds, comment; 0 for an empty block).
import { IQM_RECORD, IQM_VERSION, planIqmLayout, writeIqmHeader } from '../iqm/layout';
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
  /** null: no adjacency block (ofs_adjacency 0; CompileOptions.modelOnly). */
  adjacency: Uint32Array | null;
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
  // The text and the comment are written padded to 4, and their header counts say so.
  const textSize = pad4(parts.text.length);
  const triCount = parts.triangles.length / 3;
  const boundsCount = parts.bounds ? parts.bounds.length / 8 : 0;
  const commentSize = parts.comment ? pad4(parts.comment.length + 1) : 0;
  const layout = planIqmLayout({
    textBytes: textSize,
    meshes: parts.meshes.length,
    vertexArrays: parts.arrays.map((a) => ({ format: a.format, bytes: a.bytes.length })),
    triangles: triCount,
    adjacency: parts.adjacency !== null,
    joints: parts.joints.length,
    poses: parts.poses.length,
    anims: parts.anims.length,
    frameValues: parts.frames.length,
    bounds: boundsCount,
    commentBytes: commentSize,
  });
  const { size, arrayOffsets } = layout;

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  writeIqmHeader(view, {
    version: IQM_VERSION, filesize: size, flags: 0,
    num_text: textSize, ofs_text: layout.ofs_text,
    num_meshes: parts.meshes.length, ofs_meshes: layout.ofs_meshes,
    num_vertexarrays: parts.arrays.length, num_vertexes: parts.vertexCount, ofs_vertexarrays: layout.ofs_vertexarrays,
    num_triangles: triCount, ofs_triangles: layout.ofs_triangles, ofs_adjacency: layout.ofs_adjacency,
    num_joints: parts.joints.length, ofs_joints: layout.ofs_joints,
    num_poses: parts.poses.length, ofs_poses: layout.ofs_poses,
    num_anims: parts.anims.length, ofs_anims: layout.ofs_anims,
    num_frames: parts.frameCount, num_framechannels: parts.frameChannels, ofs_frames: layout.ofs_frames, ofs_bounds: layout.ofs_bounds,
    num_comment: commentSize, ofs_comment: layout.ofs_comment,
    num_extensions: 0, ofs_extensions: 0,
  });
  if (textSize > 0) parts.text.write(out, layout.ofs_text);
  let p = layout.ofs_meshes;
  for (const m of parts.meshes) {
    for (const v of [m.name, m.material, m.firstVertex, m.vertexCount, m.firstTriangle, m.triangleCount]) {
      view.setUint32(p, v, true);
      p += 4;
    }
  }
  p = layout.ofs_vertexarrays;
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
    new Uint32Array(out.buffer, layout.ofs_triangles, parts.triangles.length).set(parts.triangles);
    if (parts.adjacency) new Uint32Array(out.buffer, layout.ofs_adjacency, parts.adjacency.length).set(parts.adjacency);
    new Uint16Array(out.buffer, layout.ofs_frames, parts.frames.length).set(parts.frames);
  } else {
    p = layout.ofs_triangles;
    for (let i = 0; i < parts.triangles.length; i++, p += 4) view.setUint32(p, parts.triangles[i], true);
    p = layout.ofs_adjacency;
    for (let i = 0; i < (parts.adjacency?.length ?? 0); i++, p += 4) view.setUint32(p, parts.adjacency![i], true);
    p = layout.ofs_frames;
    for (let i = 0; i < parts.frames.length; i++, p += 2) view.setUint16(p, parts.frames[i], true);
  }
  p = layout.ofs_joints;
  for (const j of parts.joints) {
    view.setUint32(p, j.name, true);
    view.setInt32(p + 4, j.parent, true);
    for (let k = 0; k < 10; k++) view.setFloat32(p + 8 + 4 * k, j.pose[k], true);
    p += IQM_RECORD.joint;
  }
  p = layout.ofs_poses;
  for (const pose of parts.poses) {
    view.setInt32(p, pose.parent, true);
    view.setUint32(p + 4, pose.mask, true);
    for (let k = 0; k < 10; k++) view.setFloat32(p + 8 + 4 * k, pose.offset[k], true);
    for (let k = 0; k < 10; k++) view.setFloat32(p + 48 + 4 * k, pose.scale[k], true);
    p += IQM_RECORD.pose;
  }
  p = layout.ofs_anims;
  for (const a of parts.anims) {
    view.setUint32(p, a.name, true);
    view.setUint32(p + 4, a.firstFrame, true);
    view.setUint32(p + 8, a.frameCount, true);
    view.setFloat32(p + 12, a.framerate, true);
    view.setUint32(p + 16, a.flags, true);
    p += IQM_RECORD.anim;
  }
  if (parts.bounds) {
    p = layout.ofs_bounds;
    for (let i = 0; i < parts.bounds.length; i++, p += 4) view.setFloat32(p, parts.bounds[i], true);
  }
  if (parts.comment) out.set(parts.comment, layout.ofs_comment);
  return out;
}

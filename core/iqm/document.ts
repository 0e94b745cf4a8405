// The IQM file as a document: what the bytes say, with text-table offsets resolved to strings and
// arrays kept in their stored format. The reader produces it (the tests' document writer,
// test/helpers/iqm-writer.ts, consumes it), and toModel (reader.ts) turns it into the neutral
// Model. Where things are in the file: layout.ts.

import type { FteEvent, FteMeshInfo, FteSkins } from '../model/model';

/** Typed array for each format; half is kept as its raw uint16 bits. */
export type IqmArrayData = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export interface IqmDocVertexArray {
  type: number;
  /** Custom arrays (type ≥ IQM_CUSTOM): the name from the text table; standard ones: TYPE_NAMES (layout.ts). */
  name: string;
  flags: number;
  format: number;
  size: number;
  /** num_vertexes × size values in the stored format. */
  data: IqmArrayData;
  /** Byte offset in the file it was read from (0 for documents built in memory). */
  offset: number;
}

export interface IqmDocMesh {
  name: string;
  material: string;
  firstVertex: number;
  vertexCount: number;
  firstTriangle: number;
  triangleCount: number;
}

export interface IqmDocJoint {
  name: string;
  parent: number;
  /** [tx ty tz qx qy qz qw sx sy sz]; v1 files get w reconstructed (-sqrt(1 - x² - y² - z²)). */
  trs: Float32Array;
}

export interface IqmDocPose {
  parent: number;
  /** 10-channel mask (v1 masks are widened: v1 channels 6-8 become 7-9; channel 6 never set). */
  mask: number;
  offset: Float32Array;
  scale: Float32Array;
}

export interface IqmDocAnim {
  name: string;
  firstFrame: number;
  frameCount: number;
  framerate: number;
  flags: number;
}

export interface IqmDocExtension {
  name: string;
  /** The raw data; for FTE_EVENT and FTE_SKINS the writer re-encodes `events`/`skins` when present. */
  data: Uint8Array;
  offset: number;
  /** FTE_MESH decoded, one record per mesh. */
  meshes?: FteMeshInfo[];
  /** FTE_EVENT decoded (text offsets resolved). */
  events?: FteEvent[];
  /** FTE_SKINS decoded (text offsets resolved). */
  skins?: FteSkins;
}

export interface IqmDocument {
  version: 1 | 2;
  flags: number;
  vertexCount: number;
  meshes: IqmDocMesh[];
  vertexArrays: IqmDocVertexArray[];
  /** 3 per triangle, global vertex indices, clockwise. */
  triangles: Uint32Array;
  adjacency: Uint32Array | null;
  joints: IqmDocJoint[];
  poses: IqmDocPose[];
  anims: IqmDocAnim[];
  frameCount: number;
  frameChannels: number;
  /** frameCount × frameChannels samples. */
  frames: Uint16Array;
  /** 8 per frame: mins, maxs, xyradius, radius; null when absent. */
  bounds: Float32Array | null;
  comment: string;
  extensions: IqmDocExtension[];
}

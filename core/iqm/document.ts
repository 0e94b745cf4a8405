// The IQM file as a document: what the bytes say, with text-table offsets resolved to strings and
// arrays kept in their stored format. The reader produces it, the writer consumes it, and
// toModel (reader.ts) turns it into the neutral Model. Layout facts from iqm.txt.

import type { FteEvent, FteMeshInfo, FteSkins } from '../model/model';

export const IQM_MAGIC = 'INTERQUAKEMODEL\0';
export const IQM_HEADER_SIZE = 124;

/**
 * Bytes of one record of each IQM v2 table (iqm.txt), for every reader and writer of the format
 * (v1 joints are 44 bytes and v1 poses 80: the reader and writer of v1 say so where they differ).
 */
export const IQM_RECORD = { mesh: 24, vertexArray: 20, triangle: 12, joint: 48, pose: 88, anim: 20, bounds: 32 } as const;

export const IQM_POSITION = 0;
export const IQM_TEXCOORD = 1;
export const IQM_NORMAL = 2;
export const IQM_TANGENT = 3;
export const IQM_BLENDINDEXES = 4;
export const IQM_BLENDWEIGHTS = 5;
export const IQM_COLOR = 6;
export const IQM_CUSTOM = 0x10;

export const IQM_BYTE = 0;
export const IQM_UBYTE = 1;
export const IQM_SHORT = 2;
export const IQM_USHORT = 3;
export const IQM_INT = 4;
export const IQM_UINT = 5;
export const IQM_HALF = 6;
export const IQM_FLOAT = 7;
export const IQM_DOUBLE = 8;

export const IQM_LOOP = 1;

export const FORMAT_NAMES = ['byte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'half', 'float', 'double'] as const;
export const FORMAT_SIZES = [1, 1, 2, 2, 4, 4, 2, 4, 8] as const;
export const TYPE_NAMES = ['position', 'texcoord', 'normal', 'tangent', 'blendindexes', 'blendweights', 'color'] as const;

/** Typed array for each format; half is kept as its raw uint16 bits. */
export type IqmArrayData = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export interface IqmDocVertexArray {
  type: number;
  /** Custom arrays (type ≥ 0x10): the name from the text table; standard ones: TYPE_NAMES. */
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

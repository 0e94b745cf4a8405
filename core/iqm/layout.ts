// The IQM file layout (iqm.txt; IQE-SEMANTICS.md §4.13), described once for every reader and
// writer of the format: the compiler's writer (core/compile/layout.ts), the reader (reader.ts),
// the tests' document writer and oracle (test/helpers). The header's fields, the constants, the
// record sizes, and where each block goes (planIqmLayout):
//
//   header, text, meshes, vertex array headers, (padding to 8) the vertex data (each array aligned
//   to its component size, at least 4), triangles, adjacency, joints, poses, anims, frames, bounds,
//   comment, extensions.
//
// Blocks follow each other without gaps but for that alignment; the text, the vertex data, the
// frames, the comment and each extension are padded to 4 bytes, as the reference compiler pads
// them. An empty block's offset is 0.

export const IQM_MAGIC = 'INTERQUAKEMODEL\0';
/** The version this project writes (the reader also reads 1). */
export const IQM_VERSION = 2;

/** The header's fields after the 16-byte magic, uint32 each, in file order. */
export const IQM_HEADER_FIELDS = [
  'version', 'filesize', 'flags', 'num_text', 'ofs_text', 'num_meshes', 'ofs_meshes',
  'num_vertexarrays', 'num_vertexes', 'ofs_vertexarrays', 'num_triangles', 'ofs_triangles', 'ofs_adjacency',
  'num_joints', 'ofs_joints', 'num_poses', 'ofs_poses', 'num_anims', 'ofs_anims',
  'num_frames', 'num_framechannels', 'ofs_frames', 'ofs_bounds', 'num_comment', 'ofs_comment',
  'num_extensions', 'ofs_extensions',
] as const;
export type IqmHeaderField = (typeof IQM_HEADER_FIELDS)[number];
export type IqmHeader = Record<IqmHeaderField, number>;

/** The byte offset of each header field. */
export const IQM_HEADER = Object.fromEntries(IQM_HEADER_FIELDS.map((name, i) => [name, 16 + 4 * i])) as Readonly<IqmHeader>;
export const IQM_HEADER_SIZE = 16 + 4 * IQM_HEADER_FIELDS.length;

/** Bytes of one record of each IQM v2 table. */
export const IQM_RECORD = { mesh: 24, vertexArray: 20, triangle: 12, joint: 48, pose: 88, anim: 20, bounds: 32 } as const;
/** Version 1's records where they differ: joints rotate x y z only (44 bytes), poses have 9 channels (80). */
export const IQM_RECORD_V1 = { joint: 44, pose: 80 } as const;
/** Bytes before an extension's data: name, num_data, ofs_data, ofs_extensions (the next one). */
export const IQM_EXTENSION_HEADER_SIZE = 16;
/** Records of FTE's extensions: FTE_MESH per mesh, FTE_EVENT per event, FTE_SKINS' frames and skins. */
export const FTE_RECORD = { mesh: 28, event: 16, skinFrame: 8, skin: 12 } as const;

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

/** Animation flag: the clip loops. */
export const IQM_LOOP = 1;

/** Vertex array format names and component sizes, indexed by format code. */
export const FORMAT_NAMES = ['byte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'half', 'float', 'double'] as const;
export const FORMAT_SIZES = [1, 1, 2, 2, 4, 4, 2, 4, 8] as const;
/** Standard vertex array type names, indexed by type (custom arrays: IQM_CUSTOM + a text offset). */
export const TYPE_NAMES = ['position', 'texcoord', 'normal', 'tangent', 'blendindexes', 'blendweights', 'color'] as const;

/** What planIqmLayout places: counts of records, and the byte sizes of the blocks of bytes. */
export interface IqmBlockSizes {
  /** 2 (default) or 1: joint and pose records differ. */
  version?: 1 | 2;
  /** Bytes of the text table (padded to 4 in the file). */
  textBytes: number;
  meshes: number;
  /** Each vertex array's format (its alignment) and byte length, in header order. */
  vertexArrays: readonly { format: number; bytes: number }[];
  triangles: number;
  /** Whether the adjacency table is written (one record per triangle). */
  adjacency: boolean;
  joints: number;
  poses: number;
  anims: number;
  /** num_frames × num_framechannels (the block is padded to 4). */
  frameValues: number;
  /** Frames with bounds (0: no bounds block). */
  bounds: number;
  /** Bytes of the comment with its NUL (padded to 4; 0: none). */
  commentBytes: number;
  /** Each extension's data bytes (after its 16-byte header; each padded to 4). */
  extensions?: readonly number[];
}

/** Where the blocks go: the header's offsets, each vertex array's and extension's, and the file size. */
export interface IqmLayout {
  size: number;
  ofs_text: number;
  ofs_meshes: number;
  ofs_vertexarrays: number;
  arrayOffsets: number[];
  ofs_triangles: number;
  ofs_adjacency: number;
  ofs_joints: number;
  ofs_poses: number;
  ofs_anims: number;
  ofs_frames: number;
  ofs_bounds: number;
  ofs_comment: number;
  /** The first extension's offset is the header's ofs_extensions. */
  extensionOffsets: number[];
}

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/** Places the blocks of an IQM file in the order and with the alignment of the format. */
export function planIqmLayout(blocks: IqmBlockSizes): IqmLayout {
  const v1 = blocks.version === 1;
  let at = IQM_HEADER_SIZE;
  // A block of `bytes` at the current end (offset 0 when empty), `pad` rounding its length up.
  const place = (bytes: number, pad = 1): number => {
    if (bytes <= 0) return 0;
    const start = at;
    at += align(bytes, pad);
    return start;
  };
  const ofs_text = place(blocks.textBytes, 4);
  const ofs_meshes = place(IQM_RECORD.mesh * blocks.meshes);
  const ofs_vertexarrays = place(IQM_RECORD.vertexArray * blocks.vertexArrays.length);
  at = align(at, 8);
  const arrayOffsets = blocks.vertexArrays.map((array) => {
    at = align(at, Math.max(FORMAT_SIZES[array.format], 4));
    const start = at;
    at += array.bytes;
    return start;
  });
  at = align(at, 4);
  const ofs_triangles = place(IQM_RECORD.triangle * blocks.triangles);
  const ofs_adjacency = blocks.adjacency ? place(IQM_RECORD.triangle * blocks.triangles) : 0;
  const ofs_joints = place((v1 ? IQM_RECORD_V1.joint : IQM_RECORD.joint) * blocks.joints);
  const ofs_poses = place((v1 ? IQM_RECORD_V1.pose : IQM_RECORD.pose) * blocks.poses);
  const ofs_anims = place(IQM_RECORD.anim * blocks.anims);
  const ofs_frames = place(2 * blocks.frameValues, 4);
  const ofs_bounds = place(IQM_RECORD.bounds * blocks.bounds);
  const ofs_comment = place(blocks.commentBytes, 4);
  const extensionOffsets = (blocks.extensions ?? []).map((bytes) => place(IQM_EXTENSION_HEADER_SIZE + bytes, 4));
  return { size: at, ofs_text, ofs_meshes, ofs_vertexarrays, arrayOffsets, ofs_triangles, ofs_adjacency, ofs_joints, ofs_poses, ofs_anims, ofs_frames, ofs_bounds, ofs_comment, extensionOffsets };
}

/** Writes the magic and the header's fields (little-endian) at the start of `view`. */
export function writeIqmHeader(view: DataView, header: IqmHeader): void {
  for (let i = 0; i < IQM_MAGIC.length; i++) view.setUint8(i, IQM_MAGIC.charCodeAt(i));
  for (const field of IQM_HEADER_FIELDS) view.setUint32(IQM_HEADER[field], header[field], true);
}

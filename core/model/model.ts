// The neutral model that every reader (IQM, MD3, DPM; IQE later) produces. Data only: typed
// arrays, no object per vertex, nothing format-specific outside the optional `iqm`/`dpm` fields.
//
// Conventions, recorded as data and never converted:
// - Coordinates are the file's own: Z up, X right, Y forward; IQM in metres, MD3/DPM in Quake units.
// - `winding` is the file's front-face order: 'cw' for IQM and MD3, 'ccw' for DPM (DarkPlaces
//   reverses DPM triangles because dpm uses counter-clockwise).
// - Texture coordinates have t = 0 at the top row of the image, in every format.
// - Matrices are 3x4 row-major, rows [r0 r1 r2 t], acting on column vectors.
// - Joint local transforms are 10 numbers [tx ty tz qx qy qz qw sx sy sz]; world = parent world · T·R·S.

/** The formats a Model comes from: a binary model's, or 'iqe' for the IQM compiled from IQE text. */
export type ModelFormat = 'iqm' | 'md3' | 'dpm' | 'iqe';

export type Winding = 'cw' | 'ccw';

/** A named extra per-vertex stream (IQM custom arrays), converted to float. */
export interface CustomStream {
  name: string;
  /** Components per vertex. */
  size: number;
  data: Float32Array;
}

/** Per-influence DPM data, compressed-row layout: influences of vertex v are [start[v], start[v+1]). */
export interface DpmInfluences {
  start: Uint32Array;
  /** 3 per influence: the vertex in the bone's space, already multiplied by `influence`. */
  origins: Float32Array;
  /** 3 per influence: the normal in the bone's space, already multiplied by `influence`. */
  normals: Float32Array;
  influence: Float32Array;
  bone: Uint32Array;
}

/** MD3 per-vertex animation: frame-major, `frameCount × vertexCount × 3` numbers each. */
export interface MorphFrames {
  frameCount: number;
  positions: Float32Array;
  normals: Float32Array;
}

export interface Mesh {
  name: string;
  /** IQM material; MD3 first shader name; DPM shader name. May be empty. */
  material: string;
  /** Index into Model.materials. */
  materialIndex: number;
  /** Every shader name of an MD3 surface; [material] for the other formats. */
  shaders: string[];
  vertexCount: number;
  triangleCount: number;
  /** 3 per triangle, local to this mesh (0 ≤ i < vertexCount), in the file's winding. */
  indices: Uint32Array;
  /** 3 per vertex: the bind pose (IQM), frame 0 (MD3), frame 0 skinned (DPM). */
  position: Float32Array;
  /** 3 per vertex, or null when the file has none. */
  normal: Float32Array | null;
  /** 2 per vertex (s, t), t = 0 at the top of the image. */
  texcoord: Float32Array | null;
  /** 4 per vertex (xyz, handedness w). */
  tangent: Float32Array | null;
  /** 4 per vertex, RGBA in 0..1. */
  color: Float32Array | null;
  /** Influences per vertex in blendIndices/blendWeights (0 when the mesh is not skinned). */
  influences: number;
  /** `influences` joint indices per vertex. */
  blendIndices: Uint8Array | Uint16Array | Uint32Array | null;
  /**
   * `influences` weights per vertex, renormalised to sum 1 over the usable influences; influences
   * whose joint index is out of range have weight 0. All zero = the vertex is not skinned: it keeps
   * its bind position (CLI.md) and is counted in Model.warnings.
   */
  blendWeights: Float32Array | null;
  /** DPM only: every influence with its bone-space origin and normal. */
  dpm: DpmInfluences | null;
  /** MD3 only: per-frame positions and normals. */
  morph: MorphFrames | null;
  /** DPM triangle group ids (one per triangle), else null. */
  groupIds: Uint32Array | null;
  custom: CustomStream[];
}

export interface Skeleton {
  names: string[];
  /** -1 for roots. Validated: every parent is a joint index and there is no cycle. */
  parents: Int32Array;
  /** DPM bone flags (1 = attachment); zeros elsewhere. */
  flags: Uint32Array;
  /** Evaluation order: every joint after its parent (the identity when parents precede children). */
  order: Int32Array;
  /** 10 per joint: bind-pose local [t q s] (DPM: derived from frame 0). */
  bindLocal: Float32Array;
  /** 12 per joint: bind-pose world matrices. */
  bindWorld: Float32Array;
  /** 12 per joint: inverse bind-pose world matrices (skinning matrix = world · inverseBind). */
  inverseBindWorld: Float32Array;
}

/**
 * Skeletal frames. IQM keeps its quantised channels (decoded per sample exactly as
 * iqm-animation-notes.txt says, so nothing is expanded up front); DPM keeps its matrices.
 */
export type SkeletalFrames =
  | {
      kind: 'channels';
      frameCount: number;
      poseCount: number;
      /** Pose parents (used when the file has no joints: animation-only IQM). */
      parents: Int32Array;
      /** Per pose: bit k set = channel k varies (10 channels: t 0-2, q 3-6, s 7-9). */
      mask: Uint32Array;
      offset: Float32Array;
      scale: Float32Array;
      /** IQM v1 has no w channel: w = -sqrt(max(0, 1 - x² - y² - z²)). */
      reconstructW: boolean;
      /** Per pose: index of its first sample within a frame's samples. */
      firstSample: Uint32Array;
      /** Samples per frame (the file's num_framechannels). */
      frameChannels: number;
      samples: Uint16Array;
    }
  | {
      kind: 'matrices';
      frameCount: number;
      poseCount: number;
      parents: Int32Array;
      /** 12 per pose per frame: local (parent-relative) 3x4 matrices as stored. */
      matrices: Float32Array;
      /** 10 per pose per frame: the same split into [t q s], for interpolation. */
      trs: Float32Array;
    };

export interface Clip {
  name: string;
  firstFrame: number;
  frameCount: number;
  /** Frames per second; 0 in the file means "unspecified" (samplers fall back to DEFAULT_FPS). */
  fps: number;
  loop: boolean;
  /** animation.cfg: frames at the end that loop (0 = play once). */
  loopFrames?: number;
  /** animation.cfg: a negative frame count plays backwards. */
  reverse?: boolean;
}

/** Frames per second used when a clip says 0. */
export const DEFAULT_FPS = 10;

export interface Tags {
  names: string[];
  /** 12 per tag per frame (frame-major): [axis columns | origin] as a 3x4 row-major matrix. */
  frames: Float32Array;
}

export interface IqmExtension {
  name: string;
  /** Bytes of data. */
  size: number;
  offset: number;
}

export interface FteMeshInfo {
  contents: number;
  surfaceFlags: number;
  surfaceId: number;
  geomset: number;
  geomid: number;
  minDist: number;
  maxDist: number;
}

export interface FteEvent {
  anim: number;
  timestamp: number;
  code: number;
  data: string;
}

export interface FteSkins {
  /** Per mesh: its skins, each a list of frames {texture, shader} with an interval in seconds. */
  meshes: { skins: { frames: { texture: string; shader: string }[]; interval: number }[] }[];
}

export interface VertexArrayInfo {
  type: number;
  /** 'position', 'normal', ... or the custom name. */
  name: string;
  format: string;
  size: number;
  offset: number;
}

export interface IqmExtras {
  comment: string;
  adjacency: Uint32Array | null;
  vertexArrays: VertexArrayInfo[];
  extensions: IqmExtension[];
  fteMesh: FteMeshInfo[] | null;
  fteEvents: FteEvent[] | null;
  fteSkins: FteSkins | null;
}

export interface Model {
  format: ModelFormat;
  /** IQM 1 or 2; MD3 15; DPM type 2; IQE 0. */
  version: number;
  winding: Winding;
  upAxis: 'z';
  meshes: Mesh[];
  /** Distinct material names in first-use order. */
  materials: string[];
  skeleton: Skeleton | null;
  animation: SkeletalFrames | null;
  /** IQM num_frames, MD3 NUM_FRAMES, DPM num_frames. */
  frameCount: number;
  /** MD3/DPM frame names (labels only). */
  frameNames: string[];
  clips: Clip[];
  tags: Tags | null;
  /** 8 per frame: mins xyz, maxs xyz, xy radius (NaN when the format has none), radius. */
  bounds: Float32Array | null;
  warnings: string[];
  iqm: IqmExtras | null;
}

/** Collects distinct material names and sets each mesh's materialIndex. */
export function indexMaterials(meshes: Mesh[]): string[] {
  const materials: string[] = [];
  const index = new Map<string, number>();
  for (const mesh of meshes) {
    let i = index.get(mesh.material);
    if (i === undefined) {
      i = materials.length;
      materials.push(mesh.material);
      index.set(mesh.material, i);
    }
    mesh.materialIndex = i;
  }
  return materials;
}

/** Evaluation order for a parent array (parents first); throws on a cycle via the callback. */
export function jointOrder(parents: Int32Array, onCycle: (joint: number) => never): Int32Array {
  const n = parents.length;
  const order = new Int32Array(n);
  let inOrder = true;
  for (let i = 0; i < n; i++) if (parents[i] >= i) inOrder = false;
  if (inOrder) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
  // 0 = unvisited, 1 = on the current chain, 2 = placed.
  const state = new Uint8Array(n);
  const chain: number[] = [];
  let k = 0;
  for (let i = 0; i < n; i++) {
    let j = i;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      chain.push(j);
      j = parents[j];
    }
    if (j >= 0 && state[j] === 1) onCycle(j);
    while (chain.length) {
      const c = chain.pop() as number;
      state[c] = 2;
      order[k++] = c;
    }
  }
  return order;
}

/**
 * What happens to a vertex that no joint moves (no usable blend weight), said the same way by the
 * editor's diagnostics, `info` and the preview (FORMAT-PITFALLS §4.2): GPU skinning sums zero
 * matrices, so DarkPlaces, Quake-family engines and raylib draw it at the origin; FTE binds it to
 * joint 0; the preview and `iqm-tools sample` keep it where the mesh has it (its bind position).
 */
export const UNWEIGHTED_EFFECT = "in engines' GPU skinning it collapses to the origin (FTE binds it to joint 0); the preview keeps it at its bind position";

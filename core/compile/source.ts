// The neutral source model of a compile: what each reader (core/compile/input.ts for IQE,
// core/md5, core/smd, core/obj) produces, and the stages of core/compile consume.
import { POSE_STRIDE } from '../math/pose';

export interface SmoothGroup {
  key: number;
  /** Smallest dot product of face normals that still welds (-1: no limit). */
  threshold: number;
  uv: boolean;
  used: boolean;
}

export interface SourceSection {
  mesh: string;
  material: string;
  /** Index of the section's first triangle; it runs to the next section's first triangle. */
  firstTriangle: number;
  /** Line of its `mesh` command (of its first face when there is none), for diagnostics. */
  line: number;
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
  /** Where the `animation` command is (line, and column of the word), for diagnostics. */
  line: number;
  column: number;
}

export interface InputJoint {
  name: string;
  parent: number;
  /** The line of its `joint` command, where the reader knows it (the preview's source map). */
  line?: number;
}

/**
 * The neutral source model: what every reader (IQE, MD5, SMD, OBJ) makes of a source file, and
 * what the compile stages read. Every vertex attribute of the file, one typed array per kind (null
 * when the file has none); triangles are corners of input vertices (an attribute per corner is a
 * vertex per corner), in sections of a mesh name and a material; joints with parent-relative base
 * poses; animations as runs of per-frame poses (one per joint, parent-relative). The lines kept
 * with vertices, sections and animations are where the compile's notes point (0-based lines of
 * the source's text).
 */
export interface SourceModel {
  vertexCount: number;
  /** The line of each vertex (IQE: its `vp`), for diagnostics. */
  vertexLines: Int32Array;
  /** x, y, z, w per vertex. */
  positions: Float64Array;
  /** u, v per vertex when no `vt` line has more values (texcoordWidth 2: the others are 0), else four. */
  texcoords: Float64Array | null;
  texcoordWidth: 2 | 4;
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
  /**
   * The line each triangle comes from (IQE: its `fa`/`fm`, OBJ: its `f`), for the preview's source
   * map; empty where the reader does not keep them (MD5, SMD).
   */
  triangleLines: Int32Array;
  /** Edge flags per triangle (§3.2), or null when the file has no `fs`. */
  edgeFlags: Uint8Array | null;
  groups: SmoothGroup[];
  sections: SourceSection[];
  joints: InputJoint[];
  /** Base poses (10 values each: translate, rotate, scale) and their count. */
  basePoses: Float64Array;
  basePoseCount: number;
  /**
   * Frame poses, frame after frame; each frame starts at pose framePoseStart[f]. framePoseStride
   * values per pose: all ten, or UNSCALED_STRIDE (translate, rotate) when every scale is exactly
   * 1 (most files: 30% less memory for what is often the largest array of the file).
   */
  framePoses: Float64Array;
  framePoseStride: number;
  frameCount: number;
  framePoseStart: Int32Array;
  animations: InputAnimation[];
  /** vertexarray declarations by IQM type (0..6) and custom0..9 (7..16). */
  declarations: (Declaration | null)[];
  /** Text after the first `comment` line, or null. */
  comment: string | null;
}


/** A model with no vertices, meshes, joints or animations: what readers fill in. */
export function emptySourceModel(): SourceModel {
  return {
    vertexCount: 0,
    vertexLines: new Int32Array(0),
    positions: new Float64Array(0),
    texcoords: null,
    texcoordWidth: 2,
    normals: null,
    tangents: null,
    bitangents: null,
    blendBones: null,
    blendWeights: null,
    colors: null,
    customs: [],
    smoothIds: null,
    triangles: new Int32Array(0),
    triangleGroup: new Int32Array(0),
    triangleLines: new Int32Array(0),
    edgeFlags: null,
    groups: [{ key: -1, threshold: -1, uv: false, used: false }],
    sections: [],
    joints: [],
    basePoses: new Float64Array(0),
    basePoseCount: 0,
    framePoses: new Float64Array(0),
    framePoseStride: POSE_STRIDE,
    frameCount: 0,
    framePoseStart: new Int32Array(1),
    animations: [],
    declarations: new Array<null>(17).fill(null),
    comment: null,
  };
}

// GPU buffer layout: turns a core Model into the typed arrays the renderer uploads once, and fixes
// how per-frame data (joint matrices, DPM influences) is packed into float textures. Pure (no DOM,
// no WebGL) so it is unit-tested in Node (test/unit/preview-layout.test.ts).
//
// Skinning kinds:
// - 'linear' (IQM, IQE): 4 influences per vertex, joints as uint16 (integer attribute), weights as
//   float. Vertices with more than 4 influences keep the 4 largest, renormalised. A vertex whose
//   weights are all zero keeps its bind position in the shader (and is highlighted).
// - 'dpm': every influence of every vertex in a float texture, 2 texels each:
//   (origin.xyz, influence) and (normal.xyz, bone). A vertex carries (first influence, count). The
//   shader sums R_b·origin + influence·t_b over world matrices exactly as DarkPlaces does: no bind
//   pose approximation.
// - 'morph' (MD3): every frame's positions and normals in one buffer each; the renderer points two
//   attribute pairs at frames a and b and blends in the shader.
// - 'static': no skinning data (positions as stored).
//
// Joint texture: RGBA32F, 3 texels per joint (the rows of its 3x4 matrix), JOINTS_PER_ROW joints per
// texture row, so any joint count works (no 256-uniform limit).

import type { Mesh, Model } from '../../core/model/model';

export type SkinKind = 'static' | 'linear' | 'dpm' | 'morph';

export const JOINTS_PER_ROW = 256;
/** DPM influences per texture row (2 texels each → 2048 texels wide, the WebGL2 minimum max size). */
export const INFLUENCES_PER_ROW = 1024;
/** The most influences one DPM vertex may use in the shader loop. */
export const MAX_DPM_INFLUENCES = 64;

export interface MeshLayout {
  kind: SkinKind;
  vertexCount: number;
  /** 3 per triangle, the file's winding. */
  indices: Uint32Array;
  /** 3 per vertex: bind pose (linear), frame 0 (morph: unused, see morph*), skinned frame 0 (dpm). */
  position: Float32Array;
  /** 3 per vertex, unit length; computed from the triangles when the file has none. */
  normal: Float32Array;
  /** 2 per vertex; zeros when the file has none. */
  texcoord: Float32Array;
  /** 4 per vertex (RGBA 0..1), or null when the file has no vertex colours. */
  color: Float32Array | null;
  /** linear: 4 joint indices per vertex. */
  joints: Uint16Array | null;
  /** linear: 4 weights per vertex, summing to 1 or all 0 (unweighted). */
  weights: Float32Array | null;
  /** dpm: 2 per vertex: index of the first influence in the model's influence texture, and count. */
  dpmRange: Uint32Array | null;
  /** morph: frames × vertexCount × 3. */
  morphPositions: Float32Array | null;
  morphNormals: Float32Array | null;
  morphFrames: number;
  /** Vertices that no influence moves (all weights 0 / no DPM influence). */
  unweighted: number;
  /** Influences dropped because a vertex had more than 4 (linear) or MAX_DPM_INFLUENCES (dpm). */
  droppedInfluences: number;
}

export interface TextureLayout {
  width: number;
  height: number;
  /** width × height × 4 floats. */
  data: Float32Array;
}

export interface ModelLayout {
  kind: SkinKind;
  meshes: MeshLayout[];
  /** Joints the joint texture holds (0 when the model is not skeletal). */
  jointCount: number;
  /** dpm: all influences of all meshes. */
  influences: TextureLayout | null;
  totalVertices: number;
  totalTriangles: number;
}

/** Which skinning a model uses (decided per model: the formats never mix). */
export function skinKind(model: Model): SkinKind {
  if (model.meshes.some((m) => m.dpm)) return 'dpm';
  if (model.meshes.some((m) => m.morph && m.morph.frameCount > 0)) return 'morph';
  if (model.meshes.some((m) => m.blendIndices && m.blendWeights && m.influences > 0)) return 'linear';
  return 'static';
}

/** Joints the renderer keeps matrices for: the skeleton, or the poses of an animation-only file. */
export function jointCountOf(model: Model): number {
  return model.skeleton ? model.skeleton.names.length : model.animation ? model.animation.poseCount : 0;
}

/** Size of the joint texture for `jointCount` joints (at least 1×1). */
export function jointTextureSize(jointCount: number): { width: number; height: number } {
  const n = Math.max(1, jointCount);
  return { width: 3 * Math.min(n, JOINTS_PER_ROW), height: Math.ceil(n / JOINTS_PER_ROW) };
}

/** The texel (x, y) of row `row` (0..2) of joint `joint`, as the shader computes it. */
export function jointTexel(joint: number, row: number): [number, number] {
  return [(joint % JOINTS_PER_ROW) * 3 + row, Math.floor(joint / JOINTS_PER_ROW)];
}

/** Allocates the joint texture's backing array once. */
export function createJointTexture(jointCount: number): TextureLayout {
  const { width, height } = jointTextureSize(jointCount);
  return { width, height, data: new Float32Array(width * height * 4) };
}

/**
 * Per frame: copies 3x4 row-major matrices (12 floats per joint, e.g. Pose.skin or Pose.world)
 * into the joint texture. The texel order equals the matrix order, so this is one copy; allocates
 * nothing.
 */
export function packJoints(matrices: Float32Array, jointCount: number, out: TextureLayout): void {
  const n = Math.min(jointCount * 12, matrices.length, out.data.length);
  out.data.set(n === matrices.length ? matrices : matrices.subarray(0, n), 0);
}

/** The texel (x, y) of part `part` (0: origin+influence, 1: normal+bone) of influence `index`. */
export function influenceTexel(index: number, part: number): [number, number] {
  return [(index % INFLUENCES_PER_ROW) * 2 + part, Math.floor(index / INFLUENCES_PER_ROW)];
}

/** Smooth vertex normals from the triangles (area-weighted), for meshes without normals. */
export function computeNormals(position: Float32Array, indices: Uint32Array, vertexCount: number): Float32Array {
  const n = new Float32Array(vertexCount * 3);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    if (a >= n.length || b >= n.length || c >= n.length) continue;
    const ux = position[b] - position[a], uy = position[b + 1] - position[a + 1], uz = position[b + 2] - position[a + 2];
    const vx = position[c] - position[a], vy = position[c + 1] - position[a + 1], vz = position[c + 2] - position[a + 2];
    const x = uy * vz - uz * vy, y = uz * vx - ux * vz, z = ux * vy - uy * vx;
    n[a] += x; n[a + 1] += y; n[a + 2] += z;
    n[b] += x; n[b + 1] += y; n[b + 2] += z;
    n[c] += x; n[c + 1] += y; n[c + 2] += z;
  }
  normalizeAll(n);
  return n;
}

function normalizeAll(n: Float32Array): void {
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i], n[i + 1], n[i + 2]);
    if (l > 0) {
      n[i] /= l;
      n[i + 1] /= l;
      n[i + 2] /= l;
    } else n[i + 2] = 1;
  }
}

/** Up to 4 influences per vertex as uint16 joints and float weights (largest first, renormalised). */
function packLinear(mesh: Mesh, jointCount: number): { joints: Uint16Array; weights: Float32Array; unweighted: number; dropped: number } {
  const n = mesh.vertexCount;
  const joints = new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  const k = mesh.influences;
  const bi = mesh.blendIndices;
  const bw = mesh.blendWeights;
  let unweighted = 0;
  let dropped = 0;
  const pickJ = [0, 0, 0, 0];
  const pickW = [0, 0, 0, 0];
  for (let v = 0; v < n; v++) {
    let used = 0;
    pickW.fill(0);
    pickJ.fill(0);
    if (bi && bw) {
      for (let c = 0; c < k; c++) {
        const w = bw[v * k + c];
        const j = bi[v * k + c];
        if (!(w > 0) || j >= jointCount || j > 0xffff) continue;
        // Keep the 4 largest, sorted descending; anything beyond 4 counts as dropped.
        let slot: number;
        if (used < 4) {
          slot = used;
          used++;
        } else {
          dropped++;
          if (w <= pickW[3]) continue;
          slot = 3;
        }
        while (slot > 0 && pickW[slot - 1] < w) {
          pickW[slot] = pickW[slot - 1];
          pickJ[slot] = pickJ[slot - 1];
          slot--;
        }
        pickW[slot] = w;
        pickJ[slot] = j;
      }
    }
    const sum = pickW[0] + pickW[1] + pickW[2] + pickW[3];
    if (sum > 0) {
      for (let s = 0; s < 4; s++) {
        joints[v * 4 + s] = pickJ[s];
        weights[v * 4 + s] = pickW[s] / sum;
      }
    } else unweighted++;
  }
  return { joints, weights, unweighted, dropped };
}

/** Builds every array the renderer uploads once for `model`. */
export function buildLayout(model: Model): ModelLayout {
  const kind = skinKind(model);
  const jointCount = jointCountOf(model);
  const meshes: MeshLayout[] = [];
  let totalInfluences = 0;
  if (kind === 'dpm') for (const m of model.meshes) if (m.dpm) totalInfluences += m.dpm.bone.length;
  let influences: TextureLayout | null = null;
  if (kind === 'dpm') {
    const rows = Math.max(1, Math.ceil(totalInfluences / INFLUENCES_PER_ROW));
    const width = INFLUENCES_PER_ROW * 2;
    influences = { width, height: rows, data: new Float32Array(width * rows * 4) };
  }
  let nextInfluence = 0;
  let totalVertices = 0;
  let totalTriangles = 0;
  for (const mesh of model.meshes) {
    const n = mesh.vertexCount;
    totalVertices += n;
    totalTriangles += mesh.triangleCount;
    const texcoord = mesh.texcoord ?? new Float32Array(n * 2);
    const layout: MeshLayout = {
      kind,
      vertexCount: n,
      indices: mesh.indices,
      position: mesh.position,
      normal: mesh.normal ?? computeNormals(mesh.position, mesh.indices, n),
      texcoord,
      color: mesh.color && mesh.color.length >= n * 4 ? mesh.color : null,
      joints: null,
      weights: null,
      dpmRange: null,
      morphPositions: null,
      morphNormals: null,
      morphFrames: 0,
      unweighted: 0,
      droppedInfluences: 0,
    };
    if (kind === 'linear') {
      const p = packLinear(mesh, jointCount);
      layout.joints = p.joints;
      layout.weights = p.weights;
      layout.unweighted = p.unweighted;
      layout.droppedInfluences = p.dropped;
    } else if (kind === 'dpm' && influences) {
      const range = new Uint32Array(n * 2);
      const d = mesh.dpm;
      const data = influences.data;
      for (let v = 0; v < n; v++) {
        const start = d ? d.start[v] : 0;
        const end = d ? d.start[v + 1] : 0;
        let count = end - start;
        if (count > MAX_DPM_INFLUENCES) {
          layout.droppedInfluences += count - MAX_DPM_INFLUENCES;
          count = MAX_DPM_INFLUENCES;
        }
        range[v * 2] = nextInfluence;
        range[v * 2 + 1] = count;
        if (count === 0) layout.unweighted++;
        for (let i = 0; i < count && d; i++) {
          const src = start + i;
          const dst = nextInfluence + i;
          // influenceTexel(dst, 0), inlined: this loop runs once per influence of the file.
          const t0 = (Math.floor(dst / INFLUENCES_PER_ROW) * influences.width + (dst % INFLUENCES_PER_ROW) * 2) * 4;
          data[t0] = d.origins[src * 3];
          data[t0 + 1] = d.origins[src * 3 + 1];
          data[t0 + 2] = d.origins[src * 3 + 2];
          data[t0 + 3] = d.influence[src];
          const t1 = t0 + 4;
          data[t1] = d.normals[src * 3];
          data[t1 + 1] = d.normals[src * 3 + 1];
          data[t1 + 2] = d.normals[src * 3 + 2];
          data[t1 + 3] = d.bone[src] < jointCount ? d.bone[src] : -1;
        }
        nextInfluence += count;
      }
      layout.dpmRange = range;
    } else if (kind === 'morph') {
      const m = mesh.morph;
      if (m && m.frameCount > 0) {
        layout.morphPositions = m.positions;
        layout.morphNormals = m.normals;
        layout.morphFrames = m.frameCount;
      } else {
        // A surface without frames (should not happen): one frame, the stored positions.
        layout.morphPositions = mesh.position;
        layout.morphNormals = layout.normal;
        layout.morphFrames = 1;
      }
    }
    meshes.push(layout);
  }
  return { kind, meshes, jointCount, influences, totalVertices, totalTriangles };
}

/** Unique edges of the triangles, 2 indices each (wireframe overlay; built on demand). */
export function wireframeIndices(indices: Uint32Array): Uint32Array {
  const seen = new Set<number>();
  const out: number[] = [];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e], b = indices[t + ((e + 1) % 3)];
      const lo = Math.min(a, b), hi = Math.max(a, b);
      const key = lo * 0x100000 + hi;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(lo, hi);
    }
  }
  return Uint32Array.from(out);
}

/** Frame pair for MD3 morphing: attribute byte offsets of frames a and b (clamped to the mesh's frames). */
export function morphOffsets(mesh: MeshLayout, a: number, b: number, out: Float64Array): void {
  const last = Math.max(0, mesh.morphFrames - 1);
  const fa = Math.min(Math.max(a, 0), last);
  const fb = Math.min(Math.max(b, 0), last);
  out[0] = fa * mesh.vertexCount * 12;
  out[1] = fb * mesh.vertexCount * 12;
}

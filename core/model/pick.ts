// Picking a triangle under the pointer (the preview's click-to-line link): a ray against the
// positions as drawn (skinned or morphed for the current frame, concatenated in mesh order as
// skinVertices writes them), Möller–Trumbore per triangle. On the CPU, so that what is picked is
// exactly what the clip shows, at any joint count.
import type { Model } from './model';

export interface Picked {
  mesh: number;
  /** Triangle index inside the mesh. */
  triangle: number;
  /** Triangle index over all meshes in order (a compiled IQM's triangle index: its meshes are contiguous). */
  modelTriangle: number;
  /** The triangle's corners, vertex indices over all meshes in order (as in `positions`). */
  vertices: [number, number, number];
  /** Distance along the ray (in units of its direction's length). */
  distance: number;
  /** Barycentric weights of corners 1 and 2 at the hit (corner 0 has 1 - u - v). */
  u: number;
  v: number;
}

export interface PickOptions {
  /**
   * Back faces are not hit where the renderer culls them: 1 keeps the triangles whose corners run
   * counter-clockwise seen from the ray's origin, -1 the clockwise ones, 0 both (culling off).
   */
  front?: 1 | -1 | 0;
  /** Meshes to skip (hidden, `nodraw`). */
  skip?: (mesh: number) => boolean;
}

const EPSILON = 1e-12;

/**
 * The nearest triangle the ray origin + t·direction (t > 0) hits, or null. `positions` holds 3
 * values per vertex of every mesh in order (model-space, as drawn).
 */
export function pickTriangle(model: Model, positions: ArrayLike<number>, origin: ArrayLike<number>, direction: ArrayLike<number>, options: PickOptions = {}): Picked | null {
  const front = options.front ?? 0;
  const ox = origin[0], oy = origin[1], oz = origin[2];
  const dx = direction[0], dy = direction[1], dz = direction[2];
  let best: Picked | null = null;
  let vertexBase = 0;
  let triangleBase = 0;
  model.meshes.forEach((mesh, m) => {
    const skip = options.skip?.(m) ?? false;
    const idx = mesh.indices;
    for (let t = 0; !skip && t < mesh.triangleCount; t++) {
      const a = vertexBase + idx[3 * t], b = vertexBase + idx[3 * t + 1], c = vertexBase + idx[3 * t + 2];
      const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
      const e1x = positions[3 * b] - ax, e1y = positions[3 * b + 1] - ay, e1z = positions[3 * b + 2] - az;
      const e2x = positions[3 * c] - ax, e2y = positions[3 * c + 1] - ay, e2z = positions[3 * c + 2] - az;
      // p = d × e2; det = e1 · p = -(e1 × e2) · d: positive when the corners run counter-clockwise seen from the origin.
      const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
      const det = e1x * px + e1y * py + e1z * pz;
      if (Math.abs(det) < EPSILON || (front !== 0 && Math.sign(det) !== front)) continue;
      const inv = 1 / det;
      const sx = ox - ax, sy = oy - ay, sz = oz - az;
      const u = (sx * px + sy * py + sz * pz) * inv;
      if (u < 0 || u > 1) continue;
      const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
      const v = (dx * qx + dy * qy + dz * qz) * inv;
      if (v < 0 || u + v > 1) continue;
      const distance = (e2x * qx + e2y * qy + e2z * qz) * inv;
      if (distance <= 0 || (best && distance >= best.distance)) continue;
      best = { mesh: m, triangle: t, modelTriangle: triangleBase + t, vertices: [a, b, c], distance, u, v };
    }
    vertexBase += mesh.vertexCount;
    triangleBase += mesh.triangleCount;
  });
  return best;
}

/**
 * The ray through a point of the view: `inverse` is the inverse of projection × view (4×4,
 * column-major, as WebGL takes it), x and y in normalised device coordinates (-1..1, y up). The
 * origin is on the near plane, the direction points into the scene (not normalised).
 */
export function rayThrough(inverse: ArrayLike<number>, x: number, y: number): { origin: [number, number, number]; direction: [number, number, number] } {
  const unproject = (z: number): [number, number, number] => {
    const w = inverse[3] * x + inverse[7] * y + inverse[11] * z + inverse[15];
    return [
      (inverse[0] * x + inverse[4] * y + inverse[8] * z + inverse[12]) / w,
      (inverse[1] * x + inverse[5] * y + inverse[9] * z + inverse[13]) / w,
      (inverse[2] * x + inverse[6] * y + inverse[10] * z + inverse[14]) / w,
    ];
  };
  const near = unproject(-1);
  const far = unproject(1);
  return { origin: near, direction: [far[0] - near[0], far[1] - near[1], far[2] - near[2]] };
}

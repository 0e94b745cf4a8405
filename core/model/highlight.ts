// What the preview outlines for the thing under the IQE cursor or the pointer's click: the edges
// of triangles, and a small cross at each vertex, as line segments over the positions as drawn
// (3 values per vertex, all meshes in order, as skinVertices writes them).
import type { Model } from './model';

/**
 * Part of the drawn model to highlight (the cursor in an IQE text). Indices are of the drawn model
 * (the compiled IQM): vertices and triangles across all meshes in file order, joints as listed.
 */
export type Highlight =
  | { kind: 'vertices'; indices: number[] }
  | { kind: 'triangles'; indices: number[] }
  | { kind: 'joint'; joint: number };

/**
 * Appends to `out` the segments (x0, y0, z0, x1, y1, z1 each) that outline `target`: a face's
 * triangles (triangle indices over all meshes in order), or vertices as crosses of half-size
 * `size` (model units). Joints are drawn by the skeleton overlay, not here. Indices out of range
 * are skipped (a map of an older compile).
 */
export function highlightSegments(model: Model, positions: ArrayLike<number>, target: Highlight, size: number, out: number[]): void {
  const vertexCount = positions.length / 3;
  const at = (v: number, k: number): number => positions[3 * v + k];
  if (target.kind === 'vertices') {
    for (const v of target.indices) {
      if (v >= vertexCount) continue;
      for (let axis = 0; axis < 3; axis++) {
        const a = [at(v, 0), at(v, 1), at(v, 2)];
        const b = [...a];
        a[axis] -= size;
        b[axis] += size;
        out.push(...a, ...b);
      }
    }
  } else if (target.kind === 'triangles') {
    for (const t of target.indices) {
      const corners = triangleCorners(model, t);
      if (!corners || corners.some((v) => v >= vertexCount)) continue;
      for (let k = 0; k < 3; k++) {
        const p = corners[k], q = corners[(k + 1) % 3];
        out.push(at(p, 0), at(p, 1), at(p, 2), at(q, 0), at(q, 1), at(q, 2));
      }
    }
  }
}

/** The corners of triangle t (over all meshes in order) as vertex indices over all meshes, or null. */
export function triangleCorners(model: Model, t: number): [number, number, number] | null {
  let vertexBase = 0;
  for (const mesh of model.meshes) {
    if (t < mesh.triangleCount) {
      const i = mesh.indices;
      return [vertexBase + i[3 * t], vertexBase + i[3 * t + 1], vertexBase + i[3 * t + 2]];
    }
    t -= mesh.triangleCount;
    vertexBase += mesh.vertexCount;
  }
  return null;
}

// Triangles of an OBJ face (a pure function of its corners and their positions). A convex face is
// fanned from its first corner, as the reference compiler fans every face; a concave one is
// ear-clipped in its plane. Ear clipping takes a face with holes as modellers write it (LightWave
// and others: the outline, a bridge edge to a hole, the hole backwards, back over the bridge), a
// polygon that touches itself where the bridge's ends are visited twice: a corner at the same
// position as a corner of the ear is not inside it (that copy's own angle is beside the ear's, not
// over it), and a corner where the outline only turns back on itself (a spike of no area, what a
// bridge becomes once both its sides are cut) is dropped without a triangle. A face whose outline
// crosses itself has no triangulation: its ears are kept and what is left (where no ear can be cut)
// is not written; the caller warns.

/** The most corners of a concave face that ear clipping splits (its time grows with their square or more). */
export const EAR_CLIPPING_CORNERS = 1024;

export interface FaceTriangles {
  /** Vertex triples, each written reversed (c, b, a) as the reference writes them. */
  triangles: [number, number, number][];
  /** `convex`: fanned; `clipped`: ear-clipped; `fanned`: concave but too large to clip, fanned; `failed`: see `crossing`, `leftOut`. */
  kind: 'convex' | 'clipped' | 'fanned' | 'failed';
  /** Two corners (0-based) whose edges to the next corner cross, when the outline crosses itself. */
  crossing?: [number, number];
  /** Corners left when no ear could be cut (their part of the face is not written). */
  leftOut?: number;
}

/**
 * Triangles of a face: `corners` are vertex indices in file order, `positions` x, y, z, w per vertex.
 */
export function triangulateFace(corners: readonly number[], positions: Float64Array): FaceTriangles {
  const n = corners.length;
  const fan = (): [number, number, number][] => {
    const out: [number, number, number][] = [];
    for (let k = 2; k < n; k++) out.push([corners[k], corners[k - 1], corners[0]]);
    return out;
  };
  if (n === 3) return { triangles: fan(), kind: 'convex' };
  // The face's plane (Newell's normal), and its corners in 2D on the axis plane it faces most.
  let nx = 0, ny = 0, nz = 0;
  for (let i = 0; i < n; i++) {
    const a = 4 * corners[i], b = 4 * corners[(i + 1) % n];
    nx += (positions[a + 1] - positions[b + 1]) * (positions[a + 2] + positions[b + 2]);
    ny += (positions[a + 2] - positions[b + 2]) * (positions[a] + positions[b]);
    nz += (positions[a] - positions[b]) * (positions[a + 1] + positions[b + 1]);
  }
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  const [u, v, sign] = az >= ax && az >= ay ? [0, 1, Math.sign(nz)] : ax >= ay ? [1, 2, Math.sign(nx)] : [2, 0, Math.sign(ny)];
  if (sign === 0) return { triangles: fan(), kind: 'convex' };
  const x = corners.map((c) => positions[4 * c + u]);
  const y = corners.map((c) => positions[4 * c + v]);
  const cross = (i: number, j: number, k: number): number => ((x[j] - x[i]) * (y[k] - y[i]) - (y[j] - y[i]) * (x[k] - x[i])) * sign;
  let convex = true;
  for (let i = 0; i < n && convex; i++) if (cross(i, (i + 1) % n, (i + 2) % n) < 0) convex = false;
  // A face turning one way all round is convex when it goes round once (a star goes round twice;
  // positions that overflow to NaN are fanned as before).
  if (convex && (n < 5 || !(turns(x, y) >= 3 * Math.PI))) return { triangles: fan(), kind: 'convex' };
  if (n > EAR_CLIPPING_CORNERS) return { triangles: fan(), kind: 'fanned' };
  return clipEars(corners, x, y, cross);
}

/** The angle the outline (x[i], y[i]) turns through in all (2π for a simple polygon), as a magnitude. */
function turns(x: number[], y: number[]): number {
  const n = x.length;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n, k = (i + 2) % n;
    const ex = x[j] - x[i], ey = y[j] - y[i], fx = x[k] - x[j], fy = y[k] - y[j];
    total += Math.atan2(ex * fy - ey * fx, ex * fx + ey * fy);
  }
  return Math.abs(total);
}

/** Ear clipping over a linked ring of the corners (see the file's comment). */
function clipEars(corners: readonly number[], x: number[], y: number[], cross: (i: number, j: number, k: number) => number): FaceTriangles {
  const n = corners.length;
  const prev = new Int32Array(n), next = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    prev[i] = (i + n - 1) % n;
    next[i] = (i + 1) % n;
  }
  const same = (i: number, j: number): boolean => x[i] === x[j] && y[i] === y[j];
  /** No corner left but a, b, c (or at their positions) is in the triangle (a, b, c), its edges included. */
  const isEar = (a: number, b: number, c: number): boolean => {
    const minX = Math.min(x[a], x[b], x[c]), maxX = Math.max(x[a], x[b], x[c]), minY = Math.min(y[a], y[b], y[c]), maxY = Math.max(y[a], y[b], y[c]);
    for (let p = next[c]; p !== a; p = next[p]) {
      const px = x[p], py = y[p];
      if (px < minX || px > maxX || py < minY || py > maxY) continue;
      if (same(p, a) || same(p, b) || same(p, c)) continue;
      if (cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0) return false;
    }
    return true;
  };
  const out: [number, number, number][] = [];
  let left = n;
  let b = 0;
  // Corners looked at since the last cut: a whole round of them without one means no ear is left.
  let since = 0;
  while (left > 3 && since < left) {
    const a = prev[b], c = next[b];
    const turn = cross(a, b, c);
    const spike = turn === 0 && (x[b] - x[a]) * (x[c] - x[b]) + (y[b] - y[a]) * (y[c] - y[b]) <= 0;
    if (spike || (turn > 0 && isEar(a, b, c))) {
      if (!spike) out.push([corners[c], corners[b], corners[a]]);
      next[a] = c;
      prev[c] = a;
      left--;
      since = 0;
      // A spike's removal may make `a` one; an ear's, `c` the next.
      b = spike ? a : c;
    } else {
      b = next[b];
      since++;
    }
  }
  if (left === 3) {
    const a = prev[b], c = next[b];
    const turn = cross(a, b, c);
    if (turn > 0) out.push([corners[c], corners[b], corners[a]]);
    if (turn >= 0) left = 0;
  } else if (left < 3) left = 0;
  const crossing = crossingOf(x, y);
  // What is left where no ear could be cut may have no area (slits between coincident corners).
  if (left > 0 && Math.abs(areaOf(b, next, x, y)) <= 1e-12 * Math.abs(areaOf(0, null, x, y))) left = 0;
  if (!crossing && left === 0) return { triangles: out, kind: 'clipped' };
  return { triangles: out, kind: 'failed', ...(crossing ? { crossing } : {}), leftOut: left };
}

/** Twice the signed area of the ring from `start` through `next` (or of all corners in order, when null). */
function areaOf(start: number, next: Int32Array | null, x: number[], y: number[]): number {
  let area = 0;
  let i = start;
  do {
    const j = next ? next[i] : (i + 1) % x.length;
    area += x[i] * y[j] - x[j] * y[i];
    i = j;
  } while (i !== start);
  return area;
}

/**
 * The first two edges (by their first corners) that cross each other in their interiors, or null.
 * Edges that only touch or overlap (a bridge's two sides, a hole touching the outline) do not.
 */
function crossingOf(x: number[], y: number[]): [number, number] | null {
  const n = x.length;
  const side = (i: number, j: number, k: number): number => Math.sign((x[j] - x[i]) * (y[k] - y[i]) - (y[j] - y[i]) * (x[k] - x[i]));
  for (let i = 0; i < n; i++) {
    const i1 = (i + 1) % n;
    const minX = Math.min(x[i], x[i1]), maxX = Math.max(x[i], x[i1]), minY = Math.min(y[i], y[i1]), maxY = Math.max(y[i], y[i1]);
    for (let j = i + 2; j < n; j++) {
      const j1 = (j + 1) % n;
      if (j1 === i) continue;
      if (Math.max(x[j], x[j1]) < minX || Math.min(x[j], x[j1]) > maxX || Math.max(y[j], y[j1]) < minY || Math.min(y[j], y[j1]) > maxY) continue;
      if (side(i, i1, j) * side(i, i1, j1) < 0 && side(j, j1, i) * side(j, j1, i1) < 0) return [i, j];
    }
  }
  return null;
}

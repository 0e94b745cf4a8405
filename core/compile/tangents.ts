// Stage: tangents (IQE-SEMANTICS.md §4.8.3). Generated tangents are accumulated per output
// triangle (area-weighted) and orthogonalised against the normal, with our B8 fallback where the
// reference writes NaN. Explicit `vx` tangents go to the output vertices of their own source
// vertex (B2), and the 6-value form's sign comes from that vertex's normal, tangent and bitangent.
import { fallbackTangent } from '../math/tangent';
import { newArray } from '../pages';

/** The output vertices' normals: output vertex i has data[3 rows[i] .. 3 rows[i] + 2] (its weld's normal). */
export interface RowNormals {
  data: Float64Array;
  rows: Int32Array;
}

export interface TangentResult {
  /** x, y, z, w per output vertex. */
  tangents: Float64Array;
  /** Output vertices that needed the B8 fallback, and the first of them (-1: none). */
  fallbacks: number;
  firstFallback: number;
}

export function generateTangents(
  triangles: Uint32Array | Int32Array,
  source: Int32Array,
  positions: Float64Array,
  texcoords: Float64Array,
  texcoordWidth: number,
  normals: RowNormals,
): TangentResult {
  const count = source.length;
  // The sums of tangents, four values per vertex: each vertex's result replaces its sum there.
  const tangents = newArray(Float64Array, 4 * count);
  const bit = newArray(Float64Array, 3 * count);
  accumulateTangents(triangles, source, positions, texcoords, texcoordWidth, tangents, bit);
  const { fallbacks, firstFallback } = orthogonalise(normals, tangents, bit, count);
  return { tangents, fallbacks, firstFallback };
}

// The two loops are separate functions so that each is optimised on its own (a loop optimised
// while the other has not run yet would be thrown away when it does).

/** Sums each triangle's area-weighted tangent (tan: 4 per vertex) and bitangent (bit: 3) into its corners. */
function accumulateTangents(triangles: Uint32Array | Int32Array, source: Int32Array, positions: Float64Array, texcoords: Float64Array, tw: number, tan: Float64Array, bit: Float64Array): void {
  for (let c = 0; c < triangles.length; c += 3) {
    const o0 = triangles[c], o1 = triangles[c + 1], o2 = triangles[c + 2];
    const s0 = source[o0], s1 = source[o1], s2 = source[o2];
    const p0 = 4 * s0, p1 = 4 * s1, p2 = 4 * s2;
    const t0 = tw * s0, t1 = tw * s1, t2 = tw * s2;
    const e1x = positions[p1] - positions[p0], e1y = positions[p1 + 1] - positions[p0 + 1], e1z = positions[p1 + 2] - positions[p0 + 2];
    const e2x = positions[p2] - positions[p0], e2y = positions[p2 + 1] - positions[p0 + 1], e2z = positions[p2 + 2] - positions[p0 + 2];
    const u1 = texcoords[t1] - texcoords[t0], v1 = texcoords[t1 + 1] - texcoords[t0 + 1];
    const u2 = texcoords[t2] - texcoords[t0], v2 = texcoords[t2 + 1] - texcoords[t0 + 1];
    let ux = e2x * v1 - e1x * v2, uy = e2y * v1 - e1y * v2, uz = e2z * v1 - e1z * v2;
    let vx = e2x * u1 - e1x * u2, vy = e2y * u1 - e1y * u2, vz = e2z * u1 - e1z * u2;
    // (e2 x e1) . (v x u)
    const ax = e2y * e1z - e2z * e1y, ay = e2z * e1x - e2x * e1z, az = e2x * e1y - e2y * e1x;
    const bx = vy * uz - vz * uy, by = vz * ux - vx * uz, bz = vx * uy - vy * ux;
    if (ax * bx + ay * by + az * bz < 0) {
      ux = -ux; uy = -uy; uz = -uz;
      vx = -vx; vy = -vy; vz = -vz;
    }
    for (let k = 0; k < 3; k++) {
      const t = 4 * triangles[c + k], o = 3 * triangles[c + k];
      tan[t] += ux; tan[t + 1] += uy; tan[t + 2] += uz;
      bit[o] += vx; bit[o + 1] += vy; bit[o + 2] += vz;
    }
  }
}

/**
 * The output tangents (x, y, z, w per vertex), in place of their sums in `tangents`; how many
 * needed the B8 fallback, and the first of them.
 */
function orthogonalise(normals: RowNormals, tangents: Float64Array, bit: Float64Array, count: number): { fallbacks: number; firstFallback: number } {
  const { data, rows } = normals;
  let fallbacks = 0;
  let first = -1;
  for (let i = 0; i < count; i++) {
    const n = 3 * rows[i];
    const nx = data[n], ny = data[n + 1], nz = data[n + 2];
    const tx = tangents[4 * i], ty = tangents[4 * i + 1], tz = tangents[4 * i + 2];
    const d = nx * tx + ny * ty + nz * tz;
    const x = tx - nx * d, y = ty - ny * d, z = tz - nz * d;
    const length = Math.sqrt(x * x + y * y + z * z);
    if (!(length > 0) || !Number.isFinite(length)) {
      fallbackTangent(tangents, 4 * i, nx, ny, nz);
      if (fallbacks++ === 0) first = i;
      continue;
    }
    const inv = 1 / length;
    tangents[4 * i] = x * inv;
    tangents[4 * i + 1] = y * inv;
    tangents[4 * i + 2] = z * inv;
    // (n x t) . b
    const cx = ny * tz - nz * ty, cy = nz * tx - nx * tz, cz = nx * ty - ny * tx;
    tangents[4 * i + 3] = cx * bit[3 * i] + cy * bit[3 * i + 1] + cz * bit[3 * i + 2] < 0 ? -1 : 1;
  }
  return { fallbacks, firstFallback: first };
}

/** Explicit tangents: each output vertex takes its source vertex's `vx` (B2); without normals, the 6-value form's sign is +1. */
export function explicitTangents(source: Int32Array, vx: Float64Array, bitangents: Float64Array | null, normals: RowNormals | null): Float64Array {
  const count = source.length;
  const out = newArray(Float64Array, 4 * count);
  for (let i = 0; i < count; i++) {
    const s = source[i];
    const tx = vx[4 * s], ty = vx[4 * s + 1], tz = vx[4 * s + 2];
    out[4 * i] = tx; out[4 * i + 1] = ty; out[4 * i + 2] = tz;
    if (bitangents) {
      let nx = 0, ny = 0, nz = 0;
      if (normals) {
        const n = 3 * normals.rows[i];
        nx = normals.data[n]; ny = normals.data[n + 1]; nz = normals.data[n + 2];
      }
      const cx = ny * tz - nz * ty, cy = nz * tx - nx * tz, cz = nx * ty - ny * tx;
      out[4 * i + 3] = cx * bitangents[3 * s] + cy * bitangents[3 * s + 1] + cz * bitangents[3 * s + 2] < 0 ? -1 : 1;
    } else {
      out[4 * i + 3] = vx[4 * s + 3];
    }
  }
  return out;
}

// Checks the three validators share: hierarchies, names, and stored bounds against vertices.

/** The first control byte (below 0x20, or DEL) in bytes[start, end), or -1. */
export function controlBytesIn(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (bytes[i] < 0x20 || bytes[i] === 0x7f) return i;
  return -1;
}

/** Calls `report(j, parent)` for every entry whose parent is not before it (a parent past the table included). */
export function parentChainChecks(parents: Int32Array, count: number, report: (j: number, parent: number) => void): void {
  for (let j = 0; j < count; j++) if (parents[j] >= j) report(j, parents[j]);
}

/** An entry on a parent cycle (parents past the table end a chain), or -1. */
export function hasCycle(parents: Int32Array): number {
  const n = parents.length;
  // 0 unvisited, 1 on the current chain, 2 known to reach a root.
  const state = new Uint8Array(n);
  for (let start = 0; start < n; start++) {
    let j = start;
    while (j >= 0 && j < n && state[j] === 0) {
      state[j] = 1;
      j = parents[j];
    }
    if (j >= 0 && j < n && state[j] === 1) return j;
    for (let k = start; k >= 0 && k < n && state[k] === 1; k = parents[k]) state[k] = 2;
  }
  return -1;
}

export interface BoundsCheck {
  /** IQM stores an xy radius (slot 6); MD3 and DPM do not use it. */
  xyRadius: boolean;
  /** The point the radius is measured from (MD3's local origin); the model's origin otherwise. */
  origin?: readonly number[];
  /** Whether slot 7 is a radius (DPM stores yawradius and allradius, IQM xyradius and radius, MD3 only radius). */
  radiusSlot?: number;
}

/**
 * Whether `positions` (3 per vertex) lie inside `stored` ([mins, maxs, xyradius, radius], or MD3's
 * order handed in the same way). Rounding allowance: 1/1000 of the box's size plus 1e-4.
 */
export function checkBoundsFrame(positions: Float32Array, stored: ArrayLike<number>, check: BoundsCheck, report: (what: 'box' | 'radius', detail: string) => void): void {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity, r2 = 0, xy2 = 0;
  const ox = check.origin?.[0] ?? 0, oy = check.origin?.[1] ?? 0, oz = check.origin?.[2] ?? 0;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i], y = positions[i + 1], z = positions[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
    const dx = x - ox, dy = y - oy, dz = z - oz;
    const xy = dx * dx + dy * dy;
    if (xy > xy2) xy2 = xy;
    if (xy + dz * dz > r2) r2 = xy + dz * dz;
  }
  if (positions.length === 0) return;
  const size = Math.max(x1 - x0, y1 - y0, z1 - z0, Math.abs(x0), Math.abs(x1), Math.abs(y0), Math.abs(y1), Math.abs(z0), Math.abs(z1));
  const tol = size * 1e-3 + 1e-4;
  const outside = x0 < stored[0] - tol || y0 < stored[1] - tol || z0 < stored[2] - tol || x1 > stored[3] + tol || y1 > stored[4] + tol || z1 > stored[5] + tol;
  const f = (n: number) => Number(n.toPrecision(6));
  if (outside) report('box', `the vertices reach ${f(x0)} ${f(y0)} ${f(z0)} .. ${f(x1)} ${f(y1)} ${f(z1)}, the stored box is ${f(stored[0])} ${f(stored[1])} ${f(stored[2])} .. ${f(stored[3])} ${f(stored[4])} ${f(stored[5])}`);
  const r = Math.sqrt(r2), xy = Math.sqrt(xy2);
  const radiusSlot = check.radiusSlot ?? 7;
  if (r > stored[radiusSlot] + tol) report('radius', `the vertices reach ${f(r)} from the origin, the stored radius is ${f(stored[radiusSlot])}`);
  else if (check.xyRadius && xy > stored[6] + tol) report('radius', `the vertices reach ${f(xy)} from the z axis, the stored xy radius is ${f(stored[6])}`);
}

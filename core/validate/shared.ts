// Checks the three validators share: hierarchies, names, and stored bounds against vertices.

import { decodeUtf8 } from '../binary';
import { IOQUAKE3 } from '../engines/ioquake3';
import { quotedName } from '../names';
import type { ValidationCode } from './codes';
import type { Reporter } from './report';

/** The first control byte (below 0x20, or DEL) in bytes[start, end), or -1. */
export function controlBytesIn(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (bytes[i] < 0x20 || bytes[i] === 0x7f) return i;
  return -1;
}

const Q3_MAX_VERTICES = IOQUAKE3.md3!.maxSurfaceVertices!.max;
const Q3_MAX_TRIANGLES = IOQUAKE3.md3!.maxSurfaceTriangles!.max;

/**
 * Which of ioquake3's per-surface renderer limits a surface (MD3) or mesh (IQM) is over, or null:
 * SHADER_MAX_VERTEXES (1000) vertices or more, or triangles × 3 reaching SHADER_MAX_INDEXES (6000).
 * R_LoadMD3 and R_LoadIQM refuse the whole model then (docs/VALIDATION.md cites the lines).
 */
export function rendererLimit(vertices: number, triangles: number): 'vertices' | 'triangles' | null {
  return vertices > Q3_MAX_VERTICES ? 'vertices' : triangles > Q3_MAX_TRIANGLES ? 'triangles' : null;
}

/**
 * The message of a renderer-limit issue, with the warning ioquake3 prints (`loader`: R_LoadMD3 or
 * R_LoadIQM); the name quoted and escaped (core/names.ts), as the file's bytes may hold anything.
 */
export function rendererLimitText(loader: string, name: string, vertices: number, triangles: number, over: 'vertices' | 'triangles'): string {
  const surface = name === '' ? 'a surface' : quotedName(name);
  const printed = over === 'vertices' ? `has more than ${Q3_MAX_VERTICES} verts on ${surface} (${vertices})` : `has more than ${Q3_MAX_TRIANGLES} triangles on ${surface} (${triangles})`;
  return `${over === 'vertices' ? `${vertices} vertices` : `${triangles} triangles`}: ioquake3 does not load the model ("${loader}: … ${printed}"); other engines differ (iqm-tools lint --engine NAME)`;
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

/**
 * Calls `report(t, first)` for each triangle with the vertices of an earlier one (in any order).
 * Triangles are bucketed by their smallest vertex (a counting sort: sequential, unlike a hash
 * table's random access, which was 10x slower on a million triangles); only a bucket's triangles
 * can be the same.
 */
export function eachDuplicateTriangle(tri: Uint32Array, candidate: Uint8Array, numVerts: number, report: (t: number, first: number) => void): void {
  const n = candidate.length;
  const start = new Uint32Array(numVerts + 1);
  for (let t = 0; t < n; t++) if (candidate[t]) start[Math.min(tri[t * 3], tri[t * 3 + 1], tri[t * 3 + 2]) + 1]++;
  for (let v = 0; v < numVerts; v++) start[v + 1] += start[v];
  const fill = start.slice(0, numVerts);
  const order = new Uint32Array(start[numVerts]);
  for (let t = 0; t < n; t++) if (candidate[t]) order[fill[Math.min(tri[t * 3], tri[t * 3 + 1], tri[t * 3 + 2])]++] = t;
  // The other two vertices of a triangle, smaller first.
  const mid = (t: number, lo: number) => {
    const a = tri[t * 3], b = tri[t * 3 + 1], c = tri[t * 3 + 2];
    return a === lo ? Math.min(b, c) : b === lo ? Math.min(a, c) : Math.min(a, b);
  };
  const top = (t: number) => Math.max(tri[t * 3], tri[t * 3 + 1], tri[t * 3 + 2]);
  for (let v = 0; v < numVerts; v++) {
    const from = start[v], to = start[v + 1];
    if (to - from < 2) continue;
    // A large fan is sorted by its other vertices (then equal ones are neighbours); a small one
    // compared pairwise where it lies (no array per vertex: a million of them cost a fifth of the check).
    if (to - from > 32) {
      const bucket = Array.from(order.subarray(from, to)).sort((x, y) => mid(x, v) - mid(y, v) || top(x) - top(y) || x - y);
      for (let i = 1; i < bucket.length; i++) {
        let j = i - 1;
        while (j >= 0 && mid(bucket[j], v) === mid(bucket[i], v) && top(bucket[j]) === top(bucket[i])) j--;
        if (j + 1 < i) report(bucket[i], bucket[j + 1]);
      }
      continue;
    }
    for (let i = from + 1; i < to; i++) {
      const t = order[i], m = mid(t, v), h = top(t);
      for (let j = from; j < i; j++) {
        if (mid(order[j], v) === m && top(order[j]) === h) {
          report(t, order[j]);
          break;
        }
      }
    }
  }
}

/** A fixed-size, NUL-padded name field (MD3, DPM): its text, the first control byte before its NUL (or -1), and whether it has a NUL. */
export function fixedName(bytes: Uint8Array, start: number, size: number): { text: string; control: number; terminated: boolean } {
  let end = start;
  while (end < start + size && bytes[end] !== 0) end++;
  return { text: decodeUtf8(bytes, start, end), control: controlBytesIn(bytes, start, end), terminated: end < start + size };
}

export interface TriangleListIssues {
  /** Corner `corner` of triangle `t` names `value`, not a vertex of the list. */
  index(t: number, corner: number, value: number): void;
  degenerate(t: number): void;
  duplicate(t: number, first: number): void;
  unused(v: number): void;
}

/**
 * One surface's triangles (3 indices each, into its own `numVerts` vertices): indices out of range,
 * degenerate and duplicate triangles, and (when every index is in range) vertices no triangle uses.
 */
export function checkTriangleList(tri: Int32Array | Uint32Array, numVerts: number, issues: TriangleListIssues): void {
  const n = Math.floor(tri.length / 3);
  const candidate = new Uint8Array(n);
  const used = new Uint8Array(numVerts);
  let allInRange = true;
  for (let t = 0; t < n; t++) {
    let ok = true;
    for (let c = 0; c < 3; c++) {
      const x = tri[t * 3 + c];
      if (!(x >= 0 && x < numVerts)) {
        issues.index(t, c, x);
        ok = false;
      } else used[x] = 1;
    }
    if (!ok) {
      allInRange = false;
      continue;
    }
    const a = tri[t * 3], b = tri[t * 3 + 1], c = tri[t * 3 + 2];
    if (a === b || b === c || a === c) issues.degenerate(t);
    else candidate[t] = 1;
  }
  const unsigned = tri instanceof Uint32Array ? tri : new Uint32Array(tri.buffer, tri.byteOffset, tri.length);
  eachDuplicateTriangle(unsigned, candidate, numVerts, issues.duplicate);
  if (allInRange) for (let v = 0; v < numVerts; v++) if (!used[v]) issues.unused(v);
}

/** Skinned or morphed vertex-frames a bounds check looks at (beyond it, evenly spaced frames; a note says so). */
export const BOUNDS_VERTEX_FRAME_BUDGET = 1_000_000;

/**
 * The frames a bounds check compares: all of them, or evenly spaced ones within the budget (with a
 * note), leaving out `skip` (frames whose bounds or poses are already reported as garbage).
 */
export function boundsFrames(numFrames: number, vertexCount: number, rep: Reporter, vertices: string, skip: ReadonlySet<number>): number[] {
  const frames = Math.min(numFrames, Math.max(1, Math.floor(BOUNDS_VERTEX_FRAME_BUDGET / vertexCount)));
  if (frames < numFrames) rep.note(`bounds compared with the ${vertices} in ${frames} of ${numFrames} frames (evenly spaced; the check's budget is ${BOUNDS_VERTEX_FRAME_BUDGET.toLocaleString('en-US')} vertex-frames)`);
  const out: number[] = [];
  for (let i = 0; i < frames; i++) {
    const f = frames === numFrames ? i : Math.floor((i * numFrames) / frames);
    if (!skip.has(f)) out.push(f);
  }
  return out;
}

/** The codes one format reports its blocks' and names' problems with. */
export interface LayoutCodes {
  inHeader: ValidationCode;
  outOfFile: ValidationCode;
  overlap: ValidationCode;
  nameControl: ValidationCode;
  nameUnterminated: ValidationCode;
}

interface Block {
  name: string;
  offset: number;
  bytes: number;
  /** Where the offset (or the record) is stored: what a report about the block points at. */
  field: number;
}

/**
 * The blocks of a file with fixed-size records (MD3, DPM): each placed inside the file after its
 * header (or reported), and at the end, the placed ones checked for shared bytes.
 */
export class BlockMap {
  private readonly blocks: Block[] = [];

  constructor(
    private readonly rep: Reporter,
    private readonly codes: LayoutCodes,
    private readonly headerSize: number,
    private readonly length: number,
  ) {}

  /** Whether `count` records of `size` bytes at `offset` lie inside the file after the header; reports where not. */
  place(name: string, offset: number, count: number, size: number, field: number): boolean {
    const total = count * size;
    if (total === 0) return true;
    if (offset < this.headerSize) {
      this.rep.add(offset < 0 ? this.codes.outOfFile : this.codes.inHeader, field, name, `${name}: offset ${offset} is ${offset < 0 ? 'before the start of the file' : `inside the ${this.headerSize}-byte header`}: engines read garbage as ${name}`);
      return false;
    }
    if (offset + total > this.length) {
      this.rep.add(this.codes.outOfFile, field, name, `${name}: ${count} × ${size} bytes at offset ${offset} run past the end of the file (${this.length} bytes): engines refuse the file or read past the buffer`);
      return false;
    }
    this.blocks.push({ name, offset, bytes: total, field });
    return true;
  }

  /** A block already known to lie inside the file (one walked record by record). */
  add(name: string, offset: number, bytes: number, field: number): void {
    this.blocks.push({ name, offset, bytes, field });
  }

  /** Reports each block that starts before the one before it (in file order) ends. */
  reportOverlaps(): void {
    const sorted = [...this.blocks].sort((a, b) => a.offset - b.offset);
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1], b = sorted[i];
      if (a.offset + a.bytes > b.offset) this.rep.add(this.codes.overlap, b.field, b.name, `${b.name} (at ${b.offset}) overlaps ${a.name} (${a.offset}..${a.offset + a.bytes - 1}): the same bytes are read as both; engines draw or animate garbage`);
    }
  }

  /** A fixed-size, NUL-padded name: control bytes and a missing NUL reported; its text. */
  name(bytes: Uint8Array, at: number, size: number, where: () => string): string {
    const n = fixedName(bytes, at, size);
    if (n.control >= 0) this.rep.add(this.codes.nameControl, at, where, () => `${where()}: the name ${quotedName(n.text)} has a control byte (0x${bytes[n.control].toString(16).padStart(2, '0')}): consoles, .skin files and lookups by name break on it`);
    if (!n.terminated) this.rep.add(this.codes.nameUnterminated, at, where, () => `${where()}: the name fills its ${size} bytes with no NUL: engines that copy it as a C string read on into the next field`);
    return n.text;
  }
}

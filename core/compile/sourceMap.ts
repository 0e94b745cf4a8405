// The compile's source map (the preview's click-to-line link): from each written vertex, triangle
// and joint back to the source line it comes from, and from a source line to what it became. Made
// by the compile itself (it knows how corners were welded, split into meshes and reordered for the
// vertex cache), so it stays exact where a re-parse would have to redo that work. Lines are
// 0-based lines of the source text; -1 where the reader keeps no line.
import type { MeshCandidates } from './meshes';
import type { SourceSection, SourceModel } from './source';

export interface CompileSourceMap {
  /** The line of each source vertex (IQE: the k-th `vp` is vertex k), ascending. */
  sourceVertexLines: Int32Array;
  /** Each written triangle's corners: written vertex indices (over all meshes, as the IQM has them). */
  triangles: Uint32Array;
  /**
   * The source vertex of each written corner: the index the face gives (identical source vertices
   * are written once, so a written vertex may have several).
   */
  cornerSources: Int32Array;
  /** The line of the face each written triangle comes from (IQE: its `fa`/`fm`). */
  triangleLines: Int32Array;
  /** The line of each written joint's `joint` command (joints keep their order). */
  jointLines: Int32Array;
}

/**
 * The map of one compile: `triangles` the written corners (written vertex indices),
 * `candidateTriangle[T]` written triangle T's index among its mesh's candidate triangles (whose
 * corners are the input triangle's, in order), meshes in written order.
 */
export function buildSourceMap(
  input: SourceModel,
  candidates: readonly MeshCandidates[],
  meshTriangles: readonly { firstTriangle: number; triangleCount: number }[],
  triangles: Uint32Array,
  candidateTriangle: Int32Array,
  jointCount: number,
): CompileSourceMap {
  const triangleCount = candidateTriangle.length;
  const triangleLines = new Int32Array(triangleCount).fill(-1);
  const cornerSources = new Int32Array(3 * triangleCount).fill(-1);
  const known = input.triangleLines;
  meshTriangles.forEach((mesh, m) => {
    const starts = sectionStarts(input.sections, candidates[m].sections, input.triangles.length / 3);
    for (let t = mesh.firstTriangle; t < mesh.firstTriangle + mesh.triangleCount; t++) {
      const triangle = inputTriangle(starts, candidateTriangle[t]);
      if (triangle < 0) continue;
      if (triangle < known.length) triangleLines[t] = known[triangle];
      for (let k = 0; k < 3; k++) cornerSources[3 * t + k] = input.triangles[3 * triangle + k];
    }
  });
  const jointLines = new Int32Array(jointCount);
  for (let j = 0; j < jointCount; j++) jointLines[j] = input.joints[j]?.line ?? -1;
  return { sourceVertexLines: Int32Array.from(input.vertexLines), triangles: Uint32Array.from(triangles), cornerSources, triangleLines, jointLines };
}

/** Per merged section: [first input triangle, count, candidate index of its first triangle]. */
function sectionStarts(sections: readonly SourceSection[], merged: readonly number[], triangleCount: number): number[][] {
  const out: number[][] = [];
  let candidate = 0;
  for (const i of merged) {
    const first = sections[i].firstTriangle;
    const end = i + 1 < sections.length ? sections[i + 1].firstTriangle : triangleCount;
    out.push([first, end - first, candidate]);
    candidate += end - first;
  }
  return out;
}

function inputTriangle(starts: readonly number[][], candidate: number): number {
  for (const [first, count, at] of starts) if (candidate >= at && candidate < at + count) return first + candidate - at;
  return -1;
}

/** What a source line became in the written model. */
export type LineTarget =
  | { kind: 'vertex'; vertices: number[]; line: number }
  | { kind: 'face'; triangles: number[]; line: number }
  | { kind: 'joint'; joint: number; line: number };

/** Line -> written vertices, triangles and joint, indexed once per map (sorted, then binary search). */
export class SourceLineIndex {
  /** Corner indices (3T + k) sorted by their source vertex. */
  private readonly corners: Int32Array;
  /** Triangle indices sorted by their line. */
  private readonly triangles: Int32Array;
  constructor(readonly map: CompileSourceMap) {
    this.corners = sortedBy(map.cornerSources);
    this.triangles = sortedBy(map.triangleLines);
  }

  /** The source vertex whose `vp` is on the line, or -1. */
  sourceVertexAt(line: number): number {
    const lines = this.map.sourceVertexLines;
    const i = lowerBound(lines.length, (k) => lines[k] < line);
    return i < lines.length && lines[i] === line ? i : -1;
  }

  /** The written vertices of source vertex k (several where normals or meshes split it), ascending. */
  verticesOf(k: number): number[] {
    const corners = equalRun(this.corners, this.map.cornerSources, k);
    return [...new Set(corners.map((c) => this.map.triangles[c]))].sort((a, b) => a - b);
  }

  /** The written triangles of the face on the line. */
  trianglesAt(line: number): number[] {
    return equalRun(this.triangles, this.map.triangleLines, line);
  }

  jointAt(line: number): number {
    return this.map.jointLines.indexOf(line);
  }

  /** The source lines of a written triangle: its face's, and the `vp` of each corner as the face names it. */
  linesOf(triangle: number): { face: number; vertices: [number, number, number] } {
    const vertex = (k: number): number => this.map.sourceVertexLines[this.map.cornerSources[3 * triangle + k]] ?? -1;
    return { face: this.map.triangleLines[triangle] ?? -1, vertices: [vertex(0), vertex(1), vertex(2)] };
  }

  /**
   * What the line (a `vp`, a face or a `joint` line) became; null when nothing was written from
   * it. `vertex`: the source vertex to use instead of a `vp` on the line (another attribute line).
   */
  targetAt(line: number, vertex = this.sourceVertexAt(line)): LineTarget | null {
    if (vertex >= 0) {
      const vertices = this.verticesOf(vertex);
      return vertices.length > 0 ? { kind: 'vertex', vertices, line } : null;
    }
    const triangles = this.trianglesAt(line);
    if (triangles.length > 0) return { kind: 'face', triangles, line };
    const joint = this.jointAt(line);
    return joint >= 0 ? { kind: 'joint', joint, line } : null;
  }
}

/** The first index in 0..n for which `before` is false (before is true, then false). */
function lowerBound(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Indices sorted by their key (stable: equal keys keep index order). */
function sortedBy(keys: Int32Array): Int32Array {
  const order = new Int32Array(keys.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => keys[a] - keys[b] || a - b);
}

/** The indices whose key is `key`, ascending. */
function equalRun(order: Int32Array, keys: Int32Array, key: number): number[] {
  const out: number[] = [];
  for (let i = lowerBound(order.length, (j) => keys[order[j]] < key); i < order.length && keys[order[i]] === key; i++) out.push(order[i]);
  return out;
}

/** IQE vertex attribute commands: the k-th line of each belongs to vertex k (IQE-SEMANTICS.md §3.1). */
const VERTEX_ATTRIBUTES = new Set(['vp', 'vt', 'vn', 'vx', 'vb', 'vc', 'vs', 'v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9']);

/** The first word of an IQE line (its command), or ''. */
export function commandOf(text: string): string {
  const match = /^\s*(\S+)/.exec(text);
  return match ? match[1] : '';
}

/**
 * The source vertex an IQE vertex attribute line describes: the line is the k-th of its command
 * (before the first `comment`), so it is vertex k. -1 when the line is no vertex attribute.
 * `lineText` reads the document's lines (it is called for lines 0..line).
 */
export function attributeVertex(lineText: (line: number) => string, line: number): number {
  const command = commandOf(lineText(line));
  if (!VERTEX_ATTRIBUTES.has(command)) return -1;
  let k = 0;
  for (let i = 0; i < line; i++) {
    const c = commandOf(lineText(i));
    if (c === 'comment') return -1;
    if (c === command) k++;
  }
  return k;
}

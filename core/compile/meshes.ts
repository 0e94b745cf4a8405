// Stage 3: mesh assembly and vertex deduplication (IQE-SEMANTICS.md §4.4), with our fixes B3
// (a repeated (mesh, material) section keeps its triangles) and B2 (the explicit tangent is part
// of the vertex key). Each triangle corner becomes a candidate vertex of its mesh, keyed by the
// values of its attributes and its normal.
import { newArray } from '../pages';
import { type Column, classifyRows, PairTable } from './classify';
import type { SourceModel } from './source';
import type { Welds } from './smooth';

export interface MeshCandidates {
  name: string;
  material: string;
  /** Source input vertex and weld of each candidate vertex, in first-appearance order. */
  source: Int32Array;
  weld: Int32Array;
  /** Three candidate ids per triangle (degenerate ones included; the vertex-cache stage skips them). */
  triangles: Int32Array;
  /** The input sections merged into it, in order: its triangles are theirs, one after another. */
  sections: readonly number[];
}

/** The columns that make up an input vertex's value, apart from its normal. */
export function vertexColumns(input: SourceModel): Column[] {
  const columns: Column[] = [{ data: input.positions, stride: 4 }];
  if (input.texcoords) columns.push({ data: input.texcoords, stride: input.texcoordWidth });
  if (input.blendWeights && input.blendBones) {
    columns.push({ data: input.blendWeights, stride: 4 }, { data: input.blendBones, stride: 4 });
  }
  if (input.colors) columns.push({ data: input.colors, stride: 4 });
  for (const custom of input.customs) if (custom) columns.push({ data: custom, stride: 4 });
  if (input.tangents) columns.push({ data: input.tangents, stride: 4 });
  if (input.bitangents) columns.push({ data: input.bitangents, stride: 3 });
  return columns;
}

export function assembleMeshes(input: SourceModel, welds: Welds): MeshCandidates[] {
  const { classOf: vertexClass } = classifyRows(vertexColumns(input), input.vertexCount);
  const { classOf: normalClass } = classifyRows([{ data: welds.normals, stride: 3 }], welds.weldCount);
  const tris = input.triangles;
  const triCount = tris.length / 3;
  const sections = input.sections;

  // Sections merge by (mesh, material), in order of first appearance (B3: all of them).
  const byPair = new Map<string, number[]>();
  const pairs: { mesh: string; material: string; sections: number[] }[] = [];
  sections.forEach((s, i) => {
    const key = `${s.mesh}\u0000${s.material}`;
    let list = byPair.get(key);
    if (!list) {
      list = [];
      byPair.set(key, list);
      pairs.push({ mesh: s.mesh, material: s.material, sections: list });
    }
    list.push(i);
  });

  const meshes: MeshCandidates[] = [];
  // One table for every mesh in turn, sized for the largest.
  const triangleCount = (pair: { sections: number[] }): number => pair.sections.reduce((n, i) => n + sectionEnd(i) - sections[i].firstTriangle, 0);
  const largest = pairs.reduce((n, pair) => Math.max(n, triangleCount(pair)), 0);
  const table = new PairTable(Math.min(3 * largest, input.vertexCount + 16), true);
  // Each mesh's vertices are gathered here, then copied out at their count: a mesh of one
  // triangle keeps 3 of each, not a growable array's first 1,024 (50,000 such meshes held 800 MB).
  const vertexRoom = 3 * largest;
  const sourceScratch = newArray(Int32Array, vertexRoom);
  const weldScratch = newArray(Int32Array, vertexRoom);
  for (const pair of pairs) {
    const count = triangleCount(pair);
    if (count === 0) continue;
    table.clear();
    let vertexCount = 0;
    const triangles = newArray(Int32Array, 3 * count);
    let o = 0;
    for (const i of pair.sections) {
      for (let t = sections[i].firstTriangle, end = sectionEnd(i); t < end; t++) {
        for (let k = 0; k < 3; k++) {
          const c = 3 * t + k;
          const vertex = tris[c];
          const w = welds.weld[c];
          const id = table.get(vertexClass[vertex], normalClass[w]);
          if (id === vertexCount) {
            sourceScratch[vertexCount] = vertex;
            weldScratch[vertexCount++] = w;
          }
          triangles[o++] = id;
        }
      }
    }
    meshes.push({ name: pair.mesh, material: pair.material, source: sourceScratch.slice(0, vertexCount), weld: weldScratch.slice(0, vertexCount), triangles, sections: pair.sections });
  }
  return meshes;

  function sectionEnd(i: number): number {
    return i + 1 < sections.length ? sections[i + 1].firstTriangle : triCount;
  }
}

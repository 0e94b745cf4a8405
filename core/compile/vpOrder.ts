// The vertices of an IQE in `vp` order, for `iqm-tools sample`: the reader's order, as sample
// gives it for every other format (the compiled model's vertices are welded, in vertex-cache order
// and without the vertices no face uses, so a user could not map them back to lines). Positions
// and blend data are encoded as the compiler writes them, so that each vertex reads back exactly
// as its compiled copies do; the skeleton and animation are the compiled model's.
import type { IqmDocument, IqmDocVertexArray } from '../iqm/document';
import { TYPE_NAMES } from '../iqm/layout';
import { BinaryReader } from '../binary';
import { readArray } from '../iqm/reader';
import type { SkinArrays } from './input';
import { emptySourceModel, type SourceModel } from './source';
import { ArrayType, encodeAttribute, encodeBlendIndexes, encodeBlendWeights, type VertexArray } from './vertexarrays';

/**
 * The vertices of an ingested IQE in `vp` order: positions, and blend indexes and weights when the
 * file has them, encoded as the compile writes them. `input` is consumed: what is left is what
 * the compile needs for the skeleton and animation alone (sample replaces the compiled vertices,
 * so welding, vertex-cache order, tangents and bounds would be work and memory thrown away), and
 * `forceJoints` says whether the full compile writes joints: when some mesh has a triangle
 * (assembleMeshes makes a mesh of every (mesh, material) with one; every triangle is in a
 * section). `triangleCount`: the file's triangles (IngestResult). `collect` (the CLI's gc) runs
 * after each source array is dropped, so that it is freed before the next encoded one is made.
 * `skin`: the ingest's skin-only positions and weights (IngestResult), taken in place of the
 * input's, and dropped likewise.
 */
export function takeVpOrder(input: SourceModel, triangleCount: number, collect: () => void = () => undefined, skin?: SkinArrays): { arrays: VertexArray[]; vertexCount: number; forceJoints: boolean } {
  const n = input.vertexCount;
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  const blends: VertexArray[] = [];
  const weights = skin ? skin.blendWeights : input.blendWeights;
  if (input.blendBones && weights) {
    blends.push(encodeBlendIndexes(input.blendBones, rows, input.declarations), encodeBlendWeights(weights, rows, input.declarations));
    input.blendBones = input.blendWeights = null;
    if (skin) skin.blendWeights = null;
    collect();
  }
  const position = encodeAttribute({ slot: ArrayType.Position, data: skin ? skin.positions : input.positions, width: 4, rows }, n, input.declarations);
  if (skin) skin.positions = new Float32Array(0);
  const { vertexCount, vertexLines, positions, texcoords, texcoordWidth, normals, tangents, bitangents, blendBones, blendWeights, colors, customs, smoothIds, triangles, triangleGroup, edgeFlags, groups } = emptySourceModel();
  Object.assign(input, { vertexCount, vertexLines, positions, texcoords, texcoordWidth, normals, tangents, bitangents, blendBones, blendWeights, colors, customs, smoothIds, triangles, triangleGroup, edgeFlags, groups, sections: [] });
  collect();
  return { arrays: [position, ...blends], vertexCount: n, forceJoints: triangleCount > 0 };
}

/** The compiled document with its vertices replaced by `arrays` (vpOrderArrays): one mesh named "vp" of every vertex, no triangles. */
export function withVpOrder(compiled: IqmDocument, arrays: readonly VertexArray[], vertexCount: number): IqmDocument {
  const vertexArrays: IqmDocVertexArray[] = arrays.map((a) => {
    // The encoders write little-endian components, as IQM stores them: read as the file would be
    // (a view of the encoded bytes where the host allows, not a copy).
    const data = readArray(new BinaryReader(a.bytes, true), 0, vertexCount * a.size, a.format);
    return { type: a.type, name: TYPE_NAMES[a.type] ?? 'custom', flags: 0, format: a.format, size: a.size, data, offset: 0 };
  });
  return {
    ...compiled,
    vertexCount,
    meshes: [{ name: 'vp', material: '', firstVertex: 0, vertexCount, firstTriangle: 0, triangleCount: 0 }],
    vertexArrays,
    triangles: new Uint32Array(0),
    adjacency: null,
  };
}

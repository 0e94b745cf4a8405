// The vertices of an IQE in `vp` order, for `iqm-tools sample`: the reader's order, as sample
// gives it for every other format (the compiled model's vertices are welded, in vertex-cache order
// and without the vertices no face uses, so a user could not map them back to lines). Positions
// and blend data are encoded as the compiler writes them, so that each vertex reads back exactly
// as its compiled copies do; the skeleton and animation are the compiled model's.
import { type IqmDocument, type IqmDocVertexArray, TYPE_NAMES } from '../iqm/document';
import { emptyArray } from '../iqm/reader';
import { emptySourceModel, type SourceModel } from './source';
import { ArrayType, encodeAttribute, encodeBlendIndexes, encodeBlendWeights, type VertexArray } from './vertexarrays';

/** Positions, and blend indexes and weights when the file has them, of every vertex in `vp` order (before the input is compiled: the compile consumes it). */
export function vpOrderArrays(input: SourceModel): VertexArray[] {
  const n = input.vertexCount;
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  const arrays = [encodeAttribute({ slot: ArrayType.Position, data: input.positions, width: 4, rows }, n, input.declarations)];
  if (input.blendBones && input.blendWeights) {
    arrays.push(encodeBlendIndexes(input.blendBones, rows, input.declarations), encodeBlendWeights(input.blendWeights, rows, input.declarations));
  }
  return arrays;
}

/**
 * What the compile needs of `input` for the skeleton and animation alone (sample in `vp` order
 * replaces the compiled vertices, so welding, vertex-cache order, tangents and bounds would be
 * work and memory thrown away): the input with its vertex and triangle data dropped, in place,
 * and `forceJoints` set where the full compile writes joints (when some mesh has a triangle).
 * Call after vpOrderArrays.
 */
export function skeletonOnly(input: SourceModel): { input: SourceModel; forceJoints: boolean } {
  const triangleCount = input.triangles.length / 3;
  const sections = input.sections;
  // assembleMeshes makes a mesh of every (mesh, material) with a triangle: the full compile has joints then.
  const forceJoints = sections.some((s, i) => (i + 1 < sections.length ? sections[i + 1].firstTriangle : triangleCount) > s.firstTriangle);
  const { vertexCount, vertexLines, positions, texcoords, texcoordWidth, normals, tangents, bitangents, blendBones, blendWeights, colors, customs, smoothIds, triangles, triangleGroup, edgeFlags, groups } = emptySourceModel();
  Object.assign(input, { vertexCount, vertexLines, positions, texcoords, texcoordWidth, normals, tangents, bitangents, blendBones, blendWeights, colors, customs, smoothIds, triangles, triangleGroup, edgeFlags, groups, sections: [] });
  return { input, forceJoints };
}

/** The compiled document with its vertices replaced by `arrays` (vpOrderArrays): one mesh named "vp" of every vertex, no triangles. */
export function withVpOrder(compiled: IqmDocument, arrays: readonly VertexArray[], vertexCount: number): IqmDocument {
  const vertexArrays: IqmDocVertexArray[] = arrays.map((a) => {
    const data = emptyArray(a.format, vertexCount * a.size);
    // The encoders write little-endian components, as IQM stores them.
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength).set(a.bytes.subarray(0, data.byteLength));
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

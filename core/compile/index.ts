// The compiler (IQE-SEMANTICS.md §4): sources (IQE, MD5, SMD, OBJ: sources.ts) -> IQM, the
// reference compiler's output byte for byte, with its bugs of §6 fixed. One module per stage;
// this file runs them in order, behind one entry: compile().
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { collectPages, newArray } from '../pages';
import { computeAdjacency } from './adjacency';
import { quantiseChannels } from './channels';
import { type Column, classifyRows } from './classify';
import { type InputPart, mergeInputs } from './merge';
import type { SourceSection, SourceModel } from './source';
import type { CompileResult, CompileSource, CompileStats, SourceDiagnostic } from './sources';
import { type IqmParts, type OutputAnim, type OutputJoint, type OutputMesh, writeIqm } from './layout';
import { assembleMeshes, type MeshCandidates } from './meshes';
import { POSE_STRIDE, quaternionFromAngles } from '../math/pose';
import { type BoundsInput, type BoundsPlan, computeBounds, planBounds } from './bounds';
import { boundsKernelAvailable } from './boundsBatch';
import { buildSkeleton, storedParent } from './skeleton';
import { weldCorners } from './smooth';
import { explicitTangents, generateTangents, type RowNormals } from './tangents';
import { TextTable } from './text';
import { buildSourceMap, type CompileSourceMap } from './sourceMap';
import { encodeUtf8 } from '../utf8';
import { type AnimationOptions, applyAnimationOptions, type CompileOptions, lineNote } from './options';
import { optimiseVertexCache, referenceDroppedTriangles, VertexCacheScratch } from './vcache';
import { ArrayType, encodeAttribute, encodeBlendIndexes, encodeBlendWeights, type VertexArray } from './vertexarrays';

export type { CompileResult, CompileSource, CompileStats, SourceDiagnostic, SourceRead, SiblingReader } from './sources';
export { documentSource, iqeStreamSource, textIqeSource } from './sources';
export type { AnimationOptions, CompileOptions, SourceOptions } from './options';
export type { CompileSourceMap } from './sourceMap';

function emptyStats(): CompileStats {
  return { meshes: 0, vertices: 0, triangles: 0, joints: 0, poses: 0, animations: 0, frames: 0, frameChannels: 0, tangentFallbacks: 0, bytes: 0 };
}


/**
 * Computes the per-frame bounds of a plan (see bounds.ts). The default runs them in the calling
 * thread; the CLI's spreads the frames over a worker thread and the calling one
 * (node/compileParallel.ts).
 */
export interface BoundsProvider {
  /** Whether to take this job (else it runs in the calling thread); its plan is then on SharedArrayBuffers. */
  takes(vertexCount: number, frameCount: number): boolean;
  /** The bounds, 8 values per output frame. */
  compute(plan: BoundsPlan): Float64Array;
}

/**
 * THE compile (the CLI, the editor's worker, the live preview and `info` all come here): sources
 * in order, each with its animation options, merged as the reference compiler merges its inputs
 * (merge.ts: the first with meshes gives the mesh and the skeleton, the others their animations),
 * `options` (-s -t -r -j) for all. Each source is read first; a source with errors stops the
 * compile (every source is still read, so that all their errors are reported), and nothing is
 * written. Every diagnostic and note comes with the index of its source.
 */
export function compile(sources: readonly CompileSource[], options: CompileOptions = {}, boundsProvider?: BoundsProvider): CompileResult {
  const diagnostics: SourceDiagnostic[] = [];
  const parts: InputPart[] = [];
  let failed = -1;
  for (let i = 0; i < sources.length; i++) {
    const read = sources[i].read();
    for (const diagnostic of read.diagnostics) diagnostics.push({ source: i, diagnostic });
    if (read.model) parts.push({ input: read.model, options: sources[i].options ?? {} });
    else if (failed < 0) failed = i;
  }
  if (failed >= 0 || parts.length === 0) return { diagnostics, notes: [], stats: emptyStats(), failed: Math.max(failed, 0) };
  let compiled: { bytes: Uint8Array; stats: CompileStats; notes: SourceDiagnostic[]; sourceMap?: CompileSourceMap };
  if (parts.length === 1) {
    // One source: nothing to merge; its animation options apply in compileModel, which consumes it.
    const { input, options: animation } = parts.pop()!;
    const one = compileModel(input, { ...options, ...animation }, boundsProvider);
    compiled = { ...one, notes: one.notes.map((diagnostic) => ({ source: 0, diagnostic })) };
  } else {
    const merged = mergeInputs(parts);
    // The compile's own notes are about the vertices and meshes: those of the mesh source.
    const meshPart = parts.reduce((last, p, i) => (p.input.sections.length > 0 ? i : last), 0);
    parts.length = 0;
    const many = compileModel(merged.input, options, boundsProvider);
    compiled = { ...many, notes: [...merged.notes.map((n) => ({ source: n.part, diagnostic: n.diagnostic })), ...many.notes.map((diagnostic) => ({ source: meshPart, diagnostic }))] };
  }
  return { bytes: compiled.bytes, diagnostics: [...diagnostics, ...compiled.notes], notes: compiled.notes, stats: compiled.stats, failed: -1, sourceMap: compiled.sourceMap };
}

/**
 * Rotation quaternion of the `-r` options (w <= 0), or null for none: each option's angles give
 * a quaternion (flipped to w <= 0), composed left to right as `rotate = rotate * q`.
 */
export function rotationOf(rotate: CompileOptions['rotate']): Float64Array | null {
  if (!rotate || rotate.length === 0) return null;
  let q = new Float64Array([0, 0, 0, 1]);
  const r = new Float64Array(4);
  const rad = Math.PI / 180;
  for (const [x, y, z] of rotate) {
    quaternionFromAngles(r, 0, x * rad, y * rad, z * rad);
    if (r[3] > 0) for (let k = 0; k < 4; k++) r[k] = -r[k];
    const ax = q[0], ay = q[1], az = q[2], aw = q[3];
    const bx = r[0], by = r[1], bz = r[2], bw = r[3];
    q = new Float64Array([
      aw * bx + ax * bw + ay * bz - az * by,
      aw * by - ax * bz + ay * bw + az * bx,
      aw * bz + ax * by - ay * bx + az * bw,
      aw * bw - ax * bx - ay * by - az * bz,
    ]);
  }
  if (q[3] > 0) for (let k = 0; k < 4; k++) q[k] = -q[k];
  if (q[0] === 0 && q[1] === 0 && q[2] === 0) return null;
  return q;
}

/** Rotates the vector at v[o..o+2] by the unit quaternion q. */
function rotateVector(q: Float64Array, v: Float64Array, o: number): void {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const x = v[o], y = v[o + 1], z = v[o + 2];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  v[o] = x + qw * tx + (qy * tz - qz * ty);
  v[o + 1] = y + qw * ty + (qz * tx - qx * tz);
  v[o + 2] = z + qw * tz + (qx * ty - qy * tx);
}

/** pose rotation = q * rotation, pose translation = q applied to translation. */
function rotatePose(q: Float64Array, poses: Float64Array, o: number): void {
  rotateVector(q, poses, o);
  const ax = q[0], ay = q[1], az = q[2], aw = q[3];
  const bx = poses[o + 3], by = poses[o + 4], bz = poses[o + 5], bw = poses[o + 6];
  poses[o + 3] = aw * bx + ax * bw + ay * bz - az * by;
  poses[o + 4] = aw * by - ax * bz + ay * bw + az * bx;
  poses[o + 5] = aw * bz + ax * by - ay * bx + az * bw;
  poses[o + 6] = aw * bw - ax * bx - ay * by - az * bz;
}

/** -s, -r and -t on the vertex data, in place: positions scaled, rotated, translated; normals and tangents rotated. */
function transformVertices(input: SourceModel, normals: Float64Array | null, scale: number, rotation: Float64Array | null, translate: readonly number[]): void {
  const { positions, tangents, bitangents } = input;
  for (let o = 0; o < positions.length; o += 4) {
    positions[o] *= scale; positions[o + 1] *= scale; positions[o + 2] *= scale;
    if (rotation) rotateVector(rotation, positions, o);
    positions[o] += translate[0]; positions[o + 1] += translate[1]; positions[o + 2] += translate[2];
  }
  if (!rotation) return;
  for (const [data, stride] of [[normals, 3], [tangents, 4], [bitangents, 3]] as const) {
    if (data) for (let o = 0; o < data.length; o += stride) rotateVector(rotation, data, o);
  }
}

/** The stages after the readers, on one model (compile() merges several first); the model is consumed: its frame poses and vertex arrays are dropped once used. */
export function compileModel(input: SourceModel, options: CompileOptions & AnimationOptions, boundsProvider?: BoundsProvider): { bytes: Uint8Array; stats: CompileStats; notes: IqeDiagnostic[]; sourceMap?: CompileSourceMap } {
  const notes: IqeDiagnostic[] = [];
  const stats = emptyStats();
  const scale = options.scale ?? 1;
  const translate = options.translate ?? [0, 0, 0];
  const rotation = rotationOf(options.rotate);
  const text = new TextTable();

  // What the load left (the parser's chunks, arrays it replaced) goes before the stages start.
  collectPages();

  // Per-input animation options (§1).
  const { selection, notes: optionNotes } = applyAnimationOptions(input, options);
  notes.push(...optionNotes);

  // Global transforms of poses: scale every translation, rotate root joints' poses.
  const jointCount = input.joints.length;
  if (scale !== 1) {
    for (const [poses, stride] of [[input.basePoses, POSE_STRIDE], [input.framePoses, input.framePoseStride]] as const) {
      for (let o = 0; o < poses.length; o += stride) for (let k = 0; k < 3; k++) poses[o + k] *= scale;
    }
  }
  if (rotation) {
    for (let j = 0; j < Math.min(jointCount, input.basePoseCount); j++) if (input.joints[j].parent < 0) rotatePose(rotation, input.basePoses, POSE_STRIDE * j);
    for (let f = 0; f < input.frameCount; f++) {
      const base = input.framePoseStart[f];
      const count = input.framePoseStart[f + 1] - base;
      for (let j = 0; j < Math.min(jointCount, count); j++) if (input.joints[j].parent < 0) rotatePose(rotation, input.framePoses, input.framePoseStride * (base + j));
    }
  }

  // Meshes (§4.3-4.4).
  let welds = null as ReturnType<typeof weldCorners> | null;
  const hasSections = input.sections.length > 0;
  let candidates: MeshCandidates[] = [];
  if (hasSections) {
    welds = weldCorners(input);
    candidates = assembleMeshes(input, welds);
    collectPages();
  }
  let normals = welds ? welds.normals : null;

  // Global transforms of the vertex data (§4.7), in place (the input is consumed; the welds are
  // already made from the positions as written).
  if (hasSections && (scale !== 1 || rotation || translate.some((t) => t !== 0))) transformVertices(input, normals, scale, rotation, translate);

  // Joints (§4.9, when a mesh exists), frames, bounds and channels (§4.10-4.11) first: then the
  // frame poses, a large part of an animated file, are dropped before the vertex stages.
  const skeleton = (candidates.length > 0 || options.forceJoints) && jointCount > 0 ? buildSkeleton(input) : null;
  const frameList: number[] = [];
  const animFrames = input.animations.map((_, i) => {
    const { first, last } = selection[i];
    const firstFrame = frameList.length;
    for (let f = first; f <= last; f++) frameList.push(f);
    return { firstFrame, frameCount: frameList.length - firstFrame };
  });
  const frames = Int32Array.from(frameList);
  const bounds = skeleton && input.blendBones && frames.length > 0 && !options.modelOnly
    ? frameBounds({
      vertices: writtenVertices(candidates, input.vertexCount),
      positions: input.positions,
      blendBones: input.blendBones,
      blendWeights: input.blendWeights!,
      skeleton,
      frames,
      framePoses: input.framePoses,
      framePoseStride: input.framePoseStride,
      framePoseStart: input.framePoseStart,
    }, boundsProvider)
    : null;
  const poseCount = input.animations.length > 0 ? jointCount : 0;
  const channels = quantiseChannels(input.framePoses, input.framePoseStride, input.framePoseStart, frames, poseCount);
  input.framePoses = EMPTY_FLOATS;
  collectPages();

  // The vertex-cache order of each mesh (§4.5).
  const { meshes, source, weld: outWeld, triangles, candidateTriangle } = hasSections ? orderMeshes(candidates, input.sections, text, notes, options.sourceMap) : NO_MESHES;
  const sourceMap = options.sourceMap
    ? buildSourceMap(input, candidates, meshes, triangles, candidateTriangle ?? new Int32Array(0), skeleton ? jointCount : 0)
    : undefined;
  collectPages();

  const vertexCount = source.length;

  // Vertex arrays (§4.2, §4.8).
  const arrays = hasSections ? writeVertexArrays(input, normals, { source, weld: outWeld, triangles }, text, stats, notes) : [];

  // The vertex data is written: drop it, so that what is still to come (adjacency, channels, the
  // file itself) is not held beside it.
  candidates = [];
  welds = normals = null;
  releaseVertexData(input);
  collectPages();

  // Adjacency (B1) over the written positions and blend data.
  let adjacency: Uint32Array | null = options.modelOnly ? null : new Uint32Array(0);
  if (adjacency && triangles.length > 0) {
    const columns: Column[] = [];
    for (const a of arrays) {
      if (a.slot === ArrayType.Position || a.slot === ArrayType.BlendIndexes || a.slot === ArrayType.BlendWeights) {
        columns.push({ data: a.bytes, stride: a.bytes.length / vertexCount });
      }
    }
    const { classOf } = classifyRows(columns, vertexCount);
    adjacency = computeAdjacency(triangles, classOf);
  }

  // Joints (§4.9): when a mesh exists.
  const joints: OutputJoint[] = [];
  if (skeleton) {
    skeleton.names.forEach((name, j) => {
      joints.push({ name: text.share(name), parent: skeleton.parents[j], pose: skeleton.poses.subarray(POSE_STRIDE * j, POSE_STRIDE * (j + 1)) });
    });
  }

  // Animations, frames, bounds, channels (§4.10-4.11).
  const anims: OutputAnim[] = [];
  input.animations.forEach((a, i) => {
    anims.push({ name: text.share(a.name), firstFrame: animFrames[i].firstFrame, frameCount: animFrames[i].frameCount, framerate: a.framerate, flags: a.flags });
  });
  const poses = [];
  for (let p = 0; p < poseCount; p++) {
    poses.push({
      parent: storedParent(input.joints[p].parent),
      mask: channels.mask[p],
      offset: channels.offset.subarray(10 * p, 10 * p + 10),
      scale: channels.scale.subarray(10 * p, 10 * p + 10),
    });
  }

  const parts: IqmParts = {
    text,
    meshes,
    vertexCount,
    arrays,
    triangles,
    adjacency,
    joints,
    poses,
    anims,
    frameCount: frames.length,
    frameChannels: channels.channelCount,
    frames: channels.data,
    bounds,
    comment: input.comment !== null ? encodeUtf8(input.comment) : null,
  };
  const bytes = writeIqm(parts);
  Object.assign(stats, {
    meshes: meshes.length,
    vertices: vertexCount,
    triangles: triangles.length / 3,
    joints: joints.length,
    poses: poses.length,
    animations: anims.length,
    frames: frames.length,
    frameChannels: channels.channelCount,
    bytes: bytes.length,
  });
  return { bytes, stats, notes, sourceMap };
}

/**
 * The vertex arrays (§4.2, §4.8): output vertex i is input vertex written.source[i] with the
 * normal of weld written.weld[i] (weldNormals, transformed). A function of its own, so that its
 * temporaries (the tangents per output vertex, in double) are gone when it returns.
 */
function writeVertexArrays(
  input: SourceModel,
  weldNormals: Float64Array | null,
  written: { source: Int32Array; weld: Int32Array; triangles: Uint32Array },
  text: TextTable,
  stats: CompileStats,
  notes: IqeDiagnostic[],
): VertexArray[] {
  const { source, weld, triangles } = written;
  const vertexCount = source.length;
  const declarations = input.declarations;
  const arrays: VertexArray[] = [];
  arrays.push(encodeAttribute({ slot: ArrayType.Position, data: input.positions, width: 4, rows: source }, vertexCount, declarations));
  if (input.texcoords) arrays.push(encodeAttribute({ slot: ArrayType.Texcoord, data: input.texcoords, width: input.texcoordWidth, rows: source }, vertexCount, declarations));
  // Each output vertex's normal is its weld's, read through the weld (not copied per vertex).
  const normals: RowNormals | null = weldNormals && (input.normals || input.triangles.length > 0) ? { data: weldNormals, rows: weld } : null;
  if (normals) arrays.push(encodeAttribute({ slot: ArrayType.Normal, data: normals.data, width: 3, rows: normals.rows }, vertexCount, declarations));
  let tangents: Float64Array | null = null;
  if (input.tangents) {
    tangents = explicitTangents(source, input.tangents, input.bitangents, normals);
  } else if (normals && input.texcoords) {
    const generated = generateTangents(triangles, source, input.positions, input.texcoords, input.texcoordWidth, normals);
    tangents = generated.tangents;
    stats.tangentFallbacks = generated.fallbacks;
    if (generated.fallbacks > 0) {
      // At the first such vertex's `vp` (line 0 where a source has no line for it: never NaN).
      const vertex = source[generated.firstFallback];
      const line = vertex >= 0 && vertex < input.vertexLines.length ? input.vertexLines[vertex] : 0;
      const message = `${generated.fallbacks} generated tangents needed the fallback for degenerate texture coordinates, the first for input vertex ${vertex} (the reference compiler writes NaN there)`;
      notes.push(lineNote('information', 'degenerate-uv', message, line));
    }
  }
  if (tangents) arrays.push(encodeAttribute({ slot: ArrayType.Tangent, data: tangents, width: 4, rows: null }, vertexCount, declarations));
  if (input.blendBones && input.blendWeights) {
    arrays.push(encodeBlendIndexes(input.blendBones, source, declarations));
    arrays.push(encodeBlendWeights(input.blendWeights, source, declarations));
  }
  if (input.colors) arrays.push(encodeAttribute({ slot: ArrayType.Color, data: input.colors, width: 4, rows: source }, vertexCount, declarations));
  input.customs.forEach((custom, k) => {
    if (!custom) return;
    const slot = 7 + k;
    const array = encodeAttribute({ slot, data: custom, width: 4, rows: source }, vertexCount, declarations);
    const declared = declarations[slot];
    array.type = ArrayType.Custom + text.share(declared && declared.name !== '' ? declared.name : `custom${k}`);
    arrays.push(array);
  });
  return arrays;
}

/** `reference-drops-triangles` (B7) for a mesh, at the `mesh` line of its first section. */
function referenceDropNote(sections: readonly SourceSection[], mesh: MeshCandidates, dropped: number, triangles: number): IqeDiagnostic {
  const section = sections.find((s) => s.mesh === mesh.name && s.material === mesh.material);
  const message = `The reference compiler would silently drop ${dropped} of the ${triangles} triangles of mesh '${mesh.name}' (material '${mesh.material}'): its vertex cache gives them NaN scores (IQE-SEMANTICS.md B7; counted as its build without the strict-aliasing miscompile does it). All of them are written here.`;
  return lineNote('information', 'reference-drops-triangles', message, section ? section.line : 0);
}

/** The per-frame bounds, on the provider's threads when it takes them. */
function frameBounds(boundsInput: BoundsInput, boundsProvider: BoundsProvider | undefined): Float64Array {
  const provider = boundsProvider?.takes(boundsInput.vertices.length, boundsInput.frames.length) ? boundsProvider : null;
  // With the bounds kernel the runners evaluate whole frames: no groups to plan (bounds.ts).
  const plan = provider && boundsInput.vertices.length > 0 && boundsInput.frames.length >= 2 ? planBounds(boundsInput, true, !boundsKernelAvailable()) : null;
  if (!provider || !plan) return computeBounds(boundsInput);
  // The plan's own temporaries go before the worker's memory comes.
  collectPages();
  return provider.compute(plan);
}

/** The meshes in vertex-cache order (§4.5): output vertex i is input vertex source[i] with weld weld[i]. */
interface OrderedMeshes {
  meshes: OutputMesh[];
  source: Int32Array;
  weld: Int32Array;
  triangles: Uint32Array;
  /** Each written triangle's index among its mesh's candidate triangles (only for a source map). */
  candidateTriangle: Int32Array | null;
}

const NO_MESHES: OrderedMeshes = { meshes: [], source: new Int32Array(0), weld: new Int32Array(0), triangles: new Uint32Array(0), candidateTriangle: null };

/** Orders each mesh's vertices and triangles for the vertex cache, all meshes in one set of arrays. */
function orderMeshes(candidates: readonly MeshCandidates[], sections: readonly SourceSection[], text: TextTable, notes: IqeDiagnostic[], keepOrder = false): OrderedMeshes {
  const meshes: OutputMesh[] = [];
  // Written straight into arrays sized for every candidate (an upper bound), used as views.
  let candidateVertices = 0, candidateTriangles = 0;
  for (const mesh of candidates) {
    candidateVertices += mesh.source.length;
    candidateTriangles += mesh.triangles.length / 3;
  }
  const allSources = newArray(Int32Array, candidateVertices);
  const allWelds = newArray(Int32Array, candidateVertices);
  const allTriangles = newArray(Uint32Array, 3 * candidateTriangles);
  const candidateTriangle = keepOrder ? new Int32Array(candidateTriangles) : null;
  let firstVertex = 0;
  let firstTriangle = 0;
  const scratch = new VertexCacheScratch();
  for (const mesh of candidates) {
    // The order is read before the next mesh's (referenceDroppedTriangles makes its own arrays).
    const order = optimiseVertexCache(mesh.source.length, mesh.triangles, false, scratch);
    const dropped = referenceDroppedTriangles(mesh.source.length, mesh.triangles, order);
    if (dropped > 0) notes.push(referenceDropNote(sections, mesh, dropped, order.triangleOrder.length));
    const outIndex = newArray(Int32Array, mesh.source.length);
    const nv = order.vertexOrder.length;
    for (let i = 0; i < nv; i++) {
      const c = order.vertexOrder[i];
      outIndex[c] = firstVertex + i;
      allSources[firstVertex + i] = mesh.source[c];
      allWelds[firstVertex + i] = mesh.weld[c];
    }
    const nt = order.triangleOrder.length;
    for (let t = 0; t < nt; t++) {
      const from = 3 * order.triangleOrder[t];
      const to = 3 * (firstTriangle + t);
      for (let k = 0; k < 3; k++) allTriangles[to + k] = outIndex[mesh.triangles[from + k]];
      if (candidateTriangle) candidateTriangle[firstTriangle + t] = order.triangleOrder[t];
    }
    meshes.push({ name: text.share(mesh.name), material: text.share(mesh.material), firstVertex, vertexCount: nv, firstTriangle, triangleCount: nt });
    firstVertex += nv;
    firstTriangle += nt;
  }
  return {
    meshes,
    source: allSources.subarray(0, firstVertex),
    weld: allWelds.subarray(0, firstVertex),
    triangles: allTriangles.subarray(0, 3 * firstTriangle),
    candidateTriangle: candidateTriangle ? candidateTriangle.subarray(0, firstTriangle) : null,
  };
}

const EMPTY_FLOATS = new Float64Array(0);

/** Drops the input's per-vertex and per-triangle arrays (compileInput consumes its input). */
function releaseVertexData(input: SourceModel): void {
  input.positions = EMPTY_FLOATS;
  input.vertexLines = new Int32Array(0);
  input.texcoords = input.normals = input.tangents = input.bitangents = input.blendWeights = input.colors = input.smoothIds = null;
  input.blendBones = null;
  input.customs = [];
  input.triangles = new Int32Array(0);
  input.triangleGroup = new Int32Array(0);
  input.triangleLines = new Int32Array(0);
  input.edgeFlags = null;
}

/**
 * Input vertices that some written vertex comes from, ascending (B15): the sources of the
 * corners of every triangle that is not degenerate (the vertex-cache stage writes exactly the
 * vertices of those).
 */
function writtenVertices(candidates: readonly MeshCandidates[], inputCount: number): Int32Array {
  const mark = newArray(Uint8Array, inputCount);
  let count = 0;
  for (const { source, triangles: tris } of candidates) {
    for (let t = 0; t < tris.length; t += 3) {
      const a = tris[t], b = tris[t + 1], c = tris[t + 2];
      if (a === b || b === c || a === c) continue;
      for (let k = 0; k < 3; k++) {
        const v = source[tris[t + k]];
        if (!mark[v]) {
          mark[v] = 1;
          count++;
        }
      }
    }
  }
  // Shared: the bounds plan hands it to a worker thread as it is.
  const out = newArray(Int32Array, count, true);
  for (let v = 0, o = 0; v < inputCount; v++) if (mark[v]) out[o++] = v;
  return out;
}

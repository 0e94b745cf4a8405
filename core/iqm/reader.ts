// IQM reader, versions 1 and 2 (iqm.txt; differences in FORMAT-PITFALLS §5). Every count and offset
// is checked against the file before it is used or allocated from; violations are FormatErrors
// with the byte offset, oddities that engines tolerate (unaligned tables, non-standard vertex
// formats, parents after children, filesize mismatch) are warnings.

import { BinaryReader, FormatError, HOST_LITTLE_ENDIAN, decodeUtf8, halfToFloat } from '../binary';
import { fromTRS, invert3x4, mul3x4 } from '../math/mat3x4';
import { normalizeQuat } from '../math/quat';
import {
  type Clip,
  type FteEvent,
  type FteMeshInfo,
  type FteSkins,
  type Mesh,
  type Model,
  type SkeletalFrames,
  type Skeleton,
  type CustomStream,
  indexMaterials,
  jointOrder,
  UNWEIGHTED_EFFECT,
} from '../model/model';
import type { IqmArrayData, IqmDocExtension, IqmDocument, IqmDocVertexArray } from './document';
import {
  FORMAT_NAMES,
  FORMAT_SIZES,
  FTE_RECORD,
  IQM_BLENDINDEXES,
  IQM_BLENDWEIGHTS,
  IQM_BYTE,
  IQM_COLOR,
  IQM_CUSTOM,
  IQM_DOUBLE,
  IQM_EXTENSION_HEADER_SIZE,
  IQM_FLOAT,
  IQM_HALF,
  IQM_HEADER as H,
  IQM_HEADER_SIZE,
  IQM_RECORD,
  IQM_RECORD_V1,
  IQM_INT,
  IQM_LOOP,
  IQM_MAGIC,
  IQM_NORMAL,
  IQM_POSITION,
  IQM_SHORT,
  IQM_TANGENT,
  IQM_TEXCOORD,
  IQM_UBYTE,
  IQM_UINT,
  IQM_USHORT,
  TYPE_NAMES,
} from './layout';
import { quotedName } from '../names';

export interface IqmReadResult {
  document: IqmDocument;
  warnings: string[];
}

/** Reads the bytes of an IQM file into an IqmDocument, or throws FormatError. */
export function readIqmDocument(bytes: Uint8Array): IqmReadResult {
  const warnings: string[] = [];
  if (bytes.byteLength < IQM_HEADER_SIZE) {
    throw new FormatError(`truncated IQM header: ${bytes.byteLength} bytes, the header needs ${IQM_HEADER_SIZE}`, bytes.byteLength);
  }
  let r = new BinaryReader(bytes, true);
  if (!r.matches(0, IQM_MAGIC)) throw new FormatError('not an IQM file (magic is not INTERQUAKEMODEL)', 0);
  const version = r.u32(H.version);
  if (version !== 1 && version !== 2) throw new FormatError(`unsupported IQM version ${version} (1 and 2 are known)`, H.version);
  const fileSize = r.u32(H.filesize);
  if (fileSize !== bytes.byteLength) {
    warnings.push(`header filesize is ${fileSize} but the file has ${bytes.byteLength} bytes`);
    // Read within the smaller of the two (a plausible header size only).
    if (fileSize >= IQM_HEADER_SIZE && fileSize < bytes.byteLength) r = new BinaryReader(bytes.subarray(0, fileSize), true);
  }
  const u = (field: number) => r.u32(field);

  // Text table; names are offsets into it.
  const numText = u(H.num_text);
  const ofsText = u(H.ofs_text);
  if (numText > 0) r.need(ofsText, numText, 1, 'text table');
  const textCache = new Map<number, string>();
  let textBudget = 8 * numText + 4096;
  const text = (offset: number, at: number, what: string): string => {
    if (offset === 0 && numText === 0) return '';
    if (offset >= numText) throw new FormatError(`${what}: text offset ${offset} is outside the text table (${numText} bytes)`, at);
    const cached = textCache.get(offset);
    if (cached !== undefined) return cached;
    const start = ofsText + offset;
    const limit = ofsText + numText;
    let end = start;
    while (end < limit && r.bytes[end] !== 0) end++;
    if (end >= limit) throw new FormatError(`${what}: the string at text offset ${offset} has no terminating NUL`, at);
    // Names pointing into the middle of one long string would decode it again and again.
    textBudget -= end - start;
    if (textBudget < 0) throw new FormatError(`${what}: names overlap (they decode to more text than the table holds)`, at);
    const s = decodeUtf8(r.bytes, start, end);
    textCache.set(offset, s);
    return s;
  };
  const checkAlign = (ofs: number, align: number, what: string) => {
    if (ofs % align !== 0) warnings.push(`${what} at offset ${ofs} is not ${align}-byte aligned (iqm.txt requires it)`);
  };

  const vertexCount = u(H.num_vertexes);
  const numTriangles = u(H.num_triangles);

  // Meshes.
  const numMeshes = u(H.num_meshes);
  const ofsMeshes = u(H.ofs_meshes);
  r.need(ofsMeshes, numMeshes, IQM_RECORD.mesh, 'meshes');
  if (numMeshes) checkAlign(ofsMeshes, 4, 'mesh table');
  const meshes = [];
  let claimedVerts = 0;
  let claimedTris = 0;
  for (let i = 0; i < numMeshes; i++) {
    const o = ofsMeshes + i * IQM_RECORD.mesh;
    const firstVertex = r.u32(o + 8);
    const count = r.u32(o + 12);
    const firstTriangle = r.u32(o + 16);
    const triangleCount = r.u32(o + 20);
    if (firstVertex + count > vertexCount) {
      throw new FormatError(`mesh ${i}: vertices ${firstVertex}..${firstVertex + count} exceed num_vertexes ${vertexCount}`, o + 8);
    }
    if (firstTriangle + triangleCount > numTriangles) {
      throw new FormatError(`mesh ${i}: triangles ${firstTriangle}..${firstTriangle + triangleCount} exceed num_triangles ${numTriangles}`, o + 16);
    }
    claimedVerts += count;
    claimedTris += triangleCount;
    meshes.push({
      name: text(r.u32(o), o, `mesh ${i} name`),
      material: text(r.u32(o + 4), o + 4, `mesh ${i} material`),
      firstVertex,
      vertexCount: count,
      firstTriangle,
      triangleCount,
    });
  }
  // Overlapping meshes would make per-mesh copies (and skinned output) grow beyond the file size.
  if (claimedVerts > vertexCount) throw new FormatError(`meshes claim ${claimedVerts} vertices but the file has ${vertexCount}: they overlap`, ofsMeshes);
  if (claimedTris > numTriangles) throw new FormatError(`meshes claim ${claimedTris} triangles but the file has ${numTriangles}: they overlap`, ofsMeshes);

  // Vertex arrays.
  const numArrays = u(H.num_vertexarrays);
  const ofsArrays = u(H.ofs_vertexarrays);
  r.need(ofsArrays, numArrays, IQM_RECORD.vertexArray, 'vertex arrays');
  if (numArrays) checkAlign(ofsArrays, 4, 'vertex array table');
  const vertexArrays: IqmDocVertexArray[] = [];
  let arrayBytes = 0;
  for (let i = 0; i < numArrays; i++) {
    const o = ofsArrays + i * IQM_RECORD.vertexArray;
    const type = r.u32(o);
    const flags = r.u32(o + 4);
    const format = r.u32(o + 8);
    const size = r.u32(o + 12);
    const offset = r.u32(o + 16);
    if (format > IQM_DOUBLE) throw new FormatError(`vertex array ${i}: unknown format ${format}`, o + 8);
    if (size < 1 || size > 4) throw new FormatError(`vertex array ${i}: size ${size} (components per vertex must be 1-4)`, o + 12);
    let name: string;
    if (type >= IQM_CUSTOM) name = text(type - IQM_CUSTOM, o, `vertex array ${i} custom name`);
    else if (type < TYPE_NAMES.length) name = TYPE_NAMES[type];
    else {
      warnings.push(`vertex array ${i} has reserved type ${type}; ignored`);
      continue;
    }
    const compSize = FORMAT_SIZES[format];
    // A custom array's name is the file's: escaped for the message.
    const label = type >= IQM_CUSTOM ? quotedName(name) : name;
    r.need(offset, vertexCount * size, compSize, `vertex array ${i} (${label})`);
    arrayBytes += vertexCount * size * compSize;
    if (arrayBytes > r.length) throw new FormatError(`vertex arrays overlap: together they claim more bytes than the file has`, o);
    checkAlign(offset, Math.max(4, compSize), `vertex array ${label}`);
    vertexArrays.push({ type, name, flags, format, size, data: readArray(r, offset, vertexCount * size, format), offset });
  }

  // Triangles and adjacency.
  const ofsTriangles = u(H.ofs_triangles);
  r.need(ofsTriangles, numTriangles, 12, 'triangles');
  if (numTriangles) checkAlign(ofsTriangles, 4, 'triangles');
  const triangles = readArray(r, ofsTriangles, numTriangles * 3, IQM_UINT) as Uint32Array;
  for (let i = 0; i < triangles.length; i++) {
    if (triangles[i] >= vertexCount) {
      throw new FormatError(`triangle ${Math.floor(i / 3)}: vertex index ${triangles[i]} ≥ num_vertexes ${vertexCount}`, ofsTriangles + i * 4);
    }
  }
  const ofsAdjacency = u(H.ofs_adjacency);
  let adjacency: Uint32Array | null = null;
  if (ofsAdjacency !== 0 && numTriangles > 0) {
    r.need(ofsAdjacency, numTriangles, 12, 'adjacency');
    adjacency = readArray(r, ofsAdjacency, numTriangles * 3, IQM_UINT) as Uint32Array;
    let bad = 0;
    for (let i = 0; i < adjacency.length; i++) if (adjacency[i] >= numTriangles && adjacency[i] !== 0xffffffff) bad++;
    if (bad) warnings.push(`adjacency: ${bad} entries name no triangle (ignore the adjacency array)`);
  }

  // Joints (v1: 44 bytes, rotate xyz; v2: 48 bytes, rotate xyzw).
  const numJoints = u(H.num_joints);
  const ofsJoints = u(H.ofs_joints);
  const jointSize = version === 1 ? IQM_RECORD_V1.joint : IQM_RECORD.joint;
  r.need(ofsJoints, numJoints, jointSize, 'joints');
  const joints = [];
  for (let i = 0; i < numJoints; i++) {
    const o = ofsJoints + i * jointSize;
    const parent = r.i32(o + 4);
    const trs = new Float32Array(10);
    let p = o + 8;
    for (let k = 0; k < 3; k++, p += 4) trs[k] = r.f32(p);
    const rotCount = version === 1 ? 3 : 4;
    for (let k = 0; k < rotCount; k++, p += 4) trs[3 + k] = r.f32(p);
    if (version === 1) trs[6] = -Math.sqrt(Math.max(0, 1 - trs[3] * trs[3] - trs[4] * trs[4] - trs[5] * trs[5]));
    for (let k = 0; k < 3; k++, p += 4) trs[7 + k] = r.f32(p);
    joints.push({ name: text(r.u32(o), o, `joint ${i} name`), parent: parent < 0 ? -1 : parent, trs });
    if (parent >= 0 && parent >= numJoints) throw new FormatError(`joint ${i}: parent ${parent} ≥ num_joints ${numJoints}`, o + 4);
  }
  checkHierarchy(joints.map((j) => j.parent), 'joint', ofsJoints, jointSize, warnings);

  // Poses (v1: 9 channels, 80 bytes; v2: 10 channels, 88 bytes).
  const numPoses = u(H.num_poses);
  const ofsPoses = u(H.ofs_poses);
  const channels = version === 1 ? 9 : 10;
  const poseSize = version === 1 ? IQM_RECORD_V1.pose : IQM_RECORD.pose;
  r.need(ofsPoses, numPoses, poseSize, 'poses');
  const poses = [];
  let maskBits = 0;
  for (let i = 0; i < numPoses; i++) {
    const o = ofsPoses + i * poseSize;
    const parent = r.i32(o);
    if (parent >= 0 && parent >= numPoses) throw new FormatError(`pose ${i}: parent ${parent} ≥ num_poses ${numPoses}`, o);
    const fileMask = r.u32(o + 4);
    const offset = new Float32Array(10);
    const scale = new Float32Array(10);
    let mask = 0;
    for (let k = 0; k < channels; k++) {
      // v1 channel k maps to v2 channel k (k < 6) or k + 1 (scale); channel 6 (w) is reconstructed.
      const c = version === 1 && k >= 6 ? k + 1 : k;
      offset[c] = r.f32(o + 8 + k * 4);
      scale[c] = r.f32(o + 8 + channels * 4 + k * 4);
      if (fileMask & (1 << k)) {
        mask |= 1 << c;
        maskBits++;
      }
    }
    poses.push({ parent: parent < 0 ? -1 : parent, mask, offset, scale });
  }
  checkHierarchy(poses.map((p) => p.parent), 'pose', ofsPoses, poseSize, warnings);
  if (numJoints > 0 && numPoses > 0 && numJoints !== numPoses) {
    warnings.push(`num_poses ${numPoses} differs from num_joints ${numJoints}; animation drives the first ${Math.min(numJoints, numPoses)} joints`);
  }

  // Frames.
  const frameCount = u(H.num_frames);
  const frameChannels = u(H.num_framechannels);
  const ofsFrames = u(H.ofs_frames);
  r.need(ofsFrames, frameCount * frameChannels, 2, 'frames');
  if (frameCount * frameChannels) checkAlign(ofsFrames, 4, 'frames');
  if (frameCount > 0 && maskBits > frameChannels) {
    throw new FormatError(`poses have ${maskBits} animated channels but num_framechannels is ${frameChannels}`, H.num_framechannels);
  }
  if (frameCount > 0 && maskBits < frameChannels) warnings.push(`num_framechannels ${frameChannels} exceeds the ${maskBits} animated pose channels`);
  const frames = readArray(r, ofsFrames, frameCount * frameChannels, IQM_USHORT) as Uint16Array;

  // Animations.
  const numAnims = u(H.num_anims);
  const ofsAnims = u(H.ofs_anims);
  r.need(ofsAnims, numAnims, IQM_RECORD.anim, 'animations');
  const anims = [];
  for (let i = 0; i < numAnims; i++) {
    const o = ofsAnims + i * IQM_RECORD.anim;
    anims.push({
      name: text(r.u32(o), o, `animation ${i} name`),
      firstFrame: r.u32(o + 4),
      frameCount: r.u32(o + 8),
      framerate: r.f32(o + 12),
      flags: r.u32(o + 16),
    });
  }

  // Bounds.
  const ofsBounds = u(H.ofs_bounds);
  let bounds: Float32Array | null = null;
  if (ofsBounds !== 0 && frameCount > 0) {
    r.need(ofsBounds, frameCount, IQM_RECORD.bounds, 'bounds');
    bounds = readArray(r, ofsBounds, frameCount * 8, IQM_FLOAT) as Float32Array;
  }

  // Comment.
  const numComment = u(H.num_comment);
  const ofsComment = u(H.ofs_comment);
  let comment = '';
  if (numComment > 0) {
    r.need(ofsComment, numComment, 1, 'comment');
    let end = ofsComment;
    while (end < ofsComment + numComment && r.bytes[end] !== 0) end++;
    comment = decodeUtf8(r.bytes, ofsComment, end);
  }

  // Extensions: a linked list; walk at most num_extensions entries and stop at a repeat.
  const extensions: IqmDocExtension[] = [];
  const numExtensions = u(H.num_extensions);
  let ofsExt = u(H.ofs_extensions);
  const seen = new Set<number>();
  for (let i = 0; i < numExtensions && ofsExt !== 0; i++) {
    if (seen.has(ofsExt)) {
      warnings.push(`extension list loops back to offset ${ofsExt}; stopped`);
      break;
    }
    seen.add(ofsExt);
    r.need(ofsExt, 1, IQM_EXTENSION_HEADER_SIZE, `extension ${i}`);
    const name = text(r.u32(ofsExt), ofsExt, `extension ${i} name`);
    const numData = r.u32(ofsExt + 4);
    const ofsData = r.u32(ofsExt + 8);
    r.need(ofsData, numData, 1, `extension ${quotedName(name)} data`);
    // A view, not a copy: many extensions may point at the same bytes.
    const ext: IqmDocExtension = { name, data: r.bytes.subarray(ofsData, ofsData + numData), offset: ofsData };
    try {
      decodeExtension(ext, r, ofsData, numData, numMeshes, text, warnings);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      warnings.push(`extension ${quotedName(name)}: ${e.message} (at byte ${e.offset}); left undecoded`);
    }
    extensions.push(ext);
    ofsExt = r.u32(ofsExt + 12);
  }

  return {
    document: {
      version,
      flags: u(H.flags),
      vertexCount,
      meshes,
      vertexArrays,
      triangles,
      adjacency,
      joints,
      poses,
      anims,
      frameCount,
      frameChannels,
      frames,
      bounds,
      comment,
      extensions,
    },
    warnings,
  };
}

/** Parents must name an entry; a cycle is an error, a parent after its child a warning. */
function checkHierarchy(parents: number[], what: string, base: number, size: number, warnings: string[]): void {
  let late = 0;
  for (let i = 0; i < parents.length; i++) if (parents[i] >= i) late++;
  if (late === 0) return;
  warnings.push(`${late} ${what}s have a parent that is not before them (DarkPlaces refuses such files; evaluated in dependency order)`);
  jointOrder(Int32Array.from(parents), (j) => {
    throw new FormatError(`${what} ${j}: parent chain forms a cycle`, base + j * size);
  });
}

/** A typed array of `count` values at `offset`: a view when aligned on a little-endian host, else a copy. */
export function readArray(r: BinaryReader, offset: number, count: number, format: number): IqmArrayData {
  const size = FORMAT_SIZES[format];
  const abs = r.bytes.byteOffset + offset;
  const buf = r.bytes.buffer;
  if (count === 0) return emptyArray(format);
  if (HOST_LITTLE_ENDIAN && abs % size === 0) {
    switch (format) {
      case IQM_BYTE: return new Int8Array(buf, abs, count);
      case IQM_UBYTE: return new Uint8Array(buf, abs, count);
      case IQM_SHORT: return new Int16Array(buf, abs, count);
      case IQM_USHORT: case IQM_HALF: return new Uint16Array(buf, abs, count);
      case IQM_INT: return new Int32Array(buf, abs, count);
      case IQM_UINT: return new Uint32Array(buf, abs, count);
      case IQM_FLOAT: return new Float32Array(buf, abs, count);
      default: return new Float64Array(buf, abs, count);
    }
  }
  const v = r.view;
  const out = emptyArray(format, count);
  for (let i = 0, p = offset; i < count; i++, p += size) {
    switch (format) {
      case IQM_BYTE: out[i] = v.getInt8(p); break;
      case IQM_UBYTE: out[i] = v.getUint8(p); break;
      case IQM_SHORT: out[i] = v.getInt16(p, true); break;
      case IQM_USHORT: case IQM_HALF: out[i] = v.getUint16(p, true); break;
      case IQM_INT: out[i] = v.getInt32(p, true); break;
      case IQM_UINT: out[i] = v.getUint32(p, true); break;
      case IQM_FLOAT: out[i] = v.getFloat32(p, true); break;
      default: out[i] = v.getFloat64(p, true);
    }
  }
  return out;
}

export function emptyArray(format: number, count = 0): IqmArrayData {
  switch (format) {
    case IQM_BYTE: return new Int8Array(count);
    case IQM_UBYTE: return new Uint8Array(count);
    case IQM_SHORT: return new Int16Array(count);
    case IQM_USHORT: case IQM_HALF: return new Uint16Array(count);
    case IQM_INT: return new Int32Array(count);
    case IQM_UINT: return new Uint32Array(count);
    case IQM_FLOAT: return new Float32Array(count);
    default: return new Float64Array(count);
  }
}

function decodeExtension(
  ext: IqmDocExtension,
  r: BinaryReader,
  ofs: number,
  size: number,
  numMeshes: number,
  text: (offset: number, at: number, what: string) => string,
  warnings: string[],
): void {
  const name = ext.name.toUpperCase(); // FTE compares names case-insensitively
  if (name === 'FTE_MESH') {
    if (size !== FTE_RECORD.mesh * numMeshes) warnings.push(`FTE_MESH has ${size} bytes, expected ${FTE_RECORD.mesh} × ${numMeshes} meshes`);
    const n = Math.min(numMeshes, Math.floor(size / FTE_RECORD.mesh));
    const meshes: FteMeshInfo[] = [];
    for (let i = 0; i < n; i++) {
      const o = ofs + i * FTE_RECORD.mesh;
      meshes.push({
        contents: r.u32(o),
        surfaceFlags: r.u32(o + 4),
        surfaceId: r.u32(o + 8),
        geomset: r.u32(o + 12),
        geomid: r.u32(o + 16),
        minDist: r.f32(o + 20),
        maxDist: r.f32(o + 24),
      });
    }
    ext.meshes = meshes;
  } else if (name === 'FTE_EVENT') {
    if (size % FTE_RECORD.event) warnings.push(`FTE_EVENT has ${size} bytes, not a multiple of ${FTE_RECORD.event}`);
    const events: FteEvent[] = [];
    for (let i = 0; i + FTE_RECORD.event <= size; i += FTE_RECORD.event) {
      events.push({
        anim: r.u32(ofs + i),
        timestamp: r.f32(ofs + i + 4),
        code: r.u32(ofs + i + 8),
        data: text(r.u32(ofs + i + 12), ofs + i + 12, `FTE_EVENT ${i / FTE_RECORD.event} string`),
      });
    }
    ext.events = events;
  } else if (name === 'FTE_SKINS') {
    const end = ofs + size;
    const need = (o: number, n: number) => {
      if (o + n > end) throw new FormatError(`FTE_SKINS: data ends before its tables`, o);
    };
    need(ofs, 8 + 4 * numMeshes);
    const numFrames = r.u32(ofs);
    const numMeshSkins = r.u32(ofs + 4);
    const framesOfs = ofs + 8 + 4 * numMeshes;
    need(framesOfs, numFrames * FTE_RECORD.skinFrame);
    const skinsOfs = framesOfs + numFrames * FTE_RECORD.skinFrame;
    need(skinsOfs, numMeshSkins * FTE_RECORD.skin);
    const skins: FteSkins = { meshes: [] };
    let next = 0;
    let referenced = 0;
    for (let m = 0; m < numMeshes; m++) {
      const count = r.u32(ofs + 8 + 4 * m);
      if (next + count > numMeshSkins) throw new FormatError(`FTE_SKINS: mesh ${m} claims skins beyond nummeshskins ${numMeshSkins}`, ofs + 8 + 4 * m);
      const list = [];
      for (let s = 0; s < count; s++, next++) {
        const so = skinsOfs + next * FTE_RECORD.skin;
        const first = r.u32(so);
        const countFrames = r.u32(so + 4);
        if (first + countFrames > numFrames) throw new FormatError(`FTE_SKINS: skin frames ${first}+${countFrames} exceed ${numFrames}`, so);
        // Skins own their frames; overlapping ranges would let the decoded lists outgrow the file.
        referenced += countFrames;
        if (referenced > numFrames + numMeshSkins) throw new FormatError('FTE_SKINS: skins share frames', so);
        const frames = [];
        for (let f = first; f < first + countFrames; f++) {
          const fo = framesOfs + f * FTE_RECORD.skinFrame;
          frames.push({ texture: text(r.u32(fo), fo, 'FTE_SKINS texture'), shader: text(r.u32(fo + 4), fo + 4, 'FTE_SKINS shader') });
        }
        list.push({ frames, interval: r.f32(so + 8) });
      }
      skins.meshes.push({ skins: list });
    }
    ext.skins = skins;
  }
}

// ---------------------------------------------------------------------------------------------
// Document -> Model

/** Reads an IQM file into the neutral Model, or throws FormatError. */
export function readIqm(bytes: Uint8Array): Model {
  const { document, warnings } = readIqmDocument(bytes);
  return iqmToModel(document, warnings);
}

/** Converts integer formats to float per WebGL2: unsigned v/(2^n-1); signed max(v/(2^(n-1)-1), -1). */
function normalizeScale(format: number): number {
  switch (format) {
    case IQM_BYTE: return 1 / 127;
    case IQM_UBYTE: return 1 / 255;
    case IQM_SHORT: return 1 / 32767;
    case IQM_USHORT: return 1 / 65535;
    case IQM_INT: return 1 / 2147483647;
    case IQM_UINT: return 1 / 4294967295;
    default: return 1;
  }
}

/**
 * The array as floats with `want` components per vertex (missing components from `fill`). A view
 * of the file when it is already float with the right size.
 */
function toFloat(a: IqmDocVertexArray, count: number, want: number, fill: readonly number[]): Float32Array {
  if (a.format === IQM_FLOAT && a.size === want) return a.data as Float32Array;
  const out = new Float32Array(count * want);
  const src = a.data;
  const k = normalizeScale(a.format);
  const signed = a.format === IQM_BYTE || a.format === IQM_SHORT || a.format === IQM_INT;
  const n = Math.min(a.size, want);
  for (let v = 0; v < count; v++) {
    const si = v * a.size;
    const di = v * want;
    for (let c = 0; c < n; c++) {
      let x = src[si + c];
      if (a.format === IQM_HALF) x = halfToFloat(x);
      else if (k !== 1) x = signed ? Math.max(x * k, -1) : x * k;
      out[di + c] = x;
    }
    for (let c = n; c < want; c++) out[di + c] = fill[c] ?? 0;
  }
  return out;
}

/** Blend indices as unsigned integers; negative or fractional stored values become 0xFFFFFFFF (invalid). */
function toIndices(a: IqmDocVertexArray): Uint8Array | Uint16Array | Uint32Array {
  if (a.format === IQM_UBYTE) return a.data as Uint8Array;
  if (a.format === IQM_USHORT) return a.data as Uint16Array;
  if (a.format === IQM_UINT) return a.data as Uint32Array;
  const out = new Uint32Array(a.data.length);
  for (let i = 0; i < out.length; i++) {
    const x = a.format === IQM_HALF ? halfToFloat(a.data[i]) : a.data[i];
    out[i] = x >= 0 && x < 4294967295 && Number.isInteger(x) ? x : 0xffffffff;
  }
  return out;
}

export function iqmToModel(doc: IqmDocument, warnings: string[]): Model {
  const n = doc.vertexCount;
  const byType = new Map<number, IqmDocVertexArray>();
  const custom: IqmDocVertexArray[] = [];
  for (const a of doc.vertexArrays) {
    if (a.type >= IQM_CUSTOM) custom.push(a);
    else if (byType.has(a.type)) warnings.push(`a second ${a.name} vertex array is ignored`);
    else byType.set(a.type, a);
  }
  const nonStandard: string[] = [];
  const expect: Record<number, [number, number]> = {
    [IQM_POSITION]: [IQM_FLOAT, 3],
    [IQM_TEXCOORD]: [IQM_FLOAT, 2],
    [IQM_NORMAL]: [IQM_FLOAT, 3],
    [IQM_TANGENT]: [IQM_FLOAT, 4],
    [IQM_BLENDINDEXES]: [IQM_UBYTE, 4],
    [IQM_BLENDWEIGHTS]: [IQM_UBYTE, 4],
    [IQM_COLOR]: [IQM_UBYTE, 4],
  };
  for (const [type, a] of byType) {
    const [f, s] = expect[type];
    if (a.format !== f || a.size !== s) nonStandard.push(`${a.name} ${FORMAT_NAMES[a.format]}×${a.size}`);
  }
  if (nonStandard.length) warnings.push(`non-standard vertex formats: ${nonStandard.join(', ')} (read, but some engines reject or misread them: iqm-tools lint --engine NAME)`);

  const pos = byType.get(IQM_POSITION);
  // Without a position array num_vertexes is backed by no data: only vertex-less meshes make sense.
  if (!pos && doc.meshes.some((m) => m.vertexCount > 0)) throw new FormatError('meshes have vertices but the file has no position array', 52);
  if (!pos && n > 0) warnings.push(`num_vertexes is ${n} but there is no position array`);
  const position = pos ? toFloat(pos, n, 3, [0, 0, 0]) : new Float32Array(0);
  const tc = byType.get(IQM_TEXCOORD);
  const texcoord = tc ? toFloat(tc, n, 2, [0, 0]) : null;
  const nm = byType.get(IQM_NORMAL);
  const normal = nm ? toFloat(nm, n, 3, [0, 0, 1]) : null;
  const tg = byType.get(IQM_TANGENT);
  const tangent = tg ? toFloat(tg, n, 4, [1, 0, 0, 1]) : null;
  const co = byType.get(IQM_COLOR);
  const color = co ? toFloat(co, n, 4, [1, 1, 1, 1]) : null;
  const customStreams: CustomStream[] = custom.map((a) => ({ name: a.name, size: a.size, data: toFloat(a, n, a.size, []) }));

  // Skeleton from joints.
  const jointCount = doc.joints.length;
  let skeleton: Skeleton | null = null;
  if (jointCount > 0) {
    const parents = Int32Array.from(doc.joints, (j) => j.parent);
    const bindLocal = new Float32Array(jointCount * 10);
    doc.joints.forEach((j, i) => {
      bindLocal.set(j.trs, i * 10);
      normalizeQuat(bindLocal, i * 10 + 3);
    });
    skeleton = skeletonFromBindPose(
      doc.joints.map((j) => j.name),
      parents,
      new Uint32Array(jointCount),
      bindLocal,
    );
  }

  // Blending.
  const bi = byType.get(IQM_BLENDINDEXES);
  const bw = byType.get(IQM_BLENDWEIGHTS);
  let blendIndices: Uint8Array | Uint16Array | Uint32Array | null = null;
  let blendWeights: Float32Array | null = null;
  let influences = 0;
  if (bi && bw) {
    if (bi.size !== bw.size) warnings.push(`blend indices have ${bi.size} components but weights ${bw.size}; using ${Math.min(bi.size, bw.size)}`);
    influences = Math.min(bi.size, bw.size);
    const idx = toIndices(bi);
    blendIndices = bi.size === influences ? idx : compact(idx, bi.size, influences, n);
    blendWeights = toFloat(bw, n, influences, []);
    if (blendWeights === bw.data) blendWeights = (blendWeights as Float32Array).slice(); // renormalised below: never write the file
    const boneLimit = jointCount || doc.poses.length;
    const [unweighted, badIndex] = renormalise(blendIndices, blendWeights, influences, n, boneLimit);
    if (badIndex) warnings.push(`${badIndex} blend influences name a joint ≥ ${boneLimit} and are ignored`);
    if (unweighted) warnings.push(`${unweighted} vertices have all blend weights zero: ${UNWEIGHTED_EFFECT}`);
  } else if (bi || bw) {
    warnings.push('blend indices without blend weights (or the reverse): the mesh is not skinned');
  }

  // Meshes (streams are views into the whole-file arrays; indices become mesh-local).
  const meshes: Mesh[] = doc.meshes.map((m) => {
    const a = m.firstVertex, b = m.firstVertex + m.vertexCount;
    const indices = new Uint32Array(m.triangleCount * 3);
    const base = m.firstTriangle * 3;
    let outside = 0;
    for (let i = 0; i < indices.length; i++) {
      const g = doc.triangles[base + i];
      if (g < a || g >= b) {
        outside++;
        indices[i] = 0;
      } else indices[i] = g - a;
    }
    if (outside) warnings.push(`mesh ${quotedName(m.name)}: ${outside} triangle corners use vertices outside the mesh (set to its first vertex)`);
    const sub = <T extends Float32Array | Uint8Array | Uint16Array | Uint32Array>(s: T | null, k: number): T | null =>
      s ? (s.subarray(a * k, b * k) as T) : null;
    return {
      name: m.name,
      material: m.material,
      materialIndex: 0,
      shaders: [m.material],
      vertexCount: m.vertexCount,
      triangleCount: m.triangleCount,
      indices,
      position: position.subarray(a * 3, b * 3),
      normal: sub(normal, 3),
      texcoord: sub(texcoord, 2),
      tangent: sub(tangent, 4),
      color: sub(color, 4),
      influences,
      blendIndices: sub(blendIndices, influences),
      blendWeights: sub(blendWeights, influences),
      dpm: null,
      morph: null,
      groupIds: null,
      custom: customStreams.map((c) => ({ name: c.name, size: c.size, data: c.data.subarray(a * c.size, b * c.size) })),
    };
  });

  // Animation.
  let animation: SkeletalFrames | null = null;
  if (doc.poses.length > 0) {
    const pc = doc.poses.length;
    const mask = new Uint32Array(pc);
    const offset = new Float32Array(pc * 10);
    const scale = new Float32Array(pc * 10);
    const firstSample = new Uint32Array(pc);
    let s = 0;
    doc.poses.forEach((p, i) => {
      mask[i] = p.mask;
      offset.set(p.offset, i * 10);
      scale.set(p.scale, i * 10);
      firstSample[i] = s;
      for (let k = 0; k < 10; k++) if (p.mask & (1 << k)) s++;
    });
    animation = {
      kind: 'channels',
      frameCount: doc.frameCount,
      poseCount: pc,
      parents: Int32Array.from(doc.poses, (p) => p.parent),
      mask,
      offset,
      scale,
      reconstructW: doc.version === 1,
      firstSample,
      frameChannels: doc.frameChannels,
      samples: doc.frames,
    };
  } else if (doc.frameCount > 0 && jointCount > 0) {
    warnings.push(`${doc.frameCount} frames but no poses: frames show the bind pose`);
  }

  const clips: Clip[] = doc.anims.map((an, i) => {
    let first = an.firstFrame;
    let count = an.frameCount;
    if (first + count > doc.frameCount) {
      warnings.push(`animation ${i} ${quotedName(an.name)}: frames ${first}..${first + count - 1} run past num_frames ${doc.frameCount} (${doc.frameCount > 0 ? `frames 0..${doc.frameCount - 1}` : 'no frames'}); clamped`);
      first = Math.min(first, doc.frameCount);
      count = doc.frameCount - first;
    }
    return { name: an.name, firstFrame: first, frameCount: count, fps: Number.isFinite(an.framerate) && an.framerate > 0 ? an.framerate : 0, loop: (an.flags & IQM_LOOP) !== 0 };
  });

  let fteMesh = null, fteEvents = null, fteSkins = null;
  for (const e of doc.extensions) {
    if (e.meshes) fteMesh = e.meshes;
    if (e.events) fteEvents = e.events;
    if (e.skins) fteSkins = e.skins;
  }

  return {
    format: 'iqm',
    version: doc.version,
    winding: 'cw',
    upAxis: 'z',
    meshes,
    materials: indexMaterials(meshes),
    skeleton,
    animation,
    frameCount: doc.frameCount,
    frameNames: [],
    clips,
    tags: null,
    bounds: doc.bounds,
    warnings,
    iqm: {
      comment: doc.comment,
      adjacency: doc.adjacency,
      vertexArrays: doc.vertexArrays.map((a) => ({ type: a.type, name: a.name, format: FORMAT_NAMES[a.format], size: a.size, offset: a.offset })),
      extensions: doc.extensions.map((e) => ({ name: e.name, size: e.data.byteLength, offset: e.offset })),
      fteMesh,
      fteEvents,
      fteSkins,
    },
  };
}

function compact<T extends Uint8Array | Uint16Array | Uint32Array>(src: T, from: number, to: number, n: number): Uint32Array {
  const out = new Uint32Array(n * to);
  for (let v = 0; v < n; v++) for (let c = 0; c < to; c++) out[v * to + c] = src[v * from + c];
  return out;
}

/**
 * Zeroes influences with an out-of-range index or a non-positive weight and renormalises the rest
 * to sum 1. Returns [vertices with no usable weight, influences with a bad index].
 */
export function renormalise(
  indices: ArrayLike<number>,
  weights: Float32Array,
  k: number,
  n: number,
  boneCount: number,
): [number, number] {
  let unweighted = 0;
  let bad = 0;
  for (let v = 0; v < n; v++) {
    let sum = 0;
    const o = v * k;
    for (let c = 0; c < k; c++) {
      const w = weights[o + c];
      if (!(w > 0)) {
        weights[o + c] = 0;
        continue;
      }
      if (indices[o + c] >= boneCount) {
        bad++;
        weights[o + c] = 0;
        continue;
      }
      sum += w;
    }
    if (sum > 0 && Number.isFinite(sum)) {
      if (sum !== 1) for (let c = 0; c < k; c++) weights[o + c] /= sum;
    } else {
      for (let c = 0; c < k; c++) weights[o + c] = 0;
      unweighted++;
    }
  }
  return [unweighted, bad];
}

/** Builds bind-pose world and inverse matrices from local [t q s] (quaternions already normalised). */
export function skeletonFromBindPose(names: string[], parents: Int32Array, flags: Uint32Array, bindLocal: Float32Array): Skeleton {
  const n = parents.length;
  const order = jointOrder(parents, (j) => {
    throw new FormatError(`joint ${j}: parent chain forms a cycle`, 0);
  });
  const bindWorld = new Float32Array(n * 12);
  const inverseBindWorld = new Float32Array(n * 12);
  const local = new Float32Array(12);
  for (let k = 0; k < n; k++) {
    const j = order[k];
    fromTRS(local, 0, bindLocal, j * 10);
    const p = parents[j];
    if (p >= 0) mul3x4(bindWorld, j * 12, bindWorld, p * 12, local, 0);
    else bindWorld.set(local, j * 12);
  }
  for (let j = 0; j < n; j++) invert3x4(inverseBindWorld, j * 12, bindWorld, j * 12);
  return { names, parents, flags, order, bindLocal, bindWorld, inverseBindWorld };
}

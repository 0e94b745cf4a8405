// The IQM validator (iqm.txt, iqm-animation-notes.txt; layout.ts is the one layout description).
// Unlike the reader it never stops at the first problem: the structure pass decides which blocks
// can be read (inside the file, not in the header), and every later pass reads only those, so a
// broken block is reported once and what depends on it is skipped (with a note), while the rest of
// the file is still checked. Offsets are absolute byte offsets; vertex and triangle numbers are the
// file's global ones, with the mesh that holds them named.

import { decodeUtf8, halfToFloat, HOST_LITTLE_ENDIAN } from '../binary';
import { readIqm } from '../iqm/reader';
import {
  FORMAT_NAMES,
  FORMAT_SIZES,
  FTE_RECORD,
  IQM_BLENDINDEXES,
  IQM_BLENDWEIGHTS,
  IQM_COLOR,
  IQM_CUSTOM,
  IQM_DOUBLE,
  IQM_EXTENSION_HEADER_SIZE,
  IQM_FLOAT,
  IQM_HALF,
  IQM_HEADER as H,
  IQM_HEADER_SIZE,
  IQM_LOOP,
  IQM_NORMAL,
  IQM_POSITION,
  IQM_RECORD,
  IQM_RECORD_V1,
  IQM_TANGENT,
  IQM_TEXCOORD,
  IQM_UBYTE,
  TYPE_NAMES,
} from '../iqm/layout';
import { createPose, sampleFrames } from '../model/sample';
import { skinVertices, totalVertices } from '../model/skin';
import { quotedName } from '../names';
import type { Reporter } from './report';
import { boundsFrames, checkBoundsFrame, controlBytesIn, eachDuplicateTriangle, hasCycle, parentChainChecks, rendererLimit, rendererLimitText, type BoundsCheck } from './shared';

interface Block {
  name: string;
  offset: number;
  bytes: number;
  /** The header field (or record field) that holds the offset, for where a bad offset is. */
  field: number;
}

/** Components per vertex each standard array has in every engine (iqm.txt). */
const STANDARD_SIZE: Readonly<Record<number, number>> = { [IQM_POSITION]: 3, [IQM_TEXCOORD]: 2, [IQM_NORMAL]: 3, [IQM_TANGENT]: 4, [IQM_BLENDINDEXES]: 4, [IQM_BLENDWEIGHTS]: 4, [IQM_COLOR]: 4 };
/** The formats engines read for each standard array (DarkPlaces' loader: docs/ENGINES.md; ubyte or float for weights and colours). */
const STANDARD_FORMATS: Readonly<Record<number, readonly number[]>> = {
  [IQM_POSITION]: [IQM_FLOAT],
  [IQM_TEXCOORD]: [IQM_FLOAT],
  [IQM_NORMAL]: [IQM_FLOAT],
  [IQM_TANGENT]: [IQM_FLOAT],
  [IQM_BLENDINDEXES]: [IQM_UBYTE],
  [IQM_BLENDWEIGHTS]: [IQM_UBYTE, IQM_FLOAT],
  [IQM_COLOR]: [IQM_UBYTE, IQM_FLOAT],
};

interface ArrayInfo {
  index: number;
  type: number;
  label: string;
  format: number;
  size: number;
  offset: number;
  /** Whether its data lies inside the file. */
  readable: boolean;
}

export function validateIqm(bytes: Uint8Array, rep: Reporter): void {
  if (bytes.byteLength < IQM_HEADER_SIZE) {
    rep.add('iqm-header-truncated', bytes.byteLength, 'header', `the file has ${bytes.byteLength} bytes, an IQM header needs ${IQM_HEADER_SIZE}: engines refuse it`);
    return;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (o: number) => view.getUint32(o, true);
  const version = u(H.version);
  if (version !== 1 && version !== 2) {
    rep.add('iqm-version', H.version, 'header', `version ${version}: only 1 and 2 exist; engines refuse the file`);
    return;
  }
  const v1 = version === 1;
  const fileSize = u(H.filesize);
  // Engines read the header's filesize bytes; where it is smaller and plausible, only those count.
  let length = bytes.byteLength;
  if (fileSize !== bytes.byteLength) {
    rep.add('iqm-filesize', H.filesize, 'header', `the header's filesize is ${fileSize} but the file has ${bytes.byteLength} bytes: FTE refuses the file (loaders that trust filesize read only that many bytes)`);
    if (fileSize >= IQM_HEADER_SIZE && fileSize < length) length = fileSize;
  }
  if (u(H.flags) !== 0) rep.add('iqm-header-flags', H.flags, 'header', `flags is ${u(H.flags)}: no flag is defined; engines ignore it`);

  const numText = u(H.num_text), ofsText = u(H.ofs_text);
  const numMeshes = u(H.num_meshes), ofsMeshes = u(H.ofs_meshes);
  const numArrays = u(H.num_vertexarrays), numVerts = u(H.num_vertexes), ofsArrays = u(H.ofs_vertexarrays);
  const numTris = u(H.num_triangles), ofsTris = u(H.ofs_triangles), ofsAdj = u(H.ofs_adjacency);
  const numJoints = u(H.num_joints), ofsJoints = u(H.ofs_joints);
  const numPoses = u(H.num_poses), ofsPoses = u(H.ofs_poses);
  const numAnims = u(H.num_anims), ofsAnims = u(H.ofs_anims);
  const numFrames = u(H.num_frames), numChannels = u(H.num_framechannels), ofsFrames = u(H.ofs_frames), ofsBounds = u(H.ofs_bounds);
  const numComment = u(H.num_comment), ofsComment = u(H.ofs_comment);
  const jointSize = v1 ? IQM_RECORD_V1.joint : IQM_RECORD.joint;
  const poseSize = v1 ? IQM_RECORD_V1.pose : IQM_RECORD.pose;
  const channelsPerPose = v1 ? 9 : 10;

  // --- Structure: every block inside the file, after the header, aligned, and apart. ---
  const blocks: Block[] = [];
  const readable = new Set<string>();
  const place = (name: string, offset: number, count: number, size: number, field: number, align = 4): boolean => {
    const n = count * size;
    if (n === 0) {
      readable.add(name);
      return true;
    }
    if (offset < IQM_HEADER_SIZE) {
      rep.add('iqm-block-in-header', field, name, `${name}: offset ${offset} is inside the ${IQM_HEADER_SIZE}-byte header: engines read the header as its data`);
      return false;
    }
    if (offset + n > length) {
      rep.add('iqm-block-out-of-file', field, name, `${name}: ${count} × ${size} bytes at offset ${offset} run past the end of the file (${length} bytes): engines refuse the file or read past the buffer`);
      return false;
    }
    if (offset % align !== 0) rep.add('iqm-block-misaligned', field, name, `${name} at offset ${offset} is not ${align}-byte aligned (iqm.txt requires it): loaders that cast the buffer to structs read misaligned data, which faults on strict-alignment CPUs`);
    blocks.push({ name, offset, bytes: n, field });
    readable.add(name);
    return true;
  };
  place('text', ofsText, numText, 1, H.ofs_text, 1);
  place('meshes', ofsMeshes, numMeshes, IQM_RECORD.mesh, H.ofs_meshes);
  place('vertex arrays', ofsArrays, numArrays, IQM_RECORD.vertexArray, H.ofs_vertexarrays);
  place('triangles', ofsTris, numTris, IQM_RECORD.triangle, H.ofs_triangles);
  if (ofsAdj !== 0) place('adjacency', ofsAdj, numTris, IQM_RECORD.triangle, H.ofs_adjacency);
  place('joints', ofsJoints, numJoints, jointSize, H.ofs_joints);
  place('poses', ofsPoses, numPoses, poseSize, H.ofs_poses);
  place('animations', ofsAnims, numAnims, IQM_RECORD.anim, H.ofs_anims);
  place('frames', ofsFrames, numFrames * numChannels, 2, H.ofs_frames);
  if (ofsBounds !== 0) place('bounds', ofsBounds, numFrames, IQM_RECORD.bounds, H.ofs_bounds);
  place('comment', ofsComment, numComment, 1, H.ofs_comment, 1);

  // Names from the text table (offset 0 with no table is the empty name).
  const textOk = readable.has('text');
  if (textOk && numText > 0) {
    if (bytes[ofsText] !== 0) rep.add('iqm-text-first', ofsText, 'text', 'the text table does not start with a NUL: offset 0 (an unnamed mesh, material or joint) names a string instead of ""');
  }
  const names = new Map<number, string | null>();
  // Names pointing into the middle of one long string would scan it again and again: a budget.
  let textBudget = 8 * numText + 4096;
  const name = (offset: number, at: number, where: () => string): string | null => {
    if (offset === 0 && numText === 0) return '';
    if (!textOk) return null;
    if (offset >= numText) {
      rep.add('iqm-text-offset', at, where, () => `${where()}: text offset ${offset} is outside the text table (${numText} bytes): engines read a name from past the table`);
      return null;
    }
    const cached = names.get(offset);
    if (cached !== undefined) return cached;
    const limit = ofsText + numText;
    if (textBudget < 0) return null;
    let end = ofsText + offset;
    while (end < limit && bytes[end] !== 0) end++;
    if (end >= limit) {
      rep.add('iqm-text-no-nul', at, where, () => `${where()}: the name at text offset ${offset} has no NUL before the table ends: engines read on past it`);
      names.set(offset, null);
      return null;
    }
    textBudget -= end - ofsText - offset;
    if (textBudget < 0) rep.note('names not all checked: they overlap, decoding to more text than the table holds');
    const s = decodeUtf8(bytes, ofsText + offset, end);
    const control = controlBytesIn(bytes, ofsText + offset, end);
    if (control >= 0) rep.add('iqm-name-control', ofsText + offset, where, () => `${where()}: the name ${quotedName(s)} has a control byte (0x${bytes[control].toString(16).padStart(2, '0')}): consoles, .skin files and engine lookups by name break on it`);
    names.set(offset, s);
    return s;
  };

  // --- Meshes ---
  // Tables are allocated by their counts only where the file holds them (a count is any uint32).
  const meshesOk = readable.has('meshes');
  const meshCount = meshesOk ? numMeshes : 0;
  const meshFirstV = new Uint32Array(meshCount), meshNumV = new Uint32Array(meshCount), meshFirstT = new Uint32Array(meshCount), meshNumT = new Uint32Array(meshCount);
  const meshNames: string[] = [];
  if (meshesOk) {
    for (let m = 0; m < numMeshes; m++) {
      const o = ofsMeshes + m * IQM_RECORD.mesh;
      const where = () => `mesh ${m}`;
      const nm = name(u(o), o, where) ?? '';
      meshNames.push(nm);
      const material = name(u(o + 4), o + 4, () => `mesh ${m} ${quotedName(nm)} material`);
      const fv = u(o + 8), nv = u(o + 12), ft = u(o + 16), nt = u(o + 20);
      const label = () => `mesh ${m} ${quotedName(nm)}`;
      // A range past the end is reported and kept to what exists, so the rest is checked as engines see it.
      if (fv + nv > numVerts) rep.add('iqm-mesh-vertex-range', o + 8, label, () => `${label()}: vertices ${fv}..${fv + nv - 1} are past num_vertexes ${numVerts}: engines refuse the file or draw garbage`);
      meshFirstV[m] = Math.min(fv, numVerts);
      meshNumV[m] = Math.min(nv, numVerts - meshFirstV[m]);
      if (ft + nt > numTris) rep.add('iqm-mesh-triangle-range', o + 16, label, () => `${label()}: triangles ${ft}..${ft + nt - 1} are past num_triangles ${numTris}: engines refuse the file or draw garbage`);
      meshFirstT[m] = Math.min(ft, numTris);
      meshNumT[m] = Math.min(nt, numTris - meshFirstT[m]);
      if (nt === 0) rep.add('iqm-mesh-empty', o + 20, label, () => `${label()} has no triangles${nv === 0 ? ' and no vertices' : ''}: engines draw nothing for it`);
      const over = rendererLimit(nv, nt);
      if (over) rep.add('iqm-mesh-renderer-limit', over === 'vertices' ? o + 12 : o + 20, label, () => `${label()}: ${rendererLimitText('R_LoadIQM', nm, nv, nt, over)}`);
      if (material === '') rep.add('iqm-mesh-material-empty', o + 4, label, () => `${label()} has no material name: engines draw it with their default (missing) texture unless a skin names one`);
    }
    overlapRanges(meshFirstV, meshNumV, (a, b) => rep.add('iqm-mesh-vertex-overlap', ofsMeshes + b * IQM_RECORD.mesh + 8, `mesh ${b}`, `mesh ${b} ${quotedName(meshNames[b])} shares vertices with mesh ${a} ${quotedName(meshNames[a])}: engines skin and draw them for both; iqm-tools' reader refuses the file`));
    overlapRanges(meshFirstT, meshNumT, (a, b) => rep.add('iqm-mesh-triangle-overlap', ofsMeshes + b * IQM_RECORD.mesh + 16, `mesh ${b}`, `mesh ${b} ${quotedName(meshNames[b])} shares triangles with mesh ${a} ${quotedName(meshNames[a])}: engines draw them twice (z-fighting); iqm-tools' reader refuses the file`));
  } else if (numMeshes > 0) rep.note('meshes not checked: the mesh table is not inside the file');
  // Which mesh a global vertex or triangle is in, for messages.
  const meshOf = (first: Uint32Array, count: Uint32Array, i: number): number => {
    for (let m = 0; m < first.length; m++) if (i >= first[m] && i < first[m] + count[m]) return m;
    return -1;
  };
  const vertexWhere = (v: number) => {
    const m = meshOf(meshFirstV, meshNumV, v);
    return m < 0 ? `vertex ${v} (in no mesh)` : `mesh ${m} ${quotedName(meshNames[m])}, vertex ${v}`;
  };
  const triangleWhere = (t: number) => {
    const m = meshOf(meshFirstT, meshNumT, t);
    return m < 0 ? `triangle ${t} (in no mesh)` : `mesh ${m} ${quotedName(meshNames[m])}, triangle ${t}`;
  };

  // --- Vertex array headers and their data blocks ---
  const arrays: ArrayInfo[] = [];
  const byType = new Map<number, ArrayInfo>();
  if (readable.has('vertex arrays')) {
    for (let i = 0; i < numArrays; i++) {
      const o = ofsArrays + i * IQM_RECORD.vertexArray;
      const type = u(o), format = u(o + 8), size = u(o + 12), offset = u(o + 16);
      let label: string;
      if (type >= IQM_CUSTOM) label = `vertex array ${i} (custom ${quotedName(name(type - IQM_CUSTOM, o, () => `vertex array ${i}`) ?? '?')})`;
      else if (type < TYPE_NAMES.length) label = `vertex array ${i} (${TYPE_NAMES[type]})`;
      else {
        rep.add('iqm-array-type-reserved', o, `vertex array ${i}`, `vertex array ${i} has the reserved type ${type}: engines skip it`);
        continue;
      }
      if (format > IQM_DOUBLE) {
        rep.add('iqm-array-format', o + 8, label, `${label}: format ${format} is not one of the 9 IQM formats: engines refuse the file or skip the array`);
        continue;
      }
      if (size < 1 || size > 4) {
        rep.add('iqm-array-size', o + 12, label, `${label}: ${size} components per vertex (1 to 4 exist): engines refuse the file or skip the array`);
        continue;
      }
      const info: ArrayInfo = { index: i, type, label, format, size, offset, readable: false };
      info.readable = place(label, offset, numVerts * size, FORMAT_SIZES[format], o + 16, Math.max(4, FORMAT_SIZES[format]));
      arrays.push(info);
      if (type >= IQM_CUSTOM) continue;
      if (byType.has(type)) {
        rep.add('iqm-array-duplicate', o, label, `${label} is a second ${TYPE_NAMES[type]} array: engines use one of them (iqm-tools the first) and ignore the other`);
        continue;
      }
      byType.set(type, info);
      if (size !== STANDARD_SIZE[type]) rep.add('iqm-array-components', o + 12, label, `${label} has ${size} components per vertex, engines read ${STANDARD_SIZE[type]}: DarkPlaces skips the array, raylib misreads it`);
      else if (!STANDARD_FORMATS[type].includes(format)) rep.add('iqm-array-format-unusual', o + 8, label, `${label} is ${FORMAT_NAMES[format]}; engines read ${STANDARD_FORMATS[type].map((f) => FORMAT_NAMES[f]).join(' or ')} (DarkPlaces skips the array, raylib reads it in its fixed layout whatever it declares)`);
    }
  } else if (numArrays > 0) rep.note('vertex data not checked: the vertex array table is not inside the file');
  if (numVerts > 0 && readable.has('vertex arrays') && !byType.has(IQM_POSITION) && !arrays.some((a) => a.type === IQM_POSITION)) {
    rep.add('iqm-position-missing', H.num_vertexarrays, 'vertex arrays', `${numVerts} vertices but no position array: engines refuse the file or draw nothing`);
  }
  if (byType.has(IQM_BLENDINDEXES) !== byType.has(IQM_BLENDWEIGHTS)) {
    const has = byType.get(IQM_BLENDINDEXES) ?? byType.get(IQM_BLENDWEIGHTS);
    rep.add('iqm-blend-incomplete', ofsArrays + (has?.index ?? 0) * IQM_RECORD.vertexArray, has?.label ?? 'vertex arrays', `blend ${byType.has(IQM_BLENDINDEXES) ? 'indexes without weights' : 'weights without indexes'}: engines do not skin the mesh (it stays in its bind pose)`);
  }

  // Overlapping blocks (the header counts as one).
  blocks.sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < blocks.length; i++) {
    const a = blocks[i - 1], b = blocks[i];
    if (a.offset + a.bytes > b.offset) rep.add('iqm-block-overlap', b.field, b.name, `${b.name} (at ${b.offset}) overlaps ${a.name} (${a.offset}..${a.offset + a.bytes - 1}): the same bytes are read as both; engines draw or animate garbage`);
  }

  // --- Vertex data ---
  checkVertexData(view, arrays, numVerts, rep, vertexWhere);

  // --- Triangles ---
  const trisOk = readable.has('triangles');
  // Vertices have data only in the arrays: more vertices than the file has bytes cannot be (an array
  // past the file or the missing position array says so), and per-vertex checks are skipped.
  const vertexCount = numVerts <= length ? numVerts : 0;
  if (vertexCount !== numVerts) rep.note(`per-vertex checks skipped: num_vertexes ${numVerts} is more than the file has bytes`);
  const usedVertex = new Uint8Array(vertexCount);
  const triangleInRange = new Uint8Array(trisOk ? numTris : 0);
  if (trisOk && vertexCount === numVerts) {
    const owner = new Int32Array(numTris).fill(-1);
    // A triangle two meshes claim (reported above) belongs to the first.
    for (let m = meshCount - 1; m >= 0; m--) for (let t = meshFirstT[m]; t < meshFirstT[m] + meshNumT[m]; t++) owner[t] = m;
    const tri = uint32s(bytes, ofsTris, numTris * 3);
    // Triangles with three different vertices in range: the ones a duplicate is looked for among.
    const distinct = new Uint8Array(numTris);
    // Reports in functions of their own (no closure in the loop's body: see checkVertexData).
    const triangleIssue = (code: 'iqm-triangle-index' | 'iqm-triangle-outside-mesh' | 'iqm-triangle-degenerate', t: number, text: string) => rep.add(code, ofsTris + t * 12, () => triangleWhere(t), () => `${triangleWhere(t)}${text}`);
    const unusedVertex = (v: number) => rep.add('iqm-vertex-unused', meshVertexOffset(byType.get(IQM_POSITION), v), () => vertexWhere(v), () => `${vertexWhere(v)} is used by no triangle: engines skin it every frame for nothing, and it widens the bounds`);
    for (let t = 0; t < numTris; t++) {
      const o = ofsTris + t * 12;
      const a = tri[t * 3], b = tri[t * 3 + 1], c = tri[t * 3 + 2];
      if (a >= numVerts || b >= numVerts || c >= numVerts) {
        for (const x of [a, b, c]) if (x < numVerts) usedVertex[x] = 1;
        const bad = a >= numVerts ? a : b >= numVerts ? b : c;
        triangleIssue('iqm-triangle-index', t, `: vertex index ${bad} is past num_vertexes ${numVerts}: engines read past the vertex buffer (garbage or a crash)`);
        continue;
      }
      triangleInRange[t] = 1;
      usedVertex[a] = usedVertex[b] = usedVertex[c] = 1;
      const m = owner[t];
      if (m < 0) rep.add('iqm-triangle-unowned', o, `triangle ${t}`, `triangle ${t} is in no mesh: engines never draw it`);
      else {
        const lo = meshFirstV[m], hi = lo + meshNumV[m];
        if (a < lo || a >= hi || b < lo || b >= hi || c < lo || c >= hi) triangleIssue('iqm-triangle-outside-mesh', t, ` uses vertex ${a < lo || a >= hi ? a : b < lo || b >= hi ? b : c}, outside its mesh's vertices ${lo}..${hi - 1}: engines that draw a mesh's vertex range alone (FTE's per-mesh buffers) show it wrong`);
      }
      if (a === b || b === c || a === c) {
        triangleIssue('iqm-triangle-degenerate', t, ` repeats a vertex (${a}, ${b}, ${c}): it draws nothing and breaks adjacency and tangents`);
        continue;
      }
      distinct[t] = 1;
    }
    eachDuplicateTriangle(tri, distinct, numVerts, (t, first) => rep.add('iqm-triangle-duplicate', ofsTris + t * 12, () => triangleWhere(t), () => `${triangleWhere(t)} has the same vertices as triangle ${first}: it is drawn twice (z-fighting when its winding differs)`));
    for (let v = 0; v < numVerts; v++) if (!usedVertex[v]) unusedVertex(v);
  }

  // --- Adjacency ---
  if (trisOk && ofsAdj !== 0 && readable.has('adjacency')) {
    // Neighbours across a seam share the edge's positions, not its vertices.
    const position = readFloats(view, byType.get(IQM_POSITION), numVerts, 3);
    for (let t = 0; t < numTris; t++) {
      for (let e = 0; e < 3; e++) {
        const o = ofsAdj + t * 12 + e * 4;
        const n = u(o);
        if (n === 0xffffffff) continue;
        if (n >= numTris) {
          rep.add('iqm-adjacency-index', o, () => `${triangleWhere(t)}, edge ${e}`, () => `${triangleWhere(t)}, edge ${e}: neighbour ${n} is past num_triangles ${numTris} (0xFFFFFFFF marks no neighbour): shadow-volume code reads past the triangles`);
          continue;
        }
        if (!triangleInRange[t] || !triangleInRange[n]) continue;
        const a = u(ofsTris + t * 12 + e * 4), b = u(ofsTris + t * 12 + ((e + 1) % 3) * 4);
        if (n === t || !sharesEdge(view, ofsTris + n * 12, a, b, position)) {
          rep.add('iqm-adjacency-mismatch', o, () => `${triangleWhere(t)}, edge ${e}`, () => `${triangleWhere(t)}, edge ${e} (vertices ${a}, ${b}): the adjacency names triangle ${n}, which does not have that edge: stencil shadows and silhouettes built from it are wrong`);
        }
      }
    }
  }

  // --- Joints ---
  const jointsOk = readable.has('joints');
  const jointParents = new Int32Array(jointsOk ? numJoints : 0);
  const jointNames: string[] = [];
  if (jointsOk) {
    const seenNames = new Map<string, number>();
    for (let j = 0; j < numJoints; j++) {
      const o = ofsJoints + j * jointSize;
      const nm = name(u(o), o, () => `joint ${j}`) ?? '';
      jointNames.push(nm);
      const label = () => `joint ${j} ${quotedName(nm)}`;
      const parent = view.getInt32(o + 4, true);
      jointParents[j] = parent < 0 ? -1 : parent;
      const first = seenNames.get(nm);
      if (first !== undefined && nm !== '') rep.add('iqm-joint-name-duplicate', o, label, () => `${label()} has the name of joint ${first}: engines that find joints by name (tags, attachments, bone controllers) take the first`);
      else seenNames.set(nm, j);
      const trs: number[] = [];
      for (let k = 0; k < (v1 ? 9 : 10); k++) trs.push(view.getFloat32(o + 8 + k * 4, true));
      if (trs.some((x) => !Number.isFinite(x))) {
        rep.add('iqm-joint-nonfinite', o + 8, label, () => `${label()}: its bind pose has NaN or an infinity (${trs.map((x) => String(x)).join(' ')}): every vertex it moves vanishes or streaks across the screen`);
        continue;
      }
      const q2 = trs[3] * trs[3] + trs[4] * trs[4] + trs[5] * trs[5] + (v1 ? 0 : trs[6] * trs[6]);
      if (v1 ? q2 > 1 + 1e-3 : Math.abs(Math.sqrt(q2) - 1) > 1e-3) rep.add('iqm-joint-quat', o + 20, label, () => `${label()}: the bind rotation quaternion has length ${Math.sqrt(q2).toFixed(4)}${v1 ? ' (version 1 stores x y z: their length must not pass 1)' : ''}: loaders that do not normalise it scale and skew what it moves`);
      const s = v1 ? trs.slice(6, 9) : trs.slice(7, 10);
      if (s.some((x) => x === 0)) rep.add('iqm-joint-scale-zero', o + (v1 ? 32 : 36), label, () => `${label()}: its bind scale has a zero (${s.join(' ')}): the bind matrix cannot be inverted; engines collapse or explode what it moves`);
    }
    // A cycle always has a parent after its child: reported as the cycle alone.
    const cyclic = hasCycle(jointParents);
    parentChainChecks(jointParents, numJoints, (j, p) => {
      const o = ofsJoints + j * jointSize + 4;
      const label = `joint ${j} ${quotedName(jointNames[j])}`;
      if (p >= numJoints) rep.add('iqm-joint-parent-range', o, label, `${label}: parent ${p} is past num_joints ${numJoints}: engines read a joint from past the table (a crash or garbage)`);
      else if (cyclic < 0) rep.add('iqm-joint-parent-order', o, label, `${label}: its parent ${p} comes after it: DarkPlaces refuses the file; loaders that compose joints in file order use the parent before it is posed`);
    });
    if (cyclic >= 0) rep.add('iqm-joint-cycle', ofsJoints + cyclic * jointSize + 4, `joint ${cyclic} ${quotedName(jointNames[cyclic])}`, `joint ${cyclic} ${quotedName(jointNames[cyclic])} is its own ancestor: engines loop forever or compose garbage`);
  }

  // --- Poses and frame channels ---
  const posesOk = readable.has('poses');
  const poseCount = posesOk ? numPoses : 0;
  const poseMask = new Uint32Array(poseCount);
  const poseOffset = new Float32Array(poseCount * 10), poseScale = new Float32Array(poseCount * 10);
  let maskBits = 0;
  let posesFinite = true;
  if (posesOk) {
    const parents = new Int32Array(numPoses);
    for (let p = 0; p < numPoses; p++) {
      const o = ofsPoses + p * poseSize;
      const label = `pose ${p}${p < jointNames.length ? ` (joint ${quotedName(jointNames[p])})` : ''}`;
      const parent = view.getInt32(o, true);
      parents[p] = parent < 0 ? -1 : parent;
      if (jointsOk && p < numJoints && parents[p] !== jointParents[p] && parents[p] < numPoses && jointParents[p] < numJoints) rep.add('iqm-pose-parent-mismatch', o, label, `${label}: parent ${parents[p]}, its joint's parent is ${jointParents[p]}: engines animate with one hierarchy and bind with the other (limbs detach)`);
      const mask = u(o + 4);
      if (mask >>> channelsPerPose !== 0) rep.add('iqm-pose-mask-reserved', o + 4, label, `${label}: channel mask 0x${mask.toString(16)} sets bits past the ${channelsPerPose} channels: engines that count set bits read more frame data than the pose owns`);
      for (let c = 0; c < channelsPerPose; c++) {
        const dc = v1 && c >= 6 ? c + 1 : c;
        poseOffset[p * 10 + dc] = view.getFloat32(o + 8 + c * 4, true);
        poseScale[p * 10 + dc] = view.getFloat32(o + 8 + channelsPerPose * 4 + c * 4, true);
        if (mask & (1 << c)) {
          poseMask[p] |= 1 << dc;
          maskBits++;
        }
      }
      let bad = -1;
      for (let c = 0; c < 10; c++) if (!Number.isFinite(poseOffset[p * 10 + c]) || !Number.isFinite(poseScale[p * 10 + c])) bad = c;
      if (bad >= 0) {
        posesFinite = false;
        rep.add('iqm-pose-nonfinite', o + 8, label, `${label}: channel ${bad}'s offset or scale is NaN or an infinity: every frame of it is garbage`);
      }
    }
    const cyclic = hasCycle(parents);
    parentChainChecks(parents, numPoses, (p, parent) => {
      const o = ofsPoses + p * poseSize;
      if (parent >= numPoses) rep.add('iqm-pose-parent-range', o, `pose ${p}`, `pose ${p}: parent ${parent} is past num_poses ${numPoses}: engines read a pose from past the table`);
      else if (cyclic < 0 && !(jointsOk && p < numJoints && jointParents[p] === parent)) rep.add('iqm-pose-parent-order', o, `pose ${p}`, `pose ${p}: its parent ${parent} comes after it: engines that compose frames in file order use the parent before it is posed`);
    });
    if (cyclic >= 0 && !(jointsOk && cyclic < numJoints && hasCycle(jointParents) >= 0)) rep.add('iqm-pose-cycle', ofsPoses + cyclic * poseSize, `pose ${cyclic}`, `pose ${cyclic} is its own ancestor: engines loop forever or compose garbage`);
    if (numJoints > 0 && numPoses > 0 && numJoints !== numPoses) rep.add('iqm-pose-count', H.num_poses, 'header', `num_poses ${numPoses} is not num_joints ${numJoints}: ioquake3 and FTE refuse the file; loaders that accept it animate only the first ${Math.min(numJoints, numPoses)} joints`);
    if (numFrames > 0 && maskBits > numChannels) rep.add('iqm-framechannels-short', H.num_framechannels, 'header', `the poses animate ${maskBits} channels but num_framechannels is ${numChannels}: engines read each frame's data from the next frame's and past the end`);
    else if (numFrames > 0 && maskBits < numChannels) rep.add('iqm-framechannels-extra', H.num_framechannels, 'header', `num_framechannels ${numChannels} is more than the ${maskBits} channels the poses animate: engines that step frames by the channels they read drift into the next frame`);
  }
  if (numFrames > 0 && numPoses === 0) rep.add('iqm-frames-without-poses', H.num_frames, 'header', `${numFrames} frames but no poses: there is nothing for them to animate`);

  // --- Frames: every decoded channel finite, rotations unit ---
  const badFrames = new Set<number>();
  if (posesOk && posesFinite && readable.has('frames') && numFrames > 0 && maskBits === numChannels) {
    const local = new Float32Array(10);
    // Without channels every frame is the poses' offsets: one frame says it all.
    const decoded = numChannels === 0 ? 1 : numFrames;
    for (let f = 0; f < decoded; f++) {
      let s = ofsFrames + f * numChannels * 2;
      for (let p = 0; p < numPoses; p++) {
        const mask = poseMask[p];
        // A pose whose rotation is not animated decodes to the same rotation in every frame: checked once.
        if (f > 0 && mask === 0) continue;
        const channelBase = (s - ofsFrames - f * numChannels * 2) / 2;
        for (let c = 0; c < 10; c++) {
          let x = poseOffset[p * 10 + c];
          if (mask & (1 << c)) {
            x += view.getUint16(s, true) * poseScale[p * 10 + c];
            s += 2;
          }
          local[c] = x;
        }
        let bad = -1;
        for (let c = 0; c < 10; c++) if (!Number.isFinite(local[c])) bad = c;
        if (bad >= 0) {
          badFrames.add(f);
          rep.add('iqm-frame-nonfinite', ofsFrames + f * numChannels * 2 + channelBase * 2, `frame ${f}, pose ${p}`, () => `frame ${f}, pose ${p}, channel ${bad}: the decoded value is not finite: the model vanishes or streaks in that frame`);
          continue;
        }
        if (f > 0 && (mask & 0b1111000) === 0) continue;
        const q2 = local[3] * local[3] + local[4] * local[4] + local[5] * local[5] + (v1 ? 0 : local[6] * local[6]);
        if (v1 ? q2 > 1.02 : Math.abs(Math.sqrt(q2) - 1) > 0.01) {
          rep.add('iqm-frame-quat', ofsFrames + f * numChannels * 2 + channelBase * 2, `frame ${f}, pose ${p}`, () => `frame ${f}, pose ${p}${p < jointNames.length ? ` (joint ${quotedName(jointNames[p])})` : ''}: the rotation quaternion has length ${Math.sqrt(q2).toFixed(4)}: loaders that do not normalise it scale and skew the limb in that frame`);
        }
      }
    }
  }

  // --- Animations ---
  if (readable.has('animations')) {
    const seen = new Map<string, number>();
    for (let i = 0; i < numAnims; i++) {
      const o = ofsAnims + i * IQM_RECORD.anim;
      const nm = name(u(o), o, () => `animation ${i}`) ?? '';
      const label = `animation ${i} ${quotedName(nm)}`;
      const first = u(o + 4), count = u(o + 8), rate = view.getFloat32(o + 12, true), flags = u(o + 16);
      if (first + count > numFrames) rep.add('iqm-anim-range', o + 4, label, `${label}: frames ${first}..${first + count - 1} run past num_frames ${numFrames} (${numFrames > 0 ? `frames 0..${numFrames - 1}` : 'no frames'}): engines play frames from past the frame data (garbage or a crash)`);
      if (count === 0) rep.add('iqm-anim-empty', o + 8, label, `${label} has no frames: engines cannot play it (some divide by its length)`);
      if (!(rate > 0) || !Number.isFinite(rate)) rep.add('iqm-anim-framerate', o + 12, label, `${label}: frame rate ${rate}: engines that play by the file's rate freeze on its first frame or divide by zero`);
      if ((flags & ~IQM_LOOP) !== 0) rep.add('iqm-anim-flags', o + 16, label, `${label}: flags 0x${flags.toString(16)} set bits other than IQM_LOOP (1): engines ignore them`);
      const dupOf = seen.get(nm);
      if (dupOf !== undefined) rep.add('iqm-anim-name-duplicate', o, label, `${label} has the name of animation ${dupOf}: engines that play animations by name play the first`);
      else seen.set(nm, i);
    }
  }
  if (numFrames > 0 && numAnims === 0 && numMeshes > 0) rep.add('iqm-frames-no-anims', H.num_anims, 'header', `${numFrames} frames but no animation names them: engines show only the bind pose unless a .framegroups file or the game's code plays them`);

  // --- Bounds ---
  if (ofsBounds !== 0 && numFrames > 0 && readable.has('bounds')) {
    const stored = new Float32Array(numFrames * 8);
    let usable = true;
    for (let f = 0; f < numFrames; f++) {
      const o = ofsBounds + f * 32;
      for (let k = 0; k < 8; k++) stored[f * 8 + k] = view.getFloat32(o + k * 4, true);
      const b = stored.subarray(f * 8, f * 8 + 8);
      if (b.some((x) => !Number.isFinite(x))) {
        usable = false;
        rep.add('iqm-bounds-nonfinite', o, `frame ${f} bounds`, `frame ${f}: its bounds hold NaN or an infinity: engines cull the model in that frame (it vanishes) or never cull it`);
      } else if (b[0] > b[3] || b[1] > b[4] || b[2] > b[5] || b[6] < 0 || b[7] < 0) {
        usable = false;
        rep.add('iqm-bounds-inverted', o, `frame ${f} bounds`, `frame ${f}: the bounds are inside out (mins ${b[0]} ${b[1]} ${b[2]}, maxs ${b[3]} ${b[4]} ${b[5]}, radii ${b[6]} ${b[7]}): engines cull the model in that frame`);
      }
    }
    // A bind pose that cannot be inverted or is not finite makes every skinned vertex garbage: reported as that.
    if (usable && rep.any(['iqm-joint-scale-zero', 'iqm-joint-nonfinite'])) rep.note('bounds not compared with the skinned vertices: the bind pose is singular or not finite');
    else if (usable) checkIqmBounds(bytes, stored, numFrames, rep, ofsBounds, badFrames);
  }

  // --- Blend data against the skeleton ---
  checkBlend(view, byType.get(IQM_BLENDINDEXES), byType.get(IQM_BLENDWEIGHTS), vertexCount, numJoints > 0 ? (jointsOk ? numJoints : -1) : posesOk ? numPoses : -1, rep, vertexWhere, jointsOk ? jointParents : null, jointNames, (j) => ofsJoints + j * jointSize, usedVertex, trisOk);

  // A name without its NUL is reported as such; a table without a last NUL only where no name runs off it.
  if (textOk && numText > 0 && bytes[ofsText + numText - 1] !== 0 && !rep.has('iqm-text-no-nul')) {
    rep.add('iqm-text-unterminated', ofsText + numText - 1, 'text', 'the text table does not end with a NUL: a loader that reads a name near its end runs past the table');
  }

  // --- Comment and extensions ---
  if (readable.has('comment') && numComment > 0 && bytes[ofsComment + numComment - 1] !== 0) rep.add('iqm-comment-unterminated', ofsComment + numComment - 1, 'comment', 'the comment does not end with a NUL: tools that print it read on past it');
  checkExtensions(view, length, u(H.num_extensions), u(H.ofs_extensions), numMeshes, rep, name);

  if (numMeshes === 0 && numJoints === 0 && numAnims === 0 && numPoses === 0) rep.add('iqm-nothing', H.num_meshes, 'header', 'no meshes, joints, poses or animations: engines load nothing from it');
}

/** `count` little-endian uint32 values at `offset`: a view where aligned (on a little-endian host), else a copy. */
function uint32s(bytes: Uint8Array, offset: number, count: number): Uint32Array {
  // An empty block's offset may point anywhere (even past the file): nothing to view.
  if (count === 0) return new Uint32Array(0);
  const abs = bytes.byteOffset + offset;
  if (HOST_LITTLE_ENDIAN && abs % 4 === 0) return new Uint32Array(bytes.buffer, abs, count);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(offset + i * 4, true);
  return out;
}

/** `count` little-endian floats at `offset` of the view: a view where aligned (on a little-endian host), else a copy. */
function float32s(view: DataView, offset: number, count: number): Float32Array {
  if (count === 0) return new Float32Array(0);
  const abs = view.byteOffset + offset;
  if (HOST_LITTLE_ENDIAN && abs % 4 === 0) return new Float32Array(view.buffer, abs, count);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getFloat32(offset + i * 4, true);
  return out;
}

/** Each pair of overlapping [first, first + count) ranges, reported once per later range. */
function overlapRanges(first: Uint32Array, count: Uint32Array, report: (a: number, b: number) => void): void {
  const order = Array.from(first.keys()).filter((i) => count[i] > 0).sort((a, b) => first[a] - first[b]);
  let reach = -1;
  let owner = -1;
  for (const i of order) {
    if (first[i] < reach) report(owner, i);
    if (first[i] + count[i] > reach) {
      reach = first[i] + count[i];
      owner = i;
    }
  }
}

/** The byte offset of vertex v in an array (its first component), or 0 without it. */
function meshVertexOffset(a: ArrayInfo | undefined, v: number): number {
  return a ? a.offset + v * a.size * FORMAT_SIZES[a.format] : 0;
}

/** A readable array's values as floats (normalised integers as WebGL reads them), `want` per vertex; null when absent or unreadable. */
function readFloats(view: DataView, a: ArrayInfo | undefined, count: number, want: number): Float64Array | null {
  if (!a || !a.readable) return null;
  const out = new Float64Array(count * want);
  const n = Math.min(a.size, want);
  const cs = FORMAT_SIZES[a.format];
  for (let v = 0; v < count; v++) for (let c = 0; c < n; c++) out[v * want + c] = component(view, a.format, a.offset + (v * a.size + c) * cs);
  return out;
}

/** One stored component as a number: floats as they are, half decoded, integers as integers. */
function component(view: DataView, format: number, at: number): number {
  switch (format) {
    case 0: return view.getInt8(at);
    case 1: return view.getUint8(at);
    case 2: return view.getInt16(at, true);
    case 3: return view.getUint16(at, true);
    case 4: return view.getInt32(at, true);
    case 5: return view.getUint32(at, true);
    case IQM_HALF: return halfToFloat(view.getUint16(at, true));
    case IQM_FLOAT: return view.getFloat32(at, true);
    default: return view.getFloat64(at, true);
  }
}

/** The normalising scale of an integer format (WebGL's), 1 for float formats. */
function unitScale(format: number): number {
  return [1 / 127, 1 / 255, 1 / 32767, 1 / 65535, 1 / 2147483647, 1 / 4294967295, 1, 1, 1][format];
}

/** NaN and infinities in float arrays; normals and tangents unit; tangent w ±1. */
function checkVertexData(view: DataView, arrays: readonly ArrayInfo[], numVerts: number, rep: Reporter, where: (v: number) => string): void {
  // The reports are made in functions of their own: a closure in a hot loop's body would make
  // V8 allocate the loop variables it captures on every iteration.
  const nonFinite = (a: ArrayInfo, i: number, p: number, x: number) => {
    const v = Math.floor(i / a.size);
    rep.add('iqm-vertex-nonfinite', p, () => `${where(v)}, ${a.label}`, () => `${where(v)}: ${a.label} component ${i % a.size} is ${x}: the vertex vanishes or streaks across the screen`);
  };
  const notUnit = (a: ArrayInfo, v: number, p: number, len: number) => rep.add(a.type === IQM_NORMAL ? 'iqm-normal-unit' : 'iqm-tangent-unit', p, () => `${where(v)}, ${a.label}`, () => `${where(v)}: the ${a.type === IQM_NORMAL ? 'normal' : 'tangent'} has length ${len.toFixed(4)}: engines that do not renormalise light it too dark or too bright`);
  const tangentW = (a: ArrayInfo, v: number, p: number, w: number) => rep.add('iqm-tangent-w', p, () => `${where(v)}, ${a.label}`, () => `${where(v)}: tangent w is ${w}, not ±1: normal maps are flipped or flattened on it (the bitangent is cross(normal, tangent) × w)`);
  for (const a of arrays) {
    if (!a.readable) continue;
    const cs = FORMAT_SIZES[a.format];
    const isFloat = a.format === IQM_FLOAT || a.format === IQM_HALF || a.format === IQM_DOUBLE;
    if (isFloat) {
      const n = numVerts * a.size;
      if (a.format === IQM_FLOAT) {
        // The hot loop: one typed-array read per value (x - x is NaN for NaN and infinities).
        const f = float32s(view, a.offset, n);
        for (let i = 0, p = a.offset; i < n; i++, p += 4) {
          const x = f[i];
          if (x - x !== 0) nonFinite(a, i, p, x);
        }
      } else {
        for (let i = 0, p = a.offset; i < n; i++, p += cs) {
          const x = component(view, a.format, p);
          if (x - x !== 0) nonFinite(a, i, p, x);
        }
      }
    }
    if ((a.type !== IQM_NORMAL && a.type !== IQM_TANGENT) || a.size < 3) continue;
    // Tolerance: a float is exact to ~1e-6; integer formats to one step each.
    const k = unitScale(a.format);
    const tol = isFloat ? 1e-2 : Math.max(1e-2, 3 * k);
    const f = a.format === IQM_FLOAT ? float32s(view, a.offset, numVerts * a.size) : null;
    for (let v = 0, p = a.offset; v < numVerts; v++, p += a.size * cs) {
      const q = v * a.size;
      const x = f ? f[q] : component(view, a.format, p) * k;
      const y = f ? f[q + 1] : component(view, a.format, p + cs) * k;
      const z = f ? f[q + 2] : component(view, a.format, p + 2 * cs) * k;
      if (x - x !== 0 || y - y !== 0 || z - z !== 0) continue;
      const len = Math.sqrt(x * x + y * y + z * z);
      if (Math.abs(len - 1) > tol) {
        notUnit(a, v, p, len);
      }
      if (a.type === IQM_TANGENT && a.size === 4) {
        const w = f ? f[q + 3] : component(view, a.format, p + 3 * cs) * k;
        if (w === w && Math.abs(Math.abs(w) - 1) > tol) tangentW(a, v, p + 3 * cs, w);
      }
    }
  }
}

/** Blend indexes against the skeleton, weights summing to 1 (255), vertices with no weight, joints nothing uses. */
function checkBlend(
  view: DataView,
  indexes: ArrayInfo | undefined,
  weights: ArrayInfo | undefined,
  numVerts: number,
  skeletonSize: number,
  rep: Reporter,
  where: (v: number) => string,
  jointParents: Int32Array | null,
  jointNames: readonly string[],
  jointOffset: (joint: number) => number,
  usedVertex: Uint8Array,
  trianglesRead: boolean,
): void {
  // skeletonSize -1: the joint (or pose) table is not in the file (reported): nothing to check against.
  if (!indexes?.readable || !weights?.readable || numVerts === 0 || skeletonSize < 0) return;
  if (skeletonSize === 0) {
    rep.add('iqm-blend-without-joints', indexes.offset, indexes.label, 'blend indexes and weights but no joints or poses: engines have nothing to skin with (the model stays in its bind pose)');
    return;
  }
  const n = Math.min(indexes.size, weights.size);
  const ics = FORMAT_SIZES[indexes.format], wcs = FORMAT_SIZES[weights.format];
  const wScale = unitScale(weights.format);
  const ubyteWeights = weights.format === IQM_UBYTE;
  const used = new Uint8Array(skeletonSize);
  // Reports in functions of their own (no closure in the loop's body: see checkVertexData).
  const badIndex = (v: number, at: number, index: number, w: number) => rep.add('iqm-blend-index-range', at, () => where(v), () => `${where(v)}: blend index ${index} (weight ${w.toFixed(3)}) is not a joint (there are ${skeletonSize}): engines read a matrix from past the skeleton (garbage, or a crash on the GPU)`);
  const unweighted = (v: number, at: number, c: number, index: number) => rep.add('iqm-weight-index-unweighted', at, () => where(v), () => `${where(v)}: blend slot ${c} names joint ${index} with weight 0: harmless to engines, but an exporter that writes it usually dropped a weight`);
  const vertexIssue = (code: 'iqm-weight-negative' | 'iqm-weights-zero' | 'iqm-weights-sum', v: number, at: number, text: string) => rep.add(code, at, () => where(v), () => `${where(v)}${text}`);
  // ubyte arrays (what the compiler writes) read straight from the bytes; other formats through component().
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const ubyteIndexes = indexes.format === IQM_UBYTE;
  for (let v = 0; v < numVerts; v++) {
    const ip = indexes.offset + v * indexes.size * ics;
    const wp = weights.offset + v * weights.size * wcs;
    let sum = 0;
    let raw = 0;
    let negative = false;
    for (let c = 0; c < n; c++) {
      const wRaw = ubyteWeights ? bytes[wp + c] : component(view, weights.format, wp + c * wcs);
      const w = wRaw * wScale;
      const index = ubyteIndexes ? bytes[ip + c] : component(view, indexes.format, ip + c * ics);
      if (w < 0) negative = true;
      if (w > 0) {
        sum += w;
        raw += wRaw;
        if (!(index >= 0 && index < skeletonSize && Number.isInteger(index))) {
          badIndex(v, ip + c * ics, index, w);
        } else used[index] = 1;
      } else if (w === 0 && index !== 0) {
        unweighted(v, ip + c * ics, c, index);
      }
    }
    if (negative) {
      vertexIssue('iqm-weight-negative', v, wp, ': a blend weight is negative: engines pull the vertex away from its joints');
      continue;
    }
    if (sum === 0) {
      if (!trianglesRead || usedVertex[v]) vertexIssue('iqm-weights-zero', v, wp, " has no blend weight: in engines' GPU skinning it collapses to the origin (FTE binds it to joint 0)");
      continue;
    }
    // ubyte weights: the IQM compiler makes them sum to exactly 255; a step either way is rounding.
    if (ubyteWeights ? Math.abs(raw - 255) > 2 : Math.abs(sum - 1) > 1e-2) {
      vertexIssue('iqm-weights-sum', v, wp, `: blend weights sum to ${ubyteWeights ? `${raw}/255` : sum.toFixed(4)}, not 1: engines do not renormalise, so the vertex is pulled towards the origin or past its joints`);
    }
  }
  if (!jointParents) return;
  // A joint is used when it weights a vertex or is an ancestor of one that does.
  for (let j = 0; j < jointParents.length; j++) {
    if (!used[j]) continue;
    for (let p = jointParents[j], guard = 0; p >= 0 && p < jointParents.length && !used[p] && guard < jointParents.length; p = jointParents[p], guard++) used[p] = 1;
  }
  for (let j = 0; j < jointParents.length; j++) {
    if (!used[j]) rep.add('iqm-joint-unused', jointOffset(j), `joint ${j} ${quotedName(jointNames[j] ?? '')}`, `joint ${j} ${quotedName(jointNames[j] ?? '')} weights no vertex and is the parent of none that does: engines animate it for nothing (unless the game attaches something to it)`);
  }
}

/** Whether the triangle at `at` has the edge (a, b) in either direction, by index or by position. */
function sharesEdge(view: DataView, at: number, a: number, b: number, position: Float64Array | null): boolean {
  const t = [view.getUint32(at, true), view.getUint32(at + 4, true), view.getUint32(at + 8, true)];
  if (t.includes(a) && t.includes(b)) return true;
  if (!position) return false;
  const same = (x: number, y: number) => position[x * 3] === position[y * 3] && position[x * 3 + 1] === position[y * 3 + 1] && position[x * 3 + 2] === position[y * 3 + 2];
  const count = position.length / 3;
  if (t.some((x) => x >= count)) return false;
  return t.some((x) => same(x, a)) && t.some((x) => same(x, b));
}

/**
 * Stored bounds against the skinned vertices of their frame. Only for a file the reader reads
 * (a broken one is reported above); frames past the budget are sampled evenly, and a note says so.
 */
function checkIqmBounds(bytes: Uint8Array, stored: Float32Array, numFrames: number, rep: Reporter, ofsBounds: number, badFrames: ReadonlySet<number>): void {
  let model;
  try {
    model = readIqm(bytes);
  } catch {
    rep.note('bounds not compared with the skinned vertices: the file does not read as a model');
    return;
  }
  const count = totalVertices(model);
  if (count === 0) return;
  const out = new Float32Array(count * 3);
  const pose = createPose(model);
  const check: BoundsCheck = { xyRadius: true };
  // A frame that decodes to NaN or an infinity is reported as such; its bounds mean nothing.
  for (const f of boundsFrames(numFrames, count, rep, 'skinned vertices', badFrames)) {
    if (model.animation) sampleFrames(model, f, f, 0, pose);
    skinVertices(model, pose, out);
    checkBoundsFrame(out, stored.subarray(f * 8, f * 8 + 8), check, (what, detail) => {
      rep.add(what === 'box' ? 'iqm-bounds-contain' : 'iqm-bounds-radius', ofsBounds + f * 32 + (what === 'box' ? 0 : 24), `frame ${f} bounds`, `frame ${f}: ${detail}: engines cull the model while part of it is still on screen (it pops out at the view's edges)`);
    });
  }
}

function checkExtensions(
  view: DataView,
  length: number,
  numExtensions: number,
  first: number,
  numMeshes: number,
  rep: Reporter,
  name: (offset: number, at: number, where: () => string) => string | null,
): void {
  const seen = new Set<number>();
  let ofs = first;
  // Where the offset of the current extension is stored (what a report points at when it is bad).
  let pointer = H.ofs_extensions;
  let i = 0;
  for (; ofs !== 0; i++) {
    if (i >= numExtensions) {
      rep.add('iqm-extension-count', H.num_extensions, 'header', `num_extensions is ${numExtensions} but the list goes on at offset ${ofs}: engines walk only num_extensions of them`);
      return;
    }
    const label = `extension ${i}`;
    if (seen.has(ofs)) {
      rep.add('iqm-extension-loop', pointer, label, `${label}: the extension list loops back to offset ${ofs}: an engine that walks it to its end never stops`);
      return;
    }
    seen.add(ofs);
    if (ofs < IQM_HEADER_SIZE || ofs + IQM_EXTENSION_HEADER_SIZE > length) {
      rep.add('iqm-block-out-of-file', pointer, label, `${label}: its header at offset ${ofs} is not inside the file after the header: engines read garbage as extensions`);
      return;
    }
    const nm = name(view.getUint32(ofs, true), ofs, () => label);
    const numData = view.getUint32(ofs + 4, true), ofsData = view.getUint32(ofs + 8, true);
    const dataLabel = `${label} ${quotedName(nm ?? '')} data`;
    if (numData > 0 && (ofsData < IQM_HEADER_SIZE || ofsData + numData > length)) {
      rep.add('iqm-block-out-of-file', ofs + 8, dataLabel, `${dataLabel}: ${numData} bytes at offset ${ofsData} run past the end of the file (${length} bytes): engines that use it read past the buffer`);
    } else if (nm !== null && nm.toUpperCase() === 'FTE_MESH' && numData !== FTE_RECORD.mesh * numMeshes) {
      rep.add('iqm-fte-mesh-size', ofs + 4, dataLabel, `${dataLabel}: ${numData} bytes, FTE_MESH has ${FTE_RECORD.mesh} per mesh (${numMeshes} meshes): FTE ignores it or reads past it`);
    }
    pointer = ofs + 12;
    ofs = view.getUint32(ofs + 12, true);
  }
  if (i < numExtensions) rep.add('iqm-extension-count', H.num_extensions, 'header', `num_extensions is ${numExtensions} but the list ends after ${i}: engines that trust the count read garbage as extensions`);
}

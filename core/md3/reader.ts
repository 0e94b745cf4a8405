// MD3 (Quake 3) reader. Layout from md3.txt; little-endian; offsets relative to the MD3 start
// (surface data: to the surface start; the next surface starts at surface start + OFS_END).
//
// Normals: the two bytes after x, y, z are read as ioq3 does (one little-endian uint16):
// byte 6 (low) = zenith, the angle from +Z; byte 7 (high) = azimuth around Z from +X towards +Y;
// each a full turn in 256 steps. x = cos(az)·sin(zen), y = sin(az)·sin(zen), z = cos(zen).
// Checked on the real files (test/unit/model-md3.test.ts, "normal byte order"): with this order the
// decoded vertex normals agree with face normals computed from the geometry (mean cosine ≈ 0.9 or
// better); with the bytes swapped (md3.txt's formula taken literally) they do not (≈ 0).

import { BinaryReader, FormatError } from '../binary';
import { indexMaterials, type Mesh, type Model } from '../model/model';
import { quotedName } from '../names';

/** An MD3 file's (and each surface's) first 4 bytes. */
export const MD3_MAGIC = 'IDP3';

/** Record sizes in bytes (md3.txt): the header, a frame, a tag, a surface header, a shader. */
export const MD3_SIZE = { header: 108, frame: 56, tag: 112, surface: 108, shader: 68 } as const;
const { header: HEADER_SIZE, frame: FRAME_SIZE, tag: TAG_SIZE, surface: SURFACE_SIZE, shader: SHADER_SIZE } = MD3_SIZE;
export const MD3_VERSION = 15;
export const MD3_XYZ_SCALE = 1 / 64;
// Quake 3's MD3_MAX_* (ioq3 qfiles.h). Only Quake 3's tools hold to them; each engine has limits
// of its own (core/engines), so the warning names whose limit it is.
export interface Md3Limit {
  max: number;
  name: string;
}
export const MD3_LIMITS: Readonly<Record<'frames' | 'tags' | 'surfaces' | 'shaders' | 'verts' | 'tris', Md3Limit>> = {
  frames: { max: 1024, name: 'MD3_MAX_FRAMES' },
  tags: { max: 16, name: 'MD3_MAX_TAGS' },
  surfaces: { max: 32, name: 'MD3_MAX_SURFACES' },
  shaders: { max: 256, name: 'MD3_MAX_SHADERS' },
  verts: { max: 4096, name: 'MD3_MAX_VERTS' },
  tris: { max: 8192, name: 'MD3_MAX_TRIANGLES' },
};
export const md3OverLimit = (n: number, what: string, limit: Md3Limit) =>
  `${n} ${what} exceed Quake 3's ${limit.name} of ${limit.max} (other engines differ: iqm-tools lint --engine NAME)`;

/** Decode table: index = the uint16 (byte 6 | byte 7 << 8); 3 floats each. Built once. */
let normalTable: Float32Array | null = null;
export function md3NormalTable(): Float32Array {
  if (normalTable) return normalTable;
  const t = new Float32Array(65536 * 3);
  for (let hi = 0; hi < 256; hi++) {
    const az = (hi * 2 * Math.PI) / 256;
    for (let lo = 0; lo < 256; lo++) {
      const zen = (lo * 2 * Math.PI) / 256;
      const i = (hi << 8) | lo;
      t[i * 3] = Math.cos(az) * Math.sin(zen);
      t[i * 3 + 1] = Math.sin(az) * Math.sin(zen);
      t[i * 3 + 2] = Math.cos(zen);
    }
  }
  normalTable = t;
  return t;
}

export function readMd3(bytes: Uint8Array): Model {
  const warnings: string[] = [];
  if (bytes.byteLength < HEADER_SIZE) throw new FormatError(`truncated MD3 header: ${bytes.byteLength} bytes, the header needs ${HEADER_SIZE}`, bytes.byteLength);
  const r = new BinaryReader(bytes, true);
  if (!r.matches(0, MD3_MAGIC)) throw new FormatError('not an MD3 file (magic is not IDP3)', 0);
  const version = r.i32(4);
  if (version !== MD3_VERSION) warnings.push(`MD3 version ${version}, expected ${MD3_VERSION}`);
  const count = (o: number, what: string, limit: Md3Limit) => {
    const n = r.i32(o);
    if (n < 0) throw new FormatError(`${what} count is negative (${n})`, o);
    if (n > limit.max) warnings.push(md3OverLimit(n, what, limit));
    return n;
  };
  const numFrames = count(76, 'frames', MD3_LIMITS.frames);
  const numTags = count(80, 'tags', MD3_LIMITS.tags);
  const numSurfaces = count(84, 'surfaces', MD3_LIMITS.surfaces);
  const ofsFrames = r.i32(92);
  const ofsTags = r.i32(96);
  const ofsSurfaces = r.i32(100);
  const ofsEof = r.i32(104);
  if (ofsEof !== bytes.byteLength) warnings.push(`OFS_EOF is ${ofsEof} but the file has ${bytes.byteLength} bytes`);

  // Frames.
  r.need(ofsFrames, numFrames, FRAME_SIZE, 'frames');
  const bounds = new Float32Array(numFrames * 8);
  const frameNames: string[] = [];
  for (let f = 0; f < numFrames; f++) {
    const o = ofsFrames + f * FRAME_SIZE;
    for (let k = 0; k < 6; k++) bounds[f * 8 + k] = r.f32(o + k * 4);
    bounds[f * 8 + 6] = NaN; // MD3 has no xy radius
    bounds[f * 8 + 7] = r.f32(o + 36);
    frameNames.push(r.fixedString(o + 40, 16));
  }

  // Tags: frame-major, each [name, origin, axis[3]] -> a 3x4 matrix with the axes as columns.
  r.need(ofsTags, numFrames * numTags, TAG_SIZE, 'tags');
  const tagNames: string[] = [];
  const tagFrames = new Float32Array(numFrames * numTags * 12);
  for (let f = 0; f < numFrames; f++) {
    for (let t = 0; t < numTags; t++) {
      const o = ofsTags + (f * numTags + t) * TAG_SIZE;
      const name = r.fixedString(o, 64);
      if (f === 0) tagNames.push(name);
      else if (name !== tagNames[t]) warnings.push(`frame ${f} tag ${t} is named ${quotedName(name)}, frame 0 calls it ${quotedName(tagNames[t])}`);
      const d = (f * numTags + t) * 12;
      for (let row = 0; row < 3; row++) {
        for (let col = 0; col < 3; col++) tagFrames[d + row * 4 + col] = r.f32(o + 76 + col * 12 + row * 4);
        tagFrames[d + row * 4 + 3] = r.f32(o + 64 + row * 4);
      }
    }
  }

  // Surfaces, walked by OFS_END. `claimed` bounds the decoded size by the file (no shared data).
  const table = md3NormalTable();
  const meshes: Mesh[] = [];
  let claimed = 0;
  let s0 = ofsSurfaces;
  const nameWarnings = new Set<string>();
  for (let s = 0; s < numSurfaces; s++) {
    r.need(s0, 1, SURFACE_SIZE, `surface ${s}`);
    if (!r.matches(s0, MD3_MAGIC)) warnings.push(`surface ${s} does not start with IDP3`);
    const name = r.fixedString(s0 + 4, 64);
    const sc = (o: number, what: string, limit: Md3Limit) => {
      const n = r.i32(s0 + o);
      if (n < 0) throw new FormatError(`surface ${s} ${quotedName(name)}: ${what} count is negative (${n})`, s0 + o);
      if (n > limit.max) nameWarnings.add(`surface ${quotedName(name)}: ${md3OverLimit(n, what, limit)}`);
      return n;
    };
    const sFrames = sc(72, 'frames', MD3_LIMITS.frames);
    const numShaders = sc(76, 'shaders', MD3_LIMITS.shaders);
    const numVerts = sc(80, 'vertices', MD3_LIMITS.verts);
    const numTris = sc(84, 'triangles', MD3_LIMITS.tris);
    const ofsTris = s0 + r.i32(s0 + 88);
    const ofsShaders = s0 + r.i32(s0 + 92);
    const ofsSt = s0 + r.i32(s0 + 96);
    const ofsXyz = s0 + r.i32(s0 + 100);
    const ofsEnd = r.i32(s0 + 104);
    if (sFrames !== numFrames) warnings.push(`surface ${quotedName(name)} has ${sFrames} frames, the header says ${numFrames} (DarkPlaces refuses this)`);
    r.need(ofsShaders, numShaders, SHADER_SIZE, `surface ${s} shaders`);
    r.need(ofsTris, numTris, 12, `surface ${s} triangles`);
    r.need(ofsSt, numVerts, 8, `surface ${s} texcoords`);
    r.need(ofsXyz, sFrames * numVerts, 8, `surface ${s} vertices`);
    claimed += numShaders * SHADER_SIZE + numTris * 12 + numVerts * 8 + sFrames * numVerts * 8;
    if (claimed > r.length) throw new FormatError(`surfaces claim more data than the file has (overlapping surfaces)`, s0);

    const shaders: string[] = [];
    for (let i = 0; i < numShaders; i++) shaders.push(r.fixedString(ofsShaders + i * SHADER_SIZE, 64));
    const indices = new Uint32Array(numTris * 3);
    for (let i = 0; i < numTris * 3; i++) {
      const x = r.i32(ofsTris + i * 4);
      if (x < 0 || x >= numVerts) throw new FormatError(`surface ${quotedName(name)} triangle ${Math.floor(i / 3)}: vertex ${x} outside 0..${numVerts - 1}`, ofsTris + i * 4);
      indices[i] = x;
    }
    const st = new Float32Array(numVerts * 2);
    for (let i = 0; i < numVerts * 2; i++) st[i] = r.f32(ofsSt + i * 4);
    const positions = new Float32Array(sFrames * numVerts * 3);
    const normals = new Float32Array(sFrames * numVerts * 3);
    const view = r.view;
    for (let i = 0, p = ofsXyz; i < sFrames * numVerts; i++, p += 8) {
      positions[i * 3] = view.getInt16(p, true) * MD3_XYZ_SCALE;
      positions[i * 3 + 1] = view.getInt16(p + 2, true) * MD3_XYZ_SCALE;
      positions[i * 3 + 2] = view.getInt16(p + 4, true) * MD3_XYZ_SCALE;
      const n = view.getUint16(p + 6, true) * 3;
      normals[i * 3] = table[n];
      normals[i * 3 + 1] = table[n + 1];
      normals[i * 3 + 2] = table[n + 2];
    }
    const material = shaders[0] ?? '';
    meshes.push({
      name,
      material,
      materialIndex: 0,
      shaders,
      vertexCount: numVerts,
      triangleCount: numTris,
      indices,
      position: sFrames > 0 ? positions.subarray(0, numVerts * 3) : new Float32Array(numVerts * 3),
      normal: sFrames > 0 ? normals.subarray(0, numVerts * 3) : new Float32Array(numVerts * 3),
      texcoord: st,
      tangent: null,
      color: null,
      influences: 0,
      blendIndices: null,
      blendWeights: null,
      dpm: null,
      morph: { frameCount: sFrames, positions, normals },
      groupIds: null,
      custom: [],
    });
    if (ofsEnd < SURFACE_SIZE) {
      if (s + 1 < numSurfaces) throw new FormatError(`surface ${s} ${quotedName(name)}: OFS_END ${ofsEnd} is smaller than a surface header`, s0 + 104);
      break;
    }
    s0 += ofsEnd;
  }
  warnings.push(...nameWarnings);

  return {
    format: 'md3',
    version,
    winding: 'cw',
    upAxis: 'z',
    meshes,
    materials: indexMaterials(meshes),
    skeleton: null,
    animation: null,
    frameCount: numFrames,
    frameNames,
    clips: [],
    tags: { names: tagNames, frames: tagFrames },
    bounds,
    warnings,
    iqm: null,
  };
}

// Generated MD3 and DPM files for the validator's tests: one clean model of each (no issue at all),
// which the tests change to make exactly one problem. Written with the tests' writers (model-writers.ts).

import { writeDpm, writeMd3, type DpmSpec, type Md3Spec } from './model-writers';

/** MD3 positions are int16 in 1/64 units: one unit. */
const U = 64;
/** A normal word pointing up (+Z): zenith byte 0; the azimuth byte is anything (1, so the word is not the "no normal" 0). */
export const MD3_UP = 1 << 8;

/**
 * A unit quad (4 vertices, 2 triangles) in the xy plane in one surface, facing +Z, with 2 frames
 * (frame 1 lifts it one unit up z) and one tag; bounds and radii exact.
 */
export function cleanMd3(): Md3Spec {
  const quad = [0, 0, 0, U, 0, 0, U, U, 0, 0, U, 0];
  const lifted = quad.map((x, i) => (i % 3 === 2 ? x + U : x));
  const tag = { name: 'tag_weapon', origin: [0, 0, 0], axis: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };
  return {
    name: 'models/clean.md3',
    frames: [
      { mins: [0, 0, 0], maxs: [1, 1, 0], origin: [0, 0, 0], radius: Math.SQRT2, name: 'frame0' },
      { mins: [0, 0, 1], maxs: [1, 1, 1], origin: [0, 0, 0], radius: Math.sqrt(3), name: 'frame1' },
    ],
    tags: [[{ ...tag }], [{ ...tag }]],
    surfaces: [{
      name: 'body',
      shaders: ['models/clean/body'],
      triangles: [0, 1, 2, 0, 2, 3],
      st: [0, 0, 1, 0, 1, 1, 0, 1],
      xyz: [quad, lifted],
      normals: [[MD3_UP, MD3_UP, MD3_UP, MD3_UP], [MD3_UP, MD3_UP, MD3_UP, MD3_UP]],
    }],
  };
}

/** The clean MD3 written after `change` (to a fresh copy of it). */
export function md3With(change: (spec: Md3Spec) => void): Uint8Array {
  const spec = cleanMd3();
  change(spec);
  return writeMd3(spec);
}

/** MD3 header fields (md3.txt), byte offsets. */
export const MD3_FIELD = { version: 4, numFrames: 76, numTags: 80, numSurfaces: 84, ofsFrames: 92, ofsTags: 96, ofsSurfaces: 100, ofsEof: 104 } as const;
/** MD3 surface header fields, from the surface's start. */
export const MD3_SURFACE_FIELD = { numFrames: 72, numShaders: 76, numVerts: 80, numTris: 84, ofsTris: 88, ofsShaders: 92, ofsSt: 96, ofsXyz: 100, ofsEnd: 104 } as const;

/** A little-endian int32 of an MD3 file. */
export function md3Int(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getInt32(at, true);
}

/** Writes a little-endian int32 into an MD3 file. */
export function md3Poke(bytes: Uint8Array, at: number, value: number): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setInt32(at, value, true);
  return bytes;
}

/** A row-major 3x4 matrix translating by (x, y, z). */
const translate = (x: number, y: number, z: number) => [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z];

/**
 * A unit quad in the xy plane in one mesh, skinned to 2 bones ("root" and its child "tip", one unit
 * up y; one influence per vertex), with 2 frames: frame 1 moves "tip" +1 along x (vertices 2 and 3
 * follow). Bone matrices are parent-relative; origins pre-weighted in their bone's space.
 */
export function cleanDpm(): DpmSpec {
  const up = [0, 0, 1];
  const inf = (bone: number, origin: number[]) => [{ origin, influence: 1, normal: up, bone }];
  return {
    bones: [{ name: 'root', parent: -1, flags: 0 }, { name: 'tip', parent: 0, flags: 0 }],
    meshes: [{
      shader: 'models/clean/body',
      verts: [inf(0, [0, 0, 0]), inf(0, [1, 0, 0]), inf(1, [1, 0, 0]), inf(1, [0, 0, 0])],
      texcoords: [0, 0, 1, 0, 1, 1, 0, 1],
      indices: [0, 1, 2, 0, 2, 3],
      groupIds: null,
    }],
    frames: [
      { name: 'idle 0', bounds: [0, 0, 0, 1, 1, 0, Math.SQRT2, Math.SQRT2], matrices: [...translate(0, 0, 0), ...translate(0, 1, 0)] },
      { name: 'idle 1', bounds: [0, 0, 0, 2, 1, 0, Math.sqrt(5), Math.sqrt(5)], matrices: [...translate(0, 0, 0), ...translate(1, 1, 0)] },
    ],
  };
}

/** The clean DPM written after `change` (to a fresh copy of it). */
export function dpmWith(change: (spec: DpmSpec) => void): Uint8Array {
  const spec = cleanDpm();
  change(spec);
  return writeDpm(spec);
}

/** DPM header fields (dpmodel.txt), byte offsets. */
export const DPM_FIELD = { type: 16, filesize: 20, numBones: 56, numMeshes: 60, numFrames: 64, ofsBones: 68, ofsMeshes: 72, ofsFrames: 76 } as const;

/** A big-endian uint32 (int32 when negative) of a DPM file. */
export function dpmInt(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, false);
}

/** Writes a big-endian uint32 (int32 when negative) into a DPM file. */
export function dpmPoke(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  if (value < 0) v.setInt32(at, value, false);
  else v.setUint32(at, value, false);
  return bytes;
}

export { translate as dpmTranslate };

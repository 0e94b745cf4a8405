// Generated MD3, DPM and glTF sample models, written with the project's test writers
// (test/helpers/model-writers.ts, test/helpers/gltf-writer.ts). Bundled and run by scripts/make-examples.mjs (examples/) and
// scripts/make-vscode-fixtures.mjs (the in-editor suite's workspace):
//   node out/scripts/make-examples.cjs OUTDIR            examples: bending-pyramid.md3, skinned-column.dpm, bending-tube.glb
//   node out/scripts/make-examples.cjs OUTDIR --fixtures preview.md3, preview-box.md3, preview.dpm,
//                                                        preview.glb, preview-broken.glb (a joint index past the skin),
//                                                        validation-broken.iqm (two problems for the validator)
//                                                        gzdoom-mod/ (test/helpers/modeldef-mod.ts: a MODELDEF with planted problems)
// Everything is generated (no third-party content) and deterministic.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeDpm, writeMd3, type DpmSpec, type Md3Spec } from '../test/helpers/model-writers';
import { makeGltf } from '../test/helpers/gltf-writer';
import { iqmWith } from '../test/helpers/validate-fixtures';
import { modeldefModFiles } from '../test/helpers/modeldef-mod';

type Vec3 = [number, number, number];

/** MD3 normal: low byte the angle from +Z, high byte the angle around Z (0..255 for a full turn). */
function md3Normal([x, y, z]: Vec3): number {
  const l = Math.hypot(x, y, z) || 1;
  const polar = Math.round((Math.acos(Math.max(-1, Math.min(1, z / l))) * 255) / (2 * Math.PI)) & 255;
  const azimuth = Math.round((Math.atan2(y, x) * 255) / (2 * Math.PI)) & 255;
  return polar | (azimuth << 8);
}

function faceNormal(a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  // Clockwise front faces (Quake convention): the normal is v x u.
  return [v[1] * u[2] - v[2] * u[1], v[2] * u[0] - v[0] * u[2], v[0] * u[1] - v[1] * u[0]];
}

/** Axis (rows) of a rotation by `angle` about Y, then `lean` about X. */
function axisYX(angle: number, lean: number): number[][] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const cl = Math.cos(lean);
  const sl = Math.sin(lean);
  // forward (x), left (y), up (z) of the rotated frame
  return [
    [c, 0, -s],
    [s * sl, cl, c * sl],
    [s * cl, -sl, c * cl],
  ];
}

function bounds(points: Vec3[]): { mins: Vec3; maxs: Vec3; radius: number } {
  const mins: Vec3 = [Infinity, Infinity, Infinity];
  const maxs: Vec3 = [-Infinity, -Infinity, -Infinity];
  let radius = 0;
  for (const p of points) {
    for (let k = 0; k < 3; k++) {
      mins[k] = Math.min(mins[k], p[k]);
      maxs[k] = Math.max(maxs[k], p[k]);
    }
    radius = Math.max(radius, Math.hypot(...p));
  }
  return { mins, maxs, radius };
}

/**
 * A flat-shaded solid whose faces are `faces` (clockwise seen from outside) over `corners(frame)`,
 * as one MD3 surface, with `frameCount` frames and the tags tag_weapon and tag_head.
 */
function md3Solid(name: string, frameCount: number, corners: (f: number) => Vec3[], faces: number[][]): Md3Spec {
  const triangles: number[] = [];
  const st: number[] = [];
  const faceCorners: number[] = [];
  for (const face of faces) {
    const first = faceCorners.length;
    face.forEach((corner, i) => {
      faceCorners.push(corner);
      st.push(i === 1 || i === 2 ? 1 : 0, i >= 2 ? 1 : 0);
    });
    for (let i = 1; i + 1 < face.length; i++) triangles.push(first, first + i, first + i + 1);
  }
  const frames: Md3Spec['frames'] = [];
  const tags: Md3Spec['tags'] = [];
  const xyz: number[][] = [];
  const normals: number[][] = [];
  for (let f = 0; f < frameCount; f++) {
    const c = corners(f);
    const phase = (2 * Math.PI * f) / frameCount;
    const { mins, maxs, radius } = bounds(c);
    frames.push({ mins, maxs, origin: [0, 0, 0], radius, name: `bend ${f}` });
    const top = c[c.length - 1];
    tags.push([
      { name: 'tag_weapon', origin: [12 + 4 * Math.sin(phase), -6, 8 + 3 * Math.cos(phase)], axis: axisYX(0.5 * Math.sin(phase), 0) },
      { name: 'tag_head', origin: [top[0], top[1], top[2] + 2], axis: axisYX(0.35 * Math.sin(phase), 0.2 * Math.cos(phase)) },
    ]);
    const positions: number[] = [];
    const frameNormals: number[] = [];
    for (const face of faces) {
      const n = faceNormal(c[face[0]], c[face[1]], c[face[2]]);
      for (const corner of face) {
        positions.push(...c[corner].map((x) => Math.round(x * 64)));
        frameNormals.push(md3Normal(n));
      }
    }
    xyz.push(positions);
    normals.push(frameNormals);
  }
  return { name, frames, tags, surfaces: [{ name: 'body', shaders: ['models/examples/body'], triangles, st, xyz, normals }] };
}

/** A square pyramid (16 units wide, 24 high) whose apex sways over `frameCount` frames. */
export function pyramidMd3Spec(frameCount = 10): Md3Spec {
  const corners = (f: number): Vec3[] => {
    const phase = (2 * Math.PI * f) / frameCount;
    return [
      [-8, -8, 0],
      [8, -8, 0],
      [8, 8, 0],
      [-8, 8, 0],
      [10 * Math.sin(phase), 4 * Math.sin(2 * phase), 24 - 3 * Math.abs(Math.sin(phase))],
    ];
  };
  // Base seen from below, four sides seen from outside; all clockwise.
  const faces = [[0, 1, 2, 3], [0, 4, 1], [1, 4, 2], [2, 4, 3], [3, 4, 0]];
  return md3Solid('bending-pyramid', frameCount, corners, faces);
}

/** A box (16 x 16 x 20) whose top half leans over `frameCount` frames. */
export function boxMd3Spec(frameCount = 6): Md3Spec {
  const corners = (f: number): Vec3[] => {
    const lean = 6 * Math.sin((2 * Math.PI * f) / frameCount);
    return [
      [-8, -8, 0], [8, -8, 0], [8, 8, 0], [-8, 8, 0],
      [-8 + lean, -8, 20], [8 + lean, -8, 20], [8 + lean, 8, 20], [-8 + lean, 8, 20],
    ];
  };
  const faces = [
    [0, 1, 2, 3], // bottom
    [4, 7, 6, 5], // top
    [0, 4, 5, 1],
    [1, 5, 6, 2],
    [2, 6, 7, 3],
    [3, 7, 4, 0],
  ];
  return md3Solid('leaning-box', frameCount, corners, faces);
}

/** Counts of a written MD3 spec: what the preview reports for it. */
export function md3Counts(spec: Md3Spec): { vertices: number; triangles: number; frames: number; tags: number } {
  let vertices = 0;
  let triangles = 0;
  for (const s of spec.surfaces) {
    vertices += s.st.length / 2;
    triangles += s.triangles.length / 3;
  }
  return { vertices, triangles, frames: spec.frames.length, tags: spec.tags[0]?.length ?? 0 };
}

/**
 * A square column 2 units wide and `height` high along Z, skinned to three bones (root, middle at
 * z=1, tip at z=2), bending about X over `frameCount` frames. Rings of 4 vertices every 0.25.
 */
export function columnDpmSpec(frameCount = 8): DpmSpec {
  const height = 2;
  const rings = 9;
  const bonesZ = [0, 1, 2];
  const square: [number, number][] = [[-0.25, -0.25], [0.25, -0.25], [0.25, 0.25], [-0.25, 0.25]];
  const verts: DpmSpec['meshes'][number]['verts'] = [];
  const texcoords: number[] = [];
  for (let r = 0; r < rings; r++) {
    const z = (height * r) / (rings - 1);
    // Weights by height between neighbouring bones.
    const t = Math.min(bonesZ.length - 1, z);
    const b0 = Math.min(bonesZ.length - 2, Math.floor(t));
    const w1 = t - b0;
    square.forEach(([x, y], i) => {
      const normal = [x * 4, y * 4, 0].map((v) => v / Math.SQRT2);
      const influences = [];
      for (const [bone, w] of [[b0, 1 - w1], [b0 + 1, w1]] as const) {
        if (w <= 0) continue;
        // Origin in the bone's base-pose space, premultiplied by the influence (dpmodel.txt).
        influences.push({ origin: [x * w, y * w, (z - bonesZ[bone]) * w], influence: w, normal: normal.map((v) => v * w), bone });
      }
      verts.push(influences);
      texcoords.push(i / 4, 1 - z / height);
    });
  }
  const indices: number[] = [];
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < 4; s++) {
      const a = r * 4 + s;
      const b = r * 4 + ((s + 1) % 4);
      const c = a + 4;
      const d = b + 4;
      // Counter-clockwise front faces seen from outside: DPM's convention (core/model/model.ts).
      indices.push(a, b, c, b, d, c);
    }
  }
  // Caps: bottom seen from below, top seen from above (counter-clockwise).
  indices.push(0, 2, 1, 0, 3, 2);
  const top = (rings - 1) * 4;
  indices.push(top, top + 1, top + 2, top, top + 2, top + 3);
  const frames: DpmSpec['frames'] = [];
  for (let f = 0; f < frameCount; f++) {
    const a = 0.7 * Math.sin((2 * Math.PI * f) / frameCount);
    const c = Math.cos(a);
    const s = Math.sin(a);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
    // Bone matrices relative to the parent: rows of [R | t].
    const bend = (tz: number) => [1, 0, 0, 0, 0, c, -s, 0, 0, s, c, tz];
    frames.push({ name: `bend_${f + 1}`, bounds: [-2, -2, -0.5, 2, 2, 2.5, 2, 3], matrices: [...identity, ...bend(1), ...bend(1)] });
  }
  return {
    bones: [
      { name: 'root', parent: -1, flags: 0 },
      { name: 'middle', parent: 0, flags: 0 },
      { name: 'tip', parent: 1, flags: 0 },
    ],
    meshes: [{ shader: 'column', verts, texcoords, indices, groupIds: null }],
    frames,
  };
}

export function dpmCounts(spec: DpmSpec): { vertices: number; triangles: number; frames: number; bones: number } {
  let vertices = 0;
  let triangles = 0;
  for (const m of spec.meshes) {
    vertices += m.verts.length;
    triangles += m.indices.length / 3;
  }
  return { vertices, triangles, frames: spec.frames.length, bones: spec.bones.length };
}

function main(argv: string[]): void {
  const out = argv[0] ?? 'examples';
  const fixtures = argv.includes('--fixtures');
  mkdirSync(out, { recursive: true });
  const files: [string, Uint8Array | string][] = fixtures
    ? [
        ['preview.md3', writeMd3(pyramidMd3Spec())],
        ['preview-box.md3', writeMd3(boxMd3Spec())],
        ['preview.dpm', writeDpm(columnDpmSpec())],
        ['preview.glb', makeGltf({ vertices: 320, joints: 6, prop: true }).bytes],
        ['preview-broken.glb', makeGltf({ vertices: 64, around: 8, joints: 3, broken: 'joint-index' }).bytes],
        // The validator's clean model with an animation past the last frame (an error) and frame rate 0 (a warning).
        ['validation-broken.iqm', iqmWith((d) => { d.anims[0].frameCount = 3; d.anims[0].framerate = 0; })],
        ...Object.entries(modeldefModFiles()).map(([name, content]): [string, Uint8Array | string] => [`gzdoom-mod/${name}`, content]),
      ]
    : [
        ['bending-pyramid.md3', writeMd3(pyramidMd3Spec())],
        ['skinned-column.dpm', writeDpm(columnDpmSpec())],
        ['bending-tube.glb', makeGltf({ vertices: 640, joints: 8, prop: true, animations: [{ name: 'Bend', interpolation: 'LINEAR' }, { name: 'Sway', interpolation: 'CUBICSPLINE' }] }).bytes],
      ];
  for (const [name, content] of files) {
    mkdirSync(dirname(join(out, name)), { recursive: true });
    writeFileSync(join(out, name), content);
  }
  console.log(`${files.map(([name]) => name).join(', ')} written to ${out}/`);
}

main(process.argv.slice(2));

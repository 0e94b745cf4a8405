// The glTF 2.0 / GLB reader (core/gltf) through the compile's one entry: the real files of
// ../shared/assets/gltf compile to IQMs that our own reader reads back (joints and animations
// named and counted as in the file, standing up in Z, rigid meshes on their joints, the notes and
// warnings the file calls for), small generated glTFs pin down each rule (axes, winding, frames at
// k / fps from the animation's first key, interpolation, weights, attributes), and every broken
// file is one clear error naming what is wrong and where, with exit 1 and no output from the CLI.
// (The spec-based comparison of skinned positions at every sampled frame is in the sampling test.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compile, type CompileResult } from '../../core/compile/index';
import { gltfSource } from '../../core/gltf/source';
import { evaluate } from '../../core/gltf/sampler';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';
import { sampleModel } from '../../cli/sample';
import { detectFormat } from '../../core/formats/registry';
import { FLOAT, GltfBuilder, glbOf, type Json, skinnedStrip, UNSIGNED_BYTE, UNSIGNED_INT } from '../helpers/gltf-build';
import { makeGltf } from '../helpers/gltf-writer';
import { withTempDir } from '../helpers/temp-dir';
import type { CompileReply } from '../../core/host/compileProtocol';
import { compileInWorker, NO_WORKER } from '../helpers/compile-worker';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;
const gltfDir = resolve(process.cwd(), '..', 'shared', 'assets', 'gltf');
const NO_ASSETS = existsSync(gltfDir) ? false : `${gltfDir} is absent (the shared real-file assets)`;

/** Reads a file of ../shared beside which its .bin and images are. */
function readBeside(path: string): (uri: string) => Uint8Array | null {
  return (uri) => {
    try {
      return new Uint8Array(readFileSync(join(dirname(path), decodeURIComponent(uri))));
    } catch {
      return null;
    }
  };
}

async function compileGltf(bytes: Uint8Array | string, name = 'test.glb', resources?: (uri: string) => Uint8Array | null, fps?: number): Promise<CompileResult> {
  const data = typeof bytes === 'string' ? new Uint8Array(Buffer.from(bytes, 'utf8')) : bytes;
  return compile([await gltfSource(data, name, resources, fps === undefined ? {} : { fps })]);
}

async function compileAsset(relative: string, fps?: number): Promise<{ model: Model; result: CompileResult }> {
  const path = join(gltfDir, relative);
  const result = await compileGltf(new Uint8Array(readFileSync(path)), path, readBeside(path), fps);
  assert.ok(result.bytes, JSON.stringify(result.diagnostics.slice(0, 3)));
  return { model: readModel(result.bytes), result };
}

function codes(result: CompileResult): string[] {
  return result.diagnostics.map((d) => d.diagnostic.code);
}

/** Bounds of every mesh's bind-pose positions: [min x, min y, min z, max x, max y, max z]. */
function bindBounds(model: Model): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const mesh of model.meshes) {
    for (let i = 0; i < mesh.position.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        b[k] = Math.min(b[k], mesh.position[i + k]);
        b[3 + k] = Math.max(b[3 + k], mesh.position[i + k]);
      }
    }
  }
  return b;
}

/** Skinned positions of a frame (flat x y z), as `iqm-tools sample` gives them. */
function framePositions(model: Model, frame: number): Float32Array {
  const sampled = sampleModel(model, frame);
  assert.ok(typeof sampled !== 'string', String(sampled));
  return sampled.positions;
}

const ASSETS: { file: string; joints: number; animations: string[]; textured: string[] }[] = [
  { file: 'bevy/SimpleSkin.gltf', joints: 2, animations: ['SimpleSkin'], textured: [] },
  { file: 'bevy/Fox.glb', joints: 24, animations: ['Survey', 'Walk', 'Run'], textured: ['Fox_image0'] },
  { file: 'raylib/RiggedFigure.glb', joints: 19, animations: ['RiggedFigure'], textured: [] },
  { file: 'raylib/Wizard.glb', joints: 32, animations: ['Death', 'Idle', 'Idle_Weapon', 'PickUp', 'Punch', 'RecieveHit', 'RecieveHit_Attacking', 'Run', 'Spell1', 'Staff_Attack', 'Walk'], textured: ['Wizard_Texture', 'Wizard_Staff_Texture'] },
  { file: 'raylib/girl.glb', joints: 23, animations: ['IdleTrack', 'RunTrack'], textured: ['girl'] },
];

test('real glTFs: joints and animations named and counted as in the file, parents first, standing up in Z, materials named after their images', { skip: NO_ASSETS }, async () => {
  for (const asset of ASSETS) {
    const { model } = await compileAsset(asset.file);
    const skeleton = model.skeleton;
    assert.ok(skeleton, asset.file);
    assert.equal(skeleton.names.length, asset.joints, asset.file);
    skeleton.parents.forEach((p, j) => assert.ok(p < j, `${asset.file}: joint ${j}'s parent ${p} comes after it`));
    assert.deepEqual(model.clips.map((c) => c.name), asset.animations, asset.file);
    for (const clip of model.clips) assert.ok(clip.frameCount >= 2, `${asset.file} ${clip.name}: ${clip.frameCount} frames`);
    // Upright: a character is taller (Z) than it is wide or deep, and stands on z ≈ 0.
    const [x0, y0, z0, x1, y1, z1] = bindBounds(model);
    const height = z1 - z0;
    if (asset.file !== 'bevy/SimpleSkin.gltf' && asset.file !== 'bevy/Fox.glb') {
      assert.ok(height > x1 - x0 && height > y1 - y0, `${asset.file}: ${[x0, y0, z0, x1, y1, z1].map((v) => v.toFixed(2))}`);
      assert.ok(Math.abs(z0) < 0.05 * height, `${asset.file}: the feet at z = ${z0}`);
    }
    for (const material of asset.textured) assert.ok(model.meshes.some((m) => m.material === material), `${asset.file}: no mesh with material ${material} (${model.meshes.map((m) => m.material)})`);
  }
});

test('real glTFs: the fox (no normals) gets computed ones and is long in Y, up in Z; the skinned SimpleSkin stands along Z', { skip: NO_ASSETS }, async () => {
  const fox = await compileAsset('bevy/Fox.glb');
  assert.ok(codes(fox.result).includes('gltf-normals-generated'));
  assert.ok(fox.model.meshes[0].normal, 'normals written');
  const [, y0, z0, , y1, z1] = bindBounds(fox.model);
  // The fox is longer nose to tail (glTF's -Z..+Z, now Y) than tall (now Z), and its feet are at z ≈ 0.
  assert.ok(y1 - y0 > z1 - z0 && z1 - z0 > 0, `${[y0, z0, y1, z1]}`);
  assert.ok(Math.abs(z0) < 1, `feet at ${z0}`);
  // SimpleSkin's inverse bind matrices all hold one shift (x - 0.5) that its rest pose does not:
  // the mesh is moved by it, so the bind pose is the rest scene (x from -0.5 to 0.5), not the raw data.
  const simple = await compileAsset('bevy/SimpleSkin.gltf');
  assert.ok(!codes(simple.result).includes('gltf-inverse-bind'));
  const [sx0, sy0, sz0, sx1, sy1, sz1] = bindBounds(simple.model);
  assert.deepEqual([sx0, sy0, sz0, sx1, sy1, sz1].map((v) => Math.round(v * 1000) / 1000 + 0), [-0.5, 0, 0, 0.5, 0, 2]);
});

test('real glTFs: Wizard.glb\'s unskinned meshes under joints are weighted 1.0 to that joint and follow it', { skip: NO_ASSETS }, async () => {
  const { model } = await compileAsset('raylib/Wizard.glb');
  const names = model.skeleton!.names;
  const expected: Record<string, string> = { Face: 'Head', Pouch: 'Abdomen', Wizard_Staff: 'Weapon.R', 'ShoulderPad.L': 'UpperArm.L', 'ShoulderPad.R': 'UpperArm.R' };
  for (const [mesh, joint] of Object.entries(expected)) {
    const m = model.meshes.find((x) => x.name === mesh);
    assert.ok(m, `mesh ${mesh} (${model.meshes.map((x) => x.name)})`);
    assert.ok(m.blendIndices && m.blendWeights);
    for (let v = 0; v < m.vertexCount; v++) {
      assert.equal(names[m.blendIndices[4 * v]], joint, `${mesh} vertex ${v}`);
      assert.ok(Math.abs(m.blendWeights[4 * v] - 1) < 1e-2, `${mesh} vertex ${v} weight ${m.blendWeights[4 * v]}`);
    }
  }
  // The staff moves with the animation: its positions differ between two frames of Staff_Attack.
  const clip = model.clips.find((c) => c.name === 'Staff_Attack')!;
  const staff = model.meshes.findIndex((x) => x.name === 'Wizard_Staff');
  let first = 0;
  for (let i = 0; i < staff; i++) first += model.meshes[i].vertexCount;
  const a = framePositions(model, clip.firstFrame), b = framePositions(model, clip.firstFrame + Math.floor(clip.frameCount / 2));
  let moved = 0;
  for (let i = 3 * first; i < 3 * (first + model.meshes[staff].vertexCount); i++) moved = Math.max(moved, Math.abs(a[i] - b[i]));
  assert.ok(moved > 0.05, `the staff moved ${moved}`);
});

test('real glTFs: girl.glb\'s IdleTrack starts at t = 0.042: frames from its first key; inverse bind matrices that differ from the rest pose are a warning naming the joints', { skip: NO_ASSETS }, async () => {
  const { model, result } = await compileAsset('raylib/girl.glb', 30);
  const idle = model.clips.find((c) => c.name === 'IdleTrack')!;
  // Keys from 1/24 s to 1.667 s: floor(1.625 · 30) + 1 frames at 30 fps.
  assert.equal(idle.fps, 30);
  assert.equal(idle.frameCount, Math.floor((1.6666666 - 0.0416666) * 30 + 1e-3) + 1);
  const bind = result.diagnostics.find((d) => d.diagnostic.code === 'gltf-inverse-bind');
  assert.ok(bind && bind.diagnostic.severity === 'warning' && /'Root'/.test(bind.diagnostic.message), JSON.stringify(bind));
  // Without --fps: the key times are on a 24 fps grid, so 24.
  const evident = await compileAsset('raylib/girl.glb');
  assert.deepEqual(evident.model.clips.map((c) => c.fps), [24, 24]);
});

test('real glTFs: AnimatedMorphCube (morph targets only): the base mesh with warnings; BoxTextured: its external .bin and image', { skip: NO_ASSETS }, async () => {
  const morph = await compileAsset('assimp/AnimatedMorphCube/AnimatedMorphCube.gltf');
  assert.ok(codes(morph.result).includes('gltf-morph-targets') && codes(morph.result).includes('gltf-animation-dropped'), codes(morph.result).join());
  assert.equal(morph.model.meshes[0].triangleCount, 12);
  assert.equal(morph.model.clips.length, 0);
  const box = await compileAsset('assimp/BoxTextured/BoxTextured.gltf');
  assert.equal(box.model.meshes[0].material, 'CesiumLogoFlat');
  assert.ok(box.model.meshes[0].texcoord);
  const source = await gltfSource(new Uint8Array(readFileSync(join(gltfDir, 'assimp/BoxTextured/BoxTextured.gltf'))), 'BoxTextured.gltf', readBeside(join(gltfDir, 'assimp/BoxTextured/BoxTextured.gltf')));
  assert.deepEqual(source.images.map((i) => [i.stem, i.extension, i.embedded, i.bytes?.length]), [['CesiumLogoFlat', 'png', false, 2433]]);
  // The .bin missing: an error naming the buffer and its uri.
  const missing = await compileGltf(readFileSync(join(gltfDir, 'assimp/BoxTextured/BoxTextured.gltf'), 'utf8'), 'BoxTextured.gltf');
  assert.equal(missing.bytes, undefined);
  assert.match(missing.diagnostics[0].diagnostic.message, /buffer 0 .*'BoxTextured0\.bin'.* cannot be read/);
});

test('axes: a joint at glTF (0, 1, 0) is at IQM (0, 0, 1); triangles are written clockwise; texture coordinates unchanged', async () => {
  const result = await compileGltf(skinnedStrip().glb());
  assert.ok(result.bytes, JSON.stringify(result.diagnostics));
  const model = readModel(result.bytes);
  const tip = model.skeleton!.names.indexOf('tip');
  const world = model.skeleton!.bindWorld;
  assert.deepEqual([world[12 * tip + 3], world[12 * tip + 7], world[12 * tip + 11]].map((v) => Math.round(v * 1e6) / 1e6), [0, 0, 1]);
  const mesh = model.meshes[0];
  // Every vertex at y = 0 (glTF z = 0), rising in z.
  for (let i = 0; i < mesh.position.length; i += 3) assert.ok(Math.abs(mesh.position[i + 1]) < 1e-6);
  // Clockwise seen from the front (-Y looking at +Y is where glTF's +Z front now faces): the face
  // normal of (a, b, c) by (c - a) × (b - a) points to -Y, the way the quad faced in glTF (+Z).
  const p = (v: number) => [mesh.position[3 * v], mesh.position[3 * v + 1], mesh.position[3 * v + 2]];
  const [a, b, c] = [p(mesh.indices[0]), p(mesh.indices[1]), p(mesh.indices[2])];
  const e1 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], e2 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  assert.ok(e1[2] * e2[0] - e1[0] * e2[2] < 0, 'normal toward -Y');
  // u = x + 0.5, v = row / 3 as written (v = 0 at the image's top row in both formats).
  for (let v = 0; v < mesh.vertexCount; v++) {
    assert.ok(Math.abs(mesh.texcoord![2 * v] - (mesh.position[3 * v] + 0.5)) < 1e-6);
    assert.ok(Math.abs(mesh.texcoord![2 * v + 1] - mesh.position[3 * v + 2] / 0.66 / 3) < 1e-5);
  }
});

test('animation frames are at start + k / fps from the first key: LINEAR slerps, STEP holds, CUBICSPLINE follows the Hermite form', async () => {
  for (const interpolation of ['LINEAR', 'STEP', 'CUBICSPLINE']) {
    const result = await compileGltf(skinnedStrip({ animation: true, start: 0.5, interpolation }).glb(), 'bend.glb', undefined, 10);
    assert.ok(result.bytes, JSON.stringify(result.diagnostics));
    const model = readModel(result.bytes);
    const clip = model.clips[0];
    assert.deepEqual([clip.name, clip.fps, clip.frameCount], ['bend', 10, 11]);
    const tip = model.skeleton!.names.indexOf('tip');
    for (let k = 0; k < clip.frameCount; k++) {
      const positions = framePositions(model, clip.firstFrame + k);
      // The top-right vertex (glTF (0.5, 1.98, 0)) turns about the tip joint (IQM z = 1) by the
      // angle at t = 0.5 + k / 10: 90° · s (LINEAR), 0 until the last key (STEP), the Hermite
      // blend of the two keys with zero tangents, 3s² - 2s³ of the way (CUBICSPLINE; slerp-free,
      // so evaluated by the sampler here as the reference).
      const s = k / 10;
      let angle: number;
      if (interpolation === 'LINEAR') angle = (Math.PI / 2) * s;
      else if (interpolation === 'STEP') angle = k === 10 ? Math.PI / 2 : 0;
      else {
        const out = new Float64Array(4);
        const r = Math.SQRT1_2;
        evaluate({ times: Float32Array.of(0, 1), values: Float64Array.of(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, r, 0, 0, r, 0, 0, 0, 0), width: 4, interpolation: 'CUBICSPLINE', rotation: true }, s, out, 0);
        angle = 2 * Math.atan2(out[0], out[3]);
      }
      // The strip's top vertices in IQM: x = ±0.5, (y, z) = rotation of (0, 0.98) about the tip, by
      // the glTF rotation about +X (IQM's +X too: the axes turn about X).
      const expectedY = -Math.sin(angle) * 0.98, expectedZ = 1 + Math.cos(angle) * 0.98;
      const top = [...Array(positions.length / 3).keys()].filter((v) => positions[3 * v] > 0 && (k === 0 ? positions[3 * v + 2] > 1.9 : true));
      const best = Math.min(...top.map((v) => Math.hypot(positions[3 * v + 1] - expectedY, positions[3 * v + 2] - expectedZ)));
      assert.ok(best < 2e-3, `${interpolation} frame ${k}: no vertex at (${expectedY.toFixed(4)}, ${expectedZ.toFixed(4)}), joint ${tip}`);
    }
  }
});

test('the sampler is the specification\'s: clamped ends, STEP, LINEAR with slerp along the shorter arc, CUBICSPLINE tangents scaled by the key interval', () => {
  const out = new Float64Array(4);
  const linear = { times: Float32Array.of(1, 3), values: Float64Array.of(0, 0, 0, 2, 4, 6), width: 3, interpolation: 'LINEAR' as const, rotation: false };
  evaluate(linear, 0, out, 0);
  assert.deepEqual([...out.subarray(0, 3)], [0, 0, 0]);
  evaluate(linear, 2, out, 0);
  assert.deepEqual([...out.subarray(0, 3)], [1, 2, 3]);
  evaluate(linear, 9, out, 0);
  assert.deepEqual([...out.subarray(0, 3)], [2, 4, 6]);
  evaluate({ ...linear, interpolation: 'STEP' }, 2.9, out, 0);
  assert.deepEqual([...out.subarray(0, 3)], [0, 0, 0]);
  // q and -q: the shorter arc (no turn at all half way).
  evaluate({ times: Float32Array.of(0, 1), values: Float64Array.of(0, 0, 0, 1, 0, 0, 0, -1), width: 4, interpolation: 'LINEAR', rotation: true }, 0.5, out, 0);
  assert.ok(Math.abs(Math.abs(out[3]) - 1) < 1e-12);
  // Cubic: value 0 -> 0 with out-tangent 1 over an interval of 2 s: p(s) = (s³ - 2s² + s) · 2 · 1.
  const cubic = { times: Float32Array.of(0, 2), values: Float64Array.of(0, 0, 1, 0, 0, 0), width: 1, interpolation: 'CUBICSPLINE' as const, rotation: false };
  evaluate(cubic, 1, out, 0);
  assert.ok(Math.abs(out[0] - (0.125 - 0.5 + 0.5) * 2) < 1e-12, String(out[0]));
});

test('weights: more than 4 (JOINTS_1/WEIGHTS_1) keep the 4 largest, renormalised, with a note; COLOR_0 is ubyte, TEXCOORD_1 a custom array', async () => {
  const b = new GltfBuilder();
  const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0];
  const position = b.accessor(positions, 'VEC3');
  const j0 = b.accessor([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3], 'VEC4', UNSIGNED_BYTE);
  const w0 = b.accessor([0.3, 0.1, 0.2, 0.05, 1, 0, 0, 0, 1, 0, 0, 0], 'VEC4');
  const j1 = b.accessor([4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'VEC4', UNSIGNED_BYTE);
  const w1 = b.accessor([0.25, 0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'VEC4');
  const color = b.accessor([1, 0, 0, 0, 1, 0, 0, 0, 1], 'VEC3');
  const uv1 = b.accessor([0, 0, 1, 0, 0, 1], 'VEC2');
  const mesh = b.mesh({ POSITION: position, JOINTS_0: j0, WEIGHTS_0: w0, JOINTS_1: j1, WEIGHTS_1: w1, COLOR_0: color, TEXCOORD_1: uv1 });
  const joints = [0, 1, 2, 3, 4, 5].map((k) => b.node({ name: `j${k}`, translation: [k, 0, 0] }));
  b.node({ name: 'm', mesh, skin: 0 });
  b.json.skins = [{ joints }];
  const result = await compileGltf(b.glb());
  assert.ok(result.bytes, JSON.stringify(result.diagnostics));
  assert.ok(codes(result).includes('gltf-weights-over-4') && codes(result).includes('gltf-custom-arrays'), codes(result).join());
  const mesh0 = readModel(result.bytes).meshes[0];
  const v = [...Array(3).keys()].find((i) => mesh0.position[3 * i] === 0 && mesh0.position[3 * i + 1] === 0)!;
  const pairs = [0, 1, 2, 3].map((q) => [mesh0.blendIndices![4 * v + q], Math.round(mesh0.blendWeights![4 * v + q] * 100) / 100]);
  // 0.3 (j0), 0.25 (j4), 0.2 (j2), 0.1 (j1 or j5: the lower joint) of 0.85.
  assert.deepEqual(pairs, [[0, Math.round((0.3 / 0.85) * 100) / 100], [4, Math.round((0.25 / 0.85) * 100) / 100], [2, Math.round((0.2 / 0.85) * 100) / 100], [1, Math.round((0.1 / 0.85) * 100) / 100]]);
  assert.ok(mesh0.color);
  assert.deepEqual(mesh0.custom.map((c) => c.name), ['TEXCOORD_1']);
});

test('a file without skins whose animated node carries a mesh: that node becomes a joint and the mesh follows it', async () => {
  const b = new GltfBuilder();
  const position = b.accessor([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3');
  const mesh = b.mesh({ POSITION: position });
  b.node({ name: 'spinner', mesh, translation: [0, 0, 2] });
  const times = b.accessor([0, 1], 'SCALAR', FLOAT, { min: [0], max: [1] });
  const moves = b.accessor([0, 0, 2, 0, 3, 2], 'VEC3');
  b.json.animations = [{ name: 'lift', samplers: [{ input: times, output: moves }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }];
  const result = await compileGltf(b.glb(), 'lift.glb', undefined, 4);
  assert.ok(result.bytes, JSON.stringify(result.diagnostics));
  const model = readModel(result.bytes);
  assert.deepEqual(model.skeleton!.names, ['spinner']);
  // glTF y 0 -> 3 is IQM z 0 -> 3; glTF z 2 is IQM y -2.
  const last = framePositions(model, model.clips[0].frameCount - 1);
  const zs = [0, 1, 2].map((v) => Math.round(last[3 * v + 2] * 1000) / 1000).sort();
  assert.deepEqual(zs, [3, 3, 4]);
  assert.ok([0, 1, 2].every((v) => Math.abs(last[3 * v + 1] + 2) < 1e-3));
});

/** The first error of a compile, which must have failed. */
function firstError(result: CompileResult): string {
  assert.equal(result.bytes, undefined, 'compiled, but should not have');
  const error = result.diagnostics.find((d) => d.diagnostic.severity === 'error');
  assert.ok(error, JSON.stringify(result.diagnostics));
  return error.diagnostic.message;
}

test('broken glTFs are one clear error each, naming the accessor, node, joint or byte offset', async () => {
  // An accessor past its buffer view.
  const past = skinnedStrip();
  past.json.accessors[0].count = 50;
  assert.match(firstError(await compileGltf(past.glb())), /accessor 0: 50 elements of 12 bytes from byte 0 need 600 bytes of buffer view 0, which has 96/);
  // A buffer view past its buffer.
  const view = skinnedStrip();
  const glb = view.glb();
  view.json.bufferViews[4].byteLength = 400;
  assert.match(firstError(await compileGltf(glbOf(JSON.stringify(view.json), glb.subarray(glb.length - view.json.buffers[0].byteLength)))), /buffer view 4: bytes \d+\.\.\d+ are past the end of buffer 0/);
  // A joint index past the skin's joints.
  const joints = skinnedStrip();
  const bytes = joints.glb();
  // JOINTS_0 is accessor 1 (VEC4 of ubyte, right after the positions' 96 bytes): set vertex 0's first joint to 7.
  const binStart = bytes.length - Math.ceil(joints.json.buffers[0].byteLength / 4) * 4;
  bytes[binStart + joints.json.bufferViews[1].byteOffset] = 7;
  assert.match(firstError(await compileGltf(bytes)), /mesh 0 primitive 0: vertex 0 is weighted to joint 7 of skin 0, which has 2 joints \(JOINTS_0, accessor 1\)/);
  // An index past the vertices.
  const index = skinnedStrip();
  const indexBytes = index.glb();
  const indexStart = indexBytes.length - Math.ceil(index.json.buffers[0].byteLength / 4) * 4 + index.json.bufferViews[4].byteOffset;
  indexBytes[indexStart] = 200;
  assert.match(firstError(await compileGltf(indexBytes)), /index 0 of accessor 4 is 200, past the primitive's 8 vertices/);
  // Bad JSON: its line and column.
  const text = skinnedStrip().gltf().replace('"asset"', '"asset" "oops"');
  const json = await compileGltf(text, 'bad.gltf');
  const error = json.diagnostics[0].diagnostic;
  assert.equal(error.code, 'gltf-json');
  assert.deepEqual([error.range.line, error.range.column], [1, text.split('\n')[1].indexOf('"oops"')]);
  // A truncated GLB: the chunk and the byte offset.
  const whole = skinnedStrip().glb();
  assert.match(firstError(await compileGltf(whole.subarray(0, whole.length - 10))), /GLB truncated: its header says \d+ bytes, the file has \d+ \(at byte 8\)/);
  const chunk = Buffer.from(whole);
  chunk.writeUInt32LE(whole.length - 10, 8);
  assert.match(firstError(await compileGltf(new Uint8Array(chunk.subarray(0, whole.length - 10)))), /GLB chunk at byte \d+ says \d+ bytes, past the end of the file/);
  // A node that refers to a mesh that is not there; two skins with nothing in common.
  const node = skinnedStrip();
  node.json.nodes[2].mesh = 5;
  assert.match(firstError(await compileGltf(node.glb())), /node 2 \('strip'\) refers to mesh 5, but the file has 1 meshes/);
  const skins = skinnedStrip();
  skins.json.nodes.push({ name: 'other' }, { name: 'm2', mesh: 0, skin: 1 });
  skins.json.scenes[0].nodes.push(3, 4);
  skins.json.skins.push({ joints: [3] });
  assert.match(firstError(await compileGltf(skins.glb())), /skin 0 and skin 1 share no joint and no root node/);
  // A node hierarchy with a cycle; a key time far away (a broken float): no endless sampling.
  const cycle = skinnedStrip();
  cycle.json.nodes[1].children = [0];
  cycle.json.scenes[0].nodes = [2];
  assert.match(firstError(await compileGltf(cycle.glb())), /node \d \('(root|tip)'\) is its own ancestor: the node hierarchy has a cycle/);
  const far = skinnedStrip({ animation: true });
  const farBytes = far.glb();
  const times = farBytes.length - Math.ceil(far.json.buffers[0].byteLength / 4) * 4 + far.json.bufferViews[far.json.animations[0].samplers[0].input].byteOffset;
  Buffer.from(farBytes.buffer, farBytes.byteOffset).writeFloatLE(1e9, times + 4);
  assert.match(firstError(await compileGltf(farBytes)), /animation 'bend' runs from 0 s to 1000000000 s: 30000000001 frames at 30 fps, more than the 108000 read/);
  // Version 1.0, and not JSON at all.
  const old = skinnedStrip();
  old.json.asset.version = '1.0';
  assert.match(firstError(await compileGltf(old.glb())), /glTF version '1\.0': only glTF 2\.0 is read/);
});

test('glTF JSON of the wrong shape is an error, not a TypeError out of the reader (the CI fuzz found each)', async () => {
  const broken = async (edit: (json: Json) => void): Promise<string> => {
    const strip = skinnedStrip({ animation: true });
    const glb = strip.glb();
    const bin = glb.subarray(glb.length - Math.ceil(strip.json.buffers[0].byteLength / 4) * 4);
    edit(strip.json);
    return firstError(await compileGltf(glbOf(JSON.stringify(strip.json), bin)));
  };
  assert.match(await broken((j) => (j.buffers[0].uri = 4)), /buffer 0: uri is not a string/);
  assert.match(await broken((j) => (j.images = [{ uri: 2, bufferView: 0 }])), /image 0: uri is not a string/);
  assert.match(await broken((j) => (j.nodes[0].name = [0, 0, 0, 0])), /nodes\[0\]: name is not a string/);
  assert.match(await broken((j) => (j.accessors[0].sparse = null)), /accessor 0: sparse is not an object/);
  assert.match(await broken((j) => (j.materials = [{ pbrMetallicRoughness: { baseColorTexture: 5 } }])), /material 0: a texture reference without a texture index/);
  assert.match(await broken((j) => (j.animations[0].samplers[0] = null)), /animation 0 \('bend'\) sampler 0 is not an object|animation 'bend' sampler 0 is not an object/);
  assert.match(await broken((j) => (j.animations[0].channels[0] = null)), /channel 0 is not an object/);
  // A primitive whose attributes differ in count (the specification: one count): POSITION made the
  // animation's output accessor.
  assert.match(await broken((j) => (j.meshes[0].primitives[0].attributes.POSITION = j.animations[0].samplers[0].output)), /a primitive's attributes have one count/);
  // Zeros the file does not hold: a 250-byte .gltf whose accessor of 100,000,000 VEC3 had no buffer
  // view took 17 GB and 96 s. An accessor without one as large as its mesh's positions is read.
  const zeros = (count: number): string => JSON.stringify({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }], meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }], accessors: [{ componentType: FLOAT, count, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] }] });
  assert.match(firstError(await compileGltf(zeros(100_000_000), 'zeros.gltf')), /accessors without a buffer view \(zeros the reader makes\) would take 1,200,000,000 bytes, more than 16 times the file's buffers \(at least 67,108,864\); accessor 0 alone 1,200,000,000/);
  const small = await compileGltf(zeros(300), 'zeros.gltf');
  assert.ok(!small.diagnostics.some((d) => d.diagnostic.code === 'gltf-accessor-range'), JSON.stringify(small.diagnostics));
});

test('format: a GLB by its magic, glTF JSON by its "asset", the extension only where the content says nothing', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  assert.equal(detectFormat(bytes('glTF\u0002\u0000\u0000\u0000'), 'x.bin'), 'glb');
  assert.equal(detectFormat(bytes('{\n "asset": {"version": "2.0"}}'), 'model.json'), 'gltf');
  assert.equal(detectFormat(bytes('{"accessors": []}'), 'model.gltf'), 'gltf');
  assert.equal(detectFormat(bytes('{"accessors": []}'), 'model.json'), 'text');
});

test('CLI: compile, check, info and convert take .gltf/.glb; --textures writes embedded images; a broken glTF is exit 1 and no output', { skip: NO_CLI }, () => {
  withTempDir('iqm-gltf-', (dir) => {
    const good = join(dir, 'strip.glb');
    writeFileSync(good, skinnedStrip({ animation: true }).glb());
    const compiled = spawnSync(process.execPath, [CLI, 'compile', good, '--fps', '20', '--json'], { encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stderr + compiled.stdout);
    const out = JSON.parse(compiled.stdout);
    assert.equal(out.output, join(dir, 'strip.iqm'));
    assert.deepEqual([out.stats.joints, out.stats.animations, out.stats.frames], [2, 1, 21]);
    const info = spawnSync(process.execPath, [CLI, 'info', good, '--json'], { encoding: 'utf8' });
    assert.equal(info.status, 0, info.stderr);
    assert.equal(JSON.parse(info.stdout).joints.length, 2);
    const convert = spawnSync(process.execPath, [CLI, 'convert', good, '-o', join(dir, 'strip.iqe')], { encoding: 'utf8' });
    assert.equal(convert.status, 0, convert.stderr);
    assert.match(readFileSync(join(dir, 'strip.iqe'), 'utf8'), /^# Inter-Quake Export/);
    const check = spawnSync(process.execPath, [CLI, 'check', good], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stdout + check.stderr);

    // An embedded image (a data: URI) named by the material that uses it.
    const textured = skinnedStrip();
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    textured.json.images = [{ name: 'skin_diffuse', uri: `data:image/png;base64,${png.toString('base64')}` }];
    textured.json.textures = [{ source: 0 }];
    textured.json.materials = [{ name: 'Material.001', pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }];
    textured.json.meshes[0].primitives[0].material = 0;
    const texturedPath = join(dir, 'textured.gltf');
    writeFileSync(texturedPath, textured.gltf());
    const withTextures = spawnSync(process.execPath, [CLI, 'compile', texturedPath, '--textures', join(dir, 'tex')], { encoding: 'utf8' });
    assert.equal(withTextures.status, 0, withTextures.stderr);
    assert.deepEqual(readFileSync(join(dir, 'tex', 'skin_diffuse.png')), png);
    assert.equal(readModel(readFileSync(join(dir, 'textured.iqm'))).meshes[0].material, 'skin_diffuse');

    const broken = skinnedStrip();
    broken.json.accessors[2].count = 99;
    const bad = join(dir, 'bad.glb');
    writeFileSync(bad, broken.glb());
    const failed = spawnSync(process.execPath, [CLI, 'compile', bad], { encoding: 'utf8' });
    assert.equal(failed.status, 1, failed.stderr + failed.stdout);
    assert.match(failed.stdout, /bad\.glb:1:1: error: accessor 2: 99 elements .* \[gltf-accessor-range\]/);
    assert.equal(existsSync(join(dir, 'bad.iqm')), false);
    const checked = spawnSync(process.execPath, [CLI, 'check', bad], { encoding: 'utf8' });
    assert.equal(checked.status, 1);
  });
});

test('compile worker: a GLB\'s bytes, a .gltf by its path (its .bin read beside it), an open .gltf\'s text with its .bin as a resource: the same IQM as the CLI\'s compile', { skip: NO_WORKER }, async () => {
  const expected = await compileGltf(skinnedStrip({ animation: true }).glb(), 'strip.glb');
  assert.ok(expected.bytes);
  const same = (reply: CompileReply): void => {
    assert.ok(reply.ok, reply.ok ? '' : reply.message);
    assert.ok(reply.bytes && Buffer.from(reply.bytes).equals(Buffer.from(expected.bytes!)), JSON.stringify(reply.diagnostics));
  };
  same(await compileInWorker({ source: { bytes: skinnedStrip({ animation: true }).glb(), name: '/x/strip.glb' }, options: {} }));
  const { json, bin } = skinnedStrip({ animation: true }).separate('strip%20data.bin');
  await withTempDir('iqm-gltf-worker-', async (dir) => {
    writeFileSync(join(dir, 'strip.gltf'), json);
    writeFileSync(join(dir, 'strip data.bin'), bin);
    same(await compileInWorker({ source: { path: join(dir, 'strip.gltf') }, options: {} }));
  });
  same(await compileInWorker({ source: { text: json, name: '/x/strip.gltf' }, resources: [{ uri: 'strip%20data.bin', bytes: bin }], options: {} }));
  // Without the resource: the error names the buffer.
  const missing = await compileInWorker({ source: { text: json, name: '/x/strip.gltf' }, options: {} });
  assert.ok(missing.ok && missing.failedText === 0 && /buffer 0 \('strip%20data\.bin'\) cannot be read/.test(missing.diagnostics[0].diagnostic.message), JSON.stringify(missing));
});

test('glTF: 2,000 keys at 30 per second make 2,000 frames, though the last float32 key time is a hair before 1999/30', async () => {
  const fixture = makeGltf({ vertices: 48, around: 8, joints: 2, keys: 2000, keyRate: 30 });
  const result = compile([await gltfSource(fixture.bytes, 'long.glb')]);
  assert.ok(result.bytes, result.diagnostics.map((d) => d.diagnostic.message).join('\n'));
  const clip = readModel(result.bytes).clips[0];
  assert.equal(Math.fround(1999 / 30) < 1999 / 30, true, 'the premise: float32 rounds the last key time down');
  assert.equal(clip.fps, 30);
  assert.equal(clip.frameCount, 2000);
});

test('instancing: nodes drawing one mesh are copies each, within 16 times what the file stores (or 4,000,000); beyond, one clear error before any copy is made', async () => {
  /** A grid of side x side vertices drawn by `nodes` nodes side by side. */
  const grid = (side: number, nodes: number): Uint8Array => {
    const b = new GltfBuilder();
    const positions: number[] = [], indices: number[] = [];
    for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) positions.push(x, y, 0);
    for (let y = 0; y + 1 < side; y++) {
      for (let x = 0; x + 1 < side; x++) {
        const a = y * side + x;
        indices.push(a, a + 1, a + side, a + 1, a + side + 1, a + side);
      }
    }
    const mesh = b.mesh({ POSITION: b.accessor(positions, 'VEC3') }, b.accessor(indices, 'SCALAR', UNSIGNED_INT));
    for (let k = 0; k < nodes; k++) b.node({ mesh, translation: [side * k, 0, 0] });
    return b.glb();
  };
  // Wheels and bolts: a few copies compile, each its own vertices.
  const few = await compileGltf(grid(10, 4));
  assert.equal(few.stats.vertices, 4 * 100);
  assert.equal(few.stats.triangles, 4 * 2 * 81);
  // 200 copies of a 40,000-vertex grid (a 1.4 MB GLB) once took 112 s and 3.2 GB to compile; 60
  // copies of a 10,000-vertex one are past both limits (60 times, 4.1 million): an error.
  const many = await compileGltf(grid(100, 60));
  assert.match(firstError(many), /the scene's 60 mesh nodes draw 4,128,360 vertices and indices, 60 times the 68,806 the file stores \(mesh 0 is drawn by 60 nodes\)/);
  // Within the floor, a smaller grid drawn as often compiles.
  assert.equal((await compileGltf(grid(20, 60))).stats.vertices, 60 * 400);
});

test('animation length: all animations together sample to at most 4,000,000 joint poses (a key an hour out on a large skeleton was gigabytes); one error says so', async () => {
  // Two keys 3,000 s apart on 64 joints: 90,001 frames (under the 108,000 of one animation), 5.8 million poses.
  const far = makeGltf({ joints: 64, keys: 2, keyRate: 1 / 3000 });
  assert.match(firstError(await compileGltf(far.bytes)), /the animations sample to 90,001 frames of \d+ joints by animation 'Bend' \([\d,]+ poses at 30 fps\), more than the 4,000,000 read \(a broken key time\?\)/);
});

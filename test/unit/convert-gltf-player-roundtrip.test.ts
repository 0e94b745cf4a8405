// A Quake 3 player -> glTF -> our compile -> IQM (issue 32's modder's loop for players): what comes
// back is what was written, for a generated player (moving tags, a cfg of its own) and the shared
// OpenArena soldier. Checked: the meshes (names, vertex and triangle counts, part order; the legs'
// positions), the tags that carry a part as joints (tag_torso, tag_head under it) with their
// animation at every key of every clip (tolerance: half the 16-bit channel step of the compiled
// IQM, derived from its own scale, and float32 rounding), the clips (names, frames, rate, loop, in
// the glTF's order). Known and documented (docs/GLTF.md): IQM has no morph targets, so the MD3
// frames come back as the base mesh only (warnings gltf-morph-targets, gltf-morph-animation), and
// tags that carry nothing (tag_weapon, upper's own tag_torso) are no joints (the reader makes
// joints of the animated nodes that carry meshes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertPlayerToGltf } from '../../cli/convert';
import { clipFrames, storedFrame } from '../../core/iqe/writer';
import { fromTRS } from '../../core/math/mat3x4';
import type { Model } from '../../core/model/model';
import { compileSourceHere } from '../helpers/convert-here';
import { md3Spec } from '../helpers/engine-models';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { writeMd3 } from '../helpers/model-writers';
import { withTempDir } from '../helpers/temp-dir';

const SOLDIER = join(ASSETS, 'md3', 'oa_soldier');
const NO_SOLDIER = NO_ASSETS || (!existsSync(join(SOLDIER, 'animation.cfg')) && `${SOLDIER} is absent; its round trip is skipped`);
const PARTS = ['lower', 'upper', 'head'] as const;
/** float32's relative rounding, a few times over (MD3 -> glTF -> IQM passes each value through float32 a handful of times). */
const FLOAT32 = 8 * 2 ** -24;

/** A player folder: lower (tag_torso turning and rising over 16 frames), upper (tag_head and tag_weapon moving), a still head, an animation.cfg. */
function writePlayer(dir: string): void {
  const part = (tags: string[], surface: string, frames: number, vertices: number) => {
    const spec = md3Spec({ frames, tagNames: tags, surfaceName: surface, vertices, triangles: vertices - 2 });
    spec.surfaces[0].xyz = spec.surfaces[0].xyz.map((frame, f) => frame.map((x, i) => x * 3 + f * (i % 3) - 40));
    spec.tags = spec.tags.map((tags, f) => tags.map((tag, t) => {
      const a = (f + 1) * (t + 1) * 0.1;
      return { ...tag, origin: [f * 0.5, t + 1, 20 + f * 0.25], axis: [[Math.cos(a), Math.sin(a), 0], [-Math.sin(a), Math.cos(a), 0], [0, 0, 1]] };
    }));
    return writeMd3(spec);
  };
  writeFileSync(join(dir, 'lower.md3'), part(['tag_torso'], 'l_legs', 16, 8));
  writeFileSync(join(dir, 'upper.md3'), part(['tag_head', 'tag_weapon'], 'u_torso', 16, 6));
  writeFileSync(join(dir, 'head.md3'), part([], 'h_head', 1, 5));
  // 25 rows (BOTH_DEATH1 .. LEGS_TURN): first, count, looping frames, fps.
  const rows = Array.from({ length: 25 }, (_, k) => `${k % 9} ${2 + (k % 4)} ${k % 2} ${10 + k}`);
  writeFileSync(join(dir, 'animation.cfg'), ['sex m', ...rows].join('\n') + '\n');
}

/** The joint's local 3x4 (row-major, Z-up) at the compiled model's global frame, from its stored pose. */
function jointMatrix(model: Model, frame: number, joint: number): Float64Array {
  const pose = new Float32Array(10 * model.skeleton!.names.length);
  storedFrame(model, frame, pose, model.skeleton!.names.length);
  const m = new Float64Array(12);
  fromTRS(m, 0, pose, 10 * joint);
  return m;
}

/** The largest error the compiled IQM's 16-bit channels allow on joint j: half a step of each channel (translation; rotation: |dR| <= 4 sum |dq|). */
function channelTolerance(model: Model, joint: number): { translation: number; rotation: number } {
  const anim = model.animation!;
  assert.equal(anim.kind, 'channels');
  const half = (c: number): number => (anim.kind === 'channels' ? anim.scale[10 * joint + c] / 2 : 0);
  return { translation: Math.max(half(0), half(1), half(2)), rotation: 4 * (half(3) + half(4) + half(5) + half(6)) };
}

async function roundTrip(folder: string, label: string, dir: string): Promise<void> {
  const files = Object.fromEntries(PARTS.map((p) => [p, join(folder, `${p}.md3`)])) as Record<(typeof PARTS)[number], string>;
  const made = await convertPlayerToGltf(files, label, 'glb', 'x');
  if ('error' in made) assert.fail(made.error);
  const [lower, upper, head] = made.models;
  const glbPath = join(dir, 'x.glb');
  writeFileSync(glbPath, made.result.bytes);
  const { model: back, codes } = await compileSourceHere(glbPath);

  // Meshes: every part's surfaces, in part order, with their vertices and triangles.
  const meshes = (m: Model) => m.meshes.map((mesh) => [mesh.name, mesh.vertexCount, mesh.triangleCount]);
  assert.deepEqual(meshes(back), [...meshes(lower), ...meshes(upper), ...meshes(head)], `${label}: meshes`);
  // The legs stand at the origin: their positions are lower's frame 0 (as a set: the compile orders vertices for the cache).
  const sorted = (p: Float32Array) => Array.from({ length: p.length / 3 }, (_, v) => [p[3 * v], p[3 * v + 1], p[3 * v + 2]]).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const legs = sorted(back.meshes[0].position), want = sorted(lower.meshes[0].position);
  for (const [v, p] of legs.entries()) for (let k = 0; k < 3; k++) assert.ok(Math.abs(p[k] - want[v][k]) <= FLOAT32 * (1 + Math.abs(want[v][k])), `${label}: legs vertex ${v}: ${p} against ${want[v]}`);

  // Joints: the tags that carry a part, upper's tag_head under lower's tag_torso.
  assert.deepEqual(back.skeleton?.names, ['tag_torso', 'tag_head'], `${label}: joints`);
  assert.deepEqual(Array.from(back.skeleton!.parents), [-1, 0]);

  // Clips: those the glTF has, in its order, with their frames, rate and loop flag.
  const json = JSON.parse(new TextDecoder().decode(made.result.bytes.subarray(20, 20 + new DataView(made.result.bytes.buffer, made.result.bytes.byteOffset).getUint32(12, true))));
  const written = (json.animations as { name: string; extras: { iqmTools: { frames: number; framerate: number; loop: boolean } } }[]).map((a) => [a.name, a.extras.iqmTools.frames, a.extras.iqmTools.framerate, a.extras.iqmTools.loop]);
  assert.deepEqual(back.clips.map((c) => [c.name, c.frameCount, c.fps, c.loop]), written, `${label}: clips`);

  // Each clip's keys: tag_torso is lower's tag at the frame lower plays at that key where it plays
  // the clip (else at rest: frame 0), tag_head upper's likewise. The frames each part's animations
  // play: its clips', and its frames of no clip as one more named after the part (core/gltf/player.ts).
  const played = (part: Model, name: string): Map<string, number[]> => {
    const asAnimated = { ...part, animation: { frameCount: part.frameCount } as Model['animation'] };
    const out = new Map<string, number[]>();
    for (const { clip, frames } of clipFrames({ label: 'the model', model: asAnimated }, () => undefined)) out.set(part.clips.some((c) => c.name === clip.name) ? clip.name : `${name} ${clip.name}`, frames);
    return out;
  };
  const plays = { lower: played(lower, 'lower'), upper: played(upper, 'upper') };
  const tagOf = (part: Model, name: string, frame: number): Float32Array => {
    const t = part.tags!.names.indexOf(name);
    return part.tags!.frames.subarray((frame * part.tags!.names.length + t) * 12, (frame * part.tags!.names.length + t) * 12 + 12);
  };
  let checked = 0;
  for (const clip of back.clips) {
    for (const [joint, part, tag, frames] of [[0, lower, 'tag_torso', plays.lower.get(clip.name)], [1, upper, 'tag_head', plays.upper.get(clip.name)]] as const) {
      const tolerance = channelTolerance(back, joint);
      if (frames) assert.equal(frames.length, clip.frameCount, `${label}: ${clip.name}: keys`);
      for (let k = 0; k < clip.frameCount; k++) {
        const want = tagOf(part, tag, frames ? frames[k] : 0);
        const got = jointMatrix(back, clip.firstFrame + k, joint);
        for (let e = 0; e < 12; e++) {
          const allowed = (e % 4 === 3 ? tolerance.translation : tolerance.rotation) + FLOAT32 * (1 + Math.abs(want[e]));
          assert.ok(Math.abs(got[e] - want[e]) <= allowed, `${label}: ${clip.name} key ${k} ${tag} element ${e}: ${got[e]} against ${want[e]} (allowed ${allowed})`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 0);
  // What IQM cannot carry is said.
  for (const code of ['gltf-morph-targets', 'gltf-morph-animation']) assert.ok(codes.includes(code), `${label}: ${code} in ${codes.join(', ')}`);
}

test('a generated Quake 3 player -> glTF -> our compile: meshes, the tags that carry parts as joints, every clip and key as written', async () => {
  await withTempDir('iqm-player-rt-', async (dir) => {
    const folder = join(dir, 'player');
    mkdirSync(folder);
    writePlayer(folder);
    await roundTrip(folder, 'generated', dir);
  });
});

test('the OpenArena soldier -> glTF -> our compile: the same checks', { skip: NO_SOLDIER }, async () => {
  await withTempDir('iqm-player-rt-', async (dir) => {
    await roundTrip(SOLDIER, 'oa_soldier', dir);
  });
});

// core/model/animationSet.ts: which animation files fit which mesh (the "mesh from…" picker), and
// the mesh playing a borrowed animation. Real files: raylib's guy.iqm (mesh, 14 joints, its own
// jump and dance) and guyanim.iqm (the same two clips as 14 poses without joints), mrfixit.iqm,
// Red Eclipse's RE_Player_male.iqm (78 joints, no animation).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { animatesSkeleton, isAnimationOnly, isSkinnedMesh, partnerChoice, partnerReadingOrder, withAnimation } from '../../core/model/animationSet';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import { createPose, sampleFrames } from '../../core/model/sample';
import { asset, NO_ASSETS } from '../helpers/model-assets';

const load = (rel: string) => readModel(asset(rel));

/** World matrices of every joint at a global frame. */
function worldAt(model: Model, frame: number): Float32Array {
  const pose = createPose(model);
  sampleFrames(model, frame, frame, 0, pose);
  return Float32Array.from(pose.world);
}

function assertClose(a: Float32Array, b: Float32Array, what: string): void {
  assert.equal(a.length, b.length, what);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  assert.ok(worst < 1e-5, `${what}: differs by ${worst}`);
}

test('which files are animation-only and which are meshes on a skeleton', { skip: NO_ASSETS }, () => {
  const guy = load('iqm/raylib_guy/guy.iqm');
  const anim = load('iqm/raylib_guy/guyanim.iqm');
  const male = load('iqm/redeclipse/RE_Player_male.iqm');
  assert.equal(isAnimationOnly(anim), true);
  assert.equal(isAnimationOnly(guy), false);
  assert.equal(isAnimationOnly(male), false, 'no animation at all');
  assert.equal(isSkinnedMesh(guy), true);
  assert.equal(isSkinnedMesh(male), true);
  assert.equal(isSkinnedMesh(anim), false);
});

test('matching: poses without joints fit a mesh with as many joints; joint names must be the same set', { skip: NO_ASSETS }, () => {
  const guy = load('iqm/raylib_guy/guy.iqm');
  const anim = load('iqm/raylib_guy/guyanim.iqm');
  const fixit = load('iqm/mrfixit/mrfixit.iqm');
  const male = load('iqm/redeclipse/RE_Player_male.iqm');
  assert.equal(anim.skeleton, null);
  assert.equal(anim.animation?.poseCount, 14);
  assert.equal(animatesSkeleton(anim, guy), true, '14 poses, 14 joints');
  assert.equal(animatesSkeleton(anim, fixit), false, '14 poses, 75 joints');
  assert.equal(animatesSkeleton(anim, male), false, '14 poses, 78 joints');
  assert.equal(animatesSkeleton(anim, anim), false, 'nothing to draw');
  // A file with joints: the same names, in any order.
  assert.equal(animatesSkeleton(guy, guy), true);
  assert.equal(animatesSkeleton(fixit, guy), false);
  const renamed: Model = { ...guy, skeleton: guy.skeleton && { ...guy.skeleton, names: guy.skeleton.names.map((n, i) => (i === 3 ? `${n}_x` : n)) } };
  assert.equal(animatesSkeleton(renamed, guy), false, 'one joint name differs');
  assert.equal(animatesSkeleton(male, guy), false, 'no animation');
});

test('guy.iqm playing guyanim.iqm moves exactly as guy.iqm playing its own clips', { skip: NO_ASSETS }, () => {
  const guy = load('iqm/raylib_guy/guy.iqm');
  const anim = load('iqm/raylib_guy/guyanim.iqm');
  const bare: Model = { ...guy, animation: null, clips: [], frameCount: 0, bounds: null };
  const played = withAnimation(bare, anim);
  assert.deepEqual(played.clips.map((c) => [c.name, c.firstFrame, c.frameCount]), anim.clips.map((c) => [c.name, c.firstFrame, c.frameCount]));
  assert.equal(played.frameCount, anim.frameCount);
  assert.equal(played.meshes, guy.meshes);
  for (const f of [0, 17, 60, 61, anim.frameCount - 1]) assertClose(worldAt(played, f), worldAt(guy, f), `frame ${f}`);
  // Bounds of the mesh in the borrowed frames: guyanim.iqm has none; guy.iqm's own (same frames) agree.
  assert.equal(anim.bounds, null);
  assert.ok(played.bounds && guy.bounds);
  for (const f of [0, 80]) {
    for (let i = 0; i < 6; i++) assert.ok(Math.abs(played.bounds[f * 8 + i] - guy.bounds[f * 8 + i]) < 1e-2, `frame ${f} bound ${i}: ${played.bounds[f * 8 + i]} vs ${guy.bounds[f * 8 + i]}`);
  }
  assert.throws(() => withAnimation(load('iqm/mrfixit/mrfixit.iqm'), anim), /does not fit the skeleton/);
});

test('an animation file whose joints are listed in another order is played by name', { skip: NO_ASSETS }, () => {
  const guy = load('iqm/raylib_guy/guy.iqm');
  const a = guy.animation;
  assert.ok(a && a.kind === 'channels' && guy.skeleton);
  // guy's own animation with its poses listed last joint first (a file exported in another order).
  const n = guy.skeleton.names.length;
  const rev = (j: number) => n - 1 - j;
  const reversed: Model = {
    ...guy,
    meshes: [],
    skeleton: { ...guy.skeleton, names: guy.skeleton.names.map((_, j) => guy.skeleton!.names[rev(j)]) },
    animation: {
      ...a,
      mask: Uint32Array.from({ length: n }, (_, j) => a.mask[rev(j)]),
      firstSample: Uint32Array.from({ length: n }, (_, j) => a.firstSample[rev(j)]),
      offset: Float32Array.from({ length: n * 10 }, (_, k) => a.offset[rev(Math.floor(k / 10)) * 10 + (k % 10)]),
      scale: Float32Array.from({ length: n * 10 }, (_, k) => a.scale[rev(Math.floor(k / 10)) * 10 + (k % 10)]),
    },
  };
  assert.equal(animatesSkeleton(reversed, guy), true);
  const played = withAnimation({ ...guy, animation: null }, reversed);
  for (const f of [0, 30, 100]) assertClose(worldAt(played, f), worldAt(guy, f), `frame ${f}`);
});

test('the picker: one fitting mesh is used without asking; a choice is kept while it fits; a mesh borrows clips only when asked', { skip: NO_ASSETS }, () => {
  const guy = { name: 'guy.iqm', model: load('iqm/raylib_guy/guy.iqm') };
  const anim = { name: 'guyanim.iqm', model: load('iqm/raylib_guy/guyanim.iqm') };
  const fixit = { name: 'mrfixit.iqm', model: load('iqm/mrfixit/mrfixit.iqm') };
  const guy2 = { name: 'another-guy.iqm', model: guy.model };
  assert.deepEqual(partnerChoice(anim.model, [guy, fixit], undefined), { role: 'mesh', matches: ['guy.iqm'], chosen: 'guy.iqm', automatic: true });
  // Two fit: the user picks (sorted list), then that pick is remembered.
  assert.deepEqual(partnerChoice(anim.model, [guy, guy2, fixit], undefined), { role: 'mesh', matches: ['another-guy.iqm', 'guy.iqm'], chosen: null, automatic: false });
  assert.deepEqual(partnerChoice(anim.model, [guy, guy2], 'guy.iqm'), { role: 'mesh', matches: ['another-guy.iqm', 'guy.iqm'], chosen: 'guy.iqm', automatic: false });
  // "None" is a choice too; a remembered file that no longer fits is ignored.
  assert.equal(partnerChoice(anim.model, [guy], '')?.chosen, null);
  assert.deepEqual(partnerChoice(anim.model, [guy], 'gone.iqm'), { role: 'mesh', matches: ['guy.iqm'], chosen: 'guy.iqm', automatic: true });
  assert.deepEqual(partnerChoice(anim.model, [fixit], undefined), { role: 'mesh', matches: [], chosen: null, automatic: false });
  // A mesh: the animation files that fit are offered, none is used until chosen.
  assert.deepEqual(partnerChoice(guy.model, [anim, fixit], undefined), { role: 'animations', matches: ['guyanim.iqm'], chosen: null, automatic: false });
  assert.deepEqual(partnerChoice(guy.model, [anim], 'guyanim.iqm'), { role: 'animations', matches: ['guyanim.iqm'], chosen: 'guyanim.iqm', automatic: false });
  assert.equal(partnerChoice(fixit.model, [anim, guy], undefined), null, 'no animation file fits mrfixit');
});

test('"mesh from" reads a large folder the likeliest partners first: the remembered one, then the closest names', () => {
  const folder = ['alpha.iqm', 'Guy.iqm', 'guy_legs.iqm', 'zombie.iqm', 'gun.iqm', 'beta.iqm'];
  assert.deepEqual(partnerReadingOrder(folder, 'guyanim.iqm', undefined), ['Guy.iqm', 'guy_legs.iqm', 'gun.iqm', 'alpha.iqm', 'beta.iqm', 'zombie.iqm']);
  assert.deepEqual(partnerReadingOrder(folder, 'guyanim.iqm', 'zombie.iqm').slice(0, 2), ['zombie.iqm', 'Guy.iqm']);
  // The picker reads the first 64: a partner named like the file is among them in a folder of 200.
  const many = Array.from({ length: 200 }, (_, i) => `a${String(i).padStart(3, '0')}.iqm`).concat('walker.iqm');
  assert.ok(partnerReadingOrder(many, 'walker_anims.iqm', undefined).slice(0, 64).includes('walker.iqm'));
});

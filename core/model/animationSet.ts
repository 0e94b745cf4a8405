// Models that engines load together: a mesh with its skeleton, and animation files that carry only
// poses (raylib's guyanim.iqm beside guy.iqm; Red Eclipse keeps every animation in an IQM of its
// own, poses without joints). An animation file fits a mesh when it animates the same skeleton:
// the same joint names, or, for a file with poses but no joints, as many poses as the mesh has
// joints (poses are then taken in joint order, as the engines do).

import type { Model, SkeletalFrames } from './model';
import { createPose, sampleFrames } from './sample';
import { skinVertices, totalVertices } from './skin';

/** Above this many skinned vertices (frames × vertices), borrowed frames get no bounds (the bind box frames the view). */
const BOUNDS_BUDGET = 8_000_000;

/** An IQM (or other model) with animation frames and nothing to draw. */
export function isAnimationOnly(model: Model): boolean {
  return model.meshes.length === 0 && model.animation !== null && model.animation.frameCount > 0;
}

/** A model with meshes on a skeleton (what an animation file can animate). */
export function isSkinnedMesh(model: Model): boolean {
  return model.meshes.length > 0 && model.skeleton !== null && model.skeleton.names.length > 0;
}

/**
 * Whether `anim`'s frames animate `mesh`'s skeleton: the same set of joint names (any order, each
 * once), or, where `anim` has poses but no joints, exactly as many poses as `mesh` has joints.
 */
export function animatesSkeleton(anim: Model, mesh: Model): boolean {
  if (!anim.animation || anim.animation.frameCount === 0 || !isSkinnedMesh(mesh) || !mesh.skeleton) return false;
  const joints = mesh.skeleton.names;
  if (!anim.skeleton) return anim.animation.poseCount === joints.length;
  const names = anim.skeleton.names;
  if (names.length !== joints.length || anim.animation.poseCount !== names.length) return false;
  const set = new Set(names);
  return set.size === names.length && joints.every((n) => set.has(n));
}

/** For each of `mesh`'s joints, the pose of `anim` that animates it (identity without joint names). */
function poseMap(anim: Model, mesh: Model): Int32Array {
  const joints = mesh.skeleton ? mesh.skeleton.names : [];
  const map = new Int32Array(joints.length);
  const byName = anim.skeleton ? new Map(anim.skeleton.names.map((n, i) => [n, i])) : null;
  for (let j = 0; j < joints.length; j++) map[j] = byName ? (byName.get(joints[j]) ?? -1) : j;
  return map;
}

/** `frames` with its poses put in `mesh`'s joint order (map[j] = the source pose of joint j). */
function reorderPoses(frames: SkeletalFrames, map: Int32Array, parents: Int32Array): SkeletalFrames {
  if (map.every((p, j) => p === j)) return frames;
  const n = map.length;
  if (frames.kind === 'channels') {
    const mask = new Uint32Array(n), firstSample = new Uint32Array(n);
    const offset = new Float32Array(n * 10), scale = new Float32Array(n * 10);
    for (let j = 0; j < n; j++) {
      const p = map[j];
      mask[j] = frames.mask[p];
      firstSample[j] = frames.firstSample[p];
      offset.set(frames.offset.subarray(p * 10, p * 10 + 10), j * 10);
      scale.set(frames.scale.subarray(p * 10, p * 10 + 10), j * 10);
    }
    // The samples stay where they are: firstSample points each joint at its pose's.
    return { ...frames, parents, mask, firstSample, offset, scale };
  }
  const matrices = new Float32Array(frames.frameCount * n * 12), trs = new Float32Array(frames.frameCount * n * 10);
  for (let f = 0; f < frames.frameCount; f++) {
    for (let j = 0; j < n; j++) {
      const p = map[j];
      matrices.set(frames.matrices.subarray((f * frames.poseCount + p) * 12, (f * frames.poseCount + p) * 12 + 12), (f * n + j) * 12);
      trs.set(frames.trs.subarray((f * frames.poseCount + p) * 10, (f * frames.poseCount + p) * 10 + 10), (f * n + j) * 10);
    }
  }
  return { ...frames, poseCount: n, parents, matrices, trs };
}

/**
 * `mesh` playing `anim`'s frames and clips (the mesh's own are replaced), with per-frame bounds of
 * the mesh in those frames (frameBounds). Throws when `anim` does not animate `mesh`'s skeleton
 * (animatesSkeleton).
 */
export function withAnimation(mesh: Model, anim: Model): Model {
  if (!animatesSkeleton(anim, mesh) || !anim.animation || !mesh.skeleton) throw new Error('the animation does not fit the skeleton (different joint names or pose count)');
  const animation = reorderPoses(anim.animation, poseMap(anim, mesh), mesh.skeleton.parents);
  const played: Model = {
    ...mesh,
    animation,
    frameCount: anim.frameCount,
    frameNames: anim.frameNames,
    clips: anim.clips.map((c) => ({ ...c })),
    bounds: null,
    iqm: mesh.iqm ? { ...mesh.iqm, fteEvents: anim.iqm?.fteEvents ?? null } : null,
  };
  played.bounds = frameBounds(played);
  return played;
}

/**
 * Per-frame bounds of the skinned mesh (IQM layout: 8 per frame, mins xyz, maxs xyz, xy radius,
 * radius), by CPU skinning every frame; null over BOUNDS_BUDGET. An animation file's own bounds
 * were computed with whatever mesh it was exported with (animation-only files often have none).
 */
export function frameBounds(model: Model): Float32Array | null {
  const vertices = totalVertices(model);
  if (vertices === 0 || model.frameCount === 0 || model.frameCount * vertices > BOUNDS_BUDGET) return null;
  const pose = createPose(model);
  const skinned = new Float32Array(vertices * 3);
  const out = new Float32Array(model.frameCount * 8);
  for (let f = 0; f < model.frameCount; f++) {
    sampleFrames(model, f, f, 0, pose);
    skinVertices(model, pose, skinned);
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity, xy = 0, r = 0;
    for (let i = 0; i < skinned.length; i += 3) {
      const x = skinned[i], y = skinned[i + 1], z = skinned[i + 2];
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (z < z0) z0 = z;
      if (x > x1) x1 = x;
      if (y > y1) y1 = y;
      if (z > z1) z1 = z;
      xy = Math.max(xy, x * x + y * y);
      r = Math.max(r, x * x + y * y + z * z);
    }
    out.set([x0, y0, z0, x1, y1, z1, Math.sqrt(xy), Math.sqrt(r)], f * 8);
  }
  return out;
}

/** What the "mesh from…" picker offers for an opened model, and what it uses. */
export interface PartnerChoice {
  /** 'mesh': the opened file is animation-only and borrows a mesh; 'animations': a mesh borrows clips. */
  role: 'mesh' | 'animations';
  /** File names of the folder that fit, sorted. */
  matches: string[];
  /** The file used, or null (none fits, or the user chose none). */
  chosen: string | null;
  /** Chosen because it is the only one that fits (not by the user). */
  automatic: boolean;
}

/**
 * The order in which a folder's other IQMs are read for the "mesh from" picker, which reads a
 * limited number: the remembered choice first, then the names that share the longest start with
 * the opened file's (`guyanim.iqm` -> `guy.iqm`, `soldier_legs.iqm`), then by name. Case is
 * ignored in the comparison.
 */
export function partnerReadingOrder(names: readonly string[], self: string, remembered: string | undefined): string[] {
  const stem = self.replace(/\.iqm$/i, '').toLowerCase();
  const shared = (name: string): number => {
    const n = name.toLowerCase();
    let k = 0;
    while (k < n.length && k < stem.length && n.charCodeAt(k) === stem.charCodeAt(k)) k++;
    return k;
  };
  const keyed = names.map((name) => ({ name, first: name === remembered ? 1 : 0, shared: shared(name) }));
  keyed.sort((a, b) => b.first - a.first || b.shared - a.shared || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return keyed.map((k) => k.name);
}

/**
 * The picker for `opened` among the other models of its folder. `remembered` is the user's last
 * choice for this file ('' = none; undefined = never chose; a name that no longer fits is ignored).
 * An animation-only file with exactly one fitting mesh uses it without asking; a mesh borrows
 * clips only when the user chose them. Null: nothing to pick (not animation-only, no skeleton).
 */
export function partnerChoice(opened: Model, folder: readonly { name: string; model: Model }[], remembered: string | undefined): PartnerChoice | null {
  let role: PartnerChoice['role'];
  let matches: string[];
  if (isAnimationOnly(opened)) {
    role = 'mesh';
    matches = folder.filter((f) => isSkinnedMesh(f.model) && animatesSkeleton(opened, f.model)).map((f) => f.name);
  } else if (isSkinnedMesh(opened)) {
    role = 'animations';
    matches = folder.filter((f) => isAnimationOnly(f.model) && animatesSkeleton(f.model, opened)).map((f) => f.name);
    if (matches.length === 0) return null;
  } else return null;
  matches.sort((a, b) => a.localeCompare(b));
  if (remembered === '') return { role, matches, chosen: null, automatic: false };
  if (remembered !== undefined && matches.includes(remembered)) return { role, matches, chosen: remembered, automatic: false };
  if (role === 'mesh' && matches.length === 1) return { role, matches, chosen: matches[0], automatic: true };
  return { role, matches, chosen: null, automatic: false };
}

// Models that engines load together: a mesh with its skeleton, and animation files that carry only
// poses (raylib's guyanim.iqm beside guy.iqm; Red Eclipse keeps every animation in an IQM of its
// own, poses without joints). An animation file fits a mesh when it animates the same skeleton:
// the same joint names, or, for a file with poses but no joints, as many poses as the mesh has
// joints (poses are then taken in joint order, as the engines do).

import type { Model, SkeletalFrames } from './model';

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
 * `mesh` playing `anim`'s frames and clips (the mesh's own are replaced). The frames' bounds come
 * from `anim` where it has any (they were computed with some mesh), else there are none. Throws
 * when `anim` does not animate `mesh`'s skeleton (animatesSkeleton).
 */
export function withAnimation(mesh: Model, anim: Model): Model {
  if (!animatesSkeleton(anim, mesh) || !anim.animation || !mesh.skeleton) throw new Error('the animation does not fit the skeleton (different joint names or pose count)');
  const animation = reorderPoses(anim.animation, poseMap(anim, mesh), mesh.skeleton.parents);
  const bounds = anim.bounds && hasExtent(anim.bounds) ? anim.bounds : null;
  return {
    ...mesh,
    animation,
    frameCount: anim.frameCount,
    frameNames: anim.frameNames,
    clips: anim.clips.map((c) => ({ ...c })),
    bounds,
    iqm: mesh.iqm ? { ...mesh.iqm, fteEvents: anim.iqm?.fteEvents ?? null } : null,
  };
}

/** Some frame's box has a size (animation-only exporters often write zeros). */
function hasExtent(bounds: Float32Array): boolean {
  for (let o = 0; o + 7 < bounds.length; o += 8) {
    if (bounds[o + 3] > bounds[o] || bounds[o + 4] > bounds[o + 1] || bounds[o + 5] > bounds[o + 2]) return true;
  }
  return false;
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

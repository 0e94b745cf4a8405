// Where the camera looks: the bounds of a whole clip (so that an animated pose stays in view when
// the model is framed), the target that follows the animated model, the way a model faces and the
// size a restored camera is set up for. Pure functions of the scene.

import type { Model } from '../core/model/model';
import type { Scene, ViewClip } from './scene';

/** The direction a format's models face: +X in the Quake formats (MD3, DPM), +Y (IQM's "Y forward") in the others. */
export function modelFront(format: Model['format']): 'x' | 'y' {
  return format === 'md3' || format === 'dpm' ? 'x' : 'y';
}

/** Half the diagonal of a box (min xyz, max xyz): the radius a restored camera sets its near and far planes for. */
export function boxRadius(b: ArrayLike<number>): number {
  return 0.5 * Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
}

/**
 * The box the camera frames for a clip into out (min xyz, max xyz): the union of the clip's stored
 * per-frame bounds and the bind-pose box of the vertices no joint moves (the preview draws them
 * where they are; the file's bounds put them at the origin, as engines skin them). A frame whose
 * stored box is a point is empty (the compiler writes zeros when every weight is 0) and is left
 * out. False when nothing is left, or only a point: the caller frames the bind pose.
 */
export function clipBounds(scene: Scene, clip: ViewClip | undefined, out: Float64Array): boolean {
  const bounds = scene.model.bounds;
  if (!clip || !bounds) return false;
  const frames = scene.model.frameCount;
  out[0] = out[1] = out[2] = Infinity;
  out[3] = out[4] = out[5] = -Infinity;
  let used = false;
  for (let k = 0; k < clip.frameCount; k++) {
    const f = clip.firstFrame + k;
    if (f < 0 || f >= frames || isPointBox(bounds, f * 8)) continue;
    for (let i = 0; i < 6; i++) {
      const v = bounds[f * 8 + i];
      if (!Number.isFinite(v)) continue;
      if (i < 3) out[i] = Math.min(out[i], v);
      else out[i] = Math.max(out[i], v);
    }
    used = true;
  }
  // Every stored box empty: what is drawn is the vertices that stay where they are (if any).
  if (!used && !(scene.unweightedBox[0] <= scene.unweightedBox[3])) return false;
  const u = scene.unweightedBox;
  for (let i = 0; i < 3; i++) {
    out[i] = Math.min(out[i], u[i]);
    out[3 + i] = Math.max(out[3 + i], u[3 + i]);
  }
  return out[0] <= out[3] && out[1] <= out[4] && out[2] <= out[5] && !isPointBox(out, 0);
}

/** True when the stored box at b[o..o+6) has no extent on any axis (or is not a box at all). */
function isPointBox(b: ArrayLike<number>, o: number): boolean {
  return !(b[o + 3] - b[o] > 0 || b[o + 4] - b[o + 1] > 0 || b[o + 5] - b[o + 2] > 0);
}

/**
 * True when some of the box (min xyz, max xyz) can be in sight of the column-major view-projection
 * `viewProj`: false only when all eight corners lie beyond one side of the view, or behind it.
 */
export function boxInView(viewProj: ArrayLike<number>, b: ArrayLike<number>): boolean {
  const m = viewProj;
  // Bits of the sides each corner is beyond (left, right, bottom, top, behind); all share one: out.
  let common = 31;
  for (let k = 0; k < 8; k++) {
    const x = b[k & 1 ? 3 : 0], y = b[k & 2 ? 4 : 1], z = b[k & 4 ? 5 : 2];
    const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
    const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    const out = (cx < -cw ? 1 : 0) | (cx > cw ? 2 : 0) | (cy < -cw ? 4 : 0) | (cy > cw ? 8 : 0) | (cw <= 0 ? 16 : 0);
    common &= out;
    if (common === 0) return true;
  }
  return false;
}

/** Follow: the current frame's bounds' centre (or, without bounds, the joints' centre) into target; an empty stored box leaves it. */
export function followTarget(scene: Scene, target: Float64Array | Float32Array): void {
  const bounds = scene.model.bounds;
  const f = scene.blend.a;
  const t = target;
  if (bounds && f >= 0 && f < scene.model.frameCount) {
    // An empty stored box says nothing of where the model is: the target stays.
    if (isPointBox(bounds, f * 8)) return;
    for (let i = 0; i < 3; i++) t[i] = (bounds[f * 8 + i] + bounds[f * 8 + 3 + i]) / 2;
  } else if (scene.pose && scene.jointCount > 0) {
    const w = scene.pose.world;
    let x = 0, y = 0, z = 0;
    for (let j = 0; j < scene.jointCount; j++) {
      x += w[j * 12 + 3];
      y += w[j * 12 + 7];
      z += w[j * 12 + 11];
    }
    t[0] = x / scene.jointCount;
    t[1] = y / scene.jointCount;
    t[2] = z / scene.jointCount;
  }
}

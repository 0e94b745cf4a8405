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

/** The union of a clip's per-frame bounds into out (min xyz, max xyz); false when there are none. */
export function clipBounds(scene: Scene, clip: ViewClip | undefined, out: Float64Array): boolean {
  const bounds = scene.model.bounds;
  if (!clip || !bounds) return false;
  const frames = scene.model.frameCount;
  out[0] = out[1] = out[2] = Infinity;
  out[3] = out[4] = out[5] = -Infinity;
  for (let k = 0; k < clip.frameCount; k++) {
    const f = clip.firstFrame + k;
    if (f < 0 || f >= frames) continue;
    for (let i = 0; i < 6; i++) {
      const v = bounds[f * 8 + i];
      if (!Number.isFinite(v)) continue;
      if (i < 3) out[i] = Math.min(out[i], v);
      else out[i] = Math.max(out[i], v);
    }
  }
  return out[0] <= out[3] && out[1] <= out[4] && out[2] <= out[5];
}

/** Follow: the current frame's bounds' centre (or, without bounds, the joints' centre) into target. */
export function followTarget(scene: Scene, target: Float64Array | Float32Array): void {
  const bounds = scene.model.bounds;
  const f = scene.blend.a;
  const t = target;
  if (bounds && f >= 0 && f < scene.model.frameCount) {
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

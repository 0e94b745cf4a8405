// The picked triangle and the highlighted part of the model (the IQE cursor's vertex or face): the
// triangle under a click, found on the CPU against the positions as drawn now (skinned for the
// current pose, or MD3 frames morphed), and the outline segments of both for the overlay lines.
// The positions are recomputed only when something is outlined and the pose changed.

import { invert4 } from '../../core/math/mat4';
import { highlightSegments } from '../../core/model/highlight';
import { pickTriangle, rayThrough, type Picked } from '../../core/model/pick';
import { morphVertices } from '../../core/model/sample';
import { skinVertices } from '../../core/model/skin';
import type { Highlight } from '../../core/protocol';
import type { Scene } from '../scene';

/** Outline colours (RGB): the picked triangle, and what the IQE cursor is on. */
export const PICKED_COLOUR: readonly [number, number, number] = [1, 0.35, 0.9];
export const HIGHLIGHT_COLOUR: readonly [number, number, number] = [0.2, 0.95, 1];

export class Picking {
  picked: Picked | null = null;
  highlighted: Highlight | null = null;
  private positions = new Float32Array(0);
  private readonly inverse = new Float32Array(16);
  /** Segments of the picked triangle, then of the highlight (6 values each), and where the highlight's start. */
  readonly segments: number[] = [];
  highlightStart = 0;

  /** The positions of the scene as drawn for its current pose (3 per vertex, all meshes in order). */
  private drawn(scene: Scene): Float32Array {
    const model = scene.model;
    const n = scene.layout.totalVertices * 3;
    if (this.positions.length !== n) this.positions = new Float32Array(n);
    const out = this.positions;
    if (scene.pose) skinVertices(model, scene.pose, out);
    else if (model.meshes.some((m) => m.morph)) {
      const f = scene.morphFrames();
      morphVertices(model, f.a, f.b, f.t, out);
    } else {
      let o = 0;
      for (const m of model.meshes) {
        out.set(m.position, o);
        o += m.position.length;
      }
    }
    return out;
  }

  /**
   * The triangle under the canvas point (x, y in CSS pixels of a width × height canvas) for the
   * camera's view-projection, or null; back faces skipped as the renderer culls them.
   */
  pick(scene: Scene, viewProj: Float32Array, x: number, y: number, width: number, height: number, cull: { on: boolean; frontCW: boolean }, hidden: (mesh: number) => boolean): Picked | null {
    if (!invert4(this.inverse, viewProj)) return null;
    const ray = rayThrough(this.inverse, (2 * x) / width - 1, 1 - (2 * y) / height);
    const front = !cull.on ? 0 : cull.frontCW ? -1 : 1;
    this.picked = pickTriangle(scene.model, this.drawn(scene), ray.origin, ray.direction, { front, skip: hidden });
    return this.picked;
  }

  /** The outline segments for the current pose (empty when nothing is picked or highlighted). */
  build(scene: Scene | null): void {
    this.segments.length = 0;
    this.highlightStart = 0;
    const target = this.highlighted && this.highlighted.kind !== 'joint' ? this.highlighted : null;
    if (!scene || (!this.picked && !target)) return;
    const positions = this.drawn(scene);
    const b = scene.box;
    const size = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) * 0.015 || 0.01;
    if (this.picked) highlightSegments(scene.model, positions, { kind: 'triangles', indices: [this.picked.modelTriangle] }, size, this.segments);
    this.highlightStart = this.segments.length;
    if (target) highlightSegments(scene.model, positions, target, size, this.segments);
  }
}

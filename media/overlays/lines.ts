// The overlay line buffer: grid and axes (static, rebuilt per model), then the skeleton, MD3 tags
// and the frame's bounds (rebuilt every frame), then the joints as points. One Float32Array reused
// every frame: building the overlays allocates nothing.

import type { ViewState } from '../../core/viewState';
import { LINE_STRIDE, type Renderer } from '../renderer/renderer';
import type { Scene } from '../scene';

export class OverlayLines {
  private lines = new Float32Array(0);
  private lineCount = 0;
  private gridCount = 0;
  private pointFirst = 0;
  private pointCount = 0;
  private readonly tagScratch = new Float64Array(12);

  /** Nothing to draw (an error view). */
  clear(): void {
    this.lineCount = this.gridCount = this.pointCount = this.pointFirst = 0;
  }

  private ensure(vertices: number): void {
    if (this.lines.length < vertices * LINE_STRIDE) this.lines = new Float32Array(vertices * LINE_STRIDE);
  }

  private push(x: number, y: number, z: number, r: number, g: number, b: number, a: number): void {
    const o = this.lineCount * LINE_STRIDE;
    const L = this.lines;
    L[o] = x; L[o + 1] = y; L[o + 2] = z; L[o + 3] = r; L[o + 4] = g; L[o + 5] = b; L[o + 6] = a;
    this.lineCount++;
  }

  /**
   * Grid (z = 0, the model's floor) and axes sized to the model: the static head of the buffer;
   * sizes the buffer for the dynamic parts. Returns the model's size (for the normals' length).
   */
  buildGrid(scene: Scene): number {
    const b = scene.box;
    const size = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) || 1;
    const step = Math.pow(10, Math.floor(Math.log10(size / 2)));
    const half = Math.ceil(size / step) * step;
    const n = Math.round((2 * half) / step);
    const joints = scene.jointCount;
    const tags = scene.model.tags ? scene.model.tags.names.length : 0;
    this.ensure((n + 1) * 4 + 6 + joints * 2 + joints + tags * 6 + 24 + 16);
    this.lineCount = 0;
    const z = 0;
    for (let i = 0; i <= n; i++) {
      const t = -half + i * step;
      const c = Math.abs(t) < step * 1e-3 ? 0.45 : 0.3;
      this.push(t, -half, z, c, c, c, 1);
      this.push(t, half, z, c, c, c, 1);
      this.push(-half, t, z, c, c, c, 1);
      this.push(half, t, z, c, c, c, 1);
    }
    const a = half * 0.5;
    this.push(0, 0, 0, 1, 0.2, 0.2, 1);
    this.push(a, 0, 0, 1, 0.2, 0.2, 1);
    this.push(0, 0, 0, 0.2, 1, 0.2, 1);
    this.push(0, a, 0, 0.2, 1, 0.2, 1);
    this.push(0, 0, 0, 0.3, 0.5, 1, 1);
    this.push(0, 0, a, 0.3, 0.5, 1, 1);
    this.gridCount = this.lineCount;
    return size;
  }

  /**
   * Skeleton, tags and bounds for the current pose, after the grid. `showTags` is false where the
   * tags would be drawn in the wrong space (an assembled player whose opened part is not the base).
   */
  build(scene: Scene | null, s: ViewState, showTags: boolean): void {
    this.lineCount = this.gridCount;
    this.pointCount = 0;
    if (!scene) return;
    if (s.skeleton && scene.pose) {
      const w = scene.pose.world;
      const par = scene.parents;
      for (let j = 0; j < scene.jointCount; j++) {
        const p = par[j];
        if (p < 0) continue;
        const sel = j === s.selectedJoint || p === s.selectedJoint;
        this.push(w[p * 12 + 3], w[p * 12 + 7], w[p * 12 + 11], 1, sel ? 1 : 0.75, sel ? 0.2 : 0.1, 1);
        this.push(w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11], 1, sel ? 1 : 0.75, sel ? 0.2 : 0.1, 1);
      }
    }
    if (s.tags && scene.model.tags && showTags) {
      const b = scene.box;
      const len = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) * 0.08;
      const m = this.tagScratch;
      for (let t = 0; t < scene.model.tags.names.length; t++) {
        scene.tag(t, m, 0);
        for (let axis = 0; axis < 3; axis++) {
          this.push(m[3], m[7], m[11], axis === 0 ? 1 : 0.1, axis === 1 ? 1 : 0.1, axis === 2 ? 1 : 0.1, 1);
          this.push(m[3] + m[axis] * len, m[7] + m[4 + axis] * len, m[11] + m[8 + axis] * len, axis === 0 ? 1 : 0.1, axis === 1 ? 1 : 0.1, axis === 2 ? 1 : 0.1, 1);
        }
      }
    }
    const bounds = scene.model.bounds;
    if (s.bounds && bounds && scene.model.frameCount > 0) {
      const f = Math.min(Math.max(scene.blend.a, 0), scene.model.frameCount - 1) * 8;
      const x0 = bounds[f], y0 = bounds[f + 1], z0 = bounds[f + 2], x1 = bounds[f + 3], y1 = bounds[f + 4], z1 = bounds[f + 5];
      for (let e = 0; e < 12; e++) {
        // The 12 edges of the box: 4 along each axis.
        const axis = e >> 2, k = e & 3;
        const u = k & 1, v = k >> 1;
        const ax = axis === 0, ay = axis === 1;
        const xa = ax ? x0 : u ? x1 : x0, ya = ay ? y0 : (ax ? u : v) ? y1 : y0, za = axis === 2 ? z0 : v ? z1 : z0;
        const xb = ax ? x1 : xa, yb = ay ? y1 : ya, zb = axis === 2 ? z1 : za;
        this.push(xa, ya, za, 0.3, 1, 0.8, 1);
        this.push(xb, yb, zb, 0.3, 1, 0.8, 1);
      }
    }
    this.pointFirst = this.lineCount;
    if (s.skeleton && scene.pose) {
      const w = scene.pose.world;
      for (let j = 0; j < scene.jointCount; j++) {
        const sel = j === s.selectedJoint;
        this.push(w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11], sel ? 1 : 0.9, sel ? 1 : 0.9, sel ? 0.2 : 0.9, 1);
      }
      this.pointCount = this.lineCount - this.pointFirst;
    }
  }

  /** Uploads and draws: the grid (when shown), the lines, then the joints as points. */
  draw(r: Renderer, viewProj: Float32Array, grid: boolean): void {
    if (this.lineCount > 0) r.setLines(this.lines, this.lineCount);
    if (grid) r.drawLines(viewProj, 0, this.gridCount, true);
    if (this.pointFirst > this.gridCount) r.drawLines(viewProj, this.gridCount, this.pointFirst - this.gridCount, false);
    if (this.pointCount > 0) r.drawLines(viewProj, this.pointFirst, this.pointCount, false, true);
  }
}

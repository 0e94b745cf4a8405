// How the view's camera is moved, other than by the pointer (pointer.ts): framed from a preset over
// the selected clip (or an assembled player's pose), put where a saved or shared view had it, kept
// framed when the editor is resized until the user moves it, turned by auto-rotate and following
// the animated model. framing.ts works out the boxes and targets; per-frame code allocates nothing.

import type { ViewState } from '../core/viewState';
import { boxInView, boxRadius, clipBounds, followTarget, modelFront } from './framing';
import type { PlayerAssembly } from './player';
import type { CameraState, CameraView, OrbitCamera } from './renderer/camera';
import type { Scene, ViewClip } from './scene';

export class ViewCamera {
  /** The preset the camera was last framed from, or null once the user moved it (then a resize keeps it). */
  private fitted: CameraView | null = null;
  private readonly box = new Float64Array(6);
  /** Time of the last auto-rotate step (ms), -1 when not rotating. */
  private lastRotate = -1;

  constructor(
    private readonly camera: OrbitCamera,
    private readonly canvas: HTMLCanvasElement,
    private readonly root: HTMLElement,
    private readonly state: ViewState,
  ) {}

  /**
   * Frames `scene` from `view`: over every frame of `clip` (the file's per-frame bounds), so that
   * an animated pose (a leap, a swung arm) stays in view; the bind-pose box where the file has no
   * bounds or no clip is selected; an assembled player's box at its current pose. The fitted box
   * goes on the root (data-fit) for the tests.
   */
  fit(scene: Scene, player: PlayerAssembly | null, clip: ViewClip | undefined, view: CameraView = 'default'): void {
    const s = this.state;
    const b = this.frameBox(scene, player, clip);
    const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
    this.camera.fit([b[0], b[1], b[2]], [b[3], b[4], b[5]], modelFront(scene.model.format), aspect || 1, view);
    this.fitted = view;
    this.camera.ortho = s.ortho;
    s.camera = null;
    this.root.dataset.fit = Array.from(b, (x) => x.toFixed(3)).join(',');
  }

  /**
   * Another clip was selected. A camera framed from a preset frames the new clip from it, as the
   * first clip was framed. A camera the user moved stays where it is (they chose that view; a
   * clip switch should not undo it) unless the new clip would be wholly out of its sight: then it
   * turns to the clip's centre from the same direction, backing off as far as the clip needs.
   */
  clipChanged(scene: Scene, player: PlayerAssembly | null, clip: ViewClip | undefined): void {
    if (this.fitted) {
      this.fit(scene, player, clip, this.fitted);
      return;
    }
    const b = this.frameBox(scene, player, clip);
    if (boxInView(this.camera.viewProj, b)) return;
    const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
    this.camera.bringIntoView([b[0], b[1], b[2]], [b[3], b[4], b[5]], aspect || 1);
  }

  /** The box to frame: an assembled player's at its current pose, else the clip's (framing.ts), else the bind pose's. */
  private frameBox(scene: Scene, player: PlayerAssembly | null, clip: ViewClip | undefined): Float64Array {
    const s = this.state;
    if (player) {
      player.update(s.time, s.loop, s.interpolate);
      player.box(this.box);
      return this.box;
    }
    return clipBounds(scene, clip, this.box) ? this.box : scene.box;
  }

  /** The editor was resized: a camera framed from a preset (not moved since) frames the model again. */
  refit(scene: Scene, player: PlayerAssembly | null, clip: ViewClip | undefined): void {
    if (this.fitted) this.fit(scene, player, clip, this.fitted);
  }

  /** Puts the camera where a saved or shared view had it (no longer framed by a preset). */
  restore(c: CameraState, scene: Scene): void {
    this.camera.restore(c, boxRadius(scene.box));
    this.fitted = null;
  }

  /** The user moved the camera: it is no longer framed by a preset. */
  moved(): void {
    this.fitted = null;
  }

  /** Every animation frame: auto-rotate turns the camera by the time since the last one. */
  rotate(now: number, on: boolean): void {
    if (on) {
      if (this.lastRotate >= 0) this.camera.yaw += ((now - this.lastRotate) / 1000) * 0.5;
      this.lastRotate = now;
    } else this.lastRotate = -1;
  }

  /** Every drawn frame: the target follows the posed model (when asked), and the view-projection for the canvas's size. */
  update(scene: Scene | null): void {
    if (this.state.follow && scene) followTarget(scene, this.camera.target);
    this.camera.update(this.canvas.width / Math.max(1, this.canvas.height));
  }
}

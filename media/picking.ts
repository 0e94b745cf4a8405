// Picking on the view: the joint under the pointer (named while hovering with the skeleton shown,
// selected by a click on it), the triangle under a click (named in the info panel and posted to the
// host, which puts an IQE text's cursor on its lines), and what the host asks to highlight (the IQE
// cursor's vertex, face or joint). The outline geometry is overlays/picking.ts's, the joint label
// overlays/names.ts's; this module says what is picked and shows it on the root's data attributes.

import type { Highlight, WebviewToHost } from '../core/protocol';
import type { ViewState } from '../core/viewState';
import { JointNames } from './overlays/names';
import { Picking } from './overlays/picking';
import type { OrbitCamera } from './renderer/camera';
import type { ModelGpu } from './renderer/renderer';
import type { Scene } from './scene';
import type { WorkPanel } from './ui/workPanel';

export class ViewPicking {
  /** The picked triangle and the highlight, which the overlay lines outline. */
  readonly outlines = new Picking();
  /** The hovered joint's name, beside the pointer. */
  readonly names = new JointNames();

  constructor(
    private readonly root: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly camera: OrbitCamera,
    private readonly work: WorkPanel,
    private readonly post: (message: WebviewToHost) => void,
  ) {}

  /** The joint of `scene` nearest to a canvas point (CSS pixels) on the last drawn frame, or -1. */
  joint(scene: Scene | null, x: number, y: number): number {
    return this.names.pick(scene, this.camera.viewProj, this.canvas.clientWidth, this.canvas.clientHeight, x, y);
  }

  /** Hovering: the name of the joint under the pointer while the skeleton is shown. */
  hover(scene: Scene | null, skeleton: boolean, x: number, y: number): void {
    if (!skeleton || !scene) {
      this.names.hide();
      return;
    }
    this.names.show(scene, this.joint(scene, x, y), x, y);
  }

  /**
   * The triangle of the drawn model (`scene` on `gpu`) under the canvas point (x, y) at the pose
   * and culling of `s`, or -1: the info panel names it and the host is told; nothing under the
   * point clears the pick.
   */
  triangle(scene: Scene, gpu: ModelGpu, s: ViewState, x: number, y: number): number {
    // The pose of the frame on screen.
    scene.update(s.clip, s.time, s.loop, s.interpolate);
    this.camera.update(this.canvas.width / Math.max(1, this.canvas.height));
    const frontCW = gpu.frontCW !== (s.winding === 'flipped');
    const picked = this.outlines.pick(scene, this.camera.viewProj, x, y, this.canvas.clientWidth, this.canvas.clientHeight, { on: s.cull, frontCW }, (m) => gpu.meshes[m]?.visible === false);
    this.work.showPick(picked, scene);
    if (picked) {
      this.root.dataset.picked = String(picked.modelTriangle);
      this.post({ type: 'picked', mesh: picked.mesh, triangle: picked.modelTriangle, vertices: picked.vertices });
    } else delete this.root.dataset.picked;
    return picked ? picked.modelTriangle : -1;
  }

  /** A new model (`scene`): a triangle of the earlier one means nothing in it. The highlight stays (the host sends it again). */
  forgetPick(scene: Scene): void {
    this.outlines.picked = null;
    this.work.showPick(null, scene);
    delete this.root.dataset.picked;
  }

  /** What the host asks to highlight, kept for the outlines and shown on the root as data-highlight. */
  highlight(target: Highlight | null): void {
    this.outlines.highlighted = target;
    this.root.dataset.highlight = target ? `${target.kind}:${target.kind === 'joint' ? target.joint : target.indices.join(',')}` : '';
  }
}

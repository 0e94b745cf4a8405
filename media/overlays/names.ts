// Joint names on hover: the joint nearest the pointer (projected with the camera), shown in a
// label beside it. Picking is also what a click on the skeleton selects.

import { project } from '../renderer/camera';
import type { Scene } from '../scene';
import { h } from '../ui/dom';

/** How near (CSS px) the pointer must be to a joint to pick it. */
const PICK_RADIUS_PX = 10;

export class JointNames {
  readonly label: HTMLElement = h('div', { id: 'label', class: 'label hidden' });
  private hoverJoint = -1;
  private readonly projected = new Float64Array(3);

  /** The joint nearest to a canvas point (CSS pixels) within PICK_RADIUS_PX, or -1. */
  pick(scene: Scene | null, viewProj: Float32Array, width: number, height: number, x: number, y: number): number {
    if (!scene || !scene.pose) return -1;
    const w = scene.pose.world;
    let best = -1;
    let bestD = PICK_RADIUS_PX * PICK_RADIUS_PX;
    for (let j = 0; j < scene.jointCount; j++) {
      if (!project(viewProj, w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11], width, height, this.projected)) continue;
      const d = (this.projected[0] - x) ** 2 + (this.projected[1] - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = j;
      }
    }
    return best;
  }

  /** Shows the name of joint `j` at (x, y), or hides the label (j < 0). */
  show(scene: Scene | null, j: number, x: number, y: number): void {
    this.hoverJoint = j;
    if (j < 0 || !scene) {
      this.label.classList.add('hidden');
      return;
    }
    this.label.textContent = `${j}: ${scene.names[j]}`;
    this.label.style.left = `${x + 12}px`;
    this.label.style.top = `${y + 8}px`;
    this.label.classList.remove('hidden');
  }

  hide(): void {
    if (this.hoverJoint === -1) return;
    this.hoverJoint = -1;
    this.label.classList.add('hidden');
  }
}

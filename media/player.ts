// Quake 3 player assembly (FORMAT-PITFALLS §8.3/8.4): lower.md3 at the origin, upper.md3 attached
// at lower's tag_torso, head.md3 at upper's tag_head; world_B = world_A × [axis | origin]. Clips come
// from animation.cfg through the one clip order (core/lookup/clips.ts playerClips): BOTH_* play on
// legs and torso, TORSO_* on the torso (legs idle), LEGS_* on the legs (torso stands). Per frame:
// each part's frame pair, then the tag chain; no allocations.

import type { Model } from '../core/model/model';
import { playerClips } from '../core/lookup/clips';
import { from3x4, identity4, multiply4 } from './renderer/camera';
import type { ModelGpu } from './renderer/renderer';
import { Scene, type ViewClip } from './scene';

export type PartName = 'lower' | 'upper' | 'head';

export interface PartView {
  part: PartName;
  fileName: string;
  scene: Scene;
  gpu: ModelGpu | null;
  /** Index into the assembly's clips for this part (-1: its first frame). */
  clip: number;
  /** Tag of this part that the next part hangs from (lower: tag_torso, upper: tag_head). */
  childTag: number;
}

export class PlayerAssembly {
  readonly parts: PartView[];
  readonly clips: ViewClip[];
  private readonly tag = new Float64Array(12);
  private readonly tagMatrix = new Float32Array(16);

  /** `main` is the opened part; `others` the two parts posted by the host. */
  constructor(main: { part: PartName; fileName: string; scene: Scene }, others: { part: PartName; fileName: string; model: Model }[], animationCfg: string | null) {
    this.clips = animationCfg ? playerClips({ name: 'animation.cfg', text: animationCfg }) : [];
    const all = [{ ...main, model: main.scene.model }, ...others];
    const order: PartName[] = ['lower', 'upper', 'head'];
    this.parts = order.map((name) => {
      const p = all.find((x) => x.part === name);
      if (!p) throw new Error(`player part ${name}.md3 is missing`);
      const scene = p === all[0] ? main.scene : new Scene(p.model);
      scene.clips = this.clips;
      const tags = p.model.tags?.names.map((n) => n.toLowerCase()) ?? [];
      const childTag = name === 'lower' ? tags.indexOf('tag_torso') : name === 'upper' ? tags.indexOf('tag_head') : -1;
      return { part: name, fileName: p.fileName, scene, gpu: null, clip: -1, childTag };
    });
    this.selectClip(this.clips.findIndex((c) => c.name === 'TORSO_STAND'), -1);
  }

  part(name: PartName): PartView {
    return this.parts[name === 'lower' ? 0 : name === 'upper' ? 1 : 2];
  }

  /**
   * Which clip each part plays: Quake 3 plays a torso clip and a legs clip at once. `torso` is a
   * TORSO_* or BOTH_* clip (a LEGS_* one plays on the legs with the torso standing); `legs` a
   * LEGS_* clip for the legs (-1: LEGS_IDLE). A BOTH_* clip plays on both.
   */
  selectClip(torso: number, legs: number): void {
    const find = (name: string) => this.clips.findIndex((c) => c.name === name);
    const name = this.clips[torso]?.name ?? '';
    const legsName = this.clips[legs]?.name ?? '';
    const lower = this.part('lower'), upper = this.part('upper'), head = this.part('head');
    if (name.startsWith('BOTH_')) lower.clip = upper.clip = torso;
    else if (name.startsWith('LEGS_')) {
      lower.clip = torso;
      upper.clip = find('TORSO_STAND');
    } else {
      upper.clip = name.startsWith('TORSO_') ? torso : find('TORSO_STAND');
      lower.clip = legsName.startsWith('LEGS_') ? legs : find('LEGS_IDLE');
    }
    head.clip = -1;
  }

  /** Poses every part at `seconds` and chains the tags into the parts' model matrices. */
  update(seconds: number, loop: boolean, interpolate: boolean): void {
    for (const p of this.parts) {
      p.scene.update(p.clip, seconds, loop, interpolate);
      p.gpu?.setFrames(p.scene.morphFrames());
    }
    const lower = this.parts[0], upper = this.parts[1], head = this.parts[2];
    if (lower.gpu) identity4(lower.gpu.modelMatrix);
    this.attach(lower, upper);
    this.attach(upper, head);
  }

  private attach(parent: PartView, child: PartView): void {
    if (!parent.gpu || !child.gpu) return;
    if (parent.childTag < 0) {
      child.gpu.modelMatrix.set(parent.gpu.modelMatrix);
      return;
    }
    parent.scene.tag(parent.childTag, this.tag, 0);
    from3x4(this.tagMatrix, this.tag, 0);
    multiply4(child.gpu.modelMatrix, parent.gpu.modelMatrix, this.tagMatrix);
  }

  /** Bounding box of the assembled player at its current pose: each part's box corners through its model matrix. */
  box(out: Float64Array): void {
    out[0] = out[1] = out[2] = Infinity;
    out[3] = out[4] = out[5] = -Infinity;
    for (const p of this.parts) {
      const m = p.gpu?.modelMatrix;
      const b = p.scene.box;
      for (let c = 0; c < 8; c++) {
        const x = c & 1 ? b[3] : b[0], y = c & 2 ? b[4] : b[1], z = c & 4 ? b[5] : b[2];
        const wx = m ? m[0] * x + m[4] * y + m[8] * z + m[12] : x;
        const wy = m ? m[1] * x + m[5] * y + m[9] * z + m[13] : y;
        const wz = m ? m[2] * x + m[6] * y + m[10] * z + m[14] : z;
        out[0] = Math.min(out[0], wx);
        out[1] = Math.min(out[1], wy);
        out[2] = Math.min(out[2], wz);
        out[3] = Math.max(out[3], wx);
        out[4] = Math.max(out[4], wy);
        out[5] = Math.max(out[5], wz);
      }
    }
  }
}

// One loaded model in the webview: the core Model, its GPU layout, the animation state and the
// per-frame update (pose sampling on the CPU for the joint matrices only; skinning is on the GPU).
// `update()` runs every frame and allocates nothing.

import type { Clip, Model } from '../core/model/model';
import { DEFAULT_FPS } from '../core/model/model';
import { clipFrame, createPose, sampleFrames, sampleTag, setBindPose, type FrameBlend, type Pose } from '../core/model/sample';
import { buildLayout, createJointTexture, jointCountOf, packJoints, type ModelLayout, type TextureLayout } from './renderer/layout';

/** A clip as the viewer lists it (the model's, or from .framegroups / animation.cfg). */
export interface ViewClip extends Clip {
  /** Where the clip came from, for the UI. */
  source: string;
}

export class Scene {
  readonly layout: ModelLayout;
  readonly pose: Pose | null;
  readonly joints: TextureLayout | null;
  readonly jointCount: number;
  /** Skeleton of the pose (for overlays): parents per joint. */
  readonly parents: Int32Array;
  readonly names: string[];
  clips: ViewClip[] = [];
  /** Current frame pair and blend (global frame numbers). */
  readonly blend: FrameBlend = { a: 0, b: 0, t: 0 };
  /** Bounding box over the bind pose and every frame's stored bounds: min xyz, max xyz. */
  readonly box = new Float64Array(6);
  /**
   * Bind-pose box of the vertices no joint moves (all weights 0, or no blend arrays at all), which
   * the preview draws where they are; min > max when there are none. (A DPM vertex without an
   * influence is drawn at the origin, as the stored bounds have it.)
   */
  readonly unweightedBox = new Float64Array(6);
  /** Uses world matrices (DPM: origins are in bone space) instead of skin matrices. */
  private readonly useWorld: boolean;

  constructor(readonly model: Model) {
    this.layout = buildLayout(model);
    this.jointCount = jointCountOf(model);
    this.useWorld = this.layout.kind === 'dpm';
    this.pose = this.jointCount > 0 ? createPose(model) : null;
    this.joints = this.jointCount > 0 ? createJointTexture(this.jointCount) : null;
    this.parents = this.pose ? this.pose.parents : new Int32Array(0);
    this.names = model.skeleton ? model.skeleton.names : Array.from({ length: this.jointCount }, (_, i) => `pose ${i}`);
    this.computeBox();
    this.computeUnweightedBox();
    if (this.pose && this.joints) packJoints(this.useWorld ? this.pose.world : this.pose.skin, this.jointCount, this.joints);
  }

  private computeBox(): void {
    const b = this.box;
    emptyBox(b);
    const add = (x: number, y: number, z: number) => addPoint(b, x, y, z);
    for (const m of this.model.meshes) {
      const p = m.morph && m.morph.frameCount > 0 ? m.morph.positions.subarray(0, m.vertexCount * 3) : m.position;
      for (let i = 0; i + 2 < p.length; i += 3) add(p[i], p[i + 1], p[i + 2]);
    }
    if (this.pose) {
      const w = this.pose.world;
      for (let j = 0; j < this.jointCount; j++) add(w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11]);
      // Animated joints (animation-only files have nothing else to frame): a few sampled frames.
      const frames = this.model.animation ? this.model.animation.frameCount : 0;
      if (frames > 0 && this.model.meshes.length === 0) {
        for (let k = 0; k < 5; k++) {
          const f = Math.min(frames - 1, Math.floor((k * (frames - 1)) / 4));
          sampleFrames(this.model, f, f, 0, this.pose);
          for (let j = 0; j < this.jointCount; j++) add(w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11]);
        }
        setBindPose(this.model, this.pose);
      }
    }
    if (!(b[0] <= b[3])) {
      b[0] = b[1] = b[2] = -1;
      b[3] = b[4] = b[5] = 1;
    } else if (!(b[3] > b[0] || b[4] > b[1] || b[5] > b[2])) {
      // Every point in one place: a unit box around it, so that the camera and grid have a size.
      for (let i = 0; i < 3; i++) {
        b[i] -= 0.5;
        b[3 + i] += 0.5;
      }
    }
  }

  private computeUnweightedBox(): void {
    const b = this.unweightedBox;
    emptyBox(b);
    const kind = this.layout.kind;
    // A skeletal model without blend arrays draws every vertex where it is.
    const allStatic = kind === 'static' && this.jointCount > 0;
    if (kind !== 'linear' && !allStatic) return;
    this.model.meshes.forEach((m, i) => {
      const l = this.layout.meshes[i];
      if (!allStatic && l.unweighted === 0) return;
      const p = m.position;
      for (let v = 0; v < m.vertexCount; v++) {
        const w = l.weights;
        if (!allStatic && (!w || w[v * 4] + w[v * 4 + 1] + w[v * 4 + 2] + w[v * 4 + 3] > 0)) continue;
        addPoint(b, p[v * 3], p[v * 3 + 1], p[v * 3 + 2]);
      }
    });
  }

  /** Frames per second of a clip as played (0 in the file falls back to DEFAULT_FPS). */
  static fps(clip: Clip | undefined): number {
    return clip && clip.fps > 0 ? clip.fps : DEFAULT_FPS;
  }

  /** Duration of a clip in seconds. */
  static duration(clip: Clip | undefined): number {
    if (!clip) return 0;
    return Math.max(1, clip.frameCount) / Scene.fps(clip);
  }

  /**
   * Poses the model for clip `clipIndex` at `seconds` (clip -1 or no clip: the bind pose) and packs
   * the joint matrices. `interpolate` false snaps to whole frames.
   */
  update(clipIndex: number, seconds: number, loop: boolean, interpolate: boolean): void {
    const clip = clipIndex >= 0 ? this.clips[clipIndex] : undefined;
    const blend = this.blend;
    if (!clip || this.model.frameCount === 0) {
      blend.a = -1;
      blend.b = -1;
      blend.t = 0;
      if (this.pose) setBindPose(this.model, this.pose);
    } else {
      // The loop toggle overrides the clip's own flag while sampling.
      const saved = clip.loop;
      clip.loop = loop;
      clipFrame(clip, seconds, blend);
      clip.loop = saved;
      if (blend.a >= this.model.frameCount) blend.a = this.model.frameCount - 1;
      if (blend.b >= this.model.frameCount) blend.b = this.model.frameCount - 1;
      if (!interpolate) blend.t = 0;
      if (this.pose) sampleFrames(this.model, blend.a, blend.b, blend.t, this.pose);
    }
    if (this.pose && this.joints) packJoints(this.useWorld ? this.pose.world : this.pose.skin, this.jointCount, this.joints);
  }

  /** Poses the model at one global frame (-1: bind pose), for tests and the frame field. */
  setFrame(frame: number): void {
    const blend = this.blend;
    blend.a = frame;
    blend.b = frame;
    blend.t = 0;
    if (this.pose) {
      if (frame < 0 && this.model.format !== 'dpm') setBindPose(this.model, this.pose);
      else sampleFrames(this.model, Math.max(0, frame), Math.max(0, frame), 0, this.pose);
      packJoints(this.useWorld ? this.pose.world : this.pose.skin, this.jointCount, this.joints as TextureLayout);
    }
  }

  /** The MD3 frame pair for the current blend (bind pose = frame 0). */
  morphFrames(): { a: number; b: number; t: number } {
    return this.blend.a < 0 ? ZERO_BLEND : this.blend;
  }

  /** Tag `tag` at the current frame pair into out[o..o+12) (3x4 row-major). */
  tag(tag: number, out: Float64Array, o = 0): void {
    const b = this.blend;
    sampleTag(this.model, tag, Math.max(0, b.a), Math.max(0, b.b), b.a < 0 ? 0 : b.t, out, o);
  }
}

/** An empty box (min xyz at +Infinity, max xyz at -Infinity) in b. */
function emptyBox(b: Float64Array): void {
  b[0] = b[1] = b[2] = Infinity;
  b[3] = b[4] = b[5] = -Infinity;
}

/** Grows box b to hold the point (x, y, z); a point that is not finite is left out. */
function addPoint(b: Float64Array, x: number, y: number, z: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return;
  if (x < b[0]) b[0] = x;
  if (y < b[1]) b[1] = y;
  if (z < b[2]) b[2] = z;
  if (x > b[3]) b[3] = x;
  if (y > b[4]) b[4] = y;
  if (z > b[5]) b[5] = z;
}

const ZERO_BLEND: FrameBlend = { a: 0, b: 0, t: 0 };

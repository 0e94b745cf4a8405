// What the browser tests and the benchmark read of a preview beyond what it shows: the load's
// generation and timings, the listed clips, an assembled player, the textures in use, GPU-skinned
// positions and the renderer's name. main.ts makes the preview with them and exposes it as
// window.iqmPreview (harmless in VS Code); the coordinator (viewer.ts) does not need them.

import type { PlayerAssembly } from './player';
import type { Scene, ViewClip } from './scene';
import { Viewer } from './viewer';

export class ViewerWithHooks extends Viewer {
  /** The load's generation (the tests answer texture requests with it). */
  get generation(): number {
    return this.loading.generation;
  }

  /** Milliseconds from the last load's start to its first frame (-1: not drawn yet). */
  get firstFrameMs(): number {
    return this.loading.firstFrameMs;
  }

  /** Milliseconds spent in each phase of the last load (for the benchmark). */
  get loadTimings(): Record<string, number> {
    return this.loading.timings;
  }

  /** The listed clips (the tests frame each one). */
  get clips(): ViewClip[] {
    return this.playback.clips;
  }

  /** The assembled Quake 3 player, or null (the tests read its parts' clips and its box). */
  get player(): PlayerAssembly | null {
    return this.assembly.player;
  }

  /**
   * The opened model's textures: how many of its meshes draw one, how many GPU textures they use,
   * and how many different images the host's answers name.
   */
  textureStats(): { textured: number; textures: number; images: number } {
    return this.gpus.textureStats();
  }

  /** GPU-skinned positions at a global frame (-1 bind pose), through transform feedback. */
  captureFrame(frame: number): Float32Array {
    if (!this.scene) throw new Error('no model');
    return this.gpus.capture(this.scene, frame);
  }

  get currentScene(): Scene | null {
    return this.scene;
  }

  get rendererInfo(): string {
    const gl = this.gpus.renderer?.gl;
    return gl ? String(gl.getParameter(gl.RENDERER)) : 'none';
  }
}

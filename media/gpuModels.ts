// The shown model on the GPU: the WebGL2 renderer (or why there is none), the opened model's GPU
// buffers and textures, and an assembled player's other parts (playerAssembly.ts makes theirs).
// Built for each model, made again after a lost WebGL context, posed and drawn every frame
// (allocating nothing), and read back for the tests (skinned positions, textures in use).

import type { Model } from '../core/model/model';
import type { TextureResult } from '../core/protocol';
import type { ViewState } from '../core/viewState';
import type { Assembly } from './playerAssembly';
import { ModelGpu, Renderer, type FrameOptions } from './renderer/renderer';
import type { Scene } from './scene';
import { isNodrawMesh, Textures } from './textures';

export class GpuModels {
  readonly renderer: Renderer | null = null;
  /** Why there is no renderer (WebGL2 unavailable), or null. */
  readonly noWebGl: string | null = null;
  /** The opened model's GPU resources (null: no model, or no renderer). */
  gpu: ModelGpu | null = null;
  readonly textures = new Textures();

  constructor(
    canvas: HTMLCanvasElement,
    private readonly assembly: Assembly,
  ) {
    try {
      this.renderer = new Renderer(canvas, true);
    } catch (e) {
      this.noWebGl = e instanceof Error ? e.message : String(e);
    }
  }

  /**
   * The GPU resources of `scene` (and of an assembled player's other parts), with the textures
   * known for them and its nodraw surfaces hidden: for each model, and again after a lost context.
   */
  build(scene: Scene): void {
    const r = this.renderer;
    if (!r) return;
    this.gpu = new ModelGpu(r.gl, scene.layout, scene.joints, scene.model.winding);
    this.hideNodraw(scene.model);
    r.prepare(this.gpu);
    this.textures.upload(r, this.gpu);
    this.buildParts(scene);
  }

  /** The GPU resources of a just assembled player's other parts (the opened one is `scene`). */
  buildParts(scene: Scene): void {
    if (this.renderer) this.assembly.buildGpus(this.renderer, scene, this.gpu, this.textures);
  }

  /** Hides the surfaces engines do not draw (a `nodraw` shader or material). */
  private hideNodraw(model: Model): void {
    const gpu = this.gpu;
    if (gpu) model.meshes.forEach((m, i) => {
      const gpuMesh = gpu.meshes[i];
      if (gpuMesh) gpuMesh.visible = !isNodrawMesh(m);
    });
  }

  /** Frees the model's GPU resources and an assembled player's (a new model, an error). */
  dispose(): void {
    this.assembly.dispose(this.gpu);
    this.textures.clearParts();
    this.gpu?.dispose();
    this.gpu = null;
  }

  /** After a lost WebGL context: the renderer's own resources and the model's made again (their old ones are gone with the context). Throws when they cannot be. */
  restore(scene: Scene | null): void {
    if (!this.renderer) return;
    this.renderer.initShared();
    this.gpu = null;
    if (scene) this.build(scene);
  }

  /** The host's texture lookup, decoded and set on the GPU models (`current` says whether the load is still the one shown). */
  applyTextures(results: TextureResult[], notes: string[], current: () => boolean): Promise<void> {
    const target = { renderer: this.renderer, gpu: this.gpu, partGpu: (part: string) => this.assembly.partGpu(part) };
    return this.textures.apply(results, target, notes, current);
  }

  /** Poses `scene` (or the assembled player) at the view state's clip and time. Every frame; allocates nothing. */
  pose(scene: Scene, s: ViewState): void {
    const gpu = this.gpu;
    if (!gpu) return;
    const player = this.assembly.player;
    if (player) player.update(s.time, s.loop, s.interpolate);
    else {
      scene.update(s.clip, s.time, s.loop, s.interpolate);
      upload(scene, gpu);
    }
  }

  /** Draws the posed model (each part of an assembled player). Every frame. */
  draw(f: FrameOptions): void {
    const r = this.renderer, gpu = this.gpu;
    if (!r || !gpu) return;
    const player = this.assembly.player;
    if (player) {
      for (const p of player.parts) if (p.gpu) r.drawModel(p.gpu, f);
    } else r.drawModel(gpu, f);
  }

  /** GPU-skinned positions of `scene` at a global frame (-1 bind pose), through transform feedback. */
  capture(scene: Scene, frame: number): Float32Array {
    const r = this.renderer, gpu = this.gpu;
    if (!r || !gpu) throw new Error('no model');
    scene.setFrame(frame);
    upload(scene, gpu);
    const out = new Float32Array(scene.layout.totalVertices * 3);
    r.captureSkinned(gpu, out);
    return out;
  }

  /** How many meshes draw a texture, how many GPU textures they use, and how many images the host's answers name. */
  textureStats(): { textured: number; textures: number; images: number } {
    const images = new Set(this.textures.results.map((r) => (r?.source.kind === 'bytes' ? r.source.path : r?.source.kind === 'uri' ? r.source.uri : null)).filter((k) => k !== null));
    return { ...(this.gpu?.textureStats() ?? { textured: 0, textures: 0 }), images: images.size };
  }
}

/** The scene's current pose to its GPU model: the joint matrices, or the MD3 frame pair and blend. */
function upload(scene: Scene, gpu: ModelGpu): void {
  gpu.uploadJoints();
  gpu.setFrames(scene.morphFrames());
}

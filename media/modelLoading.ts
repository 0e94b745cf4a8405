// The load path: the host's bytes (load.ts reads them) and a partner file (partner.ts) into the
// shown scene with its listed clips, first view (firstView.ts) and GPU model (gpuModels.ts); the
// textures asked of the host for the chosen skin; the skins the menu offers; a Quake 3 player's
// other parts assembled around the opened one or taken off again (playerAssembly.ts). It keeps what
// was loaded (the scene, the host's message, the notes the info panel lists, the load's generation
// and timings); the coordinator shows it.

import type { CompiledFrom, LoadMessage, TextureResult, WebviewToHost } from '../core/protocol';
import { chooseSkin } from '../core/lookup/meshTextures';
import type { ViewState } from '../core/viewState';
import { firstView } from './firstView';
import type { GpuModels } from './gpuModels';
import { loadModelBytes, LoadError, viewClips } from './load';
import { withPartner } from './partner';
import type { Playback } from './playback';
import type { PlayerAssembly } from './player';
import { canAssemble, type Assembly } from './playerAssembly';
import { Scene } from './scene';
import { textureRequests } from './textures';
import { PartnerPicker } from './ui/partnerPicker';
import { timeline } from './timeline';

export class ModelLoading {
  /** The shown model (null: none yet, or an error stands in for it). */
  scene: Scene | null = null;
  /** The host's message the shown model was loaded from (its sidecars, player parts, partner). */
  load: LoadMessage | null = null;
  fileName = '';
  /** The model's full path or URI (for texture paths relative to its folder). */
  path = '';
  /** What the info panel notes of the load (where the clips and textures came from, what failed). */
  notes: string[] = [];
  /** Counts the loads and skin changes: the host's answers to an earlier one are stale. */
  generation = 0;
  /** When the last load started (performance.now()). */
  startedAt = 0;
  /** Milliseconds spent in each phase of the last load (for the benchmark). */
  timings: Record<string, number> = {};
  /** Milliseconds from the last load's start to its first frame (-1: not drawn yet). */
  firstFrameMs = -1;
  private phaseStart = 0;
  /** The "Mesh from" / "Clips from" picker over the view. */
  readonly partnerPicker: PartnerPicker;

  constructor(
    private readonly root: HTMLElement,
    private readonly state: ViewState,
    private readonly playback: Playback,
    private readonly assembly: Assembly,
    private readonly gpus: GpuModels,
    private readonly post: (message: WebviewToHost) => void,
  ) {
    this.partnerPicker = new PartnerPicker((name) => post({ type: 'choosePartner', name }));
  }

  /**
   * Reads the host's model (with its partner) into a new scene: its listed clips, what it is first
   * shown with and its GPU model; the earlier model's are freed. Throws a LoadError when the bytes
   * cannot be previewed.
   */
  open(msg: LoadMessage): Scene {
    this.startedAt = this.phaseStart = performance.now();
    this.timings = {};
    this.firstFrameMs = -1;
    this.generation++;
    this.fileName = msg.fileName;
    this.path = msg.path;
    let loaded;
    try {
      loaded = loadModelBytes(new Uint8Array(msg.bytes), msg.fileName, msg.compiled ?? null, msg.converted ?? null);
    } catch (e) {
      throw e instanceof LoadError ? e : new LoadError(String(e), null);
    }
    this.phase('parse');
    timeline.mark('parsed');
    this.load = msg;
    this.notes = loaded.notes;
    this.partnerPicker.show(msg.partner);
    const shown = withPartner(loaded.model, msg.partner, this.notes);
    this.root.dataset.partner = shown.partner;
    const model = shown.model;
    this.close();
    const scene = new Scene(model);
    this.phase('scene');
    this.scene = scene;
    const clips = viewClips(model, msg.fileName, msg.sidecars, this.notes);
    this.playback.clips = clips;
    scene.clips = clips;
    firstView(model, scene.jointCount, clips, !!msg.reload, this.state, this.notes);
    this.gpus.textures.reset(model.meshes.length);
    this.gpus.build(scene);
    timeline.mark('gpuBuilt');
    return scene;
  }

  /** Ends a phase of the load: timings[name] is the milliseconds since the previous one ended. */
  phase(name: string): void {
    const now = performance.now();
    this.timings[name] = now - this.phaseStart;
    this.phaseStart = now;
  }

  /** A frame of `scene` was drawn: the load's first is timed and reported to the host (with the IQE text it is compiled from). */
  drawn(scene: Scene, compiled: CompiledFrom | null): void {
    // The first frame drawn with the textures ends the timeline (checked every frame: two lookups).
    if (timeline.has('texturesDecoded') && timeline.mark('texturedFrame')) this.postTimeline();
    if (this.firstFrameMs >= 0) return;
    this.firstFrameMs = performance.now() - this.startedAt;
    this.root.dataset.firstFrameMs = this.firstFrameMs.toFixed(1);
    this.post({
      type: 'rendered', ok: true, format: scene.model.format, error: null,
      vertices: scene.layout.totalVertices, triangles: scene.layout.totalTriangles, joints: scene.jointCount, firstFrameMs: this.firstFrameMs,
      ...(compiled ? { sourceVersion: compiled.version } : {}),
    });
    if (timeline.mark('firstFrame')) this.postTimeline();
  }

  /** The webview's stamps so far, to the host (the benchmark reads them there). */
  private postTimeline(): void {
    this.post({ type: 'timeline', stamps: { ...timeline.stamps } });
  }

  /** The shown model goes (a new one, an error): its GPU resources and an assembled player's are freed. */
  close(): void {
    this.gpus.dispose();
    this.scene = null;
  }

  /** The skin menu's choices: every .skin file beside the model that names one of its surfaces. */
  usableSkins(): string[] {
    const model = this.scene?.model;
    return model && this.load ? this.load.sidecars.skins.filter((s) => chooseSkin(model, [s]) !== null).map((s) => s.name) : [];
  }

  /** Asks the host to resolve every mesh's texture (skin, shader and material names, in that order), an assembled player's other parts' too. */
  requestTextures(): void {
    const scene = this.scene, msg = this.load;
    if (!scene || !msg) return;
    const skin = chooseSkin(scene.model, msg.sidecars.skins, this.state.skin);
    if (skin) this.notes.push(`textures from ${skin.name}`);
    this.root.dataset.textures = 'pending';
    this.root.dataset.skin = skin ? skin.name : '';
    const requests = textureRequests(scene.model, skin);
    requests.push(...this.assembly.textureRequests(scene));
    if (requests.length) {
      timeline.mark('texturesRequested');
      this.post({ type: 'textureRequest', generation: this.generation, requests });
    } else {
      this.root.dataset.textures = 'done';
      if (timeline.mark('noTextures')) this.postTimeline();
    }
  }

  /** The user chose a skin: its textures are asked for (answers to the earlier skin's requests are stale). */
  setSkin(name: string): void {
    this.state.skin = name;
    this.generation++;
    this.requestTextures();
  }

  /**
   * The host's texture lookup for load `generation`, decoded and set on the GPU models. False when
   * the answer is stale (another load or skin since), so nothing changed.
   */
  async applyTextures(generation: number, results: TextureResult[]): Promise<boolean> {
    if (generation !== this.generation || !this.scene) return false;
    await this.gpus.applyTextures(results, this.notes, () => generation === this.generation);
    if (generation !== this.generation) return false;
    timeline.mark('texturesDecoded');
    return true;
  }

  /**
   * Switches the player assembly on (the opened file must be head/upper/lower.md3 with the other
   * two beside it): the player's clips are listed. False when it was not assembled (when it failed,
   * the notes say why and the view state's switch is off again).
   */
  assemble(): boolean {
    const msg = this.load;
    const scene = this.scene;
    if (!msg || !scene || this.assembly.player || !canAssemble(scene.model, msg)) return false;
    let player: PlayerAssembly;
    try {
      player = this.assembly.assemble(msg, scene);
    } catch (e) {
      this.notes.push(`player assembly failed: ${e instanceof Error ? e.message : String(e)}`);
      this.state.assemblePlayer = false;
      return false;
    }
    // Keep the selected clip by name (the part's own list is a subset of animation.cfg's).
    this.playback.replaceClips(player.clips, 'TORSO_STAND');
    if (!player.clips[this.state.legsClip]?.name.startsWith('LEGS_')) this.state.legsClip = -1;
    player.selectClip(this.state.clip, this.state.legsClip);
    this.gpus.buildParts(scene);
    // Textures of the other parts (while loading, requestTextures asks for them with the opened part's).
    if (this.root.dataset.state === 'ready') {
      const requests = this.assembly.textureRequests(scene);
      if (requests.length) this.post({ type: 'textureRequest', generation: this.generation, requests });
    }
    return true;
  }

  /** Takes the player apart: the opened model's own clips are listed again. False when there was none. */
  disassemble(): boolean {
    if (!this.assembly.disassemble(this.gpus.gpu)) return false;
    let clips = this.playback.clips;
    if (this.scene && this.load) {
      clips = viewClips(this.scene.model, this.load.fileName, this.load.sidecars, []);
      this.scene.clips = clips;
    }
    this.playback.replaceClips(clips, 0);
    return true;
  }
}

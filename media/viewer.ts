// The preview's coordinator: owns the renderer, the loaded scene, the camera and the view state;
// wires the toolbar (ui/viewToolbar), the playback bar (ui/timeline), the info panel (ui/info),
// the overlays (overlays/), the textures (textures.ts) and the player assembly (player.ts); runs
// the frame loop. The frame loop (tick) allocates nothing: it samples the pose into preallocated
// arrays, uploads the joint texture and draws.

import type { ClipStateMessage, CompileStateMessage, CompiledFrom, Highlight, LoadMessage, PlayClipMessage, SourceProblem, TextureRequest, TextureResult, WebviewToHost } from '../core/protocol';
import { withAnimation } from '../core/model/animationSet';
import { matchingClip, type ComparisonMessage, type PickedSourceMessage, type SharedView } from '../core/viewLink';
import type { Model } from '../core/model/model';
import { restoreViewState, type ViewState } from '../core/viewState';
import { clipBounds, followTarget } from './framing';
import { OrbitCamera, type CameraView } from './renderer/camera';
import { ModelGpu, Renderer, type FrameOptions } from './renderer/renderer';
import { chooseSkin, playerPart, textureNames, type SkinChoice } from '../core/sidecar/precedence';
import { loadModelBytes, LoadError, viewClips } from './load';
import { OverlayLines } from './overlays/lines';
import { JointNames } from './overlays/names';
import { Picking } from './overlays/picking';
import { PlayerAssembly } from './player';
import { Scene, type ViewClip } from './scene';
import { isNodraw, Textures } from './textures';
import { clear, h } from './ui/dom';
import { renderInfo } from './ui/info';
import { PartnerPicker } from './ui/partnerPicker';
import { SourceBadge } from './ui/sourceBadge';
import { Timeline } from './ui/timeline';
import { ViewToolbar, type MenuFlag, type Toggle } from './ui/viewToolbar';
import { WorkPanel } from './ui/workPanel';

export interface HostApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Narrower than this (CSS px), the info panel goes below the view. */
const NARROW_PX = 620;

export class Viewer {
  readonly root: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly status: HTMLElement;
  private readonly info: HTMLElement;
  private readonly toolbar: ViewToolbar;
  private readonly timeline: Timeline;
  /** Which IQE text the drawn model is compiled from, and whether a newer one compiles or failed. */
  private readonly sourceBadge = new SourceBadge();
  private readonly overlays = new OverlayLines();
  private readonly names = new JointNames();
  private readonly textures = new Textures();
  private readonly partnerPicker = new PartnerPicker((name) => this.post({ type: 'choosePartner', name }));
  private compiled: CompiledFrom | null = null;
  /** Quake 3 player assembly (head/upper/lower.md3 through their tags), when switched on. */
  private player: PlayerAssembly | null = null;
  private lastLoad: LoadMessage | null = null;
  private readonly boxScratch = new Float64Array(6);
  private renderer: Renderer | null = null;
  private scene: Scene | null = null;
  private gpu: ModelGpu | null = null;
  private readonly camera = new OrbitCamera();
  state: ViewState;
  private fileName = '';
  /** The model's full path or URI (for texture paths relative to its folder). */
  private modelPath = '';
  private notes: string[] = [];
  private clips: ViewClip[] = [];
  /** The last clipState sent (JSON), so that only changes are sent. */
  private lastClipReport = '';
  /** The clicked triangle and what the host asked to highlight (the IQE cursor's vertex, face or joint). */
  private readonly picking = new Picking();
  private readonly work = new WorkPanel();
  /** One side of a comparison: camera, clip and playback changes go to the host for the other side. */
  private compared = false;
  /** Applying the other side's view: not sent back. */
  private applyingSync = false;
  private shareTimer: ReturnType<typeof setTimeout> | null = null;
  generation = 0;
  private lastTime = -1;
  private frameRequested = false;
  private dirty = true;
  private loadStart = 0;
  firstFrameMs = -1;
  /** Milliseconds spent in each phase of the last load (for the benchmark). */
  loadTimings: Record<string, number> = {};
  private reportedFirstFrame = false;
  private persistTimer: ReturnType<typeof setInterval> | null = null;
  private persistSoon: ReturnType<typeof setTimeout> | null = null;
  /** Why there is no renderer (WebGL2 unavailable), or null. */
  private noWebGl: string | null = null;
  private readonly frame: FrameOptions = {
    viewProj: new Float32Array(16),
    lightDir: new Float32Array([0.35, -0.45, 0.82]),
    cull: true,
    flipWinding: false,
    textured: true,
    wireframe: false,
    normals: false,
    normalLength: 0.1,
    weights: false,
    selectedJoint: -1,
    highlightUnweighted: false,
    vertexColors: true,
    lit: true,
    clearColor: new Float32Array([0.16, 0.17, 0.19, 1]),
  };
  private readonly tickBound = (now: number) => this.tick(now);

  constructor(
    parent: HTMLElement,
    private readonly host: HostApi,
  ) {
    this.state = restoreViewState(host.getState());
    this.canvas = h('canvas', { id: 'view' });
    this.status = h('div', { id: 'status', class: 'status', text: 'Loading…' });
    this.info = h('div', { id: 'info', class: 'info' });
    this.toolbar = new ViewToolbar({
      toggle: (key) => this.toggle(key),
      toggleAssembly: () => {
        this.state.assemblePlayer = !this.state.assemblePlayer;
        if (this.state.assemblePlayer) this.assemble();
        else this.disassemble();
        this.fitCamera();
        this.syncControls();
        this.changed();
        this.persist();
      },
      frameView: (view) => this.frameView(view),
      togglePanel: () => {
        this.state.panel = !this.state.panel;
        this.applyPanel();
        this.syncControls();
        this.changed();
        this.persist();
      },
      flip: (key) => this.flip(key),
      toggleWinding: () => {
        this.state.winding = this.state.winding === 'flipped' ? 'file' : 'flipped';
        this.syncControls();
        this.changed();
        this.persist();
      },
      exportImage: () => this.exportImage(),
      convertToIqe: () => this.post({ type: 'convertToIqe' }),
      setBackground: (colour) => {
        this.state.background = colour;
        this.applyBackground();
      },
      setSkin: (name) => {
        this.state.skin = name;
        this.persist();
        // A new generation: answers to the earlier skin's requests are stale.
        this.generation++;
        if (this.lastLoad) this.requestTextures(this.lastLoad);
      },
    });
    this.timeline = new Timeline({
      togglePlay: () => this.setPlaying(!this.state.playing),
      selectClip: (c) => this.selectClip(c),
      selectLegsClip: (c) => this.selectLegsClip(c),
      scrub: (frame) => {
        const clip = this.clips[this.state.clip];
        if (!clip) return;
        this.setPlaying(false);
        this.state.time = frame / Scene.fps(clip);
        this.changed();
        this.shareView();
      },
      setSpeed: (speed) => {
        this.state.speed = speed;
        this.changed();
      },
      toggleLoop: () => {
        this.state.loop = !this.state.loop;
        this.syncControls();
        this.changed();
      },
      toggleInterpolate: () => {
        this.state.interpolate = !this.state.interpolate;
        this.syncControls();
        this.changed();
      },
    });
    this.root = h(
      'div',
      { id: 'viewer', 'data-state': 'loading' },
      h('div', { class: 'stage' }, this.canvas, this.names.label, this.status, this.toolbar.el, this.partnerPicker.el, this.sourceBadge.el),
      this.info,
      this.timeline.el,
    );
    parent.append(this.root);
    this.bindPointer();
    this.syncControls();
    this.applyPanel();
    try {
      this.renderer = new Renderer(this.canvas, true);
    } catch (e) {
      this.noWebGl = e instanceof Error ? e.message : String(e);
      this.showError('WebGL2 is not available', this.noWebGl, null);
    }
    this.canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault();
      this.setStatus('The WebGL context was lost; waiting for it to be restored…', 'error');
      this.root.dataset.state = 'context-lost';
    });
    this.canvas.addEventListener('webglcontextrestored', () => this.restoreContext());
    new ResizeObserver(() => {
      this.root.classList.toggle('narrow', this.root.clientWidth < NARROW_PX);
      this.toolbar.layout();
      // A camera the user has not moved keeps the model framed when the editor is resized.
      if (this.fitted && this.scene) this.fitCamera(this.fitted);
      this.changed();
    }).observe(this.root);
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === ' ') {
        e.preventDefault();
        this.setPlaying(!this.state.playing);
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        this.stepFrame(e.key === 'ArrowRight' ? 1 : -1);
      }
    });
    this.persistTimer = setInterval(() => {
      if (this.state.playing) this.persist();
    }, 1000);
  }

  // ---------------------------------------------------------------- loading

  load(msg: LoadMessage): void {
    this.loadStart = performance.now();
    this.generation++;
    this.fileName = msg.fileName;
    this.modelPath = msg.path;
    let loaded;
    try {
      loaded = loadModelBytes(new Uint8Array(msg.bytes), msg.fileName, msg.compiled ?? null, msg.converted ?? null);
    } catch (e) {
      const err = e instanceof LoadError ? e : new LoadError(String(e), null);
      this.showError(`${msg.fileName} cannot be previewed`, err.message, err.offset);
      this.post({ type: 'rendered', ok: false, format: '', error: err.message, vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
      return;
    }
    const tParsed = performance.now();
    this.lastLoad = msg;
    this.notes = loaded.notes;
    const model = this.withPartner(loaded.model, msg);
    this.disposeModel();
    const scene = new Scene(model);
    const tScene = performance.now();
    this.scene = scene;
    this.clips = viewClips(model, msg.fileName, msg.sidecars, this.notes);
    scene.clips = this.clips;
    if (model.meshes.length === 0) {
      this.notes.push(model.animation ? 'animation-only file: no meshes to draw (the skeleton overlay shows the poses)' : 'the file has no meshes');
      if (model.animation && !msg.reload) this.state.skeleton = true;
      // The bind pose of an animation-only file is every joint at the origin: show a clip instead.
      if (model.animation && this.state.clip < 0) this.state.clip = 0;
    }
    if (this.state.clip >= this.clips.length) this.state.clip = this.clips.length ? 0 : -1;
    if (!msg.reload && this.clips[this.state.clip]) this.state.loop = this.clips[this.state.clip].loop;
    this.textures.reset(model.meshes.length);
    this.buildGpu();
    // Surfaces engines do not draw (a `nodraw` shader or material): hidden here too.
    let drawn = 0;
    model.meshes.forEach((m, i) => {
      const hidden = isNodraw(m.material) || m.shaders.some(isNodraw);
      const gpuMesh = this.gpu?.meshes[i];
      if (gpuMesh) gpuMesh.visible = !hidden;
      if (!hidden) drawn += m.triangleCount;
    });
    if (model.meshes.length > 0 && drawn === 0) {
      // Nothing to draw (nodraw surfaces, no triangles): the skeleton and tags show what the file holds.
      this.notes.push('no surface is drawn (nodraw or no triangles): the skeleton and tags show the model');
      if (!msg.reload) {
        if (scene.jointCount > 0) this.state.skeleton = true;
        if (model.tags) this.state.tags = true;
      }
    }
    this.compiled = msg.compiled ?? null;
    // Triangle indices of the earlier model mean nothing in this one.
    this.picking.picked = null;
    this.work.showPick(null, scene);
    delete this.root.dataset.picked;
    if (this.compiled) this.root.dataset.sourceMap = '';
    delete this.root.dataset.compile;
    this.sourceBadge.showCompiled(this.compiled, this.root);
    this.fillSkinSelect(msg);
    this.applyBackground(false);
    const canAssemble = model.format === 'md3' && playerPart(msg.fileName) !== null && msg.playerParts.length === 2;
    if (canAssemble && this.state.assemblePlayer) this.assemble();
    const tGpu = performance.now();
    // The saved camera belongs to the file it was saved for (a reload or hide/show of this file).
    if (this.state.file !== msg.fileName) this.state.camera = null;
    this.state.file = msg.fileName;
    if (this.state.camera) {
      const b = scene.box;
      this.camera.restore(this.state.camera, 0.5 * Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]));
      this.camera.ortho = this.state.ortho;
      this.fitted = null;
    } else this.fitCamera();
    this.buildGrid();
    this.fillClipSelect();
    this.syncControls();
    if (!this.renderer) {
      this.renderInfo();
      // No WebGL2: say so, but still describe the file in the info panel.
      this.root.dataset.state = 'error';
      this.status.className = 'status error-view';
      clear(this.status);
      this.status.append(h('h2', { text: 'WebGL2 is not available' }), h('p', { text: `${this.noWebGl ?? ''} The info panel still describes ${msg.fileName}.` }));
      this.post({ type: 'rendered', ok: false, format: model.format, error: 'WebGL2 is not available', vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
      this.requestTextures(msg);
      return;
    }
    const tUi = performance.now();
    this.loadTimings = { parse: tParsed - this.loadStart, scene: tScene - tParsed, gpu: tGpu - tScene, ui: tUi - tGpu };
    this.root.dataset.state = 'ready';
    this.root.classList.remove('failed');
    this.root.dataset.format = model.format;
    this.root.dataset.file = msg.fileName;
    this.root.dataset.loads = String(this.generation);
    this.setStatus('', 'ok');
    this.reportedFirstFrame = false;
    this.firstFrameMs = -1;
    this.lastTime = -1;
    // Draw the first frame now (not at the next animation frame): open-to-first-frame matters.
    // The info panel is built right after, in its own task.
    this.renderFrame();
    const generation = this.generation;
    setTimeout(() => {
      if (generation === this.generation) this.renderInfo();
    }, 0);
    this.changed();
    this.requestTextures(msg);
  }

  /**
   * The model as shown: an animation file on the mesh chosen in the picker, or a mesh playing the
   * chosen animation file's clips (core/model/animationSet.ts). Where the chosen file cannot be
   * used, the opened model alone, with a note.
   */
  private withPartner(model: Model, msg: LoadMessage): Model {
    const offer = msg.partner;
    this.partnerPicker.show(offer);
    this.root.dataset.partner = offer?.chosen?.name ?? '';
    if (!offer?.chosen) {
      if (offer?.role === 'mesh' && offer.matches.length > 1) this.notes.push(`${offer.matches.length} models of the folder fit these animations: pick one in "Mesh from"`);
      return model;
    }
    const chosen = offer.chosen;
    try {
      const other = loadModelBytes(new Uint8Array(chosen.bytes), chosen.name).model;
      const how = offer.automatic ? ' (the only model of the folder with this skeleton)' : '';
      if (offer.role === 'mesh') {
        this.notes.push(`mesh from ${chosen.name}${how}`);
        return withAnimation(other, model);
      }
      this.notes.push(`clips from ${chosen.name}`);
      return withAnimation(model, other);
    } catch (e) {
      this.notes.push(`${chosen.name} cannot be used: ${e instanceof Error ? e.message : String(e)}`);
      this.root.dataset.partner = '';
      return model;
    }
  }

  /** Asks the host to resolve every mesh's texture (skin, shader and material names, in that order). */
  private requestTextures(msg: LoadMessage): void {
    const model = this.scene?.model;
    if (!model) return;
    const skin = chooseSkin(model, msg.sidecars.skins, this.state.skin);
    if (skin) this.notes.push(`textures from ${skin.name}`);
    this.root.dataset.textures = 'pending';
    this.root.dataset.skin = skin ? skin.name : '';
    const requests: TextureRequest[] = model.meshes.map((_, i) => ({ key: String(i), names: textureNames(model, i, skin?.skin ?? null), skin: skin ? skin.name : null }));
    if (this.player) requests.push(...this.partTextureRequests());
    if (requests.length) this.post({ type: 'textureRequest', generation: this.generation, requests });
    else this.root.dataset.textures = 'done';
  }

  /** The skin menu: the engines' choice, and every .skin file beside the model that names one of its surfaces. */
  private fillSkinSelect(msg: LoadMessage): void {
    const model = this.scene?.model;
    const usable = model ? msg.sidecars.skins.filter((s) => chooseSkin(model, [s]) !== null) : [];
    this.state.skin = this.toolbar.fillSkins(usable.map((s) => s.name), this.state.skin);
    this.root.dataset.skins = String(usable.length);
  }

  private buildGpu(): void {
    const r = this.renderer;
    const scene = this.scene;
    if (!r || !scene) return;
    this.gpu = new ModelGpu(r.gl, scene.layout, scene.joints, scene.model.winding);
    r.prepare(this.gpu);
    this.textures.upload(r, this.gpu);
    if (this.player) this.buildPartGpus();
  }

  /** GPU resources of the player parts other than the opened one (and their textures). */
  private buildPartGpus(): void {
    const r = this.renderer;
    const player = this.player;
    if (!r || !player || !this.scene) return;
    for (const p of player.parts) {
      if (p.scene === this.scene) {
        p.gpu = this.gpu;
        continue;
      }
      p.gpu?.dispose();
      p.gpu = new ModelGpu(r.gl, p.scene.layout, p.scene.joints, p.scene.model.winding);
      this.textures.uploadPart(r, p.part, p.gpu, p.scene.model.meshes.length);
    }
  }

  /** Switches the player assembly on (the opened file must be head/upper/lower.md3 with the other two beside it). */
  private assemble(): void {
    const msg = this.lastLoad;
    const scene = this.scene;
    const part = msg ? playerPart(msg.fileName) : null;
    if (!msg || !scene || !part || msg.playerParts.length !== 2 || this.player) return;
    try {
      const others = msg.playerParts.map((p) => ({ part: p.part, fileName: p.name, model: loadModelBytes(new Uint8Array(p.bytes), p.name).model, skins: p.skins }));
      this.player = new PlayerAssembly({ part, fileName: msg.fileName, scene }, others, msg.sidecars.animationCfg?.text ?? null);
      this.partSkins.clear();
      for (const o of others) this.partSkins.set(o.part, chooseSkin(o.model, o.skins));
    } catch (e) {
      this.notes.push(`player assembly failed: ${e instanceof Error ? e.message : String(e)}`);
      this.player = null;
      this.state.assemblePlayer = false;
      return;
    }
    // Keep the selected clip by name (the part's own list is a subset of animation.cfg's).
    const current = this.clips[this.state.clip]?.name;
    this.clips = this.player.clips;
    const same = this.clips.findIndex((c) => c.name === current);
    this.state.clip = same >= 0 ? same : this.clips.findIndex((c) => c.name === 'TORSO_STAND');
    if (!this.clips[this.state.legsClip]?.name.startsWith('LEGS_')) this.state.legsClip = -1;
    this.player.selectClip(this.state.clip, this.state.legsClip);
    this.buildPartGpus();
    this.fillClipSelect();
    this.renderInfo();
    // Textures of the other parts (the opened part's are requested by load()).
    if (this.root.dataset.state === 'ready') {
      const requests = this.partTextureRequests();
      if (requests.length) this.post({ type: 'textureRequest', generation: this.generation, requests });
    }
  }

  private readonly partSkins = new Map<string, SkinChoice | null>();

  private partTextureRequests(): TextureRequest[] {
    const requests: TextureRequest[] = [];
    if (!this.player) return requests;
    for (const p of this.player.parts) {
      if (p.scene === this.scene) continue;
      const skin = this.partSkins.get(p.part) ?? null;
      const model: Model = p.scene.model;
      model.meshes.forEach((_, i) => requests.push({ key: `${p.part}:${i}`, names: textureNames(model, i, skin?.skin ?? null), skin: skin ? skin.name : null }));
    }
    return requests;
  }

  private disassemble(): void {
    const player = this.player;
    if (!player) return;
    for (const p of player.parts) if (p.scene !== this.scene) p.gpu?.dispose();
    this.player = null;
    this.gpu?.modelMatrix.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const current = player.clips[this.state.clip]?.name;
    if (this.scene && this.lastLoad) {
      this.clips = viewClips(this.scene.model, this.lastLoad.fileName, this.lastLoad.sidecars, []);
      this.scene.clips = this.clips;
    }
    const same = this.clips.findIndex((c) => c.name === current);
    this.state.clip = same >= 0 ? same : 0;
    this.fillClipSelect();
    this.renderInfo();
  }

  private disposeModel(): void {
    if (this.player) for (const p of this.player.parts) if (p.gpu !== this.gpu) p.gpu?.dispose();
    this.player = null;
    this.textures.clearParts();
    this.gpu?.dispose();
    this.gpu = null;
    this.scene = null;
  }

  private restoreContext(): void {
    if (!this.renderer) return;
    try {
      this.renderer.initShared();
      this.gpu = null;
      this.buildGpu();
      this.buildGrid();
      this.root.dataset.state = this.scene ? 'ready' : 'loading';
      this.setStatus('', 'ok');
      this.changed();
    } catch (e) {
      this.showError('The WebGL context could not be restored', e instanceof Error ? e.message : String(e), null);
    }
  }

  /** Applies the host's texture lookup: decodes TGA in core, PNG/JPEG through the browser. */
  async applyTextures(generation: number, results: TextureResult[]): Promise<void> {
    if (generation !== this.generation || !this.scene) return;
    const target = {
      renderer: this.renderer,
      gpu: this.gpu,
      partGpu: (part: string) => this.player?.parts.find((x) => x.part === part)?.gpu ?? null,
    };
    await this.textures.apply(results, target, this.notes, () => generation === this.generation);
    if (generation !== this.generation) return;
    this.renderInfo();
    this.root.dataset.textures = 'done';
    this.changed();
  }

  // ---------------------------------------------------------------- host requests

  /**
   * The host asks for a clip (a code lens on a sidecar line, a synced comparison): the listed clip
   * of that name (and first frame, when given), from its first frame. False when there is none.
   */
  playClip(m: PlayClipMessage): boolean {
    const i = this.clips.findIndex((c) => c.name === m.name && (m.firstFrame === undefined || c.firstFrame === m.firstFrame));
    if (i < 0) {
      this.notes.push(`no clip named ${m.name}${m.firstFrame !== undefined ? ` from frame ${m.firstFrame}` : ''} to play`);
      this.renderInfo();
      return false;
    }
    this.selectClip(i);
    this.setPlaying(m.play);
    return true;
  }

  /**
   * The host asks to highlight part of the model (the cursor in the IQE text). A joint selects it
   * (as a click on the skeleton does); vertices and triangles are kept for the renderer's
   * highlight and exposed on the root as data-highlight.
   */
  highlight(target: Highlight | null): void {
    this.picking.highlighted = target;
    this.root.dataset.highlight = target ? `${target.kind}:${target.kind === 'joint' ? target.joint : target.indices.join(',')}` : '';
    if (target?.kind === 'joint') this.selectJoint(target.joint);
    else this.changed();
  }

  /** What the host last asked to highlight. */
  get currentHighlight(): Highlight | null {
    return this.picking.highlighted;
  }

  /** An IQE preview: the host names the lines of the clicked triangle. */
  pickedSource(m: PickedSourceMessage): void {
    this.work.showPickSource(m);
  }

  /**
   * This preview is one side of a comparison: the differences, and from now on the view is shared.
   * Both sides get this message (at pairing, and again whenever a side reloads) with the view the
   * pair last shared, which both take: a side that reloaded restores its own saved camera, and a
   * view sent while it was loading would be lost. Before any view was shared only the left one
   * sends its own, or the two would cross on their way and each side take the other's.
   */
  comparison(m: ComparisonMessage): void {
    this.compared = true;
    this.root.dataset.compare = m.side;
    this.work.showComparison(m);
    if (m.view) this.syncView(m.view);
    else if (m.side === 'left') this.shareView();
  }

  comparisonEnded(): void {
    this.compared = false;
    delete this.root.dataset.compare;
    this.work.endComparison();
  }

  /** The other side moved its camera or changed its clip or playback: this one follows. */
  syncView(view: SharedView): void {
    const scene = this.scene;
    if (!scene) return;
    this.applyingSync = true;
    try {
      if (view.camera) {
        const b = scene.box;
        this.camera.restore(view.camera, 0.5 * Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]));
        this.fitted = null;
      }
      if (this.clips.length > 0) {
        const clip = matchingClip(view, this.clips.map((c) => c.name));
        if (clip !== this.state.clip) this.selectClip(clip);
        this.state.time = view.time;
        if (this.state.playing !== view.playing) this.setPlaying(view.playing);
      }
      this.showCamera();
      this.changed();
    } finally {
      this.applyingSync = false;
    }
  }

  /** The camera on the root (yaw, pitch, distance), for the tests of a synced comparison. */
  private showCamera(): void {
    const c = this.camera;
    this.root.dataset.camera = `${c.yaw.toFixed(3)},${c.pitch.toFixed(3)},${c.distance.toFixed(3)}`;
  }

  /** In a comparison, the view goes to the other side (coalesced: a drag sends a few per second... of frames). */
  private shareView(): void {
    if (!this.compared || this.applyingSync || !this.scene) return;
    if (this.shareTimer) return;
    this.shareTimer = setTimeout(() => {
      this.shareTimer = null;
      const clip = this.clips[this.state.clip];
      this.showCamera();
      this.post({ type: 'viewChanged', view: { camera: this.camera.state(), clip: this.state.clip, clipName: clip?.name ?? '', time: this.state.time, playing: this.state.playing } });
    }, 30);
  }

  // ---------------------------------------------------------------- errors and status

  /** A source the host compiles for the preview has errors: said as a model that cannot be previewed is. */
  sourceFailed(fileName: string, message: string): void {
    this.showError(`${fileName} cannot be previewed`, message, null);
    this.post({ type: 'rendered', ok: false, format: '', error: message, vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
  }

  showError(title: string, message: string, offset: number | null, problem: SourceProblem | null = null): void {
    this.disposeModel();
    this.root.dataset.state = 'error';
    // Nothing of the model that was there before: no grid, toolbar or panel beside the message.
    this.root.classList.add('failed');
    this.overlays.clear();
    this.renderFrame();
    clear(this.status);
    this.status.className = 'status error-view';
    this.status.append(h('h2', { text: title }), h('p', { id: 'error-message', text: message }));
    if (offset !== null) this.status.append(h('p', { id: 'error-offset', text: `at byte ${offset} (0x${offset.toString(16)})` }));
    if (problem) this.status.append(h('p', null, this.sourceLink(problem)));
    this.status.append(h('p', { class: 'dim', text: problem ? 'The preview follows the text as you edit it.' : 'The preview reloads when the file changes on disk.' }));
    clear(this.info);
    this.timeline.el.classList.add('hidden');
  }

  /** A link that shows the IQE text at the problem's line. */
  private sourceLink(problem: SourceProblem): HTMLElement {
    const a = h('a', { href: '#', class: 'source-link', text: `Go to line ${problem.line + 1}, column ${problem.column + 1}` });
    a.addEventListener('click', (e) => {
      e.preventDefault();
      this.post({ type: 'openSource', line: problem.line, column: problem.column });
    });
    return a;
  }

  /**
   * IQE text: a newer version compiles, failed to compile, or was saved. With a model drawn, the
   * badge says so and the model stays (the last good version); without one, the error view shows.
   */
  compileState(m: CompileStateMessage): void {
    if (m.state === 'saved') {
      if (this.compiled && this.compiled.version === m.version) this.compiled.unsaved = false;
      if (this.root.dataset.compile !== 'failed') this.sourceBadge.showCompiled(this.compiled, this.root);
      return;
    }
    this.root.dataset.compile = m.state;
    if (m.state === 'compiling') {
      if (this.compiled) this.sourceBadge.compiling(m.version, this.compiled);
      return;
    }
    const p = m.problem;
    const text = p ? `IQE line ${p.line + 1}: ${p.message}${p.count > 1 ? ` (and ${p.count - 1} more errors)` : ''}` : 'the IQE text could not be compiled';
    if (!this.compiled || !this.scene) {
      this.showError(`${this.fileName || 'The IQE text'} cannot be previewed`, text, null, p);
      return;
    }
    this.sourceBadge.failed(m.version, m.unsaved, p, this.compiled, text, p ? this.sourceLink(p) : null);
  }

  private setStatus(text: string, kind: 'ok' | 'error'): void {
    clear(this.status);
    this.status.className = kind === 'error' ? 'status error-view' : 'status';
    if (text) this.status.append(h('p', { text }));
    this.status.classList.toggle('hidden', !text);
    this.timeline.el.classList.remove('hidden');
  }

  private post(m: WebviewToHost): void {
    this.host.postMessage(m);
  }

  // ---------------------------------------------------------------- UI

  private renderInfo(): void {
    if (!this.scene) return;
    renderInfo(this.info, this.fileName, this.modelPath, this.scene, this.clips, this.notes, this.textures.results, {
      selectJoint: (j) => this.selectJoint(j),
      selectClip: (c) => this.selectClip(c),
    }, this.lastLoad?.engines);
    this.work.attach(this.info);
  }

  private applyPanel(): void {
    this.info.classList.toggle('hidden', !this.state.panel);
    this.root.classList.toggle('no-panel', !this.state.panel);
  }

  private fillClipSelect(): void {
    this.timeline.fill(this.clips, this.player !== null, this.state, this.scene);
    this.reportClips();
  }

  /** Tells the host the listed clips and the selected one, when they changed. */
  private reportClips(): void {
    const m: ClipStateMessage = { type: 'clipState', clips: this.clips.map((c) => c.name), clip: this.clips[this.state.clip]?.name ?? null, playing: this.state.playing };
    const key = JSON.stringify(m);
    if (key === this.lastClipReport) return;
    this.lastClipReport = key;
    this.post(m);
  }

  private syncControls(): void {
    this.reportClips();
    const s = this.state;
    this.timeline.sync(s, !s.playing && this.atClipEnd(), this.player !== null);
    const model = this.scene?.model;
    const msg = this.lastLoad;
    this.toolbar.sync(
      s,
      model && this.scene
        ? {
            tags: !!model.tags,
            colors: model.meshes.some((m) => m.color !== null),
            skinned: this.scene.jointCount > 0,
            bounds: !!model.bounds,
            canAssemble: model.format === 'md3' && !!msg && playerPart(msg.fileName) !== null && msg.playerParts.length === 2,
            assembled: this.player !== null,
          }
        : null,
    );
  }

  /** Flips a boolean view setting of the menu. */
  private flip(key: MenuFlag): void {
    this.state[key] = !this.state[key];
    this.camera.ortho = this.state.ortho;
    if (key === 'follow' && !this.state.follow) this.fitCamera();
    this.syncControls();
    this.changed();
    this.persist();
  }

  /** Frames the model (over the whole clip) from a preset direction. */
  private frameView(view: CameraView): void {
    this.fitCamera(view);
    this.changed();
    this.persist();
  }

  private applyBackground(save = true): void {
    const bg = this.state.background;
    if (bg) {
      const n = parseInt(bg.slice(1), 16);
      this.frame.clearColor[0] = ((n >> 16) & 255) / 255;
      this.frame.clearColor[1] = ((n >> 8) & 255) / 255;
      this.frame.clearColor[2] = (n & 255) / 255;
    } else {
      this.frame.clearColor.set([0.16, 0.17, 0.19, 1]);
    }
    this.toolbar.showBackground(bg);
    this.changed();
    if (save) this.persist();
  }

  /** The export-image button: the canvas as drawn (preserveDrawingBuffer) as a PNG to the host, which asks where to save it. */
  private exportImage(): void {
    this.renderFrame();
    this.canvas.toBlob((blob) => {
      if (!blob) return;
      void blob.arrayBuffer().then((png) => {
        const stem = this.fileName.replace(/\.[^.]*$/, '') || 'model';
        this.post({ type: 'saveImage', png, name: `${stem}.png` });
      });
    }, 'image/png');
  }

  private bindPointer(): void {
    let dragging = false;
    let button = 0;
    let lastX = 0, lastY = 0, downX = 0, downY = 0;
    this.canvas.addEventListener('pointerdown', (e) => {
      dragging = true;
      button = e.button === 0 && (e.shiftKey || e.ctrlKey) ? 1 : e.button;
      lastX = downX = e.clientX;
      lastY = downY = e.clientY;
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (dragging) {
        const dx = e.clientX - lastX, dy = e.clientY - lastY;
        lastX = e.clientX;
        lastY = e.clientY;
        if (button === 0) this.camera.orbit(dx, dy);
        else this.camera.pan(dx, dy, this.canvas.clientHeight);
        this.fitted = null;
        this.changed();
        this.shareView();
      } else this.hover(e.offsetX, e.offsetY);
    });
    this.canvas.addEventListener('pointerup', (e) => {
      dragging = false;
      this.canvas.releasePointerCapture(e.pointerId);
      if (Math.abs(e.clientX - downX) + Math.abs(e.clientY - downY) < 4) this.click(e.offsetX, e.offsetY);
      this.persist();
    });
    this.canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.camera.zoom(Math.exp(e.deltaY * 0.001));
        this.fitted = null;
        this.changed();
        this.shareView();
      },
      { passive: false },
    );
    this.canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /**
   * A click (not a drag) on the view at CSS pixels (x, y): with the skeleton shown, selects the
   * joint there; elsewhere picks the triangle under it (the info panel names it, the host moves
   * the IQE text's cursor to its line). A click on nothing clears the pick.
   */
  private click(x: number, y: number): void {
    if (this.state.skeleton) {
      const joint = this.pick(x, y);
      this.selectJoint(joint);
      if (joint >= 0) return;
    }
    this.pickTriangle(x, y);
  }

  /** The triangle under (x, y) of the drawn model (not of an assembled player's other parts), or null. */
  pickTriangle(x: number, y: number): number {
    const scene = this.scene;
    const gpu = this.gpu;
    if (!scene || !gpu || this.player) return -1;
    // The pose of the frame on screen.
    scene.update(this.state.clip, this.state.time, this.state.loop, this.state.interpolate);
    this.camera.update(this.canvas.width / Math.max(1, this.canvas.height));
    const frontCW = gpu.frontCW !== (this.state.winding === 'flipped');
    const picked = this.picking.pick(scene, this.camera.viewProj, x, y, this.canvas.clientWidth, this.canvas.clientHeight, { on: this.state.cull, frontCW }, (m) => gpu.meshes[m]?.visible === false);
    this.work.showPick(picked, scene);
    if (picked) {
      this.root.dataset.picked = String(picked.modelTriangle);
      this.post({ type: 'picked', mesh: picked.mesh, triangle: picked.modelTriangle, vertices: picked.vertices });
    } else delete this.root.dataset.picked;
    this.changed();
    return picked ? picked.modelTriangle : -1;
  }

  /** The joint nearest to a canvas point (CSS pixels), or -1. */
  pick(x: number, y: number): number {
    return this.names.pick(this.scene, this.camera.viewProj, this.canvas.clientWidth, this.canvas.clientHeight, x, y);
  }

  private hover(x: number, y: number): void {
    if (!this.state.skeleton || !this.scene) {
      this.names.hide();
      return;
    }
    this.names.show(this.scene, this.pick(x, y), x, y);
  }

  selectJoint(j: number): void {
    this.state.selectedJoint = j;
    if (j >= 0 && !this.state.skeleton && !this.state.weights) this.state.skeleton = true;
    this.syncControls();
    this.changed();
    this.persist();
  }

  selectClip(c: number): void {
    this.shareView();
    this.state.clip = c;
    this.state.time = 0;
    this.player?.selectClip(c, this.state.legsClip);
    const clip = this.clips[c];
    if (clip) this.state.loop = clip.loop;
    this.timeline.selectClip(c);
    this.timeline.showClip(clip, this.scene);
    this.syncControls();
    this.changed();
    this.persist();
  }

  /** True when a clip that does not loop has played to its last frame. */
  private atClipEnd(): boolean {
    const clip = this.clips[this.state.clip];
    return !!clip && !this.state.loop && this.state.time >= Scene.duration(clip) - 1e-6;
  }

  /** Assembled player: the legs' clip, played with the torso's (-1: LEGS_IDLE). */
  selectLegsClip(c: number): void {
    this.state.legsClip = c;
    this.player?.selectClip(this.state.clip, c);
    this.timeline.selectLegsClip(c);
    this.changed();
    this.persist();
  }

  setPlaying(playing: boolean): void {
    this.shareView();
    // Play at the end of a finished clip plays it again from the first frame.
    if (playing && this.atClipEnd()) this.state.time = 0;
    this.state.playing = playing;
    this.lastTime = -1;
    this.syncControls();
    this.changed();
    this.persist();
  }

  private stepFrame(d: number): void {
    const clip = this.clips[this.state.clip];
    if (!clip) return;
    this.setPlaying(false);
    const fps = Scene.fps(clip);
    const f = Math.round(this.state.time * fps) + d;
    this.state.time = (((f % clip.frameCount) + clip.frameCount) % clip.frameCount) / fps;
    this.changed();
  }

  private toggle(key: Toggle): void {
    this.state[key] = !this.state[key];
    this.syncControls();
    this.changed();
    this.persist();
  }

  /**
   * Frames the model from `view`: over every frame of the selected clip (the file's per-frame
   * bounds), so that an animated pose (a leap, a swung arm) stays in view; the bind-pose box where
   * the file has no bounds or no clip is selected.
   */
  fitCamera(view: CameraView = 'default'): void {
    const scene = this.scene;
    if (!scene) return;
    let b: Float64Array = scene.box;
    if (this.player) {
      this.player.update(this.state.time, this.state.loop, this.state.interpolate);
      this.player.box(this.boxScratch);
      b = this.boxScratch;
    } else if (clipBounds(scene, this.clips[this.state.clip], this.boxScratch)) b = this.boxScratch;
    const quake = scene.model.format === 'md3' || scene.model.format === 'dpm';
    const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
    this.camera.fit([b[0], b[1], b[2]], [b[3], b[4], b[5]], quake ? 'x' : 'y', aspect || 1, view);
    this.fitted = view;
    this.camera.ortho = this.state.ortho;
    this.state.camera = null;
    this.root.dataset.fit = Array.from(b, (x) => x.toFixed(3)).join(',');
  }

  persist(): void {
    this.state.camera = this.scene ? this.camera.state() : this.state.camera;
    this.host.setState(this.state);
  }

  /** The grid and axes for the loaded model (the static head of the overlay lines). */
  private buildGrid(): void {
    if (this.scene) this.frame.normalLength = this.overlays.buildGrid(this.scene) * 0.02;
  }

  // ---------------------------------------------------------------- frame loop

  /** Requests a redraw (coalesced into the next animation frame). */
  changed(): void {
    this.dirty = true;
    // Camera moves, toggles, scrubbing: saved shortly after the last change (not every frame).
    if (this.persistSoon) clearTimeout(this.persistSoon);
    this.persistSoon = setTimeout(() => {
      this.persistSoon = null;
      if (this.scene) this.persist();
    }, 400);
    if (!this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame(this.tickBound);
    }
  }

  /** The preset the camera was last framed from, or null once the user moved it (then a resize keeps it). */
  private fitted: CameraView | null = null;

  /** Time of the last auto-rotate step (ms), -1 when not rotating. */
  private lastRotate = -1;

  private tick(now: number): void {
    this.frameRequested = false;
    const s = this.state;
    const clip = this.clips[s.clip];
    if (s.playing && clip && this.scene) {
      if (this.lastTime >= 0) {
        s.time += ((now - this.lastTime) / 1000) * s.speed;
        const dur = Scene.duration(clip);
        if (dur > 0 && s.time >= dur) {
          if (s.loop) s.time %= dur;
          else {
            // A clip that does not loop ends: it stops on its last frame, and Play starts it again.
            s.time = dur;
            s.playing = false;
            // Drawn once more: the last frame, and the controls say it ended.
            this.dirty = true;
            this.syncControls();
            this.persist();
          }
        }
      }
      this.lastTime = now;
    } else this.lastTime = -1;
    if (s.autoRotate && this.scene) {
      if (this.lastRotate >= 0) this.camera.yaw += ((now - this.lastRotate) / 1000) * 0.5;
      this.lastRotate = now;
    } else this.lastRotate = -1;
    if (this.dirty || s.playing || s.autoRotate) this.renderFrame();
    if ((s.playing && clip && this.scene) || (s.autoRotate && this.scene)) {
      this.frameRequested = true;
      requestAnimationFrame(this.tickBound);
    }
  }

  /** One frame: pose → joint texture → draw. Public for tests and benchmarks. */
  renderFrame(): void {
    this.dirty = false;
    const r = this.renderer;
    const scene = this.scene;
    const gpu = this.gpu;
    if (!r || r.contextLost) return;
    this.resize();
    const s = this.state;
    if (scene && gpu && this.player) {
      this.player.update(s.time, s.loop, s.interpolate);
      this.updateFrameText();
    } else if (scene && gpu) {
      scene.update(s.clip, s.time, s.loop, s.interpolate);
      gpu.uploadJoints();
      const mf = scene.morphFrames();
      gpu.morphA = mf.a;
      gpu.morphB = mf.b;
      gpu.morphT = mf.t;
      this.updateFrameText();
    }
    if (s.follow && scene) followTarget(scene, this.camera.target);
    const aspect = this.canvas.width / Math.max(1, this.canvas.height);
    this.camera.update(aspect);
    // In a comparison the drawn camera is on the root (tests compare the two sides'), whatever moved it.
    if (this.compared) this.showCamera();
    const f = this.frame;
    f.viewProj.set(this.camera.viewProj);
    // Light from the camera's side, raised a little: the front of whatever is shown is lit.
    const e = this.camera.eye, t = this.camera.target;
    let lx = e[0] - t[0], ly = e[1] - t[1], lz = e[2] - t[2];
    const ll = Math.hypot(lx, ly, lz) || 1;
    lx = lx / ll + 0.2;
    ly /= ll;
    lz = lz / ll + 0.6;
    const ln = Math.hypot(lx, ly, lz) || 1;
    f.lightDir[0] = lx / ln;
    f.lightDir[1] = ly / ln;
    f.lightDir[2] = lz / ln;
    f.cull = s.cull;
    f.flipWinding = s.winding === 'flipped';
    f.textured = s.textures;
    f.wireframe = s.wireframe;
    f.normals = s.normals;
    f.weights = s.weights;
    f.highlightUnweighted = s.weights;
    f.vertexColors = s.colors;
    f.lit = s.lit;
    f.selectedJoint = s.selectedJoint;
    r.begin(f);
    if (scene && gpu && this.player) {
      for (const p of this.player.parts) if (p.gpu) r.drawModel(p.gpu, f);
    } else if (scene && gpu) r.drawModel(gpu, f);
    // Tags are drawn in the opened part's space (an assembled player moves upper/head by their tags).
    if (!this.player) this.picking.build(scene);
    this.overlays.build(scene, s, !this.player || this.player.parts[0].scene === scene, this.player ? undefined : this.picking);
    this.overlays.draw(r, f.viewProj, s.grid);
    if (scene && !this.reportedFirstFrame) {
      this.reportedFirstFrame = true;
      this.firstFrameMs = performance.now() - this.loadStart;
      this.root.dataset.firstFrameMs = this.firstFrameMs.toFixed(1);
      this.post({
        type: 'rendered', ok: true, format: scene.model.format, error: null,
        vertices: scene.layout.totalVertices, triangles: scene.layout.totalTriangles, joints: scene.jointCount, firstFrameMs: this.firstFrameMs,
        ...(this.compiled ? { sourceVersion: this.compiled.version } : {}),
      });
    }
  }

  /** Frame number and timeline position of the part that plays the selected clip. */
  private updateFrameText(): void {
    let scene = this.scene;
    if (!scene) return;
    // Player: the part that plays the selected clip (torso for TORSO_*, legs for LEGS_* and BOTH_*).
    if (this.player) {
      for (const p of this.player.parts) {
        if (p.clip === this.state.clip) {
          scene = p.scene;
          break;
        }
      }
    }
    this.timeline.showFrame(scene, this.clips[this.state.clip], this.dirty);
  }

  private resize(): void {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
  }

  // ---------------------------------------------------------------- test hooks

  /**
   * The opened model's textures: how many of its meshes draw one, how many GPU textures they use,
   * and how many different images the host's answers name.
   */
  textureStats(): { textured: number; textures: number; images: number } {
    const images = new Set(this.textures.results.map((r) => (r?.source.kind === 'bytes' ? r.source.path : r?.source.kind === 'uri' ? r.source.uri : null)).filter((k) => k !== null));
    return { ...(this.gpu?.textureStats() ?? { textured: 0, textures: 0 }), images: images.size };
  }

  /** GPU-skinned positions at a global frame (-1 bind pose), through transform feedback. */
  captureFrame(frame: number): Float32Array {
    const r = this.renderer, scene = this.scene, gpu = this.gpu;
    if (!r || !scene || !gpu) throw new Error('no model');
    scene.setFrame(frame);
    gpu.uploadJoints();
    const mf = scene.morphFrames();
    gpu.morphA = mf.a;
    gpu.morphB = mf.b;
    gpu.morphT = mf.t;
    const out = new Float32Array(scene.layout.totalVertices * 3);
    r.captureSkinned(gpu, out);
    return out;
  }

  get currentScene(): Scene | null {
    return this.scene;
  }

  get rendererInfo(): string {
    const gl = this.renderer?.gl;
    return gl ? String(gl.getParameter(gl.RENDERER)) : 'none';
  }

  dispose(): void {
    if (this.persistTimer) clearInterval(this.persistTimer);
  }
}

// The preview's coordinator: owns the renderer, the loaded scene, the camera and the view state,
// and wires the modules that do the work: the toolbar (ui/viewToolbar), the playback bar
// (ui/timeline) and what it drives (playback.ts), the info panel (ui/info), the status and error
// view (ui/status), the pointer (pointer.ts) and picking (picking.ts), a comparison's sync
// (compare.ts), the Quake 3 player assembly (playerAssembly.ts), the overlays (overlays/), the
// textures (textures.ts) and the frame options (frameOptions.ts). It runs the frame loop, which
// allocates nothing: it advances the playback, samples the pose into preallocated arrays, uploads
// the joint texture and draws.

import type { CompileStateMessage, CompiledFrom, Highlight, LoadMessage, PlayClipMessage, SourceProblem, TextureResult, WebviewToHost } from '../core/protocol';
import type { ComparisonMessage, PickedSourceMessage, SharedView } from '../core/viewLink';
import { restoreViewState, type ViewState } from '../core/viewState';
import { chooseSkin } from '../core/sidecar/precedence';
import { Comparison } from './compare';
import { firstView } from './firstView';
import { createFrameOptions, fillFrameOptions, setBackground } from './frameOptions';
import { boxRadius, clipBounds, followTarget, modelFront } from './framing';
import { GpuModels } from './gpuModels';
import { loadModelBytes, LoadError, viewClips } from './load';
import { OverlayLines } from './overlays/lines';
import { withPartner } from './partner';
import { ViewPicking } from './picking';
import { Playback } from './playback';
import type { PlayerAssembly } from './player';
import { Assembly, canAssemble } from './playerAssembly';
import { bindPointer } from './pointer';
import { OrbitCamera, type CameraState, type CameraView } from './renderer/camera';
import { Scene, type ViewClip } from './scene';
import { textureRequests } from './textures';
import { clear, h } from './ui/dom';
import { renderInfo } from './ui/info';
import { PartnerPicker } from './ui/partnerPicker';
import { SourceBadge } from './ui/sourceBadge';
import { sourceLink, StatusView } from './ui/status';
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
  private readonly status = new StatusView();
  private readonly info: HTMLElement;
  private readonly toolbar: ViewToolbar;
  private readonly timeline: Timeline;
  /** Which IQE text the drawn model is compiled from, and whether a newer one compiles or failed. */
  private readonly sourceBadge = new SourceBadge();
  private readonly overlays = new OverlayLines();
  private readonly partnerPicker = new PartnerPicker((name) => this.post({ type: 'choosePartner', name }));
  /** The clicked triangle's and a comparison's sections of the info panel. */
  private readonly work = new WorkPanel();
  private readonly camera = new OrbitCamera();
  private readonly playback: Playback;
  /** The clicked joint or triangle, the hovered joint and what the host asked to highlight (the IQE cursor's vertex, face or joint). */
  private readonly picking: ViewPicking;
  /** One side of a comparison: camera, clip and playback changes go to the host for the other side. */
  private readonly compare: Comparison;
  /** Quake 3 player assembly (head/upper/lower.md3 through their tags), when switched on. */
  private readonly assembly = new Assembly();
  /** The renderer and the shown model's GPU resources and textures. */
  private readonly gpus: GpuModels;
  private compiled: CompiledFrom | null = null;
  private lastLoad: LoadMessage | null = null;
  private readonly boxScratch = new Float64Array(6);
  private scene: Scene | null = null;
  state: ViewState;
  private fileName = '';
  /** The model's full path or URI (for texture paths relative to its folder). */
  private modelPath = '';
  private notes: string[] = [];
  generation = 0;
  private frameRequested = false;
  private dirty = true;
  private loadStart = 0;
  firstFrameMs = -1;
  /** Milliseconds spent in each phase of the last load (for the benchmark). */
  loadTimings: Record<string, number> = {};
  private reportedFirstFrame = false;
  private persistTimer: ReturnType<typeof setInterval> | null = null;
  private persistSoon: ReturnType<typeof setTimeout> | null = null;
  private readonly frame = createFrameOptions();
  /** The preset the camera was last framed from, or null once the user moved it (then a resize keeps it). */
  private fitted: CameraView | null = null;
  /** Time of the last auto-rotate step (ms), -1 when not rotating. */
  private lastRotate = -1;
  private readonly tickBound = (now: number) => this.tick(now);

  constructor(
    parent: HTMLElement,
    private readonly host: HostApi,
  ) {
    this.state = restoreViewState(host.getState());
    this.playback = new Playback(this.state);
    this.canvas = h('canvas', { id: 'view' });
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
        if (!this.playback.clip) return;
        this.setPlaying(false);
        this.playback.scrub(frame);
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
    this.root = h('div', { id: 'viewer', 'data-state': 'loading' });
    this.picking = new ViewPicking(this.root, this.canvas, this.camera, this.work, (m) => this.post(m));
    this.root.append(
      h('div', { class: 'stage' }, this.canvas, this.picking.names.label, this.status.el, this.toolbar.el, this.partnerPicker.el, this.sourceBadge.el),
      this.info,
      this.timeline.el,
    );
    this.compare = new Comparison({
      root: this.root,
      camera: this.camera,
      state: this.state,
      work: this.work,
      shown: () => this.scene !== null,
      clips: () => this.playback.clips,
      restoreCamera: (c) => this.restoreCamera(c),
      selectClip: (c) => this.selectClip(c),
      setPlaying: (p) => this.setPlaying(p),
      changed: () => this.changed(),
      post: (m) => this.post(m),
    });
    parent.append(this.root);
    bindPointer(this.canvas, this.camera, {
      cameraMoved: () => {
        this.fitted = null;
        this.changed();
        this.shareView();
      },
      click: (x, y) => this.click(x, y),
      hover: (x, y) => this.picking.hover(this.scene, this.state.skeleton, x, y),
      released: () => this.persist(),
    });
    this.syncControls();
    this.applyPanel();
    this.gpus = new GpuModels(this.canvas, this.assembly);
    if (this.gpus.noWebGl !== null) this.showError('WebGL2 is not available', this.gpus.noWebGl, null);
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
    this.partnerPicker.show(msg.partner);
    const shown = withPartner(loaded.model, msg.partner, this.notes);
    this.root.dataset.partner = shown.partner;
    const model = shown.model;
    this.disposeModel();
    const scene = new Scene(model);
    const tScene = performance.now();
    this.scene = scene;
    const clips = viewClips(model, msg.fileName, msg.sidecars, this.notes);
    this.playback.clips = clips;
    scene.clips = clips;
    firstView(model, scene.jointCount, clips, !!msg.reload, this.state, this.notes);
    this.gpus.textures.reset(model.meshes.length);
    // Hides the surfaces engines do not draw (a `nodraw` shader or material), as after a lost context.
    this.gpus.build(scene);
    this.compiled = msg.compiled ?? null;
    this.picking.forgetPick(scene);
    if (this.compiled) this.root.dataset.sourceMap = '';
    delete this.root.dataset.compile;
    this.sourceBadge.showCompiled(this.compiled, this.root);
    this.fillSkinSelect(msg);
    this.applyBackground(false);
    if (this.state.assemblePlayer && canAssemble(model, msg)) this.assemble();
    const tGpu = performance.now();
    // The saved camera belongs to the file it was saved for (a reload or hide/show of this file).
    if (this.state.file !== msg.fileName) this.state.camera = null;
    this.state.file = msg.fileName;
    if (this.state.camera) {
      this.restoreCamera(this.state.camera);
      this.camera.ortho = this.state.ortho;
    } else this.fitCamera();
    this.buildGrid();
    this.fillClipSelect();
    this.syncControls();
    if (!this.gpus.renderer) {
      this.renderInfo();
      // No WebGL2: say so, but still describe the file in the info panel.
      this.root.dataset.state = 'error';
      this.status.noWebGl(this.gpus.noWebGl ?? '', msg.fileName);
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
    this.playback.restartClock();
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

  /** Asks the host to resolve every mesh's texture (skin, shader and material names, in that order). */
  private requestTextures(msg: LoadMessage): void {
    const scene = this.scene;
    if (!scene) return;
    const skin = chooseSkin(scene.model, msg.sidecars.skins, this.state.skin);
    if (skin) this.notes.push(`textures from ${skin.name}`);
    this.root.dataset.textures = 'pending';
    this.root.dataset.skin = skin ? skin.name : '';
    const requests = textureRequests(scene.model, skin);
    requests.push(...this.assembly.textureRequests(scene));
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

  /** Switches the player assembly on (the opened file must be head/upper/lower.md3 with the other two beside it). */
  private assemble(): void {
    const msg = this.lastLoad;
    const scene = this.scene;
    if (!msg || !scene || this.assembly.player || !canAssemble(scene.model, msg)) return;
    let player: PlayerAssembly;
    try {
      player = this.assembly.assemble(msg, scene);
    } catch (e) {
      this.notes.push(`player assembly failed: ${e instanceof Error ? e.message : String(e)}`);
      this.state.assemblePlayer = false;
      return;
    }
    // Keep the selected clip by name (the part's own list is a subset of animation.cfg's).
    this.playback.replaceClips(player.clips, 'TORSO_STAND');
    if (!player.clips[this.state.legsClip]?.name.startsWith('LEGS_')) this.state.legsClip = -1;
    player.selectClip(this.state.clip, this.state.legsClip);
    this.gpus.buildParts(scene);
    this.fillClipSelect();
    this.renderInfo();
    // Textures of the other parts (the opened part's are requested by load()).
    if (this.root.dataset.state === 'ready') {
      const requests = this.assembly.textureRequests(scene);
      if (requests.length) this.post({ type: 'textureRequest', generation: this.generation, requests });
    }
  }

  private disassemble(): void {
    if (!this.assembly.disassemble(this.gpus.gpu)) return;
    let clips = this.playback.clips;
    if (this.scene && this.lastLoad) {
      clips = viewClips(this.scene.model, this.lastLoad.fileName, this.lastLoad.sidecars, []);
      this.scene.clips = clips;
    }
    this.playback.replaceClips(clips, 0);
    this.fillClipSelect();
    this.renderInfo();
  }

  private disposeModel(): void {
    this.gpus.dispose();
    this.scene = null;
  }

  private restoreContext(): void {
    if (!this.gpus.renderer) return;
    try {
      this.gpus.restore(this.scene);
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
    await this.gpus.applyTextures(results, this.notes, () => generation === this.generation);
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
    const i = this.playback.find(m.name, m.firstFrame);
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
   * (as a click on the skeleton does); vertices and triangles are outlined over the model.
   */
  highlight(target: Highlight | null): void {
    this.picking.highlight(target);
    if (target?.kind === 'joint') this.selectJoint(target.joint);
    else this.changed();
  }

  /** An IQE preview: the host names the lines of the clicked triangle. */
  pickedSource(m: PickedSourceMessage): void {
    this.work.showPickSource(m);
  }

  /** This preview is one side of a comparison (compare.ts): the differences, and the shared view. */
  comparison(m: ComparisonMessage): void {
    this.compare.start(m);
  }

  comparisonEnded(): void {
    this.compare.end();
  }

  /** The other side moved its camera or changed its clip or playback: this one follows. */
  syncView(view: SharedView): void {
    this.compare.apply(view);
  }

  private shareView(): void {
    this.compare.share();
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
    this.status.error(title, message, offset, problem ? this.sourceLink(problem) : null);
    clear(this.info);
    this.timeline.el.classList.add('hidden');
  }

  /** A link that shows the IQE text at the problem's line. */
  private sourceLink(problem: SourceProblem): HTMLElement {
    return sourceLink(problem, (line, column) => this.post({ type: 'openSource', line, column }));
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
    this.status.show(text, kind);
    this.timeline.el.classList.remove('hidden');
  }

  private post(m: WebviewToHost): void {
    this.host.postMessage(m);
  }

  // ---------------------------------------------------------------- UI

  private renderInfo(): void {
    if (!this.scene) return;
    renderInfo(this.info, this.fileName, this.modelPath, this.scene, this.playback.clips, this.notes, this.gpus.textures.results, {
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
    this.timeline.fill(this.playback.clips, this.assembly.player !== null, this.state, this.scene);
    this.reportClips();
  }

  /** Tells the host the listed clips and the selected one, when they changed. */
  private reportClips(): void {
    const m = this.playback.report();
    if (m) this.post(m);
  }

  private syncControls(): void {
    this.reportClips();
    const s = this.state;
    this.timeline.sync(s, !s.playing && this.playback.atEnd(), this.assembly.player !== null);
    const model = this.scene?.model;
    this.toolbar.sync(
      s,
      model && this.scene
        ? {
            tags: !!model.tags,
            colors: model.meshes.some((m) => m.color !== null),
            skinned: this.scene.jointCount > 0,
            bounds: !!model.bounds,
            canAssemble: canAssemble(model, this.lastLoad),
            assembled: this.assembly.player !== null,
          }
        : null,
    );
  }

  private toggle(key: Toggle): void {
    this.state[key] = !this.state[key];
    this.syncControls();
    this.changed();
    this.persist();
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
    setBackground(this.frame, this.state.background);
    this.toolbar.showBackground(this.state.background);
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

  // ---------------------------------------------------------------- picking, playback, camera

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
    // The opened model's triangles (not an assembled player's other parts).
    const gpu = this.gpus.gpu;
    if (!this.scene || !gpu || this.assembly.player) return;
    this.picking.triangle(this.scene, gpu, this.state, x, y);
    this.changed();
  }

  /** The joint nearest to a canvas point (CSS pixels), or -1. */
  pick(x: number, y: number): number {
    return this.picking.joint(this.scene, x, y);
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
    const clip = this.playback.select(c);
    this.assembly.player?.selectClip(c, this.state.legsClip);
    this.timeline.selectClip(c);
    this.timeline.showClip(clip, this.scene);
    this.syncControls();
    this.changed();
    this.persist();
  }

  /** Assembled player: the legs' clip, played with the torso's (-1: LEGS_IDLE). */
  selectLegsClip(c: number): void {
    this.state.legsClip = c;
    this.assembly.player?.selectClip(this.state.clip, c);
    this.timeline.selectLegsClip(c);
    this.changed();
    this.persist();
  }

  setPlaying(playing: boolean): void {
    this.shareView();
    this.playback.setPlaying(playing);
    this.syncControls();
    this.changed();
    this.persist();
  }

  private stepFrame(d: number): void {
    if (!this.playback.clip) return;
    this.setPlaying(false);
    this.playback.step(d);
    this.changed();
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
    const player = this.assembly.player;
    if (player) {
      player.update(this.state.time, this.state.loop, this.state.interpolate);
      player.box(this.boxScratch);
      b = this.boxScratch;
    } else if (clipBounds(scene, this.playback.clip, this.boxScratch)) b = this.boxScratch;
    const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
    this.camera.fit([b[0], b[1], b[2]], [b[3], b[4], b[5]], modelFront(scene.model.format), aspect || 1, view);
    this.fitted = view;
    this.camera.ortho = this.state.ortho;
    this.state.camera = null;
    this.root.dataset.fit = Array.from(b, (x) => x.toFixed(3)).join(',');
  }

  /** Puts the camera where a saved or shared view had it (no longer framed by a preset). */
  private restoreCamera(c: CameraState): void {
    if (!this.scene) return;
    this.camera.restore(c, boxRadius(this.scene.box));
    this.fitted = null;
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

  private tick(now: number): void {
    this.frameRequested = false;
    const s = this.state;
    if (this.playback.advance(now, this.scene !== null)) {
      // The clip ended: drawn once more (its last frame), and the controls say it ended.
      this.dirty = true;
      this.syncControls();
      this.persist();
    }
    if (s.autoRotate && this.scene) {
      if (this.lastRotate >= 0) this.camera.yaw += ((now - this.lastRotate) / 1000) * 0.5;
      this.lastRotate = now;
    } else this.lastRotate = -1;
    if (this.dirty || s.playing || s.autoRotate) this.renderFrame();
    if ((s.playing && this.playback.clip && this.scene) || (s.autoRotate && this.scene)) {
      this.frameRequested = true;
      requestAnimationFrame(this.tickBound);
    }
  }

  /** One frame: pose → joint texture → draw. Public for tests and benchmarks. */
  renderFrame(): void {
    this.dirty = false;
    const r = this.gpus.renderer;
    const scene = this.scene;
    if (!r || r.contextLost) return;
    this.resize();
    const s = this.state;
    if (scene && this.gpus.gpu) {
      this.gpus.pose(scene, s);
      this.updateFrameText();
    }
    if (s.follow && scene) followTarget(scene, this.camera.target);
    const aspect = this.canvas.width / Math.max(1, this.canvas.height);
    this.camera.update(aspect);
    // In a comparison the drawn camera is on the root (tests compare the two sides'), whatever moved it.
    if (this.compare.active) this.compare.showCamera();
    const f = this.frame;
    fillFrameOptions(f, s, this.camera.viewProj, this.camera.eye, this.camera.target);
    r.begin(f);
    if (scene) this.gpus.draw(f);
    const player = this.assembly.player;
    // Tags are drawn in the opened part's space (an assembled player moves upper/head by their tags).
    if (!player) this.picking.outlines.build(scene);
    this.overlays.build(scene, s, !player || player.parts[0].scene === scene, player ? undefined : this.picking.outlines);
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
    const player = this.assembly.player;
    if (player) {
      for (const p of player.parts) {
        if (p.clip === this.state.clip) {
          scene = p.scene;
          break;
        }
      }
    }
    this.timeline.showFrame(scene, this.playback.clip, this.dirty);
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

  dispose(): void {
    if (this.persistTimer) clearInterval(this.persistTimer);
  }
}

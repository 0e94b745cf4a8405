// The preview's coordinator: owns the camera, the view state and the elements of the view, and
// wires the modules that do the work: the load path (modelLoading.ts), the controls and what they
// change (controls.ts: toolbar, playback bar, keyboard), the playback (playback.ts), an IQE text's
// compile state (compileState.ts), the info panel (ui/info), the status and error view (ui/status),
// the pointer (pointer.ts) and picking (picking.ts), a comparison's sync (compare.ts), the Quake 3
// player assembly (playerAssembly.ts), the GPU models (gpuModels.ts), the overlays (overlays/) and
// the frame options (frameOptions.ts). It runs the frame loop, which allocates nothing: it advances
// the playback, poses the model into preallocated arrays, uploads them and draws.

import type { CompileStateMessage, Highlight, LoadMessage, PlayClipMessage, SourceProblem, TextureResult, WebviewToHost } from '../core/protocol';
import type { ComparisonMessage, PickedSourceMessage, SharedView } from '../core/viewLink';
import { restoreViewState, type ViewState } from '../core/viewState';
import type { ValidationReport } from '../core/validate/report';
import { Comparison } from './compare';
import { CompileState } from './compileState';
import { Controls } from './controls';
import { createFrameOptions, fillFrameOptions } from './frameOptions';
import { GpuModels } from './gpuModels';
import { LoadError } from './load';
import { ModelLoading } from './modelLoading';
import { OverlayLines } from './overlays/lines';
import { ViewPicking } from './picking';
import { SlowFrames } from './slowFrames';
import { Playback } from './playback';
import { Assembly } from './playerAssembly';
import { bindPointer } from './pointer';
import { OrbitCamera, type CameraState, type CameraView } from './renderer/camera';
import type { Scene } from './scene';
import { clear, h } from './ui/dom';
import { renderInfo } from './ui/info';
import { Notice } from './ui/notice';
import { StatusView } from './ui/status';
import { WorkPanel } from './ui/workPanel';
import { ViewCamera } from './viewCamera';

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
  private readonly notice = new Notice();
  /** Stops the animation of a model drawn too slowly to animate (a second a frame on a software rasteriser). */
  private readonly slowFrames = new SlowFrames();
  private readonly info: HTMLElement;
  /** The toolbar, the playback bar and the keyboard, and what they change. */
  private readonly controls: Controls;
  private readonly overlays = new OverlayLines();
  /** The clicked triangle's and a comparison's sections of the info panel. */
  private readonly work = new WorkPanel();
  private readonly camera = new OrbitCamera();
  /** Framing the camera from a preset, restoring a saved view, auto-rotate and follow. */
  private readonly framing: ViewCamera;
  protected readonly playback: Playback;
  /** The clicked joint or triangle, the hovered joint and what the host asked to highlight (the IQE cursor's vertex, face or joint). */
  private readonly picking: ViewPicking;
  /** One side of a comparison: camera, clip and playback changes go to the host for the other side. */
  private readonly compare: Comparison;
  /** Quake 3 player assembly (head/upper/lower.md3 through their tags), when switched on. */
  protected readonly assembly = new Assembly();
  /** The renderer and the shown model's GPU resources and textures. */
  protected readonly gpus: GpuModels;
  /** The shown model: loaded, its textures asked for, a player assembled around it. */
  protected readonly loading: ModelLoading;
  /** Which IQE text the drawn model is compiled from, and whether a newer one compiles or failed. */
  private readonly compile: CompileState;
  /** The validator's report on the loaded model (null until the host sends it; core/validate). */
  private validation: ValidationReport | null = null;
  state: ViewState;
  private frameRequested = false;
  private dirty = true;
  private persistTimer: ReturnType<typeof setInterval> | null = null;
  private persistSoon: ReturnType<typeof setTimeout> | null = null;
  private readonly frame = createFrameOptions();
  private readonly tickBound = (now: number) => this.tick(now);

  constructor(
    parent: HTMLElement,
    private readonly host: HostApi,
  ) {
    this.state = restoreViewState(host.getState());
    this.playback = new Playback(this.state);
    this.canvas = h('canvas', { id: 'view' });
    this.info = h('div', { id: 'info', class: 'info' });
    this.root = h('div', { id: 'viewer', 'data-state': 'loading' });
    this.framing = new ViewCamera(this.camera, this.canvas, this.root, this.state);
    this.gpus = new GpuModels(this.canvas, this.assembly);
    this.loading = new ModelLoading(this.root, this.state, this.playback, this.assembly, this.gpus, (m) => this.post(m));
    this.compile = new CompileState(this.root, (line, column) => this.post({ type: 'openSource', line, column }));
    this.controls = new Controls(
      { root: this.root, canvas: this.canvas, info: this.info, state: this.state, camera: this.camera, frame: this.frame, playback: this.playback, assembly: this.assembly, shown: this.loading },
      {
        shareView: () => this.compare.share(),
        assemblyToggled: () => this.assemblyToggled(),
        fitCamera: (view) => this.fitCamera(view),
        clipSelected: () => {
          if (this.scene) this.framing.clipChanged(this.scene, this.assembly.player, this.playback.clip);
        },
        setSkin: (name) => {
          this.loading.setSkin(name);
          this.persist();
        },
        renderFrame: () => this.renderFrame(),
        post: (m) => this.post(m),
        changed: () => this.changed(),
        persist: () => this.persist(),
      },
    );
    this.picking = new ViewPicking(this.root, this.canvas, this.camera, this.work, (m) => this.post(m));
    this.root.append(
      h('div', { class: 'stage' }, this.canvas, this.picking.names.label, this.status.el, this.notice.el, this.controls.toolbar.el, this.loading.partnerPicker.el, this.compile.badge.el),
      this.info,
      this.controls.timeline.el,
    );
    this.compare = new Comparison({
      root: this.root,
      camera: this.camera,
      state: this.state,
      work: this.work,
      shown: () => this.scene !== null,
      clips: () => this.playback.clips,
      restoreCamera: (c) => this.restoreCamera(c),
      // The other side's camera came with its clip: kept, not reframed.
      selectClip: (c) => this.controls.selectClip(c, false),
      setPlaying: (p) => this.setPlaying(p),
      changed: () => this.changed(),
      post: (m) => this.post(m),
    });
    parent.append(this.root);
    bindPointer(this.canvas, this.camera, {
      cameraMoved: () => {
        this.framing.moved();
        this.changed();
        this.compare.share();
      },
      click: (x, y) => this.click(x, y),
      hover: (x, y) => this.picking.hover(this.scene, this.state.skeleton, x, y),
      released: () => this.persist(),
    });
    this.controls.sync();
    this.controls.applyPanel();
    if (this.gpus.noWebGl !== null) this.showError('WebGL2 is not available', this.gpus.noWebGl, null);
    this.canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault();
      this.setStatus('The WebGL context was lost; waiting for it to be restored…', 'error');
      this.root.dataset.state = 'context-lost';
    });
    this.canvas.addEventListener('webglcontextrestored', () => this.restoreContext());
    new ResizeObserver(() => {
      this.root.classList.toggle('narrow', this.root.clientWidth < NARROW_PX);
      this.controls.toolbar.layout();
      // A camera the user has not moved keeps the model framed when the editor is resized.
      if (this.scene) this.framing.refit(this.scene, this.assembly.player, this.playback.clip);
      this.changed();
    }).observe(this.root);
    this.persistTimer = setInterval(() => {
      if (this.state.playing) this.persist();
    }, 1000);
  }

  /** The shown model, or null. */
  protected get scene(): Scene | null {
    return this.loading.scene;
  }

  // ---------------------------------------------------------------- loading

  load(msg: LoadMessage): void {
    const loading = this.loading;
    // The report of the earlier load is not this model's; the host sends this one's after the load.
    this.validation = null;
    let scene: Scene;
    try {
      scene = loading.open(msg);
    } catch (e) {
      // Bytes that are not a model; anything else is the preview's own failure (main.ts shows it).
      if (!(e instanceof LoadError)) throw e;
      this.showError(`${msg.fileName} cannot be previewed`, e.message, e.offset);
      this.post({ type: 'rendered', ok: false, format: '', error: e.message, vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
      return;
    }
    const model = scene.model;
    // Another model (not the same file again) is watched for slow frames again.
    if (!msg.reload) {
      this.slowFrames.reset();
      this.notice.hide();
    }
    this.compile.loaded(msg.compiled ?? null);
    this.picking.forgetPick(scene);
    this.controls.fillSkins(loading.usableSkins());
    this.controls.applyBackground(false);
    if (this.state.assemblePlayer) loading.assemble();
    loading.phase('gpu');
    // The saved camera belongs to the file it was saved for (a reload or hide/show of this file).
    if (this.state.file !== msg.fileName) this.state.camera = null;
    this.state.file = msg.fileName;
    if (this.state.camera) {
      this.restoreCamera(this.state.camera);
      this.camera.ortho = this.state.ortho;
    } else this.fitCamera();
    this.buildGrid();
    this.controls.fillClips();
    this.controls.sync();
    if (!this.gpus.renderer) {
      this.renderInfo();
      // No WebGL2: say so, but still describe the file in the info panel.
      this.root.dataset.state = 'error';
      this.status.noWebGl(this.gpus.noWebGl ?? '', msg.fileName);
      this.post({ type: 'rendered', ok: false, format: model.format, error: 'WebGL2 is not available', vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
      loading.requestTextures();
      return;
    }
    loading.phase('ui');
    this.root.dataset.state = 'ready';
    this.root.classList.remove('failed');
    this.root.dataset.format = model.format;
    this.root.dataset.file = msg.fileName;
    this.root.dataset.loads = String(loading.generation);
    this.setStatus('', 'ok');
    this.playback.restartClock();
    // Draw the first frame now (not at the next animation frame): open-to-first-frame matters.
    // The info panel is built right after, in its own task.
    this.renderFrame();
    const generation = loading.generation;
    setTimeout(() => {
      if (generation === loading.generation) this.renderInfo();
    }, 0);
    this.changed();
    loading.requestTextures();
  }

  /** The player assembly switch was flipped: the player assembled or taken apart, its clips listed. */
  private assemblyToggled(): void {
    const changed = this.state.assemblePlayer ? this.loading.assemble() : this.loading.disassemble();
    if (!changed) return;
    this.controls.fillClips();
    this.renderInfo();
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
    if (!(await this.loading.applyTextures(generation, results))) return;
    this.renderInfo();
    this.root.dataset.textures = 'done';
    this.changed();
  }

  // ---------------------------------------------------------------- host requests

  /** The validator's report on the model of the last load (it follows the load: the model is drawn first). */
  validated(report: ValidationReport): void {
    this.validation = report;
    if (this.scene) this.renderInfo();
  }

  /**
   * The host asks for a clip (a code lens on a sidecar line, a synced comparison): the listed clip
   * of that name (and first frame, when given), from its first frame. False when there is none.
   */
  playClip(m: PlayClipMessage): boolean {
    const i = this.playback.find(m.name, m.firstFrame);
    if (i < 0) {
      this.loading.notes.push(`no clip named ${m.name}${m.firstFrame !== undefined ? ` from frame ${m.firstFrame}` : ''} to play`);
      this.renderInfo();
      return false;
    }
    this.selectClip(i);
    if (m.frame === undefined) this.setPlaying(m.play);
    else {
      // One frame of the clip, paused (a MODELDEF Frame line's model frame).
      this.setPlaying(false);
      this.playback.scrub(Math.min(m.frame, (this.playback.clip?.frameCount ?? 1) - 1));
      this.controls.reportClips();
      this.changed();
    }
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

  // ---------------------------------------------------------------- errors and status

  /** A source the host compiles for the preview has errors: said as a model that cannot be previewed is. */
  sourceFailed(fileName: string, message: string): void {
    this.showError(`${fileName} cannot be previewed`, message, null);
    this.post({ type: 'rendered', ok: false, format: '', error: message, vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
  }

  showError(title: string, message: string, offset: number | null, problem: SourceProblem | null = null): void {
    this.loading.close();
    this.root.dataset.state = 'error';
    // Nothing of the model that was there before: no grid, toolbar or panel beside the message.
    this.root.classList.add('failed');
    this.overlays.clear();
    this.renderFrame();
    this.status.error(title, message, offset, problem ? this.compile.link(problem) : null);
    clear(this.info);
    this.controls.showTimeline(false);
  }

  /**
   * IQE text: a newer version compiles, failed to compile, or was saved. With a model drawn, the
   * badge says so and the model stays (the last good version); without one, the error view shows.
   */
  compileState(m: CompileStateMessage): void {
    const failed = this.compile.apply(m, this.scene !== null);
    if (failed) this.showError(`${this.loading.fileName || 'The IQE text'} cannot be previewed`, failed.message, null, failed.problem);
  }

  private setStatus(text: string, kind: 'ok' | 'error'): void {
    this.status.show(text, kind);
    this.controls.showTimeline(true);
  }

  private post(m: WebviewToHost): void {
    this.host.postMessage(m);
  }

  // ---------------------------------------------------------------- UI

  private renderInfo(): void {
    if (!this.scene) return;
    const l = this.loading;
    renderInfo(this.info, l.fileName, l.path, this.scene, this.playback.clips, l.notes, this.gpus.textures.results, {
      selectJoint: (j) => this.selectJoint(j),
      selectClip: (c) => this.selectClip(c),
      highlight: (t) => this.highlight(t),
    }, l.load?.engines, this.assembly.player?.parts, this.validation ?? undefined);
    this.work.attach(this.info);
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
    this.controls.selectJoint(j);
  }

  selectClip(c: number): void {
    this.controls.selectClip(c);
  }

  setPlaying(playing: boolean): void {
    this.controls.setPlaying(playing);
  }

  /** Frames the model from a preset direction, over the whole of the selected clip (viewCamera.ts). */
  fitCamera(view: CameraView = 'default'): void {
    if (this.scene) this.framing.fit(this.scene, this.assembly.player, this.playback.clip, view);
  }

  /** Puts the camera where a saved or shared view had it. */
  private restoreCamera(c: CameraState): void {
    if (this.scene) this.framing.restore(c, this.scene);
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
    const animating = this.scene !== null && ((s.playing && this.playback.clip !== undefined) || s.autoRotate);
    if (!animating) this.slowFrames.idle();
    else {
      const slowMs = this.slowFrames.frame(now);
      if (slowMs !== null) return this.stopSlowAnimation(slowMs);
      // Animating again after a stop: the user chose to.
      if (this.notice.shown) this.notice.hide();
    }
    if (this.playback.advance(now, this.scene !== null)) {
      // The clip ended: drawn once more (its last frame), and the controls say it ended.
      this.dirty = true;
      this.controls.sync();
      this.persist();
    }
    this.framing.rotate(now, s.autoRotate && this.scene !== null);
    if (this.dirty || s.playing || s.autoRotate) this.renderFrame();
    if ((s.playing && this.playback.clip && this.scene) || (s.autoRotate && this.scene)) {
      this.frameRequested = true;
      requestAnimationFrame(this.tickBound);
    }
  }

  /** Frames took `frameMs` each (median of the slow run): the animation stops, and the notice says why. */
  private stopSlowAnimation(frameMs: number): void {
    const software = this.gpus.renderer?.software ?? null;
    const text = `Stopped animating: each frame took about ${(frameMs / 1000).toFixed(1)} s to draw${software ? ` with ${software}, a software renderer (no GPU)` : ''}. Play to animate anyway.`;
    this.controls.stopAnimating();
    this.notice.show(text);
    this.root.dataset.slowFrames = String(Math.round(frameMs));
    this.post({ type: 'log', level: 'warn', message: `${this.loading.fileName}: ${text}` });
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
      this.controls.showFrame(this.dirty);
    }
    this.framing.update(scene);
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
    if (scene) this.loading.drawn(scene, this.compile.compiled);
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

  dispose(): void {
    if (this.persistTimer) clearInterval(this.persistTimer);
  }
}

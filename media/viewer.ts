// The preview page: builds the DOM, owns the renderer, the loaded scene, the camera and the view
// state; runs the frame loop. The frame loop (tick) allocates nothing: it samples the pose into
// preallocated arrays, uploads the joint texture and draws.

import { decodeTga } from '../core/image/tga';
import type { CompileStateMessage, CompiledFrom, LoadMessage, SourceProblem, TextureRequest, TextureResult, ViewState, WebviewToHost } from '../core/protocol';
import type { Model } from '../core/model/model';
import { restoreViewState } from '../core/protocol';
import { OrbitCamera, project, type CameraView } from './renderer/camera';
import { ModelGpu, Renderer, LINE_STRIDE, type FrameOptions, type MaterialGpu } from './renderer/renderer';
import { chooseSkin, loadModelBytes, LoadError, textureNames, viewClips, type SkinChoice } from './load';
import { partOf, PlayerAssembly } from './player';
import { Scene, type ViewClip } from './scene';
import { clear, h } from './ui/dom';
import { renderInfo } from './ui/info';
import { icon, Toolbar } from './ui/toolbar';

export interface HostApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

type Toggle = 'textures' | 'colors' | 'wireframe' | 'skeleton' | 'tags' | 'bounds' | 'normals' | 'grid' | 'weights' | 'cull';

const TOGGLES: { key: Toggle; icon: string; label: string; title: string }[] = [
  { key: 'textures', icon: 'file-media', label: 'Textures', title: 'Textures (a checker where none was found)' },
  { key: 'colors', icon: 'symbol-color', label: 'Vertex colours', title: 'Vertex colours (multiplied with the texture)' },
  { key: 'wireframe', icon: 'globe', label: 'Wireframe', title: 'Wireframe' },
  { key: 'skeleton', icon: 'type-hierarchy', label: 'Bones', title: 'Skeleton (hover for names, click to select)' },
  { key: 'tags', icon: 'tag', label: 'Tags', title: 'MD3 tags as axes' },
  { key: 'bounds', icon: 'screen-full', label: 'Bounds', title: "The file's per-frame bounds" },
  { key: 'normals', icon: 'arrow-up', label: 'Normals', title: 'Vertex normals' },
  { key: 'weights', icon: 'flame', label: 'Weights', title: 'Weight heat map of the selected joint; vertices no joint moves in magenta' },
  { key: 'grid', icon: 'table', label: 'Grid', title: 'Grid and axes (X red, Y green, Z blue; Z up)' },
  { key: 'cull', icon: 'eye-closed', label: 'Back-face culling', title: "Back-face culling with the format's winding" },
];

/** Narrower than this (CSS px), the info panel goes below the view. */
const NARROW_PX = 620;

/** A texture's decoded source, kept so it can be re-uploaded after a context loss. */
type TextureSourceData = { width: number; height: number; pixels: Uint8Array } | TexImageSource;

export class Viewer {
  readonly root: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly status: HTMLElement;
  private readonly info: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly label: HTMLElement;
  private readonly clipSelect: HTMLSelectElement;
  private readonly playButton: HTMLButtonElement;
  private readonly timeline: HTMLInputElement;
  private readonly frameText: HTMLElement;
  private readonly markers: HTMLElement;
  private readonly speedSelect: HTMLSelectElement;
  private readonly loopButton: HTMLButtonElement;
  private readonly interpButton: HTMLButtonElement;
  /** Assembled Quake 3 player: the legs' clips (the torso's are in clipSelect). */
  private readonly legsSelect: HTMLSelectElement;
  private readonly toolbar = new Toolbar();
  private readonly menuRows = new Map<string, HTMLButtonElement>();
  private readonly skinSelect: HTMLSelectElement;
  private readonly backgroundInput: HTMLInputElement;
  /** Which IQE text the drawn model is compiled from, and whether a newer one compiles or failed. */
  private readonly sourceBadge: HTMLElement;
  private compiled: CompiledFrom | null = null;
  /** Quake 3 player assembly (head/upper/lower.md3 through their tags), when switched on. */
  private player: PlayerAssembly | null = null;
  private lastLoad: LoadMessage | null = null;
  /** Decoded textures of the other player parts, by request key `part:mesh`. */
  private readonly partSources = new Map<string, { source: TextureSourceData | null; twoSided: boolean; alphaTest: number; blend: MaterialGpu['blend'] }>();
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
  private textureResults: (TextureResult | null)[] = [];
  private textureSources: (TextureSourceData | null)[] = [];
  private materials: MaterialGpu[] = [];
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
  /** Overlay lines, reused every frame. */
  private lines = new Float32Array(0);
  private lineCount = 0;
  private gridCount = 0;
  private pointFirst = 0;
  private pointCount = 0;
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
  private readonly tagScratch = new Float64Array(12);
  private readonly projected = new Float64Array(3);
  private hoverJoint = -1;
  private readonly tickBound = (now: number) => this.tick(now);

  constructor(
    parent: HTMLElement,
    private readonly host: HostApi,
  ) {
    this.state = restoreViewState(host.getState());
    this.canvas = h('canvas', { id: 'view' });
    this.status = h('div', { id: 'status', class: 'status', text: 'Loading…' });
    this.label = h('div', { id: 'label', class: 'label hidden' });
    this.info = h('div', { id: 'info', class: 'info' });
    this.clipSelect = h('select', { id: 'clip', title: 'Animation' });
    this.legsSelect = h('select', { id: 'legs-clip', class: 'hidden', title: 'Legs animation (LEGS_* and BOTH_*), played with the torso\'s' });
    this.playButton = h('button', { id: 'play', class: 'tool', title: 'Play / pause (space)' }, icon('debug-pause'));
    this.timeline = h('input', { id: 'timeline', type: 'range', min: 0, max: 0, step: 1, value: 0, title: 'Frame' });
    this.frameText = h('span', { id: 'frame', class: 'frame', text: '' });
    this.markers = h('div', { class: 'markers' });
    this.speedSelect = h('select', { id: 'speed', title: 'Speed' }, ...[0.1, 0.25, 0.5, 1, 2, 4].map((s) => h('option', { value: s, text: `${s}×` })));
    this.loopButton = h('button', { id: 'loop', class: 'tool', title: 'Loop', 'aria-pressed': 'false' }, icon('sync'));
    this.interpButton = h('button', { id: 'interp', class: 'tool', title: 'Interpolate between frames (slerp)', 'aria-pressed': 'false' }, icon('pulse'));
    this.sourceBadge = h('div', { id: 'source', class: 'badge hidden' });
    for (const t of TOGGLES) this.toolbar.add({ id: t.key, icon: t.icon, label: t.label, title: t.title, toggle: true, run: () => this.toggle(t.key) });
    this.toolbar.add({
      id: 'player', icon: 'person', label: 'Assemble player', toggle: true,
      title: 'Assemble the Quake 3 player (lower, upper, head through tag_torso and tag_head)',
      run: () => {
        this.state.assemblePlayer = !this.state.assemblePlayer;
        if (this.state.assemblePlayer) this.assemble();
        else this.disassemble();
        this.fitCamera();
        this.syncControls();
        this.changed();
        this.persist();
      },
    });
    this.toolbar.add({ id: 'fit', icon: 'screen-normal', label: 'Frame the model', title: 'Frame the model (over the whole clip)', toggle: false, run: () => this.frameView('default') });
    this.toolbar.add({
      id: 'info', icon: 'layout-sidebar-right', label: 'Info panel', title: 'Show or hide the info panel', toggle: true,
      run: () => {
        this.state.panel = !this.state.panel;
        this.applyPanel();
        this.syncControls();
        this.changed();
        this.persist();
      },
    });
    const menuToggle = (id: string, iconName: string, label: string, title: string, run: () => void) => {
      this.menuRows.set(id, this.toolbar.addMenuItem({ id, icon: iconName, label, title, toggle: true, run }));
    };
    const menuAction = (id: string, iconName: string, label: string, title: string, run: () => void) => {
      this.toolbar.addMenuItem({ id, icon: iconName, label, title, toggle: false, run });
    };
    menuAction('view-front', 'arrow-right', 'Front view', 'Look at the model\'s front', () => this.frameView('front'));
    menuAction('view-side', 'arrow-swap', 'Side view', 'Look at the model\'s side', () => this.frameView('side'));
    menuAction('view-top', 'arrow-down', 'Top view', 'Look down on the model', () => this.frameView('top'));
    menuToggle('ortho', 'symbol-ruler', 'Orthographic', 'Orthographic camera (no perspective)', () => this.flip('ortho'));
    menuToggle('autoRotate', 'refresh', 'Auto-rotate', 'Turn the camera around the model', () => this.flip('autoRotate'));
    menuToggle('follow', 'location', 'Follow the animation', 'Keep the camera on the animated model (its bounds at each frame)', () => this.flip('follow'));
    menuToggle('lit', 'lightbulb', 'Lighting', 'Diffuse lighting from the camera (off: unlit, the texture as it is)', () => this.flip('lit'));
    menuToggle('winding', 'mirror', 'Flip winding', 'Flip the front-face winding (what an engine with the other convention shows)', () => {
      this.state.winding = this.state.winding === 'flipped' ? 'file' : 'flipped';
      this.syncControls();
      this.changed();
      this.persist();
    });
    menuAction('screenshot', 'device-camera', 'Export image…', 'Save the view as a PNG', () => this.exportImage());
    menuAction('convert-iqe', 'file-code', 'Convert to IQE…', 'Write this model as IQE text beside it and open it (iqmTools.convertToIqe)', () => this.post({ type: 'convertToIqe' }));
    this.backgroundInput = h('input', { id: 'background', type: 'color', title: 'Background colour' });
    const themeBackground = h('button', { class: 'link-button', title: 'The editor theme\'s background', text: 'theme' });
    themeBackground.addEventListener('click', (e) => {
      e.stopPropagation();
      this.state.background = '';
      this.applyBackground();
    });
    this.backgroundInput.addEventListener('input', () => {
      this.state.background = this.backgroundInput.value;
      this.applyBackground();
    });
    this.skinSelect = h('select', { id: 'skin', title: 'Skin file (.skin) the textures come from' });
    this.skinSelect.addEventListener('change', () => {
      this.state.skin = this.skinSelect.value;
      this.persist();
      // A new generation: answers to the earlier skin's requests are stale.
      this.generation++;
      if (this.lastLoad) this.requestTextures(this.lastLoad);
    });
    this.toolbar.menuBody.append(
      h('label', { class: 'menu-field' }, icon('symbol-color'), h('span', { text: 'Background' }), this.backgroundInput, themeBackground),
      h('label', { class: 'menu-field', id: 'skin-field' }, icon('file-media'), h('span', { text: 'Skin' }), this.skinSelect),
    );
    this.controls = h(
      'div',
      { class: 'controls' },
      this.playButton,
      this.clipSelect,
      this.legsSelect,
      h('div', { class: 'track' }, this.timeline, this.markers),
      this.frameText,
      this.speedSelect,
      this.loopButton,
      this.interpButton,
    );
    this.root = h(
      'div',
      { id: 'viewer', 'data-state': 'loading' },
      h('div', { class: 'stage' }, this.canvas, this.label, this.status, this.toolbar.el, this.sourceBadge),
      this.info,
      this.controls,
    );
    parent.append(this.root);
    this.bindControls();
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
      loaded = loadModelBytes(new Uint8Array(msg.bytes), msg.fileName, msg.compiled ?? null, msg.companions);
    } catch (e) {
      const err = e instanceof LoadError ? e : new LoadError(String(e), null);
      this.showError(`${msg.fileName} cannot be previewed`, err.message, err.offset);
      this.post({ type: 'rendered', ok: false, format: '', error: err.message, vertices: 0, triangles: 0, joints: 0, firstFrameMs: 0 });
      return;
    }
    const { model } = loaded;
    const tParsed = performance.now();
    this.lastLoad = msg;
    this.notes = loaded.notes;
    this.disposeModel();
    const scene = new Scene(model);
    const tScene = performance.now();
    this.scene = scene;
    this.clips = viewClips(model, msg.sidecars, this.notes);
    scene.clips = this.clips;
    if (model.meshes.length === 0) {
      this.notes.push(model.animation ? 'animation-only file: no meshes to draw (the skeleton overlay shows the poses)' : 'the file has no meshes');
      if (model.animation && !msg.reload) this.state.skeleton = true;
      // The bind pose of an animation-only file is every joint at the origin: show a clip instead.
      if (model.animation && this.state.clip < 0) this.state.clip = 0;
    }
    if (this.state.clip >= this.clips.length) this.state.clip = this.clips.length ? 0 : -1;
    if (!msg.reload && this.clips[this.state.clip]) this.state.loop = this.clips[this.state.clip].loop;
    this.textureResults = model.meshes.map(() => null);
    this.textureSources = model.meshes.map(() => null);
    this.materials = model.meshes.map(() => ({ texture: null, twoSided: false, alphaTest: -1 }));
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
    delete this.root.dataset.compile;
    this.showCompiled();
    this.fillSkinSelect(msg);
    this.applyBackground(false);
    const canAssemble = model.format === 'md3' && partOf(msg.fileName) !== null && msg.playerParts.length === 2;
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

  /** Asks the host to resolve every mesh's texture (skin, shader and material names, in that order). */
  private requestTextures(msg: LoadMessage): void {
    const model = this.scene?.model;
    if (!model) return;
    const skin = chooseSkin(model, msg.sidecars, this.state.skin);
    if (skin) this.notes.push(`textures from ${skin.name}`);
    this.root.dataset.textures = 'pending';
    this.root.dataset.skin = skin ? skin.name : '';
    const requests: TextureRequest[] = model.meshes.map((_, i) => ({ key: String(i), names: textureNames(model, i, skin), skin: skin ? skin.name : null }));
    if (this.player) requests.push(...this.partTextureRequests());
    if (requests.length) this.post({ type: 'textureRequest', generation: this.generation, requests });
    else this.root.dataset.textures = 'done';
  }

  /** The skin menu: the engines' choice, and every .skin file beside the model that names one of its surfaces. */
  private fillSkinSelect(msg: LoadMessage): void {
    const model = this.scene?.model;
    clear(this.skinSelect);
    const usable = model ? msg.sidecars.skins.filter((s) => chooseSkin(model, { ...msg.sidecars, skins: [s] }, '') !== null) : [];
    this.skinSelect.append(h('option', { value: '', text: usable.length ? `Automatic (${usable[0].name})` : 'Automatic (none found)' }));
    for (const s of usable) this.skinSelect.append(h('option', { value: s.name, text: s.name }));
    if (!usable.some((s) => s.name === this.state.skin)) this.state.skin = '';
    this.skinSelect.value = this.state.skin;
    this.skinSelect.disabled = usable.length === 0;
    this.root.dataset.skins = String(usable.length);
  }

  private buildGpu(): void {
    const r = this.renderer;
    const scene = this.scene;
    if (!r || !scene) return;
    this.gpu = new ModelGpu(r.gl, scene.layout, scene.joints, scene.model.winding);
    r.prepare(this.gpu);
    this.materials.forEach((m, i) => {
      const src = this.textureSources[i];
      const mat: MaterialGpu = { texture: src ? r.createTexture(src) : null, twoSided: m.twoSided, alphaTest: m.alphaTest, blend: m.blend };
      this.gpu?.setMaterial(i, mat);
    });
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
      p.scene.model.meshes.forEach((_, i) => {
        const t = this.partSources.get(`${p.part}:${i}`);
        if (t) p.gpu?.setMaterial(i, { texture: t.source ? r.createTexture(t.source) : null, twoSided: t.twoSided, alphaTest: t.alphaTest, blend: t.blend });
      });
    }
  }

  /** Switches the player assembly on (the opened file must be head/upper/lower.md3 with the other two beside it). */
  private assemble(): void {
    const msg = this.lastLoad;
    const scene = this.scene;
    const part = msg ? partOf(msg.fileName) : null;
    if (!msg || !scene || !part || msg.playerParts.length !== 2 || this.player) return;
    try {
      const others = msg.playerParts.map((p) => ({ part: p.part, fileName: p.name, model: loadModelBytes(new Uint8Array(p.bytes), p.name).model, skins: p.skins }));
      this.player = new PlayerAssembly({ part, fileName: msg.fileName, scene }, others, msg.sidecars.animationCfg?.text ?? null);
      this.partSkins.clear();
      for (const o of others) this.partSkins.set(o.part, chooseSkin(o.model, { framegroups: null, animationCfg: null, skins: o.skins }));
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
      model.meshes.forEach((_, i) => requests.push({ key: `${p.part}:${i}`, names: textureNames(model, i, skin), skin: skin ? skin.name : null }));
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
      this.clips = viewClips(this.scene.model, this.lastLoad.sidecars, []);
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
    this.partSources.clear();
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
    await Promise.all(
      results.map(async (res) => {
        const colon = res.key.indexOf(':');
        if (colon > 0) {
          await this.applyPartTexture(generation, res, res.key.slice(0, colon), Number(res.key.slice(colon + 1)));
          return;
        }
        const i = Number(res.key);
        if (!(i >= 0 && i < this.textureResults.length)) return;
        this.textureResults[i] = res;
        const alpha = res.alphaTest ? alphaThreshold(res.alphaTest) : -1;
        let source: TextureSourceData | null = null;
        try {
          // Without a renderer there is nothing to upload: only the lookup is shown.
          if (this.renderer) source = await decodeSource(res);
        } catch (e) {
          this.notes.push(`texture ${res.source.kind !== 'none' ? res.source.path : ''}: ${e instanceof Error ? e.message : String(e)}`);
        }
        if (generation !== this.generation) return;
        this.textureSources[i] = source;
        this.materials[i] = { texture: null, twoSided: res.twoSided, alphaTest: alpha, blend: res.blend ?? null };
        if (this.renderer && this.gpu && !this.renderer.contextLost) {
          this.gpu.setMaterial(i, { texture: source ? this.renderer.createTexture(source) : null, twoSided: res.twoSided, alphaTest: alpha, blend: res.blend ?? null });
        }
      }),
    );
    if (generation !== this.generation) return;
    this.renderInfo();
    this.root.dataset.textures = 'done';
    this.changed();
  }

  private async applyPartTexture(generation: number, res: TextureResult, part: string, mesh: number): Promise<void> {
    let source: TextureSourceData | null = null;
    try {
      source = await decodeSource(res);
    } catch (e) {
      this.notes.push(`texture for ${part}.md3: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (generation !== this.generation) return;
    const alphaTest = res.alphaTest ? alphaThreshold(res.alphaTest) : -1;
    this.partSources.set(res.key, { source, twoSided: res.twoSided, alphaTest, blend: res.blend ?? null });
    const p = this.player?.parts.find((x) => x.part === part);
    if (p?.gpu && this.renderer && !this.renderer.contextLost) {
      p.gpu.setMaterial(mesh, { texture: source ? this.renderer.createTexture(source) : null, twoSided: res.twoSided, alphaTest, blend: res.blend ?? null });
    }
  }

  // ---------------------------------------------------------------- errors and status

  showError(title: string, message: string, offset: number | null, problem: SourceProblem | null = null): void {
    this.disposeModel();
    this.root.dataset.state = 'error';
    // Nothing of the model that was there before: no grid, toolbar or panel beside the message.
    this.root.classList.add('failed');
    this.lineCount = this.gridCount = this.pointCount = 0;
    this.pointFirst = 0;
    this.renderFrame();
    clear(this.status);
    this.status.className = 'status error-view';
    this.status.append(h('h2', { text: title }), h('p', { id: 'error-message', text: message }));
    if (offset !== null) this.status.append(h('p', { id: 'error-offset', text: `at byte ${offset} (0x${offset.toString(16)})` }));
    if (problem) this.status.append(h('p', null, this.sourceLink(problem)));
    this.status.append(h('p', { class: 'dim', text: problem ? 'The preview follows the text as you edit it.' : 'The preview reloads when the file changes on disk.' }));
    clear(this.info);
    this.controls.classList.add('hidden');
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
    const badge = this.sourceBadge;
    const v = (version: number | null) => (version === null ? 'the file' : `version ${version}`);
    if (m.state === 'saved') {
      if (this.compiled && this.compiled.version === m.version) this.compiled.unsaved = false;
      if (this.root.dataset.compile !== 'failed') this.showCompiled();
      return;
    }
    this.root.dataset.compile = m.state;
    if (m.state === 'compiling') {
      if (!this.compiled) return;
      badge.replaceChildren(icon('loading'), h('span', { text: ` compiling ${v(m.version)}… (showing ${v(this.compiled.version)})` }));
      badge.className = 'badge busy';
      return;
    }
    const p = m.problem;
    const text = p ? `IQE line ${p.line + 1}: ${p.message}${p.count > 1 ? ` (and ${p.count - 1} more errors)` : ''}` : 'the IQE text could not be compiled';
    if (!this.compiled || !this.scene) {
      this.showError(`${this.fileName || 'The IQE text'} cannot be previewed`, text, null, p);
      return;
    }
    badge.className = 'badge error';
    badge.replaceChildren(
      icon('error'),
      h('span', { text: ` ${v(m.version)}${m.unsaved ? ' (unsaved)' : ''} has ${p ? p.count : 1} error${p && p.count > 1 ? 's' : ''}; showing ${v(this.compiled.version)}. ` }),
      p ? this.sourceLink(p) : '',
    );
    badge.title = text;
  }

  /** The badge over the view: which text the drawn model was compiled from. */
  private showCompiled(): void {
    const c = this.compiled;
    const badge = this.sourceBadge;
    badge.title = '';
    if (!c) {
      badge.className = 'badge hidden';
      return;
    }
    badge.className = c.unsaved ? 'badge unsaved' : 'badge';
    badge.replaceChildren(
      icon(c.unsaved ? 'circle-filled' : 'check'),
      h('span', { text: ` ${c.version === null ? 'file on disk' : `version ${c.version}`}${c.unsaved ? ', unsaved' : ''} · compiled in ${Math.round(c.milliseconds)} ms` }),
    );
    this.root.dataset.sourceVersion = c.version === null ? 'disk' : String(c.version);
    this.root.dataset.unsaved = String(c.unsaved);
  }

  private setStatus(text: string, kind: 'ok' | 'error'): void {
    clear(this.status);
    this.status.className = kind === 'error' ? 'status error-view' : 'status';
    if (text) this.status.append(h('p', { text }));
    this.status.classList.toggle('hidden', !text);
    this.controls.classList.remove('hidden');
  }

  private post(m: WebviewToHost): void {
    this.host.postMessage(m);
  }

  // ---------------------------------------------------------------- UI

  private renderInfo(): void {
    if (!this.scene) return;
    renderInfo(this.info, this.fileName, this.modelPath, this.scene, this.clips, this.notes, this.textureResults, {
      selectJoint: (j) => this.selectJoint(j),
      selectClip: (c) => this.selectClip(c),
    }, this.lastLoad?.engines);
  }

  private applyPanel(): void {
    this.info.classList.toggle('hidden', !this.state.panel);
    this.root.classList.toggle('no-panel', !this.state.panel);
  }

  private fillClipSelect(): void {
    clear(this.clipSelect);
    clear(this.legsSelect);
    const option = (c: ViewClip, i: number) => h('option', { value: i, text: `${c.name} (${c.frameCount})` });
    if (this.player) {
      // Quake 3 plays two clips at once: the torso's (TORSO_*, or BOTH_* for both) and the legs'.
      this.clipSelect.title = 'Torso animation (TORSO_*, or BOTH_* for the whole body)';
      this.legsSelect.append(h('option', { value: -1, text: 'LEGS_IDLE (default)' }));
      this.clips.forEach((c, i) => (c.name.startsWith('LEGS_') ? this.legsSelect : this.clipSelect).append(option(c, i)));
      this.legsSelect.value = String(this.state.legsClip);
    } else {
      this.clipSelect.title = 'Animation';
      this.clipSelect.append(h('option', { value: -1, text: 'Bind pose' }));
      this.clips.forEach((c, i) => this.clipSelect.append(option(c, i)));
    }
    this.clipSelect.value = String(this.state.clip);
    this.updateTimeline();
  }

  private updateTimeline(): void {
    const clip = this.clips[this.state.clip];
    this.frameLabels = [];
    this.frameValues = [];
    this.lastFrameShown = -2;
    this.timeline.max = String(clip ? Math.max(0, clip.frameCount - 1) : 0);
    this.timeline.disabled = !clip;
    clear(this.markers);
    const events = this.scene?.model.iqm?.fteEvents;
    if (clip && events && this.scene) {
      // FTE_EVENT: anim = animation index in the file (IQM clips are listed in file order).
      const fileClip = this.scene.model.clips.findIndex((c) => c.name === clip.name && c.firstFrame === clip.firstFrame);
      for (const e of events) {
        if (e.anim !== fileClip) continue;
        const frame = e.timestamp * Scene.fps(clip);
        const pct = clip.frameCount > 1 ? Math.min(100, Math.max(0, (frame / (clip.frameCount - 1)) * 100)) : 0;
        const m = h('div', { class: 'marker', title: `event ${e.code} "${e.data}" at ${e.timestamp}` });
        m.style.left = `${pct}%`;
        this.markers.append(m);
      }
    }
  }

  private syncControls(): void {
    const s = this.state;
    const atEnd = !s.playing && this.atClipEnd();
    this.playButton.replaceChildren(icon(s.playing ? 'debug-pause' : atEnd ? 'debug-restart' : 'play'));
    this.playButton.title = s.playing ? 'Pause (space)' : atEnd ? 'Play again from the first frame (space)' : 'Play (space)';
    this.playButton.dataset.state = s.playing ? 'playing' : atEnd ? 'ended' : 'paused';
    this.speedSelect.value = String(s.speed);
    for (const [b, on] of [[this.loopButton, s.loop], [this.interpButton, s.interpolate]] as const) {
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', String(on));
    }
    const model = this.scene?.model;
    const hasColors = !!model && model.meshes.some((m) => m.color !== null);
    const skinned = !!model && this.scene !== null && this.scene.jointCount > 0;
    for (const t of TOGGLES) {
      const none =
        (t.key === 'tags' && !model?.tags) || (t.key === 'colors' && !hasColors) || ((t.key === 'skeleton' || t.key === 'weights') && !skinned) ||
        (t.key === 'bounds' && !model?.bounds);
      this.toolbar.set(t.key, s[t.key] && !none, none);
    }
    const canAssemble = !!model && model.format === 'md3' && !!this.lastLoad && partOf(this.lastLoad.fileName) !== null && this.lastLoad.playerParts.length === 2;
    this.toolbar.set('player', this.player !== null, false, !canAssemble);
    this.toolbar.set('info', s.panel);
    for (const [id, row] of this.menuRows) {
      const on = id === 'winding' ? s.winding === 'flipped' : Boolean(s[id as 'ortho' | 'autoRotate' | 'follow' | 'lit']);
      row.classList.toggle('on', on);
      row.setAttribute('aria-checked', String(on));
    }
    this.legsSelect.classList.toggle('hidden', this.player === null);
    this.toolbar.layout();
  }

  /** Flips a boolean view setting of the menu. */
  private flip(key: 'ortho' | 'autoRotate' | 'follow' | 'lit'): void {
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
    this.backgroundInput.value = bg || '#292b30';
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

  private bindControls(): void {
    this.playButton.addEventListener('click', () => this.setPlaying(!this.state.playing));
    this.clipSelect.addEventListener('change', () => this.selectClip(Number(this.clipSelect.value)));
    this.legsSelect.addEventListener('change', () => this.selectLegsClip(Number(this.legsSelect.value)));
    this.timeline.addEventListener('input', () => {
      const clip = this.clips[this.state.clip];
      if (!clip) return;
      this.setPlaying(false);
      this.state.time = Number(this.timeline.value) / Scene.fps(clip);
      this.changed();
    });
    this.speedSelect.addEventListener('change', () => {
      this.state.speed = Number(this.speedSelect.value) || 1;
      this.changed();
    });
    this.loopButton.addEventListener('click', () => {
      this.state.loop = !this.state.loop;
      this.syncControls();
      this.changed();
    });
    this.interpButton.addEventListener('click', () => {
      this.state.interpolate = !this.state.interpolate;
      this.syncControls();
      this.changed();
    });
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
      } else this.hover(e.offsetX, e.offsetY);
    });
    this.canvas.addEventListener('pointerup', (e) => {
      dragging = false;
      this.canvas.releasePointerCapture(e.pointerId);
      if (Math.abs(e.clientX - downX) + Math.abs(e.clientY - downY) < 4 && this.state.skeleton) {
        const j = this.pick(e.offsetX, e.offsetY);
        this.selectJoint(j);
      }
      this.persist();
    });
    this.canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.camera.zoom(Math.exp(e.deltaY * 0.001));
        this.fitted = null;
        this.changed();
      },
      { passive: false },
    );
    this.canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** The joint nearest to a canvas point (CSS pixels) within 10 px, or -1. */
  pick(x: number, y: number): number {
    const scene = this.scene;
    if (!scene || !scene.pose) return -1;
    const w = scene.pose.world;
    let best = -1;
    let bestD = 100;
    for (let j = 0; j < scene.jointCount; j++) {
      if (!project(this.camera.viewProj, w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11], this.canvas.clientWidth, this.canvas.clientHeight, this.projected)) continue;
      const d = (this.projected[0] - x) ** 2 + (this.projected[1] - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = j;
      }
    }
    return best;
  }

  private hover(x: number, y: number): void {
    if (!this.state.skeleton || !this.scene) {
      if (this.hoverJoint !== -1) {
        this.hoverJoint = -1;
        this.label.classList.add('hidden');
      }
      return;
    }
    const j = this.pick(x, y);
    this.hoverJoint = j;
    if (j < 0) {
      this.label.classList.add('hidden');
      return;
    }
    this.label.textContent = `${j}: ${this.scene.names[j]}`;
    this.label.style.left = `${x + 12}px`;
    this.label.style.top = `${y + 8}px`;
    this.label.classList.remove('hidden');
  }

  selectJoint(j: number): void {
    this.state.selectedJoint = j;
    if (j >= 0 && !this.state.skeleton && !this.state.weights) this.state.skeleton = true;
    this.syncControls();
    this.changed();
    this.persist();
  }

  selectClip(c: number): void {
    this.state.clip = c;
    this.state.time = 0;
    this.player?.selectClip(c, this.state.legsClip);
    const clip = this.clips[c];
    if (clip) this.state.loop = clip.loop;
    this.clipSelect.value = String(c);
    this.updateTimeline();
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
    this.legsSelect.value = String(c);
    this.changed();
    this.persist();
  }

  setPlaying(playing: boolean): void {
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
    } else if (this.clipBounds(this.boxScratch)) b = this.boxScratch;
    const quake = scene.model.format === 'md3' || scene.model.format === 'dpm';
    const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
    this.camera.fit([b[0], b[1], b[2]], [b[3], b[4], b[5]], quake ? 'x' : 'y', aspect || 1, view);
    this.fitted = view;
    this.camera.ortho = this.state.ortho;
    this.state.camera = null;
    this.root.dataset.fit = Array.from(b, (x) => x.toFixed(3)).join(',');
  }

  /** The union of the selected clip's per-frame bounds into out (min xyz, max xyz); false when there are none. */
  private clipBounds(out: Float64Array): boolean {
    const scene = this.scene;
    const clip = this.clips[this.state.clip];
    const bounds = scene?.model.bounds;
    if (!scene || !clip || !bounds) return false;
    const frames = scene.model.frameCount;
    out[0] = out[1] = out[2] = Infinity;
    out[3] = out[4] = out[5] = -Infinity;
    for (let k = 0; k < clip.frameCount; k++) {
      const f = clip.firstFrame + k;
      if (f < 0 || f >= frames) continue;
      for (let i = 0; i < 6; i++) {
        const v = bounds[f * 8 + i];
        if (!Number.isFinite(v)) continue;
        if (i < 3) out[i] = Math.min(out[i], v);
        else out[i] = Math.max(out[i], v);
      }
    }
    return out[0] <= out[3] && out[1] <= out[4] && out[2] <= out[5];
  }

  /** Follow: the camera's target moves with the current frame's bounds (or, without bounds, the joints' centre). */
  private followModel(scene: Scene): void {
    const bounds = scene.model.bounds;
    const f = scene.blend.a;
    const t = this.camera.target;
    if (bounds && f >= 0 && f < scene.model.frameCount) {
      for (let i = 0; i < 3; i++) t[i] = (bounds[f * 8 + i] + bounds[f * 8 + 3 + i]) / 2;
    } else if (scene.pose && scene.jointCount > 0) {
      const w = scene.pose.world;
      let x = 0, y = 0, z = 0;
      for (let j = 0; j < scene.jointCount; j++) {
        x += w[j * 12 + 3];
        y += w[j * 12 + 7];
        z += w[j * 12 + 11];
      }
      t[0] = x / scene.jointCount;
      t[1] = y / scene.jointCount;
      t[2] = z / scene.jointCount;
    }
  }

  persist(): void {
    this.state.camera = this.scene ? this.camera.state() : this.state.camera;
    this.host.setState(this.state);
  }

  // ---------------------------------------------------------------- overlays

  private ensureLines(vertices: number): void {
    if (this.lines.length < vertices * LINE_STRIDE) this.lines = new Float32Array(vertices * LINE_STRIDE);
  }

  private pushLine(x: number, y: number, z: number, r: number, g: number, b: number, a: number): void {
    const o = this.lineCount * LINE_STRIDE;
    const L = this.lines;
    L[o] = x; L[o + 1] = y; L[o + 2] = z; L[o + 3] = r; L[o + 4] = g; L[o + 5] = b; L[o + 6] = a;
    this.lineCount++;
  }

  /** Grid (z = model's floor) and axes: the static head of the line buffer; sizes it for the dynamic parts. */
  private buildGrid(): void {
    const scene = this.scene;
    if (!scene) return;
    const b = scene.box;
    const size = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) || 1;
    const step = Math.pow(10, Math.floor(Math.log10(size / 2)));
    const half = Math.ceil(size / step) * step;
    const n = Math.round((2 * half) / step);
    const joints = scene.jointCount;
    const tags = scene.model.tags ? scene.model.tags.names.length : 0;
    this.ensureLines((n + 1) * 4 + 6 + joints * 2 + joints + tags * 6 + 24 + 16);
    this.lineCount = 0;
    const z = 0;
    for (let i = 0; i <= n; i++) {
      const t = -half + i * step;
      const c = Math.abs(t) < step * 1e-3 ? 0.45 : 0.3;
      this.pushLine(t, -half, z, c, c, c, 1);
      this.pushLine(t, half, z, c, c, c, 1);
      this.pushLine(-half, t, z, c, c, c, 1);
      this.pushLine(half, t, z, c, c, c, 1);
    }
    const a = half * 0.5;
    this.pushLine(0, 0, 0, 1, 0.2, 0.2, 1);
    this.pushLine(a, 0, 0, 1, 0.2, 0.2, 1);
    this.pushLine(0, 0, 0, 0.2, 1, 0.2, 1);
    this.pushLine(0, a, 0, 0.2, 1, 0.2, 1);
    this.pushLine(0, 0, 0, 0.3, 0.5, 1, 1);
    this.pushLine(0, 0, a, 0.3, 0.5, 1, 1);
    this.gridCount = this.lineCount;
    this.frame.normalLength = size * 0.02;
  }

  /** Skeleton, tags and bounds for the current pose, after the grid. Allocates nothing. */
  private buildDynamicLines(): void {
    const scene = this.scene;
    this.lineCount = this.gridCount;
    this.pointCount = 0;
    if (!scene) return;
    const s = this.state;
    if (s.skeleton && scene.pose) {
      const w = scene.pose.world;
      const par = scene.parents;
      for (let j = 0; j < scene.jointCount; j++) {
        const p = par[j];
        if (p < 0) continue;
        const sel = j === s.selectedJoint || p === s.selectedJoint;
        this.pushLine(w[p * 12 + 3], w[p * 12 + 7], w[p * 12 + 11], 1, sel ? 1 : 0.75, sel ? 0.2 : 0.1, 1);
        this.pushLine(w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11], 1, sel ? 1 : 0.75, sel ? 0.2 : 0.1, 1);
      }
    }
    // Tags are drawn in the opened part's space (an assembled player moves upper/head by their tags).
    if (s.tags && scene.model.tags && (!this.player || this.player.parts[0].scene === scene)) {
      const b = scene.box;
      const len = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) * 0.08;
      const m = this.tagScratch;
      for (let t = 0; t < scene.model.tags.names.length; t++) {
        scene.tag(t, m, 0);
        for (let axis = 0; axis < 3; axis++) {
          this.pushLine(m[3], m[7], m[11], axis === 0 ? 1 : 0.1, axis === 1 ? 1 : 0.1, axis === 2 ? 1 : 0.1, 1);
          this.pushLine(m[3] + m[axis] * len, m[7] + m[4 + axis] * len, m[11] + m[8 + axis] * len, axis === 0 ? 1 : 0.1, axis === 1 ? 1 : 0.1, axis === 2 ? 1 : 0.1, 1);
        }
      }
    }
    const bounds = scene.model.bounds;
    if (s.bounds && bounds && scene.model.frameCount > 0) {
      const f = Math.min(Math.max(scene.blend.a, 0), scene.model.frameCount - 1) * 8;
      const x0 = bounds[f], y0 = bounds[f + 1], z0 = bounds[f + 2], x1 = bounds[f + 3], y1 = bounds[f + 4], z1 = bounds[f + 5];
      for (let e = 0; e < 12; e++) {
        // The 12 edges of the box: 4 along each axis.
        const axis = e >> 2, k = e & 3;
        const u = k & 1, v = k >> 1;
        const ax = axis === 0, ay = axis === 1;
        const xa = ax ? x0 : u ? x1 : x0, ya = ay ? y0 : (ax ? u : v) ? y1 : y0, za = axis === 2 ? z0 : v ? z1 : z0;
        const xb = ax ? x1 : xa, yb = ay ? y1 : ya, zb = axis === 2 ? z1 : za;
        this.pushLine(xa, ya, za, 0.3, 1, 0.8, 1);
        this.pushLine(xb, yb, zb, 0.3, 1, 0.8, 1);
      }
    }
    this.pointFirst = this.lineCount;
    if (s.skeleton && scene.pose) {
      const w = scene.pose.world;
      for (let j = 0; j < scene.jointCount; j++) {
        const sel = j === s.selectedJoint;
        this.pushLine(w[j * 12 + 3], w[j * 12 + 7], w[j * 12 + 11], sel ? 1 : 0.9, sel ? 1 : 0.9, sel ? 0.2 : 0.9, 1);
      }
      this.pointCount = this.lineCount - this.pointFirst;
    }
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
    if (s.follow && scene) this.followModel(scene);
    const aspect = this.canvas.width / Math.max(1, this.canvas.height);
    this.camera.update(aspect);
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
    this.buildDynamicLines();
    if (this.lineCount > 0) r.setLines(this.lines, this.lineCount);
    if (s.grid) r.drawLines(f.viewProj, 0, this.gridCount, true);
    if (this.pointFirst > this.gridCount) r.drawLines(f.viewProj, this.gridCount, this.pointFirst - this.gridCount, false);
    if (this.pointCount > 0) r.drawLines(f.viewProj, this.pointFirst, this.pointCount, false, true);
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

  private lastFrameShown = -2;
  /** Frame number and timeline position (rewritten only when the frame changes, not every animation frame). */
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
    const b = scene.blend;
    const clip = this.clips[this.state.clip];
    if (b.a === this.lastFrameShown && !this.dirty) return;
    this.lastFrameShown = b.a;
    if (!clip || b.a < 0) {
      this.frameText.textContent = 'bind pose';
      return;
    }
    const local = clip.reverse ? clip.firstFrame + clip.frameCount - 1 - b.a : b.a - clip.firstFrame;
    // Labels are made once per frame of the clip and reused (the playing loop builds no strings).
    let label = this.frameLabels[local];
    if (label === undefined) {
      const name = scene.model.frameNames[b.a];
      label = `frame ${b.a} (${local + 1}/${clip.frameCount}) ${Scene.fps(clip)} fps${name ? ` ${name}` : ''}`;
      this.frameLabels[local] = label;
      this.frameValues[local] = String(local);
    }
    this.timeline.value = this.frameValues[local];
    this.frameText.textContent = label;
  }

  /** Per-clip caches for updateFrameText (cleared when the clip or the model changes). */
  private frameLabels: string[] = [];
  private frameValues: string[] = [];

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

function alphaThreshold(func: string): number {
  switch (func.toUpperCase()) {
    case 'GT0':
      return 1 / 255;
    case 'LT128':
    case 'GE128':
      return 0.5;
    default:
      return -1;
  }
}

async function decodeSource(res: TextureResult): Promise<TextureSourceData | null> {
  const src = res.source;
  switch (src.kind) {
    case 'none':
      return null;
    case 'bytes': {
      if (src.mime === 'image/x-tga') return decodeTga(new Uint8Array(src.bytes));
      return await createImageBitmap(new Blob([src.bytes], { type: src.mime }));
    }
    case 'uri': {
      const img = new Image();
      img.src = src.uri;
      await img.decode();
      return img;
    }
  }
}

/** A shader or material name engines do not draw (Q3's common/nodraw, DarkPlaces' nodraw). */
function isNodraw(name: string): boolean {
  return /(^|\/)nodraw$/i.test(name.trim().replace(/\.(tga|png|jpe?g)$/i, ''));
}

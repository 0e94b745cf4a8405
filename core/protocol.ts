// Typed messages between the extension host (client/preview) and the preview webview (media/).
// Every message is a plain object with a string `type`; every switch over a union ends in
// assertNever so that adding a message without handling it fails to compile.
//
// Flow: the webview posts `ready`; the host answers `load` (the file's bytes and its sidecar
// texts); the webview parses with core, renders, and posts `textureRequest` (one entry per mesh
// with the names to try, in order); the host resolves them the way engines do and answers
// `textures`. When the file changes on disk the host posts `load` again (the webview keeps its view
// state). `rendered` and `log` are informational (tests and the output channel use them).

/** A sidecar text file found next to the model. */
export interface SidecarText {
  /** File name (no folder), e.g. `grunt.dpm.framegroups`, `lower.md3_0.skin`. */
  name: string;
  text: string;
}

export interface Sidecars {
  /** `<model file name>.framegroups` (DarkPlaces), replaces the model's clips. */
  framegroups: SidecarText | null;
  /** `animation.cfg` in the model's folder (Quake 3 players; used for MD3). */
  animationCfg: SidecarText | null;
  /** Skin files in the order engines try them (`model.md3_0.skin`, `<part>_default.skin`, ...). */
  skins: SidecarText[];
}

/** An MD3 player part sitting next to the opened one (head.md3/upper.md3/lower.md3). */
export interface PlayerPart {
  part: 'head' | 'upper' | 'lower';
  name: string;
  bytes: ArrayBuffer;
  skins: SidecarText[];
}

/** host -> webview: the model file (sent once per open and again on every change on disk). */
export interface LoadMessage {
  type: 'load';
  /** The file's base name, for display and extension checks. */
  fileName: string;
  /** The full path or URI, for display. */
  path: string;
  bytes: ArrayBuffer;
  sidecars: Sidecars;
  /** Other parts of a Quake 3 player set in the same folder (empty when there is none). */
  playerParts: PlayerPart[];
  /**
   * Files compiled with a source (core/compile/companions.ts): an .md5mesh's or a mesh SMD's
   * animation files beside it (as clips), an OBJ's .mtl; absent for other models.
   */
  companions?: { name: string; bytes: ArrayBuffer }[];
  /** True when this load replaces an earlier one because the file changed on disk. */
  reload: boolean;
  /** What the engines of `iqmTools.engine` would refuse or change (absent: no engine set). */
  engines?: EngineReport;
  /**
   * IQE text: `bytes` is the IQM the host compiled from it (in the compile worker), and this says
   * from which text. Absent for model files.
   */
  compiled?: CompiledFrom;
}

/** Engine findings for the info panel, already worded (core/engines). */
export interface EngineReport {
  engines: string[];
  findings: { engine: string; severity: 'error' | 'warning' | 'information'; code: string; message: string; where: string; fact: string; source: string }[];
  /** Engine names in the setting that are not known. */
  unknown: string[];
}

/** Which IQE text a compiled load was made from. */
export interface CompiledFrom {
  /** The editor document's version (changes with every edit), or null when read from disk. */
  version: number | null;
  /** The text has edits that are not saved. */
  unsaved: boolean;
  milliseconds: number;
}

/** An IQE compile problem the preview shows, with where it is (0-based line and column). */
export interface SourceProblem {
  message: string;
  line: number;
  column: number;
  /** Errors in all (this is the first). */
  count: number;
}

/**
 * host -> webview, IQE text: a newer text is being compiled (`compiling`), or it has errors and the
 * drawn model stays the last good one (`failed`, with the first error).
 */
export interface CompileStateMessage {
  type: 'compileState';
  /** `saved`: the text of `version` was saved (the drawn model is no longer of unsaved text). */
  state: 'compiling' | 'failed' | 'saved';
  version: number | null;
  unsaved: boolean;
  problem: SourceProblem | null;
}

/** host -> webview: the file could not be read at all (not a format problem: those are the webview's). */
export interface HostErrorMessage {
  type: 'hostError';
  message: string;
}

/** One resolved texture: pixels (TGA bytes or PNG/JPEG bytes) or a webview URI to an image. */
export type TextureSource =
  | { kind: 'uri'; uri: string; path: string }
  | { kind: 'bytes'; bytes: ArrayBuffer; mime: 'image/x-tga' | 'image/png' | 'image/jpeg'; path: string }
  | { kind: 'none' };

export interface TextureResult {
  /** The request's key. */
  key: string;
  source: TextureSource;
  /** Where the name came from (".skin lower.md3_0.skin", "shader textures/x in scripts/a.shader", ...). */
  via: string;
  /** Every path tried, in order (shown in the info panel when nothing was found). */
  tried: string[];
  /** From a Q3 shader: draw both faces. */
  twoSided: boolean;
  /** From a Q3 shader: alphaFunc GT0 / LT128 / GE128. */
  alphaTest: string | null;
  /** From a Q3 shader: the image stage's blendFunc (absent or null: opaque). */
  blend?: 'add' | 'blend' | 'filter' | null;
}

/** host -> webview: answers a textureRequest. */
export interface TexturesMessage {
  type: 'textures';
  /** The load this answers (a stale answer after a reload is ignored). */
  generation: number;
  results: TextureResult[];
}

export type HostToWebview = LoadMessage | HostErrorMessage | TexturesMessage | CompileStateMessage;

/** What to look up for one mesh. */
export interface TextureRequest {
  key: string;
  /** Names to try in order: the skin's texture, the shader names, the material. */
  names: string[];
  /** Which skin supplied names[0], if any. */
  skin: string | null;
}

/** webview -> host: the page has loaded and listens. */
export interface ReadyMessage {
  type: 'ready';
}

export interface TextureRequestMessage {
  type: 'textureRequest';
  generation: number;
  requests: TextureRequest[];
}

/** webview -> host: what was rendered (tests, status). */
export interface RenderedMessage {
  type: 'rendered';
  ok: boolean;
  format: string;
  /** Error text when ok is false. */
  error: string | null;
  vertices: number;
  triangles: number;
  joints: number;
  /** Milliseconds from receiving `load` to the first frame drawn. */
  firstFrameMs: number;
  /** IQE text: the editor version the drawn model was compiled from (null: the file on disk). */
  sourceVersion?: number | null;
}

export interface LogMessage {
  type: 'log';
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** webview -> host: the toolbar's "Convert to IQE" (the host runs iqmTools.convertToIqe on the panel's file). */
export interface ConvertToIqeMessage {
  type: 'convertToIqe';
}

/** webview -> host: show the IQE source at a line (the link of a compile error). */
export interface OpenSourceMessage {
  type: 'openSource';
  line: number;
  column: number;
}

/** webview -> host: save the view as a PNG (the export-image button); `png` holds the file's bytes. */
export interface SaveImageMessage {
  type: 'saveImage';
  png: ArrayBuffer;
  /** Suggested file name. */
  name: string;
}

export type WebviewToHost = ReadyMessage | TextureRequestMessage | RenderedMessage | LogMessage | OpenSourceMessage | SaveImageMessage | ConvertToIqeMessage;

export function assertNever(value: never, what = 'message'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}

/** Narrow, defensive check of an incoming webview message (the host must not trust the shape). */
export function isWebviewToHost(value: unknown): value is WebviewToHost {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown };
  switch (m.type) {
    case 'ready':
    case 'convertToIqe':
      return true;
    case 'textureRequest': {
      const r = value as Partial<TextureRequestMessage>;
      return (
        typeof r.generation === 'number' &&
        Array.isArray(r.requests) &&
        r.requests.every((q) => typeof q === 'object' && q !== null && typeof q.key === 'string' && Array.isArray(q.names) && q.names.every((n) => typeof n === 'string'))
      );
    }
    case 'rendered':
      return typeof (value as Partial<RenderedMessage>).ok === 'boolean';
    case 'log': {
      const l = value as Partial<LogMessage>;
      return typeof l.message === 'string' && (l.level === 'info' || l.level === 'warn' || l.level === 'error');
    }
    case 'openSource': {
      const o = value as Partial<OpenSourceMessage>;
      return Number.isInteger(o.line) && Number.isInteger(o.column) && (o.line as number) >= 0 && (o.column as number) >= 0;
    }
    case 'saveImage': {
      const i = value as Partial<SaveImageMessage>;
      return i.png instanceof ArrayBuffer && typeof i.name === 'string';
    }
    default:
      return false;
  }
}

/** Same for the webview side. */
export function isHostToWebview(value: unknown): value is HostToWebview {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown };
  switch (m.type) {
    case 'load': {
      const l = value as Partial<LoadMessage>;
      return typeof l.fileName === 'string' && l.bytes instanceof ArrayBuffer && typeof l.sidecars === 'object' && l.sidecars !== null;
    }
    case 'hostError':
      return typeof (value as Partial<HostErrorMessage>).message === 'string';
    case 'textures': {
      const t = value as Partial<TexturesMessage>;
      return typeof t.generation === 'number' && Array.isArray(t.results);
    }
    case 'compileState': {
      const c = value as Partial<CompileStateMessage>;
      return (c.state === 'compiling' || c.state === 'failed' || c.state === 'saved') && typeof c.unsaved === 'boolean';
    }
    default:
      return false;
  }
}

/** View state the webview persists with vscode.setState (camera, playback, toggles). */
export interface ViewState {
  version: 1;
  /** The file this state belongs to: the camera is restored only for the same file. */
  file: string;
  camera: { yaw: number; pitch: number; distance: number; target: [number, number, number] } | null;
  clip: number;
  time: number;
  playing: boolean;
  speed: number;
  loop: boolean;
  interpolate: boolean;
  cull: boolean;
  /** Winding: 'file' uses the format's, 'flipped' the opposite. */
  winding: 'file' | 'flipped';
  textures: boolean;
  wireframe: boolean;
  skeleton: boolean;
  tags: boolean;
  bounds: boolean;
  normals: boolean;
  grid: boolean;
  weights: boolean;
  selectedJoint: number;
  assemblePlayer: boolean;
  panel: boolean;
  /** Multiply by the vertex colours where the model has them. */
  colors: boolean;
  /** Diffuse lighting (false: unlit, the texture as it is). */
  lit: boolean;
  ortho: boolean;
  autoRotate: boolean;
  /** Keep the camera on the animated model (its current frame's bounds). */
  follow: boolean;
  /** Background colour as #rrggbb, or '' for the editor theme's. */
  background: string;
  /** The .skin file chosen by name, or '' for the engines' choice. */
  skin: string;
  /** Assembled Quake 3 player: the legs' clip (the torso's is `clip`), -1: LEGS_IDLE. */
  legsClip: number;
}

export function defaultViewState(): ViewState {
  return {
    version: 1,
    file: '',
    camera: null,
    clip: 0,
    time: 0,
    playing: true,
    speed: 1,
    loop: true,
    interpolate: true,
    cull: true,
    winding: 'file',
    textures: true,
    wireframe: false,
    skeleton: false,
    tags: true,
    bounds: false,
    normals: false,
    grid: true,
    weights: false,
    selectedJoint: -1,
    assemblePlayer: false,
    panel: true,
    colors: true,
    lit: true,
    ortho: false,
    autoRotate: false,
    follow: false,
    background: '',
    skin: '',
    legsClip: -1,
  };
}

/** Merges a persisted (possibly older or damaged) state over the defaults, field by field. */
export function restoreViewState(saved: unknown): ViewState {
  const state = defaultViewState();
  if (typeof saved !== 'object' || saved === null) return state;
  const s = saved as Record<string, unknown>;
  const target = state as unknown as Record<string, unknown>;
  for (const key of Object.keys(state) as (keyof ViewState)[]) {
    if (key === 'version' || key === 'camera') continue;
    const v = s[key];
    if (typeof v === typeof target[key] && (typeof v !== 'number' || Number.isFinite(v))) target[key] = v;
  }
  if (state.winding !== 'file' && state.winding !== 'flipped') state.winding = 'file';
  if (state.background !== '' && !/^#[0-9a-f]{6}$/i.test(state.background)) state.background = '';
  const c = s.camera as Record<string, unknown> | null | undefined;
  if (c && typeof c === 'object') {
    const t = c.target;
    if (
      Number.isFinite(c.yaw) && Number.isFinite(c.pitch) && Number.isFinite(c.distance) && (c.distance as number) > 0 &&
      Array.isArray(t) && t.length === 3 && t.every((x) => Number.isFinite(x))
    ) {
      state.camera = { yaw: c.yaw as number, pitch: c.pitch as number, distance: c.distance as number, target: [t[0], t[1], t[2]] };
    }
  }
  return state;
}

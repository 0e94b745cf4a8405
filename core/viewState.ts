// The preview's view state: what the webview persists with vscode.setState (camera, playback,
// toggles) so that hiding, showing and reloading a preview keeps them. Pure data and its
// defensive restore (a saved state may be older or damaged).

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

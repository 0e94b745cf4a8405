// Typed messages between the extension host (client/preview) and the preview webview (media/).
// Every message is a plain object with a string `type`; every switch over a union ends in
// assertNever so that adding a message without handling it fails to compile.
//
// Flow: the host reads the file as the panel opens, and posts `load` (the file's bytes and its
// sidecar texts) once the webview has posted `ready`; the webview parses with core, renders, and posts `textureRequest` (one entry per mesh
// with the names to try, in order); the host resolves them the way engines do and answers
// `textures`. When the file changes on disk the host posts `load` again (the webview keeps its view
// state). `rendered` and `log` are informational (tests and the output channel use them).

import type { EngineReport } from './engines/report';
import type { Highlight } from './model/highlight';
import type { ValidationReport } from './validate/report';
import type { Stamps } from './previewTimeline';
import { isLinkToHost, isLinkToWebview, type LinkToHost, type LinkToWebview } from './viewLink';

import type { Sidecars, SidecarText } from './lookup/sidecars';
// Declared where they are made (below the messages that carry them), named here for every face.
export type { EngineReport, Highlight, Sidecars, SidecarText, Stamps };

/** An MD3 player part sitting next to the opened one (head.md3/upper.md3/lower.md3). */
export interface PlayerPartFile {
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
  playerParts: PlayerPartFile[];
  /** True when this load replaces an earlier one because the file changed on disk. */
  reload: boolean;
  /** The "mesh from…" picker (core/model/animationSet.ts): absent when there is nothing to pick. */
  partner?: PartnerOffer;
  /** What the engines of `iqmTools.engine` would refuse or change (absent: no engine set). */
  engines?: EngineReport;
  /**
   * IQE text: `bytes` is the IQM the host compiled from it (in the compile worker), and this says
   * from which text. Absent for model files.
   */
  compiled?: CompiledFrom;
  /**
   * A compile source (MD5, SMD, OBJ, glTF): `bytes` is the IQM the host compiled from it (in the
   * compile worker, core/host/sourceCompile.ts), and this says how. Absent otherwise.
   */
  converted?: ConvertedFrom;
}

/** How a previewed source became the IQM drawn. */
export interface ConvertedFrom {
  /** The source's format, worded (SOURCE_FORMAT_NAMES). */
  format: string;
  milliseconds: number;
  /** The animation files beside it merged after it (core/compile/companions.ts), by name. */
  animations: string[];
  /** What the compile noticed, `FILE: message`. */
  notes: string[];
}

/** What the models of the folder offer the opened one: a mesh for an animation file, or clips for a mesh. */
export interface PartnerOffer {
  role: 'mesh' | 'animations';
  /** File names (same folder) that fit, sorted. */
  matches: string[];
  /** The file used, with its bytes; null: none. */
  chosen: { name: string; bytes: ArrayBuffer } | null;
  /** Chosen because it is the only fit, not by the user. */
  automatic: boolean;
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

/**
 * host -> webview: the file could not be read at all, or (with `fileName`) a compile source (MD5,
 * SMD, OBJ, glTF) the host compiles for the preview has errors: the preview says so and reports it
 * as a failed render.
 */
export interface HostErrorMessage {
  type: 'hostError';
  message: string;
  /** The source that does not compile (a failed render of it), absent when the file could not be read. */
  fileName?: string;
}

/**
 * One resolved texture: pixels (TGA bytes or PNG/JPEG bytes), a webview URI to an image, or a
 * material's colour without an image (a glTF's: `rgba` 0..1 is what is drawn, white where the
 * vertex colours carry it; `label` is what the info panel shows in place of a path).
 */
export type TextureSource =
  /** `mime` image/x-tga: the webview fetches and decodes it itself (the browser draws no TGA). */
  | { kind: 'uri'; uri: string; path: string; mime?: 'image/x-tga' }
  | { kind: 'bytes'; bytes: ArrayBuffer; mime: 'image/x-tga' | 'image/png' | 'image/jpeg'; path: string }
  | { kind: 'color'; rgba: [number, number, number, number]; label: string }
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

/**
 * host -> webview: play a listed clip (a "▶ Play" code lens on a sidecar line, a synced
 * comparison). Matched by name, and by first frame when given (names repeat in .framegroups).
 */
export interface PlayClipMessage {
  type: 'playClip';
  name: string;
  firstFrame?: number;
  /** Start playing (false: show its first frame, paused). */
  play: boolean;
  /** Show this frame of the clip (0-based within it), paused: a MODELDEF line's model frame. */
  frame?: number;
}

/** host -> webview: highlight part of the model, or nothing (`target` null). */
export interface HighlightMessage {
  type: 'highlight';
  target: Highlight | null;
}

/**
 * host -> webview: the validator's report on the model of the last `load` (core/validate), sent
 * after it: the check reads every frame and triangle (0.5 s and more on a 100 MB file), so the
 * model is drawn first. Not sent for a format the validator does not read.
 */
export interface ValidationMessage {
  type: 'validation';
  report: ValidationReport;
}

export type HostToWebview = LoadMessage | HostErrorMessage | TexturesMessage | CompileStateMessage | PlayClipMessage | HighlightMessage | ValidationMessage | LinkToWebview;

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

/**
 * webview -> host: the clips the preview lists and the one selected, sent when either changes (a
 * sidecar edited, a "▶ Play" lens): for the status command (tests) and the host's record.
 */
export interface ClipStateMessage {
  type: 'clipState';
  clips: string[];
  /** The selected clip's name, or null (the bind pose). */
  clip: string | null;
  playing: boolean;
  /** Paused on a clip: the frame shown (0-based within the clip); null while playing or without a clip. */
  frame: number | null;
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

/** webview -> host: the toolbar's "Export to glTF" (the host runs iqmTools.exportGltf on the panel's file). */
export interface ExportGltfMessage {
  type: 'exportGltf';
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

/**
 * webview -> host: the user clicked a triangle of the drawn model. Indices as in `Highlight`:
 * `triangle` across all meshes, `vertices` its three corners across all meshes.
 */
export interface PickedMessage {
  type: 'picked';
  mesh: number;
  triangle: number;
  vertices: [number, number, number];
}

/** webview -> host: the user picked in the "mesh from…" picker ('' = none); the host remembers it per file and loads again. */
export interface ChoosePartnerMessage {
  type: 'choosePartner';
  name: string;
}

/** webview -> host: the webview's stamps so far on the first load's timeline (core/previewTimeline.ts), sent at the first frame and at the first textured one. */
export interface TimelineMessage {
  type: 'timeline';
  stamps: Stamps;
}

export type WebviewToHost = ReadyMessage | TextureRequestMessage | RenderedMessage | ClipStateMessage | LogMessage | OpenSourceMessage | SaveImageMessage | ConvertToIqeMessage | ExportGltfMessage | PickedMessage | ChoosePartnerMessage | TimelineMessage | LinkToHost;

export function assertNever(value: never, what = 'message'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}

/** A non-negative integer (an index or a count). */
function isIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** Narrow, defensive check of an incoming webview message (the host must not trust the shape). */
export function isWebviewToHost(value: unknown): value is WebviewToHost {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown };
  switch (m.type) {
    case 'ready':
    case 'convertToIqe':
    case 'exportGltf':
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
    case 'clipState': {
      const c = value as Partial<ClipStateMessage>;
      return Array.isArray(c.clips) && c.clips.every((n) => typeof n === 'string') && (c.clip === null || typeof c.clip === 'string') && typeof c.playing === 'boolean' && (c.frame === null || (Number.isInteger(c.frame) && (c.frame as number) >= 0));
    }
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
    case 'choosePartner':
      return typeof (value as Partial<ChoosePartnerMessage>).name === 'string';
    case 'timeline': {
      const stamps = (value as Partial<TimelineMessage>).stamps;
      return typeof stamps === 'object' && stamps !== null && !Array.isArray(stamps) && Object.values(stamps).every((t) => Number.isFinite(t));
    }
    case 'viewChanged':
      return isLinkToHost(value);
    case 'picked': {
      const p = value as Partial<PickedMessage>;
      return isIndex(p.mesh) && isIndex(p.triangle) && Array.isArray(p.vertices) && p.vertices.length === 3 && p.vertices.every(isIndex);
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
    case 'playClip': {
      const p = value as Partial<PlayClipMessage>;
      return typeof p.name === 'string' && typeof p.play === 'boolean' && (p.firstFrame === undefined || isIndex(p.firstFrame)) && (p.frame === undefined || isIndex(p.frame));
    }
    case 'pickedSource':
    case 'comparison':
    case 'comparisonEnded':
    case 'syncView':
      return isLinkToWebview(value);
    case 'validation': {
      const r = (value as Partial<ValidationMessage>).report;
      return typeof r === 'object' && r !== null && Array.isArray(r.issues) && Array.isArray(r.notes) && typeof r.counts === 'object' && r.counts !== null && typeof r.omitted === 'object' && r.omitted !== null;
    }
    case 'highlight': {
      const t = (value as Partial<HighlightMessage>).target;
      if (t === null) return true;
      if (typeof t !== 'object' || t === undefined) return false;
      if (t.kind === 'joint') return isIndex(t.joint);
      return (t.kind === 'vertices' || t.kind === 'triangles') && Array.isArray(t.indices) && t.indices.every(isIndex);
    }
    default:
      return false;
  }
}

// Messages of the preview as a place to work, between the host and the webview, beside protocol.ts's
// `picked` and `highlight`: the source lines of a picked triangle (IQE previews), and a comparison
// of two previews (the semantic differences, the synced camera and clip). Part of the protocol's
// unions (protocol.ts); kept here so that each message is checked beside its definition.
import type { Difference } from './compare/diff';

/** host -> webview: the source lines of the picked triangle (IQE previews), for the info panel. */
export interface PickedSourceMessage {
  type: 'pickedSource';
  triangle: number;
  /** 0-based line of its `fa`/`fm`, and of each corner's `vp`; -1 where unknown. */
  face: number;
  vertices: [number, number, number];
}

/** The part of the view two compared previews share. */
export interface SharedView {
  camera: { yaw: number; pitch: number; distance: number; target: [number, number, number] } | null;
  /** Clip index and its name (the other model's clips are matched by name first). */
  clip: number;
  clipName: string;
  time: number;
  playing: boolean;
}

/** host -> webview: this preview is one side of a comparison (differences null: being computed). */
export interface ComparisonMessage {
  type: 'comparison';
  side: 'left' | 'right';
  /** The other file, for display. */
  other: string;
  differences: Difference[] | null;
  /** Why there is no list (a side that could not be read, …). */
  error: string | null;
  /**
   * The view the pair last shared, if any: a side that (re)loads takes it, so a message that came
   * while it was loading is not lost; null before either side moved (then the left one sends its own).
   */
  view: SharedView | null;
}

/** host -> webview: the comparison is over (the other side closed). */
export interface ComparisonEndedMessage {
  type: 'comparisonEnded';
}

/** webview -> host (forwarded to the other side as `syncView`): the user moved the camera or changed the clip or playback. */
export interface ViewChangedMessage {
  type: 'viewChanged';
  view: SharedView;
}

export interface SyncViewMessage {
  type: 'syncView';
  view: SharedView;
}

export type LinkToWebview = PickedSourceMessage | ComparisonMessage | ComparisonEndedMessage | SyncViewMessage;
export type LinkToHost = ViewChangedMessage;

const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isLine = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= -1;

export function isSharedView(v: unknown): v is SharedView {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<SharedView>;
  const c = s.camera;
  const cameraOk =
    c === null ||
    (typeof c === 'object' && c !== undefined && [c.yaw, c.pitch, c.distance].every(Number.isFinite) && Array.isArray(c.target) && c.target.length === 3 && c.target.every(Number.isFinite));
  return cameraOk && Number.isInteger(s.clip) && typeof s.clipName === 'string' && Number.isFinite(s.time) && typeof s.playing === 'boolean';
}

/** The check of an incoming webview message of this module (the host must not trust the shape). */
export function isLinkToHost(value: unknown): value is LinkToHost {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { type?: unknown; view?: unknown };
  return m.type === 'viewChanged' && isSharedView(m.view);
}

/** Same for the webview side. */
export function isLinkToWebview(value: unknown): value is LinkToWebview {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'pickedSource':
      return isIndex(m.triangle) && isLine(m.face) && Array.isArray(m.vertices) && m.vertices.length === 3 && m.vertices.every(isLine);
    case 'comparison':
      return (
        (m.side === 'left' || m.side === 'right') &&
        typeof m.other === 'string' &&
        (m.differences === null || (Array.isArray(m.differences) && m.differences.every((d) => typeof d === 'object' && d !== null && typeof (d as Difference).message === 'string'))) &&
        (m.error === null || typeof m.error === 'string') &&
        (m.view === null || isSharedView(m.view))
      );
    case 'comparisonEnded':
      return true;
    case 'syncView':
      return isSharedView(m.view);
    default:
      return false;
  }
}

/**
 * The clip of this model to show for the other side's: the one of the same name, else the same
 * index when this model has it, else the first.
 */
export function matchingClip(view: SharedView, clipNames: readonly string[]): number {
  const named = view.clipName === '' ? -1 : clipNames.indexOf(view.clipName);
  if (named >= 0) return named;
  return view.clip >= 0 && view.clip < clipNames.length ? view.clip : 0;
}

// The preview's way from "open" to its first drawn frame, as events stamped where they happen: in
// the extension host (client/preview/panel.ts) and in the webview (media/timeline.ts). Stamps are
// epoch milliseconds from Date.now(), the one clock both processes share (performance.now() has a
// different origin in each), and each event keeps its first time only: the timeline is the first
// load's, later reloads do not move it. The benchmark (bench/preview-first-frame.ts) prints it.

/**
 * When things happened on the way to a preview's first drawn frame: event name -> epoch
 * milliseconds, each event's first time only (the `timeline` message carries them).
 */
export type Stamps = Record<string, number>;

/** Where an event is stamped, and what it marks, in the order of a load that runs one step at a time. */
export const TIMELINE_EVENTS = [
  ['open', 'test', 'the open command is run (stamped by the caller)'],
  ['resolved', 'host', 'the custom editor is resolved (the panel is made)'],
  ['htmlSet', 'host', "the webview's HTML is set"],
  ['readStart', 'host', 'the host starts reading the model'],
  ['modelRead', 'host', "the model's bytes are read"],
  ['sidecarsFound', 'host', 'the sidecars beside it are read'],
  ['companionsFound', 'host', "a compile source's companion files are read"],
  ['compileStart', 'host', 'the compile is handed to the compile worker'],
  ['compileDone', 'host', "the worker's reply arrives"],
  ['enginesChecked', 'host', 'the engine checks are done'],
  ['webviewStart', 'webview', "the webview's document starts (navigation start)"],
  ['scriptStart', 'webview', 'the bundle (dist/webview.js) starts running'],
  ['bundleEvaluated', 'webview', "the bundle's modules are evaluated"],
  ['viewerBuilt', 'webview', 'the viewer is built (its WebGL2 context made)'],
  ['readyPosted', 'webview', '`ready` is posted'],
  ['readyReceived', 'host', '`ready` arrives'],
  ['loadPosted', 'host', '`load` is posted'],
  ['loadReceived', 'webview', '`load` arrives'],
  ['validated', 'host', "the validator's report is made (after `load`, which does not wait for it)"],
  ['parsed', 'webview', 'the model is read from the bytes'],
  ['gpuBuilt', 'webview', "the scene and its GPU buffers are built"],
  ['firstFrame', 'webview', 'the first frame is drawn (draw calls issued)'],
  ['texturesRequested', 'webview', 'the textures are asked for'],
  ['textureLookupStart', 'host', 'the texture lookup starts'],
  ['textureLookupDone', 'host', 'the texture lookup is answered'],
  ['texturesReceived', 'webview', 'the answer arrives'],
  ['texturesDecoded', 'webview', 'the images are decoded and on the GPU'],
  ['texturedFrame', 'webview', 'the first frame with the textures is drawn'],
  ['noTextures', 'webview', 'the model asks for no texture (its first frame is final)'],
] as const;

export type TimelineEvent = (typeof TIMELINE_EVENTS)[number][0];

/** One side's stamps. */
export class PreviewTimeline {
  readonly stamps: Stamps = {};

  /** Stamps `event` now (or at `at`), unless it was stamped before; true when this call stamped it. */
  mark(event: TimelineEvent, at = Date.now()): boolean {
    if (this.stamps[event] !== undefined) return false;
    this.stamps[event] = at;
    return true;
  }

  has(event: TimelineEvent): boolean {
    return this.stamps[event] !== undefined;
  }
}

// The controls around the view and what they change: the toolbar (ui/viewToolbar.ts), the playback
// bar (ui/timeline.ts) and the keyboard (space plays or pauses, the arrows step a frame). Changes
// that are the view state's alone (toggles, menu flags, winding, the panel, background, speed, loop,
// interpolation) and the playback's (clip, play and pause, a step, a scrub) are made here; what
// involves the rest of the view is asked of the coordinator (ControlActions). sync() keeps every
// control in step with the view state and the shown model, and tells the host the listed clips.

import type { LoadMessage, WebviewToHost } from '../core/protocol';
import type { ViewState } from '../core/viewState';
import { setBackground } from './frameOptions';
import type { Playback } from './playback';
import { canAssemble, type Assembly } from './playerAssembly';
import type { CameraView, OrbitCamera } from './renderer/camera';
import type { FrameOptions } from './renderer/renderer';
import type { Scene } from './scene';
import { Timeline } from './ui/timeline';
import { ViewToolbar, type MenuFlag, type Toggle } from './ui/viewToolbar';

/** What the controls read and change of the view. */
export interface ControlledView {
  readonly root: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  /** The info panel (shown or hidden by the panel toggle). */
  readonly info: HTMLElement;
  readonly state: ViewState;
  readonly camera: OrbitCamera;
  /** The renderer's frame options (the background colour is set on them). */
  readonly frame: FrameOptions;
  readonly playback: Playback;
  readonly assembly: Assembly;
  /** The shown model, its file's name and the host's message it was loaded from. */
  readonly shown: { readonly scene: Scene | null; readonly fileName: string; readonly load: LoadMessage | null };
}

/** What the controls ask of the coordinator. */
export interface ControlActions {
  /** This side of a comparison shares its view (before a clip or playback change, after a scrub). */
  shareView(): void;
  /** The player assembly was switched on or off (state.assemblePlayer says which). */
  assemblyToggled(): void;
  /** Frames the model from a preset direction. */
  fitCamera(view?: CameraView): void;
  /** Another clip plays: the camera frames it, unless the user placed it (viewCamera.ts). */
  clipSelected(): void;
  setSkin(name: string): void;
  /** Draws a frame now (the image exported is the canvas as drawn). */
  renderFrame(): void;
  post(message: WebviewToHost): void;
  /** Requests a redraw. */
  changed(): void;
  /** Saves the view state. */
  persist(): void;
}

export class Controls {
  readonly toolbar: ViewToolbar;
  readonly timeline: Timeline;
  private readonly state: ViewState;

  constructor(
    private readonly view: ControlledView,
    private readonly act: ControlActions,
  ) {
    const s = (this.state = view.state);
    this.toolbar = new ViewToolbar({
      toggle: (key) => this.toggle(key),
      toggleAssembly: () => {
        s.assemblePlayer = !s.assemblePlayer;
        act.assemblyToggled();
        act.fitCamera();
        this.changedSetting();
      },
      frameView: (v) => {
        act.fitCamera(v);
        act.changed();
        act.persist();
      },
      togglePanel: () => {
        s.panel = !s.panel;
        this.applyPanel();
        this.changedSetting();
      },
      flip: (key) => this.flip(key),
      toggleWinding: () => {
        s.winding = s.winding === 'flipped' ? 'file' : 'flipped';
        this.changedSetting();
      },
      exportImage: () => this.exportImage(),
      convertToIqe: () => act.post({ type: 'convertToIqe' }),
      exportGltf: () => act.post({ type: 'exportGltf' }),
      setBackground: (colour) => {
        s.background = colour;
        this.applyBackground();
      },
      setSkin: (name) => act.setSkin(name),
    });
    this.timeline = new Timeline({
      togglePlay: () => this.setPlaying(!s.playing),
      selectClip: (c) => this.selectClip(c),
      selectLegsClip: (c) => this.selectLegsClip(c),
      scrub: (frame) => {
        if (!view.playback.clip) return;
        this.setPlaying(false);
        view.playback.scrub(frame);
        this.reportClips();
        act.changed();
        act.shareView();
      },
      setSpeed: (speed) => {
        s.speed = speed;
        act.changed();
      },
      toggleLoop: () => {
        s.loop = !s.loop;
        this.sync();
        act.changed();
      },
      toggleInterpolate: () => {
        s.interpolate = !s.interpolate;
        this.sync();
        act.changed();
      },
    });
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === ' ') {
        e.preventDefault();
        this.setPlaying(!s.playing);
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        this.stepFrame(e.key === 'ArrowRight' ? 1 : -1);
      }
    });
  }

  // ---------------------------------------------------------------- playback

  /** Selects clip `c` (-1: the bind pose); `reframe` false keeps the camera (a comparison's other side sent its own). */
  selectClip(c: number, reframe = true): void {
    this.act.shareView();
    const clip = this.view.playback.select(c);
    this.view.assembly.player?.selectClip(c, this.state.legsClip);
    if (reframe) this.act.clipSelected();
    this.timeline.selectClip(c);
    this.timeline.showClip(clip, this.view.shown.scene);
    this.changedSetting();
  }

  /** Assembled player: the legs' clip, played with the torso's (-1: LEGS_IDLE). */
  selectLegsClip(c: number): void {
    this.state.legsClip = c;
    this.view.assembly.player?.selectClip(this.state.clip, c);
    this.act.clipSelected();
    this.timeline.selectLegsClip(c);
    this.act.changed();
    this.act.persist();
  }

  setPlaying(playing: boolean): void {
    this.act.shareView();
    this.view.playback.setPlaying(playing);
    this.changedSetting();
  }

  /** Stops playback and auto-rotation (the preview draws this model too slowly to animate it). */
  stopAnimating(): void {
    this.view.playback.setPlaying(false);
    this.state.autoRotate = false;
    this.changedSetting();
  }

  private stepFrame(d: number): void {
    if (!this.view.playback.clip) return;
    this.setPlaying(false);
    this.view.playback.step(d);
    this.reportClips();
    this.act.changed();
  }

  // ---------------------------------------------------------------- view settings

  /** Selects joint `j` (-1: none): the skeleton shows it, unless the weights view does. */
  selectJoint(j: number): void {
    this.state.selectedJoint = j;
    if (j >= 0 && !this.state.skeleton && !this.state.weights) this.state.skeleton = true;
    this.changedSetting();
  }

  private toggle(key: Toggle): void {
    this.state[key] = !this.state[key];
    this.changedSetting();
  }

  /** Flips a boolean view setting of the menu. */
  private flip(key: MenuFlag): void {
    this.state[key] = !this.state[key];
    this.view.camera.ortho = this.state.ortho;
    if (key === 'follow' && !this.state.follow) this.act.fitCamera();
    this.changedSetting();
  }

  /** After a setting changed: the controls in step, a redraw, the view state saved. */
  private changedSetting(): void {
    this.sync();
    this.act.changed();
    this.act.persist();
  }

  applyPanel(): void {
    this.view.info.classList.toggle('hidden', !this.state.panel);
    this.view.root.classList.toggle('no-panel', !this.state.panel);
  }

  /** The view state's background on the frame options and the toolbar (saved unless `save` is false: a load). */
  applyBackground(save = true): void {
    setBackground(this.view.frame, this.state.background);
    this.toolbar.showBackground(this.state.background);
    this.act.changed();
    if (save) this.act.persist();
  }

  /** The export-image button: the canvas as drawn (preserveDrawingBuffer) as a PNG to the host, which asks where to save it. */
  private exportImage(): void {
    this.act.renderFrame();
    this.view.canvas.toBlob((blob) => {
      if (!blob) return;
      void blob.arrayBuffer().then((png) => {
        const stem = this.view.shown.fileName.replace(/\.[^.]*$/, '') || 'model';
        this.act.post({ type: 'saveImage', png, name: `${stem}.png` });
      });
    }, 'image/png');
  }

  // ---------------------------------------------------------------- keeping in step

  /** Every control as the view state and the shown model say; the host told the listed clips when they changed. */
  sync(): void {
    this.reportClips();
    const s = this.state;
    const scene = this.view.shown.scene;
    const assembled = this.view.assembly.player !== null;
    this.timeline.sync(s, !s.playing && this.view.playback.atEnd(), assembled);
    const model = scene?.model;
    this.toolbar.sync(
      s,
      model && scene
        ? {
            tags: !!model.tags,
            colors: model.meshes.some((m) => m.color !== null),
            skinned: scene.jointCount > 0,
            bounds: !!model.bounds,
            canAssemble: canAssemble(model, this.view.shown.load),
            assembled,
          }
        : null,
    );
  }

  /** The clip menus from the listed clips (a new model, a player assembled or taken apart). */
  fillClips(): void {
    this.timeline.fill(this.view.playback.clips, this.view.assembly.player !== null, this.state, this.view.shown.scene);
    this.reportClips();
  }

  /** The skin menu (`usable`: the .skin files that fit the model); the view state keeps the one it shows. */
  fillSkins(usable: string[]): void {
    this.state.skin = this.toolbar.fillSkins(usable, this.state.skin);
    this.view.root.dataset.skins = String(usable.length);
  }

  /** Tells the host the listed clips, the selected one and the paused frame, when they changed. */
  reportClips(): void {
    const m = this.view.playback.report();
    if (m) this.act.post(m);
  }

  /**
   * Every frame: the frame number and timeline position of the part that plays the selected clip
   * (an assembled player's torso for TORSO_*, legs for LEGS_* and BOTH_*). Allocates nothing.
   */
  showFrame(force: boolean): void {
    let scene = this.view.shown.scene;
    if (!scene) return;
    const player = this.view.assembly.player;
    if (player) {
      for (const p of player.parts) {
        if (p.clip === this.state.clip) {
          scene = p.scene;
          break;
        }
      }
    }
    this.timeline.showFrame(scene, this.view.playback.clip, force);
  }

  /** The playback bar shown (a model) or hidden (the error view). */
  showTimeline(shown: boolean): void {
    this.timeline.el.classList.toggle('hidden', !shown);
  }
}

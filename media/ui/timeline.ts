// The playback bar under the view: play/pause, the clip menu (and an assembled Quake 3 player's
// legs menu), the frame slider with FTE event markers, the frame text, speed, loop and
// interpolation. It shows the view state and reports the user's actions; the coordinator decides.

import type { ViewState } from '../../core/viewState';
import { Scene, type ViewClip } from '../scene';
import { clear, h } from './dom';
import { icon } from './toolbar';

export interface TimelineActions {
  togglePlay(): void;
  selectClip(clip: number): void;
  selectLegsClip(clip: number): void;
  /** The slider moved to a frame of the selected clip (0-based within the clip). */
  scrub(frame: number): void;
  setSpeed(speed: number): void;
  toggleLoop(): void;
  toggleInterpolate(): void;
}

/** Narrower than this (CSS px), the playback bar wraps into rows. */
const COMPACT_PX = 480;
/** The same with an assembled player's two menus (torso and legs). */
const COMPACT_PLAYER_PX = 640;

export class Timeline {
  readonly el: HTMLElement;
  private readonly clipSelect: HTMLSelectElement;
  /** Assembled Quake 3 player: the legs' clips (the torso's are in clipSelect). */
  private readonly legsSelect: HTMLSelectElement;
  private readonly playButton: HTMLButtonElement;
  private readonly slider: HTMLInputElement;
  private readonly frameText: HTMLElement;
  private readonly markers: HTMLElement;
  private readonly speedSelect: HTMLSelectElement;
  private readonly loopButton: HTMLButtonElement;
  private readonly interpButton: HTMLButtonElement;
  /** Per-clip caches for showFrame (cleared when the clip or the model changes). */
  private frameLabels: string[] = [];
  private frameValues: string[] = [];
  private frameShort: string[] = [];
  /** The bar is narrow (rows, short frame text). */
  private compact = false;
  private lastFrameShown = -2;

  constructor(actions: TimelineActions) {
    this.clipSelect = h('select', { id: 'clip', title: 'Animation' });
    this.legsSelect = h('select', { id: 'legs-clip', class: 'hidden', title: 'Legs animation (LEGS_* and BOTH_*), played with the torso\'s' });
    this.playButton = h('button', { id: 'play', class: 'tool', title: 'Play / pause (space)' }, icon('debug-pause'));
    this.slider = h('input', { id: 'timeline', type: 'range', min: 0, max: 0, step: 1, value: 0, title: 'Frame' });
    this.frameText = h('span', { id: 'frame', class: 'frame', text: '' });
    this.markers = h('div', { class: 'markers' });
    this.speedSelect = h('select', { id: 'speed', title: 'Speed' }, ...[0.1, 0.25, 0.5, 1, 2, 4].map((s) => h('option', { value: s, text: `${s}×` })));
    this.loopButton = h('button', { id: 'loop', class: 'tool', title: 'Loop', 'aria-pressed': 'false' }, icon('sync'));
    this.interpButton = h('button', { id: 'interp', class: 'tool', title: 'Interpolate between frames (slerp)', 'aria-pressed': 'false' }, icon('pulse'));
    this.el = h(
      'div',
      { class: 'controls' },
      this.playButton,
      this.clipSelect,
      this.legsSelect,
      h('div', { class: 'track' }, this.slider, this.markers),
      this.frameText,
      this.speedSelect,
      this.loopButton,
      this.interpButton,
      // Compact: where the menus' row ends and the slider's begins (styles.css).
      h('div', { class: 'row-break' }),
    );
    // Narrower than one row holds with its menus readable, the bar takes two or three rows (the
    // menus first, then the slider); its width is the grid column's, whatever its rows.
    new ResizeObserver(() => this.layout()).observe(this.el);
    this.playButton.addEventListener('click', () => actions.togglePlay());
    this.clipSelect.addEventListener('change', () => actions.selectClip(Number(this.clipSelect.value)));
    this.legsSelect.addEventListener('change', () => actions.selectLegsClip(Number(this.legsSelect.value)));
    this.slider.addEventListener('input', () => actions.scrub(Number(this.slider.value)));
    this.speedSelect.addEventListener('change', () => actions.setSpeed(Number(this.speedSelect.value) || 1));
    this.loopButton.addEventListener('click', () => actions.toggleLoop());
    this.interpButton.addEventListener('click', () => actions.toggleInterpolate());
  }

  /** One row, or rows (compact) where one row would not leave the menus readable (two menus need more room). */
  private layout(): void {
    const compact = this.el.clientWidth < (this.legsSelect.classList.contains('hidden') ? COMPACT_PX : COMPACT_PLAYER_PX);
    if (compact === this.compact) return;
    this.compact = compact;
    this.el.classList.toggle('compact', compact);
    // The frame text is written again, long or short, at the next frame drawn.
    this.lastFrameShown = -2;
  }

  /** Fills the clip menus: one for a model; torso and legs for an assembled player. */
  fill(clips: ViewClip[], player: boolean, s: ViewState, scene: Scene | null): void {
    clear(this.clipSelect);
    clear(this.legsSelect);
    const option = (c: ViewClip, i: number) => h('option', { value: i, text: `${c.name} (${c.frameCount})` });
    if (player) {
      // Quake 3 plays two clips at once: the torso's (TORSO_*, or BOTH_* for both) and the legs'.
      this.clipSelect.title = 'Torso animation (TORSO_*, or BOTH_* for the whole body)';
      this.legsSelect.append(h('option', { value: -1, text: 'LEGS_IDLE (default)' }));
      clips.forEach((c, i) => (c.name.startsWith('LEGS_') ? this.legsSelect : this.clipSelect).append(option(c, i)));
      this.legsSelect.value = String(s.legsClip);
    } else {
      this.clipSelect.title = 'Animation';
      this.clipSelect.append(h('option', { value: -1, text: 'Bind pose' }));
      clips.forEach((c, i) => this.clipSelect.append(option(c, i)));
    }
    this.clipSelect.value = String(s.clip);
    this.showClip(clips[s.clip], scene);
  }

  /** The selected clip changed: the slider's range and the clip's FTE event markers. */
  showClip(clip: ViewClip | undefined, scene: Scene | null): void {
    this.frameLabels = [];
    this.frameValues = [];
    this.frameShort = [];
    this.lastFrameShown = -2;
    this.slider.max = String(clip ? Math.max(0, clip.frameCount - 1) : 0);
    this.slider.disabled = !clip;
    clear(this.markers);
    const events = scene?.model.iqm?.fteEvents;
    if (clip && events && scene) {
      // FTE_EVENT: anim = animation index in the file (IQM clips are listed in file order).
      const fileClip = scene.model.clips.findIndex((c) => c.name === clip.name && c.firstFrame === clip.firstFrame);
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

  selectClip(clip: number): void {
    this.clipSelect.value = String(clip);
  }

  selectLegsClip(clip: number): void {
    this.legsSelect.value = String(clip);
  }

  /**
   * Frame number and slider position of `scene` playing `clip` (rewritten only when the frame
   * changes or `force`, not every animation frame; the labels are made once per frame and reused).
   */
  showFrame(scene: Scene, clip: ViewClip | undefined, force: boolean): void {
    const b = scene.blend;
    if (b.a === this.lastFrameShown && !force) return;
    this.lastFrameShown = b.a;
    if (!clip || b.a < 0) {
      this.frameText.textContent = 'bind pose';
      return;
    }
    const local = clip.reverse ? clip.firstFrame + clip.frameCount - 1 - b.a : b.a - clip.firstFrame;
    let label = this.frameLabels[local];
    if (label === undefined) {
      const name = scene.model.frameNames[b.a];
      label = `frame ${b.a} (${local + 1}/${clip.frameCount}) ${Scene.fps(clip)} fps${name ? ` ${name}` : ''}`;
      this.frameLabels[local] = label;
      this.frameShort[local] = `${local + 1}/${clip.frameCount}`;
      this.frameValues[local] = String(local);
    }
    this.slider.value = this.frameValues[local];
    // A narrow bar shows the frame within the clip; the whole label on hover.
    this.frameText.textContent = this.compact ? this.frameShort[local] : label;
    this.frameText.title = label;
  }

  /** The buttons' states: playing / paused / ended (a clip that does not loop, at its end), speed, loop, interpolation. */
  sync(s: ViewState, atEnd: boolean, player: boolean): void {
    this.playButton.replaceChildren(icon(s.playing ? 'debug-pause' : atEnd ? 'debug-restart' : 'play'));
    this.playButton.title = s.playing ? 'Pause (space)' : atEnd ? 'Play again from the first frame (space)' : 'Play (space)';
    this.playButton.dataset.state = s.playing ? 'playing' : atEnd ? 'ended' : 'paused';
    this.speedSelect.value = String(s.speed);
    for (const [b, on] of [[this.loopButton, s.loop], [this.interpButton, s.interpolate]] as const) {
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', String(on));
    }
    this.legsSelect.classList.toggle('hidden', !player);
    this.layout();
  }
}

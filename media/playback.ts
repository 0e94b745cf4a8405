// Playback of the listed clips: which clip is selected, the time in it, playing or paused, loop and
// speed (all kept in the view state, which is saved), and how the time moves: by the wall clock in
// the frame loop, a frame at a time, to a scrubbed frame, from the start again after a clip that
// does not loop has ended. The coordinator redraws, saves and shares the view after each change;
// advance() runs every frame and allocates nothing.

import type { ClipStateMessage } from '../core/protocol';
import type { ViewState } from '../core/viewState';
import { Scene, type ViewClip } from './scene';

/** The part of the view state playback reads and writes. */
export type PlaybackState = Pick<ViewState, 'clip' | 'time' | 'playing' | 'loop' | 'speed'>;

/** True when `clip` does not loop and `time` is at (or past) its last frame. */
export function atClipEnd(clip: ViewClip | undefined, time: number, loop: boolean): boolean {
  return !!clip && !loop && time >= Scene.duration(clip) - 1e-6;
}

/** The time of the frame `d` frames on from the one nearest `time`, wrapping round the clip. */
export function steppedTime(clip: ViewClip, time: number, d: number): number {
  const fps = Scene.fps(clip);
  const f = Math.round(time * fps) + d;
  return (((f % clip.frameCount) + clip.frameCount) % clip.frameCount) / fps;
}

export class Playback {
  /** The clips the view lists (the model's and its sidecars', or an assembled player's animation.cfg). */
  clips: ViewClip[] = [];
  /** The frame loop's last timestamp (ms) while playing, -1 when the next advance starts the clock. */
  private lastTime = -1;
  /** The last clipState sent (as JSON), so that only changes are sent. */
  private lastReport = '';

  constructor(private readonly state: PlaybackState) {}

  /** The selected clip (undefined: the bind pose). */
  get clip(): ViewClip | undefined {
    return this.clips[this.state.clip];
  }

  /** True when a clip that does not loop has played to its last frame. */
  atEnd(): boolean {
    return atClipEnd(this.clip, this.state.time, this.state.loop);
  }

  /** The listed clip named `name` (starting at `firstFrame`, when given), or -1. */
  find(name: string, firstFrame?: number): number {
    return this.clips.findIndex((c) => c.name === name && (firstFrame === undefined || c.firstFrame === firstFrame));
  }

  /** Selects clip `c` (-1: the bind pose) from its first frame, looping as the clip says. */
  select(c: number): ViewClip | undefined {
    this.state.clip = c;
    this.state.time = 0;
    const clip = this.clips[c];
    if (clip) this.state.loop = clip.loop;
    return clip;
  }

  /** Plays or pauses; play at the end of a finished clip plays it again from the first frame. */
  setPlaying(playing: boolean): void {
    if (playing && this.atEnd()) this.state.time = 0;
    this.state.playing = playing;
    this.restartClock();
  }

  /** The next advance starts the clock again (a new model, a pause): no jump by the time between. */
  restartClock(): void {
    this.lastTime = -1;
  }

  /** The time moves `d` frames (wrapping); false without a selected clip. */
  step(d: number): boolean {
    const clip = this.clip;
    if (!clip) return false;
    this.state.time = steppedTime(clip, this.state.time, d);
    return true;
  }

  /** The time of frame `frame` of the selected clip (0-based within it); false without a clip. */
  scrub(frame: number): boolean {
    const clip = this.clip;
    if (!clip) return false;
    this.state.time = frame / Scene.fps(clip);
    return true;
  }

  /**
   * The frame loop's step at `now` (ms) while a model is `shown`: playing, the time moves by the
   * wall clock since the last step times the speed, and at the clip's end wraps round (loop) or
   * stops on the last frame. True when the clip has just ended that way (the controls then say so).
   */
  advance(now: number, shown: boolean): boolean {
    const s = this.state;
    const clip = this.clip;
    if (!s.playing || !clip || !shown) {
      this.lastTime = -1;
      return false;
    }
    let ended = false;
    if (this.lastTime >= 0) {
      s.time += ((now - this.lastTime) / 1000) * s.speed;
      const dur = Scene.duration(clip);
      if (dur > 0 && s.time >= dur) {
        if (s.loop) s.time %= dur;
        else {
          // A clip that does not loop ends: it stops on its last frame, and Play starts it again.
          s.time = dur;
          s.playing = false;
          ended = true;
        }
      }
    }
    this.lastTime = now;
    return ended;
  }

  /**
   * A new list of clips (a player assembled or taken apart): the selected clip is kept by name,
   * else the one named `fallback` is selected (or the one at index `fallback`).
   */
  replaceClips(clips: ViewClip[], fallback: string | number): void {
    const current = this.clip?.name;
    this.clips = clips;
    const same = clips.findIndex((c) => c.name === current);
    this.state.clip = same >= 0 ? same : typeof fallback === 'number' ? fallback : clips.findIndex((c) => c.name === fallback);
  }

  /** The clipState message for the host when the listed clips, the selected one, playing or the paused frame changed since the last one, else null. */
  report(): ClipStateMessage | null {
    const clip = this.clip;
    const frame = clip && !this.state.playing ? Math.min(Math.round(this.state.time * Scene.fps(clip)), clip.frameCount - 1) : null;
    const m: ClipStateMessage = { type: 'clipState', clips: this.clips.map((c) => c.name), clip: clip?.name ?? null, playing: this.state.playing, frame };
    const key = JSON.stringify(m);
    if (key === this.lastReport) return null;
    this.lastReport = key;
    return m;
  }
}

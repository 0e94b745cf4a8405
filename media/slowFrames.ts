// When animating cannot keep up: a 100 MB model on a software rasteriser (SwiftShader, llvmpipe:
// VMs, remote desktops, machines without a GPU driver) takes a second and more per frame, and a
// preview that keeps animating holds the CPU for as long as it is open (in code-server it starved
// VS Code's extension host, which was then reported unresponsive). The frame loop tells this
// watcher each animated frame's time; after SLOW_FRAMES intervals in a row over SLOW_FRAME_MS it
// says to stop (playback and auto-rotation), once per model: a user who starts it again gets it.
// Frame intervals are requestAnimationFrame's timestamps (ms): the browser holds them back while
// its GPU process is behind, so they measure the whole frame, not only this page's script.

/** A frame interval over this is slow (ms): 2 frames a second. */
export const SLOW_FRAME_MS = 500;
/** This many slow intervals in a row stop the animation (one slow frame may be a shader compile or a tab coming back). */
export const SLOW_FRAMES = 3;

export class SlowFrames {
  /** The last animated frame's time (ms), or -1 when the next frame starts a new run. */
  private last = -1;
  /** The slow intervals of the current run, in a row (ms). */
  private intervals: number[] = [];
  /** Stopped once for this model: not again until the next model. */
  private stopped = false;

  /** An animated frame at `now` (ms): the median of the slow run when the animation should stop now, else null. */
  frame(now: number): number | null {
    const last = this.last;
    this.last = now;
    if (this.stopped || last < 0) return null;
    const interval = now - last;
    if (interval <= SLOW_FRAME_MS) {
      this.intervals = [];
      return null;
    }
    this.intervals.push(interval);
    if (this.intervals.length < SLOW_FRAMES) return null;
    this.stopped = true;
    const sorted = [...this.intervals].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  /** Not animating (paused, hidden, stopped): the next animated frame starts a new run. */
  idle(): void {
    this.last = -1;
    this.intervals = [];
  }

  /** A new model: watched again. */
  reset(): void {
    this.idle();
    this.stopped = false;
  }
}

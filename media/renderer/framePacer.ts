// When the frame loop may draw: not while the GPU is more than a slow frame (SLOW_FRAME_MS) behind,
// and after a slow frame not before as long again has passed. Frames the GPU keeps up with are
// drawn as before, on every animation frame.
//
// Why: on a slow GPU (SwiftShader, the software rasteriser of a machine without one, took seconds
// a frame for a 100 MB model) frames queued up in the GPU process, and the page's thread, which
// shows each frame, waited on it, and with it the editor around the page (issue 35: VS Code called
// its extension host unresponsive and a texture lookup was never answered). Drawing at most half
// of the time leaves the other half to them; on a real GPU no frame is that slow and nothing changes.

/** A frame the GPU takes longer than this (ms) over is followed by a rest as long: 4 frames a second, past any use for interaction, where a software rasteriser drawing millions of triangles is. */
export const SLOW_FRAME_MS = 250;

/** What the pacer uses of a WebGL2 context. */
export type FenceGl = Pick<WebGL2RenderingContext, 'fenceSync' | 'flush' | 'getSyncParameter' | 'deleteSync' | 'isContextLost' | 'SYNC_GPU_COMMANDS_COMPLETE' | 'SYNC_STATUS' | 'SIGNALED'>;

export class FramePacer {
  /** Signalled when the GPU has done the oldest fenced frame still in flight (null: none), and when it was made (ms). */
  private fence: WebGLSync | null = null;
  private fencedAt = 0;
  /** When ready() last found the fence unsignalled (ms; the fence's own time when it never did). */
  private seenBusyAt = 0;
  /** No frame before this time (ms): a slow frame's rest. */
  private restUntil = -Infinity;

  constructor(private readonly gl: FenceGl) {}

  /**
   * Whether a frame may be drawn at `now` (performance.now() time, ms). A fence's status changes
   * only between tasks, so asking costs no round trip to the GPU process.
   */
  ready(now: number): boolean {
    const gl = this.gl;
    const fence = this.fence;
    if (fence && !gl.isContextLost()) {
      // Unfinished: frames go on while the GPU is behind by less than a slow frame.
      if (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) {
        this.seenBusyAt = now;
        return now - this.fencedAt < SLOW_FRAME_MS;
      }
      gl.deleteSync(fence);
      this.fence = null;
      // How long the GPU at least took: until the last time it was seen still busy (not until now:
      // a page that drew nothing for a while asks only when it draws again).
      const gpuMs = this.seenBusyAt - this.fencedAt;
      this.restUntil = gpuMs > SLOW_FRAME_MS ? now + gpuMs : now;
    }
    return now >= this.restUntil;
  }

  /** After a frame's commands, at `now` (ms): a fence ready() asks about, unless an older one is still in flight. */
  frameEnded(now: number): void {
    const gl = this.gl;
    if (gl.isContextLost() || this.fence) return;
    this.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    this.fencedAt = this.seenBusyAt = now;
    // Sent to the GPU now: a fence still in the page's command buffer never signals, and while
    // frames wait for it nothing else would send it.
    gl.flush();
  }

  /** After a context restore: the old fence is gone with the context. */
  reset(): void {
    this.fence = null;
    this.restUntil = -Infinity;
  }
}

// The preview's frame pacing (media/renderer/framePacer.ts): no frame while the GPU still draws
// the last one, and a rest as long as a slow frame after it. A fake context stands for WebGL2:
// its fences signal when the test says the GPU is done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FramePacer, SLOW_FRAME_MS, type FenceGl } from '../../media/renderer/framePacer';

class FakeGl {
  readonly SYNC_GPU_COMMANDS_COMPLETE = 0x9117;
  readonly SYNC_STATUS = 0x9114;
  readonly SIGNALED = 0x9119;
  readonly UNSIGNALED = 0x9118;
  lost = false;
  /** Fences made since the last flush: the GPU signals none of them before a flush sends them. */
  unflushed = 0;
  /** Fences made and not deleted, each with whether the GPU is past it. */
  readonly fences = new Map<object, { signalled: boolean }>();

  fenceSync(): WebGLSync {
    const fence = {};
    this.fences.set(fence, { signalled: false });
    this.unflushed++;
    return fence as WebGLSync;
  }
  flush(): void {
    this.unflushed = 0;
  }
  getSyncParameter(fence: WebGLSync): number {
    return this.fences.get(fence)!.signalled ? this.SIGNALED : this.UNSIGNALED;
  }
  deleteSync(fence: WebGLSync | null): void {
    if (fence) this.fences.delete(fence);
  }
  isContextLost(): boolean {
    return this.lost;
  }
  /** The GPU finishes everything it was sent. */
  finish(): void {
    assert.equal(this.unflushed, 0, 'a fence was made and never flushed: it would never signal');
    for (const state of this.fences.values()) state.signalled = true;
  }
}

function pacer(): { gl: FakeGl; pace: FramePacer } {
  const gl = new FakeGl();
  return { gl, pace: new FramePacer(gl as unknown as FenceGl) };
}

test('frame pacing: frames go on while the GPU is less than a slow frame behind; past that, they wait for it', () => {
  const { gl, pace } = pacer();
  assert.equal(pace.ready(0), true);
  pace.frameEnded(0);
  assert.equal(pace.ready(16), true, 'the GPU is 16 ms behind: draw');
  pace.frameEnded(16);
  assert.equal(gl.fences.size, 1, 'one fence: the oldest frame in flight');
  assert.equal(pace.ready(SLOW_FRAME_MS - 1), true);
  assert.equal(pace.ready(SLOW_FRAME_MS), false, 'a slow frame behind: wait');
  assert.equal(pace.ready(SLOW_FRAME_MS + 500), false);
  gl.finish();
  assert.equal(gl.fences.size, 1);
  assert.equal(pace.ready(SLOW_FRAME_MS + 600), false, 'done, after a slow frame: rest');
  assert.equal(gl.fences.size, 0, 'the signalled fence is deleted');
  assert.equal(pace.ready(2 * (SLOW_FRAME_MS + 600)), true);
});

test('frame pacing: a frame the GPU keeps up with has no rest', () => {
  const { gl, pace } = pacer();
  pace.frameEnded(0);
  gl.finish();
  assert.equal(pace.ready(16), true);
  pace.frameEnded(16);
  gl.finish();
  assert.equal(pace.ready(16 + SLOW_FRAME_MS), true, 'exactly SLOW_FRAME_MS is not slow');
});

test('frame pacing: after a slow frame, a rest as long as the GPU was seen busy', () => {
  const { gl, pace } = pacer();
  pace.frameEnded(1000);
  const took = 3 * SLOW_FRAME_MS;
  assert.equal(pace.ready(1000 + took), false, 'still drawing');
  gl.finish();
  assert.equal(pace.ready(1000 + took + 16), false, 'a slow frame is followed by a rest');
  assert.equal(pace.ready(1000 + took + 16 + took - 1), false);
  assert.equal(pace.ready(1000 + took + 16 + took), true);
  // The next frame, a fast one: no rest.
  pace.frameEnded(3000);
  assert.equal(pace.ready(3016), true);
  gl.finish();
  assert.equal(pace.ready(3032), true);
});

test('frame pacing: a page that drew nothing for a while has no rest when it draws again', () => {
  const { gl, pace } = pacer();
  pace.frameEnded(0);
  gl.finish(); // long ago: nothing asked since
  assert.equal(pace.ready(10_000), true, 'the idle time is not the GPU\'s');
});

test('frame pacing: a lost context never holds frames back; a restore forgets the old fence', () => {
  const { gl, pace } = pacer();
  pace.frameEnded(0);
  gl.lost = true;
  assert.equal(pace.ready(5), true);
  pace.frameEnded(5);
  assert.equal(gl.fences.size, 1, 'no fence is made on a lost context');
  gl.lost = false;
  pace.reset();
  assert.equal(pace.ready(6), true);
});

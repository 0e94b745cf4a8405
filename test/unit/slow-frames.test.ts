// The preview stops animating a model drawn too slowly to animate (media/slowFrames.ts): after
// SLOW_FRAMES frame intervals in a row over SLOW_FRAME_MS, once per model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SLOW_FRAME_MS, SLOW_FRAMES, SlowFrames } from '../../media/slowFrames';

/** Feeds frames `intervals` apart (ms) from t = 1000; returns what each frame answered. */
function feed(watch: SlowFrames, intervals: number[], start = 1000): (number | null)[] {
  let t = start;
  const out = [watch.frame(t)];
  for (const d of intervals) out.push(watch.frame((t += d)));
  return out;
}

test('frames a GPU keeps up with never stop the animation', () => {
  const watch = new SlowFrames();
  const answers = feed(watch, Array.from({ length: 600 }, (_, i) => (i % 50 === 0 ? SLOW_FRAME_MS : 16.7)));
  assert.ok(answers.every((a) => a === null));
});

test('SLOW_FRAMES slow intervals in a row stop it, with their median', () => {
  const watch = new SlowFrames();
  const answers = feed(watch, [16, 16, 900, 1700, 800]);
  assert.deepEqual(answers, [null, null, null, null, null, 900]);
  assert.equal(SLOW_FRAMES, 3);
});

test('a slow frame between fast ones (a shader compile, a tab shown again) does not', () => {
  const watch = new SlowFrames();
  const answers = feed(watch, [16, 5000, 16, 900, 900, 16, 900, 16]);
  assert.ok(answers.every((a) => a === null));
});

test('once per model: after a stop, the user playing again is not stopped again', () => {
  const watch = new SlowFrames();
  assert.equal(feed(watch, [900, 900, 900]).at(-1), 900);
  watch.idle();
  assert.ok(feed(watch, [900, 900, 900, 900, 900], 10_000).every((a) => a === null));
  // A new model is watched again.
  watch.reset();
  assert.equal(feed(watch, [1200, 1000, 1100], 20_000).at(-1), 1100);
});

test('time spent not animating is no interval: idle starts a new run', () => {
  const watch = new SlowFrames();
  feed(watch, [16, 16]);
  watch.idle();
  // Paused for a minute, then playing smoothly: the gap is not a slow frame.
  assert.ok(feed(watch, [16, 16, 16], 70_000).every((a) => a === null));
  // Two slow intervals, a pause, two more: not three in a row.
  watch.idle();
  assert.ok(feed(watch, [900, 900], 80_000).every((a) => a === null));
  watch.idle();
  assert.ok(feed(watch, [900, 900], 90_000).every((a) => a === null));
});

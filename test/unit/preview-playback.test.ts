// The preview's playback (media/playback.ts): how the frame loop moves the time (speed, looping,
// a clip that ends), stepping and scrubbing by frames, selecting and replacing clips, and the
// clipState reports sent only on a change.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FPS } from '../../core/model/model';
import { atClipEnd, Playback, steppedTime, type PlaybackState } from '../../media/playback';
import type { ViewClip } from '../../media/scene';

function clip(name: string, frameCount: number, fps: number, loop: boolean): ViewClip {
  return { name, firstFrame: 0, frameCount, fps, loop, source: 'test' };
}

function state(over: Partial<PlaybackState> = {}): PlaybackState {
  return { clip: 0, time: 0, playing: false, loop: true, speed: 1, ...over };
}

/** A playback of a 10-frame clip at 10 fps (1 s long, looping) and a 5-frame one at 5 fps that does not loop. */
function playback(s: PlaybackState): Playback {
  const p = new Playback(s);
  p.clips = [clip('walk', 10, 10, true), clip('die', 5, 5, false)];
  return p;
}

test('advance: the time moves by the wall clock times the speed, from the second frame on', () => {
  const s = state({ playing: true, speed: 2 });
  const p = playback(s);
  assert.equal(p.advance(1000, true), false);
  assert.equal(s.time, 0, 'the first step only starts the clock');
  p.advance(1100, true);
  assert.ok(Math.abs(s.time - 0.2) < 1e-9, `0.1 s at 2x: ${s.time}`);
  p.advance(1150, true);
  assert.ok(Math.abs(s.time - 0.3) < 1e-9, `${s.time}`);
});

test('advance: a looping clip wraps round; paused, without a model or after restartClock the clock starts again', () => {
  const s = state({ playing: true, time: 0.9 });
  const p = playback(s);
  p.advance(0, true);
  p.advance(300, true);
  assert.ok(Math.abs(s.time - 0.2) < 1e-9, `0.9 + 0.3 wraps to 0.2 of a 1 s clip: ${s.time}`);
  assert.equal(s.playing, true);
  // No model shown: the time stays, and the clock starts again when one is.
  p.advance(400, false);
  p.advance(5000, true);
  assert.ok(Math.abs(s.time - 0.2) < 1e-9, `no jump by the time without a model: ${s.time}`);
  p.restartClock();
  p.advance(9000, true);
  assert.ok(Math.abs(s.time - 0.2) < 1e-9, `no jump after restartClock: ${s.time}`);
  s.playing = false;
  p.advance(9100, true);
  s.playing = true;
  p.advance(20000, true);
  assert.ok(Math.abs(s.time - 0.2) < 1e-9, `no jump after a pause: ${s.time}`);
});

test('advance: a clip that does not loop stops on its last frame, once, and Play starts it again', () => {
  const s = state({ clip: 1, loop: false, playing: true, time: 0.9 });
  const p = playback(s);
  p.advance(0, true);
  assert.equal(p.atEnd(), false);
  assert.equal(p.advance(200, true), true, 'the step that reaches the end says so');
  assert.equal(s.time, 1, 'held at the duration (5 frames at 5 fps)');
  assert.equal(s.playing, false);
  assert.equal(p.atEnd(), true);
  assert.equal(p.advance(300, true), false, 'said once');
  p.setPlaying(true);
  assert.equal(s.time, 0, 'play at the end plays again from the first frame');
  assert.equal(s.playing, true);
  // The loop toggle overrides the clip's flag: looping, it wraps instead.
  s.loop = true;
  s.time = 0.9;
  p.advance(1000, true);
  p.advance(1200, true);
  assert.ok(Math.abs(s.time - 0.1) < 1e-9, `${s.time}`);
  assert.equal(s.playing, true);
});

test('atClipEnd and steppedTime: the last frame of a clip that does not loop; stepping wraps both ways', () => {
  const die = clip('die', 5, 5, false);
  assert.equal(atClipEnd(die, 1, false), true);
  assert.equal(atClipEnd(die, 0.99, false), false);
  assert.equal(atClipEnd(die, 1, true), false, 'a looping clip never ends');
  assert.equal(atClipEnd(undefined, 5, false), false, 'the bind pose never ends');
  const walk = clip('walk', 10, 10, true);
  assert.ok(Math.abs(steppedTime(walk, 0.31, 1) - 0.4) < 1e-9, 'from the nearest frame (3) to the next');
  assert.ok(Math.abs(steppedTime(walk, 0.9, 1) - 0) < 1e-9, 'past the last frame to the first');
  assert.ok(Math.abs(steppedTime(walk, 0, -1) - 0.9) < 1e-9, 'before the first to the last');
  // A clip without a rate plays at the default one.
  const still = clip('still', 4, 0, true);
  assert.ok(Math.abs(steppedTime(still, 0, 2) - 2 / DEFAULT_FPS) < 1e-9);
});

test('step and scrub move the time by frames of the selected clip, and do nothing in the bind pose', () => {
  const s = state({ time: 0.5 });
  const p = playback(s);
  p.step(-2);
  assert.ok(Math.abs(s.time - 0.3) < 1e-9, `${s.time}`);
  p.scrub(7);
  assert.ok(Math.abs(s.time - 0.7) < 1e-9, `${s.time}`);
  s.clip = -1;
  s.time = 0.25;
  p.step(1);
  p.scrub(3);
  assert.equal(s.time, 0.25);
});

test('select: the clip from its first frame, looping as the clip says; find by name and first frame', () => {
  const s = state({ time: 0.7, loop: true });
  const p = playback(s);
  assert.equal(p.select(1)?.name, 'die');
  assert.deepEqual([s.clip, s.time, s.loop], [1, 0, false]);
  assert.equal(p.select(-1), undefined);
  assert.deepEqual([s.clip, s.loop], [-1, false], 'the bind pose keeps the loop setting');
  p.clips.push({ ...clip('walk', 4, 10, true), firstFrame: 10 });
  assert.equal(p.find('walk'), 0);
  assert.equal(p.find('walk', 10), 2);
  assert.equal(p.find('walk', 3), -1);
  assert.equal(p.find('run'), -1);
});

test('replaceClips keeps the selected clip by name, else selects the fallback (by name or index)', () => {
  const s = state({ clip: 1 });
  const p = playback(s);
  p.replaceClips([clip('TORSO_STAND', 1, 15, true), clip('die', 3, 15, false)], 'TORSO_STAND');
  assert.equal(s.clip, 1, 'die is still listed');
  p.replaceClips([clip('BOTH_DEATH1', 30, 15, false), clip('TORSO_STAND', 1, 15, true)], 'TORSO_STAND');
  assert.equal(s.clip, 1, 'die is gone: TORSO_STAND');
  p.replaceClips([clip('walk', 10, 10, true)], 0);
  assert.equal(s.clip, 0);
  assert.equal(p.clip?.name, 'walk');
  p.replaceClips([clip('run', 10, 10, true)], 'TORSO_STAND');
  assert.equal(s.clip, -1, 'no fallback of that name: the bind pose');
});

test('report: the clipState message only when the clips, the selected one, playing or the paused frame changed', () => {
  const s = state();
  const p = playback(s);
  assert.deepEqual(p.report(), { type: 'clipState', clips: ['walk', 'die'], clip: 'walk', playing: false, frame: 0 });
  assert.equal(p.report(), null);
  assert.ok(p.scrub(3));
  assert.deepEqual(p.report(), { type: 'clipState', clips: ['walk', 'die'], clip: 'walk', playing: false, frame: 3 });
  assert.ok(p.step(-4));
  assert.equal(p.report()?.frame, 9, 'a step back from frame 3 by 4 wraps round the 10 frames');
  s.playing = true;
  assert.deepEqual(p.report(), { type: 'clipState', clips: ['walk', 'die'], clip: 'walk', playing: true, frame: null });
  s.clip = -1;
  assert.equal(p.report()?.clip, null);
  p.clips = [clip('run', 2, 10, true)];
  assert.deepEqual(p.report()?.clips, ['run']);
  assert.equal(p.report(), null);
});

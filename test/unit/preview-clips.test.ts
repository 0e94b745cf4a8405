// The preview's listed clips and what the camera frames of them (media/load.ts viewClips,
// media/framing.ts): "(all frames)" plays at the model's own rate where it has one; a clip's box
// leaves out empty stored boxes and holds the vertices the preview keeps where they are; whether a
// box is in sight of a camera.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { viewClips } from '../../media/load';
import { boxInView, clipBounds } from '../../media/framing';
import { OrbitCamera } from '../../media/renderer/camera';
import { Scene } from '../../media/scene';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { smallIqmDocument } from '../helpers/model-writers';

const NO_SIDECARS = { framegroups: null, animationCfg: null, skins: [] };

/** The small IQM of the tests (clips idle and wave, 4 frames) with the given clip rates. */
function model(rates: [number, number]) {
  const doc = smallIqmDocument();
  doc.anims = doc.anims.map((a, i) => ({ ...a, framerate: rates[i] }));
  return readModel(writeIqmDocument(doc));
}

test('"(all frames)" plays at the rate every clip of the model names (an MD5 animation at 60 fps), else at the default', () => {
  const all = (rates: [number, number]) => viewClips(model(rates), 'm.iqm', NO_SIDECARS, []).find((c) => c.name === '(all frames)');
  assert.equal(all([60, 60])?.fps, 60);
  assert.equal(all([60, 0])?.fps, 60, 'a clip without a rate does not count');
  assert.equal(all([60, 24])?.fps, 0, 'clips that differ: no model rate (played at the default)');
  assert.equal(all([0, 0])?.fps, 0);
});

test('a clip\'s box leaves out stored boxes that are a point and holds the vertices no joint moves; none left: false', () => {
  const doc = smallIqmDocument();
  // Frame 0's box is a point (as the compiler writes when every weight is 0); frame 1's is real.
  doc.bounds = new Float32Array(doc.frameCount * 8);
  doc.bounds.set([-1, -2, -3, 1, 2, 3, 0, 0], 8);
  const scene = new Scene(readModel(writeIqmDocument(doc)));
  const out = new Float64Array(6);
  // The small model's fourth vertex has all weights 0: it is drawn at its bind position (0, 0, 1).
  assert.deepEqual(Array.from(scene.unweightedBox), [0, 0, 1, 0, 0, 1]);
  assert.equal(clipBounds(scene, { name: 'both', firstFrame: 0, frameCount: 2, fps: 10, loop: true, source: 'test' }, out), true);
  assert.deepEqual(Array.from(out), [-1, -2, -3, 1, 2, 3]);
  // Only empty boxes: the unweighted vertex alone is a point too, so the caller frames the bind pose.
  assert.equal(clipBounds(scene, { name: 'first', firstFrame: 0, frameCount: 1, fps: 10, loop: true, source: 'test' }, out), false);
  assert.ok(Array.from(scene.box).every(Number.isFinite) && scene.box[3] > scene.box[0]);
});

test('boxInView: a box in front of the camera is in sight; one far to its side or behind it is not', () => {
  const camera = new OrbitCamera();
  camera.fit([-1, -1, -1], [1, 1, 1], 'y', 1);
  camera.update(1);
  assert.equal(boxInView(camera.viewProj, [-1, -1, -1, 1, 1, 1]), true);
  assert.equal(boxInView(camera.viewProj, [-0.1, -0.1, -0.1, 100, 100, 100]), true, 'a box around the view');
  assert.equal(boxInView(camera.viewProj, [500, 500, 0, 502, 502, 2]), false);
  // Behind the camera: the eye is on the far side of the target from the box.
  const e = camera.eye;
  const away = [0, 1, 2].map((i) => e[i] + (e[i] - camera.target[i]) * 3);
  assert.equal(boxInView(camera.viewProj, [away[0] - 0.1, away[1] - 0.1, away[2] - 0.1, away[0] + 0.1, away[1] + 0.1, away[2] + 0.1]), false);
});

// The preview's per-frame renderer options (media/frameOptions.ts): the view state's switches, the
// light from the camera's side, and the background colour.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restoreViewState } from '../../core/viewState';
import { createFrameOptions, fillFrameOptions, setBackground } from '../../media/frameOptions';

function close(actual: ArrayLike<number>, expected: number[], what: string): void {
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) < 1e-6, `${what}: ${Array.from(actual)} vs ${expected}`);
}

test('the light comes from the camera, raised and turned a little, and is a unit vector', () => {
  const f = createFrameOptions();
  const s = restoreViewState(null);
  const viewProj = new Float32Array(16).map((_, i) => i);
  // The camera 5 units along +X of its target: (1, 0, 0) + (0.2, 0, 0.6), normalised.
  fillFrameOptions(f, s, viewProj, [6, 2, 3], [1, 2, 3]);
  const n = Math.hypot(1.2, 0, 0.6);
  close(f.lightDir, [1.2 / n, 0, 0.6 / n], 'light from +X');
  assert.deepEqual(Array.from(f.viewProj), Array.from(viewProj));
  // From below (-Z): the raise pulls it back towards the horizon, still a unit vector.
  fillFrameOptions(f, s, viewProj, [0, 0, -1], [0, 0, 0]);
  const m = Math.hypot(0.2, 0, -0.4);
  close(f.lightDir, [0.2 / m, 0, -0.4 / m], 'light from below');
  // The camera on its target (no direction): a fixed direction, not NaN.
  fillFrameOptions(f, s, viewProj, [1, 1, 1], [1, 1, 1]);
  assert.ok(Array.from(f.lightDir).every(Number.isFinite), `${Array.from(f.lightDir)}`);
  close([Math.hypot(f.lightDir[0], f.lightDir[1], f.lightDir[2])], [1], 'unit length');
});

test('the view state\'s switches reach the renderer (weights also mark unweighted vertices, winding flips)', () => {
  const f = createFrameOptions();
  const s = restoreViewState(null);
  s.cull = false;
  s.winding = 'flipped';
  s.textures = false;
  s.wireframe = true;
  s.normals = true;
  s.weights = true;
  s.colors = false;
  s.lit = false;
  s.selectedJoint = 7;
  fillFrameOptions(f, s, new Float32Array(16), [0, 0, 1], [0, 0, 0]);
  assert.deepEqual(
    [f.cull, f.flipWinding, f.textured, f.wireframe, f.normals, f.weights, f.highlightUnweighted, f.vertexColors, f.lit, f.selectedJoint],
    [false, true, false, true, true, true, true, false, false, 7],
  );
  s.winding = 'file';
  s.weights = false;
  fillFrameOptions(f, s, new Float32Array(16), [0, 0, 1], [0, 0, 0]);
  assert.deepEqual([f.flipWinding, f.weights, f.highlightUnweighted], [false, false, false]);
});

test('background: #rrggbb as the clear colour, and back to the default for the theme\'s', () => {
  const f = createFrameOptions();
  const initial = Array.from(f.clearColor);
  setBackground(f, '#ff8000');
  close(f.clearColor, [1, 128 / 255, 0, 1], '#ff8000');
  setBackground(f, '#0a141e');
  close(f.clearColor, [10 / 255, 20 / 255, 30 / 255, 1], '#0a141e');
  setBackground(f, '');
  assert.deepEqual(Array.from(f.clearColor), initial);
  // Each view has its own arrays: one view's background is not another's.
  const g = createFrameOptions();
  setBackground(f, '#ffffff');
  assert.deepEqual(Array.from(g.clearColor), initial);
});

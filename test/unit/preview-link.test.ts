// The messages of the click-to-line link and of comparisons (core/viewLink.ts; `picked` and
// `highlight` are protocol.ts's, tested with it): each checker takes what its side sends and
// refuses what is malformed (the host must not trust the webview).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLinkToHost, isLinkToWebview, matchingClip, type SharedView } from '../../core/viewLink';

const view: SharedView = { camera: { yaw: 1, pitch: 0.5, distance: 3, target: [0, 0, 1] as [number, number, number] }, clip: 0, clipName: 'idle', time: 0.25, playing: true };

test('link messages: what each side sends is accepted', () => {
  for (const m of [
    { type: 'viewChanged', view },
    { type: 'viewChanged', view: { ...view, camera: null } },
  ]) assert.ok(isLinkToHost(m), JSON.stringify(m));
  for (const m of [
    { type: 'pickedSource', triangle: 3, face: 20, vertices: [5, 6, -1] },
    { type: 'comparison', side: 'left', other: 'b.iqm', differences: [{ section: 'joints', message: 'joint 1' }], error: null, view: null },
    { type: 'comparison', side: 'right', other: 'a.iqm (HEAD)', differences: null, error: 'bad file', view },
    { type: 'comparisonEnded' },
    { type: 'syncView', view },
  ]) assert.ok(isLinkToWebview(m), JSON.stringify(m));
});

test('link messages: malformed ones are refused', () => {
  for (const m of [
    null,
    { type: 'picked' },
    { type: 'picked', pick: { mesh: 0, triangle: -1, vertices: [1, 2, 3] } },
    { type: 'picked', pick: { mesh: 0, triangle: 1, vertices: [1, 2] } },
    { type: 'picked', pick: { mesh: 0.5, triangle: 1, vertices: [1, 2, 3] } },
    { type: 'viewChanged', view: { ...view, time: Number.NaN } },
    { type: 'viewChanged', view: { ...view, camera: { ...view.camera, target: [0, 0] } } },
    { type: 'viewChanged' },
  ]) assert.equal(isLinkToHost(m), false, JSON.stringify(m));
  for (const m of [
    { type: 'pickedSource', triangle: 3, face: 20, vertices: [5, 6] },
    { type: 'comparison', side: 'middle', other: 'b', differences: null, error: null, view: null },
    { type: 'comparison', side: 'left', other: 'b', differences: [{}], error: null, view: null },
    { type: 'comparison', side: 'left', other: 'b', differences: null, error: null },
    { type: 'comparison', side: 'left', other: 'b', differences: null, error: null, view: { ...view, time: Number.NaN } },
    { type: 'syncView', view: { ...view, playing: 'yes' } },
  ]) assert.equal(isLinkToWebview(m), false, JSON.stringify(m));
});

test('synced clips: by name first, then by index, else the first', () => {
  assert.equal(matchingClip({ ...view, clip: 0, clipName: 'run' }, ['idle', 'walk', 'run']), 2);
  assert.equal(matchingClip({ ...view, clip: 1, clipName: 'gone' }, ['idle', 'walk']), 1);
  assert.equal(matchingClip({ ...view, clip: 5, clipName: 'gone' }, ['idle', 'walk']), 0);
  assert.equal(matchingClip({ ...view, clip: 1, clipName: '' }, ['idle', 'walk']), 1);
});

// What a newly loaded model is first shown with (media/firstView.ts): the selected clip kept in
// range and looping as the clip says, an animation-only file's skeleton playing a clip, a model
// whose surfaces are all nodraw shown by its skeleton and tags; a reload keeps the user's toggles.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeIqm } from '../../core/iqm/writer';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import { defaultViewState, type ViewState } from '../../core/viewState';
import { firstView } from '../../media/firstView';
import type { ViewClip } from '../../media/scene';
import { smallIqmDocument } from '../helpers/model-writers';

/** The small IQM of the tests: 2 meshes (3 triangles), 3 joints, clips idle (loops) and wave. */
function model(): Model {
  return readModel(writeIqm(smallIqmDocument()));
}

const CLIPS: ViewClip[] = [
  { name: 'idle', firstFrame: 0, frameCount: 2, fps: 10, loop: true, source: 'file' },
  { name: 'wave', firstFrame: 2, frameCount: 2, fps: 0, loop: false, source: 'file' },
];

/** The default view state with the tags off (the default has them on), so that switching them on shows. */
function state(over: Partial<ViewState> = {}): ViewState {
  return { ...defaultViewState(), tags: false, ...over };
}

test('a model with surfaces: the clip is kept in range and, on a first load, loops as the clip says', () => {
  const m = model();
  const s = state({ clip: 1, loop: true });
  const notes: string[] = [];
  firstView(m, 3, CLIPS, false, s, notes);
  assert.deepEqual([s.clip, s.loop, s.skeleton, s.tags], [1, false, false, false]);
  assert.deepEqual(notes, []);
  const out = state({ clip: 7, loop: false });
  firstView(m, 3, CLIPS, false, out, notes);
  assert.deepEqual([out.clip, out.loop], [0, true], 'a clip past the list: the first');
  const none = state({ clip: 0 });
  firstView(m, 3, [], false, none, notes);
  assert.equal(none.clip, -1, 'no clips: the bind pose');
  // A reload (the same file changed on disk) keeps the user's loop toggle.
  const reload = state({ clip: 1, loop: true });
  firstView(m, 3, CLIPS, true, reload, notes);
  assert.equal(reload.loop, true);
});

test('an animation-only file shows its skeleton playing its first clip, not the bind pose at the origin', () => {
  const m = model();
  m.meshes = [];
  const s = state({ clip: -1 });
  const notes: string[] = [];
  firstView(m, 3, CLIPS, false, s, notes);
  assert.deepEqual([s.clip, s.skeleton, s.loop], [0, true, true]);
  assert.deepEqual(notes, ['animation-only file: no meshes to draw (the skeleton overlay shows the poses)']);
  // Reloaded with the skeleton switched off by the user: it stays off, the clip still plays.
  const reload = state({ clip: -1, skeleton: false });
  firstView(m, 3, CLIPS, true, reload, []);
  assert.deepEqual([reload.clip, reload.skeleton], [0, false]);
  // Neither meshes nor animation: said, nothing switched on.
  const empty = model();
  empty.meshes = [];
  empty.animation = null;
  const e = state({ clip: -1 });
  const emptyNotes: string[] = [];
  firstView(empty, 3, [], false, e, emptyNotes);
  assert.deepEqual([e.clip, e.skeleton], [-1, false]);
  assert.deepEqual(emptyNotes, ['the file has no meshes']);
});

test('surfaces that are all nodraw: the skeleton (where there are joints) and the tags show the model', () => {
  const m = model();
  m.meshes = m.meshes.map((mesh) => ({ ...mesh, material: 'textures/common/nodraw' }));
  const s = state();
  const notes: string[] = [];
  firstView(m, 3, CLIPS, false, s, notes);
  assert.equal(s.skeleton, true);
  assert.equal(s.tags, false, 'the IQM has no tags');
  assert.deepEqual(notes, ['no surface is drawn (nodraw or no triangles): the skeleton and tags show the model']);
  const tagged = { ...m, tags: { names: ['tag_head'], frames: new Float32Array(12) } } as unknown as Model;
  const t = state();
  firstView(tagged, 0, CLIPS, false, t, []);
  assert.deepEqual([t.skeleton, t.tags], [false, true], 'no joints: no skeleton, the tags');
  // One surface drawn: nothing said or switched on.
  const some = model();
  some.meshes = some.meshes.map((mesh, i) => (i === 0 ? { ...mesh, shaders: ['nodraw'] } : mesh));
  const d = state();
  const few: string[] = [];
  firstView(some, 3, CLIPS, false, d, few);
  assert.deepEqual([d.skeleton, few], [false, []]);
  // A reload keeps the user's toggles but still says why nothing is drawn.
  const r = state();
  const again: string[] = [];
  firstView(m, 3, CLIPS, true, r, again);
  assert.deepEqual([r.skeleton, again.length], [false, 1]);
});

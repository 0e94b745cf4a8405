// What a newly loaded model is first shown with where the file alone would show little: an
// animation-only file shows its skeleton playing a clip (its bind pose is every joint at the
// origin), a model whose surfaces are all hidden shows its skeleton and tags. The selected clip is
// kept in range and, on a first load, loops as the clip says; a reload keeps the user's toggles.
// Notes for the info panel say why.

import type { Model } from '../core/model/model';
import type { ViewState } from '../core/viewState';
import type { ViewClip } from './scene';
import { isNodrawMesh } from './textures';

/** Adjusts the view state `s` for `model` (with `jointCount` joints and `clips` listed); a `reload` is the same file again. */
export function firstView(model: Model, jointCount: number, clips: readonly ViewClip[], reload: boolean, s: ViewState, notes: string[]): void {
  if (model.meshes.length === 0) {
    notes.push(model.animation ? 'animation-only file: no meshes to draw (the skeleton overlay shows the poses)' : 'the file has no meshes');
    if (model.animation && !reload) s.skeleton = true;
    if (model.animation && s.clip < 0) s.clip = 0;
  }
  if (s.clip >= clips.length) s.clip = clips.length ? 0 : -1;
  const clip = clips[s.clip];
  if (!reload && clip) s.loop = clip.loop;
  let drawn = 0;
  for (const m of model.meshes) if (!isNodrawMesh(m)) drawn += m.triangleCount;
  if (model.meshes.length > 0 && drawn === 0) {
    // Nothing to draw (nodraw surfaces, no triangles): the skeleton and tags show what the file holds.
    notes.push('no surface is drawn (nodraw or no triangles): the skeleton and tags show the model');
    if (!reload) {
      if (jointCount > 0) s.skeleton = true;
      if (model.tags) s.tags = true;
    }
  }
}

// The semantic differences of two previews' models, for any host (the VS Code comparisons,
// client/compare/comparisons.ts; the Compare of `iqm-tools view`): each side's model as its preview plays it, or
// why a side has none. No vscode here.
import { diffModels, type Difference } from '../compare/diff';
import { readModel } from '../formats/models';
import { playedModel } from '../lookup/clips';
import type { Model } from '../model/model';
import type { Sidecars } from '../protocol';

/** One side as its preview last loaded it. */
export interface ComparedSide {
  /** For display. */
  name: string;
  /** The file's name (a sidecar's clips are matched by it). */
  fileName: string;
  /** The model as last loaded (an IQE's: the IQM compiled from it), or null. */
  model: Uint8Array | null;
  /** The sidecars that load used (they decide the clips the preview plays), or null. */
  sidecars: Sidecars | null;
  /** Why the last load drew no model, or null. */
  problem: string | null;
}

/** The differences (the left file is the first of `iqm-tools diff`), null while a side has not loaded; or why there are none. */
export function comparisonResult(left: ComparedSide, right: ComparedSide): { differences: Difference[] | null; error: string | null } {
  const missing = !left.model && left.problem !== null ? left : !right.model && right.problem !== null ? right : null;
  if (missing) return { differences: null, error: `${missing.name} has no model to compare: ${missing.problem}` };
  if (!left.model || !right.model) return { differences: null, error: null };
  try {
    return { differences: diffModels(drawnModel(left, left.model), drawnModel(right, right.model)), error: null };
  } catch (e) {
    return { differences: null, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A side's model as its preview plays it: the clips of its sidecars (core/lookup/clips.ts), so a
 * DPM with its .framegroups and the IQE converted from it compare by the same clips.
 */
function drawnModel(side: ComparedSide, bytes: Uint8Array): Model {
  const model = readModel(bytes);
  return side.sidecars ? playedModel(model, side.fileName, side.sidecars) : model;
}

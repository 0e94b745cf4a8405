// Applying sidecar files to a Model. The caller (extension host, CLI) finds and reads the files;
// core only parses text. Which file wins and how its ranges apply is precedence.ts's; a
// .framegroups's ranges are clamped by its parser, as DarkPlaces does.

import type { Model } from '../model/model';
import { parseFramegroups } from './framegroups';

/** Replaces model.clips with the groups of a .framegroups text; returns the parser's warnings. */
export function applyFramegroups(model: Model, text: string): string[] {
  const { clips, warnings } = parseFramegroups(text, model.frameCount);
  model.clips = clips;
  return warnings;
}

// The one clip order: which file decides a model's clips and how (the preview, `convert` and the
// editor's Convert to IQE, `info`, Compare with… and the player assembly all ask here). What the
// engines do:
//
// - A Quake 3 player part (head/upper/lower.md3) takes its clips from animation.cfg (ioq3
//   cg_players.c), also where a .framegroups lies beside it: the player code never reads one.
//   upper.md3 plays BOTH_* and TORSO_*, lower.md3 BOTH_* and LEGS_* (LEGS_* frames already moved
//   back by the legs offset, core/sidecar/animcfg.ts); the head is not animated. A clip whose frames
//   run past the part's frames is kept to the frames there are (ioq3 draws a missing frame as frame
//   0 and says so only in developer mode), with a warning; one that starts past them is left out.
// - Any other model: `<model file>.framegroups` (DarkPlaces, any format) replaces the model's clips;
//   its ranges are clamped to the model's frames by the parser (framegroups.ts), as DarkPlaces does.
// - Else animation.cfg for an MD3 of another name, by the same range rule (all parts' clips).
// - Else the model's own clips (a DPM's: one a frame, as DarkPlaces plays a DPM without
//   .framegroups; FORMAT-PITFALLS §9).

import type { FileAccess } from '../files';
import type { Clip, Model } from '../model/model';
import { fileNameOf } from '../paths';
import type { Sidecars } from './sidecars';
import { animCfgParts, parseAnimCfg } from '../sidecar/animcfg';
import { parseFramegroups } from '../sidecar/framegroups';
import type { NamedText } from './folders';
import { playerPart } from './player';
import { findSidecars } from './sidecars';

/** A clip and the file it comes from (a sidecar's name, or the model's format). */
export type SourcedClip = Clip & { source: string };

/** Where a model's clips can come from. */
export interface ClipSidecars {
  framegroups: NamedText | null;
  animationCfg: NamedText | null;
}

export interface ModelClips {
  clips: SourcedClip[];
  /** Which file decided: '.framegroups', 'animation.cfg' or 'model'. */
  from: 'framegroups' | 'animation.cfg' | 'model';
  /** The sidecar's file name when one decided, else null. */
  file: string | null;
  /** Problems with the sidecar, prefixed with its file name. */
  warnings: string[];
}

/** The clips engines play for `model` (opened as `fileName`), by the rules above. */
export function modelClips(model: Model, fileName: string, sidecars: ClipSidecars): ModelClips {
  const part = model.format === 'md3' ? playerPart(fileNameOf(fileName)) : null;
  const cfg = sidecars.animationCfg;
  const fg = sidecars.framegroups;
  let found: ModelClips | null = null;
  if (cfg && part) found = { ...animCfgClips(model, cfg, part), from: 'animation.cfg', file: cfg.name };
  else if (fg) found = { ...framegroupsClips(model, fg), from: 'framegroups', file: fg.name };
  else if (cfg && model.format === 'md3') found = { ...animCfgClips(model, cfg, 'any'), from: 'animation.cfg', file: cfg.name };
  // A sidecar that gives no clip leaves the model's own (DarkPlaces: "no scene found in framegroups file").
  if (found && found.clips.length > 0) return found;
  return { clips: model.clips.map((c) => ({ ...c, source: model.format.toUpperCase() })), from: 'model', file: null, warnings: found ? found.warnings : [] };
}

/** A .framegroups text's clips over the model's frames (ranges clamped by the parser). */
export function framegroupsClips(model: Model, file: NamedText): { clips: SourcedClip[]; warnings: string[] } {
  const fg = parseFramegroups(file.text, model.frameCount);
  return { clips: fg.clips.map((c) => ({ ...c, source: file.name })), warnings: fg.warnings.map((w) => `${file.name}: ${w}`) };
}

/** Every clip of an animation.cfg in file order, with the player parts each plays on (the player assembly's clips). */
export function playerClips(file: NamedText): (SourcedClip & { parts: ('lower' | 'upper')[] })[] {
  return parseAnimCfg(file.text).clips.map((c) => ({ ...c, source: file.name, parts: animCfgParts(c.name) }));
}

/**
 * An animation.cfg's clips for one player part ('any': every clip, for an MD3 not named as a part):
 * the part's own animations, cut to the frames the model has.
 */
export function animCfgClips(model: Model, file: NamedText, part: 'head' | 'upper' | 'lower' | 'any'): { clips: SourcedClip[]; warnings: string[] } {
  const cfg = parseAnimCfg(file.text);
  const warnings = cfg.warnings.map((w) => `${file.name}: ${w}`);
  const clips: SourcedClip[] = [];
  if (part === 'head') return { clips, warnings };
  const frames = model.frameCount;
  for (const c of cfg.clips) {
    if (part !== 'any' && !animCfgParts(c.name).includes(part)) continue;
    const last = c.firstFrame + c.frameCount - 1;
    if (c.firstFrame < 0 || c.firstFrame >= frames) {
      warnings.push(`${file.name}: ${c.name} starts at frame ${c.firstFrame}, past the model's ${frames} frames; left out`);
      continue;
    }
    if (last >= frames) {
      warnings.push(`${file.name}: ${c.name} runs to frame ${last}, past the model's ${frames} frames; the engine draws frame 0 there, the preview stops at frame ${frames - 1}`);
    }
    clips.push({ ...c, frameCount: Math.min(c.frameCount, frames - c.firstFrame), source: file.name });
  }
  return { clips, warnings };
}

/** The clips of the model at `modelPath` with the sidecars beside it (found as the preview finds them). */
export async function clipsBeside(files: FileAccess, modelPath: string, model: Model): Promise<ModelClips & { sidecars: Sidecars }> {
  const sidecars = await findSidecars(files, modelPath, model.format === 'md3');
  return { ...modelClips(model, modelPath, sidecars), sidecars };
}

/** The model with `clips` as its animations (what a conversion writes and a comparison compares). */
export function withClips(model: Model, found: ModelClips): Model {
  if (found.from === 'model') return model;
  return { ...model, clips: found.clips.map(({ source: _source, ...clip }) => clip) };
}

/**
 * A model as its preview plays it: the clips of the sidecars its preview loaded (Compare with… of a
 * DPM and the IQE converted from it compares both by the clips their previews list).
 */
export function playedModel(model: Model, fileName: string, sidecars: ClipSidecars): Model {
  return withClips(model, modelClips(model, fileName, sidecars));
}

// Which sidecar file decides a model's clips and textures, and how: the one place for these rules
// (the preview, the converter and the checks all ask here). What the engines do:
//
// Clips
// - A Quake 3 player part (head/upper/lower.md3) takes its clips from animation.cfg (ioq3
//   cg_players.c), also where a .framegroups lies beside it: the player code never reads one.
//   upper.md3 plays BOTH_* and TORSO_*, lower.md3 BOTH_* and LEGS_* (LEGS_* frames already moved
//   back by the legs offset, animcfg.ts); the head is not animated. A clip whose frames run past
//   the part's frames is kept to the frames there are (ioq3 draws a missing frame as frame 0 and
//   says so only in developer mode), with a warning; one that starts past them is left out.
// - Any other model: `<model file>.framegroups` (DarkPlaces, any format) replaces the model's clips;
//   its ranges are clamped to the model's frames by the parser (framegroups.ts), as DarkPlaces does.
// - Else animation.cfg for an MD3 of another name, by the same range rule (all parts' clips).
// - Else the model's own clips.
//
// Textures, per mesh, first found wins
// - The .skin entry for the mesh's name (ioq3 lower-cases both; DarkPlaces compares the names too,
//   and gives a DPM mesh its shader's name, so it matches there as well). Never by the material's
//   name: neither engine looks a skin up that way.
// - The material name (IQM, IQE, DPM; an MD3 surface's first shader: skin number 0 takes it).
// - The surface's other shader names (MD3 surfaces may list several).
// - FTE_SKINS: the first skin's first frame.
// Each name is then looked up as a Q3 shader first, then as an image (the host's resolve.ts).

import type { Clip, Model } from '../model/model';
import { parseAnimCfg } from './animcfg';
import { parseFramegroups } from './framegroups';
import { parseSkin, skinTexture, type SkinFile } from './skin';

/** A sidecar text as the host found it (its file name, no folder). */
export interface NamedText {
  name: string;
  text: string;
}

/** Where a model's clips can come from. */
export interface ClipSidecars {
  framegroups: NamedText | null;
  animationCfg: NamedText | null;
}

export interface ModelClips {
  clips: (Clip & { source: string })[];
  /** Which file decided: '.framegroups', 'animation.cfg' or 'model'. */
  from: 'framegroups' | 'animation.cfg' | 'model';
  /** Problems with the sidecar, prefixed with its file name. */
  warnings: string[];
}

/** The Quake 3 player part a file name stands for, or null. */
export function playerPart(fileName: string): 'head' | 'upper' | 'lower' | null {
  const m = /^(head|upper|lower)\.md3$/i.exec(fileName);
  return m ? (m[1].toLowerCase() as 'head' | 'upper' | 'lower') : null;
}

/** The player parts that play an animation.cfg animation: BOTH_* both, TORSO_* the torso, LEGS_* the legs. */
export function animationParts(name: string): ('upper' | 'lower')[] {
  return name.startsWith('BOTH_') ? ['lower', 'upper'] : name.startsWith('TORSO_') ? ['upper'] : ['lower'];
}

/** The clips engines play for `model` (opened as `fileName`), by the rules above. */
export function modelClips(model: Model, fileName: string, sidecars: ClipSidecars): ModelClips {
  const part = model.format === 'md3' ? playerPart(fileName) : null;
  const cfg = sidecars.animationCfg;
  let found: ModelClips | null = null;
  if (cfg && part) found = { ...animCfgClips(model, cfg, part), from: 'animation.cfg' };
  else if (sidecars.framegroups) found = { ...framegroupsClips(model, sidecars.framegroups), from: 'framegroups' };
  else if (cfg && model.format === 'md3') found = { ...animCfgClips(model, cfg, 'any'), from: 'animation.cfg' };
  // A sidecar that gives no clip leaves the model's own (DarkPlaces: "no scene found in framegroups file").
  if (found && found.clips.length > 0) return found;
  return { clips: model.clips.map((c) => ({ ...c, source: model.format.toUpperCase() })), from: 'model', warnings: found ? found.warnings : [] };
}

/** A .framegroups text's clips over the model's frames (ranges clamped by the parser). */
export function framegroupsClips(model: Model, file: NamedText): { clips: (Clip & { source: string })[]; warnings: string[] } {
  const fg = parseFramegroups(file.text, model.frameCount);
  return { clips: fg.clips.map((c) => ({ ...c, source: file.name })), warnings: fg.warnings.map((w) => `${file.name}: ${w}`) };
}

/**
 * An animation.cfg's clips for one player part ('any': every clip, for an MD3 not named as a part):
 * the part's own animations, cut to the frames the model has.
 */
export function animCfgClips(model: Model, file: NamedText, part: 'head' | 'upper' | 'lower' | 'any'): { clips: (Clip & { source: string })[]; warnings: string[] } {
  const cfg = parseAnimCfg(file.text);
  const warnings = cfg.warnings.map((w) => `${file.name}: ${w}`);
  const clips: (Clip & { source: string })[] = [];
  if (part === 'head') return { clips, warnings };
  const frames = model.frameCount;
  for (const c of cfg.clips) {
    if (part !== 'any' && !animationParts(c.name).includes(part)) continue;
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

export interface SkinChoice {
  skin: SkinFile;
  name: string;
}

/**
 * The skin a model is drawn with: the one chosen by name (when it names one of the model's
 * surfaces), else the first, in the engines' order (the host's findSidecars), that does.
 */
export function chooseSkin(model: Model, skins: readonly NamedText[], preferred = ''): SkinChoice | null {
  const ordered = preferred ? [...skins.filter((s) => s.name === preferred), ...skins] : skins;
  for (const s of ordered) {
    const skin = parseSkin(s.text);
    if (model.meshes.some((m) => skinTexture(skin, m.name) !== undefined)) return { skin, name: s.name };
  }
  return null;
}

export type TextureNameSource = 'skin' | 'surface' | 'material' | 'fte-skin';

/** The names to try for a mesh's texture, in the engines' order, without duplicates or empty names. */
export function textureCandidates(model: Model, meshIndex: number, skin: SkinFile | null): { name: string; source: TextureNameSource }[] {
  const mesh = model.meshes[meshIndex];
  const out: { name: string; source: TextureNameSource }[] = [];
  const add = (n: string | undefined, source: TextureNameSource) => {
    const t = n?.trim();
    if (t && !out.some((o) => o.name === t)) out.push({ name: t, source });
  };
  if (skin) add(skinTexture(skin, mesh.name), 'skin');
  // An MD3 surface's material is its first shader (skin number 0); the others follow it.
  add(mesh.material, 'material');
  for (const s of mesh.shaders) add(s, 'surface');
  add(model.iqm?.fteSkins?.meshes[meshIndex]?.skins[0]?.frames[0]?.texture, 'fte-skin');
  return out;
}

/** Just the names of textureCandidates (what the preview asks the host to look up). */
export function textureNames(model: Model, meshIndex: number, skin: SkinFile | null): string[] {
  return textureCandidates(model, meshIndex, skin).map((c) => c.name);
}

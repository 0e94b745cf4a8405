// Bytes -> Model for the webview: sniffed by magic bytes (never the extension). IQE text and the
// other compile sources (MD5, SMD, OBJ, glTF) arrive compiled: the extension host compiles them in
// its compile worker and posts the IQM, so the preview shows exactly what the compiler writes (and
// the compiler is not in the webview's bundle). Sidecars (.framegroups, animation.cfg, .skin) are parsed
// here too.

import { FormatError } from '../core/binary';
import { readModel } from '../core/model/read';
import type { Model } from '../core/model/model';
import type { CompiledFrom, ConvertedFrom, Sidecars } from '../core/protocol';
import { parseAnimCfg } from '../core/sidecar/animcfg';
import { parseFramegroups } from '../core/sidecar/framegroups';
import { parseSkin, skinTexture, type SkinFile } from '../core/sidecar/skin';
import { extensionWarning, sniff } from '../core/sniff';
import type { ViewClip } from './scene';

export interface Loaded {
  model: Model;
  /** Notes about how the file was read (mislabeled extension, IQE compiled, sidecars used). */
  notes: string[];
}

export class LoadError extends Error {
  constructor(
    message: string,
    readonly offset: number | null,
  ) {
    super(message);
  }
}

/**
 * The model in `bytes`. IQE text arrives compiled by the host (`compiled` says from which text), and
 * so do the other compile sources, MD5, SMD, OBJ and glTF (`converted` says how): the compiler
 * never runs here.
 */
export function loadModelBytes(bytes: Uint8Array, fileName: string, compiled: CompiledFrom | null = null, converted: ConvertedFrom | null = null): Loaded {
  const notes: string[] = [];
  const s = sniff(bytes);
  try {
    if (s.format === 'iqe') throw new LoadError('IQE text reached the preview uncompiled (the extension compiles it first)', 0);
    if (compiled) {
      notes.push(`compiled from the IQE text (${compiled.version === null ? 'the file on disk' : `editor version ${compiled.version}${compiled.unsaved ? ', unsaved' : ''}`}) in ${Math.round(compiled.milliseconds)} ms`);
      return { model: readModel(bytes), notes };
    }
    if (converted) {
      notes.push(`${fileName} (${converted.format}) compiled to IQM for the preview in ${Math.round(converted.milliseconds)} ms`);
      if (converted.animations.length > 0) notes.push(`with the animation files beside it: ${converted.animations.join(', ')}`);
      notes.push(...converted.notes);
      return { model: readModel(bytes), notes };
    }
    const model = readModel(bytes);
    if (s.format === 'iqm' || s.format === 'md3' || s.format === 'dpm') {
      const w = extensionWarning(fileName, s.format);
      if (w) notes.push(w);
    }
    return { model, notes };
  } catch (e) {
    if (e instanceof LoadError) throw e;
    if (e instanceof FormatError) throw new LoadError(e.message, e.offset);
    throw new LoadError(e instanceof Error ? e.message : String(e), null);
  }
}

/** The clips the viewer lists: .framegroups (any format) > animation.cfg (MD3) > the model's own. */
export function viewClips(model: Model, sidecars: Sidecars, notes: string[]): ViewClip[] {
  let clips: ViewClip[] = [];
  // A Quake 3 player part names its clips in animation.cfg (BOTH_DEATH1, TORSO_GESTURE, ...), also
  // where a .framegroups sits beside it; other models take .framegroups first.
  const cfgFirst = model.format === 'md3' && sidecars.animationCfg !== null && /^(head|upper|lower)\.md3$/i.test(fileNameOf(sidecars));
  if (sidecars.framegroups && !cfgFirst) {
    const fg = parseFramegroups(sidecars.framegroups.text, model.frameCount);
    clips = fg.clips.map((c) => ({ ...c, source: sidecars.framegroups?.name ?? '.framegroups' }));
    for (const w of fg.warnings) notes.push(`${sidecars.framegroups.name}: ${w}`);
    notes.push(`clips from ${sidecars.framegroups.name}`);
  } else if (sidecars.animationCfg && model.format === 'md3') {
    const cfg = parseAnimCfg(sidecars.animationCfg.text);
    // Keep the clips this part has frames for (BOTH_* and TORSO_* in upper, BOTH_* and LEGS_* in lower).
    clips = cfg.clips
      .filter((c) => c.firstFrame >= 0 && c.firstFrame < model.frameCount)
      .map((c) => ({ ...c, frameCount: Math.min(c.frameCount, Math.max(1, model.frameCount - c.firstFrame)), source: 'animation.cfg' }));
    for (const w of cfg.warnings) notes.push(`animation.cfg: ${w}`);
  }
  if (clips.length === 0) clips = model.clips.map((c) => ({ ...c, source: model.format.toUpperCase() }));
  const perFrame = model.format === 'dpm' && !sidecars.framegroups;
  if (model.frameCount > 1) {
    const all: ViewClip = { name: '(all frames)', firstFrame: 0, frameCount: model.frameCount, fps: 0, loop: true, source: 'viewer' };
    // DPM without .framegroups: DarkPlaces makes every frame its own clip; "all frames" is more useful first.
    if (perFrame || model.clips.length === 0) clips.unshift(all);
    else clips.push(all);
  }
  return clips;
}

export interface SkinChoice {
  skin: SkinFile;
  name: string;
}

/** The first skin file that names any of the model's surfaces (engines' order, decided by the host). */
export function chooseSkin(model: Model, sidecars: Sidecars, preferred = ''): SkinChoice | null {
  // The skin the user chose, when it names one of the model's surfaces; else the engines' order.
  const ordered = preferred ? [...sidecars.skins.filter((s) => s.name === preferred), ...sidecars.skins] : sidecars.skins;
  for (const s of ordered) {
    const skin = parseSkin(s.text);
    if (model.meshes.some((m) => skinTexture(skin, m.name) !== undefined)) return { skin, name: s.name };
  }
  return null;
}

/** Names to try for a mesh's texture, in order, without duplicates or empty names. */
export function textureNames(model: Model, meshIndex: number, skin: SkinChoice | null): string[] {
  const mesh = model.meshes[meshIndex];
  const names: string[] = [];
  const add = (n: string | undefined) => {
    if (n && n.trim() && !names.includes(n.trim())) names.push(n.trim());
  };
  if (skin) add(skinTexture(skin.skin, mesh.name));
  for (const s of mesh.shaders) add(s);
  add(mesh.material);
  // FTE_SKINS: the first skin's first frame.
  const fte = model.iqm?.fteSkins?.meshes[meshIndex]?.skins[0]?.frames[0]?.texture;
  add(fte);
  return names;
}

/** The model file a sidecar set belongs to, from its framegroups name (`upper.md3.framegroups`), or ''. */
function fileNameOf(sidecars: Sidecars): string {
  return sidecars.framegroups ? sidecars.framegroups.name.replace(/\.framegroups$/i, '') : '';
}

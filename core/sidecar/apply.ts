// Applying sidecar files to a Model. The caller (extension host, CLI) finds and reads the files;
// core only parses text. DarkPlaces replaces a model's animations with `<model>.framegroups` for
// any format; Quake 3 players take their clips from animation.cfg.

import type { Model } from '../model/model';
import type { AnimCfg } from './animcfg';
import { parseFramegroups } from './framegroups';
import type { ShaderInfo } from './shader';
import { skinTexture, type SkinFile } from './skin';

/** Replaces model.clips with the groups of a .framegroups text; returns the parser's warnings. */
export function applyFramegroups(model: Model, text: string): string[] {
  const { clips, warnings } = parseFramegroups(text, model.frameCount);
  model.clips = clips;
  return warnings;
}

/**
 * Clips from an animation.cfg for one part of a Quake 3 player (BOTH_* for both, TORSO_* for
 * `upper`, LEGS_* for `lower`); clips past the model's frames are dropped with a warning.
 */
export function applyAnimCfg(model: Model, cfg: AnimCfg, part: 'upper' | 'lower' | 'any' = 'any'): string[] {
  const warnings: string[] = [];
  model.clips = cfg.clips.filter((c) => {
    if (part === 'upper' && c.name.startsWith('LEGS_')) return false;
    if (part === 'lower' && c.name.startsWith('TORSO_')) return false;
    if (c.firstFrame < 0 || c.firstFrame + c.frameCount > model.frameCount) {
      warnings.push(`${c.name}: frames ${c.firstFrame}..${c.firstFrame + c.frameCount - 1} are outside the model's ${model.frameCount} frames`);
      return false;
    }
    return true;
  });
  return warnings;
}

export interface MeshTexture {
  /** The image path to look up (without guessing an extension), or undefined. */
  image?: string;
  /** Where it came from. */
  source: 'skin' | 'shader' | 'material' | 'none';
  shader?: ShaderInfo;
}

/**
 * The texture of each mesh: a .skin entry for the mesh (matched by name, case-insensitively, then
 * by its material/shader name, as DarkPlaces does for DPM `shader0`), else the material; a Quake 3
 * shader of that name supplies its first stage's image.
 */
export function meshTextures(model: Model, skin?: SkinFile, shaders: ShaderInfo[] = []): MeshTexture[] {
  const byName = new Map(shaders.map((s) => [s.name.toLowerCase(), s]));
  const stripExt = (p: string) => p.replace(/\.(tga|jpg|jpeg|png)$/i, '').toLowerCase();
  return model.meshes.map((mesh) => {
    let name: string | undefined;
    let source: MeshTexture['source'] = 'none';
    if (skin) {
      name = skinTexture(skin, mesh.name) ?? skinTexture(skin, mesh.material);
      if (name !== undefined) source = 'skin';
    }
    if (name === undefined && mesh.material) {
      name = mesh.material;
      source = 'material';
    }
    if (name === undefined) return { source: 'none' };
    const shader = byName.get(name.toLowerCase()) ?? byName.get(stripExt(name));
    if (shader) return { image: shader.image ?? name, source: shader.image ? 'shader' : source, shader };
    return { image: name, source };
  });
}

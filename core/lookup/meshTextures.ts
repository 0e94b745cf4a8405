// Which names a mesh's texture is looked up by, in the engines' order, and which skin file a
// model is drawn with. Each name is then looked up as a shader, then as an image (textures.ts).
//
// Per mesh, first found wins:
// - The .skin entry for the mesh's name (ioq3 lower-cases both; DarkPlaces compares the names too,
//   and gives a DPM mesh its shader's name, so it matches there as well). Never by the material's
//   name: neither engine looks a skin up that way.
// - The material name (IQM, IQE, DPM; an MD3 surface's first shader: skin number 0 takes it).
// - The surface's other shader names (MD3 surfaces may list several).
// - FTE_SKINS: the first skin's first frame.

import type { Model } from '../model/model';
import { parseSkin, skinTexture, type SkinFile } from '../sidecar/skin';
import type { NamedText } from './folders';

export interface SkinChoice {
  skin: SkinFile;
  name: string;
}

/**
 * The skin a model is drawn with: the one chosen by name (when it names one of the model's
 * surfaces), else the first, in the engines' order (findSidecars), that does.
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
export function meshTextureNames(model: Model, meshIndex: number, skin: SkinFile | null): { name: string; source: TextureNameSource }[] {
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

/** Just the names of meshTextureNames (what the preview asks the host to look up). */
export function textureNames(model: Model, meshIndex: number, skin: SkinFile | null): string[] {
  return meshTextureNames(model, meshIndex, skin).map((c) => c.name);
}

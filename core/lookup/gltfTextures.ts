// The images a glTF export carries: each material's texture found as the preview finds it (the
// skin beside the model, then the mesh's names as shaders and images, textures.ts), as PNG or JPEG
// (glTF takes no other): a TGA decoded and encoded as PNG with the host's deflate; a PNG or JPEG
// as it is. Alpha as the preview draws it: a shader's alphaFunc is a mask (GT0 at 1/255, GE128
// and LT128 at 0.5), its blendFunc blend a blend; any other image is opaque.
import type { FileAccess } from '../files';
import type { GltfMaterialOut } from '../gltf/writer';
import { encodePng, type Deflate } from '../image/png';
import { decodeTga } from '../image/tga';
import type { Model } from '../model/model';
import { fileNameOf, folderOf } from '../paths';
import { chooseSkin, textureNames } from './meshTextures';
import { findSidecars } from './sidecars';
import { meshTexture, textureLookup, type MeshTexture } from './textures';

/** The alpha threshold of a Quake 3 alphaFunc, as the preview tests it; undefined: none. */
function alphaCutoff(func: string | null): number | undefined {
  switch (func?.toUpperCase()) {
    case 'GT0':
      return 1 / 255;
    case 'GE128':
    case 'LT128':
      return 0.5;
    default:
      return undefined;
  }
}

/**
 * Per entry of model.materials: its image (PNG or JPEG bytes) and alpha, or null where no image is
 * found; warnings say what was not found or not carried. `extensions`: the engine's image
 * extensions (core/engines/textures.ts).
 */
export async function gltfMaterials(model: Model, files: FileAccess, modelPath: string, extensions: readonly string[], deflate: Deflate): Promise<{ materials: (GltfMaterialOut | null)[]; warnings: string[] }> {
  const warnings: string[] = [];
  const sidecars = await findSidecars(files, modelPath, model.format === 'md3');
  const choice = chooseSkin(model, sidecars.skins);
  const skin = choice ? choice.skin : null;
  const lookup = textureLookup(files, folderOf(modelPath), extensions);
  const materials: (GltfMaterialOut | null)[] = model.materials.map(() => null);
  const encoded = new Map<string, Promise<GltfMaterialOut['image'] | string>>();
  for (const [i, mesh] of model.meshes.entries()) {
    if (materials[mesh.materialIndex] !== null) continue;
    const names = textureNames(model, i, skin);
    if (names.length === 0) continue;
    const found: MeshTexture = await meshTexture(lookup, names, choice?.name ?? null);
    if (found.path === null) {
      warnings.push(`mesh ${i} "${mesh.name}": no texture found for ${names.map((n) => `"${n}"`).join(', ')}; its material has no image`);
      continue;
    }
    const path = found.path;
    let image = encoded.get(path);
    if (!image) encoded.set(path, (image = imageOut(files, path, deflate)));
    const result = await image;
    if (typeof result === 'string') {
      warnings.push(`mesh ${i} "${mesh.name}": ${fileNameOf(path)}: ${result}; its material has no image`);
      continue;
    }
    const cutoff = alphaCutoff(found.alphaTest);
    if (found.blend && found.blend !== 'blend') warnings.push(`mesh ${i} "${mesh.name}": shader "${found.shader}" blends as '${found.blend}', which glTF cannot say; written opaque`);
    materials[mesh.materialIndex] = {
      image: result,
      alphaMode: cutoff !== undefined ? 'MASK' : found.blend === 'blend' ? 'BLEND' : 'OPAQUE',
      ...(cutoff !== undefined ? { alphaCutoff: cutoff } : {}),
      doubleSided: found.twoSided,
    };
  }
  return { materials, warnings };
}

/** An image file as glTF takes it (PNG and JPEG by their magic, anything else decoded as TGA), or what is wrong. */
async function imageOut(files: FileAccess, path: string, deflate: Deflate): Promise<GltfMaterialOut['image'] | string> {
  const bytes = await files.readBytes(path);
  if (!bytes) return 'cannot be read';
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return { bytes, mimeType: 'image/png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { bytes, mimeType: 'image/jpeg' };
  if (!/\.tga$/i.test(path)) return 'not a PNG, JPEG or TGA image (glTF takes PNG and JPEG; TGA is converted)';
  try {
    return { bytes: await encodePng(decodeTga(bytes), deflate), mimeType: 'image/png' };
  } catch (error) {
    return `not a readable TGA (${error instanceof Error ? error.message : String(error)})`;
  }
}

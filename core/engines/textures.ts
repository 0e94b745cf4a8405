// Which image extensions an engine tries for a texture name: the profiles' data (core/lookup
// looks the names up with them).

import { IOQUAKE3 } from './ioquake3';
import type { EngineProfile } from './types';

/**
 * The image extensions tried: those of the chosen engines that say how they look textures up,
 * else ioquake3's (tga, jpg, jpeg, png, pcx, bmp), the only lookup rule the profiles record.
 */
export function textureExtensions(engines: readonly EngineProfile[]): readonly string[] {
  const lists = engines.map((e) => e.textures?.extensions).filter((l): l is readonly string[] => l !== undefined);
  if (lists.length === 0) return IOQUAKE3.textures?.extensions ?? ['tga', 'jpg', 'png'];
  return [...new Set(lists.flat())];
}

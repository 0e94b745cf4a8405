// `.skin` files (FORMAT-PITFALLS §8.5): `surfacename,texturepath` per line; `tag_*,` lines carry no
// texture. Surfaces match by name, case-insensitively, never by index.

import { lines } from './text';

export interface SkinFile {
  /** Lower-cased surface name -> texture path, in file order. */
  surfaces: Map<string, string>;
  /** Tag names listed in the file. */
  tags: string[];
  /** Every surface or tag line as written, with positions (0-based line, UTF-16 columns). */
  entries: SkinEntry[];
  warnings: string[];
  /** 0-based line of each warning (same order as `warnings`). */
  warningLines: number[];
}

export interface SkinEntry {
  line: number;
  surface: string;
  surfaceStart: number;
  surfaceEnd: number;
  /** Empty for `tag_*,` lines. */
  texture: string;
  textureStart: number;
  textureEnd: number;
  tag: boolean;
}

export function parseSkin(text: string): SkinFile {
  const skin: SkinFile = { surfaces: new Map(), tags: [], entries: [], warnings: [], warningLines: [] };
  lines(text).forEach((raw, line) => {
    const body = raw.replace(/\/\/.*$/, '');
    const lead = body.length - body.trimStart().length;
    const trimmed = body.trim();
    if (!trimmed) return;
    const comma = trimmed.indexOf(',');
    if (comma < 0) {
      // DarkPlaces also accepts "replace name texture" lines.
      const m = /^(replace\s+)(\S+)(\s+)(\S+)/i.exec(trimmed);
      if (m) {
        skin.surfaces.set(m[2].toLowerCase(), m[4]);
        const s0 = lead + m[1].length;
        const t0 = s0 + m[2].length + m[3].length;
        skin.entries.push({ line, surface: m[2], surfaceStart: s0, surfaceEnd: s0 + m[2].length, texture: m[4], textureStart: t0, textureEnd: t0 + m[4].length, tag: false });
      } else {
        skin.warnings.push(`line ${line + 1}: expected "surface,texture"`);
        skin.warningLines.push(line);
      }
      return;
    }
    const surface = trimmed.slice(0, comma).trim();
    const surfaceStart = lead + trimmed.indexOf(surface);
    const after = trimmed.slice(comma + 1);
    const quoted = after.trim();
    const texture = quoted.replace(/^"|"$/g, '');
    const textureStart = lead + comma + 1 + (after.length - after.trimStart().length) + (quoted.startsWith('"') ? 1 : 0);
    const tag = /^tag_/i.test(surface) && !texture;
    skin.entries.push({ line, surface, surfaceStart, surfaceEnd: surfaceStart + surface.length, texture, textureStart, textureEnd: textureStart + texture.length, tag });
    if (tag) {
      skin.tags.push(surface);
      return;
    }
    skin.surfaces.set(surface.toLowerCase(), texture);
  });
  return skin;
}

/** The texture a skin gives a surface (case-insensitive), or undefined. */
export function skinTexture(skin: SkinFile, surfaceName: string): string | undefined {
  return skin.surfaces.get(surfaceName.toLowerCase());
}

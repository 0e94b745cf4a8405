// `.skin` files (FORMAT-PITFALLS §8.5): `surfacename,texturepath` per line; `tag_*,` lines carry no
// texture. Surfaces match by name, case-insensitively, never by index.

export interface SkinFile {
  /** Lower-cased surface name -> texture path, in file order. */
  surfaces: Map<string, string>;
  /** Tag names listed in the file. */
  tags: string[];
  warnings: string[];
}

export function parseSkin(text: string): SkinFile {
  const skin: SkinFile = { surfaces: new Map(), tags: [], warnings: [] };
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) return;
    const comma = line.indexOf(',');
    if (comma < 0) {
      // DarkPlaces also accepts "replace name texture" lines.
      const m = /^replace\s+(\S+)\s+(\S+)/i.exec(line);
      if (m) skin.surfaces.set(m[1].toLowerCase(), m[2]);
      else skin.warnings.push(`line ${i + 1}: expected "surface,texture"`);
      return;
    }
    const surface = line.slice(0, comma).trim();
    const texture = line.slice(comma + 1).trim().replace(/^"|"$/g, '');
    if (/^tag_/i.test(surface) && !texture) {
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

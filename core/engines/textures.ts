// Texture lookup as the Quake 3 family does it (ioquake3 R_LoadImage): the name as given when its
// extension has a loader, then the name without extension with each loader's extension in turn.
// Paths are relative to the game's root; the caller tries them from the model's folder upwards.

/** The candidate file names for one texture name, in the engine's order. */
export function textureCandidates(name: string, extensions: readonly string[]): string[] {
  const clean = name.replace(/\\/g, '/').replace(/^\/+/, '').trim();
  if (!clean) return [];
  const dot = clean.lastIndexOf('.');
  const slash = clean.lastIndexOf('/');
  const ext = dot > slash ? clean.slice(dot + 1).toLowerCase() : '';
  const known = extensions.includes(ext);
  const stem = known ? clean.slice(0, dot) : clean;
  const out = known ? [clean] : [];
  for (const e of extensions) if (e !== ext) out.push(`${stem}.${e}`);
  return out;
}


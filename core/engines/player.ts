// Quake 3 player models checked as the engine loads them: lower/upper/head.md3 together, their
// .skin files, animation.cfg (LEGS_* frames offset by the torso-only frames) and the tags that
// join the parts. The caller reads the files (core/lookup/player.ts readPlayerInput); this is pure.

import { PLAYER_PARTS, playerPart, skinNames, type PlayerInput, type PlayerPart } from '../lookup/player';
import { animCfgParts, parseAnimCfg } from '../sidecar/animcfg';
import { parseSkin } from '../sidecar/skin';
import { severityOf, type Effect, type EngineFinding, type EngineProfile, type FindingLocation, type Rule } from './types';
import { quotedName } from '../names';

export { PLAYER_PARTS, type PlayerInput, type PlayerPart };

/** Skin files as the profile names them: `lower_default.skin` (Quake 3), `lower.md3_0.skin` (DarkPlaces; N a number). */
export function skinSets(skins: PlayerInput['skins'], naming: 'q3' | 'darkplaces'): Map<string, Partial<Record<PlayerPart, { file: string; text: string }>>> {
  const sets = new Map<string, Partial<Record<PlayerPart, { file: string; text: string }>>>();
  for (const s of skins) {
    const name = skinNames(s.file).find((n) => n.naming === naming && (naming === 'q3' ? PLAYER_PARTS.includes(n.model.toLowerCase() as PlayerPart) : playerPart(n.model) !== null && /^\d+$/.test(n.skin)));
    if (!name) continue;
    const part = (naming === 'q3' ? name.model.toLowerCase() : playerPart(name.model)) as PlayerPart;
    const set = sets.get(name.skin) ?? {};
    set[part] = s;
    sets.set(name.skin, set);
  }
  return sets;
}

/**
 * How the chosen engines read an animation.cfg: 'quake3' (by position in Quake 3's list, 25
 * required) where one of them loads Quake 3 players (ioquake3, quake3), else 'auto' (a game's own
 * list named by its comments).
 */
export function animCfgNames(engines: readonly EngineProfile[]): 'auto' | 'quake3' {
  return engines.some((e) => e.player?.animationCfg !== undefined) ? 'quake3' : 'auto';
}

/** The name a surface is matched under in a .skin: lower-cased, a trailing `_X` cut (ioquake3). */
function skinSurfaceName(name: string): string {
  const n = name.toLowerCase();
  return n.length > 2 && n[n.length - 2] === '_' ? n.slice(0, -2) : n;
}

export function checkPlayer(input: PlayerInput, profile: EngineProfile): EngineFinding[] {
  const r = profile.player;
  if (!r) return [];
  const out: EngineFinding[] = [];
  const push = (code: string, rule: Rule, message: string, location: FindingLocation, effect: Effect = rule.effect) =>
    out.push({ code, severity: severityOf(effect), message, engine: profile.id, engineName: profile.name, fact: rule.fact, location });

  for (const part of PLAYER_PARTS) {
    if (!input.parts[part]) push('player-part-missing', r.parts, `${part}.md3 is missing or unreadable`, { what: `${part}.md3`, file: `${part}.md3` });
  }

  // Skins: every part needs one of each skin set's files, and should name each of its surfaces.
  const sets = skinSets(input.skins, r.skinNaming);
  const pattern = r.skinNaming === 'q3' ? '<part>_<skin>.skin (e.g. lower_default.skin)' : '<part>.md3_<N>.skin (e.g. lower.md3_0.skin)';
  if (sets.size === 0) {
    const others = input.skins.map((s) => s.file);
    const hint = others.length ? `; the folder has ${others.join(', ')}, which ${profile.name} does not look for` : '';
    push('player-skin-missing', r.skins, `no skin files named ${pattern}${hint}`, { what: 'skins' });
  }
  for (const [name, set] of sets) {
    for (const part of PLAYER_PARTS) {
      const skinFile = set[part];
      const model = input.parts[part];
      if (!skinFile) {
        push('player-skin-missing', r.skins, `skin ${quotedName(name)} has no file for ${part}.md3`, { what: `skin ${quotedName(name)}` });
        continue;
      }
      if (!model) continue;
      const skin = parseSkin(skinFile.text);
      model.meshes.forEach((mesh, i) => {
        if (!skin.surfaces.has(skinSurfaceName(mesh.name))) {
          push('player-skin-surface', r.skins, `${skinFile.file} gives no texture to surface ${i} ${quotedName(mesh.name)} of ${part}.md3: it is drawn with the default shader`, { what: `surface ${i} ${quotedName(mesh.name)}`, mesh: i, file: skinFile.file }, 'mangle');
        }
      });
    }
  }

  // Tags joining the parts.
  const tagParts: [PlayerPart, readonly string[]][] = [['lower', r.tags.lower], ['upper', r.tags.upper]];
  for (const [part, tags] of tagParts) {
    const model = input.parts[part];
    if (!model) continue;
    const have = new Set(model.tags?.names ?? []);
    for (const tag of tags) if (!have.has(tag)) push('player-tag-missing', r.tags, `${part}.md3 has no ${tag}`, { what: `${part}.md3 tags`, file: `${part}.md3` });
  }

  // animation.cfg, with LEGS_* frames offset by the torso-only frames.
  if (input.animationCfg === undefined) {
    push('player-animation-cfg', r.animationCfg, 'there is no animation.cfg', { what: 'animation.cfg', file: 'animation.cfg' });
    return out;
  }
  const cfg = parseAnimCfg(input.animationCfg, { names: 'quake3' });
  for (const w of cfg.warnings) {
    if (/required animations|expected 4 numbers/.test(w)) push('player-animation-cfg', r.animationCfg, `animation.cfg: ${w}`, { what: 'animation.cfg', file: 'animation.cfg' });
  }
  const offset = cfg.legsOffset;
  if (offset !== 0) {
    const walkcr = cfg.clips.find((c) => c.name === 'LEGS_WALKCR');
    push('player-legs-offset', r.legsOffset, `LEGS_* first frames are lowered by ${offset} (first(LEGS_WALKCR) - first(TORSO_GESTURE)): LEGS_WALKCR starts at lower.md3 frame ${walkcr?.firstFrame ?? '?'}`, { what: 'animation.cfg LEGS_*', file: 'animation.cfg' }, 'note');
  }
  cfg.clips.forEach((clip, i) => {
    for (const part of animCfgParts(clip.name)) {
      const model = input.parts[part];
      if (!model) continue;
      const last = clip.firstFrame + clip.frameCount - 1;
      if (clip.firstFrame < 0 || (clip.frameCount > 0 && last >= model.frameCount)) {
        const why = clip.name.startsWith('LEGS_') && offset !== 0 ? ` (after the LEGS_* offset of ${offset})` : '';
        push('player-frame-range', r.frameRange, `${clip.name} uses frames ${clip.firstFrame}..${last}${why}, ${part}.md3 has ${model.frameCount}`, { what: `animation.cfg ${clip.name}`, animation: i, file: 'animation.cfg' });
      }
    }
  });
  return out;
}

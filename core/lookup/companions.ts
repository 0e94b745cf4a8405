// Which kind of sidecar a file is, and which model files an engine would pair it with. Pure: paths
// are POSIX-style strings (a URI's path); the caller checks which candidates exist. Where an engine
// looks for the textures it names is core/lookup's.

import { skinNames } from './player';
import { fileNameOf } from '../paths';

export type SidecarKind = 'framegroups' | 'animcfg' | 'skin' | 'shader';

/** The language ids the extension gives these files (package.json). */
export const SIDECAR_LANGUAGES: Record<SidecarKind, string> = {
  framegroups: 'iqm-framegroups',
  animcfg: 'q3-animation-cfg',
  skin: 'q3-skin',
  shader: 'q3-shader',
};

/** The kind of a file by its name (case-insensitive), or undefined. */
export function sidecarKind(fileName: string): SidecarKind | undefined {
  const name = fileNameOf(fileName).toLowerCase();
  if (name.endsWith('.framegroups')) return 'framegroups';
  if (name === 'animation.cfg') return 'animcfg';
  if (name.endsWith('.skin')) return 'skin';
  if (name.endsWith('.shader')) return 'shader';
  return undefined;
}

/** The kind for a language id, or undefined. */
export function sidecarKindOfLanguage(languageId: string): SidecarKind | undefined {
  return (Object.keys(SIDECAR_LANGUAGES) as SidecarKind[]).find((k) => SIDECAR_LANGUAGES[k] === languageId);
}

const MODEL_EXTENSIONS = ['md3', 'iqm', 'dpm', 'mdr'];

/** One model the sidecar belongs to; `candidates` are file names in the sidecar's folder, in the order tried. */
export interface CompanionModel {
  /** For animation.cfg: which part of the player ('lower', 'upper', 'head'); otherwise undefined. */
  part?: 'lower' | 'upper' | 'head';
  candidates: string[];
}

/**
 * The models an engine pairs the file with, as it finds them:
 * - `grunt.dpm.framegroups` → grunt.dpm (DarkPlaces loads `<model file name>.framegroups`);
 * - `animation.cfg` → lower.md3, upper.md3 and head.md3 of the folder (Quake 3 players);
 * - `lower.md3_0.skin` → lower.md3 (DarkPlaces `<model>_<N>.skin`); `lower_default.skin` →
 *   lower.md3 (Quake 3 `<part>_<skin>.skin`); `foo_default.skin` → foo.md3, foo.iqm, ... (the
 *   name before each `_`, from the last one back);
 * - a shader script belongs to no model.
 */
export function companionModels(kind: SidecarKind, fileName: string): CompanionModel[] {
  const name = fileNameOf(fileName);
  switch (kind) {
    case 'framegroups': {
      const model = name.slice(0, name.length - '.framegroups'.length);
      return model ? [{ candidates: [model] }] : [];
    }
    case 'animcfg':
      return (['lower', 'upper', 'head'] as const).map((part) => ({ part, candidates: [`${part}.md3`] }));
    case 'skin': {
      const candidates: string[] = [];
      const add = (c: string) => {
        if (c && !candidates.includes(c)) candidates.push(c);
      };
      for (const s of skinNames(name)) {
        if (s.naming === 'darkplaces') add(s.model);
        else for (const ext of MODEL_EXTENSIONS) add(`${s.model}.${ext}`);
      }
      return candidates.length ? [{ candidates }] : [];
    }
    case 'shader':
      return [];
  }
}

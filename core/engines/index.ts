// The engine profiles and finding one by name. Each profile is a table in its own file.

import { DAEMON } from './daemon';
import { DARKPLACES } from './darkplaces';
import { FTE } from './fte';
import { GZDOOM, UZDOOM } from './gzdoom';
import { IOQUAKE3 } from './ioquake3';
import { QUAKE3 } from './quake3';
import { RAYLIB } from './raylib';
import { REDECLIPSE } from './redeclipse';
import type { EngineProfile } from './types';

export const ENGINES: readonly EngineProfile[] = [DARKPLACES, FTE, IOQUAKE3, QUAKE3, RAYLIB, REDECLIPSE, DAEMON, GZDOOM, UZDOOM];

/** The profile called `name` (its id or an alias, case-insensitive), or undefined. */
export function findEngine(name: string): EngineProfile | undefined {
  const n = name.trim().toLowerCase();
  return ENGINES.find((e) => e.id === n || e.aliases.includes(n));
}

/** Profiles for a list like `darkplaces,fte`; unknown names are returned apart. */
export function parseEngineList(list: string | readonly string[]): { engines: EngineProfile[]; unknown: string[] } {
  const names = (typeof list === 'string' ? list.split(',') : list.flatMap((s) => s.split(','))).map((s) => s.trim()).filter((s) => s.length > 0);
  const engines: EngineProfile[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const e = findEngine(name);
    if (!e) unknown.push(name);
    else if (!engines.includes(e)) engines.push(e);
  }
  return { engines, unknown };
}

export function engineNames(): string {
  return ENGINES.map((e) => e.id).join(', ');
}

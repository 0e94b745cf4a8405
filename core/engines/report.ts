// Findings worded for the preview's info panel (carried by core/protocol.ts's load message).

import { citeSource, type EngineFinding, type EngineProfile } from './types';

/** Engine findings for the info panel, already worded (core/engines). */
export interface EngineReport {
  engines: string[];
  findings: { engine: string; severity: 'error' | 'warning' | 'information'; code: string; message: string; where: string; fact: string; source: string }[];
  /** Engine names in the setting that are not known. */
  unknown: string[];
}

/** Where a finding is, in words: the file of a player set, the part, the byte offset. */
export function describeLocation(f: EngineFinding): string {
  const l = f.location;
  if (l.file) return `${l.file}: ${l.what}`;
  return l.byteOffset !== undefined ? `${l.what}, byte ${l.byteOffset}` : l.what;
}

/** One sentence for an editor: `engine: what (where). The engine fact (source)`. */
export function findingSentence(f: EngineFinding, withWhere: boolean): string {
  // The fact opens a sentence; a file or code name there keeps its spelling (qfiles.h, num_poses).
  const first = f.fact.text.split(' ', 1)[0];
  const fact = /[._]\w/.test(first) ? f.fact.text : f.fact.text.charAt(0).toUpperCase() + f.fact.text.slice(1);
  return `${f.engineName}: ${f.message}${withWhere ? ` (${describeLocation(f)})` : ''}. ${fact} (${citeSource(f.fact.source)})`;
}

export function engineReport(findings: readonly EngineFinding[], engines: readonly EngineProfile[], unknown: readonly string[]): EngineReport {
  return {
    engines: engines.map((e) => e.name),
    unknown: [...unknown],
    findings: findings.map((f) => ({
      engine: f.engineName,
      severity: f.severity,
      code: f.code,
      message: f.message,
      where: describeLocation(f),
      fact: f.fact.text,
      source: citeSource(f.fact.source),
    })),
  };
}

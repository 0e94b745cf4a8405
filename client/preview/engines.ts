// `iqmTools.engine` for binary models open in the preview: the engines' findings on the model
// (and, for a Quake 3 player part, on the player set) go to the Problems panel of the model file
// and to the preview's info panel. Pure checks from core/engines; this file only gathers inputs.

import * as vscode from 'vscode';
import { checkEngine } from '../../core/engines/check';
import { factsFromModel } from '../../core/engines/facts';
import { parseEngineList } from '../../core/engines/index';
import { checkPlayer, PLAYER_PARTS, type PlayerInput } from '../../core/engines/player';
import { engineReport, findingSentence } from '../../core/engines/report';
import type { EngineFinding } from '../../core/engines/types';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import type { EngineReport } from '../../core/protocol';
import { basename, dirname } from './resolve';

/** The engine ids set for this file (resource scope: its workspace folder's value). */
export function engineSetting(uri: vscode.Uri): string {
  const value = vscode.workspace.getConfiguration('iqmTools', uri).get<unknown>('engine');
  return typeof value === 'string' ? value : Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(',') : '';
}

/** The model in `bytes`, or undefined where it cannot be read (the preview reports format errors itself). */
export function tryReadModel(bytes: Uint8Array): Model | undefined {
  try {
    return readModel(bytes);
  } catch {
    return undefined; // the preview reports format errors itself
  }
}

/** The player set around an MD3 part: the three parts, animation.cfg and every .skin of the folder. */
async function playerInput(uri: vscode.Uri): Promise<PlayerInput | undefined> {
  const folder = uri.with({ path: dirname(uri.path) });
  let names: string[];
  try {
    names = (await vscode.workspace.fs.readDirectory(folder)).filter(([, t]) => (t & vscode.FileType.File) !== 0).map(([n]) => n);
  } catch {
    return undefined;
  }
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  if (!byLower.has('animation.cfg')) return undefined;
  const read = async (name: string) => vscode.workspace.fs.readFile(uri.with({ path: `${folder.path}/${name}` }));
  const parts = {} as PlayerInput['parts'];
  for (const part of PLAYER_PARTS) {
    const name = byLower.get(`${part}.md3`);
    parts[part] = name ? tryReadModel(await read(name).catch(() => new Uint8Array(0))) : undefined;
  }
  const latin1 = new TextDecoder('latin1');
  const skins: { file: string; text: string }[] = [];
  for (const n of names.filter((x) => /\.skin$/i.test(x))) skins.push({ file: n, text: latin1.decode(await read(n)) });
  return { parts, animationCfg: latin1.decode(await read(byLower.get('animation.cfg')!)), skins };
}

export interface EngineResult {
  report: EngineReport;
  findings: EngineFinding[];
}

/** Findings of the configured engines for the model at `uri`; undefined when no engine is set. */
export async function engineFindings(uri: vscode.Uri, bytes: Uint8Array): Promise<EngineResult | undefined> {
  const setting = engineSetting(uri);
  if (!setting.trim()) return undefined;
  const { engines, unknown } = parseEngineList(setting);
  const findings: EngineFinding[] = [];
  const model = tryReadModel(bytes);
  if (model) {
    const facts = factsFromModel(model, bytes);
    for (const e of engines) findings.push(...checkEngine(facts, e));
    if (model.format === 'md3' && /^(lower|upper|head)\.md3$/i.test(basename(uri.path)) && engines.some((e) => e.player)) {
      const input = await playerInput(uri);
      if (input) for (const e of engines) findings.push(...checkPlayer(input, e));
    }
  }
  const report = engineReport(findings, engines, unknown);
  return { report, findings };
}

const SEVERITY: Record<EngineFinding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** Problems-panel entries for a binary model: on its first character, each naming where it is. */
export function toDiagnostics(result: EngineResult): vscode.Diagnostic[] {
  return result.findings.map((f) => {
    const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), findingSentence(f, true), SEVERITY[f.severity]);
    d.code = f.code;
    d.source = 'iqm-tools engine';
    return d;
  });
}

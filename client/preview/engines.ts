// `iqmTools.engine` for binary models open in the preview: the engines' findings on the model
// (and, for a Quake 3 player part, on the player set) go to the Problems panel of the model file
// and to the preview's info panel. Pure checks from core/engines; this file only gathers inputs.

import * as vscode from 'vscode';
import { checkEngine } from '../../core/engines/check';
import { factsFromModel } from '../../core/engines/facts';
import { parseEngineList } from '../../core/engines/index';
import { checkPlayer } from '../../core/engines/player';
import { playerPart, readPlayerInput } from '../../core/lookup/player';
import { engineReport, findingSentence } from '../../core/engines/report';
import type { EngineFinding } from '../../core/engines/types';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import type { EngineReport } from '../../core/protocol';
import { fileNameOf as basename, folderOf as dirname } from '../../core/paths';
import { workspaceAccess } from '../fileAccess';

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
    if (model.format === 'md3' && playerPart(basename(uri.path)) && engines.some((e) => e.player)) {
      // The player set as the checks read it (core/lookup/player.ts): a folder with an animation.cfg.
      const input = await readPlayerInput(workspaceAccess(uri), dirname(uri.path));
      if (input?.animationCfg !== undefined) for (const e of engines) findings.push(...checkPlayer(input, e));
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

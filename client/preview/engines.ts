// `iqmTools.engine` for binary models open in the preview: the engines' findings on the model
// (and, for a Quake 3 player part, on the player set; engineCheck.ts) go to the Problems panel of
// the model file and to the preview's info panel. This file reads the setting and words the problems.

import * as vscode from 'vscode';
import { findingSentence } from '../../core/engines/report';
import type { EngineFinding } from '../../core/engines/types';
import { engineFindingsOf, type EngineResult } from '../../core/host/engineCheck';
import { workspaceAccess } from '../fileAccess';

/** The engine ids set for this file (resource scope: its workspace folder's value). */
export function engineSetting(uri: vscode.Uri): string {
  const value = vscode.workspace.getConfiguration('iqmTools', uri).get<unknown>('engine');
  return typeof value === 'string' ? value : Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(',') : '';
}

/** Findings of the configured engines for the model at `uri`; undefined when no engine is set. */
export function engineFindings(uri: vscode.Uri, bytes: Uint8Array): Promise<EngineResult | undefined> {
  return engineFindingsOf(engineSetting(uri), uri.path, bytes, workspaceAccess(uri));
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

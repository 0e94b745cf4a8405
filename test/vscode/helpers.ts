// Shared helpers for the in-editor suite: fixture documents, diagnostics polling, ranges found in
// the document text (so expectations name a line and a token instead of counting columns).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';

export const EXTENSION_ID = 'iqm-tools.iqm-tools';
/** The `source` of every diagnostic the IQE language server publishes. */
export const SOURCE = 'iqe';

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder: run the suite with test/vscode/fixtures opened');
  return folder.uri;
}

export function fixtureUri(name: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), name);
}

/** Opens a workspace file in an editor and returns its document. */
export async function openFixture(name: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(fixtureUri(name));
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/** Opens an untitled IQE document with the given text (nothing touches the disk). */
export async function openUntitled(content: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ language: 'iqe', content });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/** Throws away unsaved changes of `document` and closes its editors, without a save prompt. */
export async function revertAndClose(document: vscode.TextDocument): Promise<void> {
  if (document.isClosed) return;
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

export function codeOf(diagnostic: { code?: vscode.Diagnostic['code'] }): string {
  const code = diagnostic.code;
  return String(typeof code === 'object' && code !== null ? code.value : code);
}

/** The diagnostics of the IQE language server for `uri` (other sources ignored). */
export function iqeDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

const SEVERITY_NAMES = ['error', 'warning', 'information', 'hint'];

/** What a test expects of a diagnostic (or an actual one). */
export interface DiagnosticLike {
  code?: vscode.Diagnostic['code'];
  severity: vscode.DiagnosticSeverity;
  range: vscode.Range;
}

/** A compact, sorted form of diagnostics (code, severity, range) to compare and to show in messages. */
export function describe(diagnostics: readonly DiagnosticLike[]): string {
  if (diagnostics.length === 0) return '(none)';
  return diagnostics
    .map((d) => `${codeOf(d)} ${SEVERITY_NAMES[d.severity]} ${formatRange(d.range)}`)
    .sort()
    .join('; ');
}

export function formatRange(range: vscode.Range): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}

/**
 * Polls the diagnostics of `uri` until `accept` says yes, and returns them. The failure message
 * shows the last diagnostics seen.
 */
export async function waitForDiagnostics(
  uri: vscode.Uri,
  accept: (diagnostics: vscode.Diagnostic[]) => boolean,
  what: string,
  timeoutMs = 20000,
): Promise<vscode.Diagnostic[]> {
  let last: vscode.Diagnostic[] = [];
  return waitFor(
    () => {
      last = iqeDiagnostics(uri);
      return accept(last) ? last : undefined;
    },
    `${what} (${vscode.workspace.asRelativePath(uri)})`,
    timeoutMs,
    () => describe(last),
  );
}

export const hasCode = (code: string) => (diagnostics: readonly vscode.Diagnostic[]) => diagnostics.some((d) => codeOf(d) === code);
export const lacksCode = (code: string) => (diagnostics: readonly vscode.Diagnostic[]) => !diagnostics.some((d) => codeOf(d) === code);

/** The 0-based number of the first line (at or after `from`) whose text equals `content`. */
export function lineOf(document: vscode.TextDocument, content: string, from = 0): number {
  for (let line = from; line < document.lineCount; line++) {
    if (document.lineAt(line).text === content) return line;
  }
  throw new Error(`no line '${content}' in ${vscode.workspace.asRelativePath(document.uri)} (from line ${from})`);
}

const isBoundary = (c: string | undefined) => c === undefined || /\s/.test(c) || c === '"';

/**
 * The range of the `nth` (0-based) standalone occurrence of `token` on the first line whose text is
 * `content` (whitespace, a quote or the line's ends around it).
 */
export function tokenRange(document: vscode.TextDocument, content: string, token: string, nth = 0, fromLine = 0): vscode.Range {
  const line = lineOf(document, content, fromLine);
  let seen = 0;
  for (let at = content.indexOf(token); at >= 0; at = content.indexOf(token, at + 1)) {
    if (isBoundary(content[at - 1]) && isBoundary(content[at + token.length])) {
      if (seen === nth) return new vscode.Range(line, at, line, at + token.length);
      seen++;
    }
  }
  throw new Error(`token '${token}' #${nth} not on line '${content}'`);
}

/** A position inside the token (its first character). */
export function tokenStart(document: vscode.TextDocument, content: string, token: string, nth = 0, fromLine = 0): vscode.Position {
  return tokenRange(document, content, token, nth, fromLine).start;
}

/**
 * Sets an iqmTools.* setting in the user settings (never in the workspace folder, which is the
 * repository's own under @vscode/test-electron); `undefined` removes it.
 */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await setGlobalSetting('iqmTools', key, value);
}

/** Sets any user setting (`section.key`); `undefined` removes it. */
export async function setGlobalSetting(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

/** The extension under test, activated. */
export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  await extension.activate();
  return extension;
}

/** Waits until the active tab is the custom editor `viewType` on `uri`, and returns the tab. */
export async function waitForTab(uri: vscode.Uri, viewType: string, timeoutMs = 20000): Promise<vscode.Tab> {
  return waitFor(
    () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      const input = active?.input;
      return input instanceof vscode.TabInputCustom && input.viewType === viewType && input.uri.toString() === uri.toString() ? active : undefined;
    },
    `the ${viewType} tab of ${vscode.workspace.asRelativePath(uri)}`,
    timeoutMs,
  );
}

/** A small MD5 model written into `dir`: door.md5mesh (2 joints, 1 triangle) and open.md5anim (2 frames of its skeleton); the mesh text is returned. */
export function writeMd5Pair(dir: string): string {
  const joints = 'joints {\n\t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )\n\t"arm"\t0 ( 1 0 0 ) ( 0 0 0 )\n}\n';
  const mesh = `MD5Version 10\ncommandline ""\nnumJoints 2\nnumMeshes 1\n${joints}mesh {\n\tshader "skin"\n\tnumverts 3\n\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n\tvert 2 ( 0 1 ) 2 1\n\tnumtris 1\n\ttri 0 0 2 1\n\tnumweights 3\n\tweight 0 0 1 ( 0 0 0 )\n\tweight 1 1 1 ( 1 0 0 )\n\tweight 2 0 1 ( 0 1 0 )\n}\n`;
  const anim = 'MD5Version 10\ncommandline ""\nnumFrames 2\nnumJoints 2\nframeRate 24\nnumAnimatedComponents 1\nhierarchy {\n\t"root"\t-1 0 0\n\t"arm"\t0 1 0\n}\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n\t( 1 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n\t1\n}\nframe 1 {\n\t2\n}\n';
  fs.writeFileSync(path.join(dir, 'door.md5mesh'), mesh);
  fs.writeFileSync(path.join(dir, 'open.md5anim'), anim);
  return mesh;
}

// Shared helpers for the in-editor suite: fixture documents, diagnostics polling, ranges found in
// the document text (so expectations name a line and a token instead of counting columns).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { requestScreenshot, waitFor } from './harnessClient';
import { decodePng, modelPixels } from './pixels';

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

/** The extension host this bundle of the suite was built for (scripts/build-vscode-tests.mjs). */
export const TEST_HOST: 'node' | 'web' = IQM_TEST_HOST;

/** A new folder in the workspace for a suite's files (the workspace is a throw-away copy under the harness); removed by the returned function. */
export async function scratchFolder(name: string): Promise<{ uri: vscode.Uri; remove: () => Promise<void> }> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), `scratch-${name}-${Date.now()}`);
  await vscode.workspace.fs.createDirectory(uri);
  return { uri, remove: () => Promise.resolve(vscode.workspace.fs.delete(uri, { recursive: true, useTrash: false })).then(undefined, () => undefined) };
}

/** Bytes of a text (UTF-8). */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * Reads back what the preview's webview shows (a harness screenshot, test/vscode/pixels.ts) and
 * asserts that the model's surfaces cover at least `share` of the view area. Outside the harness (desktop
 * VS Code through @vscode/test-electron) there is no screenshot: the test's title says so; the web
 * run must have one.
 */
export async function assertPreviewDrawn(context: Mocha.Context, name: string, fileName: string, share = 0.01): Promise<void> {
  const files = await requestScreenshot(name, { webviewSelector: `#viewer[data-state="ready"][data-file="${fileName}"]` });
  if (!files) {
    assert.notEqual(TEST_HOST, 'web', 'the web run found no harness exchange directory, so it cannot read the preview\'s pixels back');
    if (context.test) context.test.title += ' [pixels not read back: not under the harness]';
    return;
  }
  const webview = files.find((f) => f.path.endsWith('-webview.png'));
  assert.ok(webview, `no webview screenshot among ${files.map((f) => f.path).join(', ')}`);
  const picture = await decodePng(await vscode.workspace.fs.readFile(webview));
  const { width, height } = picture;
  const { drawn, checked } = modelPixels(picture);
  console.log(`[pixels] ${name}: ${drawn} of ${checked} pixels of the view area are the model's (${width}x${height})`);
  assert.ok(drawn > checked * share, `the preview of ${fileName} shows no model: ${drawn} of ${checked} pixels of its view area are covered`);
}

/** A small MD5 model (2 joints, 1 triangle) and an animation of its skeleton (2 frames), as door.md5mesh and open.md5anim. */
export const MD5_PAIR = {
  'door.md5mesh': `MD5Version 10\ncommandline ""\nnumJoints 2\nnumMeshes 1\njoints {\n\t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )\n\t"arm"\t0 ( 1 0 0 ) ( 0 0 0 )\n}\nmesh {\n\tshader "skin"\n\tnumverts 3\n\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n\tvert 2 ( 0 1 ) 2 1\n\tnumtris 1\n\ttri 0 0 2 1\n\tnumweights 3\n\tweight 0 0 1 ( 0 0 0 )\n\tweight 1 1 1 ( 1 0 0 )\n\tweight 2 0 1 ( 0 1 0 )\n}\n`,
  'open.md5anim': 'MD5Version 10\ncommandline ""\nnumFrames 2\nnumJoints 2\nframeRate 24\nnumAnimatedComponents 1\nhierarchy {\n\t"root"\t-1 0 0\n\t"arm"\t0 1 0\n}\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n\t( 1 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n\t1\n}\nframe 1 {\n\t2\n}\n',
} as const;

/** Writes MD5_PAIR into the folder `dir` (through workspace.fs: both hosts); gives the mesh text. */
export async function writeMd5Pair(dir: vscode.Uri): Promise<string> {
  for (const [name, text] of Object.entries(MD5_PAIR)) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, name), utf8(text));
  return MD5_PAIR['door.md5mesh'];
}

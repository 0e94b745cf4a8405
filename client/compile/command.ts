// "IQE: Compile to IQM" (iqmTools.compile): compiles the active or chosen .iqe (its unsaved text
// when it is open; else the worker reads the file) in a worker (the Platform's: a worker thread in
// Node, a Web Worker in the browser), with a cancellable progress notification when it takes more
// than half a second, and writes the IQM atomically (temporary file + rename; in Node through
// links, node/atomicWrite.ts). Errors write nothing: they go to the Problems
// panel (through the language server) and the command offers to show them; every note of the
// compile (what the readers noticed and the compile's own) goes there too, and to the output channel. Several files chosen in the explorer are compiled
// in turn. Also compiles on save when iqmTools.compile.onSave is set.
import * as vscode from 'vscode';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { engineFindings, toDiagnostics } from '../preview/engines';
import type { Platform } from '../platform';
import type { CompileInput, CompileNote, CompileRequest } from '../../core/host/compileProtocol';
import { animationPathsFor, compileOptionsOf, outputPathFor } from './settings';
import { outputExtensionProblem } from '../../core/formats/outputName';
import { compileSource, type LoadedSource, settingsFor } from './source';
import { gatherCompanions } from '../../core/formats/companions';
import { detectFormat, extensionsOf, FORMATS, formatOfExtension, HEAD_BYTES } from '../../core/formats/registry';
import { workspaceAccess } from '../fileAccess';

const PROGRESS_AFTER_MS = 500;
const PREVIEW_VIEW_TYPE = 'iqmTools.preview';

/**
 * The animation files beside an .md5mesh or a mesh SMD that go with it (the format registry's
 * sibling rules, core/formats/companions.ts); none for other sources (only a file whose extension
 * names a format with such a rule is read for it) or when the folder cannot be read.
 */
async function siblingAnimations(source: vscode.Uri): Promise<vscode.Uri[]> {
  const named = formatOfExtension(source.path);
  if (!named || !FORMATS[named].companions.some((r) => r === 'md5anim-siblings' || r === 'smd-siblings')) return [];
  const access = workspaceAccess(source);
  const editor = access.editorText?.(source.path);
  const bytes = editor !== undefined ? new TextEncoder().encode(editor) : await access.readBytes(source.path);
  if (!bytes) return [];
  const found = await gatherCompanions(source.path, bytes, detectFormat(bytes.subarray(0, HEAD_BYTES), source.path), access);
  return found.animations.map((a) => source.with({ path: a.path }));
}

/** Whether a file's name says it is a compile source (the explorer's selection: its extension, as the menus filter it). */
function isSourceName(path: string): boolean {
  const format = formatOfExtension(path);
  return format !== null && FORMATS[format].role === 'source';
}

/** The file of the active editor: a text editor's, else the active tab's custom editor (a model shown in its preview). */
function activeSource(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (tab?.input instanceof vscode.TabInputCustom) return tab.input.uri;
  return vscode.window.activeTextEditor?.document.uri;
}

function isPreviewOpen(uri: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === uri.toString()),
  );
}

function previewContributed(context: vscode.ExtensionContext): boolean {
  const editors = (context.extension.packageJSON as { contributes?: { customEditors?: { viewType: string }[] } }).contributes?.customEditors ?? [];
  return editors.some((e) => e.viewType === PREVIEW_VIEW_TYPE);
}

/** What the compiles of one window share: the extension, the log, and the Problems entries of their notes. */
interface CompileHost {
  context: vscode.ExtensionContext;
  platform: Platform;
  log: vscode.OutputChannel;
  /** The compile's own notes at their lines (source "IQE compiler"), until the file is edited or compiled again. */
  notes: vscode.DiagnosticCollection;
}

const SEVERITIES: Record<IqeDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** A note of the compile as a Problems entry. */
function noteDiagnostic(d: IqeDiagnostic): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(new vscode.Range(d.range.line, d.range.column, d.range.endLine, d.range.endColumn), d.message, SEVERITIES[d.severity]);
  diagnostic.source = 'IQE compiler';
  diagnostic.code = d.code;
  return diagnostic;
}

/** A note or diagnostic as the output channel lists it: `file:line:column: severity: message [code]`. */
function noteLine(file: string, d: IqeDiagnostic): string {
  return `${file}:${d.range.line + 1}:${d.range.column + 1}: ${d.severity}: ${d.message} [${d.code}]`;
}

export interface CompileOutcome {
  output?: vscode.Uri;
  errors: number;
  cancelled?: boolean;
  /** What the compile itself noticed, as listed in the output channel (`file:line:column: severity: message [code]`). */
  notes?: string[];
  /** Why the compiled file could not be written (nothing was). */
  writeError?: string;
  /** How it was written when the file system could not write it atomically. */
  writeNote?: string;
  /** Milliseconds the worker took to compile (not counting reading, starting the worker, writing). */
  compileMs?: number;
}

/**
 * Compiles one file. `interactive` (the command on one file) shows errors as messages and opens the
 * result in the preview; otherwise (on save, or one of several) the status bar and the log say
 * what happened. `batch`: the cancellation of a compile of several files, which shows its own
 * progress (this file's own notification is then not shown).
 */
async function compile(host: CompileHost, source: vscode.Uri, interactive: boolean, batch?: vscode.CancellationToken): Promise<CompileOutcome> {
  const { context, log } = host;
  const name = source.path.slice(source.path.lastIndexOf('/') + 1);
  // The notes of an earlier compile of this file are about that compile.
  host.notes.delete(source);
  const settings = settingsFor(source);
  const folder = vscode.workspace.getWorkspaceFolder(source);
  const output = source.with({ path: outputPathFor(source.path, settings.outputPath, folder?.uri.path) });
  // Animation files to merge after the source (iqmTools.compile.animationFiles).
  // (A file never merges itself: a folder-wide setting also applies to the animation files.)
  let animationFiles = animationPathsFor(source.path, settings.animationFiles, folder?.uri.path)
    .filter((path) => path !== source.path)
    .map((path) => source.with({ path }));
  // An .md5mesh or a mesh SMD without animationFiles: the animation files beside it, as one would
  // give them to the reference compiler (companions.ts: those whose skeleton is the mesh's).
  if (settings.animationFiles.length === 0) {
    animationFiles = await siblingAnimations(source);
    if (animationFiles.length > 0) log.appendLine(`[${new Date().toLocaleTimeString()}] ${name}: with the animation files beside it: ${animationFiles.map((u) => u.path.slice(u.path.lastIndexOf('/') + 1)).join(', ')} (iqmTools.compile.animationFiles chooses others)`);
  }
  for (const file of animationFiles) host.notes.delete(file);
  const animations: CompileInput[] = [];
  let inputBytes = 0;
  for (const file of animationFiles) {
    try {
      const { source, size } = await compileSource(file, host.platform.files);
      animations.push(source);
      inputBytes += size;
    } catch (error) {
      const message = `${file.fsPath} (iqmTools.compile.animationFiles) cannot be read: ${error instanceof Error ? error.message : String(error)}`;
      log.appendLine(`[${new Date().toLocaleTimeString()}] ${name}: ${message}; nothing written`);
      if (interactive) void vscode.window.showErrorMessage(`Compiling ${name}: ${message}`);
      return { errors: 1 };
    }
  }
  // An outputPath that names the source (or an animation file) must not replace it with the IQM.
  const overwritten = [source, ...animationFiles].find((input) => host.platform.files.sameFile(output, input));
  if (overwritten) {
    const message = `the output ${output.fsPath} (iqmTools.compile.outputPath) is the input ${overwritten.fsPath}; the IQM would replace it`;
    log.appendLine(`[${new Date().toLocaleTimeString()}] ${name}: ${message}; nothing written`);
    void vscode.window.showErrorMessage(`Compiling ${name}: ${message}`);
    return { errors: 0, writeError: message };
  }
  // An outputPath whose name says another format (model.iqe, model.glb) or none would hold an IQM
  // every reader of that name refuses: refused as the CLI's -o is.
  const misnamed = outputExtensionProblem(output.fsPath, 'iqm');
  if (misnamed) {
    const message = `${misnamed} (iqmTools.compile.outputPath is ${JSON.stringify(settings.outputPath)})`;
    log.appendLine(`[${new Date().toLocaleTimeString()}] ${name}: ${message}; nothing written`);
    void vscode.window.showErrorMessage(`Compiling ${name}: ${message}`);
    return { errors: 0, writeError: message };
  }
  let main: LoadedSource;
  try {
    main = await compileSource(source, host.platform.files);
  } catch (error) {
    // Gone since it was chosen, a folder, or unreadable: said, not a failed command.
    const message = `${source.fsPath} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    log.appendLine(`[${new Date().toLocaleTimeString()}] ${name}: ${message}; nothing written`);
    if (!batch) void vscode.window.showErrorMessage(`Compiling ${name}: ${message}`);
    return { errors: 1 };
  }
  inputBytes += main.size;
  const request: CompileRequest = { source: main.source, options: compileOptionsOf(settings), animations, ...(main.resources ? { resources: main.resources } : {}) };
  const fileName = (text: number): string => (text === 0 ? name : animationFiles[text - 1].path.slice(animationFiles[text - 1].path.lastIndexOf('/') + 1));

  const cancellation = new vscode.CancellationTokenSource();
  const cancelWithBatch = batch?.onCancellationRequested(() => cancellation.cancel());
  const compiling = host.platform.compile(context, request, inputBytes, cancellation.token);
  // Only a compile that takes a while gets a notification (with a Cancel button).
  const quick = batch ? await compiling : await Promise.race([compiling, new Promise<'slow'>((r) => setTimeout(() => r('slow'), PROGRESS_AFTER_MS))]);
  const reply =
    quick !== 'slow'
      ? quick
      : await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Compiling ${name}`, cancellable: true },
          (_progress, token) => {
            token.onCancellationRequested(() => cancellation.cancel());
            return compiling;
          },
        );
  cancelWithBatch?.dispose();
  cancellation.dispose();

  const stamp = new Date().toLocaleTimeString();
  if (!reply) {
    log.appendLine(`[${stamp}] ${name}: compile cancelled; nothing written`);
    return { errors: 0, cancelled: true };
  }
  if (!reply.ok) {
    log.appendLine(`[${stamp}] ${name}: the compiler failed: ${reply.message}`);
    void vscode.window.showErrorMessage(`Compiling ${name} failed: ${reply.message.split('\n')[0]}`, 'Show Log').then((a) => a && log.show());
    return { errors: 1 };
  }
  if (reply.failedText > 0) {
    // An animation file with errors: it is opened, so that the language server shows them.
    const failed = animationFiles[reply.failedText - 1];
    log.appendLine(`[${stamp}] ${name}: the animation file ${failed.fsPath} has errors; nothing written`);
    const failedErrors = reply.diagnostics.filter((d) => d.text === reply.failedText && d.diagnostic.severity === 'error').map((d) => d.diagnostic);
    for (const d of failedErrors.slice(0, 50)) log.appendLine(`  ${fileName(reply.failedText)}:${d.range.line + 1}:${d.range.column + 1}: ${d.message} [${d.code}]`);
    // An IQE is opened, so that the language server shows its errors; another source's errors (and
    // what its reader noticed) are put in the Problems panel here, for every input.
    if (/\.iqe$/i.test(failed.path)) await vscode.workspace.openTextDocument(failed);
    readerProblems(host, reply.diagnostics, [source, ...animationFiles], fileName);
    if (interactive) {
      const choice = await vscode.window.showErrorMessage(`${fileName(reply.failedText)} (an animation file of ${name}) has errors; no IQM was written.`, 'Show Problems');
      if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    }
    return { errors: 1 };
  }
  const errors = reply.diagnostics.filter((d) => d.text === 0 && d.diagnostic.severity === 'error').map((d) => d.diagnostic);
  if (!reply.bytes || errors.length > 0) {
    log.appendLine(`[${stamp}] ${name}: ${errors.length} error(s); nothing written`);
    for (const d of errors.slice(0, 50)) log.appendLine(`  ${name}:${d.range.line + 1}:${d.range.column + 1}: ${d.message} [${d.code}]`);
    // The language server publishes the same errors for an open IQE document: open it so they
    // reach the Problems panel; an MD5, SMD, OBJ or glTF source's errors, with what its reader
    // noticed besides, are put there by the compile.
    if (/\.iqe$/i.test(source.path)) await vscode.workspace.openTextDocument(source);
    readerProblems(host, reply.diagnostics, [source, ...animationFiles], fileName);
    if (interactive) {
      const choice = await vscode.window.showErrorMessage(`${name} has ${errors.length} error(s); no IQM was written.`, 'Show Problems');
      if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    } else {
      vscode.window.setStatusBarMessage(`$(error) ${name}: ${errors.length} error(s), not compiled`, 5000);
    }
    return { errors: errors.length };
  }
  let writeNote: string | undefined;
  try {
    writeNote = await host.platform.files.writeAtomically(output, reply.bytes);
  } catch (error) {
    const message = `${output.fsPath} cannot be written: ${(error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error))}`;
    log.appendLine(`[${stamp}] ${name}: ${message}`);
    // On save too (the user must learn that the IQM is stale); a batch sums its failures up.
    if (!batch) void vscode.window.showErrorMessage(`Compiling ${name}: ${message}`);
    return { errors: 0, writeError: message };
  }
  const s = reply.stats;
  const outName = output.path.slice(output.path.lastIndexOf('/') + 1);
  log.appendLine(
    `[${stamp}] ${name} → ${output.fsPath} in ${reply.milliseconds.toFixed(0)} ms: ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ` +
      `${s.joints} joints, ${s.animations} animations (${s.frames} frames), ${s.bytes} bytes`,
  );
  if (writeNote) log.appendLine(`  ${writeNote}`);
  // Every note: what the readers noticed (an unreadable .mtl, concave faces, a glTF animation
  // dropped: reply.diagnostics without errors, as the preview lists them) and the compile's own.
  const compiled = reply.diagnostics.filter((n) => n.diagnostic.severity !== 'error');
  const notes = compiled.map(({ text, diagnostic }) => noteLine(fileName(text), diagnostic));
  for (const note of notes) log.appendLine(`  ${note}`);
  // And in the Problems panel, at their lines of the file each is about.
  const inputs = [source, ...animationFiles];
  for (const [i, uri] of inputs.entries()) {
    const own = compiled.filter((n) => n.text === i).map((n) => noteDiagnostic(n.diagnostic));
    host.notes.set(uri, own.length > 0 ? own : undefined);
  }
  await warnEngineFindings(host, source, outName, reply.bytes, batch !== undefined);
  vscode.window.setStatusBarMessage(`$(check) Compiled ${outName} in ${reply.milliseconds.toFixed(0)} ms`, 5000);
  // An open preview reloads by itself when the file changes; otherwise open one beside.
  if (interactive && previewContributed(context) && !isPreviewOpen(output)) {
    await vscode.commands.executeCommand('vscode.openWith', output, PREVIEW_VIEW_TYPE, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
  }
  return { output, errors: 0, notes, compileMs: reply.milliseconds, ...(writeNote ? { writeNote } : {}) };
}

/**
 * A compile that wrote nothing: every diagnostic of each input that is no IQE (its errors and what
 * its reader noticed) in the Problems panel, and its notes in the log; an IQE's are the language
 * server's (the caller opens the one with errors).
 */
function readerProblems(host: CompileHost, diagnostics: readonly CompileNote[], inputs: readonly vscode.Uri[], fileName: (text: number) => string): void {
  for (const [i, uri] of inputs.entries()) {
    if (/\.iqe$/i.test(uri.path)) continue;
    const own = diagnostics.filter((d) => d.text === i);
    for (const d of own) if (d.diagnostic.severity !== 'error') host.log.appendLine(`  ${noteLine(fileName(i), d.diagnostic)}`);
    host.notes.set(uri, own.length > 0 ? own.map((d) => noteDiagnostic(d.diagnostic)) : undefined);
  }
}

/** `iqmTools.engine`: where the written IQM breaks the chosen engines, in the log, the Problems panel of the source and a warning. */
async function warnEngineFindings(host: CompileHost, source: vscode.Uri, outName: string, bytes: Uint8Array, batch: boolean): Promise<void> {
  const result = await engineFindings(source, bytes).catch(() => undefined);
  if (!result || result.findings.length === 0) return;
  for (const f of result.report.findings) host.log.appendLine(`  ${outName}: ${f.severity}: ${f.engine}: ${f.message} (${f.where}) [${f.code}] — ${f.fact} (${f.source})`);
  host.notes.set(source, [...(host.notes.get(source) ?? []), ...toDiagnostics(result)]);
  const broken = result.findings.filter((f) => f.severity !== 'information').length;
  if (broken > 0 && !batch) {
    // Not awaited: the compile is done; the message waits for the user on its own.
    void vscode.window.showWarningMessage(`${outName} breaks the ${result.report.engines.join(', ')} profile: ${broken} finding(s).`, 'Show Output').then((choice) => {
      if (choice) host.log.show(true);
    });
  }
}

/**
 * Several files chosen in the explorer, one after another under one cancellable notification;
 * the previews are not opened, and one message sums up the files with errors.
 */
async function compileMany(host: CompileHost, sources: vscode.Uri[]): Promise<CompileOutcome[]> {
  const { log } = host;
  const outcomes = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Compiling ${sources.length} model sources`, cancellable: true },
    async (progress, token) => {
      const done: CompileOutcome[] = [];
      for (const [i, source] of sources.entries()) {
        if (token.isCancellationRequested) break;
        progress.report({ message: `${i + 1} of ${sources.length}: ${source.path.slice(source.path.lastIndexOf('/') + 1)}`, increment: i === 0 ? 0 : 100 / sources.length });
        done.push(await compile(host, source, false, token));
      }
      return done;
    },
  );
  const written = outcomes.filter((o) => o.output).length;
  const failed = outcomes.filter((o) => !o.output && !o.cancelled).length;
  const stopped = sources.length - outcomes.length + outcomes.filter((o) => o.cancelled).length;
  const summary = `Compiled ${written} of ${sources.length} model sources` + (failed > 0 ? `; ${failed} not compiled` : '') + (stopped > 0 ? `; ${stopped} cancelled` : '');
  log.appendLine(`[${new Date().toLocaleTimeString()}] ${summary}`);
  vscode.window.setStatusBarMessage(`$(${failed > 0 ? 'error' : 'check'}) ${summary}`, 5000);
  if (failed > 0) {
    void vscode.window.showErrorMessage(`${summary} (errors or unwritable output, see the IQE Compiler log).`, 'Show Problems', 'Show Log').then(async (choice) => {
      if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
      else if (choice === 'Show Log') log.show();
    });
  }
  return outcomes;
}

/** At most this many .iqe files of the workspace are looked at for models that merge a saved file. */
const MODEL_SEARCH_LIMIT = 2000;

/**
 * The .iqe files of the workspace, with iqmTools.compile.onSave, whose
 * iqmTools.compile.animationFiles name `file`: saving an animation file rebuilds them. Searched
 * only when some scope sets animationFiles at all.
 */
async function modelsMerging(file: vscode.Uri): Promise<vscode.Uri[]> {
  const scopes = vscode.workspace.workspaceFolders?.map((f) => f.uri) ?? [file];
  if (!scopes.some((scope) => (vscode.workspace.getConfiguration('iqmTools.compile', scope).get<string[]>('animationFiles') ?? []).length > 0)) return [];
  const models: vscode.Uri[] = [];
  for (const candidate of await vscode.workspace.findFiles('**/*.iqe', undefined, MODEL_SEARCH_LIMIT)) {
    if (candidate.toString() === file.toString()) continue;
    const settings = settingsFor(candidate);
    if (!settings.onSave || settings.animationFiles.length === 0) continue;
    const folder = vscode.workspace.getWorkspaceFolder(candidate);
    if (animationPathsFor(candidate.path, settings.animationFiles, folder?.uri.path).includes(file.path)) models.push(candidate);
  }
  return models;
}

export function registerCompile(context: vscode.ExtensionContext, platform: Platform): void {
  const log = vscode.window.createOutputChannel('IQE Compiler');
  const host: CompileHost = { context, platform, log, notes: vscode.languages.createDiagnosticCollection('iqe-compiler') };
  context.subscriptions.push(
    log,
    host.notes,
    // An edit makes the compile's notes stale (their lines may have moved).
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) host.notes.delete(event.document.uri);
    }),
    // From the explorer VS Code passes the clicked file and every selected one.
    vscode.commands.registerCommand('iqmTools.compile', async (uri?: vscode.Uri, selected?: vscode.Uri[]): Promise<CompileOutcome | CompileOutcome[] | undefined> => {
      const chosen = Array.isArray(selected) ? selected.filter((u) => u instanceof vscode.Uri && isSourceName(u.path)) : [];
      if (chosen.length > 1) return compileMany(host, chosen);
      const source = uri instanceof vscode.Uri ? uri : activeSource();
      if (!source) {
        void vscode.window.showWarningMessage(`Open or select a model source to compile (${extensionsOf('source').join(', ')}).`);
        return undefined;
      }
      return compile(host, source, true);
    }),
    vscode.workspace.onDidSaveTextDocument(async (document) => {
      if (document.languageId !== 'iqe') return;
      if (settingsFor(document.uri).onSave) void compile(host, document.uri, false);
      // The models that merge it as an animation file are rebuilt too.
      for (const model of await modelsMerging(document.uri)) void compile(host, model, false);
    }),
  );
}

// "Convert to IQE" (iqmTools.convertToIqe): the model of the explorer's selection, the active
// preview or the active IQE editor written as IQE text beside it (core/iqe/writer.ts, as
// `iqm-tools convert` does), then opened beside the preview. An existing file is replaced only
// when the user says so; what IQE cannot carry goes to the "IQM Tools Convert" output channel.
import * as vscode from 'vscode';
import { FormatError } from '../../core/binary';
import { writeIqe } from '../../core/iqe/writer';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import { detectFormat, FORMATS, unusableMessage } from '../../core/formats/registry';
import { clipsBeside, withClips } from '../../core/lookup/clips';
import type { CompileRequest } from '../../core/host/compileProtocol';
import { compileOptionsOf } from '../compile/settings';
import { settingsFor } from '../compile/source';
import type { Platform } from '../platform';
import { sourceOutcome, sourceRequest } from '../../core/host/sourceCompile';
import { companionFiles } from '../preview/files';
import { workspaceAccess } from '../fileAccess';

export const CONVERT_COMMAND = 'iqmTools.convertToIqe';

export interface ConvertOutcome {
  /** The IQE written; absent when nothing was (an error, or the user kept the existing file). */
  output?: vscode.Uri;
  warnings: string[];
  error?: string;
}

/** Options a caller (tests, scripts) may pass instead of the explorer's selection. */
export interface ConvertOptions {
  /** Replace an existing output without asking. */
  overwrite?: boolean;
}

const fileName = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** The IQE beside the model: NAME.iqe (an IQE source: NAME.converted.iqe, never itself). */
export function convertOutput(source: vscode.Uri): vscode.Uri {
  const name = fileName(source);
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const folder = source.path.slice(0, source.path.length - name.length);
  const plain = `${base}.iqe`;
  return source.with({ path: folder + (plain === name ? `${base}.converted.iqe` : plain) });
}

/**
 * The model in `bytes` by its magic: IQM, MD3, DPM read directly; a source (IQE, MD5, SMD, OBJ,
 * glTF) is compiled in the platform's compile worker, as the preview compiles it (with the files
 * it names and the animation files beside it), never on the extension host's thread (the glTF
 * reader is only in the worker). Its errors stop the conversion.
 */
async function modelOf(source: vscode.Uri, bytes: Uint8Array, context: vscode.ExtensionContext, platform: Platform, log: (line: string) => void): Promise<Model> {
  const name = fileName(source);
  const format = detectFormat(bytes, source.path);
  const role = FORMATS[format].role;
  if (role === 'model') return readModel(bytes);
  // Neither a model nor a source: the registry's one message.
  if (role === 'unsupported') throw new FormatError(unusableMessage(format, 'model') ?? FORMATS[format].label, 0);
  const { animations, resources } = await companionFiles(source, bytes, format);
  if (animations.length > 0) log(`${name}: with the animation files beside it: ${animations.map((a) => a.name).join(', ')}`);
  // The request the preview makes (the same options, companions and model).
  const request: CompileRequest = sourceRequest(name, format, bytes, animations, resources, compileOptionsOf(settingsFor(source)));
  const size = bytes.length + animations.reduce((n, a) => n + a.bytes.length, 0);
  const cancel = new vscode.CancellationTokenSource();
  let reply;
  try {
    reply = await platform.compile(context, request, size, cancel.token);
  } finally {
    cancel.dispose();
  }
  if (!reply) throw new Error(`${name}: the compile was cancelled`);
  const outcome = sourceOutcome(reply, name, format, animations.map((a) => a.name));
  if ('error' in outcome) throw new Error(outcome.error);
  // What the readers and the compile noticed (a glTF animation dropped), as the preview lists it.
  for (const note of outcome.converted.notes) log(note);
  const model = readModel(outcome.bytes);
  return format === 'iqe' ? { ...model, format: 'iqe', version: 0 } : model;
}

/** The model whose preview (or IQE editor) is active. */
function activeModel(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (tab?.input instanceof vscode.TabInputCustom) return tab.input.uri;
  return vscode.window.activeTextEditor?.document.uri;
}

async function convert(source: vscode.Uri, options: ConvertOptions, log: vscode.OutputChannel, context: vscode.ExtensionContext, platform: Platform): Promise<ConvertOutcome> {
  const name = fileName(source);
  let model: Model;
  const warnings: string[] = [];
  try {
    model = await modelOf(source, await vscode.workspace.fs.readFile(source), context, platform, (line) => warnings.push(line));
  } catch (error) {
    const message = error instanceof FormatError ? `${name}: ${error.message} (at byte ${error.offset})` : error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`Convert to IQE: ${message}`);
    return { warnings, error: message };
  }
  warnings.push(...model.warnings);
  // The clips the preview plays (core/lookup/clips.ts: NAME.framegroups, animation.cfg for an MD3).
  const clips = await clipsBeside(workspaceAccess(source), source.path, model);
  if (clips.file) warnings.push(`animations from ${clips.file}`);
  warnings.push(...clips.warnings);
  model = withClips(model, clips);
  const result = writeIqe(model, { label: name, comments: [`converted by iqm-tools from ${name} (${model.format.toUpperCase()})`] });
  warnings.push(...result.warnings);
  const output = convertOutput(source);
  let exists = false;
  try {
    await vscode.workspace.fs.stat(output);
    exists = true;
  } catch {
    exists = false;
  }
  if (exists && !options.overwrite) {
    const choice = await vscode.window.showWarningMessage(`${fileName(output)} already exists. Replace it with the conversion of ${name}?`, { modal: true }, 'Replace');
    if (choice !== 'Replace') return { warnings };
  }
  let writeNote: string | undefined;
  try {
    writeNote = await platform.files.writeAtomically(output, new TextEncoder().encode(result.text));
  } catch (error) {
    const message = `${fileName(output)}: cannot write: ${error instanceof Error ? error.message : String(error)}`;
    void vscode.window.showErrorMessage(`Convert to IQE: ${message}`);
    return { warnings, error: message };
  }
  if (writeNote) warnings.push(writeNote);
  if (warnings.length) {
    log.appendLine(`${name} → ${fileName(output)}:`);
    for (const w of warnings) log.appendLine(`  ${w}`);
  }
  await vscode.window.showTextDocument(output, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const note = warnings.length ? ` (${warnings.length} note${warnings.length === 1 ? '' : 's'}: see the IQM Tools Convert output)` : '';
  void vscode.window.showInformationMessage(`Wrote ${fileName(output)}${note}`);
  return { output, warnings };
}

export function registerConvert(context: vscode.ExtensionContext, platform: Platform): void {
  let log: vscode.OutputChannel | undefined;
  context.subscriptions.push(
    // From the explorer: (clicked, selection); from the preview: (its file); from the palette: ().
    vscode.commands.registerCommand(CONVERT_COMMAND, async (uri?: vscode.Uri, extra?: vscode.Uri[] | ConvertOptions): Promise<ConvertOutcome | undefined> => {
      const source = uri instanceof vscode.Uri ? uri : activeModel();
      if (!source) {
        void vscode.window.showWarningMessage('Open or select a model (IQM, MD3, DPM or IQE) to convert to IQE.');
        return undefined;
      }
      if (!log) {
        log = vscode.window.createOutputChannel('IQM Tools Convert');
        context.subscriptions.push(log);
      }
      const options = extra && !Array.isArray(extra) ? extra : {};
      return convert(source, options, log, context, platform);
    }),
  );
}

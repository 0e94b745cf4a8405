// What "Convert to IQE" and "Export to glTF" share: the model a command converts (the explorer's
// selection, the active preview or IQE editor) read as the preview reads it, with the clips the
// preview plays; and the output written beside it, after asking before replacing a file.
import * as vscode from 'vscode';
import { FormatError } from '../../core/binary';
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

/** What a conversion command returns (to tests and scripts). */
export interface ConvertOutcome {
  /** The file written; absent when nothing was (an error, or the user kept the existing file). */
  output?: vscode.Uri;
  warnings: string[];
  error?: string;
}

/** Options a caller (tests, scripts) may pass instead of the explorer's selection. */
export interface ConvertOptions {
  /** Replace an existing output without asking. */
  overwrite?: boolean;
}

export const fileName = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** The file beside `source` named NAME + `extension` (an input of that extension: NAME.converted + extension, never itself). */
export function outputBeside(source: vscode.Uri, extension: string): vscode.Uri {
  const name = fileName(source);
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const folder = source.path.slice(0, source.path.length - name.length);
  const plain = `${base}${extension}`;
  return source.with({ path: folder + (plain.toLowerCase() === name.toLowerCase() ? `${base}.converted${extension}` : plain) });
}

/**
 * The model in `bytes` by its magic: IQM, MD3, DPM read directly; a source (IQE, MD5, SMD, OBJ,
 * glTF) is compiled in the platform's compile worker, as the preview compiles it (with the files
 * it names and the animation files beside it), never on the extension host's thread (the glTF
 * reader is only in the worker). Its errors stop the conversion.
 */
async function modelOf(source: vscode.Uri, bytes: Uint8Array, context: vscode.ExtensionContext, platform: Platform, log: (line: string) => void, modelOnly: boolean): Promise<Model> {
  const name = fileName(source);
  const format = detectFormat(bytes, source.path);
  const role = FORMATS[format].role;
  if (role === 'model') return readModel(bytes);
  // Neither a model nor a source: the registry's one message.
  if (role === 'unsupported') throw new FormatError(unusableMessage(format, 'model') ?? FORMATS[format].label, 0);
  const { animations, resources } = await companionFiles(source, bytes, format);
  if (animations.length > 0) log(`${name}: with the animation files beside it: ${animations.map((a) => a.name).join(', ')}`);
  // The request the preview makes (the same options, companions and model).
  // For glTF, without the per-frame bounds and the adjacency glTF does not carry (CompileOptions.modelOnly).
  const request: CompileRequest = sourceRequest(name, format, bytes, animations, resources, { ...compileOptionsOf(settingsFor(source)), ...(modelOnly ? { modelOnly } : {}) });
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

/**
 * The model at `source` with the clips its preview plays (core/lookup/clips.ts: NAME.framegroups,
 * animation.cfg for an MD3), its notes added to `warnings`, for the `output` format (a source
 * compiled for glTF leaves out what glTF does not carry); a string: the one-line error (the byte
 * offset where the file is wrong).
 */
export async function modelToConvert(source: vscode.Uri, context: vscode.ExtensionContext, platform: Platform, warnings: string[], output: 'iqe' | 'gltf'): Promise<Model | string> {
  let model: Model;
  try {
    model = await modelOf(source, await vscode.workspace.fs.readFile(source), context, platform, (line) => warnings.push(line), output === 'gltf');
  } catch (error) {
    return error instanceof FormatError ? `${fileName(source)}: ${error.message} (at byte ${error.offset})` : error instanceof Error ? error.message : String(error);
  }
  warnings.push(...model.warnings);
  const clips = await clipsBeside(workspaceAccess(source), source.path, model);
  if (clips.file) warnings.push(`animations from ${clips.file}`);
  warnings.push(...clips.warnings);
  return withClips(model, clips);
}

/** The model whose preview (or IQE editor) is active. */
function activeModel(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (tab?.input instanceof vscode.TabInputCustom) return tab.input.uri;
  return vscode.window.activeTextEditor?.document.uri;
}

/**
 * Writes `bytes` as `output` atomically, asking first when it exists (unless `overwrite`): 'kept'
 * when the user keeps the existing file; a string: the one-line error; else the write's note, if any.
 */
export async function writeOutput(output: vscode.Uri, bytes: Uint8Array, sourceName: string, overwrite: boolean | undefined, platform: Platform): Promise<{ written: true; note?: string } | { written: false; error?: string }> {
  let exists = false;
  try {
    await vscode.workspace.fs.stat(output);
    exists = true;
  } catch {
    exists = false;
  }
  if (exists && !overwrite) {
    const choice = await vscode.window.showWarningMessage(`${fileName(output)} already exists. Replace it with the conversion of ${sourceName}?`, { modal: true }, 'Replace');
    if (choice !== 'Replace') return { written: false };
  }
  try {
    return { written: true, note: await platform.files.writeAtomically(output, bytes) };
  } catch (error) {
    return { written: false, error: `${fileName(output)}: cannot write: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The command's output channel, made on first use. */
export function lazyChannel(context: vscode.ExtensionContext, name: string): () => vscode.OutputChannel {
  let channel: vscode.OutputChannel | undefined;
  return () => {
    if (!channel) {
      channel = vscode.window.createOutputChannel(name);
      context.subscriptions.push(channel);
    }
    return channel;
  };
}

/** The notes of one conversion in its output channel, under a heading; the message's suffix pointing there. */
export function logNotes(log: vscode.OutputChannel, heading: string, warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  log.appendLine(`${heading}:`);
  for (const w of warnings) log.appendLine(`  ${w}`);
  return ` (${warnings.length} note${warnings.length === 1 ? '' : 's'}: see the ${log.name} output)`;
}

/**
 * Registers a conversion command. Its arguments: from the explorer (clicked, selection), from the
 * preview (its file), from the palette () (the active preview or IQE editor), from tests and
 * scripts (file, ConvertOptions); with none of them, `nothingMessage` as a warning.
 */
export function registerConversion(context: vscode.ExtensionContext, command: string, nothingMessage: string, run: (source: vscode.Uri, options: ConvertOptions) => Promise<ConvertOutcome>): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(command, async (uri?: vscode.Uri, extra?: vscode.Uri[] | ConvertOptions): Promise<ConvertOutcome | undefined> => {
      const source = uri instanceof vscode.Uri ? uri : activeModel();
      if (!source) {
        void vscode.window.showWarningMessage(nothingMessage);
        return undefined;
      }
      return run(source, extra && !Array.isArray(extra) ? extra : {});
    }),
  );
}

// "Convert to IQE" (iqmTools.convertToIqe): the model of the explorer's selection, the active
// preview or the active IQE editor written as IQE text beside it (core/iqe/writer.ts, as
// `iqm-tools convert` does), then opened beside the preview. An existing file is replaced only
// when the user says so; what IQE cannot carry goes to the "IQM Tools Convert" output channel.
import * as vscode from 'vscode';
import { FormatError } from '../../core/binary';
import { compile, textSource } from '../../core/compile/index';
import { sourceFormat } from '../../core/compile/format';
import { writeIqe } from '../../core/iqe/writer';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/model/read';
import { applyFramegroups } from '../../core/sidecar/apply';
import { sniff } from '../../core/sniff';
import type { ModelFiles, Platform } from '../platform';

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
 * The model in `bytes` by its magic: IQM, MD3, DPM read directly; a source (IQE, MD5, SMD, OBJ) is
 * compiled as `iqm-tools compile` would (its errors stop it).
 */
function modelOf(bytes: Uint8Array, name: string): Model {
  const s = sniff(bytes);
  if (s.format === 'iqm' || s.format === 'md3' || s.format === 'dpm') return readModel(bytes);
  const text = new TextDecoder('utf-8').decode(bytes);
  const format = sourceFormat(text, name);
  // Neither a model nor a source text: the reader says what the bytes are.
  if (format === 'unknown' && s.format !== 'iqe') return readModel(bytes);
  const result = compile([textSource(text, name)]);
  const error = result.diagnostics.find((d) => d.diagnostic.severity === 'error')?.diagnostic;
  if (error || !result.bytes) throw new Error(`${name}: ${error ? `line ${error.range.line + 1}: ${error.message} [${error.code}]` : 'the source does not compile'}`);
  const model = readModel(result.bytes);
  return format === 'iqe' || format === 'unknown' ? { ...model, format: 'iqe', version: 0 } : model;
}

/** The model whose preview (or IQE editor) is active. */
function activeModel(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (tab?.input instanceof vscode.TabInputCustom) return tab.input.uri;
  return vscode.window.activeTextEditor?.document.uri;
}

async function convert(source: vscode.Uri, options: ConvertOptions, log: vscode.OutputChannel, files: ModelFiles): Promise<ConvertOutcome> {
  const name = fileName(source);
  let model: Model;
  const warnings: string[] = [];
  try {
    model = modelOf(await vscode.workspace.fs.readFile(source), name);
  } catch (error) {
    const message = error instanceof FormatError ? `${name}: ${error.message} (at byte ${error.offset})` : error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`Convert to IQE: ${message}`);
    return { warnings, error: message };
  }
  warnings.push(...model.warnings);
  // DarkPlaces names a model's animations in NAME.framegroups beside it; so does the conversion.
  const framegroups = source.with({ path: `${source.path}.framegroups` });
  try {
    const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(framegroups));
    warnings.push(`animations from ${fileName(framegroups)}`, ...applyFramegroups(model, text));
  } catch {
    // No sidecar: the model's own animations.
  }
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
    writeNote = await files.writeAtomically(output, new TextEncoder().encode(result.text));
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
      return convert(source, options, log, platform.files);
    }),
  );
}

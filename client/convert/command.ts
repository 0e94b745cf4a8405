// "Convert to IQE" (iqmTools.convertToIqe): the model of the explorer's selection, the active
// preview or the active IQE editor written as IQE text beside it (core/iqe/writer.ts, as
// `iqm-tools convert` does), then opened beside the preview. An existing file is replaced only
// when the user says so; what IQE cannot carry goes to the "IQM Tools Convert" output channel.
import * as vscode from 'vscode';
import { writeIqe } from '../../core/iqe/writer';
import type { Platform } from '../platform';
import { type ConvertOptions, type ConvertOutcome, fileName, logNotes, modelToConvert, outputBeside, registerConversion, writeOutput } from './conversion';

export const CONVERT_COMMAND = 'iqmTools.convertToIqe';

/** The IQE beside the model: NAME.iqe (an IQE source: NAME.converted.iqe, never itself). */
export function convertOutput(source: vscode.Uri): vscode.Uri {
  return outputBeside(source, '.iqe');
}

async function convert(source: vscode.Uri, options: ConvertOptions, log: vscode.OutputChannel, context: vscode.ExtensionContext, platform: Platform): Promise<ConvertOutcome> {
  const name = fileName(source);
  const warnings: string[] = [];
  const model = await modelToConvert(source, context, platform, warnings, 'iqe');
  if (typeof model === 'string') {
    void vscode.window.showErrorMessage(`Convert to IQE: ${model}`);
    return { warnings, error: model };
  }
  const result = writeIqe(model, { label: name, comments: [`converted by iqm-tools from ${name} (${model.format.toUpperCase()})`] });
  warnings.push(...result.warnings);
  const output = convertOutput(source);
  const written = await writeOutput(output, new TextEncoder().encode(result.text), name, options.overwrite, platform);
  if (!written.written) {
    if (written.error) void vscode.window.showErrorMessage(`Convert to IQE: ${written.error}`);
    return { warnings, error: written.error };
  }
  if (written.note) warnings.push(written.note);
  const note = logNotes(log, `${name} → ${fileName(output)}`, warnings);
  await vscode.window.showTextDocument(output, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  void vscode.window.showInformationMessage(`Wrote ${fileName(output)}${note}`);
  return { output, warnings };
}

/** `log`: the "IQM Tools Convert" output channel both conversions write their notes to (made on first use). */
export function registerConvert(context: vscode.ExtensionContext, platform: Platform, log: () => vscode.OutputChannel): void {
  registerConversion(context, CONVERT_COMMAND, 'Open or select a model (IQM, MD3, DPM or IQE) to convert to IQE.', (source, options) => convert(source, options, log(), context, platform));
}

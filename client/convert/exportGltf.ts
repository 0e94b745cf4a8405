// "Export to glTF" (iqmTools.exportGltf): the model of the explorer's selection, the active preview
// or the active IQE editor written as NAME.glb beside it (core/gltf/writer.ts, as `iqm-tools
// convert IN -o NAME.glb` writes it: skeleton, clips, MD3 frames as morph targets, each material's
// texture as the preview finds it, a TGA made PNG with the platform's deflate), then revealed in
// the explorer. Both hosts: files through workspace.fs. An existing file is replaced only when the
// user says so; what glTF cannot carry goes to the "IQM Tools Convert" output channel.
import * as vscode from 'vscode';
import { textureExtensions } from '../../core/engines/textures';
import { parseEngineList } from '../../core/engines/index';
import { GltfWriteError, writeGltf } from '../../core/gltf/writer';
import { gltfMaterials } from '../../core/lookup/gltfTextures';
import { workspaceAccess } from '../fileAccess';
import type { Platform } from '../platform';
import { engineSetting } from '../preview/engines';
import { type ConvertOptions, type ConvertOutcome, fileName, logNotes, modelToConvert, outputBeside, registerConversion, writeOutput } from './conversion';

export const EXPORT_GLTF_COMMAND = 'iqmTools.exportGltf';
const TITLE = 'Export to glTF';

async function exportGltf(source: vscode.Uri, options: ConvertOptions, log: vscode.OutputChannel, context: vscode.ExtensionContext, platform: Platform): Promise<ConvertOutcome> {
  const name = fileName(source);
  const warnings: string[] = [];
  const fail = (error: string): ConvertOutcome => {
    void vscode.window.showErrorMessage(`${TITLE}: ${error}`);
    return { warnings, error };
  };
  const model = await modelToConvert(source, context, platform, warnings, 'gltf');
  if (typeof model === 'string') return fail(model);
  // The images the preview draws (the engines' image extensions, as its texture lookup uses).
  const extensions = textureExtensions(parseEngineList(engineSetting(source)).engines);
  const found = await gltfMaterials(model, workspaceAccess(source), source.path, extensions, platform.deflate);
  warnings.push(...found.warnings);
  let result;
  try {
    result = writeGltf(model, { container: 'glb', label: name, materials: found.materials, comments: [`converted by iqm-tools from ${name} (${model.format.toUpperCase()})`] });
  } catch (error) {
    if (!(error instanceof GltfWriteError)) throw error;
    return fail(`${name}: ${error.message}`);
  }
  warnings.push(...result.warnings);
  const output = outputBeside(source, '.glb');
  const written = await writeOutput(output, result.bytes, name, options.overwrite, platform);
  if (!written.written) return written.error ? fail(written.error) : { warnings };
  if (written.note) warnings.push(written.note);
  const note = logNotes(log, `${name} → ${fileName(output)}`, warnings);
  await vscode.commands.executeCommand('revealInExplorer', output);
  const textures = found.materials.filter((m) => m?.image).length;
  void vscode.window.showInformationMessage(`Wrote ${fileName(output)}: ${result.animations} animation${result.animations === 1 ? '' : 's'}, ${textures} texture${textures === 1 ? '' : 's'}${note}`);
  return { output, warnings };
}

/** `log`: the "IQM Tools Convert" output channel both conversions write their notes to (made on first use). */
export function registerExportGltf(context: vscode.ExtensionContext, platform: Platform, log: () => vscode.OutputChannel): void {
  registerConversion(context, EXPORT_GLTF_COMMAND, 'Open or select a model (IQM, MD3, DPM, IQE, MD5, SMD, OBJ or glTF) to export to glTF.', (source, options) => exportGltf(source, options, log(), context, platform));
}

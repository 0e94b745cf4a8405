// Where a command writes when `-o` names a folder: an existing folder, or any path ending in a
// separator, means FOLDER/<the default output's file name> (as a folder in the editor's
// outputPath does). And whether the output's name says what is written into it.
import { statSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { FORMATS } from '../core/formats/registry';
import { extensionOf } from '../core/paths';

export function outputInFolder(output: string, defaultOutput: string): string {
  let folder = output.endsWith('/') || output.endsWith(sep);
  if (!folder) {
    try {
      folder = statSync(output).isDirectory();
    } catch {
      /* no such file yet: the output itself */
    }
  }
  return folder ? join(output, basename(defaultOutput)) : output;
}

/**
 * Null when `output`'s extension is one of the written format's (compile: IQM's .iqm, .vvm, .exm;
 * convert: .iqe), else why not: `convert -o model.glb` once wrote IQE text into model.glb, which
 * every glTF reader then refuses (and a name without an extension says nothing of its content).
 */
export function outputExtensionProblem(output: string, written: 'iqm' | 'iqe' | 'gltf' | 'glb'): string | null {
  const { extensions, name } = FORMATS[written];
  const ext = extensionOf(output);
  if (extensions.includes(ext)) return null;
  const named = ext === '' ? 'has no extension' : `is named ${ext}`;
  const others = extensions.length > 1 ? ` (or ${extensions.slice(1).join(', ')})` : '';
  return `the output ${output} ${named}, but what is written is ${name}${written === 'iqe' ? ' text' : ''}: name it ${extensions[0]}${others}`;
}

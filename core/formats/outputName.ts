// Whether an output file's name says what is written into it: the CLI's -o and the editor's
// iqmTools.compile.outputPath are refused alike when it does not.
import { FORMATS } from './registry';
import { extensionOf } from '../paths';

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

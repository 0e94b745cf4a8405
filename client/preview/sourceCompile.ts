// The preview of a compile source (MD5, SMD, OBJ, glTF): the model is compiled on the extension
// host's side, in the platform's compile worker (as IQE text is), never in the webview, so the
// compiler and the glTF library stay out of the webview's bundle. Pure (no vscode): which files
// are such sources, the compile request, and what the reply becomes for the webview.
import { FORMATS, type FormatId, modelOptions } from '../../core/formats/registry';
import type { ConvertedFrom } from '../../core/protocol';
import type { CompileReply, CompileRequest } from '../compile/protocol';

/**
 * The compile of a previewed source: its bytes, the animation files beside it merged after it
 * (their clips), the files it names (an OBJ's .mtl, a glTF's .bin and images) as resources, with
 * the options every face makes a source's model with (core/formats/compiled.ts: -j, so that an
 * animation file alone still shows its skeleton moving); `options`: the compile settings.
 */
export function sourceRequest(fileName: string, format: FormatId, bytes: Uint8Array, animations: readonly { name: string; bytes: Uint8Array }[], resources: NonNullable<CompileRequest['resources']>, options: CompileRequest['options']): CompileRequest {
  return {
    source: { bytes, name: fileName },
    options: { ...options, ...modelOptions(format) },
    animations: animations.map((a) => ({ bytes: a.bytes, name: a.name })),
    resources,
  };
}

/**
 * A reply as the webview gets it: the IQM, what it was compiled from and a glTF's embedded images
 * (textureLookup.ts answers a material named after one with it), or the first error as
 * `FILE line N: message (and M more errors)` (the file with errors: the source or an animation file).
 */
export function sourceOutcome(reply: CompileReply, fileName: string, format: FormatId, animations: readonly string[]): { bytes: Uint8Array; converted: ConvertedFrom; images: NonNullable<Extract<CompileReply, { ok: true }>['images']> } | { error: string } {
  if (!reply.ok) return { error: `the compiler failed: ${reply.message.split('\n')[0]}` };
  const errors = reply.diagnostics.filter((d) => d.diagnostic.severity === 'error');
  if (!reply.bytes || errors.length > 0) {
    const first = errors[0];
    const label = first && first.text > 0 ? animations[first.text - 1] : fileName;
    if (!first) return { error: `the ${label} file could not be compiled` };
    const d = first.diagnostic;
    return { error: `${label} line ${d.range.line + 1}: ${d.message}${errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : ''}` };
  }
  // The readers' warnings and notes (a glTF's computed normals, its inverse bind matrices) and the compile's own.
  const notes = reply.diagnostics.filter((n) => n.diagnostic.severity !== 'error').map((n) => `${n.text > 0 ? animations[n.text - 1] : fileName}: ${n.diagnostic.message}`);
  return { bytes: reply.bytes, converted: { format: FORMATS[format].label, milliseconds: reply.milliseconds, animations: [...animations], notes }, images: reply.images ?? [] };
}

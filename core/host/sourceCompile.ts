// The preview of a compile source (MD5, SMD, OBJ, glTF): the model is compiled on the extension
// host's side, in the platform's compile worker (as IQE text is), never in the webview, so the
// compiler and the glTF library stay out of the webview's bundle. Pure (no vscode): which files
// are such sources, the compile request, and what the reply becomes for the webview.
import { FORMATS, type FormatId, modelOptions } from '../formats/registry';
import type { ConvertedFrom, TextureResult } from '../protocol';
import { IQM_HEADER, IQM_LOOP, IQM_RECORD } from '../iqm/layout';
import type { CompileReply, CompileRequest } from './compileProtocol';

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
 * `FILE: line N: message [code] (and M more errors)` (the file with errors: the source or an animation file).
 */
export function sourceOutcome(reply: CompileReply, fileName: string, format: FormatId, animations: readonly string[]): { bytes: Uint8Array; converted: ConvertedFrom; images: NonNullable<Extract<CompileReply, { ok: true }>['images']>; materials: MaterialColor[] } | { error: string } {
  if (!reply.ok) return { error: `the compiler failed: ${reply.message.split('\n')[0]}` };
  const errors = reply.diagnostics.filter((d) => d.diagnostic.severity === 'error');
  if (!reply.bytes || errors.length > 0) {
    const first = errors[0];
    const label = first && first.text > 0 ? animations[first.text - 1] : fileName;
    if (!first) return { error: `the ${label} file could not be compiled` };
    const d = first.diagnostic;
    return { error: `${label}: line ${d.range.line + 1}: ${d.message} [${d.code}]${errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : ''}` };
  }
  // The readers' warnings and notes (a glTF's computed normals, its inverse bind matrices) and the compile's own.
  const notes = reply.diagnostics.filter((n) => n.diagnostic.severity !== 'error').map((n) => `${n.text > 0 ? animations[n.text - 1] : fileName}: ${n.diagnostic.message}`);
  return { bytes: reply.bytes, converted: { format: FORMATS[format].label, milliseconds: reply.milliseconds, animations: [...animations], notes }, images: reply.images ?? [], materials: reply.materials ?? [] };
}

/** A glTF material without a texture, as the compile reply names it. */
export type MaterialColor = NonNullable<Extract<CompileReply, { ok: true }>['materials']>[number];

/**
 * The answer for a mesh whose material is a glTF colour without a texture (`names`: the request's,
 * the material's among them), where no image was found: that colour drawn instead of the checker,
 * or white where the compile wrote it into the vertex colours (it would show twice). Null when
 * no such material has one of the names.
 */
export function materialColorSource(names: readonly string[], colors: readonly MaterialColor[], fileName: string): { source: Extract<TextureResult['source'], { kind: 'color' }>; via: string } | null {
  const wanted = names.map((n) => n.trim().toLowerCase());
  const found = colors.find((c) => wanted.includes(c.name.trim().toLowerCase()));
  if (!found) return null;
  const hex = `#${found.rgba.slice(0, 3).map((x) => Math.round(Math.min(Math.max(x, 0), 1) * 255).toString(16).padStart(2, '0')).join('')}`;
  const alpha = found.rgba[3] < 1 ? `, alpha ${Math.round(found.rgba[3] * 100) / 100}` : '';
  return {
    source: { kind: 'color', rgba: found.baked ? [1, 1, 1, 1] : [...found.rgba], label: `none, the material's colour ${hex}${alpha}${found.baked ? ', in the vertex colours' : ''}` },
    via: `material '${found.name}' of ${fileName}`,
  };
}

/**
 * The IQM a glTF compiles to, as the preview plays it: every clip looping. glTF has no loop mark
 * (viewers loop every animation), so its clips are all unmarked, and the preview loops what a file
 * does not mark, as a .framegroups line without its loop word loops. Only the preview's copy: the
 * compile, Convert and the engine checks keep the IQM as written (no flag, as `--loop` leaves it).
 * Other formats' bytes are returned as they are.
 */
export function previewClipLoops(bytes: Uint8Array, format: FormatId): Uint8Array {
  if (format !== 'gltf' && format !== 'glb') return bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(IQM_HEADER.num_anims, true);
  const at = view.getUint32(IQM_HEADER.ofs_anims, true);
  if (count === 0 || at + count * IQM_RECORD.anim > bytes.byteLength) return bytes;
  const looped = bytes.slice();
  const out = new DataView(looped.buffer);
  // flags, the last field of each anim record (name, first_frame, num_frames, framerate, flags).
  for (let i = 0; i < count; i++) {
    const flags = at + i * IQM_RECORD.anim + IQM_RECORD.anim - 4;
    out.setUint32(flags, out.getUint32(flags, true) | IQM_LOOP, true);
  }
  return looped;
}

// Bytes -> Model for the webview: sniffed by magic bytes (never the extension). IQE text arrives
// compiled: the extension host compiles it in its compile worker and posts the IQM, so the preview
// shows exactly what the compiler writes. Which sidecar decides the clips and textures is
// core/sidecar/precedence.ts's.

import { FormatError } from '../core/binary';
import { compile, textSource } from '../core/compile/index';
import { sourceFormat } from '../core/compile/format';
import { readModel } from '../core/model/read';
import type { Model } from '../core/model/model';
import type { CompiledFrom, Sidecars } from '../core/protocol';
import { modelClips } from '../core/sidecar/precedence';
import { extensionWarning, sniff } from '../core/sniff';
import type { ViewClip } from './scene';

export interface Loaded {
  model: Model;
  /** Notes about how the file was read (mislabeled extension, IQE compiled, sidecars used). */
  notes: string[];
}

export class LoadError extends Error {
  constructor(
    message: string,
    readonly offset: number | null,
  ) {
    super(message);
  }
}

/**
 * The model in `bytes`. IQE text arrives compiled by the host (`compiled` says from which text); the
 * reference compiler's other sources (MD5, SMD, OBJ) are compiled here, with `companions` (their
 * animation files, merged after them, and the .mtl files an OBJ names).
 */
export function loadModelBytes(bytes: Uint8Array, fileName: string, compiled: CompiledFrom | null = null, companions: readonly { name: string; bytes: ArrayBuffer }[] = []): Loaded {
  const notes: string[] = [];
  const s = sniff(bytes);
  try {
    if (s.format === 'iqe') throw new LoadError('IQE text reached the preview uncompiled (the extension compiles it first)', 0);
    if (compiled) {
      notes.push(`compiled from the IQE text (${compiled.version === null ? 'the file on disk' : `editor version ${compiled.version}${compiled.unsaved ? ', unsaved' : ''}`}) in ${Math.round(compiled.milliseconds)} ms`);
      return { model: readModel(bytes), notes };
    }
    const text = s.format === 'md5' || s.format === 'unknown' ? new TextDecoder('utf-8').decode(bytes) : null;
    const format = text === null ? null : sourceFormat(text, fileName);
    if (text !== null && format !== null && format !== 'unknown') {
      // A source (MD5, SMD, OBJ): compiled as `iqm-tools compile` would compile it.
      const decode = (b: ArrayBuffer): string => new TextDecoder('utf-8').decode(new Uint8Array(b));
      const mtl = companions.filter((c) => /\.mtl$/i.test(c.name));
      const siblings = (name: string): string | null => {
        const found = mtl.find((c) => c.name === name.replace(/\\/g, '/'));
        return found ? decode(found.bytes) : null;
      };
      const animations = companions.filter((c) => !/\.mtl$/i.test(c.name));
      // -j: an animation file alone (an .md5anim, an animation SMD) still shows its skeleton moving.
      const result = compile([textSource(text, fileName, undefined, siblings), ...animations.map((c) => textSource(decode(c.bytes), c.name))], { forceJoints: true });
      if (animations.length > 0) notes.push(`with the animation files beside it: ${animations.map((c) => c.name).join(', ')}`);
      const failedName = result.failed > 0 ? animations[result.failed - 1].name : fileName;
      const errors = result.diagnostics.filter((d) => d.diagnostic.severity === 'error').map((d) => d.diagnostic);
      if (!result.bytes || errors.length) {
        const first = errors[0];
        const label = failedName;
        throw new LoadError(
          first ? `${label} line ${first.range.line + 1}: ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : ''}` : `the ${label} file could not be compiled`,
          null,
        );
      }
      notes.push(`${fileName} (${format}) compiled to IQM in memory for the preview`);
      const model = readModel(result.bytes);
      return { model, notes };
    }
    const model = readModel(bytes);
    if (s.format === 'iqm' || s.format === 'md3' || s.format === 'dpm') {
      const w = extensionWarning(fileName, s.format);
      if (w) notes.push(w);
    }
    return { model, notes };
  } catch (e) {
    if (e instanceof LoadError) throw e;
    if (e instanceof FormatError) throw new LoadError(e.message, e.offset);
    throw new LoadError(e instanceof Error ? e.message : String(e), null);
  }
}

/**
 * The clips the viewer lists: the engines' (core/sidecar/precedence.ts), and "(all frames)" to
 * scrub through everything (first for a DPM without .framegroups, where every frame is a clip).
 */
export function viewClips(model: Model, fileName: string, sidecars: Sidecars, notes: string[]): ViewClip[] {
  const found = modelClips(model, fileName, sidecars);
  const clips: ViewClip[] = found.clips;
  notes.push(...found.warnings);
  if (found.from === 'framegroups' && sidecars.framegroups) notes.push(`clips from ${sidecars.framegroups.name}`);
  const perFrame = model.format === 'dpm' && found.from !== 'framegroups';
  if (model.frameCount > 1) {
    const all: ViewClip = { name: '(all frames)', firstFrame: 0, frameCount: model.frameCount, fps: 0, loop: true, source: 'viewer' };
    if (perFrame || model.clips.length === 0) clips.unshift(all);
    else clips.push(all);
  }
  return clips;
}

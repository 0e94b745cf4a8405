// Bytes -> Model for the webview: sniffed by magic bytes (never the extension). IQE text and the
// other compile sources (MD5, SMD, OBJ, glTF) arrive compiled: the extension host compiles them in
// its compile worker and posts the IQM, so the preview shows exactly what the compiler writes (and
// the compiler is not in the webview's bundle). Which sidecar decides the clips and textures is
// core/lookup/clips.ts's.

import { FormatError } from '../core/binary';
import { readModel } from '../core/formats/models';
import type { Model } from '../core/model/model';
import type { CompiledFrom, ConvertedFrom, Sidecars } from '../core/protocol';
import { detectFormat, extensionWarning } from '../core/formats/registry';
import { modelClips } from '../core/lookup/clips';
import type { ViewClip } from './scene';

export interface LoadedModel {
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
 * The model in `bytes`. IQE text arrives compiled by the host (`compiled` says from which text), and
 * so do the other compile sources, MD5, SMD, OBJ and glTF (`converted` says how): the compiler
 * never runs here.
 */
export function loadModelBytes(bytes: Uint8Array, fileName: string, compiled: CompiledFrom | null = null, converted: ConvertedFrom | null = null): LoadedModel {
  const notes: string[] = [];
  const format = detectFormat(bytes, fileName);
  try {
    if (format === 'iqe') throw new LoadError('IQE text reached the preview uncompiled (the extension compiles it first)', 0);
    if (compiled) {
      notes.push(`compiled from the IQE text (${compiled.version === null ? 'the file on disk' : `editor version ${compiled.version}${compiled.unsaved ? ', unsaved' : ''}`}) in ${Math.round(compiled.milliseconds)} ms`);
      return { model: readModel(bytes), notes };
    }
    if (converted) {
      notes.push(`${fileName} (${converted.format}) compiled to IQM for the preview in ${Math.round(converted.milliseconds)} ms`);
      if (converted.animations.length > 0) notes.push(`with the animation files beside it: ${converted.animations.join(', ')}`);
      notes.push(...converted.notes);
      return { model: readModel(bytes), notes };
    }
    const model = readModel(bytes);
    const w = extensionWarning(fileName, format);
    if (w) notes.push(w);
    return { model, notes };
  } catch (e) {
    if (e instanceof LoadError) throw e;
    if (e instanceof FormatError) throw new LoadError(e.message, e.offset);
    throw new LoadError(e instanceof Error ? e.message : String(e), null);
  }
}

/**
 * The clips the viewer lists: the engines' (core/lookup/clips.ts), and "(all frames)" to
 * scrub through everything (first for a DPM without .framegroups, where every frame is a clip),
 * played at the model's own rate where it has one (every clip that names a rate names the same,
 * as an MD5's animations do), else at the default.
 */
export function viewClips(model: Model, fileName: string, sidecars: Sidecars, notes: string[]): ViewClip[] {
  const found = modelClips(model, fileName, sidecars);
  const clips: ViewClip[] = found.clips;
  notes.push(...found.warnings);
  if (found.from === 'framegroups') notes.push(`clips from ${found.file}`);
  const perFrame = model.format === 'dpm' && found.from !== 'framegroups';
  if (model.frameCount > 1) {
    const all: ViewClip = { name: '(all frames)', firstFrame: 0, frameCount: model.frameCount, fps: sharedRate(clips), loop: true, source: 'viewer' };
    if (perFrame || model.clips.length === 0) clips.unshift(all);
    else clips.push(all);
  }
  return clips;
}

/** The frame rate every clip that has one shares, or 0 (none, or they differ). */
function sharedRate(clips: readonly ViewClip[]): number {
  let rate = 0;
  for (const c of clips) {
    if (!(c.fps > 0)) continue;
    if (rate > 0 && c.fps !== rate) return 0;
    rate = c.fps;
  }
  return rate;
}

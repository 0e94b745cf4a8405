// A glTF 2.0 (.gltf JSON or .glb) as a compile source (core/compile/sources.ts): decoded before the
// compile starts (decode.ts: the glTF library's reader is async), then read into the SourceModel
// by the source's read() (reader.ts), synchronously, as every source is read. Kept apart from
// sources.ts so that the glTF library enters only the bundles that compile glTF (the CLI and the
// compile workers), not the webview's or the language server's.
import type { SourceOptions } from '../compile/options';
import { readFailed, ReadError } from '../compile/readError';
import type { CompileSource, SourceRead } from '../compile/sources';
import { stemOf } from '../paths';
import { lineNote } from '../compile/options';
import { decodeGltf, type DecodedGltf, type GltfImage, type ResourceReader } from './decode';
import { type GltfMaterialColor, materialColors, readGltfDocument } from './reader';

export type { GltfImage, ResourceReader } from './decode';
export { GLTF_SAMPLE_FPS, type GltfMaterialColor } from './reader';

/** A glTF compile source: also its images, for --textures (empty when the file could not be decoded). */
export interface GltfCompileSource extends CompileSource {
  images: readonly GltfImage[];
  /** Its materials without a texture and their colours (the preview draws them; empty when it could not be decoded). */
  materials: readonly GltfMaterialColor[];
}

/**
 * A glTF or GLB (its bytes) named `name`, as a compile source; `resources` reads the files it
 * names (its .bin, its images), relative to it. `options.fps` is the rate its animations are
 * sampled at (default: the rate its key times are evidently on, else 30, reader.ts);
 * `options.materialColors: false` keeps the colours of materials without a texture out of the
 * vertex colours; the other animation options apply as to any source with one animation. Never
 * rejects: a broken file is a
 * source whose read() gives the error.
 */
export async function gltfSource(bytes: Uint8Array, name = '', resources?: ResourceReader, options: SourceOptions = {}): Promise<GltfCompileSource> {
  const { fps, materialColors: bake, ...rest } = options;
  const stem = stemOf(name) || 'model';
  let decoded: DecodedGltf | null = null;
  let failure: SourceRead | null = null;
  try {
    decoded = await decodeGltf(bytes, stem, resources);
  } catch (error) {
    failure = readFailed(error);
  }
  const source: GltfCompileSource = {
    name,
    options: rest,
    images: decoded ? decoded.images : [],
    materials: decoded ? materialColors(decoded.document, decoded.images, bake !== false) : [],
    read(): SourceRead {
      if (failure || !decoded) return failure ?? readFailed(new ReadError('gltf-invalid', 'the glTF was read already', 0));
      const diagnostics = decoded.warnings.map((w) => lineNote('warning', 'gltf-image', w, 0));
      if (fps !== undefined && !(fps > 0)) diagnostics.push(lineNote('warning', 'cli-option-ignored', `--fps ${fps} is ignored: a frame rate must be above 0 (the animations are sampled at the default)`, 0));
      try {
        const read = readGltfDocument(decoded.document, { fps: fps !== undefined && fps > 0 ? fps : undefined, stem, images: decoded.images, materialColors: bake });
        return { model: read.model, diagnostics: [...diagnostics, ...read.diagnostics] };
      } catch (error) {
        const failed = readFailed(error);
        return { model: null, diagnostics: [...diagnostics, ...failed.diagnostics] };
      }
    },
  };
  return source;
}

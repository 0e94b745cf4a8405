// The model's textures in the webview: the host's lookup results per mesh (and per player part),
// their decoded pixels, and the materials made from them. The decoded sources are kept so that the
// GPU textures can be made again after a WebGL context loss or when a part's GPU model is rebuilt.
// TGA is decoded in core; PNG and JPEG by the browser.

import { decodeTga } from '../core/image/tga';
import type { Mesh, Model } from '../core/model/model';
import type { TextureRequest, TextureResult } from '../core/protocol';
import { textureNames, type SkinChoice } from '../core/lookup/meshTextures';
import type { MaterialGpu, ModelGpu, Renderer } from './renderer/renderer';

/** A texture's decoded source, kept so it can be re-uploaded after a context loss. */
export type TextureSourceData = { width: number; height: number; pixels: Uint8Array } | TexImageSource;

/** What one mesh draws with: the decoded image (null: none found) and the shader's flags. */
interface MeshMaterial {
  source: TextureSourceData | null;
  twoSided: boolean;
  alphaTest: number;
  blend: MaterialGpu['blend'];
}

const NO_MATERIAL: MeshMaterial = { source: null, twoSided: false, alphaTest: -1, blend: null };

export class Textures {
  /** The host's answer per mesh of the opened model (null: not answered yet). */
  results: (TextureResult | null)[] = [];
  private meshes: MeshMaterial[] = [];
  /** Other player parts' meshes, by request key `part:mesh`. */
  private readonly parts = new Map<string, MeshMaterial>();

  /** A new model of `meshCount` meshes: nothing resolved yet. */
  reset(meshCount: number): void {
    this.results = Array.from({ length: meshCount }, () => null);
    this.meshes = Array.from({ length: meshCount }, () => NO_MATERIAL);
    this.parts.clear();
  }

  clearParts(): void {
    this.parts.clear();
  }

  /** Sets every known material of the opened model on a (new) GPU model. */
  upload(renderer: Renderer, gpu: ModelGpu): void {
    this.meshes.forEach((m, i) => gpu.setMaterial(i, material(renderer, gpu, m)));
  }

  /** Sets the known materials of a player part on its (new) GPU model. */
  uploadPart(renderer: Renderer, part: string, gpu: ModelGpu, meshCount: number): void {
    for (let i = 0; i < meshCount; i++) {
      const m = this.parts.get(`${part}:${i}`);
      if (m) gpu.setMaterial(i, material(renderer, gpu, m));
    }
  }

  /**
   * Decodes the host's results (without a renderer, only the lookup is kept: the info panel shows
   * it) and sets them on the GPU models. `current()` says whether this load is still the one shown.
   * Decoding problems go to `notes`.
   */
  async apply(
    results: TextureResult[],
    target: { renderer: Renderer | null; gpu: ModelGpu | null; partGpu(part: string): ModelGpu | null },
    notes: string[],
    current: () => boolean,
  ): Promise<void> {
    // Results naming the same image (meshes sharing a skin) decode it once, to one source.
    const decoded = new Map<string, Promise<TextureSourceData | null>>();
    const decodeOnce = (res: TextureResult): Promise<TextureSourceData | null> => {
      const src = res.source;
      const key = src.kind === 'bytes' ? `bytes:${src.mime}:${src.path}` : src.kind === 'uri' ? `uri:${src.uri}` : src.kind === 'color' ? `color:${src.rgba.join()}` : null;
      if (key === null) return decodeSource(res);
      let pending = decoded.get(key);
      if (!pending) {
        pending = decodeSource(res);
        decoded.set(key, pending);
      }
      return pending;
    };
    await Promise.all(
      results.map(async (res) => {
        const colon = res.key.indexOf(':');
        const part = colon > 0 ? res.key.slice(0, colon) : null;
        const mesh = Number(colon > 0 ? res.key.slice(colon + 1) : res.key);
        if (part === null && !(mesh >= 0 && mesh < this.results.length)) return;
        if (part === null) this.results[mesh] = res;
        let source: TextureSourceData | null = null;
        try {
          if (target.renderer) source = await decodeOnce(res);
        } catch (e) {
          const what = part ? `for ${part}.md3` : res.source.kind === 'bytes' || res.source.kind === 'uri' ? res.source.path : '';
          notes.push(`texture ${what}: ${e instanceof Error ? e.message : String(e)}`);
        }
        if (!current()) return;
        const m: MeshMaterial = { source, twoSided: res.twoSided, alphaTest: res.alphaTest ? alphaThreshold(res.alphaTest) : -1, blend: res.blend ?? null };
        if (part === null) this.meshes[mesh] = m;
        else this.parts.set(res.key, m);
        const gpu = part === null ? target.gpu : target.partGpu(part);
        if (gpu && target.renderer && !target.renderer.contextLost) gpu.setMaterial(mesh, material(target.renderer, gpu, m));
      }),
    );
  }
}

/** A mesh's material on `gpu`: meshes whose image is the same decoded source share its texture. */
function material(renderer: Renderer, gpu: ModelGpu, m: MeshMaterial): MaterialGpu {
  const source = m.source;
  return { texture: source ? gpu.textureFor(source, () => renderer.createTexture(source)) : null, twoSided: m.twoSided, alphaTest: m.alphaTest, blend: m.blend };
}

/** The alpha-test threshold of a Q3 shader's alphaFunc (-1: none). */
function alphaThreshold(func: string): number {
  switch (func.toUpperCase()) {
    case 'GT0':
      return 1 / 255;
    case 'LT128':
    case 'GE128':
      return 0.5;
    default:
      return -1;
  }
}

async function decodeSource(res: TextureResult): Promise<TextureSourceData | null> {
  const src = res.source;
  switch (src.kind) {
    case 'none':
      return null;
    case 'color':
      // One texel of the colour: the mesh is drawn lit in it, as with an image.
      return { width: 1, height: 1, pixels: Uint8Array.from(src.rgba, (x) => Math.round(Math.min(Math.max(x, 0), 1) * 255)) };
    case 'bytes': {
      if (src.mime === 'image/x-tga') return decodeTga(new Uint8Array(src.bytes));
      return await createImageBitmap(new Blob([src.bytes], { type: src.mime }));
    }
    case 'uri': {
      if (src.mime === 'image/x-tga') {
        const response = await fetch(src.uri);
        if (!response.ok) throw new Error(`could not be read (${response.status} ${response.statusText})`);
        return decodeTga(new Uint8Array(await response.arrayBuffer()));
      }
      const img = new Image();
      img.src = src.uri;
      await img.decode();
      return img;
    }
  }
}

/**
 * What the host is asked for each mesh of `model`: the names to try (the skin's, the shaders', the
 * material), keyed by the mesh's index after `prefix` (`part:` for a player's other parts).
 */
export function textureRequests(model: Model, skin: SkinChoice | null, prefix = ''): TextureRequest[] {
  return model.meshes.map((_, i) => ({ key: `${prefix}${i}`, names: textureNames(model, i, skin?.skin ?? null), skin: skin ? skin.name : null }));
}

/** A mesh engines do not draw: its material or one of its shaders is nodraw. */
export function isNodrawMesh(m: Mesh): boolean {
  return isNodraw(m.material) || m.shaders.some(isNodraw);
}

/** A shader or material name engines do not draw (Q3's common/nodraw, DarkPlaces' nodraw). */
export function isNodraw(name: string): boolean {
  return /(^|\/)nodraw$/i.test(name.trim().replace(/\.(tga|png|jpe?g)$/i, ''));
}

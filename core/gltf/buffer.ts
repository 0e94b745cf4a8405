// The binary buffer of a glTF as it is written: each part a 4-byte aligned buffer view, accessors
// over them with the min/max glTF requires (POSITION, animation inputs), padded to 4 at the end.
// The model writer (writer.ts) and the tests' fixture generator (test/helpers/gltf-writer.ts) build
// their buffers with it. The parts are kept as given (not copied) until bytes() joins them.
import { FLOAT, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT } from './constants';

type Json = Record<string, unknown>;

/** The binary buffer as it is built: 4-byte aligned views of the parts, and the accessors on them. */
export class GltfBufferBuilder {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  readonly views: Json[] = [];
  readonly accessors: Json[] = [];

  view(bytes: Uint8Array, target?: number): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) {
      this.parts.push(new Uint8Array(pad));
      this.length += pad;
    }
    this.parts.push(bytes);
    this.views.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.byteLength, ...(target ? { target } : {}) });
    this.length += bytes.byteLength;
    return this.views.length - 1;
  }

  /** An accessor of `count` elements of `type` over the array (its own view); min/max where glTF requires them. */
  accessor(data: Float32Array | Uint8Array | Uint16Array | Uint32Array, type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4', options: { target?: number; bounds?: boolean } = {}): number {
    const size = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[type];
    const componentType = data instanceof Float32Array ? FLOAT : data instanceof Uint8Array ? UNSIGNED_BYTE : data instanceof Uint16Array ? UNSIGNED_SHORT : UNSIGNED_INT;
    const count = data.length / size;
    const view = this.view(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), options.target);
    const accessor: Json = { bufferView: view, componentType, count, type };
    if (options.bounds) {
      accessor.min = componentExtremes(data, size, -1);
      accessor.max = componentExtremes(data, size, 1);
    }
    this.accessors.push(accessor);
    return this.accessors.length - 1;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length + ((4 - (this.length % 4)) % 4));
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.byteLength;
    }
    return out;
  }
}

/** The least (sign -1) or greatest (sign 1) value of each of the `size` components of the elements of `data`. */
function componentExtremes(data: Float32Array | Uint8Array | Uint16Array | Uint32Array, size: number, sign: 1 | -1): number[] {
  const out: number[] = [];
  for (let k = 0; k < size; k++) {
    let best = -sign * Infinity;
    for (let i = k; i < data.length; i += size) if (sign * data[i] > sign * best) best = data[i];
    out.push(best);
  }
  return out;
}

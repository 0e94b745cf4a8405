// Small glTF 2.0 files made in the tests: a JSON document and one buffer, written as a GLB or as
// a .gltf with the buffer as a data: URI (or beside it). Each accessor gets its own buffer view,
// 4-byte aligned; min/max are written for POSITION-like data when asked.

export type AccessorType = 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4';

const WIDTH: Record<AccessorType, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
import { FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT, BYTE, SHORT } from '../../core/gltf/constants';

export { FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT, BYTE, SHORT };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export class GltfBuilder {
  readonly json: Json = { asset: { version: '2.0', generator: 'iqm-tools tests' }, scene: 0, scenes: [{ nodes: [] }], nodes: [], meshes: [], accessors: [], bufferViews: [], buffers: [] };
  private bytes: number[] = [];

  /** Adds values as an accessor (its own buffer view); returns its index. */
  accessor(values: readonly number[], type: AccessorType, componentType = FLOAT, extra: Json = {}): number {
    while (this.bytes.length % 4 !== 0) this.bytes.push(0);
    const offset = this.bytes.length;
    const view = new DataView(new ArrayBuffer(values.length * (componentType === FLOAT || componentType === UNSIGNED_INT ? 4 : componentType === UNSIGNED_SHORT || componentType === SHORT ? 2 : 1)));
    values.forEach((v, i) => {
      if (componentType === FLOAT) view.setFloat32(4 * i, v, true);
      else if (componentType === UNSIGNED_INT) view.setUint32(4 * i, v, true);
      else if (componentType === UNSIGNED_SHORT) view.setUint16(2 * i, v, true);
      else if (componentType === SHORT) view.setInt16(2 * i, v, true);
      else if (componentType === BYTE) view.setInt8(i, v);
      else view.setUint8(i, v);
    });
    // One byte at a time: a spread of a large accessor's bytes overflows the call stack.
    for (const byte of new Uint8Array(view.buffer)) this.bytes.push(byte);
    this.json.bufferViews.push({ buffer: 0, byteOffset: offset, byteLength: view.byteLength });
    const width = WIDTH[type];
    const accessor: Json = { bufferView: this.json.bufferViews.length - 1, componentType, count: values.length / width, type, ...extra };
    if (type === 'VEC3' && componentType === FLOAT && extra.min === undefined) {
      accessor.min = [0, 1, 2].map((k) => values.reduce((m, v, i) => (i % 3 === k ? Math.min(m, v) : m), Infinity));
      accessor.max = [0, 1, 2].map((k) => values.reduce((m, v, i) => (i % 3 === k ? Math.max(m, v) : m), -Infinity));
    }
    this.json.accessors.push(accessor);
    return this.json.accessors.length - 1;
  }

  /** Adds a node (a root of the scene unless `child`); returns its index. */
  node(def: Json, child = false): number {
    this.json.nodes.push(def);
    const index = this.json.nodes.length - 1;
    if (!child) this.json.scenes[0].nodes.push(index);
    return index;
  }

  /** Adds a mesh of one primitive; returns its index. */
  mesh(attributes: Json, indices?: number, extra: Json = {}): number {
    this.json.meshes.push({ primitives: [{ attributes, ...(indices === undefined ? {} : { indices }), ...extra }] });
    return this.json.meshes.length - 1;
  }

  private finish(): Uint8Array {
    const bin = Uint8Array.from(this.bytes);
    this.json.buffers = [{ byteLength: bin.length }];
    return bin;
  }

  /** The file as a GLB. */
  glb(): Uint8Array {
    const bin = this.finish();
    return glbOf(JSON.stringify(this.json), bin);
  }

  /** The file as .gltf JSON with its buffer as a data: URI. */
  gltf(): string {
    const bin = this.finish();
    this.json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
    return JSON.stringify(this.json, null, 1);
  }

  /** The file as .gltf JSON naming `uri` for its buffer, and the buffer's bytes. */
  separate(uri: string): { json: string; bin: Uint8Array } {
    const bin = this.finish();
    this.json.buffers[0].uri = uri;
    return { json: JSON.stringify(this.json, null, 1), bin };
  }
}

/** A GLB of a JSON text and a BIN chunk (both padded to 4 bytes). */
export function glbOf(jsonText: string, bin: Uint8Array): Uint8Array {
  const json = Buffer.from(jsonText, 'utf8');
  const jsonLength = Math.ceil(json.length / 4) * 4, binLength = Math.ceil(bin.length / 4) * 4;
  const total = 12 + 8 + jsonLength + (bin.length > 0 ? 8 + binLength : 0);
  const out = Buffer.alloc(total, 0);
  out.write('glTF', 0, 'ascii');
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(total, 8);
  out.writeUInt32LE(jsonLength, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  json.copy(out, 20);
  out.fill(0x20, 20 + json.length, 20 + jsonLength);
  if (bin.length > 0) {
    out.writeUInt32LE(binLength, 20 + jsonLength);
    out.writeUInt32LE(0x004e4942, 24 + jsonLength);
    out.set(bin, 28 + jsonLength);
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/**
 * A two-joint skinned strip (a quad of 2 triangles per segment, 3 segments along +Y, glTF's up):
 * joint 0 at the origin, joint 1 at y = 1 (its child); the top two rows weighted to joint 1, the
 * others to joint 0. With `animation`, joint 1 turns 90 degrees about X between `start` and
 * `start + 1` seconds (LINEAR).
 */
export function skinnedStrip(options: { animation?: boolean; start?: number; interpolation?: string } = {}): GltfBuilder {
  const b = new GltfBuilder();
  const positions: number[] = [], joints: number[] = [], weights: number[] = [], uvs: number[] = [];
  for (let row = 0; row < 4; row++) {
    for (const x of [-0.5, 0.5]) {
      positions.push(x, row * 0.66, 0);
      uvs.push(x + 0.5, row / 3);
      joints.push(row >= 2 ? 1 : 0, 0, 0, 0);
      weights.push(1, 0, 0, 0);
    }
  }
  const indices: number[] = [];
  for (let row = 0; row < 3; row++) {
    const a = 2 * row;
    indices.push(a, a + 1, a + 3, a, a + 3, a + 2);
  }
  const position = b.accessor(positions, 'VEC3');
  const joint = b.accessor(joints, 'VEC4', UNSIGNED_BYTE);
  const weight = b.accessor(weights, 'VEC4');
  const uv = b.accessor(uvs, 'VEC2');
  const index = b.accessor(indices, 'SCALAR', UNSIGNED_SHORT);
  const mesh = b.mesh({ POSITION: position, JOINTS_0: joint, WEIGHTS_0: weight, TEXCOORD_0: uv }, index);
  const root = b.node({ name: 'root', children: [1] });
  b.node({ name: 'tip', translation: [0, 1, 0] }, true);
  b.node({ name: 'strip', mesh, skin: 0 });
  const ibm = b.accessor([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1], 'MAT4');
  b.json.skins = [{ joints: [root, 1], inverseBindMatrices: ibm }];
  if (options.animation) {
    const start = options.start ?? 0;
    const s = Math.SQRT1_2;
    const times = b.accessor([start, start + 1], 'SCALAR', FLOAT, { min: [start], max: [start + 1] });
    const cubic = options.interpolation === 'CUBICSPLINE';
    const values = cubic ? [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, s, 0, 0, s, 0, 0, 0, 0] : [0, 0, 0, 1, s, 0, 0, s];
    const rotations = b.accessor(values, 'VEC4');
    b.json.animations = [{ name: 'bend', samplers: [{ input: times, output: rotations, interpolation: options.interpolation ?? 'LINEAR' }], channels: [{ sampler: 0, target: { node: 1, path: 'rotation' } }] }];
  }
  return b;
}

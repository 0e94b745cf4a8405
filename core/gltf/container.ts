// The glTF 2.0 container, before the glTF library sees it: a GLB's header and chunks, the JSON
// (with the line and column of a syntax error), and every index and byte range the JSON gives
// checked against what it points to. The library (decode.ts) trusts its input: a view past its
// buffer becomes a short typed array there, an index past a list an undefined it trips over
// later. Here each such problem is one error that names the accessor, buffer view, node, ... and
// the byte offset.
import { decodeUtf8 } from '../binary';
import { ReadError } from '../compile/readError';
import { utf8Length } from '../utf8';
import { jsonSyntaxError, lineAndColumn } from './jsonSyntax';
import { BYTE, COMPONENT_NAMES, COMPONENT_SIZES, FLOAT, SHORT, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT } from './constants';

/** "glTF" as a little-endian uint32: a GLB's first four bytes. */
const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/** A glTF's JSON (loosely typed: every field is checked before use) and its GLB binary chunk. */
export interface GltfContainer {
  json: GltfJson;
  /** The GLB's BIN chunk (the buffer without a uri), or null. */
  bin: Uint8Array | null;
  /** Whether it came as a GLB. */
  binary: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GltfJson = Record<string, any>;

/** Whether the bytes are a GLB (by its magic). */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

/** Reads a GLB or a .gltf JSON text (UTF-8 bytes); throws ReadError. */
export function readContainer(bytes: Uint8Array): GltfContainer {
  if (!isGlb(bytes)) return { json: parseJson(decodeUtf8(bytes, 0, bytes.length), 0, false), bin: null, binary: false };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) throw new ReadError('glb-header', `GLB header truncated: ${bytes.length} bytes, a header has 12 (at byte 0)`, 0);
  const version = view.getUint32(4, true);
  if (view.getUint32(0, true) !== GLB_MAGIC || version !== 2) throw new ReadError('glb-header', `GLB version ${version}: only glTF 2.0 GLB files are read (at byte 4)`, 0);
  const length = view.getUint32(8, true);
  if (length > bytes.length) throw new ReadError('glb-truncated', `GLB truncated: its header says ${length} bytes, the file has ${bytes.length} (at byte 8)`, 0);
  let json: GltfJson | null = null;
  let bin: Uint8Array | null = null;
  let at = 12;
  while (at < length) {
    if (at + 8 > length) throw new ReadError('glb-truncated', `GLB chunk header truncated at byte ${at} (the file's length is ${length})`, 0);
    const chunkLength = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    if (at + 8 + chunkLength > length) {
      throw new ReadError('glb-truncated', `GLB chunk at byte ${at} says ${chunkLength} bytes, past the end of the file (${length} bytes: ${length - at - 8} left)`, 0);
    }
    const data = bytes.subarray(at + 8, at + 8 + chunkLength);
    if (json === null) {
      if (type !== CHUNK_JSON) throw new ReadError('glb-chunk', `the first GLB chunk (at byte ${at}) is not JSON`, 0);
      json = parseJson(decodeUtf8(data, 0, data.length), at + 8, true);
    } else if (type === CHUNK_BIN && bin === null) {
      bin = data;
    }
    // Chunks are 4-byte aligned; an unknown chunk type is skipped, as the specification says.
    at += 8 + chunkLength + ((4 - (chunkLength % 4)) % 4);
  }
  if (json === null) throw new ReadError('glb-chunk', 'the GLB has no JSON chunk (at byte 12)', 0);
  return { json, bin, binary: true };
}

/**
 * JSON.parse with the error in one line, at its place: a line and column (a .gltf) or a byte
 * offset (a GLB's JSON chunk). The place and reason are our own (jsonSyntax.ts), not the engine's
 * message, which may quote the input over several lines and give no position.
 */
function parseJson(text: string, chunkOffset: number, binary: boolean): GltfJson {
  // A byte order mark is no column in an editor (and bytes before the JSON in a GLB).
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const body = bom ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const found = jsonSyntaxError(body);
    // No error of ours (the engine refused for another reason): its message's first line.
    const reason = found ? found.message : (error instanceof Error ? error.message : String(error)).split(/\r?\n/)[0].replace(/^JSON\.parse: /, '');
    const at = found ? found.offset : 0;
    const { line, column } = lineAndColumn(body, at);
    // A .gltf's diagnostic is at the line and column; a GLB's at its top, so the message says the byte.
    const where = binary && found ? ` (at byte ${chunkOffset + 3 * bom + utf8Length(body.slice(0, at))})` : '';
    throw new ReadError('gltf-json', `the glTF JSON is not valid: ${reason}${where}`, binary ? 0 : line, binary ? 0 : column);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ReadError('gltf-json', 'the glTF JSON is not an object', 0);
  return value as GltfJson;
}

const TYPE_SIZES: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** What the glTF specification allows an accessor used so to be: its types, and its component types (`n`: normalized). */
interface AccessorFormat {
  types: readonly string[];
  components: readonly (readonly [number, boolean])[];
}

const FLOAT_ONLY = [[FLOAT, false]] as const;
/** Float, or unsigned integers read as 0..1 (texture coordinates, colours, weights). */
const UNSIGNED_NORMALIZED = [[FLOAT, false], [UNSIGNED_BYTE, true], [UNSIGNED_SHORT, true]] as const;
/** Float, or any integer read as -1..1 or 0..1 (rotations and morph weights in animations, morph target sets). */
const ANY_NORMALIZED = [[FLOAT, false], [BYTE, true], [UNSIGNED_BYTE, true], [SHORT, true], [UNSIGNED_SHORT, true]] as const;

/**
 * Each use of an accessor and what it may be (glTF 2.0, §3.7.2.1 mesh attributes, §3.7.2.2 morph
 * targets, §3.7.2.1 indices, §5.28 skins, §3.11 animations). A float VEC3 as indices read as
 * indices made vertices past the primitive's and NaN positions in the IQM.
 */
const ACCESSOR_FORMATS: Readonly<Record<string, AccessorFormat>> = {
  indices: { types: ['SCALAR'], components: [[UNSIGNED_BYTE, false], [UNSIGNED_SHORT, false], [UNSIGNED_INT, false]] },
  POSITION: { types: ['VEC3'], components: FLOAT_ONLY },
  NORMAL: { types: ['VEC3'], components: FLOAT_ONLY },
  TANGENT: { types: ['VEC4'], components: FLOAT_ONLY },
  TEXCOORD: { types: ['VEC2'], components: UNSIGNED_NORMALIZED },
  COLOR: { types: ['VEC3', 'VEC4'], components: UNSIGNED_NORMALIZED },
  JOINTS: { types: ['VEC4'], components: [[UNSIGNED_BYTE, false], [UNSIGNED_SHORT, false]] },
  WEIGHTS: { types: ['VEC4'], components: UNSIGNED_NORMALIZED },
  'target POSITION': { types: ['VEC3'], components: FLOAT_ONLY },
  'target NORMAL': { types: ['VEC3'], components: FLOAT_ONLY },
  'target TANGENT': { types: ['VEC3'], components: FLOAT_ONLY },
  'target TEXCOORD': { types: ['VEC2'], components: ANY_NORMALIZED },
  'target COLOR': { types: ['VEC3', 'VEC4'], components: ANY_NORMALIZED },
  inverseBindMatrices: { types: ['MAT4'], components: FLOAT_ONLY },
  input: { types: ['SCALAR'], components: FLOAT_ONLY },
  translation: { types: ['VEC3'], components: FLOAT_ONLY },
  rotation: { types: ['VEC4'], components: ANY_NORMALIZED },
  scale: { types: ['VEC3'], components: FLOAT_ONLY },
  weights: { types: ['SCALAR'], components: ANY_NORMALIZED },
};

/** `VEC3 of FLOAT`, `VEC2 of normalized UNSIGNED_BYTE`. */
function formatName(type: string, component: number, normalized: boolean): string {
  return `${type} of ${normalized ? 'normalized ' : ''}${COMPONENT_NAMES[component]}`;
}

/** `a, b or c`. */
function either(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** The format of a use of an accessor: by its semantic (TEXCOORD_1 as TEXCOORD; application-specific `_NAME`: none). */
function formatOf(use: string): AccessorFormat | undefined {
  return ACCESSOR_FORMATS[use.replace(/_\d+$/, '')];
}

/** A property for messages: `accessor 3 ('Cube_POSITION')`. */
export function label(kind: string, index: number, def: unknown): string {
  const name = typeof def === 'object' && def !== null && typeof (def as { name?: unknown }).name === 'string' ? (def as { name: string }).name : '';
  return name !== '' ? `${kind} ${index} ('${name}')` : `${kind} ${index}`;
}

const SINGULAR: Readonly<Record<string, string>> = { accessors: 'accessor', bufferViews: 'buffer view', buffers: 'buffer', nodes: 'node', meshes: 'mesh', skins: 'skin', materials: 'material', textures: 'texture', images: 'image', animations: 'animation', scenes: 'scene', cameras: 'camera', samplers: 'sampler' };

function fail(message: string, code = 'gltf-invalid'): never {
  throw new ReadError(code, message, 0);
}

function list(json: GltfJson, key: string): GltfJson[] {
  const value = json[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`'${key}' is not an array`);
  value.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) fail(`${key}[${i}] is not an object`);
    if (item.name !== undefined && typeof item.name !== 'string') fail(`${key}[${i}]: name is not a string`);
  });
  return value as GltfJson[];
}

function isObject(value: unknown): value is GltfJson {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * How much accessors without a buffer view may expand to: this many times the file's buffers, or
 * the floor (sparse morph targets over a mesh are as large as its positions, far below either).
 */
const ZERO_ACCESSOR_MULTIPLE = 16;
const ZERO_ACCESSOR_FLOOR = 64 * 2 ** 20;

/**
 * Checks every reference and byte range of the JSON, given each buffer's bytes (null where a
 * buffer could not be had: an error naming it). Throws ReadError.
 */
export function checkJson(json: GltfJson, buffers: readonly (Uint8Array | null)[]): void {
  const asset = json.asset;
  if (typeof asset !== 'object' || asset === null) fail("the JSON has no 'asset': not a glTF");
  if (typeof asset.version !== 'string' || !/^2\.\d+$/.test(asset.version)) fail(`glTF version '${String(asset.version)}': only glTF 2.0 is read`, 'gltf-version');
  // Before the accessors: a required extension (quantisation) allows accessor formats glTF itself does not.
  const required = Array.isArray(json.extensionsRequired) ? json.extensionsRequired : [];
  if (required.length > 0) fail(`the glTF requires extension ${required.map((e) => JSON.stringify(String(e))).join(', ')}, which is not read: export without compression or quantisation`, 'gltf-extension');
  const counts: Record<string, number> = {};
  for (const key of ['accessors', 'bufferViews', 'buffers', 'nodes', 'meshes', 'skins', 'materials', 'textures', 'images', 'animations', 'scenes', 'cameras', 'samplers']) counts[key] = list(json, key).length;
  const ref = (value: unknown, key: string, where: string): void => {
    if (value === undefined) return;
    if (!isCount(value) || value >= counts[key]) fail(`${where} refers to ${SINGULAR[key] ?? key} ${String(value)}, but the file has ${counts[key]} ${key}`);
  };

  list(json, 'buffers').forEach((buffer, i) => {
    const where = label('buffer', i, buffer);
    if (buffer.uri !== undefined && typeof buffer.uri !== 'string') fail(`${where}: uri is not a string`);
    if (!isCount(buffer.byteLength)) fail(`${where}: byteLength is not a count`);
    const data = buffers[i];
    if (!data) fail(`${where}${buffer.uri === undefined ? '' : ` (${shortUri(buffer.uri)})`} cannot be read`, 'gltf-resource');
    if (data.length < buffer.byteLength) fail(`${where}${buffer.uri === undefined ? ' (the GLB BIN chunk)' : ` (${shortUri(buffer.uri)})`} has ${data.length} bytes, its byteLength says ${buffer.byteLength}`, 'gltf-buffer-range');
  });
  const views = list(json, 'bufferViews');
  views.forEach((view, i) => {
    const where = label('buffer view', i, view);
    ref(view.buffer, 'buffers', where);
    if (view.buffer === undefined) fail(`${where} has no buffer`);
    const offset = view.byteOffset ?? 0;
    if (!isCount(offset) || !isCount(view.byteLength)) fail(`${where}: byteOffset or byteLength is not a count`);
    const size = json.buffers[view.buffer].byteLength as number;
    if (offset + view.byteLength > size) fail(`${where}: bytes ${offset}..${offset + view.byteLength} are past the end of buffer ${view.buffer} (${size} bytes)`, 'gltf-buffer-range');
    if (view.byteStride !== undefined && (!isCount(view.byteStride) || view.byteStride < 4 || view.byteStride > 252 || view.byteStride % 4 !== 0)) fail(`${where}: byteStride ${String(view.byteStride)} is not a multiple of 4 in 4..252`);
  });
  // An accessor's elements within its buffer view: the last one ends at offset + stride * (count - 1) + element size.
  const span = (where: string, viewIndex: number, offset: number, count: number, elementSize: number): void => {
    const view = views[viewIndex];
    const stride = view.byteStride ?? elementSize;
    const end = count === 0 ? offset : offset + stride * (count - 1) + elementSize;
    if (end > view.byteLength) {
      fail(`${where}: ${count} elements of ${elementSize} bytes from byte ${offset} need ${end} bytes of buffer view ${viewIndex}, which has ${view.byteLength} (its data would run to byte ${(view.byteOffset ?? 0) + end} of buffer ${view.buffer})`, 'gltf-accessor-range');
    }
  };
  // Accessors without a buffer view are zeros (with sparse values, or not) that the reader makes:
  // their bytes are not in the file. A 250-byte .gltf with one of 100,000,000 VEC3 took 17 GB.
  let zeroBytes = 0;
  let largestZero = { bytes: 0, where: '' };
  list(json, 'accessors').forEach((accessor, i) => {
    const where = label('accessor', i, accessor);
    const component = COMPONENT_SIZES[accessor.componentType as number];
    const width = TYPE_SIZES[accessor.type as string];
    if (!component) fail(`${where}: componentType ${String(accessor.componentType)} is not a glTF component type`);
    if (!width) fail(`${where}: type '${String(accessor.type)}' is not a glTF accessor type`);
    if (!isCount(accessor.count) || accessor.count < 1) fail(`${where}: count ${String(accessor.count)} is not at least 1`);
    if (accessor.normalized !== undefined && typeof accessor.normalized !== 'boolean') fail(`${where}: normalized is not true or false`);
    if (accessor.normalized === true && (accessor.componentType === FLOAT || accessor.componentType === UNSIGNED_INT)) fail(`${where}: normalized ${COMPONENT_NAMES[accessor.componentType]}: glTF normalizes only 8- and 16-bit integers`, 'gltf-accessor-type');
    const offset = accessor.byteOffset ?? 0;
    if (!isCount(offset)) fail(`${where}: byteOffset is not a count`);
    if (accessor.bufferView !== undefined) {
      ref(accessor.bufferView, 'bufferViews', where);
      span(where, accessor.bufferView, offset, accessor.count, component * width);
    } else {
      const bytes = accessor.count * component * width;
      zeroBytes += bytes;
      if (bytes > largestZero.bytes) largestZero = { bytes, where };
    }
    const sparse = accessor.sparse;
    if (sparse !== undefined) {
      if (!isObject(sparse)) fail(`${where}: sparse is not an object`);
      if (!isCount(sparse.count) || sparse.count < 1 || sparse.count > accessor.count) fail(`${where}: sparse count ${String(sparse.count)} is not in 1..${accessor.count}`);
      const indices = sparse.indices ?? {}, values = sparse.values ?? {};
      const indexSize = COMPONENT_SIZES[indices.componentType as number];
      if (!indexSize || indices.componentType === BYTE || indices.componentType === SHORT || indices.componentType === FLOAT) fail(`${where}: sparse indices componentType ${String(indices.componentType)} is not an unsigned integer type`);
      ref(indices.bufferView, 'bufferViews', `${where} (sparse indices)`);
      ref(values.bufferView, 'bufferViews', `${where} (sparse values)`);
      if (indices.bufferView === undefined || values.bufferView === undefined) fail(`${where}: sparse indices or values have no buffer view`);
      span(`${where} (sparse indices)`, indices.bufferView, indices.byteOffset ?? 0, sparse.count, indexSize);
      span(`${where} (sparse values)`, values.bufferView, values.byteOffset ?? 0, sparse.count, component * width);
    }
  });

  const bufferBytes = buffers.reduce((sum, b) => sum + (b?.length ?? 0), 0);
  const zeroLimit = Math.max(ZERO_ACCESSOR_MULTIPLE * bufferBytes, ZERO_ACCESSOR_FLOOR);
  if (zeroBytes > zeroLimit) {
    fail(`accessors without a buffer view (zeros the reader makes) would take ${zeroBytes.toLocaleString('en-US')} bytes, more than ${ZERO_ACCESSOR_MULTIPLE} times the file's buffers (at least ${ZERO_ACCESSOR_FLOOR.toLocaleString('en-US')}); ${largestZero.where} alone ${largestZero.bytes.toLocaleString('en-US')}: a count that is not its mesh's?`, 'gltf-accessor-range');
  }

  // An accessor as its use needs it (ACCESSOR_FORMATS); `where` names the use.
  const used = (index: unknown, use: string, where: string): void => {
    const format = formatOf(use);
    if (!format || !isCount(index) || index >= counts.accessors) return;
    const accessor = json.accessors[index];
    const normalized = accessor.normalized === true;
    if (format.types.includes(accessor.type) && format.components.some(([c, n]) => c === accessor.componentType && n === normalized)) return;
    const allowed = `${either(format.types)} of ${either(format.components.map(([c, n]) => `${n ? 'normalized ' : ''}${COMPONENT_NAMES[c]}`))}`;
    fail(`${where} (${label('accessor', index, accessor)}) is ${formatName(accessor.type, accessor.componentType, normalized)}; glTF requires ${allowed}`, 'gltf-accessor-type');
  };

  list(json, 'images').forEach((image, i) => {
    ref(image.bufferView, 'bufferViews', label('image', i, image));
    if (image.uri !== undefined && typeof image.uri !== 'string') fail(`${label('image', i, image)}: uri is not a string`);
    if (image.bufferView === undefined && typeof image.uri !== 'string') fail(`${label('image', i, image)} has neither a uri nor a buffer view`);
  });
  list(json, 'textures').forEach((texture, i) => ref(texture.source, 'images', label('texture', i, texture)));
  list(json, 'materials').forEach((material, i) => {
    const where = label('material', i, material);
    const pbr = material.pbrMetallicRoughness ?? {};
    for (const info of [pbr.baseColorTexture, pbr.metallicRoughnessTexture, material.normalTexture, material.occlusionTexture, material.emissiveTexture]) {
      if (info !== undefined) {
        if (!isObject(info) || info.index === undefined) fail(`${where}: a texture reference without a texture index`);
        ref(info.index, 'textures', where);
        if (json.textures[info.index].source === undefined) fail(`${where} uses texture ${info.index}, which has no image`);
      }
    }
  });
  list(json, 'meshes').forEach((mesh, m) => {
    const where = label('mesh', m, mesh);
    const primitives = mesh.primitives;
    if (!Array.isArray(primitives)) fail(`${where} has no primitives`);
    primitives.forEach((p: GltfJson, k: number) => {
      const at = `${where} primitive ${k}`;
      if (typeof p !== 'object' || p === null || typeof p.attributes !== 'object' || p.attributes === null) fail(`${at} has no attributes`);
      // The specification: every attribute accessor of a primitive (and of its morph targets) has the same count.
      const counted = (semantic: string, accessor: unknown): void => {
        ref(accessor, 'accessors', `${at} attribute ${semantic}`);
        const position = p.attributes.POSITION;
        if (isCount(position) && position < counts.accessors && json.accessors[accessor as number].count !== json.accessors[position].count) {
          fail(`${at}: attribute ${semantic} (accessor ${String(accessor)}) has ${String(json.accessors[accessor as number].count)} elements, POSITION (accessor ${position}) ${String(json.accessors[position].count)}: a primitive's attributes have one count`);
        }
      };
      for (const [semantic, accessor] of Object.entries(p.attributes)) counted(semantic, accessor);
      ref(p.indices, 'accessors', `${at} indices`);
      ref(p.material, 'materials', at);
      for (const [t, target] of (Array.isArray(p.targets) ? p.targets : []).entries()) {
        if (!isObject(target)) fail(`${at}: morph target ${t} is not an object`);
        for (const [semantic, accessor] of Object.entries(target)) counted(`${semantic} of morph target ${t}`, accessor);
      }
      // Each accessor as its use needs it, once the counts agree.
      for (const [semantic, accessor] of Object.entries(p.attributes)) used(accessor, semantic, `${at}: attribute ${semantic}`);
      used(p.indices, 'indices', `${at}: indices`);
      for (const [t, target] of (Array.isArray(p.targets) ? p.targets : []).entries()) {
        for (const [semantic, accessor] of Object.entries(target as GltfJson)) used(accessor, `target ${semantic}`, `${at}: ${semantic} of morph target ${t}`);
      }
    });
  });
  const nodes = list(json, 'nodes');
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, n) => {
    const where = label('node', n, node);
    ref(node.mesh, 'meshes', where);
    ref(node.skin, 'skins', where);
    ref(node.camera, 'cameras', where);
    for (const child of Array.isArray(node.children) ? node.children : []) {
      ref(child, 'nodes', `${where} (children)`);
      if (parent[child] >= 0 || child === n) fail(`node ${child} has two parents (nodes ${parent[child]} and ${n}) or is its own child: the node hierarchy must be a tree`);
      parent[child] = n;
    }
    for (const [key, size] of [['translation', 3], ['rotation', 4], ['scale', 3], ['matrix', 16]] as const) {
      const v = node[key];
      if (v !== undefined && (!Array.isArray(v) || v.length !== size || v.some((x) => typeof x !== 'number' || !Number.isFinite(x)))) fail(`${where}: ${key} is not ${size} finite numbers`);
    }
  });
  // A cycle: a node that is its own ancestor. Each chain walked once (state: 1 on the walk, 2 done).
  const state = new Uint8Array(nodes.length);
  for (let n = 0; n < nodes.length; n++) {
    const walk: number[] = [];
    for (let p = n; p >= 0 && state[p] !== 2; p = parent[p]) {
      if (state[p] === 1) fail(`${label('node', p, nodes[p])} is its own ancestor: the node hierarchy has a cycle`);
      state[p] = 1;
      walk.push(p);
    }
    for (const p of walk) state[p] = 2;
  }
  list(json, 'skins').forEach((skin, s) => {
    const where = label('skin', s, skin);
    if (!Array.isArray(skin.joints) || skin.joints.length === 0) fail(`${where} has no joints`);
    skin.joints.forEach((j: unknown) => ref(j, 'nodes', `${where} (joints)`));
    ref(skin.inverseBindMatrices, 'accessors', `${where} inverseBindMatrices`);
    ref(skin.skeleton, 'nodes', `${where} skeleton`);
    if (skin.inverseBindMatrices !== undefined) {
      const accessor = json.accessors[skin.inverseBindMatrices];
      used(skin.inverseBindMatrices, 'inverseBindMatrices', `${where}: inverseBindMatrices`);
      if (accessor.count < skin.joints.length) fail(`${where}: inverseBindMatrices (accessor ${skin.inverseBindMatrices}) has ${accessor.count} matrices for ${skin.joints.length} joints`, 'gltf-accessor-range');
    }
  });
  list(json, 'animations').forEach((animation, a) => {
    const where = label('animation', a, animation);
    const samplers = Array.isArray(animation.samplers) ? animation.samplers : [];
    samplers.forEach((sampler: GltfJson, k: number) => {
      if (!isObject(sampler)) fail(`${where} sampler ${k} is not an object`);
      ref(sampler.input, 'accessors', `${where} sampler ${k} input`);
      ref(sampler.output, 'accessors', `${where} sampler ${k} output`);
      if (sampler.input === undefined || sampler.output === undefined) fail(`${where} sampler ${k} has no input or output`);
      const interpolation = sampler.interpolation ?? 'LINEAR';
      if (!['LINEAR', 'STEP', 'CUBICSPLINE'].includes(interpolation)) fail(`${where} sampler ${k}: interpolation '${String(interpolation)}' is not LINEAR, STEP or CUBICSPLINE`);
      const input = json.accessors[sampler.input], output = json.accessors[sampler.output];
      used(sampler.input, 'input', `${where} sampler ${k}: input`);
      const need = interpolation === 'CUBICSPLINE' ? 3 * input.count : input.count;
      // Morph-weight outputs have one value per target per key: a multiple.
      if (output.count < need || output.count % input.count !== 0) fail(`${where} sampler ${k}: output (accessor ${sampler.output}) has ${output.count} values for ${input.count} key times (${interpolation})`, 'gltf-accessor-range');
    });
    (Array.isArray(animation.channels) ? animation.channels : []).forEach((channel: GltfJson, k: number) => {
      if (!isObject(channel)) fail(`${where} channel ${k} is not an object`);
      if (!isCount(channel.sampler) || channel.sampler >= samplers.length) fail(`${where} channel ${k} refers to sampler ${String(channel.sampler)}, but the animation has ${samplers.length}`);
      ref(channel.target?.node, 'nodes', `${where} channel ${k}`);
      // The output's format depends on the property the channel drives.
      const path = channel.target?.path;
      if (typeof path === 'string' && ['translation', 'rotation', 'scale', 'weights'].includes(path) && isObject(samplers[channel.sampler])) {
        used(samplers[channel.sampler].output, path, `${where} channel ${k}: the ${path} output of sampler ${channel.sampler}`);
      }
    });
  });
  list(json, 'scenes').forEach((scene, s) => {
    for (const n of Array.isArray(scene.nodes) ? scene.nodes : []) ref(n, 'nodes', label('scene', s, scene));
  });
  ref(json.scene, 'scenes', "the file's 'scene'");
}

/** A uri for messages: a data: URI by its media type only. */
export function shortUri(uri: string): string {
  return uri.startsWith('data:') ? `${uri.slice(0, Math.max(uri.indexOf(','), 5))},…` : `'${uri}'`;
}

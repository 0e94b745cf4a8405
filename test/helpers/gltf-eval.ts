// The ground truth for the glTF -> IQM compile: a glTF 2.0 file evaluated from the specification
// alone (https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html), with its own minimal reader,
// independent of core/gltf. It answers: where is every vertex of the default scene at time t of an
// animation (or at rest), in IQM's axes.
//
// Conventions (all from the spec):
// - Matrices are 4x4 column-major Float64Array(16), as glTF stores them; they act on column vectors.
// - A node's local matrix is its `matrix`, else T · R · S; an animation channel replaces T, R or S.
// - Sampling (spec §3.11 and Appendix C): before the first key the first value, after the last the
//   last; STEP holds a key; LINEAR lerps, and slerps rotations along the shorter arc; CUBICSPLINE
//   is the cubic Hermite spline over [in-tangent, value, out-tangent] triples, tangents scaled by
//   the key interval; rotations are normalised after every interpolation.
// - Skinning (§3.7.3): jointMatrix_i = globalTransform(joint_i) · inverseBindMatrix_i and
//   p' = Σ_k w_k · jointMatrix_{j_k} · p over every JOINTS_n/WEIGHTS_n set; the transform of the
//   skinned mesh's own node is ignored. An unskinned mesh takes its node's global transform.
// - IQM is Z-up and glTF Y-up, both metres: (x, y, z) -> (x, -z, y).
// - Only triangle primitives (mode 4, the default) are evaluated; morph targets are not applied
//   (IQM cannot hold them: the compile writes the base mesh), so a `weights` channel is ignored.

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/** A glTF JSON document with its buffers loaded. Only the fields the evaluation reads are typed. */
export interface Gltf {
  json: GltfJson;
  buffers: Uint8Array[];
}

interface GltfJson {
  scene?: number;
  scenes?: { nodes?: number[]; name?: string }[];
  nodes?: GltfNode[];
  meshes?: { name?: string; primitives: GltfPrimitive[] }[];
  skins?: { joints: number[]; inverseBindMatrices?: number; skeleton?: number; name?: string }[];
  animations?: GltfAnimation[];
  accessors?: GltfAccessor[];
  bufferViews?: { buffer: number; byteOffset?: number; byteLength: number; byteStride?: number }[];
  buffers?: { uri?: string; byteLength: number }[];
}

export interface GltfNode {
  name?: string;
  children?: number[];
  mesh?: number;
  skin?: number;
  matrix?: number[];
  translation?: number[];
  rotation?: number[];
  scale?: number[];
}

interface GltfPrimitive {
  attributes: Record<string, number>;
  indices?: number;
  mode?: number;
  material?: number;
}

export interface GltfAnimation {
  name?: string;
  channels: { sampler: number; target: { node?: number; path: string } }[];
  samplers: { input: number; output: number; interpolation?: string }[];
}

interface GltfAccessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: string;
  sparse?: {
    count: number;
    indices: { bufferView: number; byteOffset?: number; componentType: number };
    values: { bufferView: number; byteOffset?: number };
  };
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/**
 * Parses a .glb or .gltf file. `sibling` reads a file the document names by relative URI (external
 * buffers); `data:` URIs are decoded here. Throws on anything malformed: this is a test oracle for
 * well-formed files, not a validator.
 */
export function loadGltf(bytes: Uint8Array, sibling: (uri: string) => Uint8Array): Gltf {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let json: GltfJson;
  let bin: Uint8Array | null = null;
  if (bytes.byteLength >= 12 && view.getUint32(0, true) === GLB_MAGIC) {
    // GLB: 12-byte header, then chunks (length, type, data), the JSON chunk first.
    const length = view.getUint32(8, true);
    if (view.getUint32(4, true) !== 2 || length > bytes.byteLength) throw new Error('GLB header: not version 2 or longer than the file');
    let offset = 12;
    let text: string | null = null;
    while (offset + 8 <= length) {
      const chunkLength = view.getUint32(offset, true);
      const type = view.getUint32(offset + 4, true);
      const data = bytes.subarray(offset + 8, offset + 8 + chunkLength);
      if (type === CHUNK_JSON && text === null) text = new TextDecoder().decode(data);
      else if (type === CHUNK_BIN && bin === null) bin = data;
      offset += 8 + chunkLength;
    }
    if (text === null) throw new Error('GLB without a JSON chunk');
    json = JSON.parse(text) as GltfJson;
  } else {
    json = JSON.parse(new TextDecoder().decode(bytes)) as GltfJson;
  }
  const buffers = (json.buffers ?? []).map((b, i) => {
    let data: Uint8Array;
    if (b.uri === undefined) {
      if (i !== 0 || !bin) throw new Error(`buffer ${i} has no uri and there is no GLB BIN chunk`);
      data = bin;
    } else if (b.uri.startsWith('data:')) {
      const comma = b.uri.indexOf(',');
      data = new Uint8Array(Buffer.from(b.uri.slice(comma + 1), 'base64'));
    } else {
      data = sibling(decodeURIComponent(b.uri));
    }
    if (data.byteLength < b.byteLength) throw new Error(`buffer ${i}: ${data.byteLength} bytes, byteLength says ${b.byteLength}`);
    return data;
  });
  return { json, buffers };
}

function componentReader(view: DataView, componentType: number, normalized: boolean): { size: number; read: (o: number) => number } {
  // Normalised integers per spec §3.11 (and KHR_mesh_quantization's table): signed c / max, clamped at -1.
  switch (componentType) {
    case 5120: return { size: 1, read: normalized ? (o) => Math.max(view.getInt8(o) / 127, -1) : (o) => view.getInt8(o) };
    case 5121: return { size: 1, read: normalized ? (o) => view.getUint8(o) / 255 : (o) => view.getUint8(o) };
    case 5122: return { size: 2, read: normalized ? (o) => Math.max(view.getInt16(o, true) / 32767, -1) : (o) => view.getInt16(o, true) };
    case 5123: return { size: 2, read: normalized ? (o) => view.getUint16(o, true) / 65535 : (o) => view.getUint16(o, true) };
    case 5125: return { size: 4, read: (o) => view.getUint32(o, true) };
    case 5126: return { size: 4, read: (o) => view.getFloat32(o, true) };
    default: throw new Error(`componentType ${componentType} is not a glTF component type`);
  }
}

/** An accessor's elements as numbers (normalised integers as floats), `count × components` long. */
export function readAccessor(gltf: Gltf, index: number): { data: Float64Array; components: number; count: number } {
  const acc = gltf.json.accessors?.[index];
  if (!acc) throw new Error(`accessor ${index} does not exist`);
  const components = COMPONENTS[acc.type];
  if (!components) throw new Error(`accessor ${index}: type ${acc.type}`);
  // Column padding of MAT2/MAT3 with 1- or 2-byte components is not needed by any file read here.
  if ((acc.type === 'MAT2' || acc.type === 'MAT3') && acc.componentType !== 5126 && acc.componentType !== 5125) {
    throw new Error(`accessor ${index}: padded matrix columns are not supported by this oracle`);
  }
  const data = new Float64Array(acc.count * components);
  const readInto = (viewIndex: number, byteOffset: number, componentType: number, normalized: boolean, count: number, comps: number, put: (i: number, c: number, v: number) => void) => {
    const bv = gltf.json.bufferViews?.[viewIndex];
    if (!bv) throw new Error(`accessor ${index}: bufferView ${viewIndex} does not exist`);
    const buffer = gltf.buffers[bv.buffer];
    const view = new DataView(buffer.buffer, buffer.byteOffset + (bv.byteOffset ?? 0), bv.byteLength);
    const { size, read } = componentReader(view, componentType, normalized);
    const stride = bv.byteStride ?? size * comps;
    const last = byteOffset + (count - 1) * stride + size * comps;
    if (count > 0 && last > bv.byteLength) throw new Error(`accessor ${index}: ends at byte ${last} of a ${bv.byteLength}-byte bufferView`);
    for (let i = 0; i < count; i++) for (let c = 0; c < comps; c++) put(i, c, read(byteOffset + i * stride + c * size));
  };
  if (acc.bufferView !== undefined) {
    readInto(acc.bufferView, acc.byteOffset ?? 0, acc.componentType, acc.normalized ?? false, acc.count, components, (i, c, v) => (data[i * components + c] = v));
  }
  if (acc.sparse) {
    // Sparse: the listed elements replace those of the base (zeros when there is no bufferView).
    const s = acc.sparse;
    const at = new Float64Array(s.count);
    readInto(s.indices.bufferView, s.indices.byteOffset ?? 0, s.indices.componentType, false, s.count, 1, (i, _c, v) => (at[i] = v));
    readInto(s.values.bufferView, s.values.byteOffset ?? 0, acc.componentType, acc.normalized ?? false, s.count, components, (i, c, v) => {
      if (at[i] >= acc.count) throw new Error(`accessor ${index}: sparse index ${at[i]} past count ${acc.count}`);
      data[at[i] * components + c] = v;
    });
  }
  return { data, components, count: acc.count };
}

// ---------------------------------------------------------------------------------------------
// 4x4 column-major matrices (element (row r, column c) at c * 4 + r)

export function identity(): Float64Array {
  const m = new Float64Array(16);
  m[0] = m[5] = m[10] = m[15] = 1;
  return m;
}

export function multiply(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = s;
    }
  }
  return out;
}

/** T · R · S from a translation, a unit quaternion [x y z w] and a scale. */
export function compose(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): Float64Array {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const m = new Float64Array(16);
  m[0] = (1 - 2 * (y * y + z * z)) * s[0];
  m[1] = 2 * (x * y + z * w) * s[0];
  m[2] = 2 * (x * z - y * w) * s[0];
  m[4] = 2 * (x * y - z * w) * s[1];
  m[5] = (1 - 2 * (x * x + z * z)) * s[1];
  m[6] = 2 * (y * z + x * w) * s[1];
  m[8] = 2 * (x * z + y * w) * s[2];
  m[9] = 2 * (y * z - x * w) * s[2];
  m[10] = (1 - 2 * (x * x + y * y)) * s[2];
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1;
  return m;
}

/** m · (x, y, z, 1) for a column-major 4x4 m (glTF's), the xyz of it, into out[o..o+2]. */
export function transformPoint4(out: Float64Array, o: number, m: Float64Array, x: number, y: number, z: number): void {
  out[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

// ---------------------------------------------------------------------------------------------
// Animation sampling (spec §3.11, Appendix C)

/** The time range of an animation: the smallest and largest key time over its samplers. */
export function animationRange(gltf: Gltf, animation: GltfAnimation): [number, number] {
  let start = Infinity, end = -Infinity;
  for (const s of animation.samplers) {
    const input = readAccessor(gltf, s.input).data;
    if (input.length === 0) continue;
    start = Math.min(start, input[0]);
    end = Math.max(end, input[input.length - 1]);
  }
  return start <= end ? [start, end] : [0, 0];
}

/** Spherical linear interpolation along the shorter arc, as the spec's Appendix C writes it; normalised. */
export function slerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): number[] {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const sign = dot < 0 ? -1 : 1;
  const d = Math.min(1, Math.abs(dot));
  const angle = Math.acos(d);
  let ka: number, kb: number;
  if (angle < 1e-9) {
    // sin(a) -> 0: the limit of the formula is the linear blend.
    ka = 1 - t;
    kb = t;
  } else {
    ka = Math.sin(angle * (1 - t)) / Math.sin(angle);
    kb = Math.sin(angle * t) / Math.sin(angle);
  }
  return normalise([0, 1, 2, 3].map((c) => ka * a[c] + sign * kb * b[c]));
}

function normalise(q: number[]): number[] {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return l > 0 ? q.map((v) => v / l) : [0, 0, 0, 1];
}

/** The value of a sampler at time t: `width` numbers (3 for T/S, 4 for R). */
export function sampleSampler(input: Float64Array, output: Float64Array, interpolation: string, width: number, rotation: boolean, t: number): number[] {
  const n = input.length;
  const cubic = interpolation === 'CUBICSPLINE';
  // Per key: cubic output holds [in-tangent, value, out-tangent]; the value is the middle one.
  const value = (k: number): number[] => {
    const o = cubic ? (k * 3 + 1) * width : k * width;
    return Array.from(output.subarray(o, o + width));
  };
  const finish = (v: number[]) => (rotation ? normalise(v) : v);
  if (n === 0) throw new Error('a sampler without keys');
  if (t <= input[0] || n === 1) return finish(value(0));
  if (t >= input[n - 1]) return finish(value(n - 1));
  let k = 0;
  while (k + 1 < n - 1 && input[k + 1] <= t) k++;
  const t0 = input[k], t1 = input[k + 1];
  const td = t1 - t0;
  const s = (t - t0) / td;
  if (interpolation === 'STEP') return finish(value(k));
  if (cubic) {
    const s2 = s * s, s3 = s2 * s;
    const v0 = value(k), v1 = value(k + 1);
    const b0 = Array.from(output.subarray((k * 3 + 2) * width, (k * 3 + 3) * width));
    const a1 = Array.from(output.subarray((k + 1) * 3 * width, ((k + 1) * 3 + 1) * width));
    const out: number[] = [];
    for (let c = 0; c < width; c++) {
      out.push((2 * s3 - 3 * s2 + 1) * v0[c] + td * (s3 - 2 * s2 + s) * b0[c] + (-2 * s3 + 3 * s2) * v1[c] + td * (s3 - s2) * a1[c]);
    }
    return finish(out);
  }
  const v0 = value(k), v1 = value(k + 1);
  if (rotation) return slerp(v0, v1, s);
  return v0.map((v, c) => v + (v1[c] - v) * s);
}

/** Per node: [T, R, S] overrides of an animation at time t (undefined where no channel drives it). */
export function sampleAnimation(gltf: Gltf, animation: GltfAnimation, t: number): Map<number, { translation?: number[]; rotation?: number[]; scale?: number[] }> {
  const out = new Map<number, { translation?: number[]; rotation?: number[]; scale?: number[] }>();
  for (const channel of animation.channels) {
    const node = channel.target.node;
    const path = channel.target.path;
    if (node === undefined || (path !== 'translation' && path !== 'rotation' && path !== 'scale')) continue;
    const sampler = animation.samplers[channel.sampler];
    const input = readAccessor(gltf, sampler.input).data;
    const output = readAccessor(gltf, sampler.output).data;
    const width = path === 'rotation' ? 4 : 3;
    const value = sampleSampler(input, output, sampler.interpolation ?? 'LINEAR', width, path === 'rotation', t);
    const entry = out.get(node) ?? {};
    entry[path] = value;
    out.set(node, entry);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scene evaluation

/** The nodes of the scene that is shown: `scene`, else scene 0, else every node that is nobody's child. */
export function sceneRoots(gltf: Gltf): number[] {
  const j = gltf.json;
  if (j.scenes && j.scenes.length > 0) return j.scenes[j.scene ?? 0].nodes ?? [];
  const child = new Set<number>();
  for (const n of j.nodes ?? []) for (const c of n.children ?? []) child.add(c);
  return (j.nodes ?? []).map((_, i) => i).filter((i) => !child.has(i));
}

/** Parent of every node (-1 for roots and unreachable nodes). */
export function nodeParents(gltf: Gltf): Int32Array {
  const nodes = gltf.json.nodes ?? [];
  const parents = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => (parents[c] = i)));
  return parents;
}

/** Global (world) matrix of every node, with an animation's values at time t applied (none: the rest pose). */
export function globalTransforms(gltf: Gltf, animation: GltfAnimation | null, t: number): Float64Array[] {
  const nodes = gltf.json.nodes ?? [];
  const overrides = animation ? sampleAnimation(gltf, animation, t) : new Map();
  const out: Float64Array[] = new Array(nodes.length);
  const visit = (i: number, parent: Float64Array) => {
    const n = nodes[i];
    const o = overrides.get(i);
    let local: Float64Array;
    if (n.matrix && !o) local = Float64Array.from(n.matrix);
    else local = compose(o?.translation ?? n.translation ?? [0, 0, 0], o?.rotation ?? n.rotation ?? [0, 0, 0, 1], o?.scale ?? n.scale ?? [1, 1, 1]);
    out[i] = multiply(parent, local);
    for (const c of n.children ?? []) visit(c, out[i]);
  };
  const parents = nodeParents(gltf);
  // Every root, not only the scene's: joints may sit outside the shown scene (the spec allows it).
  for (let i = 0; i < nodes.length; i++) if (parents[i] < 0) visit(i, identity());
  return out;
}

/** One evaluated vertex source: a triangle primitive of a mesh on a node of the scene. */
export interface EvaluatedPrimitive {
  node: number;
  mesh: number;
  primitive: number;
  /** Indices into this primitive's vertices that triangles use, in first-use order. */
  used: Uint32Array;
  triangles: number;
  /** The vertices' positions in the file (Y-up), 3 each. */
  source: Float64Array;
  /**
   * Influences of each used vertex: node index -> weight (the skin's joints, or the mesh's own node
   * with weight 1 when unskinned). The weights are normalised to sum 1 (the spec requires the sum
   * be 1; normalised integer weights are off by their quantisation).
   */
  influences: Map<number, number>[];
  /** The skin, when the mesh is skinned. */
  skin: number | undefined;
}

/** The scene's triangle primitives and the data needed to pose them. */
export function scenePrimitives(gltf: Gltf): EvaluatedPrimitive[] {
  const j = gltf.json;
  const out: EvaluatedPrimitive[] = [];
  const visit = (i: number) => {
    const n = j.nodes![i];
    const mesh = n.mesh;
    if (mesh !== undefined) {
      j.meshes![mesh].primitives.forEach((p, pi) => {
        if ((p.mode ?? 4) !== 4) return;
        const position = readAccessor(gltf, p.attributes.POSITION);
        const indices = p.indices !== undefined ? readAccessor(gltf, p.indices).data : Float64Array.from({ length: position.count }, (_, k) => k);
        const seen = new Int32Array(position.count).fill(-1);
        const used: number[] = [];
        for (const v of indices) {
          if (v >= position.count) throw new Error(`mesh ${mesh} primitive ${pi}: index ${v} past ${position.count} vertices`);
          if (seen[v] < 0) {
            seen[v] = used.length;
            used.push(v);
          }
        }
        const influences: Map<number, number>[] = [];
        if (n.skin !== undefined) {
          const joints = j.skins![n.skin].joints;
          const sets: { j: Float64Array; w: Float64Array }[] = [];
          for (let s = 0; p.attributes[`JOINTS_${s}`] !== undefined && p.attributes[`WEIGHTS_${s}`] !== undefined; s++) {
            sets.push({ j: readAccessor(gltf, p.attributes[`JOINTS_${s}`]).data, w: readAccessor(gltf, p.attributes[`WEIGHTS_${s}`]).data });
          }
          for (const v of used) {
            const map = new Map<number, number>();
            let sum = 0;
            for (const set of sets) {
              for (let c = 0; c < 4; c++) {
                const w = set.w[v * 4 + c];
                if (w === 0) continue;
                const joint = set.j[v * 4 + c];
                if (joint >= joints.length) throw new Error(`mesh ${mesh} primitive ${pi}: joint ${joint} past the skin's ${joints.length}`);
                map.set(joints[joint], (map.get(joints[joint]) ?? 0) + w);
                sum += w;
              }
            }
            if (sum > 0) for (const [k, w] of map) map.set(k, w / sum);
            influences.push(map);
          }
        } else {
          for (let k = 0; k < used.length; k++) influences.push(new Map([[i, 1]]));
        }
        const source = new Float64Array(used.length * 3);
        used.forEach((v, k) => source.set(position.data.subarray(v * 3, v * 3 + 3), k * 3));
        out.push({ node: i, mesh, primitive: pi, used: Uint32Array.from(used), triangles: indices.length / 3, source, influences, skin: n.skin });
      });
    }
    for (const c of n.children ?? []) visit(c);
  };
  for (const r of sceneRoots(gltf)) visit(r);
  return out;
}

/** Inverse bind matrices of a skin, by joint node index (identity where the skin has none). */
export function inverseBinds(gltf: Gltf, skin: number): Map<number, Float64Array> {
  const s = gltf.json.skins![skin];
  const m = new Map<number, Float64Array>();
  const data = s.inverseBindMatrices !== undefined ? readAccessor(gltf, s.inverseBindMatrices).data : null;
  s.joints.forEach((joint, k) => m.set(joint, data ? data.slice(k * 16, k * 16 + 16) : identity()));
  return m;
}

/** glTF (Y-up) to IQM (Z-up): (x, y, z) -> (x, -z, y), in place on 3-vectors. */
export function yUpToZUp(p: Float64Array): Float64Array {
  for (let i = 0; i < p.length; i += 3) {
    const y = p[i + 1], z = p[i + 2];
    p[i + 1] = -z;
    p[i + 2] = y;
  }
  return p;
}

/** What an evaluation at one time gives, in IQM's axes. */
export interface Evaluation {
  /** 3 per vertex, the primitives' used vertices concatenated in scenePrimitives order. */
  positions: Float64Array;
  /**
   * Per vertex: the largest distance from its position to where one of its influences alone would
   * put it (|M_k · p − p'|): how far a change of its weights by Δ can move it (≤ Σ|Δw| · spread).
   */
  spread: Float64Array;
  /** The global matrices of every node at that time. */
  globals: Float64Array[];
}

/**
 * Every scene vertex at time t of `animation` (null: the rest scene), skinned per the spec, Z-up;
 * `globals` replaces the nodes' global matrices (a pose the file does not animate, e.g. its bind pose).
 */
export function evaluateGltf(gltf: Gltf, primitives: EvaluatedPrimitive[], animation: GltfAnimation | null, t: number, globals = globalTransforms(gltf, animation, t)): Evaluation {
  const ibms = new Map<number, Map<number, Float64Array>>();
  let total = 0;
  for (const p of primitives) total += p.used.length;
  const positions = new Float64Array(total * 3);
  const spread = new Float64Array(total);
  const one = new Float64Array(3);
  let base = 0;
  for (const p of primitives) {
    let jointMatrices: Map<number, Float64Array> | null = null;
    if (p.skin !== undefined) {
      let ibm = ibms.get(p.skin);
      if (!ibm) ibms.set(p.skin, (ibm = inverseBinds(gltf, p.skin)));
      jointMatrices = new Map();
      for (const [joint, m] of ibm) jointMatrices.set(joint, multiply(globals[joint], m));
    }
    for (let v = 0; v < p.used.length; v++) {
      const x = p.source[v * 3], y = p.source[v * 3 + 1], z = p.source[v * 3 + 2];
      const o = (base + v) * 3;
      const singles: number[] = [];
      if (jointMatrices) {
        for (const [joint, w] of p.influences[v]) {
          transformPoint4(one, 0, jointMatrices.get(joint)!, x, y, z);
          positions[o] += w * one[0];
          positions[o + 1] += w * one[1];
          positions[o + 2] += w * one[2];
          singles.push(one[0], one[1], one[2]);
        }
      } else {
        transformPoint4(positions, o, globals[p.node], x, y, z);
      }
      let far = 0;
      for (let k = 0; k < singles.length; k += 3) {
        far = Math.max(far, Math.hypot(singles[k] - positions[o], singles[k + 1] - positions[o + 1], singles[k + 2] - positions[o + 2]));
      }
      spread[base + v] = far;
    }
    base += p.used.length;
  }
  return { positions: yUpToZUp(positions), spread, globals };
}

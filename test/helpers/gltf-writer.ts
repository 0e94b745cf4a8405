// A generator of skinned, animated glTF 2.0 files for tests and benchmarks (the project's own
// fixtures: never copies of real files): a tube of rings along +Y (glTF is Y-up) around a chain of
// joints under a non-joint "Armature" node, every vertex blended between the two joints nearest
// it, and animations whose channels are written at a key rate. Options add what the compile must
// handle (STEP and CUBICSPLINE, quaternion keys of alternating sign, a non-zero start time, a
// prop mesh parented to a joint, a node given as a matrix) and what it must refuse (`broken`).
// Typed arrays throughout (a benchmark file has 100,000 vertices); the buffer is built as the model
// writer builds its own (core/gltf/buffer.ts); the GLB container is gltf-build.ts's.
import { GltfBufferBuilder } from '../../core/gltf/buffer';
import { glbOf } from './gltf-build';
import { prng } from './iqe-fixtures';

export interface GltfFixtureOptions {
  /** Vertices of the tube, about (rounded to whole rings of `around`). Default 400. */
  vertices?: number;
  /** Vertices per ring. Default 16 (at least 3). */
  around?: number;
  /** Joints in the chain. Default 8. */
  joints?: number;
  /** Keys per animation channel. Default 24. */
  keys?: number;
  /** Key rate in keys per second. Default 24. */
  keyRate?: number;
  /** Time of the first key, seconds. Default 0. */
  start?: number;
  /** Animations: their names and interpolations. Default one LINEAR animation "Bend". */
  animations?: { name: string; interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE' }[];
  /** Negate every other rotation key (the same rotation): interpolation must take the shorter arc. */
  alternateSigns?: boolean;
  /** A second, unskinned mesh (a box) on a node that is a child of the middle joint. */
  prop?: boolean;
  /** Give the Armature node's transform as a `matrix` instead of TRS. */
  matrixNode?: boolean;
  /** 'json': a .gltf with its buffer as a data: URI; 'glb' (default): binary. */
  container?: 'glb' | 'json';
  /** Seed of the pseudo-random animation phases. Default 1. */
  seed?: number;
  /**
   * A deliberately broken file: 'accessor-bounds' = POSITION's count runs past its bufferView;
   * 'joint-index' = one JOINTS_0 entry names joint `joints` (one past the skin).
   */
  broken?: 'accessor-bounds' | 'joint-index';
}

/** What was generated, for the tests that check counts and names. */
export interface GltfFixture {
  bytes: Uint8Array;
  vertexCount: number;
  triangleCount: number;
  jointNames: string[];
  animationNames: string[];
  /** Index of the POSITION accessor of the tube (the one 'accessor-bounds' breaks). */
  positionAccessor: number;
}

/** The quaternion [x y z w] of `angle` radians about the unit axis. */
function axisAngle(axis: number[], angle: number): number[] {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** A skinned, animated glTF (see the file comment). The same bytes for the same options. */
export function makeGltf(options: GltfFixtureOptions = {}): GltfFixture {
  const around = Math.max(3, options.around ?? 16);
  const rings = Math.max(2, Math.round((options.vertices ?? 400) / around));
  const jointCount = Math.max(1, options.joints ?? 8);
  const keys = Math.max(1, options.keys ?? 24);
  const keyRate = options.keyRate ?? 24;
  const start = options.start ?? 0;
  const animations = options.animations ?? [{ name: 'Bend', interpolation: 'LINEAR' as const }];
  const random = prng(options.seed ?? 1);
  const height = 2;
  const segment = height / jointCount;
  const radius = 0.2;

  const bin = new GltfBufferBuilder();
  const vertexCount = rings * around;
  const position = new Float32Array(vertexCount * 3);
  const normal = new Float32Array(vertexCount * 3);
  const texcoord = new Float32Array(vertexCount * 2);
  const wide = jointCount > 256;
  const joints = wide ? new Uint16Array(vertexCount * 4) : new Uint8Array(vertexCount * 4);
  const weights = new Float32Array(vertexCount * 4);
  for (let r = 0; r < rings; r++) {
    const y = (r / (rings - 1)) * height;
    // Joint j spans [j, j+1) segments; a vertex blends the two joints whose segment middles are
    // nearest it, linearly between those middles (rigid below the first middle and above the last).
    const along = y / segment - 0.5;
    const j0 = Math.max(0, Math.min(jointCount - 1, Math.floor(along)));
    const j1 = Math.min(jointCount - 1, j0 + 1);
    const w1 = j1 === j0 ? 0 : Math.max(0, Math.min(1, along - j0));
    for (let a = 0; a < around; a++) {
      const v = r * around + a;
      const angle = (2 * Math.PI * a) / around;
      position.set([radius * Math.cos(angle), y, radius * Math.sin(angle)], v * 3);
      normal.set([Math.cos(angle), 0, Math.sin(angle)], v * 3);
      texcoord.set([a / around, 1 - r / (rings - 1)], v * 2);
      joints.set([j0, j1, 0, 0], v * 4);
      weights.set([1 - w1, w1, 0, 0], v * 4);
    }
  }
  if (options.broken === 'joint-index') joints[4 * Math.floor(vertexCount / 2)] = jointCount;
  const triangleCount = (rings - 1) * around * 2;
  const indices = vertexCount > 65535 ? new Uint32Array(triangleCount * 3) : new Uint16Array(triangleCount * 3);
  let t = 0;
  for (let r = 0; r + 1 < rings; r++) {
    for (let a = 0; a < around; a++) {
      const i0 = r * around + a, i1 = r * around + ((a + 1) % around);
      // Counter-clockwise seen from outside (glTF's front faces).
      indices.set([i0, i1, i0 + around, i1, i1 + around, i0 + around], t);
      t += 6;
    }
  }
  const positionAccessor = bin.accessor(position, 'VEC3', { target: 34962, bounds: true });
  if (options.broken === 'accessor-bounds') (bin.accessors[positionAccessor] as { count: number }).count = vertexCount + 1;
  const attributes: Record<string, number> = {
    POSITION: positionAccessor,
    NORMAL: bin.accessor(normal, 'VEC3', { target: 34962 }),
    TEXCOORD_0: bin.accessor(texcoord, 'VEC2', { target: 34962 }),
    JOINTS_0: bin.accessor(joints, 'VEC4', { target: 34962 }),
    WEIGHTS_0: bin.accessor(weights, 'VEC4', { target: 34962 }),
  };
  const indexAccessor = bin.accessor(indices, 'SCALAR', { target: 34963 });

  // Nodes: 0 = Armature (scene root), 1 = the skinned mesh, 2.. = joints (a chain), then the prop.
  const nodes: Record<string, unknown>[] = [];
  const armatureT = [0.1, 0, -0.05], armatureR = axisAngle([0, 1, 0], 0.3);
  nodes.push(
    options.matrixNode
      ? { name: 'Armature', children: [1, 2], matrix: trsMatrix(armatureT, armatureR) }
      : { name: 'Armature', children: [1, 2], translation: armatureT, rotation: armatureR },
  );
  nodes.push({ name: 'Tube', mesh: 0, skin: 0 });
  const jointNames: string[] = [];
  const inverseBind = new Float32Array(jointCount * 16);
  for (let j = 0; j < jointCount; j++) {
    const name = `Bone${String(j).padStart(3, '0')}`;
    jointNames.push(name);
    const node: Record<string, unknown> = { name, translation: [0, j === 0 ? 0 : segment, 0] };
    if (j + 1 < jointCount) node.children = [2 + j + 1];
    nodes.push(node);
    // The bind pose is the rest pose: joint j at height j·segment in the Armature's space.
    inverseBind.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -j * segment, 0, 1], j * 16);
  }
  const meshes: Record<string, unknown>[] = [{ name: 'Tube', primitives: [{ attributes, indices: indexAccessor, material: 0 }] }];
  let propTriangles = 0;
  if (options.prop) {
    const middle = 2 + Math.floor(jointCount / 2);
    const box = boxMesh(bin, 0.15);
    meshes.push({ name: 'Prop', primitives: [{ attributes: box.attributes, indices: box.indices, material: 0 }] });
    nodes.push({ name: 'Prop', mesh: 1, translation: [0.3, segment / 2, 0], rotation: axisAngle([0, 0, 1], 0.5) });
    const parent = nodes[middle] as { children?: number[] };
    parent.children = [...(parent.children ?? []), nodes.length - 1];
    propTriangles = 12;
  }
  const skin = { name: 'Armature', joints: jointNames.map((_, j) => 2 + j), inverseBindMatrices: bin.accessor(inverseBind, 'MAT4'), skeleton: 2 };

  const gltfAnimations = animations.map((a, ai) => {
    const times = new Float32Array(keys);
    for (let k = 0; k < keys; k++) times[k] = start + k / keyRate;
    const input = bin.accessor(times, 'SCALAR', { bounds: true });
    const cubic = a.interpolation === 'CUBICSPLINE';
    const channels: Record<string, unknown>[] = [];
    const samplers: Record<string, unknown>[] = [];
    const phase = random() * 6;
    for (let j = 0; j < jointCount; j++) {
      const axisRaw = [Math.sin(j + ai), 0.4, Math.cos(j * 1.3 + ai)];
      const len = Math.hypot(axisRaw[0], axisRaw[1], axisRaw[2]);
      const axis = axisRaw.map((c) => c / len);
      const amplitude = 0.6 + 0.3 * Math.sin(j);
      const angleAt = (time: number) => amplitude * Math.sin(2 * Math.PI * 0.7 * (time - start) + phase + j * 0.4);
      const rotation = new Float32Array(keys * 4 * (cubic ? 3 : 1));
      for (let k = 0; k < keys; k++) {
        const q = axisAngle(axis, angleAt(times[k]));
        const sign = options.alternateSigns && k % 2 === 1 ? -1 : 1;
        const o = cubic ? (k * 3 + 1) * 4 : k * 4;
        rotation.set(q.map((c) => sign * c), o);
        if (cubic) {
          // Tangents: the derivative of the quaternion curve, d/dt q(angle(t)), in units per second.
          const h = 1e-4;
          const qa = axisAngle(axis, angleAt(times[k] - h)), qb = axisAngle(axis, angleAt(times[k] + h));
          const d = qb.map((c, i) => (sign * (c - qa[i])) / (2 * h));
          rotation.set(d, k * 3 * 4);
          rotation.set(d, (k * 3 + 2) * 4);
        }
      }
      samplers.push({ input, output: bin.accessor(rotation, 'VEC4'), interpolation: a.interpolation });
      channels.push({ sampler: samplers.length - 1, target: { node: 2 + j, path: 'rotation' } });
    }
    // The root joint also moves and scales (translation and scale channels).
    const move = new Float32Array(keys * 3 * (cubic ? 3 : 1));
    const grow = new Float32Array(keys * 3 * (cubic ? 3 : 1));
    for (let k = 0; k < keys; k++) {
      const s = (times[k] - start) * 2 * Math.PI * 0.5 + phase;
      const o = cubic ? (k * 3 + 1) * 3 : k * 3;
      move.set([0.2 * Math.sin(s), 0.1 * Math.cos(s), 0], o);
      grow.set([1 + 0.1 * Math.sin(s), 1, 1 + 0.1 * Math.sin(s)], o);
      if (cubic) {
        const w = 2 * Math.PI * 0.5;
        move.set([0.2 * w * Math.cos(s), -0.1 * w * Math.sin(s), 0], k * 9);
        move.set([0.2 * w * Math.cos(s), -0.1 * w * Math.sin(s), 0], k * 9 + 6);
        grow.set([0.1 * w * Math.cos(s), 0, 0.1 * w * Math.cos(s)], k * 9);
        grow.set([0.1 * w * Math.cos(s), 0, 0.1 * w * Math.cos(s)], k * 9 + 6);
      }
    }
    samplers.push({ input, output: bin.accessor(move, 'VEC3'), interpolation: a.interpolation });
    channels.push({ sampler: samplers.length - 1, target: { node: 2, path: 'translation' } });
    samplers.push({ input, output: bin.accessor(grow, 'VEC3'), interpolation: a.interpolation });
    channels.push({ sampler: samplers.length - 1, target: { node: 2, path: 'scale' } });
    return { name: a.name, channels, samplers };
  });

  const data = bin.bytes();
  const json: Record<string, unknown> = {
    asset: { version: '2.0', generator: 'iqm-tools test/helpers/gltf-writer.ts' },
    scene: 0,
    scenes: [{ name: 'Scene', nodes: [0] }],
    nodes,
    meshes,
    skins: [skin],
    animations: gltfAnimations,
    materials: [{ name: 'TubeMaterial', pbrMetallicRoughness: { baseColorFactor: [0.8, 0.6, 0.4, 1] } }],
    accessors: bin.accessors,
    bufferViews: bin.views,
    buffers: [{ byteLength: data.byteLength }],
  };
  let bytes: Uint8Array;
  if (options.container === 'json') {
    (json.buffers as Record<string, unknown>[])[0].uri = `data:application/octet-stream;base64,${Buffer.from(data).toString('base64')}`;
    bytes = new TextEncoder().encode(JSON.stringify(json));
  } else {
    bytes = glbOf(JSON.stringify(json), data);
  }
  return { bytes, vertexCount: vertexCount + (options.prop ? 24 : 0), triangleCount: triangleCount + propTriangles, jointNames, animationNames: animations.map((a) => a.name), positionAccessor };
}

/** A column-major 4x4 of T · R (unit scale). */
function trsMatrix(t: number[], q: number[]): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
    t[0], t[1], t[2], 1,
  ];
}

/** A box of half-size h, 24 vertices (a normal per face), 12 triangles. */
function boxMesh(bin: GltfBufferBuilder, h: number): { attributes: Record<string, number>; indices: number } {
  const position: number[] = [], normal: number[] = [], texcoord: number[] = [], indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [1, -1]) {
      const n = [0, 0, 0];
      n[axis] = side;
      const u = [0, 0, 0], v = [0, 0, 0];
      u[(axis + 1) % 3] = 1;
      v[(axis + 2) % 3] = 1;
      const base = position.length / 3;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        for (let c = 0; c < 3; c++) position.push(h * (n[c] + a * u[c] + b * v[c]));
        normal.push(...n);
        texcoord.push((a + 1) / 2, (b + 1) / 2);
      }
      // u × v = n for side +1: counter-clockwise seen from outside; reversed for side -1.
      if (side > 0) indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
      else indices.push(base, base + 2, base + 1, base, base + 3, base + 2);
    }
  }
  const p = new Float32Array(position);
  return {
    attributes: { POSITION: bin.accessor(p, 'VEC3', { target: 34962, bounds: true }), NORMAL: bin.accessor(new Float32Array(normal), 'VEC3', { target: 34962 }), TEXCOORD_0: bin.accessor(new Float32Array(texcoord), 'VEC2', { target: 34962 }) },
    indices: bin.accessor(new Uint16Array(indices), 'SCALAR', { target: 34963 }),
  };
}

// A decoded glTF 2.0 (decode.ts) -> the neutral SourceModel (core/compile/source.ts), so the one
// compile makes an IQM of it as of every other source.
// - Scene: the default scene (else the first, else every root node); each mesh node's triangle
//   primitives (TRIANGLES, and strips and fans made triangles; points and lines: a note, skipped).
//   Triangles are written reversed: glTF's front faces are counter-clockwise, IQM's clockwise.
// - Skeleton: the joints of the skins the scene's meshes use (several skins: one skeleton when they
//   share joints or a root node, else an error), parents first, named by their nodes; a joint's
//   parent is its nearest joint ancestor (the nodes between are folded into its pose). Base pose:
//   the rest TRS; where an inverse bind matrix disagrees with the rest pose, a warning naming the
//   joint, and the bind pose of the inverse bind matrices is the base pose (skinning needs the
//   pose the mesh was bound in: so the mesh deforms as glTF defines it).
// - An unskinned mesh: its node's rest transform applied; below a joint (a weapon, a hat), rigidly
//   weighted to that joint so it follows the animation. A file without skins whose animated nodes
//   carry meshes: those nodes become the joints.
// - Animations (sampler.ts): each one sampled at `fps` from its first key time: frame k is the
//   pose at start + k / fps, k = 0 .. floor(duration · fps) (the last key itself when the
//   duration is a whole number of frames). Nodes no channel drives keep their rest TRS.
// - Axes: glTF is Y-up, IQM Z-up: (x, y, z) -> (x, -z, y) for positions, normals, tangents and
//   every pose (math.ts). Texture coordinates are unchanged: glTF and IQM both put v = 0 at the
//   image's first (top) row (FORMAT-PITFALLS §2).
import type { Accessor, Document, Material, Mesh, Node, Primitive, Skin } from '@gltf-transform/core';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { lineNote } from '../compile/options';
import { ReadError } from '../compile/readError';
import { emptySourceModel, type SourceSection, type SourceModel } from '../compile/source';
import { Format } from '../compile/encode';
import { ArrayType } from '../compile/vertexarrays';
import { float64s, int32s } from '../growable';
import { identity3x4, invert3x4, mul3x4, toTRS, transformPoint, transformVector } from '../math/mat3x4';
import { POSE_STRIDE } from '../math/pose';
import { DEFAULT_FPS } from '../model/model';
import type { GltfImage } from './decode';
import { determinant3x4, fromColumnMajor, matrixDifference, NEAR_UNIT, normalMatrix, trsMatrix, zUpPose, zUpVector } from './math';
import { evaluate, type Interpolation, type Sampler } from './sampler';

/** How close to the frame grid (in frames) the last key may be and still make a frame. */
export const FRAME_GRID_SLACK = 1e-3;

export const GLTF_SAMPLE_FPS = 30;

/** The most frames one animation is sampled to (an hour at 30 fps): more is a broken key time, not an animation. */
const MAX_FRAMES = 108000;

/**
 * The most joint poses all animations are sampled to (320 MB of frame poses; a 150-joint
 * character with 50 animations of 3 s at 30 fps has 675,000). A key time an hour out on a skeleton
 * of 256 joints was 27 million poses, 2.2 GB, from a file of a few KB.
 */
const MAX_POSES = 4_000_000;

/** The frame rates a glTF's key times may evidently be on (Blender's 24, video's 25, 30, 50, 60). */
const EVIDENT_RATES = [24, 25, 30, 50, 60];

export interface GltfReadOptions {
  /** The sampling rate; absent: the rate the key times are evidently on (chooseFps), else 30. */
  fps?: number;
  /** A material's colour without a texture written as its meshes' vertex colours (default true). */
  materialColors?: boolean;
  /** The file's name without folders and extension: an unnamed animation's name. */
  stem: string;
  images: readonly GltfImage[];
}

const note = (message: string, code: string): IqeDiagnostic => lineNote('information', code, message, 0);
const warning = (message: string, code: string): IqeDiagnostic => lineNote('warning', code, message, 0);

/** Names for messages: `'Head'` or `node 3`. */
function nodeLabel(nodes: readonly Node[], node: Node): string {
  return node.getName() ? `'${node.getName()}'` : `node ${nodes.indexOf(node)}`;
}

function list(names: string[], max = 5): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/**
 * The sampling rate when --fps is not given: the smallest of EVIDENT_RATES whose frame grid holds
 * every key time of every animation (within 1/100 frame: float times), 30 when none does or when
 * 30 does too (a grid of whole seconds holds them all).
 */
export function chooseFps(document: Document): number {
  const times: number[] = [];
  for (const animation of document.getRoot().listAnimations()) {
    for (const sampler of animation.listSamplers()) {
      const input = sampler.getInput();
      if (input) times.push(...(input.getArray() as Float32Array));
    }
  }
  if (times.length === 0) return GLTF_SAMPLE_FPS;
  const fits = (rate: number): boolean => times.every((t) => Math.abs(t * rate - Math.round(t * rate)) < 0.01);
  if (fits(GLTF_SAMPLE_FPS)) return GLTF_SAMPLE_FPS;
  return EVIDENT_RATES.find(fits) ?? GLTF_SAMPLE_FPS;
}

/** Reads a decoded glTF; throws ReadError (a joint index past its skin, ...). */
export function readGltfDocument(document: Document, options: GltfReadOptions): { model: SourceModel; diagnostics: IqeDiagnostic[] } {
  const diagnostics: IqeDiagnostic[] = [];
  const root = document.getRoot();
  const nodes = root.listNodes();
  const nodeIndex = new Map(nodes.map((n, i) => [n, i]));
  const accessors = root.listAccessors();
  const accessorLabel = (a: Accessor): string => `accessor ${accessors.indexOf(a)}${a.getName() ? ` ('${a.getName()}')` : ''}`;
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    for (const child of n.listChildren()) parent[nodeIndex.get(child)!] = i;
  });

  // Rest local and world matrices (glTF space), parents before children.
  const local = new Float64Array(12 * nodes.length);
  const world = new Float64Array(12 * nodes.length);
  nodes.forEach((n, i) => trsMatrix(local, 12 * i, n.getTranslation(), n.getRotation(), n.getScale()));
  const worldDone = new Int32Array(nodes.length).fill(-1);
  for (let i = 0; i < nodes.length; i++) composeWorld(i, parent, local, world, worldDone, 0);

  // The scene's nodes, depth first.
  const scene = root.getDefaultScene() ?? root.listScenes()[0] ?? null;
  const tops = scene ? scene.listChildren() : nodes.filter((_, i) => parent[i] < 0);
  const drawn: Node[] = [];
  // Depth first without recursion (a hierarchy may be deeper than the stack).
  const stack = [...tops].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    drawn.push(n);
    stack.push(...[...n.listChildren()].reverse());
  }
  const meshNodes = drawn.filter((n) => n.getMesh() !== null);
  checkInstancing(meshNodes, root.listMeshes());

  // The joints: the skins' (or, without skins, the animated nodes that move a mesh).
  const skins: Skin[] = [];
  for (const n of meshNodes) {
    const skin = n.getSkin();
    if (skin && !skins.includes(skin)) skins.push(skin);
  }
  // A skeleton without meshes (an animation file, as our writer writes one): its skins.
  if (skins.length === 0 && meshNodes.length === 0) skins.push(...root.listSkins());
  const animations = root.listAnimations();
  let jointNodes: number[] = [];
  if (skins.length > 0) {
    checkSkins(skins, nodes, nodeIndex, parent);
    for (const skin of skins) for (const j of skin.listJoints()) if (!jointNodes.includes(nodeIndex.get(j)!)) jointNodes.push(nodeIndex.get(j)!);
  } else {
    const animated = new Set<number>();
    for (const a of animations) for (const c of a.listChannels()) if (c.getTargetNode() && c.getTargetPath() !== 'weights') animated.add(nodeIndex.get(c.getTargetNode()!)!);
    const moving = new Set<number>();
    for (const n of meshNodes) for (let i = nodeIndex.get(n)!; i >= 0; i = parent[i]) if (animated.has(i)) moving.add(i);
    jointNodes = nodes.map((_, i) => i).filter((i) => moving.has(i));
  }
  const isJoint = new Int32Array(nodes.length).fill(-1);
  for (const i of jointNodes) isJoint[i] = 1;
  const nearestJoint = (i: number): number => {
    for (let p = i; p >= 0; p = parent[p]) if (isJoint[p] >= 0) return p;
    return -1;
  };
  // Parents first, the skins' order otherwise kept.
  const order: number[] = [];
  const jointOf = new Int32Array(nodes.length).fill(-1);
  for (const joint of jointNodes) {
    // The joint and its joint ancestors not yet placed, placed from the top down.
    const chain: number[] = [];
    for (let j = joint; j >= 0 && jointOf[j] < 0; j = parent[j] >= 0 ? nearestJoint(parent[j]) : -1) chain.push(j);
    for (let k = chain.length - 1; k >= 0; k--) {
      jointOf[chain[k]] = order.length;
      order.push(chain[k]);
    }
  }
  const jointCount = order.length;
  if (jointCount > 256) {
    // Blend indexes are bytes (SourceModel, IQM's usual ubyte array).
    throw new ReadError('gltf-joint-count', `the skeleton has ${jointCount} joints: at most 256 can be weighted in one IQM blend array`, 0);
  }
  const jointParent = order.map((i) => (parent[i] >= 0 ? nearestJoint(parent[i]) : -1)).map((p) => (p >= 0 ? jointOf[p] : -1));

  // Bind matrices: the inverse of each joint's inverse bind matrix (identity where the skin has
  // none); and each skin's matrices at rest, S = restWorld · IBM per joint. Where a skin's S are all
  // one matrix M (an armature transform folded into the inverse bind matrices, as COLLADA2GLTF
  // writes them), its meshes are moved by M into the rest pose, exactly (the weights sum to 1), and
  // the base pose is the rest pose. Else the base pose is the bind pose, with a warning.
  const extent = sceneExtent(meshNodes, world, nodeIndex);
  const bind = new Float64Array(12 * jointCount);
  const hasBind = new Uint8Array(jointCount);
  const ibm = new Float64Array(12), atRest = new Float64Array(12);
  const skinShape = new Map<Skin, Float64Array>();
  let uniform = true;
  for (const skin of skins) {
    const matrices = skin.getInverseBindMatrices()?.getArray() ?? null;
    const shape = new Float64Array(12);
    skin.listJoints().forEach((jn, k) => {
      const j = jointOf[nodeIndex.get(jn)!];
      if (matrices) fromColumnMajor(ibm, 0, matrices, 16 * k);
      else identity3x4(ibm, 0);
      mul3x4(atRest, 0, world, 12 * order[j], ibm, 0);
      if (k === 0) shape.set(atRest);
      else if (matrixDifference(atRest, 0, shape, 0, extent) > 1e-3) uniform = false;
      if (hasBind[j]) return;
      invert3x4(bind, 12 * j, ibm, 0);
      hasBind[j] = 1;
    });
    // The identity but for the float32 rounding of the inverse bind matrices (a bind pose that is
    // the rest pose, as our writer and Blender write it): the identity, so positions stay bit-exact.
    const unit = new Float64Array(12);
    identity3x4(unit, 0);
    if (matrixDifference(shape, 0, unit, 0, extent) < 1e-5) shape.set(unit);
    skinShape.set(skin, shape);
  }
  const mismatched: string[] = [];
  for (let j = 0; j < jointCount; j++) {
    if (!hasBind[j]) bind.set(world.subarray(12 * order[j], 12 * order[j] + 12), 12 * j);
    else if (matrixDifference(bind, 12 * j, world, 12 * order[j], extent) > 1e-3) mismatched.push(nodeLabel(nodes, nodes[order[j]]));
  }
  const useBind = !uniform && mismatched.length > 0;
  if (useBind) {
    skinShape.clear();
    diagnostics.push(warning(`the inverse bind matrices of joints ${list(mismatched)} do not match their rest pose: the base pose is the bind pose the inverse bind matrices give (the mesh deforms as glTF defines it; the rest pose shows in no frame)`, 'gltf-inverse-bind'));
  }
  // B[j]: the joint's world matrix in the base pose.
  const base = useBind ? bind : new Float64Array(12 * jointCount);
  if (!useBind) order.forEach((i, j) => base.set(world.subarray(12 * i, 12 * i + 12), 12 * j));

  const model = emptySourceModel();
  const comment = ourExtras(scene?.getExtras()).comment;
  if (typeof comment === 'string') model.comment = comment;
  model.joints = order.map((i, j) => ({ name: nodes[i].getName() || `joint${j}`, parent: jointParent[j] }));
  model.basePoseCount = jointCount;
  model.basePoses = new Float64Array(POSE_STRIDE * jointCount);
  const scratch = new Float64Array(12), relative = new Float64Array(12), inverse = new Float64Array(12);
  for (let j = 0; j < jointCount; j++) {
    const i = order[j], p = jointParent[j];
    const o = POSE_STRIDE * j;
    if (!useBind && (p < 0 ? parent[i] < 0 : parent[i] === order[p])) {
      // The rest TRS as the node gives it.
      const n = nodes[i];
      model.basePoses.set([...n.getTranslation(), ...n.getRotation(), ...n.getScale()], o);
    } else {
      if (p >= 0) {
        invert3x4(inverse, 0, base, 12 * p);
        mul3x4(relative, 0, inverse, 0, base, 12 * j);
      } else relative.set(base.subarray(12 * j, 12 * j + 12));
      toTRS(model.basePoses, o, relative, 0, scratch);
    }
    zUpPose(model.basePoses, o);
  }

  readMeshes(model, diagnostics, { nodes, nodeIndex, meshNodes, world, base, skinShape, jointOf, nearestJoint, accessorLabel, skins, images: options.images, root, bakeColors: options.materialColors !== false });

  const fps = options.fps !== undefined && options.fps > 0 ? options.fps : chooseFps(document);
  const givenFps = options.fps !== undefined && options.fps > 0;
  if (jointCount > 0) readAnimations(model, diagnostics, { document, nodes, nodeIndex, parent, order, jointParent, fps, givenFps, stem: options.stem });
  else if (animations.length > 0) {
    diagnostics.push(warning(`the file's ${animations.length} animations move no joint and no mesh that IQM can animate (morph targets or nodes without meshes): none is written`, 'gltf-animation-dropped'));
  }
  return { model, diagnostics };
}

/**
 * world[i] = world[parent] · local[i] for node i and the ancestors not yet composed (done[n] !==
 * stamp), without recursion: a hierarchy may be deeper than the stack.
 */
function composeWorld(i: number, parent: Int32Array, local: Float64Array, world: Float64Array, done: Int32Array, stamp: number): void {
  const chain: number[] = [];
  for (let p = i; p >= 0 && done[p] !== stamp; p = parent[p]) chain.push(p);
  for (let k = chain.length - 1; k >= 0; k--) {
    const n = chain[k];
    if (parent[n] >= 0) mul3x4(world, 12 * n, world, 12 * parent[n], local, 12 * n);
    else world.set(local.subarray(12 * n, 12 * n + 12), 12 * n);
    done[n] = stamp;
  }
}

/** Several skins make one skeleton when they share a joint or a root node; else an error. */
function checkSkins(skins: readonly Skin[], nodes: readonly Node[], nodeIndex: Map<Node, number>, parent: Int32Array): void {
  const rootOf = (i: number): number => {
    while (parent[i] >= 0) i = parent[i];
    return i;
  };
  const keys = skins.map((skin) => new Set(skin.listJoints().flatMap((j) => [`j${nodeIndex.get(j)}`, `r${rootOf(nodeIndex.get(j)!)}`])));
  // Union the skins that share a key; one group must remain.
  const group = skins.map((_, s) => s);
  const find = (s: number): number => (group[s] === s ? s : (group[s] = find(group[s])));
  for (let a = 0; a < skins.length; a++) for (let b = a + 1; b < skins.length; b++) if ([...keys[a]].some((k) => keys[b].has(k))) group[find(b)] = find(a);
  const separate = skins.findIndex((_, s) => find(s) !== find(0));
  if (separate > 0) {
    const name = (s: number): string => `skin ${s}${skins[s].getName() ? ` ('${skins[s].getName()}')` : ''}`;
    const first = skins[0].listJoints()[0];
    const other = skins[separate].listJoints()[0];
    throw new ReadError('gltf-skins', `${name(0)} and ${name(separate)} share no joint and no root node (their first joints: ${nodeLabel(nodes, first)}, ${nodeLabel(nodes, other)}): an IQM has one skeleton; export them as separate files`, 0);
  }
}

/**
 * How far instancing may expand a file: the meshes as drawn (each node's copy is vertices of its
 * own in IQM) may hold this many times the vertices and indices of the meshes as stored, or
 * INSTANCED_FLOOR, whichever is more. A 1.4 MB GLB drawing a 40,000-vertex grid from 200 nodes
 * took 112 s and 3.2 GB to compile into a 477 MB IQM; a few more nodes and the process ran out
 * of memory. Repeated parts of a model (wheels, bolts) stay far below either.
 */
const INSTANCED_MULTIPLE = 16;
const INSTANCED_FLOOR = 4_000_000;

/** An error when the mesh nodes draw far more than the file stores (see INSTANCED_MULTIPLE). */
function checkInstancing(meshNodes: readonly Node[], meshes: readonly Mesh[]): void {
  const storedOf = new Map<Mesh, number>();
  const nodesOf = new Map<Mesh, number>();
  let drawnElements = 0;
  for (const node of meshNodes) {
    const mesh = node.getMesh()!;
    let stored = storedOf.get(mesh);
    if (stored === undefined) {
      stored = 0;
      for (const primitive of mesh.listPrimitives()) stored += (primitive.getAttribute('POSITION')?.getCount() ?? 0) + (primitive.getIndices()?.getCount() ?? 0);
      storedOf.set(mesh, stored);
    }
    nodesOf.set(mesh, (nodesOf.get(mesh) ?? 0) + 1);
    drawnElements += stored;
  }
  let storedElements = 0;
  for (const stored of storedOf.values()) storedElements += stored;
  if (drawnElements <= Math.max(INSTANCED_MULTIPLE * storedElements, INSTANCED_FLOOR)) return;
  const [most, count] = [...nodesOf].reduce((a, b) => (b[1] * storedOf.get(b[0])! > a[1] * storedOf.get(a[0])! ? b : a));
  const label = `mesh ${meshes.indexOf(most)}${most.getName() ? ` ('${most.getName()}')` : ''}`;
  const n = (x: number): string => x.toLocaleString('en-US');
  throw new ReadError(
    'gltf-instancing',
    `the scene's ${n(meshNodes.length)} mesh nodes draw ${n(drawnElements)} vertices and indices, ${n(Math.round(drawnElements / storedElements))} times the ${n(storedElements)} the file stores (${label} is drawn by ${n(count)} nodes): IQM holds a copy per node, and more than ${INSTANCED_MULTIPLE} times the file's meshes (or ${n(INSTANCED_FLOOR)}) is not compiled`,
    0,
  );
}

/** The size of the drawn meshes' rest world translations (a scale for "does this matrix match"). */
function sceneExtent(meshNodes: readonly Node[], world: Float64Array, nodeIndex: Map<Node, number>): number {
  let extent = 0;
  for (const n of meshNodes) {
    const bounds = n.getMesh()!.listPrimitives().map((p) => p.getAttribute('POSITION')).filter((a): a is Accessor => a !== null);
    for (const a of bounds) {
      const min = a.getMinNormalized([]), max = a.getMaxNormalized([]);
      for (let k = 0; k < 3; k++) extent = Math.max(extent, Math.abs(min[k] ?? 0), Math.abs(max[k] ?? 0));
    }
    const o = 12 * nodeIndex.get(n)!;
    extent = Math.max(extent, Math.abs(world[o + 3]), Math.abs(world[o + 7]), Math.abs(world[o + 11]));
  }
  return extent > 0 && Number.isFinite(extent) ? extent : 1;
}

interface MeshContext {
  nodes: readonly Node[];
  nodeIndex: Map<Node, number>;
  meshNodes: readonly Node[];
  world: Float64Array;
  base: Float64Array;
  /** Per skin, the matrix its meshes are moved by into the rest pose (none: they stay as they are). */
  skinShape: Map<Skin, Float64Array>;
  jointOf: Int32Array;
  nearestJoint: (i: number) => number;
  accessorLabel: (a: Accessor) => string;
  skins: readonly Skin[];
  images: readonly GltfImage[];
  root: ReturnType<Document['getRoot']>;
  /** Whether material colours without a texture become vertex colours. */
  bakeColors: boolean;
}

const MODE_NAMES = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP', 'TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN'];

function isIdentity(m: Float64Array): boolean {
  for (let k = 0; k < 12; k++) if (m[k] !== (k === 0 || k === 5 || k === 10 ? 1 : 0)) return false;
  return true;
}

/** The vertex sets beyond the first that become custom arrays (IQM has one texcoord and one colour array). */
const EXTRA_SET = /^(TEXCOORD|COLOR)_([1-9]\d*)$/;

function readMeshes(model: SourceModel, diagnostics: IqeDiagnostic[], c: MeshContext): void {
  const positions = float64s(1024), normals = float64s(1024), tangents = float64s(1024), texcoords = float64s(1024), colors = float64s(1024);
  const blendBonesList = int32s(1024);
  const blendWeights = float64s(1024);
  const triangles = int32s(1024);
  const sections: SourceSection[] = [];
  const customs: { name: string; data: ReturnType<typeof float64s>; size: number }[] = [];
  let vertexCount = 0;
  let withNormals = 0, withTangents = 0, withTexcoords = 0, withColors = 0, primitivesRead = 0;
  const withoutNormals: string[] = [];
  const skipped: string[] = [];
  const morphed: string[] = [];
  let overFour = 0, unweighted = 0;
  const skinned = c.skins.length > 0 || model.joints.length > 0;
  const materialName = materialNamer(c.root, c.images);
  // Materials whose colour went into the vertex colours, for the note.
  const baked: string[] = [];
  const element = new Float64Array(16);
  const point = new Float64Array(3);
  const transform = new Float64Array(12), inverse = new Float64Array(12);
  const meshes = c.root.listMeshes();

  for (const node of c.meshNodes) {
    const mesh = node.getMesh()!;
    const ni = c.nodeIndex.get(node)!;
    // An unnamed mesh of ours says so in its node's extras (a node name cannot be empty and read back).
    const ownName = ourExtras(node.getExtras()).name;
    const meshName = typeof ownName === 'string' ? ownName : node.getName() || mesh.getName() || `mesh${meshes.indexOf(mesh)}`;
    const skin = node.getSkin();
    mesh.listPrimitives().forEach((primitive, k) => {
      const where = `mesh ${meshes.indexOf(mesh)}${mesh.getName() ? ` ('${mesh.getName()}')` : ''} primitive ${k}`;
      const mode = primitive.getMode();
      const position = primitive.getAttribute('POSITION');
      if (mode < 4 || mode > 6 || !position) {
        skipped.push(`${where} (${position ? MODE_NAMES[mode] ?? `mode ${mode}` : 'no POSITION'})`);
        return;
      }
      if (primitive.listTargets().length > 0 && !morphed.includes(meshName)) morphed.push(meshName);
      const count = position.getCount();
      const first = vertexCount;
      const joints0 = primitive.getAttribute('JOINTS_0'), weights0 = primitive.getAttribute('WEIGHTS_0');
      const isSkinned = skin !== null && joints0 !== null && weights0 !== null;
      // The rigid transform of an unskinned mesh: its rest world matrix, and, below a joint, moved
      // from the joint's rest to its base pose (the same where the base pose is the rest pose).
      let rigidJoint = -1;
      if (isSkinned) {
        const shape = c.skinShape.get(skin!);
        if (shape) transform.set(shape);
        else identity3x4(transform, 0);
      } else {
        const j = c.nearestJoint(ni);
        if (j >= 0) {
          rigidJoint = c.jointOf[j];
          invert3x4(inverse, 0, c.world, 12 * j);
          mul3x4(transform, 0, c.base, 12 * rigidJoint, inverse, 0);
          mul3x4(transform, 0, transform, 0, c.world, 12 * ni);
        } else transform.set(c.world.subarray(12 * ni, 12 * ni + 12));
      }
      const normalM = normalMatrix(transform, 0);
      // Unit vectors as the file has them (a round trip keeps their bits): only moved ones are normalised again.
      const untransformed = isIdentity(transform);
      const mirrored = determinant3x4(transform, 0) < 0;
      for (let v = 0; v < count; v++) {
        position.getElement(v, element as unknown as number[]);
        transformPoint(point, 0, transform, 0, element[0], element[1], element[2]);
        zUpVector(point, 0);
        positions.pushMany([point[0], point[1], point[2], 1], 4);
      }
      const normal = primitive.getAttribute('NORMAL');
      if (normal) {
        withNormals++;
        for (let v = 0; v < count; v++) {
          normal.getElement(v, element as unknown as number[]);
          const x = element[0], y = element[1], z = element[2];
          point[0] = normalM[0] * x + normalM[1] * y + normalM[2] * z;
          point[1] = normalM[3] * x + normalM[4] * y + normalM[5] * z;
          point[2] = normalM[6] * x + normalM[7] * y + normalM[8] * z;
          let l = Math.sqrt(point[0] * point[0] + point[1] * point[1] + point[2] * point[2]) || 1;
          if (untransformed && Math.abs(l - 1) <= NEAR_UNIT) l = 1;
          normals.pushMany([point[0] / l, -point[2] / l, point[1] / l], 3);
        }
      } else {
        withoutNormals.push(where);
        for (let v = 0; v < count; v++) normals.pushMany([0, 0, 0], 3);
      }
      const tangent = primitive.getAttribute('TANGENT');
      if (tangent) withTangents++;
      for (let v = 0; v < count; v++) {
        if (tangent) {
          tangent.getElement(v, element as unknown as number[]);
          transformVector(point, 0, transform, 0, element[0], element[1], element[2]);
          let l = Math.sqrt(point[0] * point[0] + point[1] * point[1] + point[2] * point[2]) || 1;
          if (untransformed && Math.abs(l - 1) <= NEAR_UNIT) l = 1;
          tangents.pushMany([point[0] / l, -point[2] / l, point[1] / l, mirrored ? -element[3] : element[3]], 4);
        } else tangents.pushMany([0, 0, 0, 1], 4);
      }
      const uv = primitive.getAttribute('TEXCOORD_0');
      if (uv) withTexcoords++;
      for (let v = 0; v < count; v++) {
        if (uv) {
          uv.getElement(v, element as unknown as number[]);
          texcoords.pushMany([element[0], element[1]], 2);
        } else texcoords.pushMany([0, 0], 2);
      }
      const color = primitive.getAttribute('COLOR_0');
      // glTF's base colour is the material's colour times COLOR_0 (times a texture this material has not).
      const tint = c.bakeColors ? colorOf(primitive.getMaterial()) : null;
      if (tint && !isWhite(tint)) {
        const name = materialName(primitive);
        if (!baked.includes(name)) baked.push(name);
      }
      if (color || (tint && !isWhite(tint))) withColors++;
      const [tr, tg, tb, ta] = tint ?? [1, 1, 1, 1];
      for (let v = 0; v < count; v++) {
        if (color) {
          color.getElement(v, element as unknown as number[]);
          colors.pushMany([tr * element[0], tg * element[1], tb * element[2], ta * (color.getElementSize() === 4 ? element[3] : 1)], 4);
        } else colors.pushMany([tr, tg, tb, ta], 4);
      }
      // Other sets: custom arrays by their semantic (values of primitives without one: 0).
      // An application's own attribute (`_NAME`, as our writer names an IQM custom array): NAME, of its size.
      for (const semantic of primitive.listSemantics()) {
        const own = semantic.startsWith('_') && semantic.length > 1;
        if (!EXTRA_SET.test(semantic) && !own) continue;
        const a = primitive.getAttribute(semantic)!;
        const name = own ? semantic.slice(1) : semantic;
        let custom = customs.find((x) => x.name === name);
        if (!custom) {
          if (customs.length >= 10) continue;
          custom = { name, data: float64s(1024), size: own ? Math.min(a.getElementSize(), 4) : 4 };
          customs.push(custom);
        }
        while (custom.data.length < 4 * vertexCount) custom.data.push(0);
        for (let v = 0; v < count; v++) {
          a.getElement(v, element as unknown as number[]);
          const w = a.getElementSize();
          custom.data.pushMany([element[0], w > 1 ? element[1] : 0, w > 2 ? element[2] : 0, w > 3 ? element[3] : 0], 4);
        }
      }
      // Blend data: the four largest weights of JOINTS_0/1 and WEIGHTS_0/1, renormalised.
      if (skinned) {
        const sets: [Accessor, Accessor][] = [];
        if (isSkinned) {
          sets.push([joints0!, weights0!]);
          const j1 = primitive.getAttribute('JOINTS_1'), w1 = primitive.getAttribute('WEIGHTS_1');
          if (j1 && w1) sets.push([j1, w1]);
        }
        const skinJoints = skin ? skin.listJoints() : [];
        const jv = new Float64Array(4), wv = new Float64Array(4);
        const influences: { joint: number; weight: number }[] = [];
        for (let v = 0; v < count; v++) {
          influences.length = 0;
          for (const [set, [ja, wa]] of sets.entries()) {
            ja.getElement(v, jv as unknown as number[]);
            wa.getElement(v, wv as unknown as number[]);
            for (let q = 0; q < 4; q++) {
              if (!(wv[q] > 0)) continue;
              const index = jv[q];
              if (index >= skinJoints.length) {
                throw new ReadError('gltf-joint-range', `${where}: vertex ${v} is weighted to joint ${index} of skin ${c.root.listSkins().indexOf(skin!)}, which has ${skinJoints.length} joints (JOINTS_${set}, ${c.accessorLabel(ja)})`, 0);
              }
              influences.push({ joint: c.jointOf[c.nodeIndex.get(skinJoints[index])!], weight: wv[q] });
            }
          }
          if (rigidJoint >= 0) influences.push({ joint: rigidJoint, weight: 1 });
          if (influences.length > 4) overFour++;
          influences.sort((a, b) => b.weight - a.weight || a.joint - b.joint);
          const kept = influences.slice(0, 4);
          const total = kept.reduce((s, x) => s + x.weight, 0);
          if (kept.length === 0 || !(total > 0)) unweighted++;
          for (let q = 0; q < 4; q++) {
            blendBonesList.push(q < kept.length && total > 0 ? kept[q].joint : 0);
            blendWeights.push(q < kept.length && total > 0 ? kept[q].weight / total : 0);
          }
        }
      }
      // Triangles, reversed (counter-clockwise -> clockwise; a mirroring transform reverses them again).
      const indices = primitive.getIndices();
      const indexArray = indices ? indices.getArray()! : null;
      const indexCount = indexArray ? indexArray.length : count;
      const at = (n: number): number => {
        const index = indexArray ? indexArray[n] : n;
        if (index >= count) throw new ReadError('gltf-index-range', `${where}: index ${n} of ${c.accessorLabel(indices!)} is ${index}, past the primitive's ${count} vertices (${c.accessorLabel(position)})`, 0);
        return first + index;
      };
      const firstTriangle = triangles.length / 3;
      const add = (a: number, b: number, d: number): void => {
        if (mirrored) triangles.pushMany([at(a), at(b), at(d)], 3);
        else triangles.pushMany([at(a), at(d), at(b)], 3);
      };
      if (mode === 4) for (let n = 0; n + 2 < indexCount; n += 3) add(n, n + 1, n + 2);
      else if (mode === 5) for (let n = 0; n + 2 < indexCount; n++) add(n % 2 === 0 ? n : n + 1, n % 2 === 0 ? n + 1 : n, n + 2);
      else for (let n = 1; n + 1 < indexCount; n++) add(0, n, n + 1);
      sections.push({ mesh: meshName, material: materialName(primitive), firstTriangle, line: 0 });
      vertexCount += count;
      primitivesRead++;
    });
  }

  if (skipped.length > 0) diagnostics.push(note(`${skipped.length} primitives are not triangles and are skipped: ${list(skipped)}`, 'gltf-primitive-mode'));
  if (morphed.length > 0) diagnostics.push(warning(`meshes ${list(morphed.map((m) => `'${m}'`))} have morph targets, which IQM cannot carry: their base mesh is written`, 'gltf-morph-targets'));
  if (overFour > 0) diagnostics.push(note(`${overFour} vertices have more than 4 joint weights: the 4 largest are kept, renormalised`, 'gltf-weights-over-4'));
  if (unweighted > 0) diagnostics.push(warning(`${unweighted} vertices are on no joint (a mesh neither skinned nor below a joint, or zero weights): they stay where they are in every frame`, 'gltf-unweighted'));
  const allNormals = withNormals === primitivesRead && primitivesRead > 0;
  if (!allNormals && primitivesRead > 0) {
    diagnostics.push(note(withNormals === 0 ? 'the file has no normals: they are computed from the faces (smooth where faces share a position)' : `${list(withoutNormals)} have no NORMAL: every normal is computed from the faces`, 'gltf-normals-generated'));
  }
  if (baked.length > 0) {
    diagnostics.push(note(`materials ${list(baked.map((m) => `'${m}'`))} have a colour and no texture: it is written as their meshes' vertex colours (IQM has no material colour; --no-material-colors leaves it out)`, 'gltf-material-colors'));
  }
  if (customs.length > 0) diagnostics.push(note(`${list(customs.map((x) => x.name))} are written as custom vertex arrays of those names (IQM has one texture coordinate and one colour array)`, 'gltf-custom-arrays'));

  model.vertexCount = vertexCount;
  model.vertexLines = new Int32Array(vertexCount);
  model.positions = positions.copy();
  model.normals = allNormals ? normals.copy() : null;
  model.tangents = allNormals && withTangents === primitivesRead ? tangents.copy() : null;
  model.texcoords = withTexcoords > 0 ? texcoords.copy() : null;
  if (withColors > 0) {
    model.colors = colors.copy();
    model.declarations[ArrayType.Color] = { format: Format.Ubyte, size: 4, name: 'color' };
  }
  customs.forEach((custom, k) => {
    while (custom.data.length < 4 * vertexCount) custom.data.push(0);
    model.customs[k] = custom.data.copy();
    model.declarations[7 + k] = { format: Format.Float, size: custom.size, name: custom.name };
  });
  if (skinned && vertexCount > 0) {
    model.blendBones = Uint8Array.from(blendBonesList.view());
    model.blendWeights = blendWeights.copy();
  }
  model.triangles = triangles.copy();
  model.triangleGroup = new Int32Array(model.triangles.length / 3);
  model.groups = [{ key: 0, threshold: -1, uv: false, used: true }];
  model.sections = sections;
}

/**
 * The material name of a primitive: where its base colour texture is an image, the image's file
 * name without extension (what engines look up beside the model; --textures writes embedded images
 * so); else the material's name; else 'default'.
 */
function materialNamer(root: MeshContext['root'], images: readonly GltfImage[]): (p: Primitive) => string {
  const textures = root.listTextures();
  const materials = root.listMaterials();
  const nameOf = (material: Material | null): string => {
    if (!material) return 'default';
    // Our writer keeps the IQM material's own name (a path, often) in the material's extras.
    const own = ourExtras(material.getExtras()).material;
    if (typeof own === 'string') return own;
    const texture = material.getBaseColorTexture();
    const image = texture ? images[textures.indexOf(texture)] : undefined;
    if (image) return image.stem;
    return material.getName() || `material${materials.indexOf(material)}`;
  };
  return (p) => nameOf(p.getMaterial());
}

/** A colour of a material without a texture, by the name the IQM's meshes get (sRGB, 0..1). */
export interface GltfMaterialColor {
  name: string;
  rgba: [number, number, number, number];
  /** Whether the compile writes it as the vertex colours of the meshes (materialColors, and not white). */
  baked: boolean;
}

/** linear -> sRGB (IEC 61966-2-1): glTF's factors are linear; a viewer shows, and a picker gives, the sRGB value. */
function toSrgb(x: number): number {
  const c = Math.min(Math.max(x, 0), 1);
  // 1 exactly (the formula gives a hair under it): white must stay white.
  if (c === 1) return 1;
  return c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
}

/**
 * The colour a material without a base colour texture draws with (sRGB; its alpha only where the
 * material blends or masks); null where it has a texture (the image is the colour an engine shows).
 * No material: glTF's default material, white.
 */
function colorOf(material: Material | null): [number, number, number, number] | null {
  if (!material) return [1, 1, 1, 1];
  if (material.getBaseColorTexture()) return null;
  const [r, g, b, a] = material.getBaseColorFactor();
  return [toSrgb(r), toSrgb(g), toSrgb(b), material.getAlphaMode() === 'OPAQUE' ? 1 : Math.min(Math.max(a, 0), 1)];
}

function isWhite(rgba: readonly number[]): boolean {
  return rgba.every((x) => x === 1);
}

/**
 * The colours of the materials without a texture that the scene's primitives use, by the name
 * their meshes get (the preview draws them where no image is found): `materialColors` says whether
 * the compile bakes them into the vertex colours.
 */
export function materialColors(document: Document, images: readonly GltfImage[], bake = true): GltfMaterialColor[] {
  const root = document.getRoot();
  const name = materialNamer(root, images);
  const out: GltfMaterialColor[] = [];
  for (const mesh of root.listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const rgba = colorOf(primitive.getMaterial());
      const n = name(primitive);
      if (rgba && !out.some((m) => m.name === n)) out.push({ name: n, rgba, baked: bake && !isWhite(rgba) });
    }
  }
  return out;
}

interface AnimationContext {
  document: Document;
  nodes: readonly Node[];
  nodeIndex: Map<Node, number>;
  parent: Int32Array;
  order: readonly number[];
  jointParent: readonly number[];
  fps: number;
  /** --fps was given: it wins over the rate our writer records in an animation's extras. */
  givenFps: boolean;
  stem: string;
}

/**
 * What our writer (writer.ts) records in an object's `extras.iqmTools`: a material's IQM name, an
 * animation's own frame rate, loop flag and frame count, the scene's IQM comment. Anything else
 * (another tool's extras, a wrong type) is as if absent.
 */
function ourExtras(extras: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const ours = extras?.iqmTools;
  return ours !== null && typeof ours === 'object' && !Array.isArray(ours) ? (ours as Record<string, unknown>) : {};
}

function readAnimations(model: SourceModel, diagnostics: IqeDiagnostic[], c: AnimationContext): void {
  const { nodes, order, jointParent, parent, fps } = c;
  const jointCount = order.length;
  const all = c.document.getRoot().listAnimations();
  // Nodes whose pose goes into a joint's: a joint, and the nodes between it and its parent joint.
  const needed = new Uint8Array(nodes.length);
  const direct = order.map((i, j) => (jointParent[j] < 0 ? parent[i] < 0 : parent[i] === order[jointParent[j]]));
  order.forEach((i, j) => {
    needed[i] = 1;
    if (!direct[j]) for (let p = parent[i]; p >= 0 && (jointParent[j] < 0 || p !== order[jointParent[j]]); p = parent[p]) needed[p] = 1;
  });
  const frames = float64s(1024);
  const morph: string[] = [];
  const dropped: string[] = [];
  const trs = new Float64Array(10 * nodes.length);
  const restTrs = new Float64Array(10 * nodes.length);
  nodes.forEach((n, i) => restTrs.set([...n.getTranslation(), ...n.getRotation(), ...n.getScale()], 10 * i));
  const localM = new Float64Array(12 * nodes.length), worldM = new Float64Array(12 * nodes.length);
  const stamp = new Int32Array(nodes.length).fill(-1), localStamp = new Int32Array(nodes.length).fill(-1);
  const relative = new Float64Array(12), inverse = new Float64Array(12), scratch = new Float64Array(12);
  const pose = new Float64Array(POSE_STRIDE);

  all.forEach((animation, a) => {
    const name = animation.getName() || (all.length === 1 ? c.stem : `${c.stem}_${a}`);
    const channels: { node: number; offset: number; sampler: Sampler }[] = [];
    let start = Infinity, end = -Infinity;
    for (const channel of animation.listChannels()) {
      const target = channel.getTargetNode(), path = channel.getTargetPath(), sampler = channel.getSampler();
      if (!target || !sampler || !sampler.getInput() || !sampler.getOutput()) continue;
      if (path === 'weights') {
        if (!morph.includes(name)) morph.push(name);
        continue;
      }
      const offset = path === 'translation' ? 0 : path === 'rotation' ? 3 : path === 'scale' ? 7 : -1;
      if (offset < 0) continue;
      const input = sampler.getInput()!, output = sampler.getOutput()!;
      const times = input.getArray() as Float32Array;
      const width = offset === 3 ? 4 : 3;
      const values = new Float64Array(output.getCount() * width);
      if (!output.getNormalized() && output.getElementSize() === width) values.set(output.getArray()!);
      else {
        const element = new Float64Array(output.getElementSize());
        for (let e = 0; e < output.getCount(); e++) {
          output.getElement(e, element as unknown as number[]);
          for (let k = 0; k < width; k++) values[e * width + k] = element[k] ?? 0;
        }
      }
      for (let k = 1; k < times.length; k++) {
        if (!(times[k] > times[k - 1]) || !Number.isFinite(times[k])) throw new ReadError('gltf-animation-times', `animation '${name}': the key times of ${c.document.getRoot().listAccessors().indexOf(input) >= 0 ? `accessor ${c.document.getRoot().listAccessors().indexOf(input)}` : 'a sampler'} do not increase (key ${k}: ${times[k]} after ${times[k - 1]})`, 0);
      }
      start = Math.min(start, times[0]);
      end = Math.max(end, times[times.length - 1]);
      channels.push({ node: c.nodeIndex.get(target)!, offset, sampler: { times, values, width, interpolation: sampler.getInterpolation() as Interpolation, rotation: offset === 3 } });
    }
    const moves = channels.some((ch) => needed[ch.node]);
    // Our writer's clip: sampled at its own rate (0: the preview's rate), its loop flag kept; a
    // one-frame clip is one key.
    const ours = ourExtras(animation.getExtras());
    const ownRate = !c.givenFps && typeof ours.framerate === 'number' && Number.isFinite(ours.framerate) && ours.framerate >= 0 ? ours.framerate : undefined;
    const rate = ownRate === undefined ? fps : ownRate > 0 ? ownRate : DEFAULT_FPS;
    const single = ownRate !== undefined && ours.frames === 1 && end === start;
    if (channels.length === 0 || (!(end - start > 1e-6) && !single) || !moves) {
      dropped.push(`'${name}'${channels.length === 0 ? ' (no node channel)' : !moves ? ' (moves no joint)' : ' (zero length)'}`);
      return;
    }
    // Frame k at start + k / fps; the last frame is at or just before the last key. Key times are
    // float32: a last key within a thousandth of a frame of the grid counts as on it (2,000 keys at
    // 30 fps end at 66.6333 s, a hair before 1999 / 30), so a whole number of frames keeps its last.
    const frameCount = Math.floor((end - start) * rate + FRAME_GRID_SLACK) + 1;
    if (!Number.isFinite(end) || frameCount > MAX_FRAMES) {
      throw new ReadError('gltf-animation-length', `animation '${name}' runs from ${start} s to ${end} s: ${Number.isFinite(frameCount) ? frameCount : 'endless'} frames at ${rate} fps, more than the ${MAX_FRAMES} read (a broken key time?)`, 0);
    }
    const poses = (model.frameCount + frameCount) * jointCount;
    if (poses > MAX_POSES) {
      throw new ReadError('gltf-animation-length', `the animations sample to ${(model.frameCount + frameCount).toLocaleString('en-US')} frames of ${jointCount} joints by animation '${name}' (${poses.toLocaleString('en-US')} poses at ${rate} fps), more than the ${MAX_POSES.toLocaleString('en-US')} read (a broken key time?)`, 0);
    }
    model.animations.push({ name, framerate: ownRate ?? rate, flags: ownRate !== undefined && ours.loop === true ? 1 : 0, firstFrame: model.frameCount, frameCount, line: 0, column: 0 });
    for (let f = 0; f < frameCount; f++) {
      const t = Math.min(start + f / rate, end);
      trs.set(restTrs);
      for (const ch of channels) evaluate(ch.sampler, t, trs, 10 * ch.node + ch.offset);
      const frameId = model.frameCount;
      const worldOf = (i: number): number => {
        // The local matrices of the chain up to the first node composed in this frame, then down.
        for (let p = i; p >= 0 && stamp[p] !== frameId && localStamp[p] !== frameId; p = parent[p]) {
          trsMatrix(localM, 12 * p, trs.subarray(10 * p, 10 * p + 3), trs.subarray(10 * p + 3, 10 * p + 7), trs.subarray(10 * p + 7, 10 * p + 10));
          localStamp[p] = frameId;
        }
        composeWorld(i, parent, localM, worldM, stamp, frameId);
        return 12 * i;
      };
      for (let j = 0; j < jointCount; j++) {
        const i = order[j];
        if (direct[j]) pose.set(trs.subarray(10 * i, 10 * i + 10));
        else {
          const w = worldOf(i);
          if (jointParent[j] >= 0) {
            invert3x4(inverse, 0, worldM, worldOf(order[jointParent[j]]));
            mul3x4(relative, 0, inverse, 0, worldM, w);
          } else relative.set(worldM.subarray(w, w + 12));
          toTRS(pose, 0, relative, 0, scratch);
        }
        zUpPose(pose, 0);
        frames.pushMany(pose, POSE_STRIDE);
      }
      model.frameCount++;
    }
  });
  if (morph.length > 0) diagnostics.push(warning(`animations ${list(morph.map((m) => `'${m}'`))} drive morph target weights, which IQM cannot carry: the base mesh is written, those channels are left out`, 'gltf-morph-animation'));
  if (dropped.length > 0) diagnostics.push(note(`animations ${list(dropped)} are dropped: nothing to sample`, 'gltf-animation-empty'));
  model.framePoses = frames.copy();
  model.framePoseStride = POSE_STRIDE;
  model.framePoseStart = new Int32Array(model.frameCount + 1);
  for (let f = 0; f <= model.frameCount; f++) model.framePoseStart[f] = f * jointCount;
}

// glTF 2.0 writer: the neutral Model (any reader's output) as a .glb or a .gltf (with its .bin and
// images beside it) that our glTF reader (reader.ts) turns back into the same model, and that
// Blender and other glTF tools import with its skeleton, animations and textures. Pure: a Model
// and the images already found (core/lookup/gltfTextures.ts) in, bytes and warnings out.
//
// Conventions (the exact inverse of the reader's, docs/GLTF.md):
// - Axes: ours Z-up, glTF Y-up: (x, y, z) -> (x, z, -y) for positions, normals, tangents and
//   poses (a -90 degree rotation about X; quaternions turn their axis, scale swaps y and z).
// - Winding: glTF's front faces are counter-clockwise; a clockwise model (IQM, MD3) is reversed.
// - Texture coordinates unchanged: both put v = 0 at the image's top row.
// - Skeleton: one node per joint (its base pose as the rest TRS), the inverse bind matrices from
//   that pose; joints with no common root get one parent node "Armature" (glTF needs a common root).
//   Meshes are root nodes (glTF ignores a skinned mesh node's transform).
// - Animations: one per clip, keys at frame k / fps (the clip's rate, else DEFAULT_FPS), LINEAR,
//   channels only for joints that leave their rest pose; quaternions sign-continuous so slerp takes
//   the short arc; names unique (a repeated one gets its input's name after it). The clip's own rate, loop flag, frame count and FTE events are in the
//   animation's `extras.iqmTools`; the IQM comment and extension names in the scene's; the
//   material's name in the material's (GLTF.md: what the reader takes back from them).
// - MD3: frame 0 as the mesh, every frame a morph target, and a weights animation per clip (the
//   frames it plays); tags as nodes animated with them.
import { fallbackTangent } from '../math/tangent';
import { fromTRS, invert3x4, mul3x4 } from '../math/mat3x4';
import { clipFrames, storedFrame, type FrameSource } from '../iqe/writer';
import { DEFAULT_FPS, type Mesh, type Model } from '../model/model';
import { quotedName } from '../names';
import { encodeUtf8 } from '../utf8';
import { NEAR_UNIT } from './math';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER } from './constants';
import { GltfBufferBuilder } from './buffer';

/** 1, or the factor that makes a vector of length l unit where it is further than NEAR_UNIT from it. */
function unitScale(l: number): number {
  return Math.abs(l - 1) <= NEAR_UNIT ? 1 : 1 / l;
}

/** A material's base colour image, as PNG or JPEG bytes (what glTF takes). */
export interface GltfImageOut {
  bytes: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
}

/** What a material draws with, as the preview draws it. */
export interface GltfMaterialOut {
  image: GltfImageOut | null;
  /** glTF's alpha mode: the image's alpha blended, tested against `alphaCutoff`, or ignored. */
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff?: number;
  doubleSided: boolean;
}

export interface GltfWriteOptions {
  /** 'glb': one binary file; 'gltf': JSON with the buffer and images as files beside it. */
  container: 'glb' | 'gltf';
  /** For 'gltf': the output's name without extension (the buffer is `<stem>.bin`, images `<stem>_<material>.png`). */
  stem?: string;
  /** Animation inputs (`convert IN ANIM…`): their clips follow the model's own. */
  animations?: FrameSource[];
  /** Per entry of model.materials (by index): its image and alpha; absent: untextured, opaque. */
  materials?: readonly (GltfMaterialOut | null)[];
  /** How warnings name the model (its file name). */
  label?: string;
  /** Provenance, in the scene's extras. */
  comments?: string[];
}

export interface GltfWriteResult {
  /** The .glb, or the .gltf's JSON text as UTF-8. */
  bytes: Uint8Array;
  /** For 'gltf': the files its JSON names, to be written beside it ('<stem>.bin', images). */
  resources: { name: string; bytes: Uint8Array }[];
  /** What glTF cannot hold or is changed, one sentence each. */
  warnings: string[];
  animations: number;
}

/** An input the writer cannot turn into glTF (which input: 0 the model, k the k-th animation input). */
export class GltfWriteError extends Error {
  constructor(
    message: string,
    readonly input: number,
  ) {
    super(message);
    this.name = 'GltfWriteError';
  }
}

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Axes: Z-up (ours) -> Y-up (glTF), (x, y, z) -> (x, z, -y).

/** A pose [t q s] (10 numbers at `o`) in Y-up, into out[oo..]. */
function yUpPose(out: Float32Array | Float64Array, oo: number, p: ArrayLike<number>, o: number): void {
  out[oo] = p[o];
  out[oo + 1] = p[o + 2];
  out[oo + 2] = -p[o + 1];
  out[oo + 3] = p[o + 3];
  out[oo + 4] = p[o + 5];
  out[oo + 5] = -p[o + 4];
  out[oo + 6] = p[o + 6];
  out[oo + 7] = p[o + 7];
  out[oo + 8] = p[o + 9];
  out[oo + 9] = p[o + 8];
}

/** A 3x4 row-major matrix M (Z-up) as C·M·Cᵀ in Y-up, column-major 4x4 (glTF) into out[oo..oo+15]. */
function yUpMatrixColumnMajor(out: Float32Array, oo: number, m: ArrayLike<number>, o: number): void {
  // C's rows: x' = x, y' = z, z' = -y; row r of C picks axis AXIS[r] with sign SIGN[r].
  const AXIS = [0, 2, 1], SIGN = [1, 1, -1];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[oo + 4 * c + r] = SIGN[r] * SIGN[c] * m[o + 4 * AXIS[r] + AXIS[c]];
    out[oo + 12 + r] = SIGN[r] * m[o + 4 * AXIS[r] + 3];
    out[oo + 4 * r + 3] = 0;
  }
  out[oo + 15] = 1;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A finite number or the fallback. */
function finite(x: number, fallback: number): number {
  return Number.isFinite(x) ? x : fallback;
}

// ---------------------------------------------------------------------------------------------
// The writer

export function writeGltf(model: Model, options: GltfWriteOptions): GltfWriteResult {
  const document = gltfDocument(model, options);
  return { ...packGltf(document, options), warnings: document.warnings, animations: document.animations };
}

/** A glTF document before packing: its JSON, its binary buffer, and (for 'gltf') its image files. */
export interface GltfDocument {
  json: Json;
  bin: Uint8Array;
  resources: { name: string; bytes: Uint8Array }[];
  warnings: string[];
  animations: number;
}

/** The document as a .glb, or as a .gltf's JSON text with its files (`<stem>.bin` first, then `resources`). */
export function packGltf(document: Pick<GltfDocument, 'json' | 'bin' | 'resources'>, options: Pick<GltfWriteOptions, 'container' | 'stem'>): Pick<GltfWriteResult, 'bytes' | 'resources'> {
  const { json, bin } = document;
  const resources = [...document.resources];
  if (bin.byteLength > 0) json.buffers = [options.container === 'glb' ? { byteLength: bin.byteLength } : { byteLength: bin.byteLength, uri: encodeURI(`${options.stem ?? 'model'}.bin`) }];
  if (options.container === 'gltf') {
    if (bin.byteLength > 0) resources.unshift({ name: `${options.stem ?? 'model'}.bin`, bytes: bin });
    return { bytes: encodeUtf8(JSON.stringify(json, null, 1) + '\n'), resources };
  }
  return { bytes: glb(json, bin), resources: [] };
}

/** The model's glTF document (what writeGltf packs); `options.container` decides where images go (the buffer, or files). */
export function gltfDocument(model: Model, options: GltfWriteOptions): GltfDocument {
  const warnings: string[] = [];
  const warn = (m: string): void => {
    warnings.push(m);
  };
  const buffer = new GltfBufferBuilder();
  const nodes: Json[] = [];
  const sceneNodes: number[] = [];
  const sk = model.skeleton;
  if (!sk && model.animation) {
    throw new GltfWriteError('an animation-only model (no joints, no meshes): give the model whose skeleton it animates first and this file after it (convert MESH ANIM -o OUT.glb)', 0);
  }

  // Joints: one node each, children listed by their parents; several roots under one "Armature".
  const jointCount = sk ? sk.names.length : 0;
  let jointBase = 0;
  const rest = new Float32Array(10 * jointCount);
  if (sk) {
    const roots: number[] = [];
    for (let j = 0; j < jointCount; j++) if (sk.parents[j] < 0) roots.push(j);
    if (roots.length > 1) {
      nodes.push({ name: 'Armature', children: roots.map((j) => j + 1) });
      sceneNodes.push(0);
      jointBase = 1;
    } else sceneNodes.push(...roots);
    // Joint j is node jointBase + j (node 0 is the armature where there is one).
    const children: number[][] = Array.from({ length: jointCount }, () => []);
    for (let j = 0; j < jointCount; j++) if (sk.parents[j] >= 0) children[sk.parents[j]].push(jointBase + j);
    let bad = 0;
    for (let j = 0; j < jointCount; j++) {
      const local = sk.bindLocal.subarray(10 * j, 10 * j + 10);
      if (!local.every(Number.isFinite)) bad++;
      yUpPose(rest, 10 * j, local.map((x, k) => finite(x, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1][k])), 0);
      // glTF requires unit rotations; a zero one is the identity.
      const ql = Math.hypot(rest[10 * j + 3], rest[10 * j + 4], rest[10 * j + 5], rest[10 * j + 6]);
      for (let e = 3; e < 7; e++) rest[10 * j + e] = ql > 0 ? rest[10 * j + e] * unitScale(ql) : e === 6 ? 1 : 0;
      const node: Json = { name: sk.names[j] };
      if (children[j].length) node.children = children[j];
      const t = Array.from(rest.subarray(10 * j, 10 * j + 3)), q = Array.from(rest.subarray(10 * j + 3, 10 * j + 7)), s = Array.from(rest.subarray(10 * j + 7, 10 * j + 10));
      if (t.some((x) => x !== 0)) node.translation = t;
      if (!(q[0] === 0 && q[1] === 0 && q[2] === 0 && q[3] === 1)) node.rotation = q;
      if (s.some((x) => x !== 1)) node.scale = s;
      nodes.push(node);
    }
    if (bad) warn(`${plural(bad, 'joint')} have base pose values that are not finite; written as the identity's`);
  }

  // The inverse bind matrices: of the base pose composed in double precision, then in Y-up.
  let skin: number | undefined;
  const skins: Json[] = [];
  // A skeleton without meshes (an animation file) keeps its skin too: glTF's joints are a skin's.
  const skinned = jointCount > 0 && (model.meshes.length === 0 || model.meshes.some((m) => m.influences > 0 && m.blendIndices && m.blendWeights));
  if (sk && skinned) {
    const world = new Float64Array(12 * jointCount);
    const local = new Float64Array(12);
    const inverse = new Float64Array(12);
    const ibm = new Float32Array(16 * jointCount);
    const pose = new Float64Array(10);
    for (const j of sk.order) {
      // The rest TRS as written (normalised quaternion), back in Z-up for composing.
      const n = nodes[jointBase + j] as { translation?: number[]; rotation?: number[]; scale?: number[] };
      const t = n.translation ?? [0, 0, 0], q = n.rotation ?? [0, 0, 0, 1], s = n.scale ?? [1, 1, 1];
      pose.set([t[0], -t[2], t[1], q[0], -q[2], q[1], q[3], s[0], s[2], s[1]]);
      fromTRS(local, 0, pose, 0);
      if (sk.parents[j] >= 0) mul3x4(world, 12 * j, world, 12 * sk.parents[j], local, 0);
      else world.set(local, 12 * j);
    }
    for (let j = 0; j < jointCount; j++) {
      if (!invert3x4(inverse, 0, world, 12 * j)) warn(`joint ${j} "${sk.names[j]}": its base pose cannot be inverted (a zero scale); its inverse bind matrix is left as it comes out`);
      yUpMatrixColumnMajor(ibm, 16 * j, inverse, 0);
    }
    skins.push({ name: 'skin', joints: Array.from({ length: jointCount }, (_, j) => jointBase + j), inverseBindMatrices: buffer.accessor(ibm, 'MAT4'), ...(jointBase ? { skeleton: 0 } : {}) });
    skin = 0;
  }

  // Materials and their images.
  const materials: Json[] = [];
  const textures: Json[] = [];
  const images: Json[] = [];
  const resources: { name: string; bytes: Uint8Array }[] = [];
  const imageNames = new Set<string>();
  model.materials.forEach((name, i) => {
    const out = options.materials?.[i] ?? null;
    const material: Json = { name: name || 'default', extras: { iqmTools: { material: name } } };
    const pbr: Json = { metallicFactor: 0, roughnessFactor: 1 };
    if (out?.image) {
      const base = (name.split(/[/\\]/).pop() || 'texture').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'texture';
      let unique = base;
      for (let k = 2; imageNames.has(unique); k++) unique = `${base}_${k}`;
      imageNames.add(unique);
      const image: Json = { name: unique, mimeType: out.image.mimeType };
      if (options.container === 'glb') image.bufferView = buffer.view(out.image.bytes);
      else {
        const file = `${options.stem ?? 'model'}_${unique}.${out.image.mimeType === 'image/png' ? 'png' : 'jpg'}`;
        image.uri = encodeURI(file);
        delete image.mimeType;
        resources.push({ name: file, bytes: out.image.bytes });
      }
      images.push(image);
      textures.push({ source: images.length - 1 });
      pbr.baseColorTexture = { index: textures.length - 1 };
    }
    material.pbrMetallicRoughness = pbr;
    if (out && out.alphaMode !== 'OPAQUE') {
      material.alphaMode = out.alphaMode;
      if (out.alphaMode === 'MASK' && out.alphaCutoff !== undefined) material.alphaCutoff = out.alphaCutoff;
    }
    if (out?.doubleSided) material.doubleSided = true;
    materials.push(material);
  });

  // Meshes: one glTF mesh (one primitive) per model mesh, each a root node.
  const meshes: Json[] = [];
  const meshNodes: number[] = [];
  const md3 = model.format === 'md3' && model.meshes.some((m) => m.morph && m.morph.frameCount > 1);
  writeMeshes(model, { buffer, warn, skin, jointCount, md3 }, (mesh, json) => {
    meshes.push(json);
    const node: Json = { name: mesh.name, mesh: meshes.length - 1 };
    // A node name cannot be empty and read back (readers name it): an unnamed mesh says so.
    if (mesh.name === '') node.extras = { iqmTools: { name: '' } };
    if (skin !== undefined && mesh.influences > 0 && mesh.blendIndices && mesh.blendWeights) node.skin = skin;
    nodes.push(node);
    meshNodes.push(nodes.length - 1);
    sceneNodes.push(nodes.length - 1);
  });

  // MD3 tags: nodes at their frame-0 placement, animated with the clips.
  const tagNodes: number[] = [];
  if (model.tags && model.tags.names.length > 0) {
    for (let t = 0; t < model.tags.names.length; t++) {
      const trs = tagTrs(model.tags.frames, t * 12);
      nodes.push({ name: model.tags.names[t], translation: Array.from(trs.subarray(0, 3)), rotation: Array.from(trs.subarray(3, 7)) });
      tagNodes.push(nodes.length - 1);
      sceneNodes.push(nodes.length - 1);
    }
  }

  // Animations.
  const animations: Json[] = [];
  const sources: FrameSource[] = [{ label: options.label ?? 'the model', model }];
  for (const [i, a] of (options.animations ?? []).entries()) {
    const anim = a.model.animation;
    if (!anim) throw new GltfWriteError('has no skeletal animation', i + 1);
    if (anim.poseCount !== jointCount) throw new GltfWriteError(`its animation has ${anim.poseCount} poses but the model has ${jointCount} joints`, i + 1);
    sources.push(a);
  }
  const labelled: { json: Json; label: string }[] = [];
  if (sk) {
    for (const source of sources) {
      if (!source.model.animation) continue;
      for (const json of skeletalAnimations(source, source === sources[0] ? model : source.model, { buffer, rest, jointBase, jointCount, warn })) labelled.push({ json, label: source.label });
    }
  }
  if (md3) for (const json of morphAnimations(model, { buffer, meshNodes, tagNodes, warn })) labelled.push({ json, label: sources[0].label });
  else if (model.format === 'md3' && model.tags && model.frameCount > 1) warn('MD3 tags are written at frame 0: the model has no vertex animation to go with them');
  uniqueAnimationNames(labelled, warn);
  animations.push(...labelled.map((a) => a.json));

  // FTE and IQM extras that glTF has no place for.
  if (model.iqm) {
    for (const e of model.iqm.extensions) warn(`IQM extension ${e.name} (${e.size} bytes) is kept by name in the scene's extras, not its data`);
    if (model.iqm.fteMesh) warn('FTE_MESH per-mesh data (contents, surface flags, LOD distances) is not carried');
    if (model.iqm.fteSkins) warn('FTE_SKINS (skin lists per mesh) is not carried; the first skin is the texture where the preview finds it');
  }
  if (model.skeleton && model.skeleton.flags.some((f) => f !== 0)) warn('DPM bone flags (1: attachment) are not carried');

  const sceneExtras: Json = {};
  if (model.iqm?.comment) sceneExtras.comment = model.iqm.comment;
  if (model.iqm?.extensions.length) sceneExtras.extensions = model.iqm.extensions.map((e) => ({ name: e.name, size: e.size }));
  if (options.comments?.length) sceneExtras.source = options.comments.join('\n');
  const json: Json = {
    asset: { version: '2.0', generator: 'iqm-tools' },
    scene: 0,
    scenes: [{ name: options.label ?? 'model', nodes: sceneNodes, ...(Object.keys(sceneExtras).length ? { extras: { iqmTools: sceneExtras } } : {}) }],
  };
  const put = (key: string, list: unknown[]): void => {
    // glTF forbids empty arrays at the top level.
    if (list.length) json[key] = list;
  };
  put('nodes', nodes);
  put('meshes', meshes);
  put('skins', skins);
  put('materials', materials);
  put('textures', textures);
  put('images', images);
  put('animations', animations);
  put('accessors', buffer.accessors);
  put('bufferViews', buffer.views);
  return { json, bin: buffer.bytes(), resources, warnings, animations: animations.length };
}

/**
 * Animation names made unique, as glTF tools need them (Blender renames a second "walk" to
 * "walk.001", so an action cannot be found by its name): the first of a name keeps it, a later one
 * gets its input's name after it, "walk (anim.iqm)", then "walk (anim.iqm, 2)"; one warning lists
 * the renames. In place, in the order written (the model's clips, then each animation input's).
 */
function uniqueAnimationNames(animations: readonly { json: Json; label: string }[], warn: (m: string) => void): void {
  const taken = new Set<string>();
  const renamed: string[] = [];
  for (const { json, label } of animations) {
    const name = json.name as string;
    let unique = name;
    for (let k = 1; taken.has(unique); k++) unique = k === 1 ? `${name} (${label})` : `${name} (${label}, ${k})`;
    taken.add(unique);
    if (unique === name) continue;
    json.name = unique;
    renamed.push(`${quotedName(name)} as ${quotedName(unique)}`);
  }
  const SHOWN = 5;
  if (renamed.length) warn(`${plural(renamed.length, 'animation')} had the name of an earlier one (glTF tools such as Blender need each name once): written ${renamed.slice(0, SHOWN).join(', ')}${renamed.length > SHOWN ? ` and ${renamed.length - SHOWN} more` : ''}`);
}

/** The GLB container: 12-byte header, JSON chunk (space padded), BIN chunk (zero padded). */
function glb(json: Json, bin: Uint8Array): Uint8Array {
  const text = encodeUtf8(JSON.stringify(json));
  const jsonLength = text.byteLength + ((4 - (text.byteLength % 4)) % 4);
  const total = 12 + 8 + jsonLength + (bin.byteLength ? 8 + bin.byteLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(text, 20);
  out.fill(0x20, 20 + text.byteLength, 20 + jsonLength);
  if (bin.byteLength) {
    view.setUint32(20 + jsonLength, bin.byteLength, true);
    view.setUint32(24 + jsonLength, 0x004e4942, true); // 'BIN\0'
    out.set(bin, 28 + jsonLength);
  }
  return out;
}

interface MeshContext {
  buffer: GltfBufferBuilder;
  warn: (m: string) => void;
  skin: number | undefined;
  jointCount: number;
  /** Whether the meshes carry their MD3 frames as morph targets. */
  md3: boolean;
}

// The per-vertex passes below are small functions of their own: V8 compiles a hot loop's function
// whole (on the main thread in the CLI, cli/launch.ts), and one function holding every pass took
// longer to compile than the passes take to run.
function writeMeshes(model: Model, c: MeshContext, add: (mesh: Mesh, json: Json) => void): void {
  const { buffer, warn } = c;
  let fixedNormals = 0, fixedTangents = 0, nonFinite = 0, unweighted = 0, outOfRange = 0, nowhere = 0;
  const reverse = model.winding === 'cw';
  for (const [mi, mesh] of model.meshes.entries()) {
    const n = mesh.vertexCount;
    if (n === 0 || mesh.triangleCount === 0) {
      warn(`mesh ${mi} "${mesh.name}" has no ${n === 0 ? 'vertices' : 'triangles'}: left out (a glTF primitive needs both)`);
      continue;
    }
    const attributes: Json = {};
    const position = new Float32Array(3 * n);
    nonFinite += yUpPositions(position, mesh.position, n);
    attributes.POSITION = buffer.accessor(position, 'VEC3', { target: ARRAY_BUFFER, bounds: true });
    if (mesh.normal) {
      const normal = new Float32Array(3 * n);
      fixedNormals += yUpUnitNormals(normal, mesh.normal, n);
      attributes.NORMAL = buffer.accessor(normal, 'VEC3', { target: ARRAY_BUFFER });
      if (mesh.tangent) {
        const tangent = new Float32Array(4 * n);
        fixedTangents += yUpUnitTangents(tangent, mesh.tangent, mesh.normal, n);
        attributes.TANGENT = buffer.accessor(tangent, 'VEC4', { target: ARRAY_BUFFER });
      }
    }
    if (mesh.texcoord) attributes.TEXCOORD_0 = buffer.accessor(finiteCopy(mesh.texcoord, 2 * n, 0), 'VEC2', { target: ARRAY_BUFFER });
    if (mesh.color) {
      const color = finiteCopy(mesh.color, 4 * n, 1);
      clampUnit(color);
      attributes.COLOR_0 = buffer.accessor(color, 'VEC4', { target: ARRAY_BUFFER });
    }
    if (c.skin !== undefined && mesh.influences > 0 && mesh.blendIndices && mesh.blendWeights) {
      const sets = Math.ceil(mesh.influences / 4);
      const joints = c.jointCount > 256 ? new Uint16Array(4 * sets * n) : new Uint8Array(4 * sets * n);
      const weights = new Float32Array(4 * sets * n);
      const counts = gatherInfluences(joints, weights, mesh.blendIndices, mesh.blendWeights, mesh.influences, n, c.jointCount);
      unweighted += counts.unweighted;
      outOfRange += counts.outOfRange;
      // Set s is the s-th 4 slots of every vertex: JOINTS_s/WEIGHTS_s.
      for (let s = 0; s < sets; s++) {
        attributes[`JOINTS_${s}`] = buffer.accessor(slotSet(joints, sets, s, n), 'VEC4', { target: ARRAY_BUFFER });
        attributes[`WEIGHTS_${s}`] = buffer.accessor(slotSet(weights, sets, s, n), 'VEC4', { target: ARRAY_BUFFER });
      }
    }
    for (const custom of mesh.custom) {
      const type = (['SCALAR', 'VEC2', 'VEC3', 'VEC4'] as const)[custom.size - 1];
      if (!type) {
        warn(`mesh ${mi} "${mesh.name}": custom array "${custom.name}" has ${custom.size} components (glTF attributes have 1 to 4): left out`);
        continue;
      }
      attributes[`_${custom.name}`] = buffer.accessor(finiteCopy(custom.data, custom.size * n, 0), type, { target: ARRAY_BUFFER });
    }

    // Triangles, counter-clockwise; corners past the mesh's vertices left out.
    const indices = n >= 65535 ? new Uint32Array(3 * mesh.triangleCount) : new Uint16Array(3 * mesh.triangleCount);
    const written = triangleIndices(indices, mesh.indices, mesh.triangleCount, n, reverse);
    nowhere += mesh.triangleCount - written / 3;
    if (written === 0) {
      warn(`mesh ${mi} "${mesh.name}": no triangle names vertices the mesh has: left out`);
      continue;
    }
    const primitive: Json = { attributes, indices: buffer.accessor(indices.subarray(0, written), 'SCALAR', { target: ELEMENT_ARRAY_BUFFER }), mode: 4 };
    if (model.materials.length > 0) primitive.material = mesh.materialIndex;
    const json: Json = { name: mesh.name, primitives: [primitive] };
    if (c.md3 && mesh.morph) addMorphTargets(mesh, primitive, json, buffer);
    add(mesh, json);
  }
  if (nonFinite) warn(`${plural(nonFinite, 'vertex position')} ${nonFinite === 1 ? 'is' : 'are'} NaN or infinite; written as 0`);
  if (fixedNormals) warn(`${plural(fixedNormals, 'normal')} ${fixedNormals === 1 ? 'is' : 'are'} zero or not finite, which glTF does not allow; written as straight up`);
  if (fixedTangents) warn(`${plural(fixedTangents, 'tangent')} ${fixedTangents === 1 ? 'is' : 'are'} zero or not finite; written as the compile's fallback tangent (IQE-SEMANTICS.md B8)`);
  if (unweighted) warn(`${plural(unweighted, 'vertex')} ${unweighted === 1 ? 'has' : 'have'} no blend weight (the preview keeps them at their bind position); glTF needs weights summing to 1: bound to joint 0, so they follow it`);
  if (outOfRange) warn(`${plural(outOfRange, 'blend influence')} name a joint that does not exist; left out`);
  if (nowhere) warn(`${plural(nowhere, 'triangle')} name vertices their mesh does not have: left out`);
}

/** n positions in Y-up into out (3 per vertex), a non-finite coordinate as 0; the count of vertices with one. */
function yUpPositions(out: Float32Array, position: Float32Array, n: number): number {
  let nonFinite = 0;
  for (let v = 0; v < n; v++) {
    const x = position[3 * v], y = position[3 * v + 1], z = position[3 * v + 2];
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) nonFinite++;
    out[3 * v] = finite(x, 0);
    out[3 * v + 1] = finite(z, 0);
    out[3 * v + 2] = -finite(y, 0);
  }
  return nonFinite;
}

/** n unit normals in Y-up into out; a zero or broken one as up (+Z ours, glTF requires unit normals); the count of those. */
function yUpUnitNormals(out: Float32Array, normal: Float32Array, n: number): number {
  let fixed = 0;
  for (let v = 0; v < n; v++) {
    let x = normal[3 * v], y = normal[3 * v + 1], z = normal[3 * v + 2];
    let l = Math.sqrt(x * x + y * y + z * z);
    if (!(l > 0 && Number.isFinite(l))) {
      x = 0; y = 0; z = 1; l = 1;
      fixed++;
    }
    const u = unitScale(l);
    out[3 * v] = x * u;
    out[3 * v + 1] = z * u;
    out[3 * v + 2] = -y * u;
  }
  return fixed;
}

/**
 * n unit tangents in Y-up into out (4 per vertex, handedness ±1: glTF allows no other); a zero or
 * broken one as the compile's own fallback from the normal (IQE-SEMANTICS.md B8, as the IQE writer
 * writes it); the count of those.
 */
function yUpUnitTangents(out: Float32Array, tangent: Float32Array, normal: Float32Array, n: number): number {
  let fixed = 0;
  const t = new Float64Array(4);
  for (let v = 0; v < n; v++) {
    let x = tangent[4 * v], y = tangent[4 * v + 1], z = tangent[4 * v + 2];
    const w = tangent[4 * v + 3];
    let l = Math.sqrt(x * x + y * y + z * z);
    if (!(l > 0 && Number.isFinite(l) && Number.isFinite(w))) {
      fallbackTangent(t, 0, normal[3 * v], normal[3 * v + 1], normal[3 * v + 2]);
      x = t[0]; y = t[1]; z = t[2]; l = 1;
      fixed++;
    }
    const u = unitScale(l);
    out[4 * v] = x * u;
    out[4 * v + 1] = z * u;
    out[4 * v + 2] = -y * u;
    out[4 * v + 3] = w < 0 ? -1 : 1;
  }
  return fixed;
}

/** The first `count` values of `data`, a non-finite one as `fallback`. */
function finiteCopy(data: Float32Array, count: number, fallback: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = finite(data[i], fallback);
  return out;
}

/** Each value clamped to 0..1, in place. */
function clampUnit(data: Float32Array): void {
  for (let i = 0; i < data.length; i++) data[i] = Math.min(Math.max(data[i], 0), 1);
}

/**
 * The blend influences of n vertices (k each) as glTF's slots, 4 * sets per vertex in one array:
 * influences of weight 0 and joints that do not exist left out, the same joint twice summed into
 * one slot (glTF forbids it), weights renormalised to sum 1; a vertex no joint moves bound to joint 0
 * (glTF needs weights that sum to 1; as FTE does).
 */
function gatherInfluences(joints: Uint8Array | Uint16Array, weights: Float32Array, indices: Uint8Array | Uint16Array | Uint32Array, blendWeights: Float32Array, k: number, n: number, jointCount: number): { unweighted: number; outOfRange: number } {
  let unweighted = 0, outOfRange = 0;
  const slots = joints.length / n;
  for (let v = 0; v < n; v++) {
    const first = v * slots;
    let slot = 0;
    let sum = 0;
    for (let i = 0; i < k; i++) {
      const w = blendWeights[v * k + i];
      const j = indices[v * k + i];
      if (!(w > 0)) continue;
      if (j >= jointCount) {
        outOfRange++;
        continue;
      }
      let s = 0;
      while (s < slot && joints[first + s] !== j) s++;
      if (s === slot) {
        joints[first + slot] = j;
        slot++;
      }
      weights[first + s] += w;
      sum += w;
    }
    if (slot === 0) {
      weights[first] = 1;
      unweighted++;
    } else if (Math.abs(sum - 1) > 1e-6) for (let s = 0; s < slot; s++) weights[first + s] /= sum;
  }
  return { unweighted, outOfRange };
}

/** Slots 4s..4s+3 of every vertex (of `sets` * 4), as one VEC4 array; the array itself when there is one set. */
function slotSet<T extends Uint8Array | Uint16Array | Float32Array>(data: T, sets: number, s: number, n: number): T {
  if (sets === 1) return data;
  const out = new (data.constructor as new (length: number) => T)(4 * n);
  for (let v = 0; v < n; v++) for (let e = 0; e < 4; e++) out[4 * v + e] = data[4 * (sets * v + s) + e];
  return out;
}

/**
 * The triangles whose corners all lie in the mesh's n vertices into out, counter-clockwise (a
 * clockwise model's reversed); the count of indices written.
 */
function triangleIndices(out: Uint16Array | Uint32Array, indices: Uint32Array, triangleCount: number, n: number, reverse: boolean): number {
  let written = 0;
  for (let tri = 0; tri < triangleCount; tri++) {
    const a = indices[3 * tri], b = indices[3 * tri + 1], d = indices[3 * tri + 2];
    if (!(a < n && b < n && d < n)) continue;
    out[written++] = a;
    out[written++] = reverse ? d : b;
    out[written++] = reverse ? b : d;
  }
  return written;
}

/** MD3: every frame after 0 a morph target (position and normal differences from frame 0). */
function addMorphTargets(mesh: Mesh, primitive: Json, json: Json, buffer: GltfBufferBuilder): void {
  const morph = mesh.morph!;
  const n = mesh.vertexCount;
  const targets: Json[] = [];
  for (let f = 1; f < morph.frameCount; f++) {
    const dp = new Float32Array(3 * n), dn = new Float32Array(3 * n);
    const o = f * n * 3;
    for (let v = 0; v < n; v++) {
      const p = o + 3 * v;
      dp[3 * v] = morph.positions[p] - morph.positions[3 * v];
      dp[3 * v + 1] = morph.positions[p + 2] - morph.positions[3 * v + 2];
      dp[3 * v + 2] = -(morph.positions[p + 1] - morph.positions[3 * v + 1]);
      dn[3 * v] = morph.normals[p] - morph.normals[3 * v];
      dn[3 * v + 1] = morph.normals[p + 2] - morph.normals[3 * v + 2];
      dn[3 * v + 2] = -(morph.normals[p + 1] - morph.normals[3 * v + 1]);
    }
    targets.push({ POSITION: buffer.accessor(dp, 'VEC3', { target: ARRAY_BUFFER, bounds: true }), NORMAL: buffer.accessor(dn, 'VEC3', { target: ARRAY_BUFFER }) });
  }
  if (targets.length === 0) return;
  primitive.targets = targets;
  json.weights = new Array<number>(targets.length).fill(0);
}

/** An MD3 tag's 3x4 matrix (Z-up) as Y-up [t q] (7 numbers). */
function tagTrs(frames: Float32Array, o: number): Float64Array {
  const m = new Float64Array(16);
  const out = new Float32Array(16);
  yUpMatrixColumnMajor(out, 0, frames, o);
  m.set(out);
  // Column-major 4x4 -> translation and rotation (the axes are orthonormal in a valid tag).
  const r00 = m[0], r10 = m[1], r20 = m[2], r01 = m[4], r11 = m[5], r21 = m[6], r02 = m[8], r12 = m[9], r22 = m[10];
  const q = new Float64Array(4);
  const trace = r00 + r11 + r22;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q.set([(r21 - r12) * s, (r02 - r20) * s, (r10 - r01) * s, 0.25 / s]);
  } else if (r00 > r11 && r00 > r22) {
    const s = 2 * Math.sqrt(1 + r00 - r11 - r22);
    q.set([0.25 * s, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s]);
  } else if (r11 > r22) {
    const s = 2 * Math.sqrt(1 + r11 - r00 - r22);
    q.set([(r01 + r10) / s, 0.25 * s, (r12 + r21) / s, (r02 - r20) / s]);
  } else {
    const s = 2 * Math.sqrt(1 + r22 - r00 - r11);
    q.set([(r02 + r20) / s, (r12 + r21) / s, 0.25 * s, (r10 - r01) / s]);
  }
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return Float64Array.of(m[12], m[13], m[14], q[0] / l, q[1] / l, q[2] / l, q[3] / l);
}

interface AnimationContext {
  buffer: GltfBufferBuilder;
  /** 10 per joint: the rest TRS in Y-up as the nodes have it. */
  rest: Float32Array;
  jointBase: number;
  jointCount: number;
  warn: (m: string) => void;
}

/** The rate a clip's keys are placed at: its own, else the rate the preview plays it at. */
function keyRate(fps: number): number {
  return fps > 0 && Number.isFinite(fps) ? fps : DEFAULT_FPS;
}

function clipExtras(clip: { fps: number; loop: boolean }, frames: number, model: Model, clipIndex: number): Json {
  const extras: Json = { framerate: Number.isFinite(clip.fps) ? clip.fps : 0, loop: clip.loop, frames };
  const events = model.iqm?.fteEvents?.filter((e) => e.anim === clipIndex);
  if (events?.length) extras.events = events.map((e) => ({ timestamp: e.timestamp, code: e.code, data: e.data }));
  return { iqmTools: extras };
}

/** One animation per clip of a skeletal source: TRS channels of the joints that leave their rest pose. */
function skeletalAnimations(source: FrameSource, model: Model, c: AnimationContext): Json[] {
  const { buffer, rest, jointCount } = c;
  const out: Json[] = [];
  const frame = new Float32Array(10 * jointCount);
  let bad = 0;
  const clips = clipFrames(source, c.warn);
  for (const [clipIndex, { clip, frames }] of clips.entries()) {
    const count = frames.length;
    if (count === 0) {
      c.warn(`${source.label}: animation "${clip.name}" has no frames in the file: left out`);
      continue;
    }
    const rate = keyRate(clip.fps);
    const poses = new Float32Array(10 * jointCount * count);
    bad += clipPoses(poses, source.model, frames, frame, jointCount);
    const times = new Float32Array(count);
    for (let k = 0; k < count; k++) times[k] = k / rate;
    let input = -1;
    const samplers: Json[] = [];
    const channels: Json[] = [];
    const channel = (j: number, path: 'translation' | 'rotation' | 'scale', values: Float32Array): void => {
      if (input < 0) input = buffer.accessor(times, 'SCALAR', { bounds: true });
      samplers.push({ input, output: buffer.accessor(values, path === 'rotation' ? 'VEC4' : 'VEC3'), interpolation: 'LINEAR' });
      channels.push({ sampler: samplers.length - 1, target: { node: c.jointBase + j, path } });
    };
    for (let j = 0; j < jointCount; j++) {
      const translation = vectorKeys(poses, count, jointCount, j, 0, rest);
      if (translation) channel(j, 'translation', translation);
      const rotation = rotationKeys(poses, count, jointCount, j, rest);
      if (rotation) channel(j, 'rotation', rotation);
      const scale = vectorKeys(poses, count, jointCount, j, 7, rest);
      if (scale) channel(j, 'scale', scale);
    }
    // glTF requires a channel: a clip that moves nothing holds the first joint where it rests.
    if (channels.length === 0 && jointCount > 0) {
      const values = new Float32Array(3 * count);
      for (let k = 0; k < count; k++) values.set(rest.subarray(0, 3), 3 * k);
      channel(0, 'translation', values);
    }
    out.push({ name: clip.name, channels, samplers, extras: clipExtras(clip, count, model, source.model === model ? clipIndex : -1) });
  }
  if (bad) c.warn(`${bad} animation values are not finite; written as the identity's`);
  return out;
}

const IDENTITY_POSE = Float32Array.of(0, 0, 0, 0, 0, 0, 1, 1, 1, 1);

/**
 * The local poses of `frames` in Y-up into `poses` (10 per joint, frame-major); `frame` is scratch
 * of 10 per joint; a non-finite value as the identity's. The count of those.
 */
function clipPoses(poses: Float32Array, model: Model, frames: readonly number[], frame: Float32Array, jointCount: number): number {
  let bad = 0;
  for (let k = 0; k < frames.length; k++) {
    storedFrame(model, frames[k], frame, jointCount);
    for (let i = 0; i < frame.length; i++) {
      if (!Number.isFinite(frame[i])) {
        bad++;
        frame[i] = IDENTITY_POSE[i % 10];
      }
    }
    for (let j = 0; j < jointCount; j++) yUpPose(poses, (k * jointCount + j) * 10, frame, 10 * j);
  }
  return bad;
}

/** Joint j's translation (o = 0) or scale (o = 7) at each of `count` keys, or null where every key is its rest value. */
function vectorKeys(poses: Float32Array, count: number, jointCount: number, j: number, o: number, rest: Float32Array): Float32Array | null {
  const values = new Float32Array(3 * count);
  const r = 10 * j + o;
  let moves = false;
  for (let k = 0; k < count; k++) {
    const p = (k * jointCount + j) * 10 + o;
    for (let e = 0; e < 3; e++) {
      const x = poses[p + e];
      values[3 * k + e] = x;
      if (x !== rest[r + e]) moves = true;
    }
  }
  return moves ? values : null;
}

/**
 * Joint j's rotation at each of `count` keys, unit (a zero one the identity) and sign-continuous
 * (q and -q are one rotation; slerp between keys of opposite sign takes the long arc): each key on
 * the side of the one before, the first on the rest's side. Null where every key is the rest (of
 * either sign).
 */
function rotationKeys(poses: Float32Array, count: number, jointCount: number, j: number, rest: Float32Array): Float32Array | null {
  const values = new Float32Array(4 * count);
  const r = 10 * j + 3;
  let moves = false;
  for (let k = 0; k < count; k++) {
    const p = (k * jointCount + j) * 10 + 3;
    const q = 4 * k;
    let x = poses[p], y = poses[p + 1], z = poses[p + 2], w = poses[p + 3];
    const l = Math.hypot(x, y, z, w);
    if (l === 0) w = 1;
    else {
      const u = unitScale(l);
      x = Math.fround(x * u); y = Math.fround(y * u); z = Math.fround(z * u); w = Math.fround(w * u);
    }
    const b = k > 0 ? values : rest, bo = k > 0 ? q - 4 : r;
    if (b[bo] * x + b[bo + 1] * y + b[bo + 2] * z + b[bo + 3] * w < 0) {
      x = -x; y = -y; z = -z; w = -w;
    }
    values[q] = x; values[q + 1] = y; values[q + 2] = z; values[q + 3] = w;
    if (!moves && !sameRotation(values, q, rest, r)) moves = true;
  }
  return moves ? values : null;
}

/** Whether the quaternion at a[ao..] is exactly b[bo..] or its negation. */
function sameRotation(a: Float32Array, ao: number, b: Float32Array, bo: number): boolean {
  const plus = a[ao] === b[bo] && a[ao + 1] === b[bo + 1] && a[ao + 2] === b[bo + 2] && a[ao + 3] === b[bo + 3];
  return plus || (-a[ao] === b[bo] && -a[ao + 1] === b[bo + 1] && -a[ao + 2] === b[bo + 2] && -a[ao + 3] === b[bo + 3]);
}

interface MorphContext {
  buffer: GltfBufferBuilder;
  meshNodes: number[];
  tagNodes: number[];
  warn: (m: string) => void;
}

/**
 * MD3 clips: the weights of the frame each key shows (target f - 1 for frame f; frame 0 is the
 * base mesh), keys at the clip's rate; the tags' translation and rotation at the same keys.
 */
function morphAnimations(model: Model, c: MorphContext): Json[] {
  const out: Json[] = [];
  const targets = model.frameCount - 1;
  const clips = clipFrames({ label: 'the model', model: { ...model, animation: { frameCount: model.frameCount } as Model['animation'] } }, c.warn);
  for (const [clipIndex, { clip, frames }] of clips.entries()) {
    const count = frames.length;
    if (count === 0) continue;
    const rate = keyRate(clip.fps);
    const times = new Float32Array(count);
    for (let k = 0; k < count; k++) times[k] = k / rate;
    const input = c.buffer.accessor(times, 'SCALAR', { bounds: true });
    const weights = new Float32Array(count * targets);
    for (let k = 0; k < count; k++) if (frames[k] > 0) weights[k * targets + frames[k] - 1] = 1;
    const samplers: Json[] = [{ input, output: c.buffer.accessor(weights, 'SCALAR'), interpolation: 'LINEAR' }];
    const channels: Json[] = c.meshNodes.map((node) => ({ sampler: 0, target: { node, path: 'weights' } }));
    if (model.tags) {
      model.tags.names.forEach((_, t) => {
        const tr = new Float32Array(3 * count), rot = new Float32Array(4 * count);
        for (let k = 0; k < count; k++) {
          const trs = tagTrs(model.tags!.frames, (frames[k] * model.tags!.names.length + t) * 12);
          tr.set(trs.subarray(0, 3), 3 * k);
          const q = trs.subarray(3, 7);
          if (k > 0 && rot[4 * k - 4] * q[0] + rot[4 * k - 3] * q[1] + rot[4 * k - 2] * q[2] + rot[4 * k - 1] * q[3] < 0) for (let e = 0; e < 4; e++) q[e] = -q[e];
          rot.set(q, 4 * k);
        }
        samplers.push({ input, output: c.buffer.accessor(tr, 'VEC3'), interpolation: 'LINEAR' });
        channels.push({ sampler: samplers.length - 1, target: { node: c.tagNodes[t], path: 'translation' } });
        samplers.push({ input, output: c.buffer.accessor(rot, 'VEC4'), interpolation: 'LINEAR' });
        channels.push({ sampler: samplers.length - 1, target: { node: c.tagNodes[t], path: 'rotation' } });
      });
    }
    out.push({ name: clip.name, channels, samplers, extras: clipExtras(clip, count, model, clipIndex) });
  }
  return out;
}

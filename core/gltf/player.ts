// A Quake 3 player (lower, upper, head.md3) as one glTF scene, assembled as the preview assembles it
// (media/player.ts; FORMAT-PITFALLS §8.3): lower at the origin, upper hung from lower's tag_torso
// node, head from upper's tag_head node, so a tag's animation carries the parts above it. Each
// part is written by the model writer (writer.ts: frames as morph targets, tags as nodes, one
// animation per clip of its own) and the three documents are merged: lower's clips are
// animation.cfg's LEGS_* and BOTH_*, upper's TORSO_* and BOTH_* (core/lookup/clips.ts
// animCfgClips), so a BOTH_* clip becomes one animation over both parts; the head shows its first
// frame, as in the preview. Pure: the parts' models (with their clips) and images in, bytes out.
import type { GltfJson } from './container';
import type { Model } from '../model/model';
import { gltfDocument, GltfWriteError, packGltf, type GltfDocument, type GltfMaterialOut, type GltfWriteOptions, type GltfWriteResult } from './writer';

/** A Quake 3 player's parts (as core/lookup/player.ts's PlayerPart, which sits above gltf). */
type PartName = 'lower' | 'upper' | 'head';

export interface PlayerPartIn {
  /** The part's model with the clips it plays (animation.cfg's, for that part). */
  model: Model;
  /** Its file name, for names and messages. */
  label: string;
  materials?: readonly (GltfMaterialOut | null)[];
}

/** Which tag of which part each part hangs from (the preview's chain). */
const HANGS_FROM: Record<Exclude<PartName, 'lower'>, { parent: PartName; tag: string }> = {
  upper: { parent: 'lower', tag: 'tag_torso' },
  head: { parent: 'upper', tag: 'tag_head' },
};

/** The model at its first frame only (the head: the preview draws frame 0 of it). */
function firstFrame(model: Model): Model {
  if (model.frameCount <= 1) return model;
  return {
    ...model,
    frameCount: 1,
    clips: [],
    meshes: model.meshes.map((m) => (m.morph ? { ...m, morph: { frameCount: 1, positions: m.morph.positions.subarray(0, 3 * m.vertexCount), normals: m.morph.normals.subarray(0, 3 * m.vertexCount) } } : m)),
    tags: model.tags ? { names: model.tags.names, frames: model.tags.frames.subarray(0, 12 * model.tags.names.length) } : null,
  };
}

/** Offsets of each top-level array when documents are appended one after another. */
const LISTS = ['nodes', 'meshes', 'skins', 'materials', 'textures', 'images', 'accessors', 'bufferViews'] as const;

/**
 * Appends `part` to `into` (both glb documents: one buffer, images in it): every index shifted by
 * what `into` holds; its buffer views moved past `into`'s buffer (both are 4-byte aligned).
 * Returns the offset its node indexes got. Animations of the same name are merged into one.
 */
function append(into: GltfJson, bins: Uint8Array[], part: GltfJson, bin: Uint8Array): number {
  const at = Object.fromEntries(LISTS.map((k) => [k, (into[k] as unknown[] | undefined)?.length ?? 0])) as Record<(typeof LISTS)[number], number>;
  const byteOffset = bins.reduce((n, b) => n + b.byteLength, 0);
  const shiftMap = (o: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v + at.accessors]));
  for (const view of part.bufferViews ?? []) view.byteOffset = (view.byteOffset ?? 0) + byteOffset;
  for (const a of part.accessors ?? []) if (a.bufferView !== undefined) a.bufferView += at.bufferViews;
  for (const image of part.images ?? []) if (image.bufferView !== undefined) image.bufferView += at.bufferViews;
  for (const t of part.textures ?? []) t.source += at.images;
  for (const m of part.materials ?? []) if (m.pbrMetallicRoughness?.baseColorTexture) m.pbrMetallicRoughness.baseColorTexture.index += at.textures;
  for (const mesh of part.meshes ?? []) {
    for (const p of mesh.primitives) {
      p.attributes = shiftMap(p.attributes);
      if (p.indices !== undefined) p.indices += at.accessors;
      if (p.material !== undefined) p.material += at.materials;
      if (p.targets) p.targets = p.targets.map(shiftMap);
    }
  }
  for (const node of part.nodes ?? []) {
    if (node.children) node.children = node.children.map((c: number) => c + at.nodes);
    if (node.mesh !== undefined) node.mesh += at.meshes;
    if (node.skin !== undefined) node.skin += at.skins;
  }
  for (const skin of part.skins ?? []) {
    skin.joints = skin.joints.map((j: number) => j + at.nodes);
    if (skin.inverseBindMatrices !== undefined) skin.inverseBindMatrices += at.accessors;
    if (skin.skeleton !== undefined) skin.skeleton += at.nodes;
  }
  for (const k of LISTS) if (part[k]?.length) into[k] = [...(into[k] ?? []), ...part[k]];
  for (const animation of part.animations ?? []) {
    for (const s of animation.samplers) {
      s.input += at.accessors;
      s.output += at.accessors;
    }
    for (const c of animation.channels) c.target.node += at.nodes;
    const same = (into.animations as GltfJson[] | undefined)?.find((a) => a.name === animation.name);
    if (!same) {
      into.animations = [...(into.animations ?? []), animation];
      continue;
    }
    // A BOTH_* clip of lower and upper: one animation, the samplers of the second after the first's.
    const base = same.samplers.length;
    same.samplers.push(...animation.samplers);
    same.channels.push(...animation.channels.map((c: GltfJson) => ({ ...c, sampler: c.sampler + base })));
  }
  bins.push(bin);
  return at.nodes;
}

/**
 * The three parts as one scene. Throws GltfWriteError (input 0 lower, 1 upper, 2 head) when a
 * part has no tag the next hangs from, or cannot be written.
 */
export function writeGltfPlayer(parts: Record<PartName, PlayerPartIn>, options: Pick<GltfWriteOptions, 'container' | 'stem' | 'label' | 'comments'>): GltfWriteResult {
  const order: PartName[] = ['lower', 'upper', 'head'];
  const warnings: string[] = [];
  const documents = new Map<PartName, GltfDocument>();
  for (const [i, name] of order.entries()) {
    const part = parts[name];
    const model = name === 'head' ? firstFrame(part.model) : part.model;
    if (model.format !== 'md3') throw new GltfWriteError(`${part.label} is ${model.format.toUpperCase()}, not MD3: a Quake 3 player's parts are MD3 models`, i);
    if (name === 'head' && part.model.frameCount > 1) warnings.push(`${part.label}: its first frame of ${part.model.frameCount} (the head does not animate in a player, as the preview shows it)`);
    let document: GltfDocument;
    try {
      document = gltfDocument(model, { container: 'glb', label: part.label, materials: part.materials });
    } catch (error) {
      if (error instanceof GltfWriteError) throw new GltfWriteError(error.message, i);
      throw error;
    }
    // Frames of no clip are written as one more animation (writer.ts); named after the part, so
    // that lower's and upper's are not merged as one clip of both.
    const clipNames = new Set(model.clips.map((c) => c.name));
    const renamed = new Map<string, string>();
    for (const a of ((document.json as GltfJson).animations ?? []) as GltfJson[]) {
      if (clipNames.has(a.name)) continue;
      renamed.set(a.name, `${name} ${a.name}`);
      a.name = `${name} ${a.name}`;
    }
    warnings.push(...document.warnings.map((w) => `${part.label}: ${[...renamed].reduce((text, [from, to]) => text.replace(`"${from}"`, `"${to}"`), w)}`));
    documents.set(name, document);
  }
  // One node per part (named after it) holding the part's own root nodes.
  const json: GltfJson = { asset: { version: '2.0', generator: 'iqm-tools' }, scene: 0 };
  const bins: Uint8Array[] = [];
  const partNode = new Map<PartName, number>();
  const nodeBase = new Map<PartName, number>();
  for (const name of order) {
    const document = documents.get(name)!;
    const own = document.json as GltfJson;
    const base = append(json, bins, own, document.bin);
    nodeBase.set(name, base);
    json.nodes = [...(json.nodes ?? []), { name, children: (own.scenes[0].nodes as number[]).map((n) => n + base) }];
    partNode.set(name, json.nodes.length - 1);
  }
  for (const [i, name] of order.entries()) {
    if (name === 'lower') continue;
    const { parent, tag } = HANGS_FROM[name];
    const parentJson = documents.get(parent)!.json as GltfJson;
    const local = ((parentJson.nodes ?? []) as GltfJson[]).findIndex((n) => !n.mesh && typeof n.name === 'string' && n.name.toLowerCase() === tag);
    if (local < 0) throw new GltfWriteError(`${parts[parent].label} has no ${tag}, which ${parts[name].label} hangs from`, i - 1);
    const node = json.nodes[nodeBase.get(parent)! + local];
    node.children = [...(node.children ?? []), partNode.get(name)!];
  }
  const lowerScene = (documents.get('lower')!.json as GltfJson).scenes[0];
  json.scenes = [{ name: options.label ?? 'player', nodes: [partNode.get('lower')!], extras: { iqmTools: { ...(lowerScene.extras?.iqmTools ?? {}), ...(options.comments?.length ? { source: options.comments.join('\n') } : {}), player: order.map((p) => parts[p].label) } } }];
  const bin = new Uint8Array(bins.reduce((n, b) => n + b.byteLength, 0));
  let o = 0;
  for (const b of bins) {
    bin.set(b, o);
    o += b.byteLength;
  }
  const packed = packGltf({ json, bin, resources: [] }, options);
  return { ...packed, warnings, animations: json.animations?.length ?? 0 };
}

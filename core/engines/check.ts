// The one checker: evaluates a model's facts (facts.ts) against an engine profile's tables and
// says, per rule broken, what the engine does, why (the fact and its source) and where.

import { daemonRefusesScale, nonUniform, notOne, type ArrayFacts, type ModelFacts } from './facts';
import { isPowerOfTwo } from '../image/size';
import { severityOf, type Effect, type EngineFinding, type EngineProfile, type FindingLocation, type IqmArrayType, type IqmRules, type Md3Rules, type Rule, type TextureRules } from './types';
import { quotedName } from '../names';

type Push = (code: string, rule: Rule, message: string, where: FindingLocation, effect?: Effect) => void;

const fmt = (n: number) => n.toLocaleString('en-US');

export function checkEngine(facts: ModelFacts, profile: EngineProfile): EngineFinding[] {
  const out: EngineFinding[] = [];
  const push: Push = (code, rule, message, location, effect = rule.effect) =>
    out.push({ code, severity: severityOf(effect), message, engine: profile.id, engineName: profile.name, fact: rule.fact, location });
  const rules = facts.format === 'iqm' ? profile.iqm : facts.format === 'md3' ? profile.md3 : profile.dpm;
  if (!rules) {
    push('format-unsupported', { effect: 'refuse', fact: profile.formats }, `no ${facts.format.toUpperCase()} loader`, facts.header);
    return out;
  }
  if (facts.format === 'iqm') checkIqm(facts, profile.iqm!, push);
  else if (facts.format === 'md3') checkMd3(facts, profile.md3!, push);
  if (profile.textures && facts.textures) checkTextures(facts, profile.textures, push);
  return out;
}

function checkTextures(facts: ModelFacts, r: TextureRules, push: Push): void {
  const reported = new Set<string>();
  for (const t of facts.textures ?? []) {
    // One finding per texture name, at the first mesh that uses it.
    if (reported.has(t.name)) continue;
    reported.add(t.name);
    if (t.path === undefined) {
      push('texture-not-found', { effect: 'note', fact: r.lookup }, `no image for ${quotedName(t.name)} (${t.searched}); unless a shader script defines it, the default texture is drawn`, t.where);
    } else if (r.powerOfTwo && t.width !== undefined && t.height !== undefined && (!isPowerOfTwo(t.width) || !isPowerOfTwo(t.height))) {
      push('texture-npot', r.powerOfTwo, `${t.path} is ${t.width} × ${t.height}, not a power of two on each side`, t.where);
    }
  }
}

function checkIqm(facts: ModelFacts, r: IqmRules, push: Push): void {
  if (!r.versions.includes(facts.version) && facts.origin === 'file') {
    push('iqm-version', r.version, `IQM version ${facts.version}; ${r.versions.map((v) => `version ${v}`).join(' and ')} only`, facts.header);
  }
  if (r.maxFileBytes && facts.headerFileBytes !== undefined && facts.headerFileBytes > r.maxFileBytes.max) {
    push('file-too-large', r.maxFileBytes, `the header gives a file size of ${fmt(facts.headerFileBytes)} bytes, over ${fmt(r.maxFileBytes.max)}`, facts.header);
  }
  if (r.exactFileSize && facts.headerFileBytes !== undefined && facts.fileBytes !== undefined && facts.headerFileBytes !== facts.fileBytes) {
    push('iqm-file-size', r.exactFileSize, `the header gives a file size of ${fmt(facts.headerFileBytes)} bytes, the file has ${fmt(facts.fileBytes)}`, { ...facts.header, byteOffset: 20 });
  }
  const animated = facts.frames > 0 || facts.animations.length > 0;
  const skinnedWhen = r.requiredWhenSkinned?.when;
  const needsWeights =
    skinnedWhen === 'joints' ? facts.joints.length > 0 : skinnedWhen === 'animated' ? animated : skinnedWhen === 'any' ? animated || facts.joints.length > 0 : false;
  const requiredRule = new Map<IqmArrayType, Rule>();
  if (r.required) for (const t of r.required.arrays) requiredRule.set(t, r.required);
  if (r.requiredWhenSkinned && needsWeights) for (const t of r.requiredWhenSkinned.arrays) requiredRule.set(t, r.requiredWhenSkinned);
  const usable = checkArrays(facts, r, requiredRule, push);
  const vertices = facts.meshes.reduce((n, m) => n + m.vertices, 0);
  if (facts.arraysComplete && vertices > 0) {
    for (const [type, rule] of requiredRule) {
      // A present array the engine skips was reported where it is (checkArrays).
      if (usable.has(type) || facts.arrays.some((a) => a.type === type)) continue;
      push('array-missing', rule, `there is no ${type} array`, facts.header);
    }
  }
  if (r.maxJoints && facts.joints.length > r.maxJoints.max) {
    push('joints-limit', r.maxJoints, `${fmt(facts.joints.length)} joints, over ${fmt(r.maxJoints.max)}`, facts.joints[r.maxJoints.max].where);
  }
  for (const m of facts.meshes) {
    if (r.maxMeshVertices && m.vertices > r.maxMeshVertices.max) {
      push('mesh-vertices-limit', r.maxMeshVertices, `${m.where.what} has ${fmt(m.vertices)} vertices, over ${fmt(r.maxMeshVertices.max)}`, m.where);
    }
    if (r.maxMeshTriangles && m.triangles > r.maxMeshTriangles.max) {
      push('mesh-triangles-limit', r.maxMeshTriangles, `${m.where.what} has ${fmt(m.triangles)} triangles, over ${fmt(r.maxMeshTriangles.max)}`, m.where);
    }
  }
  for (const j of facts.joints) {
    if (r.parentsFirst && j.parent >= j.index) {
      push('joint-order', r.parentsFirst, `${j.where.what} has parent ${j.parent}, listed after it`, j.where);
    }
    if (r.jointNameLength && j.name.length > r.jointNameLength.max) {
      push('joint-name-length', r.jointNameLength, `${j.where.what} has a name of ${j.name.length} characters, over ${r.jointNameLength.max}`, j.where);
    }
    if (r.uniformScale && j.scale) {
      if (daemonRefusesScale(j.scale)) push('joint-scale', r.uniformScale, `${j.where.what} has scale ${j.scale.map((x) => +x.toFixed(4)).join(' ')}`, j.where);
      else if (nonUniform(j.scale)) push('joint-scale', r.uniformScale, `${j.where.what} has non-uniform scale ${j.scale.map((x) => +x.toFixed(4)).join(' ')}: only the x scale is used`, j.where, 'mangle');
    }
  }
  if (r.jointScaleIgnored) {
    const scaled = facts.joints.filter((j) => j.scale && notOne(j.scale));
    if (scaled.length > 0) push('joint-scale-ignored', r.jointScaleIgnored, `${scaled.length} joint(s) have a bind scale other than 1, e.g. ${scaled[0].where.what}`, scaled[0].where);
  }
  if (r.scaleChannelsIgnored && facts.scaledPose) {
    const p = facts.scaledPose;
    push('pose-scale-ignored', r.scaleChannelsIgnored, `frame ${p.frame} scales pose ${p.pose} by ${p.scale.map((x) => +x.toFixed(4)).join(' ')}`, { what: `frame ${p.frame}, pose ${p.pose}`, frame: p.frame, joint: p.pose });
  }
  if (r.uniformScale) {
    const p = facts.refusedPose ?? facts.nonUniformPose;
    if (p) {
      const refused = facts.refusedPose !== undefined;
      push('pose-scale', r.uniformScale, `frame ${p.frame} gives pose ${p.pose} the scale ${p.scale.map((x) => +x.toFixed(4)).join(' ')}${refused ? '' : ': only the x scale is used'}`, { what: `frame ${p.frame}, pose ${p.pose}`, frame: p.frame, joint: p.pose }, refused ? r.uniformScale.effect : 'mangle');
    }
  }
  if (r.posesMatchJoints && facts.poses !== 0 && facts.poses !== facts.joints.length && !(r.posesMatchJoints.animationOnly && facts.joints.length === 0)) {
    push('poses-joints', r.posesMatchJoints, `${fmt(facts.poses)} poses for ${fmt(facts.joints.length)} joints`, facts.header);
  }
  if (r.emptyAnimation) {
    for (const a of facts.animations) if (a.frames === 0) push('animation-empty', r.emptyAnimation, `${a.where.what} has no frames`, a.where);
  }
  if (r.maxBlendIndex && facts.maxBlendIndex > r.maxBlendIndex.max) {
    const j = facts.joints[facts.maxBlendIndex];
    push('blend-index-range', r.maxBlendIndex, `vertices are weighted to joint ${facts.maxBlendIndex}, over ${r.maxBlendIndex.max}`, j ? j.where : facts.header);
  }
  if (r.materialsIgnored) {
    const named = facts.meshes.filter((m) => m.material);
    if (named.length > 0) push('materials-ignored', r.materialsIgnored, `${named.length} mesh(es) name a material (e.g. ${quotedName(named[0].material)}) that will not be loaded`, named[0].where);
  }
}

/** Array format rules; returns the array types the engine will actually use. */
function checkArrays(facts: ModelFacts, r: IqmRules, required: ReadonlyMap<IqmArrayType, Rule>, push: Push): Set<IqmArrayType> {
  const usable = new Set<IqmArrayType>();
  const describe = (a: ArrayFacts) => `${a.where.what} is ${a.format} × ${a.size}`;
  for (const a of facts.arrays) {
    if (r.arrayFormats && (!r.arrayFormats.allowed.includes(a.format) || a.size < 1 || a.size > 4)) {
      push('array-format', r.arrayFormats, `${describe(a)}; the engine takes ${r.arrayFormats.allowed.join(', ')} with 1 to 4 components`, a.where);
      continue;
    }
    const rule = r.arrays[a.type];
    if (!rule) {
      usable.add(a.type);
      continue;
    }
    const ok = rule.accepts.some((x) => x.format === a.format && x.size === a.size);
    if (ok) {
      usable.add(a.type);
      continue;
    }
    const wanted = rule.accepts.map((x) => `${x.format} × ${x.size}`).join(' or ');
    if (rule.otherwise === 'refused') push('array-format', rule, `${describe(a)}; ${wanted} only`, a.where);
    else if (rule.otherwise === 'misread') push('array-misread', rule, `${describe(a)}; read as ${wanted}`, a.where);
    else {
      const need = required.get(a.type);
      // A required array that is skipped leaves the model without it.
      if (need) push('array-missing', need, `${describe(a)}, which is skipped (only ${wanted} is read), so the model has no ${a.type} array`, a.where);
      else push('array-ignored', rule, rule.accepts.length ? `${describe(a)}; only ${wanted} is read` : `${a.where.what} is not read`, a.where);
    }
  }
  return usable;
}

function checkMd3(facts: ModelFacts, r: Md3Rules, push: Push): void {
  if (r.version && facts.version !== 15) push('md3-version', r.version, `MD3 version ${facts.version}, not 15`, { ...facts.header, byteOffset: 4 });
  if (r.noFrames && facts.frames < 1) push('md3-no-frames', r.noFrames, 'the model has no frames', facts.header);
  const lim = r.formatLimits;
  if (lim) {
    const header: [string, number, number][] = [['frames', facts.frames, lim.frames], ['tags', facts.tags.length, lim.tags], ['surfaces', facts.meshes.length, lim.surfaces]];
    for (const [what, n, max] of header) if (n > max) push('md3-format-limit', lim, `${fmt(n)} ${what}, over the MD3 format limit of ${fmt(max)}`, facts.header);
  }
  for (const m of facts.meshes) {
    if (r.maxSurfaceVertices && m.vertices > r.maxSurfaceVertices.max) {
      push('md3-surface-vertices', r.maxSurfaceVertices, `${m.where.what} has ${fmt(m.vertices)} vertices, over ${fmt(r.maxSurfaceVertices.max)}`, m.where);
    }
    if (r.maxSurfaceTriangles && m.triangles > r.maxSurfaceTriangles.max) {
      push('md3-surface-triangles', r.maxSurfaceTriangles, `${m.where.what} has ${fmt(m.triangles)} triangles, over ${fmt(r.maxSurfaceTriangles.max)}`, m.where);
    }
    if (r.maxIndexedVertices && m.vertices > r.maxIndexedVertices.max) {
      push('md3-index-range', r.maxIndexedVertices, `${m.where.what} has ${fmt(m.vertices)} vertices, over ${fmt(r.maxIndexedVertices.max)}`, m.where);
    }
    if (lim) {
      const per: [string, number, number][] = [['vertices', m.vertices, lim.vertices], ['triangles', m.triangles, lim.triangles], ['shaders', m.shaders ?? 0, lim.shaders]];
      for (const [what, n, max] of per) if (n > max) push('md3-format-limit', lim, `${m.where.what} has ${fmt(n)} ${what}, over the MD3 format limit of ${fmt(max)}`, m.where);
    }
    if (r.surfaceFrames && m.frames !== undefined && m.frames !== facts.frames) {
      push('md3-surface-frames', r.surfaceFrames, `${m.where.what} has ${fmt(m.frames)} frames, the header ${fmt(facts.frames)}`, m.where);
    }
    if (r.surfaceNameSuffix && m.name.length > 2 && m.name[m.name.length - 2] === '_') {
      push('md3-surface-name', r.surfaceNameSuffix, `${m.where.what} is matched in .skin files as ${quotedName(m.name.slice(0, -2).toLowerCase())}`, m.where);
    }
  }
  if (r.frameNameLength) {
    const max = r.frameNameLength.max;
    const long = (facts.frameNames ?? []).findIndex((n) => n.length > max);
    if (long >= 0) push('md3-frame-name', r.frameNameLength, `frame ${long} ${quotedName(facts.frameNames![long])} has ${facts.frameNames![long].length} characters: it is kept as ${quotedName(facts.frameNames![long].slice(0, max))}`, { what: `frame ${long}`, frame: long });
  }
  if (r.shadersIgnored) {
    const named = facts.meshes.filter((m) => m.material);
    if (named.length > 0) push('md3-shaders-ignored', r.shadersIgnored, `${named.length} surface(s) name a shader (e.g. ${quotedName(named[0].material)}) that is not used`, named[0].where);
  }
}

// Semantic comparison of two models (`iqm-tools diff`): what a viewer or engine would see differ,
// not bytes. Joints and base poses, animations and their per-frame channel values (within one
// quantisation step of either file), the (mesh, material) list, each mesh's triangle soup with
// its per-corner attributes, custom arrays included (order of triangles and vertices, and which corner a triangle starts
// at, do not matter; winding does), per-frame bounds, and the comment. Adjacency is not compared:
// it follows from the triangles (and the reference compiler's is wrong, IQE-SEMANTICS.md B1).
import type { Mesh, Model } from '../model/model';
import { decodeFrame } from '../model/sample';
import { quotedName } from '../names';

export type DiffSection = 'joints' | 'animations' | 'frames' | 'meshes' | 'triangles' | 'bounds' | 'comment';

export interface Difference {
  section: DiffSection;
  message: string;
}

export interface DiffOptions {
  /** Absolute tolerance for positions, normals, texcoords, weights, poses and bounds (scaled by magnitude above 1). */
  tolerance?: number;
  /** At most this many differences listed per section (the rest are counted in one more line). */
  maxPerSection?: number;
}

const DEFAULT_TOLERANCE = 1e-4;

function near(a: number, b: number, tolerance: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Quaternions q and -q are the same rotation. */
function nearQuat(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, tolerance: number): boolean {
  let same = true;
  let opposite = true;
  for (let k = 0; k < 4; k++) {
    if (!near(a[ao + k], b[bo + k], tolerance)) same = false;
    if (!near(a[ao + k], -b[bo + k], tolerance)) opposite = false;
  }
  return same || opposite;
}

const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v.toPrecision(7));

class Report {
  readonly differences: Difference[] = [];
  private readonly counts = new Map<DiffSection, number>();
  constructor(private readonly maxPerSection: number) {}
  add(section: DiffSection, message: string): void {
    const n = (this.counts.get(section) ?? 0) + 1;
    this.counts.set(section, n);
    if (n <= this.maxPerSection) this.differences.push({ section, message });
  }
  finish(): Difference[] {
    for (const [section, n] of this.counts) {
      if (n > this.maxPerSection) this.differences.push({ section, message: `… and ${n - this.maxPerSection} more differences in ${section}` });
    }
    return this.differences;
  }
}

function compareJoints(a: Model, b: Model, r: Report, tolerance: number): void {
  const ja = a.skeleton;
  const jb = b.skeleton;
  const na = ja?.names.length ?? 0;
  const nb = jb?.names.length ?? 0;
  if (na !== nb) r.add('joints', `joint count ${na} ≠ ${nb}`);
  if (!ja || !jb) return;
  for (let j = 0; j < Math.min(na, nb); j++) {
    if (ja.names[j] !== jb.names[j]) r.add('joints', `joint ${j}: name ${quotedName(ja.names[j])} ≠ ${quotedName(jb.names[j])}`);
    if (ja.parents[j] !== jb.parents[j]) r.add('joints', `joint ${j} ${quotedName(ja.names[j])}: parent ${ja.parents[j]} ≠ ${jb.parents[j]}`);
    const o = j * 10;
    const t = [0, 1, 2].every((k) => near(ja.bindLocal[o + k], jb.bindLocal[o + k], tolerance));
    const q = nearQuat(ja.bindLocal, o + 3, jb.bindLocal, o + 3, tolerance);
    const s = [7, 8, 9].every((k) => near(ja.bindLocal[o + k], jb.bindLocal[o + k], tolerance));
    if (!t || !q || !s) {
      const part = (m: Float32Array): string => Array.from(m.subarray(o, o + 10), fmt).join(' ');
      r.add('joints', `joint ${j} ${quotedName(ja.names[j])}: base pose [${part(ja.bindLocal)}] ≠ [${part(jb.bindLocal)}]`);
    }
  }
}

/**
 * Whether the two frame strips are laid out alike: the same frame count and the same clips over
 * the same frames. Then frames are compared by number; otherwise clip by clip (below).
 */
function sameLayout(a: Model, b: Model): boolean {
  return a.frameCount === b.frameCount && a.clips.length === b.clips.length && a.clips.every((c, i) => c.firstFrame === b.clips[i].firstFrame && c.frameCount === b.clips[i].frameCount);
}

/** Whether every clip of a model has a name no other clip has (clips can then be matched by name). */
function namedUniquely(m: Model): boolean {
  return m.clips.length > 0 && new Set(m.clips.map((c) => c.name)).size === m.clips.length;
}

/**
 * The same clips over frame strips laid out otherwise (a DPM's .framegroups and the IQE converted
 * from it: overlapping ranges are written as frames of their own, frames no clip plays as one more
 * animation): what plays is then compared clip by clip, by name.
 */
function byClip(a: Model, b: Model): boolean {
  return !sameLayout(a, b) && namedUniquely(a) && namedUniquely(b) && a.clips.some((c) => b.clips.some((d) => d.name === c.name));
}

/** The frames of each common clip, paired by name: [frame of a, frame of b, what to call it]. */
function clipFramePairs(a: Model, b: Model): [number, number, string][] {
  const inB = new Map(b.clips.map((c) => [c.name, c]));
  const pairs: [number, number, string][] = [];
  for (const ca of a.clips) {
    const cb = inB.get(ca.name);
    if (!cb) continue;
    for (let k = 0; k < Math.min(ca.frameCount, cb.frameCount); k++) {
      if (ca.firstFrame + k < a.frameCount && cb.firstFrame + k < b.frameCount) pairs.push([ca.firstFrame + k, cb.firstFrame + k, `animation ${quotedName(ca.name)} frame ${k}`]);
    }
  }
  return pairs;
}

function compareAnimations(a: Model, b: Model, r: Report, tolerance: number): void {
  if (byClip(a, b)) {
    compareClipsByName(a, b, r, tolerance);
    return;
  }
  if (a.clips.length !== b.clips.length) r.add('animations', `animation count ${a.clips.length} ≠ ${b.clips.length}`);
  for (let i = 0; i < Math.min(a.clips.length, b.clips.length); i++) {
    const ca = a.clips[i];
    const cb = b.clips[i];
    const fields: [string, unknown, unknown][] = [
      ['name', quotedName(ca.name), quotedName(cb.name)],
      ['first frame', ca.firstFrame, cb.firstFrame],
      ['frames', ca.frameCount, cb.frameCount],
      ['loop', ca.loop, cb.loop],
    ];
    for (const [what, x, y] of fields) if (x !== y) r.add('animations', `animation ${i} ${quotedName(ca.name)}: ${what} ${String(x)} ≠ ${String(y)}`);
    if (!near(ca.fps, cb.fps, tolerance)) r.add('animations', `animation ${i} ${quotedName(ca.name)}: framerate ${fmt(ca.fps)} ≠ ${fmt(cb.fps)}`);
  }
  if (a.frameCount !== b.frameCount) r.add('frames', `frame count ${a.frameCount} ≠ ${b.frameCount}`);
  const frames = new FramePoses(a, b, r, tolerance);
  if (!frames.comparable) return;
  for (let f = 0; f < Math.min(a.frameCount, b.frameCount); f++) frames.compare(f, f, `frame ${f}`);
}

/** Clips matched by name: those only one model has, each common one's frames, loop and rate, and its frames' poses in order. */
function compareClipsByName(a: Model, b: Model, r: Report, tolerance: number): void {
  const inB = new Map(b.clips.map((c) => [c.name, c]));
  const inA = new Set(a.clips.map((c) => c.name));
  for (const c of a.clips) if (!inB.has(c.name)) r.add('animations', `animation ${quotedName(c.name)} is only in the first model`);
  for (const c of b.clips) if (!inA.has(c.name)) r.add('animations', `animation ${quotedName(c.name)} is only in the second model`);
  for (const ca of a.clips) {
    const cb = inB.get(ca.name);
    if (!cb) continue;
    if (ca.frameCount !== cb.frameCount) r.add('animations', `animation ${quotedName(ca.name)}: frames ${ca.frameCount} ≠ ${cb.frameCount}`);
    if (ca.loop !== cb.loop) r.add('animations', `animation ${quotedName(ca.name)}: loop ${String(ca.loop)} ≠ ${String(cb.loop)}`);
    if (!near(ca.fps, cb.fps, tolerance)) r.add('animations', `animation ${quotedName(ca.name)}: framerate ${fmt(ca.fps)} ≠ ${fmt(cb.fps)}`);
  }
  const frames = new FramePoses(a, b, r, tolerance);
  if (frames.comparable) for (const [fa, fb, label] of clipFramePairs(a, b)) frames.compare(fa, fb, label);
}

/** Compares the decoded poses of a frame of each model, within one quantisation step of either file. */
class FramePoses {
  private readonly aa: NonNullable<Model['animation']> | null;
  private readonly ab: NonNullable<Model['animation']> | null;
  private readonly fa: Float32Array;
  private readonly fb: Float32Array;
  private readonly poses: number;
  /** False when a model has no frames to compare (said once, as a difference where only one has them). */
  readonly comparable: boolean;

  constructor(
    private readonly a: Model,
    private readonly b: Model,
    private readonly r: Report,
    private readonly tolerance: number,
  ) {
    // Poses without frames (an IQM may keep them) animate nothing.
    this.aa = a.animation && a.animation.frameCount > 0 ? a.animation : null;
    this.ab = b.animation && b.animation.frameCount > 0 ? b.animation : null;
    this.comparable = this.aa !== null && this.ab !== null;
    if (!this.comparable && (this.aa || this.ab)) r.add('frames', `only one file has animation data`);
    const pa = this.aa?.poseCount ?? 0;
    const pb = this.ab?.poseCount ?? 0;
    if (this.comparable && pa !== pb) r.add('frames', `pose count ${pa} ≠ ${pb}`);
    this.poses = Math.min(pa, pb);
    this.fa = new Float32Array(Math.max(pa, a.skeleton?.names.length ?? 0) * 10);
    this.fb = new Float32Array(Math.max(pb, b.skeleton?.names.length ?? 0) * 10);
  }

  /** One quantisation step of a model's channel (IQM stores 16-bit steps), 0 where it stores floats. */
  private step(m: Model, pose: number, channel: number): number {
    const anim = m.animation;
    return anim && anim.kind === 'channels' ? Math.abs(anim.scale[pose * 10 + channel]) : 0;
  }

  compare(frameA: number, frameB: number, label: string): void {
    const { a, b, fa, fb, r, tolerance } = this;
    decodeFrame(a, frameA, fa);
    decodeFrame(b, frameB, fb);
    for (let p = 0; p < this.poses; p++) {
      const o = p * 10;
      for (let c = 0; c < 10; c++) {
        if (c >= 3 && c <= 6) continue;
        const allowed = this.step(a, p, c) + this.step(b, p, c) + tolerance * Math.max(1, Math.abs(fa[o + c]));
        if (!(Math.abs(fa[o + c] - fb[o + c]) <= allowed)) r.add('frames', `${label} pose ${p} channel ${c}: ${fmt(fa[o + c])} ≠ ${fmt(fb[o + c])}`);
      }
      const qStep = Math.max(...[3, 4, 5, 6].map((c) => this.step(a, p, c) + this.step(b, p, c))) + tolerance;
      if (!nearQuat(fa, o + 3, fb, o + 3, qStep)) {
        r.add('frames', `${label} pose ${p} rotation: [${Array.from(fa.subarray(o + 3, o + 7), fmt).join(' ')}] ≠ [${Array.from(fb.subarray(o + 3, o + 7), fmt).join(' ')}]`);
      }
    }
  }
}

/** The attributes of one corner as a rounded key (the tolerance is the rounding grid). */
function cornerKey(mesh: Mesh, v: number, grid: number, skip: string): string {
  const parts: string[] = [];
  const push = (array: ArrayLike<number> | null, size: number, label: string): void => {
    if (!array || label === skip) return;
    let s = label;
    for (let k = 0; k < size; k++) {
      const x = array[v * size + k];
      s += ` ${Number.isNaN(x) ? 'NaN' : Math.round(x / grid) + 0}`;
    }
    parts.push(s);
  };
  push(mesh.position, 3, 'p');
  push(mesh.normal, 3, 'n');
  push(mesh.texcoord, 2, 't');
  push(mesh.tangent, 4, 'x');
  push(mesh.color, 4, 'c');
  // Custom arrays by name: their order in the file does not matter.
  for (const c of [...mesh.custom].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) push(c.data, c.size, `u:${c.name}`);
  if (mesh.blendIndices && mesh.blendWeights && mesh.influences > 0 && skip !== 'b') {
    // Influences as (joint, weight) pairs with weight > 0, sorted: their slot order does not matter.
    const pairs: string[] = [];
    for (let k = 0; k < mesh.influences; k++) {
      const w = mesh.blendWeights[v * mesh.influences + k];
      if (w > 0) pairs.push(`${mesh.blendIndices[v * mesh.influences + k]}:${Math.round(w / (grid * 100))}`);
    }
    parts.push(`b ${pairs.sort().join(',')}`);
  }
  return parts.join('|');
}

/** Triangle keys: three corner keys rotated so the smallest comes first (winding kept). */
function triangleSoup(mesh: Mesh, grid: number, skip = ''): Map<string, number> {
  const soup = new Map<string, number>();
  const keys = new Array<string>(mesh.vertexCount);
  for (let v = 0; v < mesh.vertexCount; v++) keys[v] = cornerKey(mesh, v, grid, skip);
  for (let t = 0; t < mesh.triangleCount; t++) {
    const c = [keys[mesh.indices[3 * t]], keys[mesh.indices[3 * t + 1]], keys[mesh.indices[3 * t + 2]]];
    let first = 0;
    if (c[1] < c[first]) first = 1;
    if (c[2] < c[first]) first = 2;
    const key = `${c[first]}#${c[(first + 1) % 3]}#${c[(first + 2) % 3]}`;
    soup.set(key, (soup.get(key) ?? 0) + 1);
  }
  return soup;
}

/** Triangles of each soup that the other does not have (as a multiset). */
function unmatched(sa: Map<string, number>, sb: Map<string, number>): [number, number] {
  let onlyA = 0;
  let onlyB = 0;
  for (const [key, n] of sa) onlyA += Math.max(0, n - (sb.get(key) ?? 0));
  for (const [key, n] of sb) onlyB += Math.max(0, n - (sa.get(key) ?? 0));
  return [onlyA, onlyB];
}

function compareMeshes(a: Model, b: Model, r: Report, tolerance: number): void {
  const label = (m: Mesh): string => `${quotedName(m.name)} (material ${quotedName(m.material)})`;
  const la = a.meshes.map(label);
  const lb = b.meshes.map(label);
  if (la.join('\n') !== lb.join('\n')) r.add('meshes', `meshes [${la.join(', ')}] ≠ [${lb.join(', ')}]`);
  for (let i = 0; i < Math.min(a.meshes.length, b.meshes.length); i++) {
    const ma = a.meshes[i];
    const mb = b.meshes[i];
    if (ma.triangleCount !== mb.triangleCount) r.add('triangles', `mesh ${i} ${label(ma)}: ${ma.triangleCount} ≠ ${mb.triangleCount} triangles`);
    const streams: [string, unknown, unknown][] = [
      ['normals', ma.normal, mb.normal],
      ['texcoords', ma.texcoord, mb.texcoord],
      ['tangents', ma.tangent, mb.tangent],
      ['colors', ma.color, mb.color],
      ['blend weights', ma.blendWeights, mb.blendWeights],
    ];
    for (const [what, x, y] of streams) if ((x === null) !== (y === null)) r.add('triangles', `mesh ${i} ${label(ma)}: only one file has ${what}`);
    const customs = (m: Mesh): string => m.custom.map((c) => `${quotedName(c.name)}×${c.size}`).sort().join(', ');
    if (customs(ma) !== customs(mb)) r.add('triangles', `mesh ${i} ${label(ma)}: custom vertex arrays [${customs(ma)}] ≠ [${customs(mb)}]`);
    const [onlyA, onlyB] = unmatched(triangleSoup(ma, tolerance), triangleSoup(mb, tolerance));
    if (onlyA > 0 || onlyB > 0) {
      // Name the attribute when leaving it out makes the soups equal.
      const names: Record<string, string> = { p: 'positions', n: 'normals', t: 'texcoords', x: 'tangents', c: 'colors', b: 'blend weights' };
      const culprit = Object.keys(names).find((skip) => unmatched(triangleSoup(ma, tolerance, skip), triangleSoup(mb, tolerance, skip)).every((n) => n === 0));
      const only = culprit ? `; they differ only in ${names[culprit]}` : '';
      r.add('triangles', `mesh ${i} ${label(ma)}: ${onlyA} triangles of the first file and ${onlyB} of the second have no match with the same corner attributes (within ${tolerance})${only}`);
    }
  }
}

function compareBounds(a: Model, b: Model, r: Report, tolerance: number): void {
  if (!a.bounds || !b.bounds) {
    if (a.bounds || b.bounds) r.add('bounds', 'only one file has per-frame bounds');
    return;
  }
  const [ba, bb] = [a.bounds, b.bounds];
  const frames = Math.min(ba.length, bb.length) / 8;
  // Frames paired as the animations are compared: by number, or clip by clip (byClip).
  const pairs: [number, number, string][] = byClip(a, b) ? clipFramePairs(a, b) : Array.from({ length: frames }, (_, f) => [f, f, `frame ${f}`]);
  for (const [fa, fb, label] of pairs) {
    if (8 * fa + 8 > ba.length || 8 * fb + 8 > bb.length) continue;
    for (let k = 0; k < 8; k++) {
      if (!near(ba[8 * fa + k], bb[8 * fb + k], tolerance)) {
        r.add('bounds', `${label}: bounds [${Array.from(ba.subarray(8 * fa, 8 * fa + 8), fmt).join(' ')}] ≠ [${Array.from(bb.subarray(8 * fb, 8 * fb + 8), fmt).join(' ')}]`);
        break;
      }
    }
  }
}

export function diffModels(a: Model, b: Model, options: DiffOptions = {}): Difference[] {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const r = new Report(options.maxPerSection ?? 20);
  // Formats are not compared: an IQE and the IQM compiled from it are the same model.
  compareJoints(a, b, r, tolerance);
  compareAnimations(a, b, r, tolerance);
  compareMeshes(a, b, r, tolerance);
  compareBounds(a, b, r, tolerance);
  const ca = a.iqm?.comment ?? '';
  const cb = b.iqm?.comment ?? '';
  if (ca !== cb) r.add('comment', `comments differ (${ca.length} and ${cb.length} characters)`);
  return r.finish();
}

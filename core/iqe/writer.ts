// IQE writer: the neutral Model (any reader's output) as IQE text that our compiler turns back
// into the same model (IQE-SEMANTICS.md; `iqm-tools convert`). Pure: a Model in, text and
// warnings out.
//
// What makes the round trip exact:
// - Numbers are the shortest decimal that reads back as the same float32 (parse as double, then
//   round to float, as the compiler does). Integer vertex formats are written as the value the
//   compiler's encoder (§4.8.2) turns back into the same stored integer.
// - Vertex arrays whose IQM format or size is not the compiler's default get a `vertexarray`
//   declaration (a ubyte colour stays ubyte); custom arrays always do (their name lives there).
// - Triangles keep their corner order: IQE and IQM both put the front face clockwise
//   (IQE-SEMANTICS.md §0). A counter-clockwise source (DPM) is reversed.
// - Animation frames are the stored channel values (offset + sample × scale, not normalised), so
//   the compiler quantises them to the same steps.
// What IQE cannot say, or the compile will change, is a warning: MD3 vertex animation and tags,
// IQM extensions, NaN values, more than ten custom arrays, meshes the compile merges. Bounds are
// not written: the compile computes them from the skinned vertices.
import { fallbackTangent } from '../math/tangent';
import {
  FORMAT_NAMES,
  IQM_BLENDINDEXES,
  IQM_BLENDWEIGHTS,
  IQM_BYTE,
  IQM_COLOR,
  IQM_CUSTOM,
  IQM_FLOAT,
  IQM_HALF,
  IQM_INT,
  IQM_NORMAL,
  IQM_POSITION,
  IQM_SHORT,
  IQM_TANGENT,
  IQM_TEXCOORD,
  IQM_UBYTE,
  IQM_UINT,
  IQM_USHORT,
  TYPE_NAMES,
} from '../iqm/layout';
import { type Clip, jointOrder, type Mesh, type Model } from '../model/model';

export interface IqeWriteOptions {
  /** Animation inputs (`convert IN ANIM…`): their clips and frames follow the model's own. */
  animations?: { label: string; model: Model }[];
  /** Comment lines written after the header (provenance); line breaks are replaced by spaces. */
  comments?: string[];
  /** How warnings name the model (its file name); default "the model". */
  label?: string;
}

export interface IqeWriteResult {
  text: string;
  /** What the IQE cannot carry or the compile will change, one sentence each. */
  warnings: string[];
  /** Animations written (the model's and the animation inputs'). */
  animations: number;
}

/** An input the writer cannot turn into IQE (an animation that does not fit the skeleton). */
export class IqeWriteError extends Error {
  /** Which input: 0 the model, k the k-th animation input (1-based). */
  constructor(message: string, readonly input: number) {
    super(message);
    this.name = 'IqeWriteError';
  }
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** Powers of ten that doubles hold exactly (10^0 .. 10^22). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * The shortest decimal that reads back (as a double, then rounded to float32, as the compiler
 * reads it) as the float32 nearest to x. -0 keeps its sign; x must be finite.
 */
export function formatFloat32(x: number): string {
  const v = Math.fround(x);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  // Integers below 2^24 are all distinct floats: every digit counts.
  if (Number.isInteger(v) && Math.abs(v) < 16777216) return String(v);
  const a = Math.abs(v);
  let e = Math.floor(Math.log10(a));
  if (a < 10 ** e) e--;
  else if (a >= 10 ** (e + 1)) e++;
  // p significant digits: the nearest such decimal is n · 10^(e - p + 1). With the power of ten
  // exact, n / 10^k (or n · 10^-k) is that decimal correctly rounded, as parsing it would give.
  // The nearest one is n or a neighbour (v · 10^k itself may round); fewer digits never get
  // closer, so the first p that works is the shortest.
  for (let p = 1; p <= 9; p++) {
    const k = p - 1 - e;
    if (k > 22 || k < -22) break;
    const n = Math.round(a * (k >= 0 ? POW10[k] : 1 / POW10[-k]));
    // n first (the nearest, as toPrecision would give), then its neighbours.
    for (let i = 0; i < 3; i++) {
      const m = i === 0 ? n : i === 1 ? n - 1 : n + 1;
      const d = k >= 0 ? m / POW10[k] : m * POW10[-k];
      if (Math.fround(d) === a) return String(v < 0 ? -d : d);
    }
  }
  // Far from 1 (beyond 10^±22): the same search through the engine's decimal conversion.
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(Number(v.toPrecision(mid))) === v) hi = mid;
    else lo = mid + 1;
  }
  return String(Number(v.toPrecision(lo)));
}

/** A double in its shortest round-trip form (-0 keeps its sign). */
function formatDouble(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

/** Unsigned normalised maxima of ubyte, ushort, uint (the reader divides by them, the compiler multiplies). */
const UNSIGNED_MAX: Record<number, number> = { [IQM_UBYTE]: 255, [IQM_USHORT]: 65535, [IQM_UINT]: 4294967295 };
/** Signed formats: the reader's divisor (2^(n-1) - 1) and the compiler's scale (2^n - 1). */
const SIGNED: Record<number, [number, number]> = { [IQM_BYTE]: [127, 255], [IQM_SHORT]: [32767, 65535], [IQM_INT]: [2147483647, 4294967295] };

/**
 * How a value the reader decoded from `format` is written so the compiler stores the same
 * integer again: unsigned r/S (encoded as trunc(0.5 + v·S)); signed (2r + 1)/S (0 for 0), which
 * the compiler's floor/ceil rule (§4.8.2) maps back to r (the reader decodes r/(2^(n-1) - 1)).
 * Half: the exact value (the compiler truncates to half, so a decimal just below would lose a
 * step). Float and double: float32 digits.
 */
function valueWriter(format: number): (v: number) => string {
  const unsigned = UNSIGNED_MAX[format];
  if (unsigned !== undefined) return (v) => formatDouble(Math.min(Math.max(Math.round(v * unsigned), 0), unsigned) / unsigned);
  const signed = SIGNED[format];
  if (signed !== undefined) {
    const [divisor, scale] = signed;
    return (v) => {
      const r = Math.min(Math.max(Math.round(v * divisor), -divisor - 1), divisor);
      return r === 0 ? '0' : formatDouble((2 * r + 1) / scale);
    };
  }
  if (format === IQM_HALF) return formatDouble;
  return formatFloat32;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------
// Names

function quoteName(name: string, what: string, warn: (m: string) => void): string {
  let s = name;
  if (/[\r\n]/.test(s)) {
    s = s.replace(/[\r\n]+/g, ' ');
    warn(`${what} "${name}" has a line break, which IQE names cannot hold; written as "${s}"`);
  }
  if (!s.includes('"')) return `"${s}"`;
  // Unquoted names run to the next white space and keep quotes inside literally (§2.5).
  if (!/\s/.test(s) && !s.startsWith('"') && s.length > 0) return s;
  const t = s.replace(/"/g, "'");
  warn(`${what} "${s}" has both a double quote and white space, which IQE names cannot hold; written as "${t}"`);
  return `"${t}"`;
}

// ---------------------------------------------------------------------------------------------
// Vertex arrays

/** The compiler's default (format, size) per IQM type (IQE-SEMANTICS.md §4.8.1); custom: float 4. */
const DEFAULT_FORMAT: Record<number, [number, number]> = {
  [IQM_POSITION]: [IQM_FLOAT, 3],
  [IQM_TEXCOORD]: [IQM_FLOAT, 2],
  [IQM_NORMAL]: [IQM_FLOAT, 3],
  [IQM_TANGENT]: [IQM_FLOAT, 4],
  [IQM_BLENDINDEXES]: [IQM_UBYTE, 4],
  [IQM_BLENDWEIGHTS]: [IQM_UBYTE, 4],
  [IQM_COLOR]: [IQM_UBYTE, 4],
};

const MAX_CUSTOM = 10;

interface ArrayPlan {
  /** IQM type (0..6) or IQM_CUSTOM + k for custom k. */
  type: number;
  format: number;
  size: number;
  /** Custom arrays: the name. */
  name?: string;
}

/** The stored (format, size) of an IQM array of this type (custom: by name), when the model came from an IQM. */
function storedFormat(model: Model, type: number, name?: string): [number, number] | undefined {
  const a = model.iqm?.vertexArrays.find((x) => (type >= IQM_CUSTOM ? x.type >= IQM_CUSTOM && x.name === name : x.type === type));
  if (!a) return undefined;
  const format = (FORMAT_NAMES as readonly string[]).indexOf(a.format);
  return format < 0 ? undefined : [format, a.size];
}

function declaration(plan: ArrayPlan): string | null {
  const custom = plan.type >= IQM_CUSTOM;
  const [format, size] = custom ? [IQM_FLOAT, 4] : DEFAULT_FORMAT[plan.type];
  if (!custom && plan.format === format && plan.size === size) return null;
  const type = custom ? `custom${plan.type - IQM_CUSTOM}` : TYPE_NAMES[plan.type];
  return `vertexarray ${type} ${FORMAT_NAMES[plan.format]} ${plan.size}${custom ? ` ${quoteName(plan.name ?? '', 'custom array', () => undefined)}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// The writer

/**
 * The output lines. `parts` holds the lines not yet joined (a mesh's vertex lines stay there until
 * its faces are written: identical vertices are found by comparing them); flush() joins them into
 * one chunk, so that millions of small strings do not live until the end.
 */
class Lines {
  parts: string[] = [];
  private readonly chunks: string[] = [];
  push(line: string): void {
    this.parts.push(line);
  }
  flush(): void {
    if (this.parts.length === 0) return;
    this.chunks.push(this.parts.join('\n') + '\n');
    this.parts = [];
  }
  text(): string {
    this.flush();
    return this.chunks.join('');
  }
}

/** The pose values (10 per joint) of a frame as stored: IQM channels offset + sample × scale (v1: w rebuilt), DPM [t q s]. */
export function storedFrame(model: Model, frame: number, out: Float32Array, jointCount: number): void {
  const anim = model.animation;
  const sk = model.skeleton;
  if (sk) out.set(sk.bindLocal.subarray(0, Math.min(sk.bindLocal.length, out.length)));
  if (!anim) return;
  const n = Math.min(anim.poseCount, jointCount);
  if (anim.kind === 'matrices') {
    out.set(anim.trs.subarray(frame * anim.poseCount * 10, frame * anim.poseCount * 10 + n * 10));
    return;
  }
  for (let j = 0; j < n; j++) {
    const o = j * 10;
    let s = frame * anim.frameChannels + anim.firstSample[j];
    for (let c = 0; c < 10; c++) {
      let v = anim.offset[o + c];
      if (anim.mask[j] & (1 << c)) v += anim.samples[s++] * anim.scale[o + c];
      out[o + c] = v;
    }
    if (anim.reconstructW) {
      const x = out[o + 3], y = out[o + 4], z = out[o + 5];
      out[o + 6] = -Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z));
    }
  }
}

/** `pq` of 10 values at `o` (scale left out when it is 1 1 1); `bad` counts non-finite values, written as identity parts. */
function poseLine(trs: ArrayLike<number>, o: number, bad: { count: number }): string {
  const identity = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
  const v: number[] = [];
  for (let k = 0; k < 10; k++) {
    const x = trs[o + k];
    if (Number.isFinite(x)) v.push(x);
    else {
      bad.count++;
      v.push(identity[k]);
    }
  }
  const scaled = Math.fround(v[7]) !== 1 || Math.fround(v[8]) !== 1 || Math.fround(v[9]) !== 1;
  return `pq ${v.slice(0, scaled ? 10 : 7).map(formatFloat32).join(' ')}`;
}

export interface FrameSource {
  label: string;
  model: Model;
}

/**
 * The clips of a source with the global frames each one writes: the clips as they are when they
 * lie one after another from frame 0 and cover every frame (IQM files as compiled), else each
 * clip's own frames, and the frames no clip covers as one more clip (with warnings).
 */
export function clipFrames(source: FrameSource, warn: (m: string) => void): { clip: Clip; frames: number[] }[] {
  const frameCount = source.model.animation?.frameCount ?? 0;
  const range = (first: number, count: number): number[] => {
    const frames: number[] = [];
    for (let f = Math.max(first, 0); f < Math.min(first + count, frameCount); f++) frames.push(f);
    return frames;
  };
  const out = source.model.clips.map((clip) => ({ clip, frames: range(clip.firstFrame, clip.frameCount) }));
  let next = 0;
  let tiles = true;
  for (const c of source.model.clips) {
    if (c.firstFrame !== next) tiles = false;
    next = c.firstFrame + c.frameCount;
  }
  if (tiles && next === frameCount) return out;
  const covered = new Uint8Array(frameCount);
  for (const { frames } of out) for (const f of frames) covered[f] = 1;
  const rest = range(0, frameCount).filter((f) => !covered[f]);
  if (!tiles) warn(`${source.label}: its animations overlap or are out of order; each is written with its own frames, so frame numbers change`);
  if (rest.length > 0) {
    const name = `${source.label} frames`;
    warn(`${source.label}: ${plural(rest.length, 'frame')} belong${rest.length === 1 ? 's' : ''} to no animation; written as one more animation "${name}"`);
    out.push({ clip: { name, firstFrame: rest[0], frameCount: rest.length, fps: 0, loop: false }, frames: rest });
  }
  return out;
}

export function writeIqe(model: Model, options: IqeWriteOptions = {}): IqeWriteResult {
  const warnings: string[] = [];
  const warn = (m: string): void => {
    warnings.push(m);
  };
  const out = new Lines();
  out.push('# Inter-Quake Export');
  for (const c of options.comments ?? []) out.push(`# ${c.replace(/[\r\n]+/g, ' ')}`);

  formatWarnings(model, warn);

  // Skeleton: joints in an order where every parent comes first (IQE requires it).
  const sk = model.skeleton;
  const jointCount = sk ? sk.names.length : (model.animation?.poseCount ?? 0);
  const order = sk
    ? sk.order
    : jointOrder(model.animation?.parents ?? new Int32Array(0), (j) => {
        throw new IqeWriteError(`pose ${j}: the parent chain forms a cycle`, 0);
      });
  const newIndex = new Int32Array(jointCount);
  let reordered = false;
  for (let k = 0; k < jointCount; k++) {
    newIndex[order[k]] = k;
    if (order[k] !== k) reordered = true;
  }
  if (reordered) warn('joints are listed so that every parent comes before its children (IQE requires it): joint numbers change');
  if (jointCount > 0) {
    out.push('');
    const parents = sk ? sk.parents : (model.animation as NonNullable<Model['animation']>).parents;
    const bad = { count: 0 };
    for (let k = 0; k < jointCount; k++) {
      const j = order[k];
      const name = sk ? sk.names[j] : `pose${j}`;
      const parent = parents[j] < 0 ? -1 : newIndex[parents[j]];
      out.push(`joint ${quoteName(name, 'joint', warn)} ${parent}`);
      // Animation-only files have no base pose; the compile writes no joints without meshes.
      if (sk) out.push(poseLine(sk.bindLocal, j * 10, bad));
    }
    if (bad.count) warn(`${bad.count} base pose values are not finite; written as the identity's`);
  }

  writeMeshes(model, out, newIndex, jointCount, warn);

  // Animations: the model's own, then each animation input's.
  const sources: FrameSource[] = [{ label: options.label ?? 'the model', model }];
  for (const [i, a] of (options.animations ?? []).entries()) {
    const anim = a.model.animation;
    if (!anim) throw new IqeWriteError('has no skeletal animation', i + 1);
    if (anim.poseCount !== jointCount) throw new IqeWriteError(`its animation has ${anim.poseCount} poses but the model has ${jointCount} joints`, i + 1);
    sources.push({ label: a.label, model: a.model });
  }
  const frame = new Float32Array(jointCount * 10);
  const bad = { count: 0 };
  let animations = 0;
  for (const source of sources) {
    if (!source.model.animation) continue;
    for (const { clip, frames } of clipFrames(source, warn)) {
      out.push('');
      out.push(`animation ${quoteName(clip.name, 'animation', warn)}`);
      animations++;
      if (clip.fps > 0 && Number.isFinite(clip.fps)) out.push(`framerate ${formatFloat32(clip.fps)}`);
      if (clip.loop) out.push('loop');
      for (const f of frames) {
        storedFrame(source.model, f, frame, jointCount);
        out.push('frame');
        for (let k = 0; k < jointCount; k++) out.push(poseLine(frame, order[k] * 10, bad));
        if (out.parts.length > 4096) out.flush();
      }
    }
  }
  if (bad.count) warn(`${bad.count} animation values are not finite; written as the identity's`);

  const comment = model.iqm?.comment ?? '';
  if (comment.length > 0) {
    out.push('');
    out.push('comment');
    // Verbatim to the end of the file (§3.7): no line break of ours after it.
    return { text: out.text() + comment, warnings, animations };
  }
  return { text: out.text(), warnings, animations };
}

/** Warnings about what the source format has that IQE cannot carry. */
function formatWarnings(model: Model, warn: (m: string) => void): void {
  if (model.format === 'md3') {
    if (model.frameCount > 1) warn(`MD3 vertex animation cannot be carried in IQE (it animates skeletons): frame 0 of ${model.frameCount} is written`);
    if (model.tags && model.tags.names.length) warn(`MD3 tags (${model.tags.names.join(', ')}) are not carried`);
    const several = model.meshes.filter((m) => m.shaders.length > 1);
    if (several.length) warn(`${several.length} MD3 surfaces have several shaders; only the first becomes the material`);
  }
  if (model.iqm) {
    for (const e of model.iqm.extensions) warn(`IQM extension ${e.name} (${e.size} bytes) cannot be carried in IQE`);
  }
  if (model.iqm && model.bounds && model.frameCount > 0) {
    warn('per-frame bounds are not carried: the compile computes them again from the skinned frames, so they can differ from the file\'s by what the 16-bit frame quantisation moves (or where the file\'s are not the skinned box)');
  }
  if (model.format === 'dpm') dpmWarnings(model, warn);
  if (model.skeleton && model.meshes.length === 0) warn('the model has joints but no mesh: the compile writes joints only for a model with meshes (poses stay, with the animations)');
  const attachments = model.skeleton ? model.skeleton.flags.reduce((n, f) => n + (f !== 0 ? 1 : 0), 0) : 0;
  if (attachments) warn(`${plural(attachments, 'bone')} ${attachments === 1 ? 'has' : 'have'} DPM flags (1: attachment), which IQE cannot carry`);
  const pairs = new Map<string, number>();
  for (const [i, m] of model.meshes.entries()) {
    const key = `${m.name}\0${m.material}`;
    const first = pairs.get(key);
    if (first !== undefined) warn(`meshes ${first} and ${i} are both "${m.name}" with material "${m.material}": the compile merges them into one`);
    else pairs.set(key, i);
    if (m.triangleCount === 0) warn(`mesh ${i} "${m.name}" has no triangles: the compile leaves it out`);
  }
}

/**
 * DPM vertices store one bone-space origin per influence, already multiplied by its influence;
 * IQE has one bind position per vertex. Where the influences' origins put the vertex in different
 * places at the bind pose (frame 0), the compiled model blends one position (their weighted
 * average, which is the DPM's frame-0 position) and moves differently when the bones part.
 */
function dpmWarnings(model: Model, warn: (m: string) => void): void {
  const sk = model.skeleton;
  if (!sk) return;
  const world = sk.bindWorld;
  let disagree = 0;
  let worst = 0;
  let unnormalised = 0;
  let many = 0;
  for (const mesh of model.meshes) {
    const d = mesh.dpm;
    if (!d) continue;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const a = d.start[v], b = d.start[v + 1];
      if (b - a > 4) many++;
      let sum = 0;
      for (let i = a; i < b; i++) sum += d.influence[i];
      if (b > a && Math.abs(sum - 1) > 1e-3) unnormalised++;
      if (b - a < 2) continue;
      let far = 0;
      for (let i = a; i < b; i++) {
        const f = d.influence[i];
        if (!(f > 0)) continue;
        const m = d.bone[i] * 12;
        const x = d.origins[3 * i] / f, y = d.origins[3 * i + 1] / f, z = d.origins[3 * i + 2] / f;
        const px = world[m] * x + world[m + 1] * y + world[m + 2] * z + world[m + 3];
        const py = world[m + 4] * x + world[m + 5] * y + world[m + 6] * z + world[m + 7];
        const pz = world[m + 8] * x + world[m + 9] * y + world[m + 10] * z + world[m + 11];
        const dx = px - mesh.position[3 * v], dy = py - mesh.position[3 * v + 1], dz = pz - mesh.position[3 * v + 2];
        far = Math.max(far, Math.sqrt(dx * dx + dy * dy + dz * dz));
      }
      if (far > 1e-3 * Math.max(1, Math.abs(mesh.position[3 * v]), Math.abs(mesh.position[3 * v + 1]), Math.abs(mesh.position[3 * v + 2]))) disagree++;
      worst = Math.max(worst, far);
    }
  }
  if (disagree) {
    warn(
      `${disagree} DPM vertices have influences whose origins put them in different places at frame 0 (up to ${worst.toPrecision(3)} units apart); ` +
        'IQE has one bind position per vertex (their weighted average, the DPM frame-0 position), so these vertices move differently when their bones part',
    );
  }
  if (unnormalised) warn(`${unnormalised} DPM vertices have influences that do not sum to 1; the compile renormalises them`);
  if (many) warn(`${many} DPM vertices have more than 4 influences; the compile keeps the 4 largest`);
}

function writeMeshes(model: Model, out: Lines, newIndex: Int32Array, jointCount: number, warn: (m: string) => void): void {
  const meshes = model.meshes;
  if (meshes.length === 0) return;
  const has = (f: (m: Mesh) => unknown): boolean => meshes.some((m) => m.vertexCount > 0 && f(m));
  const plan = (type: number): ArrayPlan => {
    const stored = storedFormat(model, type);
    const [format, size] = stored ?? DEFAULT_FORMAT[type];
    return { type, format, size };
  };
  const position = plan(IQM_POSITION);
  const texcoord = has((m) => m.texcoord) ? plan(IQM_TEXCOORD) : null;
  const normal = has((m) => m.normal) ? plan(IQM_NORMAL) : null;
  const tangent = has((m) => m.tangent) ? plan(IQM_TANGENT) : null;
  const skinned = jointCount > 0 && has((m) => m.influences > 0 && m.blendIndices && m.blendWeights);
  const indexes = skinned ? plan(IQM_BLENDINDEXES) : null;
  const weights = skinned ? plan(IQM_BLENDWEIGHTS) : null;
  const color = has((m) => m.color) ? plan(IQM_COLOR) : null;
  const customNames: string[] = [];
  for (const m of meshes) for (const c of m.custom) if (!customNames.includes(c.name)) customNames.push(c.name);
  if (customNames.length > MAX_CUSTOM) warn(`IQE has ${MAX_CUSTOM} custom vertex arrays; ${customNames.slice(MAX_CUSTOM).join(', ')} are left out`);
  const customs: ArrayPlan[] = customNames.slice(0, MAX_CUSTOM).map((name, k) => {
    const sizeOf = meshes.find((m) => m.custom.some((c) => c.name === name))?.custom.find((c) => c.name === name)?.size ?? 4;
    const [format, size] = storedFormat(model, IQM_CUSTOM, name) ?? [IQM_FLOAT, sizeOf];
    return { type: IQM_CUSTOM + k, format, size, name };
  });

  if (!normal) warn('the model has no normals: the compile generates them (smooth across shared positions)');
  else if (!tangent && texcoord) warn('the model has no tangents: the compile generates them from the normals and texture coordinates');

  const declarations = [position, texcoord, normal, tangent, indexes, weights, color, ...customs].filter((p): p is ArrayPlan => p !== null).map(declaration).filter((d): d is string => d !== null);
  if (declarations.length) {
    out.push('');
    for (const d of declarations) out.push(d);
  }

  const writeP = valueWriter(position.format);
  const writeT = texcoord ? valueWriter(texcoord.format) : formatFloat32;
  const writeN = normal ? valueWriter(normal.format) : formatFloat32;
  const writeX = tangent ? valueWriter(tangent.format) : formatFloat32;
  const writeC = color ? valueWriter(color.format) : formatFloat32;
  const writeW = weights ? valueWriter(weights.format === IQM_UBYTE ? IQM_FLOAT : weights.format) : formatFloat32;
  const writeCustom = customs.map((c) => valueWriter(c.format));
  const reverse = model.winding === 'ccw';
  let nonFinite = 0;
  let nanTangents = 0;
  let outOfRange = 0;
  let tinyWeights = 0;
  let tinyVertices = 0;
  let degenerate = 0;
  const scratch = new Float64Array(4);
  // One vertex's kept influences (a mesh has `influences` of them per vertex).
  const maxInfluences = meshes.reduce((n, m) => Math.max(n, m.influences), 0);
  const keptJoints = new Int32Array(maxInfluences);
  const keptWeights = new Float64Array(maxInfluences);
  const values = (w: (v: number) => string, data: ArrayLike<number> | null, v: number, size: number, fill: readonly number[]): string => {
    let s = '';
    for (let k = 0; k < size; k++) {
      let x = data ? data[v * size + k] : fill[k];
      if (!Number.isFinite(x)) {
        nonFinite++;
        x = fill[k];
      }
      s += (k ? ' ' : '') + w(x);
    }
    return s;
  };

  for (const [mi, mesh] of meshes.entries()) {
    out.push('');
    out.push(`mesh ${quoteName(mesh.name, 'mesh', warn)}`);
    out.push(`material ${quoteName(mesh.material, 'material', warn)}`);
    // Each vertex's lines, for telling identical vertices apart (all vertices have as many lines).
    const firstLine = out.parts.length;
    let linesPerVertex = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const start = out.parts.length;
      out.push(`vp ${values(writeP, mesh.position, v, 3, [0, 0, 0])}`);
      if (texcoord) out.push(`vt ${values(writeT, mesh.texcoord, v, 2, [0, 0])}`);
      if (normal) out.push(`vn ${values(writeN, mesh.normal, v, 3, [0, 0, 1])}`);
      if (tangent) {
        const t = mesh.tangent;
        if (t && !(Number.isFinite(t[4 * v]) && Number.isFinite(t[4 * v + 1]) && Number.isFinite(t[4 * v + 2]) && Number.isFinite(t[4 * v + 3]))) {
          // IQE cannot say NaN (the compile rejects it): the compile's own fallback (B8) instead.
          nanTangents++;
          const n = mesh.normal;
          fallbackTangent(scratch, 0, n ? n[3 * v] : 0, n ? n[3 * v + 1] : 0, n ? n[3 * v + 2] : 1);
          out.push(`vx ${values(writeX, scratch, 0, 4, [1, 0, 0, 1])}`);
        } else out.push(`vx ${values(writeX, t, v, 4, [1, 0, 0, 1])}`);
      }
      if (skinned) {
        let s = 'vb';
        const k = mesh.influences;
        if (mesh.blendIndices && mesh.blendWeights) {
          // Weights ≤ 0.001 are left out and the rest renormalised, as the compile does (§4.8.4):
          // written, each would be a weights-invalid warning on the converted file's own lines.
          let kept = 0;
          let sum = 0;
          let dropped = 0;
          for (let c = 0; c < k; c++) {
            const w = mesh.blendWeights[v * k + c];
            if (!(w > 0)) continue;
            const joint = mesh.blendIndices[v * k + c];
            if (joint >= jointCount) {
              outOfRange++;
              continue;
            }
            if (!(w > 0.001)) {
              dropped++;
              continue;
            }
            keptJoints[kept] = newIndex[joint];
            keptWeights[kept++] = w;
            sum += w;
          }
          if (dropped) {
            tinyWeights += dropped;
            tinyVertices++;
          }
          const scale = dropped ? 1 / sum : 1;
          for (let c = 0; c < kept; c++) s += ` ${keptJoints[c]} ${writeW(keptWeights[c] * scale)}`;
        }
        out.push(s);
      }
      if (color) out.push(`vc ${values(writeC, mesh.color, v, 4, [1, 1, 1, 1])}`);
      for (const [k, plan] of customs.entries()) {
        const stream = mesh.custom.find((c) => c.name === plan.name);
        const size = stream ? stream.size : plan.size;
        out.push(`v${k} ${values(writeCustom[k], stream ? stream.data : null, v, size, [0, 0, 0, 0])}`);
      }
      linesPerVertex = out.parts.length - start;
    }
    const same = (a: number, b: number): boolean => {
      if (a === b) return true;
      const pa = firstLine + a * linesPerVertex, pb = firstLine + b * linesPerVertex;
      for (let k = 0; k < linesPerVertex; k++) if (out.parts[pa + k] !== out.parts[pb + k]) return false;
      return true;
    };
    const ix = mesh.indices;
    const n = mesh.vertexCount;
    let nowhere = 0;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const a = ix[3 * t], b = ix[3 * t + 1], c = ix[3 * t + 2];
      // A corner with no vertex of its mesh to name (an IQM mesh of 0 vertices that keeps its
      // triangles): written, it would be a face-index error that stops the compile.
      if (!(a < n && b < n && c < n)) {
        nowhere++;
        continue;
      }
      if (same(a, b) || same(b, c) || same(a, c)) degenerate++;
      out.push(reverse ? `fm ${a} ${c} ${b}` : `fm ${a} ${b} ${c}`);
    }
    if (nowhere) {
      const all = nowhere === mesh.triangleCount;
      warn(
        `mesh ${mi} "${mesh.name}": ${plural(nowhere, 'triangle')} name${nowhere === 1 ? 's' : ''} vertices the mesh does not have (it has ${n}): left out` +
          (all ? ', and the mesh with them (the compile leaves a mesh without triangles out)' : ''),
      );
    }
    out.flush();
    if (mi === 0 && reverse) warn('triangles are reversed: the source puts the front face counter-clockwise, IQE and IQM clockwise');
  }
  if (nanTangents) warn(`${plural(nanTangents, 'tangent')} ${nanTangents === 1 ? 'is' : 'are'} NaN, which IQE cannot hold; written as the compile's fallback tangent (IQE-SEMANTICS.md B8)`);
  if (nonFinite) warn(`${plural(nonFinite, 'vertex value')} ${nonFinite === 1 ? 'is' : 'are'} NaN or infinite, which IQE cannot hold; written as defaults`);
  if (outOfRange) warn(`${plural(outOfRange, 'blend influence')} name${outOfRange === 1 ? 's' : ''} a joint that does not exist; left out`);
  if (tinyWeights) {
    warn(`${plural(tinyWeights, 'blend weight')} ≤ 0.001 left out, as the compile leaves ${tinyWeights === 1 ? 'it' : 'them'} out, and the other weights of ${tinyVertices === 1 ? 'its vertex' : `their ${tinyVertices} vertices`} renormalised`);
  }
  if (degenerate) warn(`${plural(degenerate, 'triangle')} use${degenerate === 1 ? 's' : ''} one vertex (or two identical vertices) twice: the compile drops ${degenerate === 1 ? 'it' : 'them'}`);
}

// Mutation fuzzing of the compile's other inputs (MD5 mesh and anim, SMD, OBJ, glTF and GLB), as
// the IQE fuzz does it for IQE (iqe-fuzz.ts). A glTF is mutated in its JSON (numbers made extreme,
// members deleted, arrays cut or doubled, an accessor's use pointed at another accessor or its type
// or component type changed, the BIN chunk cut) or as bytes (model-fuzz.ts). Mutations
// of a text (mutateLines, also the sidecar fuzz's): lines deleted, doubled, swapped, cut (and, for
// the sidecars, repeated thousands of times); numbers replaced by extreme or malformed values (counts of 1e300, indices
// past the end, NaN, hex); lines of the format inserted; a very long line (a face of thousands of
// corners, a vertex of thousands of bone links, a frame of thousands of values); characters
// flipped (quotes, braces, slashes, line breaks, non-ASCII); line endings changed. Oracle
// (exerciseSource): the reader and the compile never throw; a compile writes bytes exactly when it
// reports no error, and they read back with the counts it reported, without a NaN a glTF did not
// hold; every error says where (a line inside the text) and what, in one line. The reader's model is what the watchdog weighs against the input.
import { compile,  type CompileSource } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { gltfSource } from '../../core/gltf/source';
import { glbOf, skinnedStrip } from './gltf-build';
import { makeGltf } from './gltf-writer';
import { mutate } from './model-fuzz';
import { readModel } from '../../core/formats/models';
import { checkWithinLines, cpuMs, type IqeExercise, pathTimer } from './iqe-fuzz';

export type FuzzSourceFormat = 'md5' | 'smd' | 'obj' | 'gltf';

/** The file extensions of each format's inputs (the name says how a text is read). */
export const SOURCE_EXTENSIONS: Record<FuzzSourceFormat, string[]> = { md5: ['md5mesh', 'md5anim'], smd: ['smd'], obj: ['obj'], gltf: ['glb', 'gltf'] };

const NUMBERS = ['-1', '0', '-0', '1', '2', '0.5', '255', '256', '65536', '2147483648', '1e300', '-1e300', '1e-320', '999999999999999999999', 'nan', 'inf', '0x10', '1e', '', 'x', '1,5', '.', '-'];

/** Lines a mutation inserts, by format. */
const LINES: Record<FuzzSourceFormat, string[]> = {
  md5: ['numverts 3', 'numverts 1e9', 'numtris -1', 'numweights 1e300', 'vert 0 ( 0 0 ) 0 1', 'vert 7 ( 0 0 ) 0 1', 'tri 0 0 1 2', 'tri 0 0 0 99', 'weight 0 0 1 ( 0 0 0 )', 'weight 0 9 1 ( 0 0 0 )', 'mesh {', '}', '{', 'joints {', '"j" -1 ( 0 0 0 ) ( 0 0 0 )', '"j" 5 ( 0 0 0 ) ( 0 0 0 )', 'numJoints 1e9', 'numFrames 3', 'frame 0 {', 'frame 99 {', 'baseframe {', 'hierarchy {', '"j" -1 63 0', 'numAnimatedComponents 1e9', 'frameRate 0', 'shader "s', '// meshes: x', 'MD5Version 10'],
  smd: ['version 1', 'version 2', 'nodes', 'end', 'skeleton', 'time 0', 'time -1', 'time 1e9', 'triangles', '0 "root" -1', '1 "child" 0', '300 "far" 0', '0 0 0 0 0 0 0', '0 0 0 0 0 0 0 0 0 0', '0 0 0 0 0 0 1 0 0 1 5 0 0.5', 'mat.bmp', 'vertexanimation', '"unterminated', '// c', '; c', '# c'],
  gltf: [],
  obj: ['v 0 0 0', 'v 1 2', 'vt 0.5', 'vn 0 0 1', 'f 1 2 3', 'f 1/1/1 2/2/2 3/3/3', 'f -1 -2 -3', 'f 1 2', 'f 0 1 2', 'f 99999 1 2', 'f 1//1 2//1 3//1 4//1', 'f a b c', 'g', 'o x', 'usemtl', 'usemtl default', 's off', 's 1e9', 'mtllib missing.mtl', 'v 0 0 0 \\', 'l 1 2', '# c', 'f 1 2 3 4 1 5 8 7 6 5'],
};

/** What a character flip writes. */
const FLIPS = ['\r', '\n', '"', '{', '}', '(', ')', '/', '\\', '0', '9', '-', '.', 'e', ' ', '\t', 'x', '#', '\u00e9', '\u{1F600}', '\u00a0'];

/** A very long line of the format (n values). */
function longLine(format: FuzzSourceFormat, n: number, pick: (n: number) => number): string {
  const values = (f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join(' ');
  if (format === 'obj') return `f ${values(() => `${1 + pick(4)}/${1 + pick(3)}/${1 + pick(2)}`)}`;
  if (format === 'smd') return `0 0 0 0 0 0 1 0 0 ${n} ${values(() => `${pick(3)} 0.001`)}`;
  return pick(2) === 0 ? `frame 0 { ${values(() => String(pick(10)))} }` : `vert 0 ( ${values(() => '0')} ) 0 1`;
}

/** `line` with one of its number-like words replaced by one of NUMBERS. */
function replaceNumber(line: string, pick: (n: number) => number): string {
  const words = [...line.matchAll(/[-+.0-9][^\s(){}"]*/g)];
  if (words.length === 0) return line;
  const w = words[pick(words.length)];
  return line.slice(0, w.index) + NUMBERS[pick(NUMBERS.length)] + line.slice(w.index! + w[0].length);
}

/** Values a glTF mutation writes into its JSON. */
const JSON_VALUES: unknown[] = [-1, 0, 1, 2, 3, 4, 5, 255, 65535, 2 ** 31, 2 ** 32 + 1, 1e9, 1e300, -1e300, 0.5, null, '', 'SCALAR', 'MAT4', 'STEP', 'CUBICSPLINE', 'data:,', [], {}, [0, 0, 0, 0], 5126, 5121, 5123, 5125, 5120];

/** Every place in a JSON value: [container, key] pairs. */
function places(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): [Record<string, unknown> | unknown[], string | number][] {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([value, i]);
      places(v, out);
    });
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([value as Record<string, unknown>, k]);
      places(v, out);
    }
  }
  return out;
}

const isGlbBytes = (bytes: Uint8Array): boolean => bytes.length >= 20 && Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'glTF';

/** A glTF's JSON text and (a GLB's) BIN chunk, as far as the bytes hold them. */
function gltfParts(bytes: Uint8Array): { jsonText: string; bin: Uint8Array } {
  if (!isGlbBytes(bytes)) return { jsonText: Buffer.from(bytes).toString('utf8'), bin: new Uint8Array(0) };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const jsonText = Buffer.from(bytes.subarray(20, 20 + jsonLength)).toString('utf8');
  const bin = bytes.length >= 28 + jsonLength ? bytes.subarray(28 + jsonLength, 28 + jsonLength + view.getUint32(20 + jsonLength, true)) : new Uint8Array(0);
  return { jsonText, bin };
}

/**
 * How many times a glTF's model holds the vertices its file stores: its vertex count over the
 * POSITION counts of its meshes' primitives (at least 1). A scene drawing one mesh from several
 * nodes holds a copy per node (IQM has no instancing), which is the file's meaning, not a reader
 * making too much of it.
 */
export function gltfCopies(bytes: Uint8Array, vertexCount: number): number {
  let json: { meshes?: { primitives?: { attributes?: { POSITION?: unknown } }[] }[]; accessors?: { count?: unknown }[] };
  try {
    json = JSON.parse(gltfParts(bytes).jsonText) as typeof json;
  } catch {
    return 1;
  }
  let stored = 0;
  for (const mesh of Array.isArray(json?.meshes) ? json.meshes : []) {
    for (const primitive of Array.isArray(mesh?.primitives) ? mesh.primitives : []) {
      const count = json.accessors?.[Number(primitive?.attributes?.POSITION)]?.count;
      if (typeof count === 'number' && count > 0) stored += count;
    }
  }
  return stored > 0 ? Math.max(1, vertexCount / stored) : 1;
}

/**
 * A mutated copy of a glTF or GLB: its JSON edited (a value replaced, a member deleted, an array cut
 * or doubled; the BIN chunk cut), or its bytes mutated as a binary model's are.
 */
export function mutateGltf(bytes: Uint8Array, random: () => number): { bytes: Uint8Array; what: string } {
  const pick = (n: number): number => Math.floor(random() * n);
  const glb = isGlbBytes(bytes);
  if (random() < 0.3) {
    // A plain copy: mutate() copies with slice(), which on a Buffer is a view (the seed itself would
    // change) and whose fill() throws past the end where a Uint8Array's stops there.
    const [out, what] = mutate(new Uint8Array(bytes), random, glb ? [0, 12, 20] : []);
    return { bytes: out, what: `bytes: ${what}` };
  }
  const parts = gltfParts(bytes);
  const jsonText = parts.jsonText;
  let bin = parts.bin;
  let json: unknown;
  try {
    json = JSON.parse(jsonText);
  } catch {
    const [out, what] = mutate(new Uint8Array(bytes), random, []);
    return { bytes: out, what: `bytes (no JSON): ${what}` };
  }
  const what: string[] = [];
  // An accessor of the wrong kind where it is used (a float VEC3 as indices compiled to NaN
  // vertices): a use pointed at another accessor, or an accessor's type or component type changed.
  if (random() < 0.25) what.push(swapAccessor(json, pick));
  for (let e = 0, edits = what.length > 0 ? pick(2) : 1 + pick(4); e < edits; e++) {
    const all = places(json);
    if (all.length === 0) break;
    const [container, key] = all[pick(all.length)];
    const at = (container as Record<string | number, unknown>)[key];
    const r = random();
    if (r < 0.55) {
      const value = JSON_VALUES[pick(JSON_VALUES.length)];
      (container as Record<string | number, unknown>)[key] = structuredClone(value);
      what.push(`${String(key)} = ${JSON.stringify(value)}`);
    } else if (r < 0.7 && !Array.isArray(container)) {
      delete (container as Record<string, unknown>)[key];
      what.push(`${String(key)} deleted`);
    } else if (Array.isArray(at) && at.length > 0) {
      if (random() < 0.5) at.length = pick(at.length);
      else at.push(...structuredClone(at));
      what.push(`${String(key)} made ${at.length} long`);
    } else if (typeof at === 'number') {
      (container as Record<string | number, unknown>)[key] = at + [1, -1, 1000][pick(3)];
      what.push(`${String(key)} moved`);
    }
  }
  if (glb && bin.length > 0 && random() < 0.15) {
    bin = bin.subarray(0, pick(bin.length));
    what.push(`BIN cut to ${bin.length}`);
  }
  // A .gltf written in lines as its seed was (a JSON error's line and column then mean something).
  const text = !glb && jsonText.slice(0, 200).includes('\n') ? JSON.stringify(json, null, 1) : JSON.stringify(json);
  return { bytes: glb ? glbOf(text, bin) : Buffer.from(text), what: what.join('; ') };
}

const ACCESSOR_TYPES = ['SCALAR', 'VEC2', 'VEC3', 'VEC4', 'MAT2', 'MAT3', 'MAT4'];
const COMPONENT_TYPES = [5120, 5121, 5122, 5123, 5125, 5126];

/** One accessor made the wrong kind for a use of it (glTF 2.0's table of formats per use); what was done. */
function swapAccessor(json: unknown, pick: (n: number) => number): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const j = json as Record<string, any>;
  const accessors: unknown[] = Array.isArray(j?.accessors) ? j.accessors : [];
  if (accessors.length === 0) return 'no accessor to swap';
  // Every place that names an accessor: [container, key, what]; a mesh's apart (an animation's
  // hundreds of samplers would leave a mesh's few uses seldom picked).
  const meshUses: [Record<string, unknown>, string, string][] = [];
  const uses: [Record<string, unknown>, string, string][] = [];
  const each = (list: unknown, f: (item: Record<string, unknown>, i: number) => void): void => {
    if (Array.isArray(list)) list.forEach((item, i) => item && typeof item === 'object' && f(item as Record<string, unknown>, i));
  };
  each(j.meshes, (mesh, m) =>
    each(mesh.primitives, (p, k) => {
      meshUses.push([p, 'indices', `mesh ${m} primitive ${k} indices`]);
      const attributes = p.attributes as Record<string, unknown> | undefined;
      if (attributes && typeof attributes === 'object') for (const semantic of Object.keys(attributes)) meshUses.push([attributes, semantic, `mesh ${m} primitive ${k} ${semantic}`]);
    }),
  );
  each(j.skins, (skin, s) => 'inverseBindMatrices' in skin && uses.push([skin, 'inverseBindMatrices', `skin ${s} inverseBindMatrices`]));
  each(j.animations, (animation, a) => each(animation.samplers, (sampler, k) => uses.push([sampler, 'input', `animation ${a} sampler ${k} input`], [sampler, 'output', `animation ${a} sampler ${k} output`])));
  const from = meshUses.length > 0 && (uses.length === 0 || pick(2) === 0) ? meshUses : uses;
  if (from.length > 0 && pick(2) === 0) {
    const [container, key, name] = from[pick(from.length)];
    const to = pick(accessors.length);
    container[key] = to;
    return `${name} made accessor ${to}`;
  }
  const a = pick(accessors.length);
  const accessor = accessors[a] as Record<string, unknown>;
  if (!accessor || typeof accessor !== 'object') return 'no accessor to swap';
  if (pick(2) === 0) {
    accessor.type = ACCESSOR_TYPES[pick(ACCESSOR_TYPES.length)];
    return `accessor ${a} type ${String(accessor.type)}`;
  }
  accessor.componentType = COMPONENT_TYPES[pick(COMPONENT_TYPES.length)];
  if (pick(3) === 0) accessor.normalized = pick(2) === 0;
  return `accessor ${a} componentType ${String(accessor.componentType)}${accessor.normalized !== undefined ? `, normalized ${String(accessor.normalized)}` : ''}`;
}

/** A mutated copy of `text` (a file of `format`), and what was done. */
export function mutateSource(format: FuzzSourceFormat, text: string, random: () => number): { text: string; what: string } {
  return mutateLines(text, random, LINES[format], (n, pick) => longLine(format, n, pick));
}

/**
 * A mutated copy of a text file, and what was done: lines deleted, doubled, swapped, cut, (with
 * `repeats`) repeated thousands of times; numbers replaced; a line of `vocabulary` inserted; a very
 * long line (`longLine` of n values); a character flipped; the line endings changed. The compile's
 * sources are not given repeats: thousands of copies of the shortest SMD corner line
 * (`0 0 0 0 0 0 1 0 0`, 18 bytes) make a model of 4.9x the file (each vertex holds x, y, z, w and
 * four weights in 64 bits), over the watchdog's 4x, which the compile's model was not built for.
 */
export function mutateLines(text: string, random: () => number, vocabulary: readonly string[], longLine: (n: number, pick: (n: number) => number) => string, repeats = false): { text: string; what: string } {
  const pick = (n: number): number => Math.floor(random() * n);
  let lines = text.split('\n');
  const what: string[] = [];
  let eol = '\n';
  const edits = 1 + pick(4);
  for (let e = 0; e < edits && lines.length > 0; e++) {
    const at = pick(lines.length);
    switch (pick(repeats ? 11 : 10)) {
      case 0:
        lines.splice(at, 1);
        what.push(`line ${at} deleted`);
        break;
      case 1:
        lines.splice(at, 0, lines[at]);
        what.push(`line ${at} doubled`);
        break;
      case 2: {
        const other = pick(lines.length);
        [lines[at], lines[other]] = [lines[other], lines[at]];
        what.push(`lines ${at} and ${other} swapped`);
        break;
      }
      case 3:
      case 4:
        lines[at] = replaceNumber(lines[at], pick);
        what.push(`a number of line ${at} replaced`);
        break;
      case 5: {
        const line = vocabulary.length > 0 ? vocabulary[pick(vocabulary.length)] : lines[pick(lines.length)];
        lines.splice(at, 0, line);
        what.push(`'${line}' inserted at ${at}`);
        break;
      }
      case 6: {
        const n = 200 + pick(6000);
        lines.splice(at, 0, longLine(n, pick));
        what.push(`a line of ${n} values at ${at}`);
        break;
      }
      case 7: {
        const line = lines[at];
        const c = pick(line.length + 1);
        const to = FLIPS[pick(FLIPS.length)];
        lines[at] = line.slice(0, c) + to + line.slice(c + 1);
        what.push(`character ${c} of line ${at} made ${JSON.stringify(to)}`);
        break;
      }
      case 8:
        lines = lines.slice(0, at);
        lines.push(text.split('\n')[at]?.slice(0, pick(20)) ?? '');
        what.push(`cut in line ${at}`);
        break;
      case 10: {
        // Work that grows with the square of the lines shows on a few thousand of them; at most
        // about 1 MB more, so that linear work stays well within the watchdog's time.
        const n = Math.min(1000 + pick(4000), Math.floor(1_000_000 / (lines[at].length + 1)));
        lines.splice(at, 0, ...Array.from({ length: n }, () => lines[at]));
        what.push(`line ${at} repeated ${n} times`);
        break;
      }
      case 9:
        eol = ['\r', '\r\n'][pick(2)];
        what.push(`line endings ${JSON.stringify(eol)}`);
        break;
    }
  }
  return { text: lines.join(eol), what: what.join('; ') };
}

/**
 * As for IQE; `owned`: bytes of typed arrays the reader's model holds; `copies`: a glTF's
 * (gltfCopies), by which its model may rightly exceed its size.
 */
export type SourceExercise = IqeExercise & { copies?: number };

/** Reads and compiles one input as the file `name` (its extension gives the format); throws on a failure. */
export async function exerciseSource(bytes: Uint8Array, name: string): Promise<SourceExercise> {
  const result: SourceExercise = { owned: 0, slowestPath: '', slowestMs: 0 };
  const { timed, record } = pathTimer(result);
  const isGltf = /\.(glb|gltf)$/.test(name);
  const text = Buffer.from(bytes).toString('utf8');
  // A GLB's diagnostics are at line 0 (its errors name accessors and byte offsets); a .gltf's JSON
  // errors are at their line.
  const lineCount = name.endsWith('.glb') ? 1 : text.split(/\r\n?|\n/).length;
  let start = cpuMs();
  const source: CompileSource = isGltf ? await gltfSource(bytes, name, () => null) : textSource(text, name, undefined, () => null);
  const decodeMs = cpuMs() - start;
  const read = timed('read', () => source.read());
  if (read.model) {
    for (const value of Object.values(read.model)) if (ArrayBuffer.isView(value)) result.owned += value.byteLength;
    if (isGltf) result.copies = gltfCopies(bytes, read.model.vertexCount);
  } else if (!read.diagnostics.some((d) => d.severity === 'error')) fail('the reader gave no model and no error');
  start = cpuMs();
  const again: CompileSource = isGltf ? await gltfSource(bytes, name, () => null) : textSource(text, name, undefined, () => null);
  const compiled = timed('compile', () => compile([again]));
  // A glTF's decoding (asynchronous: its images) is part of its compile.
  if (isGltf) record('decode and compile', decodeMs + cpuMs() - start);
  const errors = compiled.diagnostics.filter((d) => d.diagnostic.severity === 'error');
  checkWithinLines(compiled.diagnostics.map((d) => d.diagnostic), lineCount);
  for (const { diagnostic: d } of compiled.diagnostics) {
    const r = d.range;
    if (r.line === r.endLine && r.endColumn < r.column) fail(`a diagnostic whose range ends before it starts: ${JSON.stringify(d)}`);
    // One line per message: a glTF's JSON error once pasted the engine's excerpt of the input, newlines and all.
    if (/[\r\n]/.test(d.message)) fail(`a diagnostic whose message spans lines: ${JSON.stringify(d)}`);
  }
  if ((compiled.bytes !== undefined) === errors.length > 0) fail(`compile wrote ${compiled.bytes ? 'bytes' : 'nothing'} with ${errors.length} errors`);
  if (read.model === null && compiled.bytes) fail('compile wrote a model the reader refused');
  if (compiled.bytes) {
    const model = readModel(compiled.bytes);
    if (model.meshes.length !== compiled.stats.meshes || model.frameCount !== compiled.stats.frames) fail('the compiled IQM does not read back with the counts the compile reported');
    // No NaN the input did not have (a float accessor read as indices made vertices of none).
    const nan = nanArray(model);
    if (nan && isGltf && !mayHoldNonFinite(bytes)) fail(`the compiled IQM has NaN in its ${nan}, and the glTF has no float that is not finite`);
  }
  return result;
}

/** The first vertex array of a model that holds a NaN, or null. */
function nanArray(model: ReturnType<typeof readModel>): string | null {
  for (const mesh of model.meshes) {
    for (const [name, data] of [['positions', mesh.position], ['normals', mesh.normal], ['texture coordinates', mesh.texcoord], ['tangents', mesh.tangent], ['colours', mesh.color], ['blend weights', mesh.blendWeights]] as const) {
      if (data && data.some((x) => Number.isNaN(x))) return `${name} of mesh '${mesh.name}'`;
    }
  }
  return null;
}

/**
 * Whether a glTF may hold a float that is not finite: a NaN or infinity bit pattern of a float32 at
 * any byte of its binary data (a GLB's bytes, a .gltf's base64 buffers), or a JSON number beyond
 * float32's range (1e300 read as a float32 is infinite).
 */
function mayHoldNonFinite(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes).toString('latin1');
  if (/\d[eE]\+?(3[89]|[4-9]\d|\d{3,})|\d{39,}/.test(text)) return true;
  const blobs = isGlbBytes(bytes) ? [bytes] : [...text.matchAll(/;base64,([A-Za-z0-9+/=]*)/g)].map((m) => new Uint8Array(Buffer.from(m[1], 'base64')));
  // A float32's exponent bits all set: bits 7..14 of its high half (little-endian: bytes 2 and 3).
  return blobs.some((b) => b.some((x, i) => i >= 2 && (x & 0x7f) === 0x7f && (b[i - 1] & 0x80) === 0x80));
}

/** Small seeds of each format, generated here (the real files are added by the caller). */
export function generatedSourceSeeds(format: FuzzSourceFormat): { name: string; bytes: Uint8Array }[] {
  if (format === 'gltf') {
    return [
      { name: 'strip.glb', bytes: skinnedStrip({ animation: true }).glb() },
      { name: 'strip.gltf', bytes: Buffer.from(skinnedStrip({ animation: true, interpolation: 'CUBICSPLINE' }).gltf()) },
      { name: 'tube.glb', bytes: makeGltf({ vertices: 200, joints: 5, keys: 12, animations: [{ name: 'Step', interpolation: 'STEP' }, { name: 'Smooth', interpolation: 'CUBICSPLINE' }], prop: true, matrixNode: true, alternateSigns: true }).bytes },
    ];
  }
  return textSeeds(format).map(({ name, text }) => ({ name, bytes: Buffer.from(text) }));
}

/**
 * A face with a hole as LightWave writes one (the reference's fan folded it; ours once did too):
 * a cog of 32 corners, a bridge from its corner 1 to a round hole's corner 33, the hole backwards
 * and back over the bridge, 66 corners in all.
 */
function bridgedFace(): string {
  const lines: string[] = [];
  for (let i = 0; i < 64; i++) {
    const inHole = i >= 32, angle = (2 * Math.PI * (i % 32)) / 32, radius = inHole ? 3 : i % 2 ? 8 : 10;
    lines.push(`v ${((inHole ? 4 : 0) + radius * Math.cos(angle)).toFixed(4)} ${(radius * Math.sin(angle)).toFixed(4)} 0`);
  }
  const outline = Array.from({ length: 32 }, (_, k) => k + 1), holeBackwards = Array.from({ length: 31 }, (_, k) => 64 - k);
  lines.push(`f ${[...outline, 1, 33, ...holeBackwards, 33].join(' ')}`);
  return lines.join('\n') + '\n';
}

function textSeeds(format: Exclude<FuzzSourceFormat, 'gltf'>): { name: string; text: string }[] {
  if (format === 'obj') {
    return [
      {
        name: 'shapes.obj',
        text: ['# a quad, a concave L, a triangle with negative indices', 'mtllib shapes.mtl', 'v 0 0 0', 'v 2 0 0', 'v 2 1 0', 'v 1 1 0', 'v 1 2 0', 'v 0 2 \\', '  0', 'vt 0 0', 'vt 1 0', 'vt 1 1', 'vn 0 0 1', 'g part', 'usemtl Material.001', 's 1', 'f 1/1/1 2/2/1 3/3/1 4/1/1 5/2/1 6/3/1', 'o other', 'usemtl skin', 's off', 'f -6//1 -5//1 -4//1', 'f 1 2 3 4'].join('\n') + '\n',
      },
      { name: 'bridged.obj', text: bridgedFace() },
    ];
  }
  if (format === 'smd') {
    const nodes = ['version 1', 'nodes', '0 "root" -1', '1 "arm" 0', '2 "hand" 1', 'end'];
    const frame = (t: number): string[] => [`time ${t}`, '0 0 0 0 0 0 0', `1 0 0 1 0 0 ${0.1 * t}`, `2 0 0 1 ${0.2 * t} 0 0`];
    const corner = (b: number, x: number, y: number, links: string): string => `${b} ${x} ${y} 0 0 0 1 ${x / 2} ${y / 2}${links}`;
    return [
      {
        name: 'arm.smd',
        text: [...nodes, 'skeleton', ...frame(0), 'end', 'triangles', 'skin.bmp', corner(0, 0, 0, ''), corner(1, 1, 0, ' 2 1 0.5 2 0.25'), corner(2, 0, 1, ' 1 2 1'), 'other.tga', corner(1, 1, 1, ''), corner(0, 2, 0, ' 1 0 0.9'), corner(2, 2, 2, ''), 'end'].join('\n') + '\n',
      },
      { name: 'wave.smd', text: [...nodes, 'skeleton', ...frame(0), ...frame(1), 'time 3', '1 0 0 1 0 0 0.5', 'end'].join('\n') + '\n' },
    ];
  }
  const joints = ['joints {', '\t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )', '\t"arm"\t0 ( 1 0 0 ) ( 0 0 0.7071068 )', '}'];
  return [
    {
      name: 'arm.md5mesh',
      text: ['MD5Version 10', 'commandline ""', 'numJoints 2', 'numMeshes 1', ...joints, 'mesh {', '\t// meshes: body', '\tshader "skin.tga"', '\tnumverts 3', '\tvert 0 ( 0 0 ) 0 1', '\tvert 1 ( 1 0 ) 1 1', '\tvert 2 ( 0 1 ) 2 2', '\tnumtris 1', '\ttri 0 0 2 1', '\tnumweights 4', '\tweight 0 0 1 ( 0 0 0 )', '\tweight 1 0 1 ( 1 0 0 )', '\tweight 2 1 0.5 ( 1 0 0 )', '\tweight 3 0 0.5 ( 0 1 0 )', '}'].join('\n') + '\n',
    },
    {
      name: 'wave.md5anim',
      text: ['MD5Version 10', 'commandline ""', 'numFrames 3', 'numJoints 2', 'frameRate 24', 'numAnimatedComponents 2', 'hierarchy {', '\t"root"\t-1 0 0', '\t"arm"\t0 48 0', '}', 'bounds {', ...Array.from({ length: 3 }, () => '\t( -1 -1 -1 ) ( 1 1 1 )'), '}', 'baseframe {', '\t( 0 0 0 ) ( 0 0 0 )', '\t( 1 0 0 ) ( 0 0 0 )', '}', ...[0, 1, 2].flatMap((f) => [`frame ${f} {`, `\t${0.1 * f} ${-0.1 * f}`, '}'])].join('\n') + '\n',
    },
  ];
}

function fail(message: string): never {
  throw new Error(message);
}

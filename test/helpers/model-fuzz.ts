// Mutation fuzzing of the binary model readers. Inputs: real files and generated ones, mutated by
// bit flips, interesting-value overwrites of 32-bit fields, inflated counts and offsets, chunk
// splices, an IQM mesh's vertex count zeroed (its triangles kept), and truncation at every
// section boundary. Oracle: readModel returns a Model or throws FormatError (anything else fails);
// a returned model can be posed, skinned and morphed without throwing, in bounded time, and what
// it allocated is a small multiple of the input size; with `convert`, the IQE `convert` writes of
// it compiles without errors (or the writer refuses the model with an IqeWriteError).
// The validator (core/validate, exerciseValidator) runs on the same inputs in fuzz() and in the
// CI fuzz's own `validator` target: it never throws and its report is well formed.

import { FormatError } from '../../core/binary';
import { compile } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { IqeWriteError, writeIqe } from '../../core/iqe/writer';
import { IQM_RECORD } from '../../core/iqm/layout';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import { validateModel } from '../../core/validate/index';
import { VALIDATION_CODES } from '../../core/validate/codes';
import { clipFrame, createPose, morphVertices, sampleFrames, sampleTag } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { writeIqmDocument } from './iqm-writer';
import { smallIqmDocument, writeDpm, writeMd3 } from './model-writers';
import { prng } from './iqe-fixtures';

export interface FuzzFailure {
  seedName: string;
  mutation: string;
  error: string;
  input: Uint8Array;
}

export interface FuzzStats {
  inputs: number;
  parsed: number;
  rejected: number;
  failures: FuzzFailure[];
  slowestMs: number;
}

/** Byte offsets where sections start or end, from the header fields (and MD3 surfaces). */
export function sectionBoundaries(bytes: Uint8Array): number[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const set = new Set<number>([0, 4, 16, 20, 64, 80, 108, 124]);
  const headerEnd = Math.min(bytes.length, 128) & ~3;
  const le = !(bytes[0] === 0x44 && bytes[1] === 0x41); // DPM ("DA...") is big-endian
  for (let o = 16; o + 4 <= headerEnd; o += 4) {
    const v = dv.getUint32(o, le);
    if (v > 0 && v < bytes.length) set.add(v);
  }
  // IQM: table ends (offset + count × size) for the fixed-size tables.
  if (bytes.length >= 124 && bytes[0] === 0x49 && bytes[1] === 0x4e) {
    const u = (o: number) => dv.getUint32(o, true);
    for (const [n, o, size] of [[36, 40, 24], [44, 52, 20], [56, 60, 12], [68, 72, 48], [76, 80, 88], [84, 88, 20]]) set.add(u(o) + u(n) * size);
  }
  // MD3: every surface start and its internal offsets.
  if (bytes.length >= 108 && bytes[0] === 0x49 && bytes[1] === 0x44) {
    let s = dv.getInt32(100, true);
    for (let i = 0; i < 64 && s > 0 && s + 108 <= bytes.length; i++) {
      set.add(s);
      for (const f of [88, 92, 96, 100]) set.add(s + dv.getInt32(s + f, true));
      const end = dv.getInt32(s + 104, true);
      if (end < 108) break;
      s += end;
    }
  }
  return [...set].filter((x) => x > 0 && x < bytes.length).sort((a, b) => a - b);
}

/** Generated seeds: one of each format, small. */
export function generatedSeeds(): { name: string; bytes: Uint8Array }[] {
  const md3 = writeMd3({
    name: 'gen',
    frames: [0, 1].map((f) => ({ mins: [-1, -1, -1], maxs: [1, 1, 1], origin: [0, 0, 0], radius: 1 + f, name: `f${f}` })),
    tags: [0, 1].map((f) => [{ name: 'tag_a', origin: [f, 0, 0], axis: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }]),
    surfaces: [
      { name: 's', shaders: ['a'], triangles: [0, 1, 2, 2, 1, 3], st: [0, 0, 1, 0, 0, 1, 1, 1], xyz: [[0, 0, 0, 64, 0, 0, 0, 64, 0, 64, 64, 0], [0, 0, 1, 64, 0, 1, 0, 64, 1, 64, 64, 1]], normals: [[0, 1, 2, 3], [4, 5, 6, 7]] },
      { name: 't', shaders: [], triangles: [0, 1, 2], st: [0, 0, 1, 0, 0, 1], xyz: [[1, 2, 3, 4, 5, 6, 7, 8, 9], [9, 8, 7, 6, 5, 4, 3, 2, 1]], normals: [[0, 0, 0], [1, 1, 1]] },
    ],
  });
  const bone = (b: number) => [1, 0, 0, b, 0, 1, 0, 0, 0, 0, 1, 0];
  const dpm = writeDpm({
    bones: [{ name: 'a', parent: -1, flags: 0 }, { name: 'b', parent: 0, flags: 1 }],
    meshes: [{
      shader: 'x',
      verts: [[{ origin: [0, 0, 0], influence: 1, normal: [0, 0, 1], bone: 0 }], [{ origin: [0.5, 0, 0], influence: 0.5, normal: [0, 0, 0.5], bone: 0 }, { origin: [0, 0.5, 0], influence: 0.5, normal: [0, 0, 0.5], bone: 1 }], [{ origin: [1, 1, 1], influence: 1, normal: [0, 1, 0], bone: 1 }]],
      texcoords: [0, 0, 1, 0, 0, 1],
      indices: [0, 1, 2],
      groupIds: [3],
    }],
    frames: [0, 1].map((f) => ({ name: `f${f}`, bounds: [0, 0, 0, 1, 1, 1, 1, 1], matrices: [...bone(0), ...bone(f + 1)] })),
  });
  return [
    { name: 'generated.iqm (v2)', bytes: writeIqmDocument(smallIqmDocument(2)) },
    { name: 'generated.iqm (v1)', bytes: writeIqmDocument(smallIqmDocument(1)) },
    { name: 'generated.md3', bytes: md3 },
    { name: 'generated.dpm', bytes: dpm },
  ];
}

const INTERESTING = [0, 1, 2, 3, 4, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];

/** One mutation of `input`; returns the mutated bytes and a description. */
export function mutate(input: Uint8Array, random: () => number, boundaries: number[]): [Uint8Array, string] {
  const pick = (n: number) => Math.floor(random() * n);
  const kind = pick(9);
  const len = input.length;
  switch (kind) {
    case 7: {
      // An IQM mesh that claims no vertices but keeps its triangles (issue 31: convert wrote
      // `fm 0 0 0` under it, which the compile refused).
      const out = input.slice();
      const dv = new DataView(out.buffer);
      if (len < 124 || String.fromCharCode(...out.subarray(0, 15)) !== 'INTERQUAKEMODEL') return [out, 'noop'];
      const meshes = dv.getUint32(36, true), at = dv.getUint32(40, true);
      const m = pick(Math.max(1, meshes));
      const field = at + m * IQM_RECORD.mesh + 12;
      if (meshes === 0 || field + 4 > len) return [out, 'noop'];
      dv.setUint32(field, 0, true);
      return [out, `mesh ${m}'s vertex count (u32 at ${field}) = 0`];
    }
    case 0: {
      // 1-8 bit flips, biased to the first 512 bytes (headers and tables).
      const out = input.slice();
      const n = 1 + pick(8);
      const at: number[] = [];
      for (let i = 0; i < n; i++) {
        const o = random() < 0.6 ? pick(Math.min(len, 512)) : pick(len);
        out[o] ^= 1 << pick(8);
        at.push(o);
      }
      return [out, `bit flips at ${at.join(',')}`];
    }
    case 1:
    case 2: {
      // A 32-bit field (4-aligned) set to an interesting value, a length-relative value or inflated.
      const out = input.slice();
      const dv = new DataView(out.buffer);
      const o = (random() < 0.7 ? pick(Math.min(len, 160) >> 2) : pick(len >> 2)) * 4;
      if (o + 4 > len) return [out, 'noop'];
      const le = random() < 0.5;
      const old = dv.getUint32(o, le);
      const choices = [...INTERESTING, len, len - 1, len + 1, len - 4, old * 2, old + 1, old - 1, old * 1000, pick(len)];
      const v = choices[pick(choices.length)] >>> 0;
      dv.setUint32(o, v, le);
      return [out, `u32 at ${o} (${le ? 'LE' : 'BE'}) = ${v}`];
    }
    case 3: {
      // Truncation at a section boundary (±1) or anywhere.
      const b = boundaries.length && random() < 0.8 ? boundaries[pick(boundaries.length)] + pick(3) - 1 : pick(len);
      const at = Math.max(0, Math.min(len - 1, b));
      return [input.slice(0, at), `truncated at ${at}`];
    }
    case 4: {
      // Splice: copy a chunk over another place.
      const out = input.slice();
      const n = 1 + pick(Math.min(64, len));
      const from = pick(Math.max(1, len - n));
      const to = pick(Math.max(1, len - n));
      out.copyWithin(to, from, from + n);
      return [out, `copied ${n} bytes from ${from} to ${to}`];
    }
    case 5: {
      // A byte run set to 0x00 or 0xff.
      const out = input.slice();
      const n = 1 + pick(16);
      const o = pick(len);
      out.fill(random() < 0.5 ? 0 : 0xff, o, o + n);
      return [out, `filled ${n} bytes at ${o}`];
    }
    case 8: {
      // A control character where a name may be (issue 31: an MD3 tag named with a newline split a
      // warning over two lines): in the headers and name tables, mostly.
      const out = input.slice();
      const o = random() < 0.6 ? pick(Math.min(len, 2048)) : pick(len);
      const c = [0x0a, 0x0d, 0x1b, 0x07, 0x7f, 0x85, 0x9b][pick(7)];
      if (o < len) out[o] = c;
      return [out, `control byte 0x${c.toString(16)} at ${o}`];
    }
    default: {
      // Int16/float garbage in the data (NaN, huge values).
      const out = input.slice();
      const dv = new DataView(out.buffer);
      const o = pick(Math.max(1, len >> 2)) * 4;
      if (o + 4 <= len) dv.setFloat32(o, [NaN, Infinity, -Infinity, 1e30, -1e-30, 0][pick(6)], random() < 0.5);
      return [out, `float at ${o}`];
    }
  }
}

/** Bytes of typed arrays the model owns (views of the input itself do not count). */
function ownedBytes(model: Model, input: Uint8Array): number {
  const seen = new Set<ArrayBufferLike>([input.buffer]);
  let total = 0;
  const visit = (x: unknown, depth: number): void => {
    if (depth > 6 || x === null || typeof x !== 'object') return;
    if (ArrayBuffer.isView(x)) {
      if (!seen.has(x.buffer)) {
        seen.add(x.buffer);
        total += x.buffer.byteLength;
      }
      return;
    }
    for (const v of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) visit(v, depth + 1);
  };
  visit(model, 0);
  return total;
}

/** Bytes of typed arrays the model of the last input exercise() read owns (0 when it was rejected). */
export let lastOwnedBytes = 0;

/** C0 and C1 controls, DEL and the line separators, which a message never holds raw. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Convert's promise: the IQE it writes of `model` compiles (the writer may refuse a model it cannot write, with IqeWriteError). */
export function exerciseConvert(model: Model): void {
  let text: string;
  try {
    text = writeIqe(model).text;
  } catch (e) {
    if (e instanceof IqeWriteError) return;
    throw e;
  }
  const errors = compile([textSource(text)], {}).diagnostics.filter((d) => d.diagnostic.severity === 'error');
  if (errors.length > 0) {
    const { range, message, code } = errors[0].diagnostic;
    throw new Error(`convert wrote IQE that the compile rejects (${errors.length} errors; first at line ${range.line + 1}: ${message} [${code}])`);
  }
}

/**
 * The validator on the same input (issue 33): it never throws, and its report is well formed
 * (known codes, offsets inside the file, one-line messages).
 */
export function exerciseValidator(input: Uint8Array): void {
  const report = validateModel(input);
  if (!report) return;
  for (const issue of report.issues) {
    if (!(issue.code in VALIDATION_CODES)) throw new Error(`validator: unknown code ${issue.code}`);
    if (!Number.isInteger(issue.offset) || issue.offset < 0 || issue.offset > input.length) throw new Error(`validator: ${issue.code} at offset ${issue.offset} of a ${input.length}-byte file`);
    if (RAW_CONTROL.test(issue.message) || RAW_CONTROL.test(issue.where)) throw new Error(`validator: a raw control character in ${JSON.stringify(issue.message)}`);
  }
}

/** Reads and exercises one input (`convert`: also what convert writes of it); throws (anything but FormatError) to signal a failure. */
export function exercise(input: Uint8Array, convert = false): 'parsed' | 'rejected' {
  lastOwnedBytes = 0;
  let model: Model;
  try {
    model = readModel(input);
  } catch (e) {
    if (e instanceof FormatError) {
      if (typeof e.message !== 'string' || !e.message || !Number.isInteger(e.offset) || e.offset < 0) throw new Error(`malformed FormatError: ${e.message} @ ${e.offset}`);
      if (RAW_CONTROL.test(e.message)) throw new Error(`a FormatError with a raw control character: ${JSON.stringify(e.message)}`);
      return 'rejected';
    }
    throw e;
  }
  // A name's control characters are escaped (core/names.ts): each warning prints as one line.
  for (const w of model.warnings) if (RAW_CONTROL.test(w)) throw new Error(`a warning with a raw control character: ${JSON.stringify(w)}`);
  const owned = ownedBytes(model, input);
  lastOwnedBytes = owned;
  if (owned > 32 * input.length + 65536) throw new Error(`model owns ${owned} bytes for a ${input.length}-byte input`);
  const out = new Float32Array(totalVertices(model) * 3);
  const normals = new Float32Array(out.length);
  if (model.format === 'md3') {
    morphVertices(model, 0, model.frameCount - 1, 0.5, out, normals);
    const tag = new Float32Array(12);
    for (let t = 0; t < (model.tags?.names.length ?? 0); t++) sampleTag(model, t, 0, 1, 0.3, tag);
  } else {
    const pose = createPose(model);
    skinVertices(model, pose, out, normals);
    const blend = { a: 0, b: 0, t: 0 };
    for (let c = 0; c < Math.min(3, model.clips.length); c++) {
      clipFrame(model.clips[c], 0.123, blend);
      sampleFrames(model, blend.a, blend.b, blend.t, pose);
      skinVertices(model, pose, out, normals);
    }
    if (model.frameCount > 0) {
      sampleFrames(model, model.frameCount - 1, 0, 0.5, pose);
      skinVertices(model, pose, out);
    }
  }
  if (convert) exerciseConvert(model);
  return 'parsed';
}

/** Runs `iterations` mutated inputs per seed (round-robin). */
export function fuzz(seeds: { name: string; bytes: Uint8Array }[], iterations: number, seed: number, maxMs = 2000, truncations = true): FuzzStats {
  const random = prng(seed);
  const stats: FuzzStats = { inputs: 0, parsed: 0, rejected: 0, failures: [], slowestMs: 0 };
  const bounds = seeds.map((s) => sectionBoundaries(s.bytes));
  const run = (seedName: string, mutation: string, input: Uint8Array) => {
    const t0 = performance.now();
    try {
      exerciseValidator(input);
      stats[exercise(input)]++;
    } catch (e) {
      stats.failures.push({ seedName, mutation, error: e instanceof Error ? (e.stack ?? e.message) : String(e), input });
    }
    const ms = performance.now() - t0;
    stats.slowestMs = Math.max(stats.slowestMs, ms);
    if (ms > maxMs) stats.failures.push({ seedName, mutation, error: `took ${ms.toFixed(0)} ms`, input });
    stats.inputs++;
  };
  // Deterministic part: every seed truncated at every section boundary (and one byte either side).
  if (truncations) seeds.forEach((s, i) => {
    for (const b of bounds[i]) for (const d of [-1, 0, 1]) if (b + d > 0 && b + d < s.bytes.length) run(s.name, `truncated at ${b + d}`, s.bytes.slice(0, b + d));
  });
  for (let i = 0; i < iterations; i++) {
    const k = i % seeds.length;
    let [bytes, what] = mutate(seeds[k].bytes, random, bounds[k]);
    // Sometimes stack a second mutation.
    if (random() < 0.3) {
      const [b2, w2] = mutate(bytes.length ? bytes : seeds[k].bytes, random, bounds[k]);
      bytes = b2;
      what += `; ${w2}`;
    }
    run(seeds[k].name, what, bytes);
  }
  return stats;
}

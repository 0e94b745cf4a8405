// Test oracle helpers for the IQE -> IQM compiler: an IQM v2 reader written with DataView here
// (independent of core/iqm's reader; where things are comes from the one layout description,
// core/iqm/layout.ts), and an independent adjacency computation following IQE-SEMANTICS.md
// §6 B1 (string keys and a Map, unlike the compiler's hash tables).
import { IqeDocument } from '../../core/iqe/document';
import { type AnimationOptions,  type BoundsProvider,  compile,  type CompileOptions,  type CompileResult,  type CompileStats,  documentSource } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';
import { FORMAT_SIZES, IQM_HEADER, IQM_HEADER_FIELDS, IQM_HEADER_SIZE, IQM_MAGIC, IQM_RECORD, type IqmHeader } from '../../core/iqm/layout';

/** One IQE document's compile, as one source: its diagnostics (warnings too) and the compile's notes, without source indices. */
export interface DocumentCompile {
  bytes?: Uint8Array;
  diagnostics: IqeDiagnostic[];
  notes: IqeDiagnostic[];
  stats: CompileStats;
}

/** Compiles one IQE document through the compiler's one entry; `options` may carry its animation options. */
export function compileDocument(doc: IqeDocument, options: CompileOptions & AnimationOptions = {}, bounds?: BoundsProvider): DocumentCompile {
  const { name, fps, loop, start, end, ...global } = options;
  return flatten(compile([documentSource(doc, '', { name, fps, loop, start, end })], global, bounds));
}

/** Compiles a text held in memory as the CLI and the workers do (textSource: an IQE through the ingest), as one source. */
export function compileSourceText(text: string, options: CompileOptions & AnimationOptions = {}, name = ''): DocumentCompile {
  const { name: animationName, fps, loop, start, end, ...global } = options;
  return flatten(compile([textSource(text, name, { name: animationName, fps, loop, start, end })], global));
}

function flatten(result: CompileResult): DocumentCompile {
  return { bytes: result.bytes, diagnostics: result.diagnostics.map((d) => d.diagnostic), notes: result.notes.map((d) => d.diagnostic), stats: result.stats };
}


export interface IqmArrayHeader {
  type: number;
  format: number;
  size: number;
  offset: number;
  /** Byte length: num_vertexes * size * component size. */
  length: number;
}

export interface IqmFile {
  bytes: Uint8Array;
  view: DataView;
  header: IqmHeader;
  arrays: IqmArrayHeader[];
  meshes: { name: string; material: string; firstVertex: number; vertexCount: number; firstTriangle: number; triangleCount: number }[];
  triangles: Uint32Array;
  adjacency: Uint32Array;
  text: Uint8Array;
}

export function readString(text: Uint8Array, offset: number): string {
  let end = offset;
  while (end < text.length && text[end] !== 0) end++;
  return Buffer.from(text.subarray(offset, end)).toString('utf8');
}

export function parseIqm(bytes: Uint8Array): IqmFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
  if (magic !== IQM_MAGIC) throw new Error('not an IQM file');
  const header = {} as IqmHeader;
  for (const name of IQM_HEADER_FIELDS) header[name] = view.getUint32(IQM_HEADER[name], true);
  const text = bytes.subarray(header.ofs_text, header.ofs_text + header.num_text);
  const arrays: IqmArrayHeader[] = [];
  for (let i = 0; i < header.num_vertexarrays; i++) {
    const o = header.ofs_vertexarrays + IQM_RECORD.vertexArray * i;
    const format = view.getUint32(o + 8, true);
    const size = view.getUint32(o + 12, true);
    arrays.push({ type: view.getUint32(o, true), format, size, offset: view.getUint32(o + 16, true), length: header.num_vertexes * size * FORMAT_SIZES[format] });
  }
  const meshes = [];
  for (let i = 0; i < header.num_meshes; i++) {
    const o = header.ofs_meshes + IQM_RECORD.mesh * i;
    const u = (k: number): number => view.getUint32(o + 4 * k, true);
    meshes.push({ name: readString(text, u(0)), material: readString(text, u(1)), firstVertex: u(2), vertexCount: u(3), firstTriangle: u(4), triangleCount: u(5) });
  }
  const n = 3 * header.num_triangles;
  const triangles = new Uint32Array(n);
  const adjacency = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    triangles[i] = view.getUint32(header.ofs_triangles + 4 * i, true);
    adjacency[i] = view.getUint32(header.ofs_adjacency + 4 * i, true);
  }
  return { bytes, view, header, arrays, meshes, triangles, adjacency, text };
}

/** The named blocks of a file as [name, start, end) byte ranges (vertex arrays one by one). */
export function blocks(file: IqmFile): [string, number, number][] {
  const h = file.header;
  const out: [string, number, number][] = [['header', 0, IQM_HEADER_SIZE]];
  const add = (name: string, offset: number, length: number): void => {
    if (offset > 0 && length > 0) out.push([name, offset, offset + length]);
  };
  add('text', h.ofs_text, h.num_text);
  add('meshes', h.ofs_meshes, IQM_RECORD.mesh * h.num_meshes);
  add('vertexarrays', h.ofs_vertexarrays, IQM_RECORD.vertexArray * h.num_vertexarrays);
  file.arrays.forEach((a) => add(`array type ${a.type}`, a.offset, a.length));
  add('triangles', h.ofs_triangles, IQM_RECORD.triangle * h.num_triangles);
  add('adjacency', h.ofs_adjacency, IQM_RECORD.triangle * h.num_triangles);
  add('joints', h.ofs_joints, IQM_RECORD.joint * h.num_joints);
  add('poses', h.ofs_poses, IQM_RECORD.pose * h.num_poses);
  add('anims', h.ofs_anims, IQM_RECORD.anim * h.num_anims);
  const frameValues = h.num_frames * h.num_framechannels;
  add('frames', h.ofs_frames, 2 * (frameValues + (frameValues & 1)));
  add('bounds', h.ofs_bounds, IQM_RECORD.bounds * h.num_frames);
  add('comment', h.ofs_comment, h.num_comment);
  return out;
}

/** Row bytes of the vertex array of `type` for vertex i, as a string key (or '' when absent). */
function rowKey(file: IqmFile, type: number, i: number): string {
  const a = file.arrays.find((x) => x.type === type);
  if (!a) return '';
  const stride = a.size * FORMAT_SIZES[a.format];
  return Buffer.from(file.bytes.subarray(a.offset + i * stride, a.offset + (i + 1) * stride)).toString('hex');
}

/**
 * Adjacency as §6 B1 defines it, computed independently: endpoints equal when their written
 * position and blend rows are equal; exactly two edges on a pair see each other.
 */
export function expectedAdjacency(file: IqmFile): Uint32Array {
  const endpoint = (v: number): string => `${rowKey(file, 0, v)}|${rowKey(file, 4, v)}|${rowKey(file, 5, v)}`;
  const names = new Map<number, string>();
  const keyOf = (v: number): string => {
    let k = names.get(v);
    if (k === undefined) {
      k = endpoint(v);
      names.set(v, k);
    }
    return k;
  };
  const edges = new Map<string, number[]>();
  const tris = file.triangles;
  const edgeKey = (t: number, k: number): string => {
    const a = keyOf(tris[3 * t + k]);
    const b = keyOf(tris[3 * t + ((k + 1) % 3)]);
    return a < b ? `${a}/${b}` : `${b}/${a}`;
  };
  for (let t = 0; t < tris.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const key = edgeKey(t, k);
      const list = edges.get(key);
      if (list) list.push(t);
      else edges.set(key, [t]);
    }
  }
  const out = new Uint32Array(tris.length).fill(0xffffffff);
  for (let t = 0; t < tris.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const list = edges.get(edgeKey(t, k))!;
      if (list.length === 2 && list[0] !== list[1]) out[3 * t + k] = list[0] === t ? list[1] : list[0];
    }
  }
  return out;
}

/** Compiles IQE text; throws with the errors when it does not compile. */
export function compileText(text: string, options: CompileOptions & AnimationOptions = {}): { result: DocumentCompile; file: IqmFile } {
  const result = compileDocument(new IqeDocument(text), options);
  if (!result.bytes) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range.line + 1}: ${d.code}: ${d.message}`);
    throw new Error(`compile failed:\n${errors.join('\n')}`);
  }
  return { result, file: parseIqm(result.bytes) };
}

/** Float rows of the array of `type` (as numbers), one array per vertex. */
export function floatRows(file: IqmFile, type: number): number[][] {
  const a = file.arrays.find((x) => x.type === type);
  if (!a) return [];
  if (a.format !== 7) throw new Error(`array ${type} is not float`);
  const rows: number[][] = [];
  for (let i = 0; i < file.header.num_vertexes; i++) {
    const row: number[] = [];
    for (let k = 0; k < a.size; k++) row.push(file.view.getFloat32(a.offset + 4 * (a.size * i + k), true));
    rows.push(row);
  }
  return rows;
}

/** Byte rows of the array of `type`. */
export function byteRows(file: IqmFile, type: number): number[][] {
  const a = file.arrays.find((x) => x.type === type);
  if (!a) return [];
  const stride = a.size * FORMAT_SIZES[a.format];
  const rows: number[][] = [];
  for (let i = 0; i < file.header.num_vertexes; i++) rows.push([...file.bytes.subarray(a.offset + stride * i, a.offset + stride * (i + 1))]);
  return rows;
}

export const IQE_HEADER = '# Inter-Quake Export\n';

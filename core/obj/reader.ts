// Wavefront OBJ source reader (static props) into the neutral SourceModel
// (core/compile/source.ts), as the reference compiler reads it: `v`, `vt`, `vn` (positions and
// normals swizzled to (z, x, y), v flipped), faces of any size (1-based or negative indices; a
// vertex per distinct (v, vt, vn) within a mesh), written reversed as the reference writes them,
// a fan for a convex face and ear clipping for a concave one, holes joined by bridges included
// (the reference fans every face; core/obj/triangulate.ts), a warning at a face that crosses itself;
// a mesh per `g` (and, unlike the reference, `o`) and `usemtl`; `s` smoothing groups; comments
// and `\` line continuations. `mtllib`'s .mtl gives a material the file name of its `map_Kd`
// when the material's own name says nothing ("", "default", "Material.001", ...). A face index
// out of range is an error at its column.
import { decimalIn } from '../decimal';
import { isSpace } from '../whitespace';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { lineNote } from '../compile/options';
import { ReadError, readFailed } from '../compile/readError';
import { emptySourceModel, type SourceSection, type SmoothGroup } from '../compile/source';
import type { SiblingReader, SourceRead } from '../compile/sources';
import { float64s, int32s } from '../growable';
import { EAR_CLIPPING_CORNERS, triangulateFace } from './triangulate';


/** Material names that say nothing about the texture (exporters' defaults). */
const SAYS_NOTHING = /^(|default|defaultmaterial|material(\.\d+)?|none|initialshadinggroup|lambert\d+)$/i;

/** `newmtl` -> its `map_Kd` file name (without options and folders), from an .mtl text. */
export function mtlTextures(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | null = null;
  for (const raw of text.split(/\r\n?|\n/)) {
    const line = raw.trim();
    if (line.startsWith('newmtl')) current = line.slice(6).trim();
    else if (current !== null && /^map_Kd\s/i.test(line)) {
      // The file name is the last word (options such as -s 1 1 1 come before it).
      const words = line.split(/\s+/);
      const file = words[words.length - 1].replace(/\\/g, '/');
      out.set(current, file.slice(file.lastIndexOf('/') + 1));
    }
  }
  return out;
}

/** Number(text[start .. end)) for a face index part, without a string for the common [sign] digits. */
function integerIn(text: string, start: number, end: number): number {
  let p = start;
  const sign = p < end ? text.charCodeAt(p) : 0;
  if (sign === 45 || sign === 43) p++;
  let value = 0;
  const digitsFrom = p;
  for (; p < end; p++) {
    const d = text.charCodeAt(p) - 48;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
  }
  // Anything else (hex, exponents, "1.0", no digits, over 15 digits) as Number() reads it.
  if (p < end || p === digitsFrom || p - digitsFrom > 15) return Number(text.slice(start, end));
  return sign === 45 ? -value : value;
}

/** Reads an OBJ; `siblings` reads its .mtl (mtllib). */
export function readObj(text: string, siblings?: SiblingReader): SourceRead {
  const diagnostics: IqeDiagnostic[] = [];
  try {
    return { model: new ObjReader(siblings, diagnostics).read(text), diagnostics };
  } catch (error) {
    return readFailed(error);
  }
}

const ATTRIBUTE_NAMES = ['v', 'vt', 'vn'];

/** The faces that cannot be triangulated warned about each at its line (the rest in one warning). */
const FACE_WARNINGS = 20;

/**
 * The reader's state. Lines are scanned in place (no string per line or word): a logical line is
 * text[a .. b) of the text, or of a string of its own where physical lines end in `\` and are
 * joined (with a space, as the reference joins them); columns count from a.
 */
class ObjReader {
  private readonly attrib = [float64s(1024), float64s(1024), float64s(1024)];
  private readonly positions = float64s(1024);
  private readonly texcoords = float64s(1024);
  private readonly normals = float64s(1024);
  private readonly vertexLines = int32s(1024);
  private readonly triangles = int32s(1024);
  private readonly triangleGroup = int32s(256);
  private readonly triangleLines = int32s(256);
  private withNormal = 0;
  private readonly groups: SmoothGroup[] = [{ key: 0, threshold: -1, uv: false, used: true }];
  private readonly sections: SourceSection[] = [];
  private readonly textures = new Map<string, string>();
  private meshName = '';
  private material = '';
  private inMesh = false;
  private smooth = 0;
  /** Concave faces ear-clipped. */
  private concaveClipped = 0;
  /** Concave faces too large for ear clipping, fanned. */
  private concaveFanned = 0;
  /**
   * A vertex per distinct (v, vt, vn) within a mesh: the vertices of position v in mesh `mesh`
   * are a chain from head[v] (when stamp[v] is that mesh) through next, with their vt and vn.
   */
  private mesh = 0;
  private head = new Int32Array(1024);
  private stamp = new Int32Array(1024);
  private readonly next = int32s(1024);
  private readonly vertexTexcoord = int32s(1024);
  private readonly vertexNormal = int32s(1024);
  private readonly corners: number[] = [];
  /** Each corner's word, its start and end columns. */
  private readonly words: number[] = [];
  /** Faces that have no triangulation (warned about, the first FACE_WARNINGS). */
  private failedFaces = 0;
  /** The line of the first of them not warned about on its own. */
  private firstUnwarned = 0;
  private readonly xyz = [0, 0, 0];

  constructor(
    private readonly siblings: SiblingReader | undefined,
    private readonly diagnostics: IqeDiagnostic[],
  ) {}

  read(text: string): ReturnType<typeof emptySourceModel> {
    const length = text.length;
    let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let line = 0;
    while (pos <= length) {
      let end = pos;
      while (end < length) {
        const c = text.charCodeAt(end);
        if (c === 10 || c === 13) break;
        end++;
      }
      let next = end >= length ? length + 1 : text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      if (end > pos && text.charCodeAt(end - 1) === 92 && next <= length) {
        // A continuation: the logical line as a string of its own, numbered by its first line.
        const first = line;
        let joined = text.slice(pos, end);
        while (joined.endsWith('\\') && next <= length) {
          pos = next;
          end = pos;
          while (end < length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
          next = end >= length ? length + 1 : text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
          joined = joined.slice(0, -1) + ' ' + text.slice(pos, end);
          line++;
        }
        this.line(joined, 0, joined.length, first);
      } else this.line(text, pos, end, line);
      line++;
      pos = next;
    }
    return this.model();
  }

  /** One logical line, s[a .. b), line l. */
  private line(s: string, a: number, b: number, l: number): void {
    let p = a;
    while (p < b && isSpace(s.charCodeAt(p))) p++;
    if (p === b || s.charCodeAt(p) === 35) return;
    let e = b;
    while (isSpace(s.charCodeAt(e - 1))) e--;
    const commandStart = p;
    while (p < e && !isSpace(s.charCodeAt(p))) p++;
    const commandEnd = p;
    while (p < e && isSpace(s.charCodeAt(p))) p++;
    const n = commandEnd - commandStart;
    const c0 = s.charCodeAt(commandStart);
    const c1 = n > 1 ? s.charCodeAt(commandStart + 1) : 0;
    if (c0 === 102 && n === 1) this.face(s, a, b, p, e, l, commandStart - a);
    else if (c0 === 118 && (n === 1 || (n === 2 && (c1 === 116 || c1 === 110)))) this.attribute(n === 1 ? 0 : c1 === 116 ? 1 : 2, s, a, b, p, e, l, commandStart - a);
    else if (n === 1 && (c0 === 103 || c0 === 111)) {
      this.meshName = s.slice(p, e);
      this.inMesh = false;
    } else if (n === 1 && c0 === 115) this.smoothing(s.slice(p, e));
    else if (n === 6 && s.startsWith('usemtl', commandStart)) {
      this.material = s.slice(p, e);
      this.inMesh = false;
    } else if (n === 6 && s.startsWith('mtllib', commandStart)) this.mtllib(s.slice(p, e), l, commandStart - a, b - a);
    // Anything else (curves, surfaces, lines, points, display attributes): not meshes.
  }

  /** `v`, `vt` or `vn` (kind 0, 1, 2): the words s[p .. e). */
  private attribute(kind: number, s: string, a: number, b: number, p: number, e: number, l: number, start: number): void {
    const xyz = this.xyz;
    xyz[0] = xyz[1] = xyz[2] = 0;
    let count = 0;
    while (p < e) {
      const w = p;
      while (p < e && !isSpace(s.charCodeAt(p))) p++;
      if (count < 3) {
        const value = decimalIn(s, w, p);
        if (Number.isNaN(value)) throw new ReadError('number-invalid', `${ATTRIBUTE_NAMES[kind]}: '${s.slice(w, p)}' is not a number`, l, w - a, p - a);
        xyz[count] = value;
      }
      count++;
      while (p < e && isSpace(s.charCodeAt(p))) p++;
    }
    if (kind !== 1 && count < 3) throw new ReadError('obj-values', `${ATTRIBUTE_NAMES[kind]} needs 3 values, this line has ${count}`, l, start, b - a);
    this.attrib[kind].pushMany(xyz, 3);
  }

  private smoothing(rest: string): void {
    const key = rest === 'off' ? 0 : parseInt(rest, 10) || 0;
    this.smooth = this.groups.findIndex((g) => g.key === key);
    if (this.smooth < 0) {
      this.smooth = this.groups.length;
      this.groups.push({ key, threshold: -1, uv: false, used: true });
    }
  }

  private mtllib(rest: string, l: number, start: number, end: number): void {
    if (!this.siblings) return;
    for (const file of rest.split(/\s+/).filter((w) => w !== '')) {
      const mtl = this.siblings(file);
      if (mtl === null) this.diagnostics.push(lineNote('warning', 'obj-mtl-missing', `mtllib ${file} cannot be read: materials keep their names`, l, start, end));
      else for (const [name, texture] of mtlTextures(mtl)) this.textures.set(name, texture);
    }
  }

  /** `f`: the corner words s[p .. e), each v, v/vt, v//vn or v/vt/vn. */
  private face(s: string, a: number, b: number, p: number, e: number, l: number, start: number): void {
    if (!this.inMesh) {
      this.sections.push({ mesh: this.meshName, material: this.material, firstTriangle: this.triangleGroup.length, line: l });
      this.mesh++;
      this.inMesh = true;
    }
    const corners = this.corners, words = this.words;
    corners.length = 0;
    words.length = 0;
    while (p < e) {
      const w = p;
      while (p < e && !isSpace(s.charCodeAt(p))) p++;
      corners.push(this.corner(s, a, w, p, l));
      words.push(w - a, p - a);
      while (p < e && isSpace(s.charCodeAt(p))) p++;
    }
    if (corners.length < 3) throw new ReadError('face-too-few-indices', `f: a face needs 3 vertices, this one has ${corners.length}`, l, start, b - a);
    if (corners.length === 3) {
      // Written reversed, as the reference writes them.
      this.triangle(corners[2], corners[1], corners[0], l);
      return;
    }
    const list = triangulateFace(corners, this.positions.view());
    if (list.kind === 'clipped') this.concaveClipped++;
    else if (list.kind === 'fanned') this.concaveFanned++;
    else if (list.kind === 'failed') this.untriangulated(list.triangles.length, corners.length, list.crossing, list.leftOut ?? 0, l, start, b - a);
    for (const [i, j, k] of list.triangles) this.triangle(i, j, k, l);
  }

  /**
   * A face with no triangulation: a warning at it (at the corners whose edges cross), the first
   * FACE_WARNINGS of them, then one for the rest.
   */
  private untriangulated(written: number, n: number, crossing: [number, number] | undefined, leftOut: number, l: number, start: number, end: number): void {
    if (++this.failedFaces > FACE_WARNINGS) {
      if (this.failedFaces === FACE_WARNINGS + 1) this.firstUnwarned = l;
      return;
    }
    const words = this.words;
    const triangles = `${written} triangle${written === 1 ? '' : 's'}`;
    const rest = leftOut > 0 ? `written: ${triangles} facing its normal; left out: the part of ${leftOut} corners where no more can be cut` : `written: ${triangles} facing its normal, overlapping where it crosses`;
    if (crossing) {
      const [i, j] = crossing;
      const message = `f: this face cannot be triangulated: its outline crosses itself (the edge from corner ${i + 1} to ${i + 2} crosses the edge from corner ${j + 1} to ${j + 2 > n ? 1 : j + 2}); ${rest}`;
      this.diagnostics.push(lineNote('warning', 'obj-face-crossed', message, l, words[2 * i], words[2 * (j + 1 < n ? j + 1 : j) + 1]));
    } else {
      this.diagnostics.push(lineNote('warning', 'obj-face-crossed', `f: this face cannot be triangulated: part of its outline runs the other way round (it crosses itself at a point it visits twice); ${rest}`, l, start, end));
    }
  }

  private triangle(i: number, j: number, k: number, l: number): void {
    const triangles = this.triangles;
    triangles.push(i);
    triangles.push(j);
    triangles.push(k);
    this.triangleGroup.push(this.smooth);
    this.triangleLines.push(l);
  }

  /** The vertex of corner word s[w .. end): its (v, vt, vn) in this mesh, new if not seen in it. */
  private corner(s: string, a: number, w: number, end: number, l: number): number {
    let v = -1, t = -1, n = -1;
    // The word's parts between slashes; parts after the third are not read.
    let q = w;
    for (let k = 0; k < 3; k++) {
      let r = q;
      while (r < end && s.charCodeAt(r) !== 47) r++;
      if (r > q || k === 0) {
        const raw = integerIn(s, q, r);
        const count = this.attrib[k].length / 3;
        if (!Number.isInteger(raw) || raw === 0) throw new ReadError('number-invalid', `f: '${s.slice(w, end)}' is not v, v/vt, v//vn or v/vt/vn of non-zero integers`, l, w - a, end - a);
        const i = raw < 0 ? count + raw : raw - 1;
        if (i < 0 || i >= count) {
          const what = ['vertex', 'texture coordinate', 'normal'][k];
          throw new ReadError('face-index-range', `f: ${what} index ${raw} is out of range (${count} ${ATTRIBUTE_NAMES[k]} lines so far)`, l, w - a, end - a);
        }
        if (k === 0) v = i;
        else if (k === 1) t = i;
        else n = i;
      }
      if (r >= end) break;
      q = r + 1;
    }
    if (v >= this.head.length) {
      const size = Math.max(2 * this.head.length, v + 1);
      const head = new Int32Array(size);
      head.set(this.head);
      this.head = head;
      const stamp = new Int32Array(size);
      stamp.set(this.stamp);
      this.stamp = stamp;
    }
    if (this.stamp[v] !== this.mesh) {
      this.stamp[v] = this.mesh;
      this.head[v] = -1;
    }
    const next = this.next.data, texcoordOf = this.vertexTexcoord.data, normalOf = this.vertexNormal.data;
    for (let x = this.head[v]; x >= 0; x = next[x]) if (texcoordOf[x] === t && normalOf[x] === n) return x;
    const vertex = this.vertexLines.length;
    this.next.push(this.head[v]);
    this.head[v] = vertex;
    this.vertexTexcoord.push(t);
    this.vertexNormal.push(n);
    this.vertexLines.push(l);
    const positions = this.attrib[0].data, texcoords = this.attrib[1].data, normals = this.attrib[2].data;
    // (z, x, y): the reference turns OBJ's Y-up into Z-up so.
    this.positions.push(positions[3 * v + 2]);
    this.positions.push(positions[3 * v]);
    this.positions.push(positions[3 * v + 1]);
    this.positions.push(1);
    this.texcoords.push(t >= 0 ? texcoords[3 * t] : 0);
    this.texcoords.push(t >= 0 ? 1 - texcoords[3 * t + 1] : 0);
    if (n >= 0) this.withNormal++;
    this.normals.push(n >= 0 ? normals[3 * n + 2] : 0);
    this.normals.push(n >= 0 ? normals[3 * n] : 0);
    this.normals.push(n >= 0 ? normals[3 * n + 1] : 0);
    return vertex;
  }

  private model(): ReturnType<typeof emptySourceModel> {
    const { vertexLines, withNormal, sections, textures, diagnostics } = this;
    const vertexCount = vertexLines.length;
    if (withNormal > 0 && withNormal < vertexCount) {
      diagnostics.push(lineNote('warning', 'obj-normals-partial', `${vertexCount - withNormal} of the ${vertexCount} vertices have no normal: all normals are computed from the faces (the reference would shift the given ones onto the wrong vertices)`, 0));
    }
    const clipped = this.concaveClipped;
    if (clipped > 0) diagnostics.push(lineNote('information', 'obj-concave', `${clipped} concave faces are split by ear clipping (the reference compiler fans them, which folds them over)`, 0));
    if (this.concaveFanned > 0) diagnostics.push(lineNote('warning', 'obj-concave', `${this.concaveFanned} concave faces of more than ${EAR_CLIPPING_CORNERS} corners are fanned, as the reference fans them, and fold over (ear clipping takes time growing with the square of the corners)`, 0));
    if (this.failedFaces > FACE_WARNINGS) diagnostics.push(lineNote('warning', 'obj-face-crossed', `${this.failedFaces - FACE_WARNINGS} more faces cannot be triangulated (their outlines cross themselves), the first here: each is written as far as it can be without folding`, this.firstUnwarned));
    if (textures.size > 0) {
      for (const s of sections) {
        const texture = textures.get(s.material);
        if (texture && SAYS_NOTHING.test(s.material)) s.material = texture;
      }
    }
    const model = emptySourceModel();
    Object.assign(model, {
      vertexCount,
      vertexLines: vertexLines.copy(),
      positions: this.positions.copy(),
      texcoords: vertexCount > 0 ? this.texcoords.copy() : null,
      texcoordWidth: 2,
      normals: withNormal > 0 && withNormal === vertexCount ? this.normals.copy() : null,
      triangles: this.triangles.copy(),
      triangleGroup: this.triangleGroup.copy(),
      triangleLines: this.triangleLines.copy(),
      groups: this.groups,
      sections,
    });
    return model;
  }
}

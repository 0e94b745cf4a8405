// Wavefront OBJ source reader (static props) into the neutral SourceModel
// (core/compile/source.ts), as the reference compiler reads it: `v`, `vt`, `vn` (positions and
// normals swizzled to (z, x, y), v flipped), faces of any size (1-based or negative indices; a
// vertex per distinct (v, vt, vn) within a mesh), written reversed as the reference writes them,
// a fan for a convex face and ear clipping for a concave one (the reference fans every face);
// a mesh per `g` (and, unlike the reference, `o`) and `usemtl`; `s` smoothing groups; comments
// and `\` line continuations. `mtllib`'s .mtl gives a material the file name of its `map_Kd`
// when the material's own name says nothing ("", "default", "Material.001", ...). A face index
// out of range is an error at its column.
import { decimalValue } from '../decimal';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { lineNote } from '../compile/options';
import { ReadError, readFailed } from '../compile/readError';
import { emptySourceModel, type Section, type SmoothGroup } from '../compile/source';
import type { SiblingReader, SourceRead } from '../compile/sources';
import { float64s, int32s } from '../growable';


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

/** One logical line: physical lines joined where one ends in `\`, with the first line's number. */
function logicalLines(text: string): { text: string; line: number }[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  const out: { text: string; line: number }[] = [];
  for (let i = 0; i < physical.length; i++) {
    const line = i;
    let s = physical[i];
    while (s.endsWith('\\') && i + 1 < physical.length) s = s.slice(0, -1) + ' ' + physical[++i];
    out.push({ text: s, line });
  }
  return out;
}

/** Reads an OBJ; `siblings` reads its .mtl (mtllib). */
export function readObj(text: string, siblings?: SiblingReader): SourceRead {
  const diagnostics: IqeDiagnostic[] = [];
  try {
    return { model: obj(text, siblings, diagnostics), diagnostics };
  } catch (error) {
    return readFailed(error);
  }
}


function obj(text: string, siblings: SiblingReader | undefined, diagnostics: IqeDiagnostic[]): ReturnType<typeof emptySourceModel> {
  const attrib = [float64s(1024), float64s(1024), float64s(1024)];
  const positions = float64s(1024);
  const texcoords = float64s(1024);
  const normals = float64s(1024);
  const vertexLines = int32s(1024);
  const triangles = int32s(1024);
  const triangleGroup = int32s(256);
  const triangleLines = int32s(256);
  let withNormal = 0;
  const groups: SmoothGroup[] = [{ key: 0, threshold: -1, uv: false, used: true }];
  const sections: Section[] = [];
  const textures = new Map<string, string>();
  let meshName = '', material = '';
  let inMesh = false;
  let smooth = 0;
  let vertexOf = new Map<string, number>();
  let concave = 0;
  for (const { text: line, line: l } of logicalLines(text)) {
    const start = line.length - line.trimStart().length;
    const body = line.trim();
    if (body === '' || body[0] === '#') continue;
    const space = body.search(/\s/);
    const command = space < 0 ? body : body.slice(0, space);
    const rest = space < 0 ? '' : body.slice(space).trim();
    switch (command) {
      case 'v':
      case 'vt':
      case 'vn': {
        const values = rest.split(/\s+/).filter((w) => w !== '');
        const out = attrib[command === 'v' ? 0 : command === 'vt' ? 1 : 2];
        const xyz = [0, 0, 0];
        for (let k = 0; k < Math.min(values.length, 3); k++) {
          xyz[k] = decimalValue(values[k]);
          if (Number.isNaN(xyz[k])) {
            const column = line.indexOf(values[k], start + command.length);
            throw new ReadError('number-invalid', `${command}: '${values[k]}' is not a number`, l, column, column + values[k].length);
          }
        }
        if (command !== 'vt' && values.length < 3) throw new ReadError('obj-values', `${command} needs 3 values, this line has ${values.length}`, l, start, line.length);
        out.pushMany(xyz, 3);
        break;
      }
      case 'g':
      case 'o':
        meshName = rest;
        inMesh = false;
        break;
      case 'usemtl':
        material = rest;
        inMesh = false;
        break;
      case 'mtllib':
        if (siblings) {
          for (const file of rest.split(/\s+/).filter((w) => w !== '')) {
            const mtl = siblings(file);
            if (mtl === null) diagnostics.push(lineNote('warning', 'obj-mtl-missing', `mtllib ${file} cannot be read: materials keep their names`, l, start, line.length));
            else for (const [name, texture] of mtlTextures(mtl)) textures.set(name, texture);
          }
        }
        break;
      case 's': {
        const key = rest === 'off' ? 0 : parseInt(rest, 10) || 0;
        smooth = groups.findIndex((g) => g.key === key);
        if (smooth < 0) {
          smooth = groups.length;
          groups.push({ key, threshold: -1, uv: false, used: true });
        }
        break;
      }
      case 'f': {
        if (!inMesh) {
          sections.push({ mesh: meshName, material, firstTriangle: triangleGroup.length, line: l });
          vertexOf = new Map();
          inMesh = true;
        }
        const corners: number[] = [];
        let p = start + 1;
        for (const word of rest.split(/\s+/)) {
          if (word === '') continue;
          const column = line.indexOf(word, p);
          p = column + word.length;
          const parts = word.split('/');
          const index = [-1, -1, -1];
          for (let k = 0; k < Math.min(parts.length, 3); k++) {
            if (parts[k] === '' && k > 0) continue;
            const raw = Number(parts[k]);
            const count = attrib[k].length / 3;
            if (!Number.isInteger(raw) || raw === 0) throw new ReadError('number-invalid', `f: '${word}' is not v, v/vt, v//vn or v/vt/vn of non-zero integers`, l, column, column + word.length);
            const i = raw < 0 ? count + raw : raw - 1;
            if (i < 0 || i >= count) {
              const what = ['vertex', 'texture coordinate', 'normal'][k];
              throw new ReadError('face-index-range', `f: ${what} index ${raw} is out of range (${count} ${['v', 'vt', 'vn'][k]} lines so far)`, l, column, column + word.length);
            }
            index[k] = i;
          }
          const key = index.join('/');
          let vertex = vertexOf.get(key);
          if (vertex === undefined) {
            vertex = vertexLines.length;
            vertexOf.set(key, vertex);
            // The backing arrays themselves (view() made a new subarray at each of 8 reads).
            const a = (k: number, c: number): number => attrib[k].data[3 * index[k] + c];
            // (z, x, y): the reference turns OBJ's Y-up into Z-up so.
            positions.pushMany([a(0, 2), a(0, 0), a(0, 1), 1], 4);
            texcoords.pushMany(index[1] >= 0 ? [a(1, 0), 1 - a(1, 1)] : [0, 0], 2);
            if (index[2] >= 0) withNormal++;
            normals.pushMany(index[2] >= 0 ? [a(2, 2), a(2, 0), a(2, 1)] : [0, 0, 0], 3);
            vertexLines.push(l);
          }
          corners.push(vertex);
        }
        if (corners.length < 3) throw new ReadError('face-too-few-indices', `f: a face needs 3 vertices, this one has ${corners.length}`, l, start, line.length);
        const list = triangulate(corners, positions.view());
        if (list.concave) concave++;
        for (const [a, b, c] of list.triangles) {
          triangles.pushMany([a, b, c], 3);
          triangleGroup.push(smooth);
          triangleLines.push(l);
        }
        break;
      }
      default:
        // Curves, surfaces, lines, points and display attributes: not meshes.
        break;
    }
  }
  const vertexCount = vertexLines.length;
  if (withNormal > 0 && withNormal < vertexCount) {
    diagnostics.push(lineNote('warning', 'obj-normals-partial', `${vertexCount - withNormal} of the ${vertexCount} vertices have no normal: all normals are computed from the faces (the reference would shift the given ones onto the wrong vertices)`, 0));
  }
  if (concave > 0) diagnostics.push(lineNote('information', 'obj-concave', `${concave} concave faces are split by ear clipping (the reference compiler fans them, which folds them over)`, 0));
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
    positions: positions.copy(),
    texcoords: vertexCount > 0 ? texcoords.copy() : null,
    texcoordWidth: 2,
    normals: withNormal > 0 && withNormal === vertexCount ? normals.copy() : null,
    triangles: triangles.copy(),
    triangleGroup: triangleGroup.copy(),
    triangleLines: triangleLines.copy(),
    groups,
    sections,
  });
  return model;
}

/**
 * Triangles of a face (corners in file order), each written reversed as the reference writes
 * them: a fan (c[k], c[k-1], c[0]) when the face is convex, ear clipping when it is not.
 */
function triangulate(corners: number[], positions: Float64Array): { triangles: [number, number, number][]; concave: boolean } {
  const n = corners.length;
  const fan = (): [number, number, number][] => {
    const out: [number, number, number][] = [];
    for (let k = 2; k < n; k++) out.push([corners[k], corners[k - 1], corners[0]]);
    return out;
  };
  if (n === 3) return { triangles: fan(), concave: false };
  // The face's plane (Newell's normal), and its corners in 2D on the axis plane it faces most.
  let nx = 0, ny = 0, nz = 0;
  for (let i = 0; i < n; i++) {
    const a = 4 * corners[i], b = 4 * corners[(i + 1) % n];
    nx += (positions[a + 1] - positions[b + 1]) * (positions[a + 2] + positions[b + 2]);
    ny += (positions[a + 2] - positions[b + 2]) * (positions[a] + positions[b]);
    nz += (positions[a] - positions[b]) * (positions[a + 1] + positions[b + 1]);
  }
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  const [u, v, sign] = az >= ax && az >= ay ? [0, 1, Math.sign(nz)] : ax >= ay ? [1, 2, Math.sign(nx)] : [2, 0, Math.sign(ny)];
  if (sign === 0) return { triangles: fan(), concave: false };
  const x = corners.map((c) => positions[4 * c + u]);
  const y = corners.map((c) => positions[4 * c + v]);
  const cross = (i: number, j: number, k: number): number => ((x[j] - x[i]) * (y[k] - y[i]) - (y[j] - y[i]) * (x[k] - x[i])) * sign;
  let convex = true;
  for (let i = 0; i < n && convex; i++) if (cross(i, (i + 1) % n, (i + 2) % n) < 0) convex = false;
  if (convex) return { triangles: fan(), concave: false };
  const inside = (p: number, a: number, b: number, c: number): boolean => cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
  const left = corners.map((_, i) => i);
  const out: [number, number, number][] = [];
  let guard = 0;
  while (left.length > 3 && guard++ < n * n) {
    let clipped = false;
    for (let k = 0; k < left.length; k++) {
      const a = left[(k + left.length - 1) % left.length], b = left[k], c = left[(k + 1) % left.length];
      if (cross(a, b, c) <= 0) continue;
      if (left.some((p) => p !== a && p !== b && p !== c && inside(p, a, b, c))) continue;
      out.push([corners[c], corners[b], corners[a]]);
      left.splice(k, 1);
      clipped = true;
      break;
    }
    // A self-intersecting face has no ear: the rest is fanned.
    if (!clipped) break;
  }
  for (let k = 2; k < left.length; k++) out.push([corners[left[k]], corners[left[k - 1]], corners[left[0]]]);
  return { triangles: out, concave: true };
}

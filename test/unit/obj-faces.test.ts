// OBJ faces with holes, as LightWave and other modellers export them: one corner list that runs
// the outline, crosses a bridge edge to a hole's outline, runs that backwards and comes back over
// the bridge (its two ends are visited twice). Generated here in a tilted plane, with one or
// several holes, bridges from the outline and from another hole, near-planar noise, and bridge
// ends that are the same position written as another `v` (and `vt`). Each is read by readObj and
// checked as a triangulation must be: the triangles cover the face exactly once (their areas add
// up to the face's, holes taken out, and points sampled in the plane are in one triangle inside
// the face and in none outside or in a hole), each faces the face's normal and none is degenerate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readObj } from '../../core/obj/reader';
import type { SourceModel } from '../../core/compile/source';

type Point = [number, number];

/**
 * A loop (outline or hole) with `hole` spliced in at its corner `at`: the loop to `at`, the hole
 * from its corner `start` round to `start` again, then back over the bridge to `at`. Corners are
 * point ids; the hole's ids must already run the way it is walked (clockwise for a hole).
 */
function splice(loop: number[], at: number, hole: number[], start: number): number[] {
  const around = [...hole.slice(start), ...hole.slice(0, start), hole[start]];
  return [...loop.slice(0, at + 1), ...around, loop[at], ...loop.slice(at + 1)];
}

/** A circle-like loop of n points around (cx, cy), counter-clockwise; radii alternate when `star`. */
function ring(points: Point[], n: number, cx: number, cy: number, r: number, star = 0, phase = 0): number[] {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const angle = phase + (2 * Math.PI * i) / n;
    const radius = i % 2 ? r - star : r;
    ids.push(points.length);
    points.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]);
  }
  return ids;
}

function shoelace(points: Point[], ids: number[]): number {
  let area = 0;
  for (let i = 0; i < ids.length; i++) {
    const [x0, y0] = points[ids[i]], [x1, y1] = points[ids[(i + 1) % ids.length]];
    area += x0 * y1 - x1 * y0;
  }
  return area / 2;
}

function insideLoop(points: Point[], ids: number[], [px, py]: Point): boolean {
  let inside = false;
  for (let i = 0, j = ids.length - 1; i < ids.length; j = i++) {
    const [xi, yi] = points[ids[i]], [xj, yj] = points[ids[j]];
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

interface Face {
  points: Point[];
  /** The outline, counter-clockwise, and each hole as its own loop (counter-clockwise). */
  outline: number[];
  holes: number[][];
  /** The face's corner list (point ids, bridges visited twice). */
  corners: number[];
}

/** The plane the faces are drawn in: tilted off every axis. */
const ORIGIN = [3, -2, 5];
const E1 = normalize([2, 1, -1]);
const E2 = normalize(crossOf(crossOf(E1, [0.3, 1, 0.5]), E1));
const NORMAL = crossOf(E1, E2);

function normalize(v: number[]): number[] {
  const l = Math.hypot(v[0], v[1], v[2]);
  return v.map((c) => c / l);
}
function crossOf(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/**
 * The OBJ of a face. `noise`: each point moved off the plane by up to that (near-planar);
 * `twins`: a corner that visits a point again is written as a `v` (and `vt`) of its own at the
 * same position, so the bridge's ends coincide in position but not in index.
 */
function objOf(face: Face, options: { noise?: number; twins?: boolean } = {}): string {
  const lines: string[] = [];
  const vertexOf = (id: number): string => {
    const [x, y] = face.points[id];
    const off = (options.noise ?? 0) * Math.sin(1.7 * x + 2.3 * y);
    return `v ${[0, 1, 2].map((k) => ORIGIN[k] + x * E1[k] + y * E2[k] + off * NORMAL[k]).join(' ')}`;
  };
  face.points.forEach((_, id) => {
    lines.push(vertexOf(id));
    lines.push(`vt ${id / face.points.length} 0`);
  });
  const seen = new Set<number>();
  const words = face.corners.map((id) => {
    if (!options.twins || !seen.has(id)) {
      seen.add(id);
      return `${id + 1}/${id + 1}`;
    }
    // The same position again under a new index (and its own texture coordinate: a seam).
    lines.push(vertexOf(id));
    lines.push(`vt ${id / face.points.length} 1`);
    return `${lines.length / 2}/${lines.length / 2}`;
  });
  lines.push(`f ${words.join(' ')}`);
  return lines.join('\n') + '\n';
}

/** The face's plane coordinates of a vertex of the read model (positions are the file's (z, x, y)). */
function planar(model: SourceModel, vertex: number): Point {
  const p = model.positions;
  const file = [p[4 * vertex + 1] - ORIGIN[0], p[4 * vertex + 2] - ORIGIN[1], p[4 * vertex] - ORIGIN[2]];
  return [file[0] * E1[0] + file[1] * E1[1] + file[2] * E1[2], file[0] * E2[0] + file[1] * E2[1] + file[2] * E2[2]];
}

/** Twice the signed area of (a, b, c). */
function area2([ax, ay]: Point, [bx, by]: Point, [cx, cy]: Point): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Reads the face's OBJ and checks its triangles are an exact triangulation of the face. */
function assertTriangulates(face: Face, options: { noise?: number; twins?: boolean } = {}): void {
  const text = objOf(face, options);
  const read = readObj(text);
  assert.ok(read.model, JSON.stringify(read.diagnostics));
  assert.deepEqual(read.diagnostics.filter((d) => d.severity !== 'information').map((d) => d.message), []);
  const model = read.model;
  const faceArea = shoelace(face.points, face.outline) - face.holes.reduce((sum, hole) => sum + shoelace(face.points, hole), 0);
  // The file's triangles are written reversed (as the reference writes them): (c, b, a) faces as the face does.
  const triangles: [Point, Point, Point][] = [];
  for (let t = 0; t < model.triangles.length; t += 3) triangles.push([planar(model, model.triangles[t + 2]), planar(model, model.triangles[t + 1]), planar(model, model.triangles[t])]);
  // A polygon of V points and h holes has V + 2h - 2 triangles: the corners (V + 2h) less two.
  assert.equal(triangles.length, face.corners.length - 2, 'triangles');
  let sum = 0;
  triangles.forEach(([a, b, c], t) => {
    const doubled = area2(a, b, c);
    // Faces the normal (a backwards triangle has a negative area) and is not degenerate.
    assert.ok(doubled > 1e-9 * faceArea, `triangle ${t} has area ${doubled / 2} (of the face's ${faceArea})`);
    sum += doubled / 2;
  });
  assert.ok(Math.abs(sum - faceArea) <= 1e-9 * faceArea, `the triangles' area ${sum} ≠ the face's ${faceArea} (${(sum / faceArea).toFixed(2)}x)`);
  // Exactly once inside, never outside or in a hole: sampled on a grid over the face's bounds.
  const xs = face.outline.map((id) => face.points[id][0]), ys = face.outline.map((id) => face.points[id][1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let sampled = 0;
  for (let i = 0; i < 60; i++) {
    for (let j = 0; j < 60; j++) {
      const p: Point = [x0 + ((x1 - x0) * (i + 0.37)) / 60, y0 + ((y1 - y0) * (j + 0.61)) / 60];
      let count = 0, onEdge = false;
      for (const [a, b, c] of triangles) {
        const w = [area2(a, b, p), area2(b, c, p), area2(c, a, p)];
        if (w.some((v) => Math.abs(v) < 1e-9)) onEdge = true;
        if (w.every((v) => v > 0)) count++;
      }
      if (onEdge) continue;
      const expected = insideLoop(face.points, face.outline, p) && !face.holes.some((hole) => insideLoop(face.points, hole, p)) ? 1 : 0;
      assert.equal(count, expected, `the point (${p[0].toFixed(3)}, ${p[1].toFixed(3)}) is in ${count} triangles`);
      sampled++;
    }
  }
  assert.ok(sampled > 3000, `${sampled} points sampled`);
}

/** A cog-shaped outline of `n` corners (concave) with holes of `m` corners on rays from the centre. */
function cog(n: number, holes: { angle: number; radius: number; size: number; m: number }[]): Face {
  const points: Point[] = [];
  const outline = ring(points, n, 0, 0, 10, 2);
  let corners = outline;
  const loops: number[][] = [];
  for (const h of holes) {
    // The hole's corner 0 faces the outline's corner at the same angle, where the bridge runs.
    const hole = ring(points, h.m, h.radius * Math.cos(h.angle), h.radius * Math.sin(h.angle), h.size, 0, h.angle);
    loops.push(hole);
    const at = corners.indexOf(outline[Math.round((h.angle / (2 * Math.PI)) * n) % n]);
    corners = splice(corners, at, [...hole].reverse(), h.m - 1);
  }
  return { points, outline, holes: loops, corners };
}

test('OBJ: a concave face with a hole joined by a bridge (66 corners, as LightWave writes it) is triangulated exactly, not folded', () => {
  const face = cog(32, [{ angle: 0, radius: 4, size: 3, m: 32 }]);
  assert.equal(face.corners.length, 66);
  assertTriangulates(face);
});

test('OBJ: a face with several bridged holes, one bridged from another hole, and a square with a square hole', () => {
  assertTriangulates(cog(24, [{ angle: 0, radius: 5, size: 2, m: 6 }, { angle: Math.PI / 2, radius: 5, size: 2.5, m: 9 }, { angle: (5 * Math.PI) / 4, radius: 5.5, size: 1.5, m: 4 }]));
  // A hole bridged from a corner of another hole (a chain: outline -> hole 1 -> hole 2).
  const points: Point[] = [[0, 0], [12, 0], [12, 8], [0, 8]];
  const h1 = ring(points, 4, 9, 4, 1.5, 0, Math.PI), h2 = ring(points, 5, 4, 4, 1.5);
  // h1's corner 0 faces left, to h2's corner 0 (facing right); the outline's corner 1 bridges to h1's corner 1 (its lowest).
  const h1walk = splice([...h1].reverse(), 3, [...h2].reverse(), 4);
  const corners = splice([0, 1, 2, 3], 1, h1walk, h1walk.indexOf(h1[1]));
  assertTriangulates({ points, outline: [0, 1, 2, 3], holes: [h1, h2], corners });
  // The plainest: a square with a square hole.
  const sq: Point[] = [[0, 0], [4, 0], [4, 4], [0, 4], [1, 1], [3, 1], [3, 3], [1, 3]];
  assertTriangulates({ points: sq, outline: [0, 1, 2, 3], holes: [[4, 5, 6, 7]], corners: splice([0, 1, 2, 3], 0, [7, 6, 5, 4], 3) });
});

test('OBJ: a bridged face off its plane by a little (non-planar), and one whose bridge ends coincide in position but not in index', () => {
  const face = cog(32, [{ angle: 0, radius: 4, size: 3, m: 32 }, { angle: Math.PI, radius: 6, size: 1.5, m: 7 }]);
  assertTriangulates(face, { noise: 0.01 });
  assertTriangulates(face, { twins: true });
  assertTriangulates(face, { twins: true, noise: 0.01 });
});

/** A warning's [code, 1-based line, 1-based columns] and message. */
function warnings(text: string): [string, number, number, number, string][] {
  const read = readObj(text);
  assert.ok(read.model, JSON.stringify(read.diagnostics));
  return read.diagnostics.filter((d) => d.severity === 'warning').map((d) => [d.code, d.range.line + 1, d.range.column + 1, d.range.endColumn + 1, d.message]);
}

/** Twice the signed areas, in the file's x-y plane, of a read model's triangles as the face runs (the file writes them reversed). */
function facing(text: string): number[] {
  const model = readObj(text).model!;
  const p = model.positions, t = model.triangles;
  const out: number[] = [];
  // Positions are the file's (z, x, y): the file's x and y are [1] and [2].
  for (let i = 0; i < t.length; i += 3) out.push(area2([p[4 * t[i + 2] + 1], p[4 * t[i + 2] + 2]], [p[4 * t[i + 1] + 1], p[4 * t[i + 1] + 2]], [p[4 * t[i] + 1], p[4 * t[i] + 2]]));
  return out;
}

test('OBJ: a face whose outline crosses itself has no triangulation: a warning at its line and the crossing corners, and no triangle of it faces backwards', () => {
  // The edge from (4, 0) to (0, 4) crosses the edge from (2, 6) back to (0, 0).
  const crossed = 'v 0 0 0\nv 4 0 0\nv 0 4 0\nv 4 4 0\nv 2 6 0\n# crossed\nf 1 2 3 4 5\n';
  const [warning] = warnings(crossed);
  assert.deepEqual(warning.slice(0, 4), ['obj-face-crossed', 7, 5, 12]);
  assert.match(warning[4], /^f: this face cannot be triangulated: its outline crosses itself \(the edge from corner 2 to 3 crosses the edge from corner 5 to 1\); written: 2 triangles facing its normal; left out: the part of 3 corners where no more can be cut$/);
  // The reference's fan of it folds: (1 2 3) and (1 4 5) face one way, (1 3 4) the other.
  assert.ok(facing(crossed).every((a) => a > 0), JSON.stringify(facing(crossed)));
  // A pentagram turns one way all round (as a convex face does) but goes round twice.
  const star = [0, 2, 4, 1, 3].map((k) => `v ${Math.cos((2 * Math.PI * k) / 5)} ${Math.sin((2 * Math.PI * k) / 5)} 0`).join('\n') + '\nf 1 2 3 4 5\n';
  assert.deepEqual(warnings(star).map((w) => w.slice(0, 4)), [['obj-face-crossed', 6, 3, 10]]);
  assert.ok(facing(star).every((a) => a > 0));
  // A figure of eight through one corner visited twice: the right loop runs the other way round.
  const eight = 'v 0 0 0\nv 2 1 0\nv 2 -1 0\nv -3 2 0\nv -3 -2 0\nf 1 2 3 1 4 5\n';
  assert.deepEqual(warnings(eight).map((w) => w.slice(0, 4)), [['obj-face-crossed', 6, 1, 14]]);
  assert.match(warnings(eight)[0][4], /part of its outline runs the other way round .*; written: 1 triangle facing its normal; left out: the part of 3 corners where no more can be cut$/);
  assert.ok(facing(eight).every((a) => a > 0));
});

test('OBJ: faces that cannot be triangulated warn each at its line up to 20, then once for the rest', () => {
  const lines = ['v 0 0 0', 'v 4 0 0', 'v 0 4 0', 'v 4 4 0', 'v 2 6 0'];
  for (let i = 0; i < 25; i++) lines.push('f 1 2 3 4 5');
  const found = warnings(lines.join('\n') + '\n');
  assert.deepEqual(found.slice(0, 20).map((w) => w[1]), Array.from({ length: 20 }, (_, i) => 6 + i));
  assert.deepEqual(found.slice(20).map((w) => [w[0], w[1], w[4]]), [['obj-face-crossed', 26, '5 more faces cannot be triangulated (their outlines cross themselves), the first here: each is written as far as it can be without folding']]);
});

test('OBJ: a convex face whose positions overflow (cross products of NaN) is fanned as before, without a warning that it crosses itself', () => {
  const huge = [0, 1, 2, 3, 4].map((k) => `v ${1e300 * Math.cos((2 * Math.PI * k) / 5)} ${1e300 * Math.sin((2 * Math.PI * k) / 5)} 0`).join('\n') + '\nf 1 2 3 4 5\n';
  assert.deepEqual(warnings(huge), []);
  assert.equal(readObj(huge).model!.triangles.length, 9);
});

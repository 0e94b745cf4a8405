// The reference compiler's bugs (IQE-SEMANTICS.md §6, B1-B16): small inputs showing that our
// compiler does what §6 calls correct. Plus the command-line options of §1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IqeDocument } from '../../core/iqe/document';
import { byteRows, compileDocument, compileText, expectedAdjacency, floatRows, IQE_HEADER, readString } from '../helpers/compile-iqm';

const NONE = 0xffffffff;
const quad = 'vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 1 1 0\n';

function near(a: readonly number[], b: readonly number[], eps = 1e-6): boolean {
  return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= eps);
}

test('B1: adjacency across a shared edge, open edges and non-manifold edges', () => {
  const { file } = compileText(IQE_HEADER + 'mesh m\n' + quad + 'fa 0 1 2\nfa 2 1 3\n');
  const adj = [...file.adjacency];
  assert.equal(adj.filter((v) => v === 1).length, 1, 'triangle 0 sees triangle 1 once');
  assert.equal(adj.filter((v) => v === 0).length, 1, 'triangle 1 sees triangle 0 once');
  assert.equal(adj.filter((v) => v === NONE).length, 4, 'four open edges');
  // Entry k is the edge from corner k to corner k+1: those corners are the shared vertices.
  const pos = floatRows(file, 0);
  for (let t = 0; t < 2; t++) {
    const k = adj.slice(3 * t, 3 * t + 3).findIndex((v) => v !== NONE);
    const a = pos[file.triangles[3 * t + k]], b = pos[file.triangles[3 * t + ((k + 1) % 3)]];
    const shared = [JSON.stringify([1, 0, 0]), JSON.stringify([0, 1, 0])];
    assert.deepEqual([JSON.stringify(a), JSON.stringify(b)].sort(), shared.sort());
  }
  // Three triangles on one edge: non-manifold, no neighbours there.
  const three = compileText(IQE_HEADER + 'mesh m\n' + quad + 'vp 0.5 0.5 1\nfa 0 1 2\nfa 1 0 3\nfa 0 1 4\n').file;
  assert.deepEqual([...three.adjacency], new Array(9).fill(NONE));
  // A UV seam splits vertices but not the edge; different blend data does split it.
  const seam = IQE_HEADER + 'mesh m\n' + 'vp 0 0 0\nvt 0 0\nvp 1 0 0\nvt 1 0\nvp 0 1 0\nvt 0 1\nvp 1 0 0\nvt 5 5\nvp 0 1 0\nvt 6 6\nvp 1 1 0\nvt 1 1\n' + 'fa 0 1 2\nfa 4 3 5\n';
  const seamFile = compileText(seam).file;
  assert.equal(seamFile.header.num_vertexes, 6);
  assert.equal([...seamFile.adjacency].filter((v) => v !== NONE).length, 2);
  assert.deepEqual([...seamFile.adjacency], [...expectedAdjacency(seamFile)]);
  const blended = IQE_HEADER + 'joint a\njoint b 0\npq 0 0 0 0 0 0 -1\npq 0 0 0 0 0 0 -1\nmesh m\n' +
    'vp 0 0 0\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nvp 1 0 0\nvb 1 1\nvp 0 1 0\nvb 1 1\nvp 1 1 0\nvb 1 1\nfa 0 1 2\nfa 4 3 5\n';
  assert.deepEqual([...compileText(blended).file.adjacency], new Array(6).fill(NONE));
});

test('B2: explicit tangents follow their source vertex and are part of the vertex key', () => {
  // Faces in reverse order: the vertex cache emits vertex 3 first.
  const iqe = IQE_HEADER + 'mesh m\n' +
    'vp 0 0 0\nvn 0 0 1\nvx 1 0 0 1\n' +
    'vp 1 0 0\nvn 0 0 1\nvx 0 1 0 -1\n' +
    'vp 0 1 0\nvn 0 0 1\nvx 0.6 0.8 0 1\n' +
    'vp 1 1 0\nvn 0 0 1\nvx 0.8 0.6 0 -1\n' +
    'fa 3 2 1\nfa 2 0 1\n';
  const { file } = compileText(iqe);
  const pos = floatRows(file, 0), tan = floatRows(file, 3);
  const expected: Record<string, number[]> = {
    '0,0,0': [1, 0, 0, 1], '1,0,0': [0, 1, 0, -1], '0,1,0': [0.6, 0.8, 0, 1], '1,1,0': [0.8, 0.6, 0, -1],
  };
  assert.deepEqual(pos[0], [1, 1, 0], 'output order differs from input order');
  pos.forEach((p, i) => assert.ok(near(tan[i], expected[p.join(',')]), `vertex ${p}: ${tan[i]}`));
  // Two vertices equal but for vx stay apart.
  const twin = IQE_HEADER + 'mesh m\n' + 'vp 0 0 0\nvn 0 0 1\nvx 1 0 0 1\nvp 0 0 0\nvn 0 0 1\nvx 0 1 0 1\nvp 1 0 0\nvn 0 0 1\nvx 1 0 0 1\nvp 0 1 0\nvn 0 0 1\nvx 1 0 0 1\nfa 0 2 3\nfa 1 2 3\n';
  assert.equal(compileText(twin).file.header.num_vertexes, 4);
  // 6-value form: w from (n x t) . b of the same vertex.
  const six = IQE_HEADER + 'mesh m\n' + 'vp 0 0 0\nvn 0 0 1\nvx 1 0 0 0 1 0\nvp 1 0 0\nvn 0 0 1\nvx 1 0 0 0 -1 0\nvp 0 1 0\nvn 0 0 1\nvx 1 0 0 0 1 0\nfa 0 1 2\n';
  const sixFile = compileText(six).file;
  const sixPos = floatRows(sixFile, 0), sixTan = floatRows(sixFile, 3);
  sixPos.forEach((p, i) => assert.equal(sixTan[i][3], p[0] === 1 ? -1 : 1, `w of ${p}`));
});

test('B3: a repeated (mesh, material) section keeps its triangles', () => {
  const iqe = IQE_HEADER + quad + 'vp 2 0 0\nvp 2 1 0\n' +
    'mesh A\nmaterial M\nfa 0 1 2\nmesh B\nfa 1 3 2\nmesh A\nfa 1 4 3\nmaterial N\nfa 3 4 5\nmaterial M\nfa 0 2 5\n';
  const { file } = compileText(iqe);
  assert.deepEqual(file.meshes.map((m) => [m.name, m.material, m.triangleCount]), [['A', 'M', 3], ['B', 'M', 1], ['A', 'N', 1]]);
  assert.equal(file.header.num_triangles, 5);
});

// Two triangles folded 90 degrees along the edge (1,0,0)-(0,1,0); `shared` reuses the edge's vertices.
function fold(prefix: string, shared: boolean, vs?: [number, number]): string {
  const v = (p: string, s: number): string => `vp ${p}\n` + (vs ? `vs ${s}\n` : '');
  const a = vs ? vs[0] : 0, b = vs ? vs[1] : 0;
  if (shared) return IQE_HEADER + 'mesh m\n' + prefix + v('0 0 0', a) + v('1 0 0', a) + v('0 1 0', a) + v('1 1 1.4142135623730951', b) + 'fa 0 1 2\nfa 2 1 3\n';
  return IQE_HEADER + 'mesh m\n' + prefix + v('0 0 0', a) + v('1 0 0', a) + v('0 1 0', a) + v('0 1 0', b) + v('1 0 0', b) + v('1 1 1.4142135623730951', b) + 'fa 0 1 2\nfa 3 4 5\n';
}

test('B4: vs compares the vs values of the corners\' own vertices', () => {
  // Every vertex of triangle 1 has vs 1 and every vertex of triangle 2 vs 2: not smoothed (the
  // reference compares vertices 0..2 by corner slot, all 1, and smooths).
  assert.equal(compileText(fold('', false, [1, 2])).file.header.num_vertexes, 6);
  assert.equal(compileText(fold('', false, [1, 1])).file.header.num_vertexes, 4);
  assert.equal(compileText(fold('', false)).file.header.num_vertexes, 4);
});

test('B5: smoothangle is a limit on the angle between faces: 180 and none smooth, 120 smooths 90', () => {
  // The fold's faces are 90 degrees apart.
  assert.equal(compileText(fold('', true)).file.header.num_vertexes, 4, 'no smoothangle: no limit');
  assert.equal(compileText(fold('smoothangle 180\n', true)).file.header.num_vertexes, 4, '180: no limit');
  assert.equal(compileText(fold('smoothangle 120\n', true)).file.header.num_vertexes, 4, '120 smooths 90');
  assert.equal(compileText(fold('smoothangle 60\n', true)).file.header.num_vertexes, 6, '60 keeps 90 faceted');
  assert.equal(compileText(fold('smoothangle 0\n', true)).file.header.num_vertexes, 6, '0 is faceted');
  const normals = floatRows(compileText(fold('smoothangle 120\n', true)).file, 2);
  assert.ok(normals.some((n) => near(n, [0.5, 0.5, Math.SQRT1_2].map(Math.fround), 1e-6) || n[0] !== 0), 'averaged normals at the edge');
});

function jointPose(file: ReturnType<typeof compileText>['file'], j: number): number[] {
  const o = file.header.ofs_joints + 48 * j;
  const out: number[] = [];
  for (let k = 0; k < 10; k++) out.push(file.view.getFloat32(o + 8 + 4 * k, true));
  return out;
}

const triangle = 'mesh m\nvp 0 0 0\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfa 0 1 2\n';

test('B6: quaternions clearly off unit length are normalised; near-unit ones are kept exactly', () => {
  const { file, result } = compileText(IQE_HEADER + 'joint a\npq 0 0 0 0 0 0 2\n' + triangle);
  const pose = jointPose(file, 0);
  assert.deepEqual(pose.slice(3, 7), [-0, -0, -0, -1]);
  assert.ok(Object.is(pose[3], -0));
  assert.ok(result.diagnostics.some((d) => d.code === 'quaternion-not-unit'));
  const kept = compileText(IQE_HEADER + 'joint a\npq 0 0 0 0 0 0 1.00001\n' + triangle).file;
  assert.equal(jointPose(kept, 0)[6], Math.fround(-1.00001));
  const restored = compileText(IQE_HEADER + 'joint a\npq 0 0 0 1 0 0\n' + triangle).file;
  assert.ok(Object.is(jointPose(restored, 0)[6], -0), 'restorew of a unit xyz gives -0');
});

test('B7: the vertex-cache pass never drops a triangle (random soup)', () => {
  let seed = 12345;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const vertices = 3000;
  const faces = 20000;
  let iqe = IQE_HEADER + 'mesh soup\n';
  for (let i = 0; i < vertices; i++) iqe += `vp ${i % 97} ${Math.floor(i / 97)} ${i % 13}\nvn 0 0 1\n`;
  const want = new Set<string>();
  for (let t = 0; t < faces; t++) {
    const a = random(vertices);
    let b = random(vertices);
    while (b === a) b = random(vertices);
    let c = random(vertices);
    while (c === a || c === b) c = random(vertices);
    iqe += `fa ${a} ${b} ${c}\n`;
    want.add([a, b, c].join(' '));
  }
  const { file } = compileText(iqe);
  assert.equal(file.header.num_triangles, faces);
  // Every input triangle is there (identified by its corner positions, corner order kept up to rotation).
  const pos = floatRows(file, 0);
  const index = (p: number[]): number => p[0] + 97 * p[1];
  const got = new Set<string>();
  for (let t = 0; t < faces; t++) got.add([0, 1, 2].map((k) => index(pos[file.triangles[3 * t + k]])).join(' '));
  for (const w of want) assert.ok(got.has(w), `triangle ${w} written`);
});

test('B8: degenerate texture coordinates give a usable tangent, not NaN', () => {
  const iqe = IQE_HEADER + 'mesh m\n' + 'vp 0 0 0\nvt 0 0\nvp 1 0 0\nvt 0 0\nvp 0 1 0\nvt 0 0\nfa 0 1 2\n';
  const { file, result } = compileText(iqe);
  for (const t of floatRows(file, 3)) {
    assert.ok(t.every(Number.isFinite));
    assert.equal(t[3], 1);
  }
  const n = floatRows(file, 2)[0];
  assert.deepEqual(n, [0, 0, -1]);
  assert.deepEqual(floatRows(file, 3)[0], [1, 0, 0, 1]);
  assert.equal(result.stats.tangentFallbacks, 3);
  assert.ok(result.diagnostics.some((d) => d.code === 'degenerate-uv' && d.severity === 'information'));
  // With a good triangle first, the note points at the `vp` of the first vertex that fell back.
  const two = IQE_HEADER + 'mesh m\n' + 'vp 0 0 0\nvt 0 0\nvp 1 0 0\nvt 1 0\nvp 0 1 0\nvt 0 1\n' + 'vp 5 0 0\nvt 0 0\nvp 6 0 0\nvt 0 0\nvp 5 1 0\nvt 0 0\nfa 0 1 2\nfa 3 4 5\n';
  const notes = compileText(two).result.notes.filter((d) => d.code === 'degenerate-uv');
  assert.equal(notes.length, 1);
  assert.equal(notes[0].range.line, two.split('\n').indexOf('vp 5 0 0'));
  assert.match(notes[0].message, /^3 generated tangents .* input vertex 3 /);
});

function anims(file: ReturnType<typeof compileText>['file']): { name: string; first: number; count: number; rate: number; flags: number }[] {
  const out = [];
  for (let i = 0; i < file.header.num_anims; i++) {
    const o = file.header.ofs_anims + 20 * i;
    const v = file.view;
    out.push({ name: readString(file.text, v.getUint32(o, true)), first: v.getUint32(o + 4, true), count: v.getUint32(o + 8, true), rate: v.getFloat32(o + 12, true), flags: v.getUint32(o + 16, true) });
  }
  return out;
}

const skeletonWithFrames = (frames: number): string => {
  let s = IQE_HEADER + 'joint a\npq 0 0 0 0 0 0 -1\n' + triangle + 'animation run\nframerate 10\n';
  for (let f = 0; f < frames; f++) s += `frame\npq ${f} 0 0 0 0 0 -1\n`;
  return s;
};

test('B9: an animation without poses has no frames and takes none from the next', () => {
  const iqe = IQE_HEADER + 'joint a\npq 0 0 0 0 0 0 -1\nanimation empty\nanimation full\nframe\npq 0 0 0 0 0 0 -1\nframe\npq 1 0 0 0 0 0 -1\n';
  const { file } = compileText(iqe);
  assert.deepEqual(anims(file).map((a) => [a.name, a.first, a.count]), [['empty', 0, 0], ['full', 0, 2]]);
  assert.equal(file.header.num_frames, 2);
});

test('B10: a joint without a base pose gets the identity', () => {
  const { file } = compileText(IQE_HEADER + 'joint a\njoint b 0\npq 1 2 3 0 0 0 -1\n' + triangle);
  assert.deepEqual(jointPose(file, 0), [1, 2, 3, 0, 0, 0, -1, 1, 1, 1]);
  assert.deepEqual(jointPose(file, 1), [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
});

test('B11: long lines are read whole', () => {
  const name = 'J'.repeat(600);
  const { file } = compileText(IQE_HEADER + `joint "${name}" -1\npq 0 0 0 0 0 0 -1\nmesh m\nvp${' '.repeat(600)}5 6 7\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfa 0 1 2\n`);
  assert.equal(readString(file.text, file.view.getUint32(file.header.ofs_joints, true)), name);
  assert.equal(file.view.getInt32(file.header.ofs_joints + 4, true), -1);
  assert.ok(floatRows(file, 0).some((p) => p.join(',') === '5,6,7'));
});

test('B12: an unterminated quote ends at the end of the line', () => {
  const { file } = compileText(IQE_HEADER + 'mesh "abc\r\nmaterial "x y\n' + quad + 'fa 0 1 2\n');
  assert.equal(file.meshes[0].name, 'abc');
  assert.equal(file.meshes[0].material, 'x y');
});

test('B13: a vertexarray with an unknown format is ignored', () => {
  const { file, result } = compileText(IQE_HEADER + 'vertexarray normal bogus 3\n' + 'mesh m\n' + quad + 'fa 0 1 2\n');
  const normal = file.arrays.find((a) => a.type === 2)!;
  assert.deepEqual([normal.format, normal.size], [7, 3]);
  assert.ok(result.diagnostics.some((d) => d.code === 'vertexarray-format'));
});

test('B14: components beyond an attribute\'s width are 0; declared formats are used', () => {
  const { file } = compileText(IQE_HEADER + 'vertexarray normal float 4\nvertexarray texcoord half 4\n' + 'mesh m\n' + 'vp 0 0 0\nvt 0.5 0.25\nvp 1 0 0\nvt 1 0\nvp 0 1 0\nvt 0 1\nfa 0 1 2\n');
  const normal = file.arrays.find((a) => a.type === 2)!;
  assert.equal(normal.size, 4);
  for (const n of floatRows(file, 2)) assert.deepEqual(n, [0, 0, -1, 0]);
  const tex = file.arrays.find((a) => a.type === 1)!;
  assert.deepEqual([tex.format, tex.size], [6, 4]);
  const rows = byteRows(file, 1);
  assert.ok(rows.some((r) => r.join(',') === [0x00, 0x38, 0x00, 0x34, 0, 0, 0, 0].join(',')), 'half 0.5, 0.25, 0, 0');
});

test('B14: texture coordinates with more than two values keep them, and vertices that differ only there stay apart', () => {
  // Most files have two values per vt; then the compiler keeps pairs (half the memory). One line
  // with three or four values keeps all four per vertex.
  const body = 'vp 0 0 0\nvt 0.5 0.25\nvp 1 0 0\nvt 1 0 0.75\nvp 0 1 0\nvt 0 1 0 0.5\nvp 0 0 0\nvt 0.5 0.25 0.125\nfa 0 1 2\nfa 3 1 2\n';
  const { file } = compileText(IQE_HEADER + 'vertexarray texcoord float 4\nmesh m\n' + body);
  const rows = floatRows(file, 1).map((r) => r.join(','));
  for (const row of ['0.5,0.25,0,0', '1,0,0.75,0', '0,1,0,0.5', '0.5,0.25,0.125,0']) assert.ok(rows.includes(row), `texcoord ${row} in ${rows.join(' | ')}`);
  assert.equal(file.header.num_vertexes, 4, 'vertex 3 differs from vertex 0 in its third texcoord value only');
  // The same file with two values per line: vertices 0 and 3 are one.
  const pairs = compileText(IQE_HEADER + 'vertexarray texcoord float 4\nmesh m\n' + body.replace(/^(vt \S+ \S+).*$/gm, '$1')).file;
  assert.equal(pairs.header.num_vertexes, 3);
  assert.deepEqual(floatRows(pairs, 1).map((r) => r.join(',')).sort(), ['0,1,0,0', '0.5,0.25,0,0', '1,0,0,0']);
});

test('B15: bounds cover the written vertices only (unweighted ones at the origin)', () => {
  const iqe = skeletonWithFrames(1).replace('fa 0 1 2\n', 'vp 100 0 0\nvb 0 1\nfa 0 1 2\n');
  const { file } = compileText(iqe);
  const o = file.header.ofs_bounds;
  const bounds = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => file.view.getFloat32(o + 4 * k, true));
  assert.deepEqual(bounds, [0, 0, 0, 1, 1, 0, 1, 1]);
  const unweighted = compileText(skeletonWithFrames(1).replace('vp 0 0 0\nvb 0 1\n', 'vp 2 2 0\nvb\n')).file;
  const ub = [0, 1, 2, 3, 4, 5].map((k) => unweighted.view.getFloat32(unweighted.header.ofs_bounds + 4 * k, true));
  assert.deepEqual(ub, [0, 0, 0, 1, 1, 0]);
});

test('B16: undefined behaviour in the reference is an error here, and nothing is compiled', () => {
  const cases: [string, string][] = [
    [IQE_HEADER + 'mesh m\n' + quad + 'fa 0 1 9\n', 'face-index-range'],
    [IQE_HEADER + 'mesh m\n' + quad + 'vt 0 0\nfa 0 1 2\n', 'attribute-count'],
    [IQE_HEADER + 'joint a 1\njoint b 0\n' + triangle, 'joint-parent'],
    [IQE_HEADER + 'joint a\npq 0 0 0 0 0 0 -1\nmesh m\nvp 0 0 0\nvb 3 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfa 0 1 2\n', 'blend-joint-range'],
    [IQE_HEADER + 'joint a\npm 0 0 0 0 0 0 0 1 0 0 0 1\n' + triangle, 'pm-degenerate'],
    ['mesh m\n' + quad + 'fa 0 1 2\n', 'header'],
  ];
  for (const [text, code] of cases) {
    const result = compileDocument(new IqeDocument(text));
    assert.equal(result.bytes, undefined, code);
    assert.ok(result.diagnostics.some((d) => d.code === code && d.severity === 'error'), `${code}: ${result.diagnostics.map((d) => d.code).join(', ')}`);
  }
});

test('options: -s scales positions and pose translations, -t with one value moves along Z', () => {
  const base = skeletonWithFrames(2).replace('pq 0 0 0 0 0 0 -1\nmesh', 'pq 1 0 0 0 0 0 -1\nmesh');
  const scaled = compileText(base, { scale: 2, translate: [0, 0, 5] }).file;
  assert.deepEqual(floatRows(scaled, 0).map((p) => p.join(',')).sort(), ['0,0,5', '0,2,5', '2,0,5']);
  assert.equal(jointPose(scaled, 0)[0], 2);
  const rotated = compileText(IQE_HEADER + 'mesh m\n' + quad + 'fa 0 1 2\n', { rotate: [[0, 0, 90]] }).file;
  assert.ok(floatRows(rotated, 0).some((p) => near(p, [0, 1, 0])), 'X axis rotated onto Y');
});

test('options: --name, --fps, --loop, --start, --end on a file with one animation', () => {
  const iqe = skeletonWithFrames(5);
  const get = (options: Parameters<typeof compileText>[1]): { name: string; count: number; rate: number; flags: number } => anims(compileText(iqe, options).file)[0];
  assert.deepEqual(get({}), { name: 'run', first: 0, count: 5, rate: 10, flags: 0 });
  const renamed = get({ name: 'walk', fps: 30, loop: true });
  assert.deepEqual([renamed.name, renamed.rate, renamed.flags], ['walk', 30, 1]);
  assert.equal(get({ fps: -1 }).rate, 10, 'fps <= 0 is ignored');
  assert.equal(get({ end: 1 }).count, 2, '--end 1: frames 0..1');
  assert.equal(get({ end: -2 }).count, 5, '--end -2 keeps everything');
  assert.equal(get({ end: -3 }).count, 4, '--end -3 drops the last frame');
  assert.equal(get({ start: 1, end: 1 }).count, 1, '--end counts from the first frame, before --start');
  assert.equal(get({ start: 9 }).count, 0, 'start out of range: 0 frames');
  const first = compileText(iqe, { start: 2 }).file;
  assert.equal(first.header.num_frames, 3);
  // With two animations the options are ignored, with a warning.
  const two = iqe + 'animation other\nframe\npq 0 0 0 0 0 0 -1\n';
  const { result, file } = compileText(two, { name: 'x', end: 0 });
  assert.deepEqual(anims(file).map((a) => [a.name, a.count]), [['run', 5], ['other', 1]]);
  const ignored = result.diagnostics.filter((d) => d.code === 'cli-option-ignored');
  assert.equal(ignored.length, 1);
  assert.equal(ignored[0].severity, 'warning');
  // At the second animation's command word.
  const line = two.split('\n').indexOf('animation other');
  assert.deepEqual(ignored[0].range, { line, column: 0, endLine: line, endColumn: 'animation'.length });
});

test('options: what the reference ignores or empties silently is noted at the animation line', () => {
  const iqe = skeletonWithFrames(5);
  const animationLine = iqe.split('\n').findIndex((l) => l.startsWith('animation'));
  const notesOf = (options: Parameters<typeof compileText>[1]): { code: string; message: string; line: number }[] =>
    compileText(iqe, options).result.notes.map((d) => ({ code: d.code, message: d.message, line: d.range.line }));
  assert.deepEqual(notesOf({ fps: 30, start: 1, end: 2 }), [], 'options that apply make no note');
  const fps = notesOf({ fps: -5 });
  assert.deepEqual(fps.map((n) => [n.code, n.line]), [['cli-option-ignored', animationLine]]);
  assert.match(fps[0].message, /--fps -5 is ignored.*the file's 10 stays/);
  for (const options of [{ start: 9 }, { start: 3, end: 1 }]) {
    const empty = notesOf(options);
    assert.deepEqual(empty.map((n) => [n.code, n.line]), [['animation-empty', animationLine]], JSON.stringify(options));
    assert.match(empty[0].message, /no frame of the animation's 5 \(0\.\.4\) is within --start/);
  }
});

test('a joint parent below the int32 range is written as -1 (a root), not wrapped into an index past the joints (found by the CI fuzz)', async () => {
  const { readModel } = await import('../../core/formats/models');
  const { file, result } = compileText(
    [IQE_HEADER, 'joint "a" -1', 'joint "b" 0', 'joint "c" -2147483649', 'joint "d" -2', 'mesh "m"', 'vp 0 0 0', 'vb 0 1', 'vp 1 0 0', 'vb 1 1', 'vp 0 1 0', 'vb 2 1', 'fm 0 1 2', ''].join('\n'),
  );
  assert.ok(result.diagnostics.some((d) => d.code === 'joint-parent-negative' && /does not fit in 32 bits/.test(d.message)));
  // Our own reader checks every parent: before the fix it refused the file (parent 2147483647 ≥ 4 joints).
  assert.equal(readModel(file.bytes).skeleton?.names.length, 4);
  // The stored parents (iqmjoint: name, then parent as int32; 48 bytes each): in range, a negative
  // parent is written as given, as the reference writes it.
  const stored = [0, 1, 2, 3].map((j) => file.view.getInt32(file.header.ofs_joints + 48 * j + 4, true));
  assert.deepEqual(stored, [-1, 0, -1, -2]);
});

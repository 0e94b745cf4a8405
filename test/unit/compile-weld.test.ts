// core/compile/smooth.ts and classify.ts (with their WebAssembly kernels, which must give the
// JavaScript's results exactly) and weldLargeGroup: the components of a large group of corners at one
// position are those of testing every pair (the loop it replaced where a vertex is shared by
// thousands of triangles, whose time grew with the square of their number).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { weldCorners, weldKernelAvailable, weldLargeGroup } from '../../core/compile/smooth';
import { emptySourceModel } from '../../core/compile/source';
import { setWasmEnabled } from '../../core/wasm';
import { classifyKernelAvailable, classifyRows } from '../../core/compile/classify';
import { compileSourceText } from '../helpers/compile-iqm';
import { prng } from '../helpers/iqe-fixtures';
import { readModel } from '../../core/formats/models';

/** Each corner's component, as the smallest corner of its component (a partition to compare). */
function partition(parent: Int32Array, corners: number): number[] {
  const find = (c: number): number => (parent[c] === c ? c : find(parent[c]));
  const smallest = new Map<number, number>();
  for (let c = 0; c < corners; c++) {
    const r = find(c);
    if (!smallest.has(r)) smallest.set(r, c);
  }
  return Array.from({ length: corners }, (_, c) => smallest.get(find(c))!);
}

test('weldLargeGroup gives the components of testing every pair, on random symmetric relations', () => {
  const random = prng(41);
  for (let round = 0; round < 60; round++) {
    const corners = 65 + Math.floor(random() * 300);
    // A symmetric relation: dense, sparse or clustered (corners of a class weld, a few across).
    const density = [0.5, 0.02, 0.002][round % 3];
    const cluster = Array.from({ length: corners }, () => Math.floor(random() * 6));
    const edges = new Set<string>();
    for (let a = 0; a < corners; a++) for (let b = a + 1; b < corners; b++) if ((round % 3 === 2 && cluster[a] === cluster[b] && random() < 0.3) || random() < density) edges.add(`${a},${b}`);
    const canWeld = (w: number, v: number): boolean => edges.has(w < v ? `${w},${v}` : `${v},${w}`);
    // Every pair, in order (the loop of weldCorners for a small group).
    const pairwise = Int32Array.from({ length: corners }, (_, c) => c);
    const findIn = (parent: Int32Array) => (c: number): number => {
      while (parent[c] !== c) c = parent[c];
      return c;
    };
    const findPairwise = findIn(pairwise);
    for (let a = 0; a < corners; a++) for (let b = a + 1; b < corners; b++) if (canWeld(a, b)) pairwise[findPairwise(b)] = findPairwise(a);
    // The group in a shuffled order (corner ids are what the group lists, not positions).
    const group = Int32Array.from({ length: corners }, (_, c) => c);
    for (let i = corners - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [group[i], group[j]] = [group[j], group[i]];
    }
    const parent = Int32Array.from({ length: corners }, (_, c) => c);
    weldLargeGroup(group, parent, findIn(parent), canWeld, new Int32Array(corners), new Int32Array(corners), new Int32Array(corners));
    assert.deepEqual(partition(parent, corners), partition(pairwise, corners), `round ${round}: ${corners} corners, ${edges.size} pairs weld`);
  }
});

test('a vertex shared by 3,000 triangles of a fan is welded once per smoothing group: two normals at the tip of a cone in two groups', () => {
  // A cone fanned from its tip, half of it in another smoothing group: two normals at the tip (each
  // the average of its half's faces).
  const n = 3000;
  const tips = (groups: number): number => {
    const lines = ['# Inter-Quake Export', 'mesh m', 'vp 0 0 1'];
    for (let i = 0; i <= n; i++) lines.push(`vp ${Math.cos((2 * Math.PI * i) / n)} ${Math.sin((2 * Math.PI * i) / n)} 0`);
    for (let i = 1; i <= n; i++) {
      if (groups === 2 && i === n / 2 + 1) lines.push('smoothgroup 2');
      lines.push(`fm 0 ${i + 1} ${i}`);
    }
    const result = compileSourceText(lines.join('\n') + '\n');
    assert.ok(result.bytes, JSON.stringify(result.diagnostics.slice(0, 3)));
    const mesh = readModel(result.bytes).meshes[0];
    let centres = 0;
    for (let v = 0; v < mesh.vertexCount; v++) if (mesh.position[3 * v] === 0 && mesh.position[3 * v + 1] === 0) centres++;
    return centres;
  };
  assert.equal(tips(2), 2, 'the tip is one vertex per smoothing group');
  assert.equal(tips(1), 1, 'one smoothing group: one vertex at the tip');
});

test('the kernel welds and makes the normals as the JavaScript does: random meshes of shared positions, smoothing groups, angles, texture coordinates, degenerate triangles', () => {
  assert.ok(weldKernelAvailable(), 'the weld kernel loads here');
  const random = prng(77);
  for (let round = 0; round < 40; round++) {
    const model = emptySourceModel();
    // Few positions and texture coordinates, so that many corners share them; some triangles flat (NaN normals).
    const vertexCount = 20 + Math.floor(random() * 200);
    const spots = 3 + Math.floor(random() * 12);
    const positions = new Float64Array(4 * vertexCount);
    const texcoords = new Float64Array(2 * vertexCount);
    for (let v = 0; v < vertexCount; v++) {
      const spot = Math.floor(random() * spots);
      positions.set([spot % 3, Math.floor(spot / 3) % 2, spot === 0 ? -0 : Math.floor(spot / 6), 1], 4 * v);
      texcoords.set([Math.floor(random() * 3) / 2, random() < 0.1 ? NaN : Math.floor(random() * 2)], 2 * v);
    }
    const triangleCount = 30 + Math.floor(random() * 300);
    const triangles = Int32Array.from({ length: 3 * triangleCount }, () => Math.floor(random() * vertexCount));
    const groups = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, g) => ({ key: [-1, 2 ** 40, 3, 3][g], threshold: [-1, 0, 0.5, Math.cos(0.3)][Math.floor(random() * 4)], uv: random() < 0.5, used: true }));
    Object.assign(model, {
      vertexCount,
      positions,
      texcoords: round % 4 === 3 ? null : texcoords,
      texcoordWidth: 2,
      triangles,
      triangleGroup: Int32Array.from({ length: triangleCount }, () => Math.floor(random() * groups.length)),
      groups,
    });
    setWasmEnabled(false);
    let script;
    try {
      script = weldCorners(model);
    } finally {
      setWasmEnabled(true);
    }
    const kernel = weldCorners(model);
    assert.deepEqual([...kernel.weld], [...script.weld], `round ${round}`);
    assert.equal(kernel.weldCount, script.weldCount);
    // The normals bit for bit (NaN where a weld's triangles are all flat, -0 kept).
    assert.ok(kernel.normals.every((x, i) => Object.is(x, script.normals[i])), `round ${round}: normals`);
  }
});

test('classifyRows in the kernel gives the JavaScript classes: float columns with +0/-0 and NaN, byte and integer columns, repeats', () => {
  assert.ok(classifyKernelAvailable(), 'the classify kernel loads here');
  const random = prng(91);
  for (let round = 0; round < 40; round++) {
    const count = 1 + Math.floor(random() * 3000);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const floats = Float64Array.from({ length: 4 * count }, () => pick([0, -0, 1, 0.5, NaN, -2, 1e-300]));
    const pairs = Float64Array.from({ length: 2 * count }, () => pick([0, 0.25, -0]));
    const bytes = Uint8Array.from({ length: 4 * count }, () => pick([0, 1, 255]));
    const odd = Uint8Array.from({ length: 3 * count }, () => pick([0, 7]));
    const ints = Int32Array.from({ length: count }, () => pick([-1, 0, 2 ** 30]));
    const columns = [
      [{ data: floats, stride: 4 }],
      [{ data: floats, stride: 4 }, { data: pairs, stride: 2 }, { data: bytes, stride: 4 }],
      [{ data: odd, stride: 3 }, { data: ints, stride: 1 }],
    ][round % 3];
    setWasmEnabled(false);
    let script;
    try {
      script = classifyRows(columns, count);
    } finally {
      setWasmEnabled(true);
    }
    const kernel = classifyRows(columns, count);
    assert.equal(kernel.classCount, script.classCount, `round ${round}`);
    assert.deepEqual([...kernel.classOf], [...script.classOf], `round ${round}`);
  }
});

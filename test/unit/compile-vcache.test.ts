// Issue: the compiler's vertex-cache order is no worse than the reference's on every corpus
// file (FIFO cache of 32 entries), and the measure itself behaves as a FIFO cache must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { averageCacheMissRatio } from '../../core/compare/vcache';
import { compileDocument } from '../helpers/compile-iqm';
import { optimiseVertexCache, optimiseVertexCacheScript, referenceDroppedTriangles, vcacheKernelAvailable, VertexCacheScratch } from '../../core/compile/vcache';
import { setWasmEnabled, wasmEnabled } from '../../core/wasm';
import { IqeDocument } from '../../core/iqe/document';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';

const shared = resolve(process.cwd(), '..', 'shared');

test('ACMR: a strip reuses two vertices per triangle; no reuse costs 3; a cache of 3 forgets', () => {
  assert.equal(averageCacheMissRatio([0, 1, 2, 3, 4, 5]), 3);
  const strip: number[] = [];
  for (let t = 0; t < 100; t++) strip.push(t, t + 1, t + 2);
  assert.equal(averageCacheMissRatio(strip), 102 / 100);
  assert.equal(averageCacheMissRatio([0, 1, 2, 3, 4, 5, 0, 1, 2], 3), 3);
  assert.equal(averageCacheMissRatio([0, 1, 2, 3, 4, 5, 0, 1, 2], 6), 2);
});

/** Misses per triangle over all meshes of a model (each mesh's indices are local to it). */
function modelAcmr(model: Model): number {
  let misses = 0;
  let triangles = 0;
  for (const mesh of model.meshes) {
    misses += averageCacheMissRatio(mesh.indices) * mesh.triangleCount;
    triangles += mesh.triangleCount;
  }
  return triangles === 0 ? 0 : misses / triangles;
}

test('our vertex-cache order is no worse than the reference output on every shared IQE', (t) => {
  if (!existsSync(join(shared, 'reference'))) return t.skip('../shared is absent');
  for (const file of ['love-und-panzer/tank', 'love-und-panzer/test_cube', 'love-und-panzer/uv_grid', 'unvanquished/lgun_view', 'unvanquished/medistat', 'unvanquished/rocket']) {
    const result = compileDocument(new IqeDocument(readFileSync(join(shared, 'assets', 'iqe', `${file}.iqe`), 'utf8')));
    assert.ok(result.bytes);
    const ours = modelAcmr(readModel(result.bytes));
    const reference = modelAcmr(readModel(new Uint8Array(readFileSync(join(shared, 'reference', 'iqe', `${file.split('/')[1]}.iqm`)))));
    assert.ok(ours <= reference + 1e-12, `${file}: ACMR ${ours} > reference ${reference}`);
  }
});

/**
 * The reference compiler's vertex-cache pass as IQE-SEMANTICS.md §4.5 describes it, written out
 * plainly (linked-list cache, full scans, float32 scores with NaN for ranks 33 and 34): the
 * triangles it emits, in order.
 */
function referencePass(vertexCount: number, tris: Int32Array): number[] {
  const f32 = Math.fround;
  const triCount = tris.length / 3;
  const numUses = new Array<number>(vertexCount).fill(0);
  const uses: number[][] = Array.from({ length: vertexCount }, () => []);
  const used = new Array<boolean>(triCount).fill(false);
  const rank = new Array<number>(vertexCount).fill(-1);
  const score = new Array<number>(vertexCount).fill(0);
  const triScore = new Array<number>(triCount).fill(0);
  const vertexScore = (v: number): number => {
    if (numUses[v] <= 0) return -1;
    let s = f32(2 * f32(Math.pow(numUses[v], -0.5)));
    if (rank[v] >= 3) s = f32(s + f32(Math.pow(f32(1 - f32(f32(rank[v] - 3) / 29)), 1.5)));
    else if (rank[v] >= 0) s = f32(s + 0.75);
    return s;
  };
  const triangleScore = (t: number): number => f32(f32(score[tris[3 * t]] + score[tris[3 * t + 1]]) + score[tris[3 * t + 2]]);
  for (let t = 0; t < triCount; t++) {
    const [a, b, c] = [tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]];
    if (a === b || b === c || a === c) used[t] = true;
    else for (const v of [a, b, c]) numUses[v]++;
  }
  for (let t = 0; t < triCount; t++) if (!used[t]) for (let k = 0; k < 3; k++) uses[tris[3 * t + k]].push(t);
  for (let v = 0; v < vertexCount; v++) score[v] = vertexScore(v);
  const scan = (): number => {
    let best = -1;
    let bestScore = f32(-1e16);
    for (let t = 0; t < triCount; t++) {
      if (!used[t] && triScore[t] > bestScore) {
        bestScore = triScore[t];
        best = t;
      }
    }
    return best;
  };
  for (let t = 0; t < triCount; t++) triScore[t] = triangleScore(t);
  let cache: number[] = [];
  const out: number[] = [];
  let best = scan();
  while (best >= 0) {
    used[best] = true;
    out.push(best);
    for (let k = 0; k < 3; k++) {
      const v = tris[3 * best + k];
      const list = uses[v];
      const at = list.indexOf(best);
      list[at] = list[list.length - 1];
      list.pop();
      numUses[v]--;
      cache = cache.filter((c) => c !== v);
      if (numUses[v] > 0) cache.unshift(v);
    }
    cache.forEach((v, p) => {
      rank[v] = p;
      score[v] = vertexScore(v);
    });
    best = -1;
    let bestScore = f32(-1e16);
    for (const v of cache) {
      for (const t of uses[v]) {
        triScore[t] = triangleScore(t);
        if (triScore[t] > bestScore) {
          bestScore = triScore[t];
          best = t;
        }
      }
    }
    for (const v of cache.slice(32)) rank[v] = -1;
    cache = cache.slice(0, 32);
    if (best < 0) best = scan();
  }
  return out;
}

function randomSoup(seed: number, vertexCount: number, triangleCount: number): Int32Array {
  let state = seed;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  return Int32Array.from({ length: 3 * triangleCount }, () => next(vertexCount));
}

test('B7: the reference pass drops the triangles of vertices ranked 33 or 34; ours drops none and counts them', () => {
  let droppingCases = 0;
  for (const [seed, vertices, triangles] of [[1, 120, 600], [2, 250, 1500], [3, 60, 400], [4, 400, 900]]) {
    const tris = randomSoup(seed, vertices, triangles);
    const order = optimiseVertexCache(vertices, tris);
    let valid = 0;
    for (let t = 0; t < triangles; t++) if (tris[3 * t] !== tris[3 * t + 1] && tris[3 * t + 1] !== tris[3 * t + 2] && tris[3 * t] !== tris[3 * t + 2]) valid++;
    assert.equal(order.triangleOrder.length, valid, `seed ${seed}: every triangle that is not degenerate is written`);
    const reference = referencePass(vertices, tris);
    assert.deepEqual(Array.from(optimiseVertexCache(vertices, tris, true).triangleOrder), reference, `seed ${seed}: the simulated reference order`);
    assert.equal(referenceDroppedTriangles(vertices, tris, order), valid - reference.length, `seed ${seed}: dropped count`);
    if (valid > reference.length) droppingCases++;
  }
  assert.ok(droppingCases >= 2, `${droppingCases} soups make the reference drop triangles`);
  // A grid, like real models: the cache never overflows, nothing is dropped, same order.
  const n = 30;
  const grid: number[] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const i = y * (n + 1) + x;
    grid.push(i, i + n + 1, i + 1, i + 1, i + n + 1, i + n + 2);
  }
  const gridTris = Int32Array.from(grid);
  const gridOrder = optimiseVertexCache((n + 1) * (n + 1), gridTris);
  assert.equal(gridOrder.overflowed, false);
  assert.equal(referenceDroppedTriangles((n + 1) * (n + 1), gridTris, gridOrder), 0);
  assert.deepEqual(Array.from(gridOrder.triangleOrder), referencePass((n + 1) * (n + 1), gridTris));
});

test('vertex cache: one scratch for meshes of growing and shrinking sizes gives the orders of fresh arrays', () => {
  const scratch = new VertexCacheScratch();
  for (const [seed, vertices, triangles] of [[5, 300, 900], [6, 40, 120], [7, 900, 3000], [8, 100, 250], [9, 900, 2500]]) {
    const tris = randomSoup(seed, vertices, triangles);
    const fresh = optimiseVertexCacheScript(vertices, tris);
    const reused = optimiseVertexCacheScript(vertices, tris, false, scratch);
    assert.deepEqual(Array.from(reused.triangleOrder), Array.from(fresh.triangleOrder), `seed ${seed}: triangles`);
    assert.deepEqual(Array.from(reused.vertexOrder), Array.from(fresh.vertexOrder), `seed ${seed}: vertices`);
    assert.equal(reused.overflowed, fresh.overflowed);
  }
});

test('vertex cache: the WebAssembly kernel (wasm/vcache.ts) gives the JavaScript pass\'s orders, fixed and as the reference', () => {
  assert.ok(wasmEnabled() && vcacheKernelAvailable(), 'node runs the kernel');
  const n = 40;
  const grid: number[] = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const i = y * (n + 1) + x;
    grid.push(i, i + n + 1, i + 1, i + 1, i + n + 1, i + n + 2);
  }
  // A fan and a fan beside a grid: a hub of more than HUB_USES triangles (not rescored through it).
  const fan = (from: number, count: number): number[] => Array.from({ length: count }, (_, k) => [from, from + 1 + k, from + 2 + k]).flat();
  const cases: [string, number, Int32Array][] = [
    ['grid', (n + 1) * (n + 1), Int32Array.from(grid)], ['empty', 0, new Int32Array(0)], ['degenerate only', 3, Int32Array.from([0, 0, 1, 2, 2, 2])],
    ['fan', 3002, Int32Array.from(fan(0, 3000))], ['grid and fan', (n + 1) * (n + 1) + 2002, Int32Array.from([...grid, ...fan((n + 1) * (n + 1), 2000)])],
  ];
  for (const [seed, vertices, triangles] of [[1, 120, 600], [2, 250, 1500], [3, 60, 400], [11, 5000, 20000], [12, 7, 3], [13, 2000, 900]]) cases.push([`soup ${seed}`, vertices, randomSoup(seed, vertices, triangles)]);
  let overflowing = 0;
  for (const [name, vertices, tris] of cases) {
    for (const asReference of [false, true]) {
      const script = optimiseVertexCacheScript(vertices, tris, asReference);
      const kernel = optimiseVertexCache(vertices, tris, asReference);
      assert.notEqual(kernel.triangleOrder.buffer, script.triangleOrder.buffer);
      assert.deepEqual(Array.from(kernel.triangleOrder), Array.from(script.triangleOrder), `${name} (${asReference ? 'reference' : 'fixed'}): triangles`);
      assert.deepEqual(Array.from(kernel.vertexOrder), Array.from(script.vertexOrder), `${name}: vertices`);
      assert.equal(kernel.overflowed, script.overflowed, `${name}: overflowed`);
      if (script.overflowed) overflowing++;
    }
  }
  assert.ok(overflowing >= 2, 'some soups overflow the cache (B7), so the NaN ranks are exercised');
  // Every triangle is still emitted once where a hub is not rescored through.
  for (const [name, vertices, tris] of cases.filter(([name]) => name.includes('fan'))) {
    const order = optimiseVertexCache(vertices, tris).triangleOrder;
    assert.deepEqual([...order].sort((a, b) => a - b), Array.from({ length: tris.length / 3 }, (_, t) => t), name);
  }
  // Switched off, optimiseVertexCache is the JavaScript pass (what a host without WebAssembly runs).
  setWasmEnabled(false);
  try {
    assert.equal(vcacheKernelAvailable(), false);
    const tris = randomSoup(2, 250, 1500);
    assert.deepEqual(Array.from(optimiseVertexCache(250, tris).triangleOrder), Array.from(optimiseVertexCacheScript(250, tris).triangleOrder));
  } finally {
    setWasmEnabled(true);
  }
});

test('B7: a compile notes the triangles the reference would drop, at the mesh line', () => {
  const tris = randomSoup(2, 250, 1500);
  const lines = ['# Inter-Quake Export', 'mesh soup', 'material m'];
  for (let v = 0; v < 250; v++) lines.push(`vp ${v % 17} ${Math.floor(v / 17)} ${(v * 7) % 5}`);
  for (let t = 0; t < 1500; t++) lines.push(`fa ${tris[3 * t]} ${tris[3 * t + 1]} ${tris[3 * t + 2]}`);
  const result = compileDocument(new IqeDocument(lines.join('\n') + '\n'));
  assert.ok(result.bytes);
  const notes = result.notes.filter((d) => d.code === 'reference-drops-triangles');
  assert.equal(notes.length, 1);
  assert.equal(notes[0].range.line, 1);
  assert.match(notes[0].message, /drop \d+ of the \d+ triangles of mesh 'soup'/);
});

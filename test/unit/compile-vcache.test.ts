// Issue: the compiler's vertex-cache order is no worse than the reference's on every corpus
// file (FIFO cache of 32 entries), and the measure itself behaves as a FIFO cache must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { averageCacheMissRatio } from '../../core/compare/vcache';
import { compileIqe } from '../../core/compile/index';
import { IqeDocument } from '../../core/iqe/document';
import { readModel } from '../../core/model/read';
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
    const result = compileIqe(new IqeDocument(readFileSync(join(shared, 'assets', 'iqe', `${file}.iqe`), 'utf8')));
    assert.ok(result.bytes);
    const ours = modelAcmr(readModel(result.bytes));
    const reference = modelAcmr(readModel(new Uint8Array(readFileSync(join(shared, 'reference', 'iqe', `${file.split('/')[1]}.iqm`)))));
    assert.ok(ours <= reference + 1e-12, `${file}: ACMR ${ours} > reference ${reference}`);
  }
});

// Vertex-cache quality of the compiler's output against the reference compiler's, per corpus
// file: average cache miss ratio with a 32-entry FIFO cache (lower is better). Target (issue 4):
// no worse than the reference on every file.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { averageCacheMissRatio } from '../core/compare/vcache';
import { compile, documentSource } from '../core/compile/index';
import { IqeDocument } from '../core/iqe/document';
import type { Model } from '../core/model/model';
import { readModel } from '../core/formats/models';

const shared = resolve('..', 'shared');

function acmr(model: Model): { acmr: number; triangles: number } {
  let misses = 0;
  let triangles = 0;
  for (const mesh of model.meshes) {
    misses += averageCacheMissRatio(mesh.indices) * mesh.triangleCount;
    triangles += mesh.triangleCount;
  }
  return { acmr: triangles ? misses / triangles : 0, triangles };
}

if (!existsSync(join(shared, 'reference'))) console.log('skipped: ../shared is absent');
else {
  console.log('file                          triangles   ours ACMR   reference ACMR   ratio');
  for (const file of ['love-und-panzer/tank', 'love-und-panzer/test_cube', 'love-und-panzer/uv_grid', 'unvanquished/lgun_view', 'unvanquished/medistat', 'unvanquished/rocket']) {
    const result = compile([documentSource(new IqeDocument(readFileSync(join(shared, 'assets', 'iqe', `${file}.iqe`), 'utf8')))]);
    if (!result.bytes) {
      console.log(`${file}: does not compile`);
      continue;
    }
    const ours = acmr(readModel(result.bytes));
    const reference = acmr(readModel(new Uint8Array(readFileSync(join(shared, 'reference', 'iqe', `${file.split('/')[1]}.iqm`)))));
    console.log(
      `${file.padEnd(30)}${String(ours.triangles).padStart(9)}   ${ours.acmr.toFixed(4).padStart(9)}   ${reference.acmr.toFixed(4).padStart(14)}   ${(ours.acmr / (reference.acmr || 1)).toFixed(3)}${ours.acmr <= reference.acmr + 1e-12 ? '' : '  WORSE'}`,
    );
  }
}

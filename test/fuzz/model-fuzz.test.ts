// A short fuzz run for `npm test`; `npm run fuzz` runs the long one (test/fuzz/fuzz.run.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asset, HAVE_ASSETS } from '../helpers/model-assets';
import { fuzz, generatedSeeds } from '../helpers/model-fuzz';
import { GltfBuilder, UNSIGNED_INT } from '../helpers/gltf-build';
import { exerciseSource, gltfCopies } from '../helpers/source-fuzz';

test('fuzz (short): mutated IQM, MD3 and DPM files only ever throw FormatError', () => {
  const seeds = generatedSeeds();
  if (HAVE_ASSETS) {
    for (const f of ['iqm/raylib_guy/guy.iqm', 'iqm/raylib_guy/guyanim.iqm', 'md3/watercan/watercan.md3', 'md3/unvanquished/rifle_hand.md3', 'dpm/xonotic/shield.dpm', 'dpm/nexuiz/h_chainsaw.dpm']) {
      seeds.push({ name: f, bytes: asset(f) });
    }
  }
  const stats = fuzz(seeds, 3000, 12345);
  const first = stats.failures[0];
  assert.equal(stats.failures.length, 0, first ? `${stats.failures.length} failures; first: ${first.seedName}, ${first.mutation}: ${first.error}` : '');
  assert.ok(stats.parsed > 100 && stats.rejected > 100, `parsed ${stats.parsed}, rejected ${stats.rejected}`);
});

test("the CI fuzz's watchdog holds a glTF to its input times the copies its scene draws: a mesh drawn by 4 nodes is 4 copies", async () => {
  const grid = (nodes: number): Uint8Array => {
    const b = new GltfBuilder();
    const positions: number[] = [];
    for (let y = 0; y < 10; y++) for (let x = 0; x < 10; x++) positions.push(x, y, 0);
    const indices: number[] = [];
    for (let y = 0; y < 9; y++) for (let x = 0; x < 9; x++) indices.push(10 * y + x, 10 * y + x + 1, 10 * y + x + 10);
    const mesh = b.mesh({ POSITION: b.accessor(positions, 'VEC3') }, b.accessor(indices, 'SCALAR', UNSIGNED_INT));
    for (let k = 0; k < nodes; k++) b.node({ mesh, translation: [10 * k, 0, 0] });
    return b.glb();
  };
  assert.equal((await exerciseSource(grid(4), 'grid.glb')).copies, 4);
  assert.equal((await exerciseSource(grid(1), 'grid.glb')).copies, 1);
  assert.equal(gltfCopies(new TextEncoder().encode('{not json'), 100), 1, 'JSON the reader refused: no copies');
});

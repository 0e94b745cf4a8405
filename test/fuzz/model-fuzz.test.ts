// A short fuzz run for `npm test`; `npm run fuzz` runs the long one (test/fuzz/fuzz.run.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asset, HAVE_ASSETS } from '../helpers/model-assets';
import { fuzz, generatedSeeds } from '../helpers/model-fuzz';

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

// `npm run fuzz`: the long fuzz run of the binary model readers (IQM, MD3, DPM). By default
// 100,000 mutated inputs per format from generated files and the smaller real files in
// ../shared/assets. Options: --per-format N, --seed S, --all-assets (also the megabyte files).
// Failing inputs are written to out/fuzz-failures/ with a .txt describing the mutation and error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asset, HAVE_ASSETS, modelAssets } from '../helpers/model-assets';
import { fuzz, generatedSeeds } from '../helpers/model-fuzz';
import { detectFormat, FORMATS } from '../../core/formats/registry';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const perFormat = arg('--per-format', 100_000);
const seed = arg('--seed', 20261122);
const allAssets = process.argv.includes('--all-assets');

const seeds = generatedSeeds();
if (HAVE_ASSETS) {
  for (const f of modelAssets()) {
    const bytes = asset(f);
    if (FORMATS[detectFormat(bytes)].role !== 'model') continue;
    if (!allAssets && bytes.length > 300_000) continue;
    seeds.push({ name: f, bytes });
  }
} else {
  console.log('../shared/assets is absent: fuzzing generated files only');
}

let failures = 0;
const outDir = join('out', 'fuzz-failures');
for (const format of ['iqm', 'md3', 'dpm'] as const) {
  const group = seeds.filter((s) => detectFormat(s.bytes) === format);
  const t0 = performance.now();
  let inputs = 0, parsed = 0, rejected = 0, slowest = 0;
  const chunk = 10_000;
  for (let done = 0; done < perFormat; done += chunk) {
    const n = Math.min(chunk, perFormat - done);
    const stats = fuzz(group, n, seed + done + format.charCodeAt(0), 2000, done === 0);
    inputs += stats.inputs;
    parsed += stats.parsed;
    rejected += stats.rejected;
    slowest = Math.max(slowest, stats.slowestMs);
    for (const f of stats.failures) {
      mkdirSync(outDir, { recursive: true });
      const name = join(outDir, `${format}-${failures++}`);
      writeFileSync(name + '.bin', f.input);
      writeFileSync(name + '.txt', `${f.seedName}\n${f.mutation}\n${f.error}\n`);
      if (failures <= 5) console.log(`FAIL ${f.seedName}: ${f.mutation}\n  ${f.error.split('\n').slice(0, 3).join('\n  ')}`);
    }
    process.stdout.write(`\r${format}: ${inputs} inputs`);
  }
  const s = (performance.now() - t0) / 1000;
  console.log(`\r${format}: ${inputs} inputs from ${group.length} seeds (${group.map((g) => g.name).join(', ')})`);
  console.log(`  ${parsed} read, ${rejected} rejected with FormatError, slowest ${slowest.toFixed(1)} ms, ${s.toFixed(1)} s`);
}
console.log(failures ? `${failures} failures (inputs in ${outDir})` : '0 failures');
process.exit(failures ? 1 : 0);

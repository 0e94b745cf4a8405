// Benchmark: compiles bench/.data/big.iqe (the timing-baseline file of IQE-SEMANTICS.md §11:
// 72.8 MB, 300,056 vertices, 199,692 triangles, 150 joints, 2,000 frames) in this process, from
// reading the file to the IQM bytes, and prints wall time, peak memory (maxRSS) and the ratios to
// the reference compiler's 16.1 s / 181 MiB (targets: <= 0.25x time, <= 1x memory).
// Prints figures; never fails on slowness.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IqeDocument } from '../core/iqe/document';
import { compileIqe } from '../core/compile/index';
import { boundsStats } from '../core/compile/bounds';

const REFERENCE_SECONDS = 16.1;
const REFERENCE_MIB = 181;
const GENERATOR = '/work/shared/tools/gen_big_iqe.py';

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package.json found');
    dir = parent;
  }
  return dir;
}

const dataPath = join(repoRoot(), 'bench', '.data', 'big.iqe');
if (!existsSync(dataPath)) {
  if (!existsSync(GENERATOR)) {
    console.log(`skipped: ${dataPath} is missing and ${GENERATOR} is not available`);
    process.exit(0);
  }
  mkdirSync(dirname(dataPath), { recursive: true });
  console.log(`generating ${dataPath} ...`);
  const run = spawnSync('python3', [GENERATOR, dataPath], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.log('skipped: the generator failed');
    process.exit(0);
  }
}

const t0 = performance.now();
const text = readFileSync(dataPath, 'utf8');
const t1 = performance.now();
const doc = new IqeDocument(text);
doc.analyse();
const t2 = performance.now();
const result = compileIqe(doc);
const t3 = performance.now();
const seconds = (t3 - t0) / 1000;
const mib = process.resourceUsage().maxRSS / 1024;
if (!result.bytes) {
  console.log('compile failed:', result.diagnostics.filter((d) => d.severity === 'error').slice(0, 5));
  process.exit(1);
}
const s = result.stats;
console.log(`input      ${(text.length / 1e6).toFixed(1)} MB: ${s.meshes} meshes, ${s.vertices} vertices, ${s.triangles} triangles, ${s.joints} joints, ${s.frames} frames, ${s.frameChannels} channels`);
console.log(`output     ${s.bytes} bytes (reference: 24,126,064)`);
console.log(`bounds     ${boundsStats.groups} vertex groups; per frame ${(boundsStats.boxes / Math.max(s.frames, 1)).toFixed(0)} group boxes and ${(boundsStats.evaluated / Math.max(s.frames, 1)).toFixed(0)} vertices evaluated (of ${s.vertices})`);
console.log(`read       ${((t1 - t0) / 1000).toFixed(2)} s`);
console.log(`parse      ${((t2 - t1) / 1000).toFixed(2)} s (parse + validate)`);
console.log(`compile    ${((t3 - t2) / 1000).toFixed(2)} s`);
console.log(`wall       ${seconds.toFixed(2)} s  = ${(seconds / REFERENCE_SECONDS).toFixed(3)}x the reference's ${REFERENCE_SECONDS} s (target <= 0.25x)`);
console.log(`peak RSS   ${mib.toFixed(0)} MiB = ${(mib / REFERENCE_MIB).toFixed(2)}x the reference's ${REFERENCE_MIB} MiB (target <= 1x)`);

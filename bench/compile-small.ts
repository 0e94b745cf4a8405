// Benchmark: small compiles, where nearly all the time is node starting and our code running
// before V8 has optimised it. Times whole `node dist/cli.js compile` runs on a mrfixit-size file
// (1,842 vertices, 1,200 triangles, 75 joints, 100 frames; target: under 0.15 s including node's
// start; the reference compiler takes 0.024 s on mrfixit) and on unvanquished/lgun_view.iqe
// (reference 0.065 s) beside `node -e 0`, interleaved, and the cold stages of one compile in fresh
// processes.
// Prints figures; never fails on slowness. The machine is shared: repeat, and compare medians.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileChecked } from '../core/compile/index';
import { loadForCompile } from '../cli/compile';
import { median, syntheticIqe } from './helpers/data';

const RUNS = 15;
const STAGE_RUNS = 7;

/** One cold compile in this process (a fresh one), as the CLI does it: milliseconds per stage, as one JSON line. */
function stages(path: string): void {
  const t0 = performance.now();
  const checked = loadForCompile(path);
  const t1 = performance.now();
  if (typeof checked === 'string') throw new Error(`${path}: ${checked}`);
  const result = compileChecked(checked, {});
  const t2 = performance.now();
  console.log(JSON.stringify({ load: t1 - t0, compile: t2 - t1, bytes: result.bytes?.length ?? 0 }));
}

function wall(args: string[]): number {
  const t = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${args.join(' ')}: ${run.stderr || run.stdout}`);
  return (performance.now() - t) / 1000;
}

const stageFlag = process.argv.indexOf('--stages');
if (stageFlag >= 0) {
  stages(process.argv[stageFlag + 1]);
} else {
  const small = syntheticIqe('mrfixit-size.iqe', ['--grid', '10', '--joints', '75', '--anims', '1', '--frames-per-anim', '100']);
  const lgun = resolve('..', 'shared', 'assets', 'iqe', 'unvanquished', 'lgun_view.iqe');
  const cli = resolve('dist', 'cli.js');
  if (!existsSync(cli)) {
    console.log(`skipped: ${cli} is missing (npm run build)`);
    process.exit(0);
  }
  const dir = mkdtempSync(join(tmpdir(), 'iqm-bench-'));
  try {
    for (const [label, file] of [['mrfixit-size', small], ['lgun_view', existsSync(lgun) ? lgun : undefined]] as const) {
      if (!file) continue;
      const node: number[] = [];
      const ours: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        node.push(wall(['-e', '0']));
        ours.push(wall([cli, 'compile', file, '-o', join(dir, 'out.iqm')]));
      }
      const n = median(node), c = median(ours);
      console.log(`${label.padEnd(12)} whole CLI ${c.toFixed(3)} s median of ${RUNS} (min ${Math.min(...ours).toFixed(3)}); node -e 0 ${n.toFixed(3)} s; ours ${(c - n).toFixed(3)} s (target: whole run < 0.150 s for mrfixit size)`);
      const figures: { load: number; compile: number }[] = [];
      for (let run = 0; run < STAGE_RUNS; run++) {
        const child = spawnSync(process.execPath, [__filename, '--stages', file], { encoding: 'utf8' });
        if (child.status === 0) figures.push(JSON.parse(child.stdout.trim().split('\n').pop()!));
      }
      if (figures.length > 0) {
        const ms = (key: 'load' | 'compile'): string => median(figures.map((f) => f[key])).toFixed(1);
        console.log(`${''.padEnd(12)} cold stages (median of ${figures.length} fresh processes): read, parse and check ${ms('load')} ms, compile ${ms('compile')} ms`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

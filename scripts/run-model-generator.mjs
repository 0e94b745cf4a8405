// Builds scripts/make-examples.ts (the MD3 and DPM generators, on the project's own writers)
// with esbuild and runs it: `out` is the folder to write, `args` its options (e.g. --fixtures).
// Shared by make-examples.mjs and make-vscode-fixtures.mjs. Returns the exit status.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';

export async function runModelGenerator(out, args = []) {
  await esbuild.build({
    entryPoints: ['scripts/make-examples.ts'],
    outfile: 'out/scripts/make-examples.cjs',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  return spawnSync(process.execPath, ['out/scripts/make-examples.cjs', out, ...args], { stdio: 'inherit' }).status ?? 1;
}

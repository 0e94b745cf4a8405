// Builds scripts/make-examples.ts (the MD3 and DPM generators, on the project's own writers)
// with esbuild and runs it: `out` is the folder to write, `args` its options (e.g. --fixtures);
// and compiles an IQE with the project's own CLI. Shared by make-examples.mjs and
// make-vscode-fixtures.mjs. Both return the exit status.
import * as esbuild from 'esbuild';
import { assemblyScriptPlugin } from './assemblyscript-plugin.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export async function runModelGenerator(out, args = []) {
  await esbuild.build({
    entryPoints: ['scripts/make-examples.ts'],
    plugins: [assemblyScriptPlugin],
    outfile: 'out/scripts/make-examples.cjs',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  return spawnSync(process.execPath, ['out/scripts/make-examples.cjs', out, ...args], { stdio: 'inherit' }).status ?? 1;
}

/** Compiles `input` to `output` with dist/cli.js; `who` names the script in the message when the CLI is not built. */
export function compileWithCli(input, output, who) {
  if (!existsSync('dist/cli.js')) {
    console.error(`${who}: dist/cli.js is missing (run npm run build first): ${output} not written`);
    return 1;
  }
  return spawnSync(process.execPath, ['dist/cli.js', 'compile', input, '-o', output], { stdio: 'inherit' }).status ?? 1;
}

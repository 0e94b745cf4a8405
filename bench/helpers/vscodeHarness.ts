// Benchmarks inside VS Code: code-server through ../shared/vscode-harness (test mode), in the Node
// extension host or the browser's web worker host (forced by remote.extensionKind). The entry
// under bench/vscode/ prints one `[bench] {...}` line per figure; they come back parsed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve, join } from 'node:path';
import * as esbuild from 'esbuild';

export const HARNESS = resolve('..', 'shared', 'vscode-harness', 'harness.js');

/** Why benchmarks in VS Code cannot run here, or undefined. */
export function harnessMissing(): string | undefined {
  return existsSync(HARNESS) ? undefined : `${HARNESS} is absent`;
}

/**
 * Runs `entry` (a bench/vscode/*.ts exporting `run()`) in the `host` extension host on `workspace`
 * (copied by the harness); the `[bench]` lines it printed, each once, in order; undefined (said
 * why) when the run failed. Logs go to test-output/`outName`.
 */
export async function benchInVsCode<T>(host: 'node' | 'web', entry: string, workspace: string, outName: string, timeoutMs = 300_000): Promise<T[] | undefined> {
  const harness = createRequire(__filename)(HARNESS) as {
    runExtensionTests(options: Record<string, unknown>): Promise<{ exitCode: number; outDir: string }>;
  };
  const tests = resolve('out', 'bench-vscode', entry.replace(/^.*\//, '').replace(/\.ts$/, '.js'));
  await esbuild.build({ entryPoints: [entry], outfile: tests, bundle: true, platform: 'browser', format: 'cjs', external: ['vscode'], logLevel: 'warning' });
  const outDir = resolve('test-output', outName);
  const { exitCode } = await harness.runExtensionTests({
    extensionDevelopmentPath: resolve('.'),
    extensionTestsPath: tests,
    workspace,
    outDir,
    timeoutMs,
    log: () => undefined,
    settings: host === 'web' ? { 'remote.extensionKind': { 'iqm-tools.iqm-tools': ['web'] } } : {},
  });
  // The same line can be in more than one log (the console's and the extension host's).
  const lines = new Set(
    readdirSync(outDir)
      .filter((f) => f.endsWith('.log'))
      .flatMap((f) => readFileSync(join(outDir, f), 'utf8').split('\n'))
      .map((line) => /\[bench\] (\{.*\})/.exec(line)?.[1])
      .filter((json): json is string => json !== undefined),
  );
  if (exitCode !== 0 || lines.size === 0) {
    console.log(`in the ${host} extension host: failed (exit ${exitCode}; logs in ${outDir})`);
    return undefined;
  }
  return [...lines].map((json) => JSON.parse(json) as T);
}

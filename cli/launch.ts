// The `iqm-tools` entry (dist/cli.js): runs the CLI bundle, dist/cliMain.js, with the V8 code
// cache the build wrote beside it (cli/codeCache.ts). Without a cache that fits (none, another
// build's, or rejected by this node's V8) V8 compiles the bundle as `require` would.
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { decodeCodeCache, encodeCodeCache, wrapModuleSource } from './codeCache';

const bundle = join(__dirname, 'cliMain.js');
const cacheFile = join(__dirname, 'cliMain.codecache');

let source: string;
let size: number, mtimeMs: number;
try {
  ({ size, mtimeMs } = statSync(bundle));
  source = readFileSync(bundle, 'utf8');
} catch (error) {
  process.stderr.write(`iqm-tools: cannot read ${bundle} (${(error as NodeJS.ErrnoException).code ?? String(error)}): the installation is incomplete (npm run build)\n`);
  process.exit(3);
}
let cachedData: Uint8Array | undefined;
try {
  cachedData = decodeCodeCache(readFileSync(cacheFile), size, mtimeMs);
} catch {
  cachedData = undefined;
}
const script = new Script(wrapModuleSource(source), { filename: bundle, cachedData });

// The build (esbuild.mjs) runs one small compile with this set: the cache is written when the
// run ends, so that it holds the bytecode of every function the compile ran, not only the top level.
// Not from a worker thread (compile --each's pool runs this file too).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- only when writing the cache
if (process.env.IQM_TOOLS_WRITE_CODE_CACHE === '1' && (require('node:worker_threads') as typeof import('node:worker_threads')).isMainThread) {
  process.on('exit', () => {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, encodeCodeCache(size, mtimeMs, script.createCachedData()));
      renameSync(temporary, cacheFile);
    } catch (error) {
      // The run's own result stands; the build reports the missing cache.
      rmSync(temporary, { force: true });
      process.stderr.write(`iqm-tools: code cache not written: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    }
  });
}

const run = script.runInThisContext() as (exports: unknown, require: NodeRequire, module: NodeModule, filename: string, dirname: string) => void;
run(module.exports, require, module, bundle, __dirname);

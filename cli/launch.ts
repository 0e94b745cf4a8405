// The `iqm-tools` entry (dist/cli.js): runs the CLI bundle, dist/cliMain.js, with the V8 code
// cache the build wrote beside it (cli/codeCache.ts). Without a cache that fits (none, another
// build's, or rejected by this node's V8) V8 compiles the bundle as `require` would. node is
// started again with the flags of node/exitFlags.ts when they are missing (`node dist/cli.js`), so
// that the process always ends once its output is written, and with malloc's huge pages asked for
// (node/hugePages.ts), which only a new process can take.
import { spawn } from 'node:child_process';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import { decodeCodeCache, encodeCodeCache, wrapModuleSource } from './codeCache';
import { missingExitFlags } from '../node/exitFlags';
import { withHugePages } from '../node/hugePages';

const missing = isMainThread ? missingExitFlags(process.execArgv) : [];
if (missing.length > 0) relaunch(missing);
else runBundle();

/**
 * Runs this file again in a node with the flags added, its standard streams the same, and ends as
 * it ends: the same exit status, or the same signal (one sent to this process is passed on). This
 * process runs no more JavaScript than that, so no compile of its own is in flight at its end.
 */
function relaunch(flags: string[]): void {
  const child = spawn(process.execPath, [...process.execArgv, ...flags, __filename, ...process.argv.slice(2)], { stdio: 'inherit', env: withHugePages(process.env) });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const pass = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  for (const signal of signals) process.on(signal, pass);
  child.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`iqm-tools: cannot start ${process.execPath} (${error.code ?? String(error)})\n`);
    process.exitCode = 3;
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, pass);
    if (signal === null) {
      process.exitCode = code ?? 3;
      return;
    }
    // The shell's status for a death by that signal where the signal itself is ignored here (SIGPIPE).
    process.exitCode = 128 + (constants.signals[signal] ?? 0);
    process.kill(process.pid, signal);
  });
}

function runBundle(): void {
  const bundle = join(__dirname, 'cliMain.js');
  const cacheFile = join(__dirname, 'cliMain.codecache');

  let source: string;
  let size: number, mtimeMs: number;
  try {
    ({ size, mtimeMs } = statSync(bundle));
    source = readFileSync(bundle, 'utf8');
  } catch (error) {
    process.stderr.write(`iqm-tools: cannot read ${bundle} (${(error as NodeJS.ErrnoException).code ?? String(error)}): the installation is incomplete (npm run build)\n`);
    process.exitCode = 3;
    return;
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
  if (process.env.IQM_TOOLS_WRITE_CODE_CACHE === '1' && isMainThread) {
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
}

// Builds every bundle of the extension with esbuild: one context per entry.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, no source maps (what `npm run package` ships)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       also bundle test/ and bench/ entry files into out/
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const withTests = process.argv.includes('--tests');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  target: 'es2022',
};

/** The product bundles; an entry whose source does not exist yet is skipped. */
const products = [
  { entryPoints: ['client/extension.ts'], outfile: 'dist/client.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { entryPoints: ['server/server.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['client/compile/worker.ts'], outfile: 'dist/compileWorker.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['cli/compileParallel.ts'], outfile: 'dist/boundsWorker.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['media/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife' },
].filter((options) => existsSync(options.entryPoints[0]));

/** Every *.test.ts under test/ (except the in-editor suite) and every bench/*.ts, bundled one file each. */
function findEntries(dir, accept) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'vscode' && name !== 'fixtures') found.push(...findEntries(path, accept));
    } else if (accept(name)) {
      found.push(path);
    }
  }
  return found;
}

const testBuilds = withTests
  ? [
      {
        entryPoints: [
          ...findEntries('test', (n) => n.endsWith('.test.ts') || n.endsWith('.run.ts')),
          ...findEntries('bench', (n) => n.endsWith('.ts')),
        ],
        outdir: 'out',
        outbase: '.',
        platform: 'node',
        format: 'cjs',
        packages: 'external',
        sourcemap: 'linked',
      },
    ]
  : [];

const builds = [...products.map((p) => ({ ...common, ...p })), ...testBuilds.map((t) => ({ ...common, ...t, minify: false }))];

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

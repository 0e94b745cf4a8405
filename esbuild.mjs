// Builds every bundle of the extension with esbuild: one context per entry.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, no source maps (what `npm run package` ships)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       also bundle test/ and bench/ entry files into out/
import * as esbuild from 'esbuild';
import { assemblyScriptPlugin } from './scripts/assemblyscript-plugin.mjs';
import { noNodeBuiltins } from './scripts/no-node-builtins.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const withTests = process.argv.includes('--tests');

const common = {
  bundle: true,
  plugins: [assemblyScriptPlugin],
  // `iqm-tools --version` prints the package's version (cli/main.ts).
  define: { IQM_TOOLS_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  target: 'es2022',
};

/**
 * The product bundles; an entry whose source does not exist yet is skipped. The extension has two
 * entries from one source (client/): `main` for the Node extension host, `browser` (dist/web/) for
 * the browser's web worker extension host, whose server and compile worker are Web Workers.
 */
const products = [
  { entryPoints: ['client/node/extension.ts'], outfile: 'dist/client.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { entryPoints: ['server/node/main.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['client/node/compileWorker.ts'], outfile: 'dist/compileWorker.js', platform: 'node', format: 'cjs' },
  // The web worker host provides only require('vscode'): everything else is in the bundle.
  { entryPoints: ['client/browser/extension.ts'], outfile: 'dist/web/extension.js', platform: 'browser', format: 'cjs', external: ['vscode'] },
  { entryPoints: ['server/browser/main.ts'], outfile: 'dist/web/server.js', platform: 'browser', format: 'iife' },
  { entryPoints: ['client/browser/compileWorker.ts'], outfile: 'dist/web/compileWorker.js', platform: 'browser', format: 'iife' },
  // dist/cli.js is the `iqm-tools` entry: it runs dist/cliMain.js with its code cache (below).
  { entryPoints: ['cli/launch.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['cli/main.ts'], outfile: 'dist/cliMain.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['node/boundsWorker.ts'], outfile: 'dist/boundsWorker.js', platform: 'node', format: 'cjs' },
  // The webview's CSS takes the codicon font along: dist/codicon.ttf (the page's CSP allows fonts from dist/).
  { entryPoints: ['media/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', loader: { '.ttf': 'file' }, assetNames: '[name]' },
  // `iqm-tools view` (cli/view/): the stand-in for VS Code's webview API, loaded before webview.js, and the page around the previews.
  { entryPoints: ['media/standalone/shim.ts'], outfile: 'dist/view-shim.js', platform: 'browser', format: 'iife' },
  { entryPoints: ['media/standalone/page.ts'], outfile: 'dist/view-page.js', platform: 'browser', format: 'iife' },
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

const builds = [...products.map((p) => ({ ...common, ...p, ...(p.platform === 'browser' ? { plugins: [...common.plugins, noNodeBuiltins()] } : {}) })), ...testBuilds.map((t) => ({ ...common, ...t, minify: false }))];

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  writeCliCodeCache();
}

/**
 * Writes dist/cliMain.codecache (cli/codeCache.ts): the CLI compiles a small generated model with
 * IQM_TOOLS_WRITE_CODE_CACHE=1, and writes the bytecode of what it ran when it ends. Without it
 * the CLI works as well, only a little slower to start: a failure here is a warning.
 */
function writeCliCodeCache() {
  if (!existsSync('dist/cli.js') || !existsSync('dist/cliMain.js')) return;
  const dir = mkdtempSync(join(tmpdir(), 'iqm-tools-cache-'));
  try {
    const input = join(dir, 'warm.iqe');
    writeFileSync(input, warmUpModel());
    // The glTF reader too (its library is a large part of the bundle): each compiled as its own model.
    const gltf = join(dir, 'warm-gltf.glb');
    writeFileSync(gltf, warmUpGlb());
    const run = spawnSync(process.execPath, ['dist/cli.js', 'compile', '--each', input, gltf, '-o', join(dir, 'out') + '/'], {
      env: { ...process.env, IQM_TOOLS_WRITE_CODE_CACHE: '1' },
      encoding: 'utf8',
    });
    if (run.status !== 0 || !existsSync('dist/cliMain.codecache')) {
      console.warn(`esbuild: no code cache for the CLI (its start is slower): ${run.stderr || run.stdout || `exit ${run.status}`}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same strip as a GLB (glTF 2.0 binary): Y-up positions, two joints (the second at y = 1),
 * one LINEAR rotation channel over one second.
 */
function warmUpGlb() {
  const floats = (values) => Buffer.from(new Float32Array(values).buffer);
  const positions = [], joints = [], weights = [];
  for (let i = 0; i < 6; i++) {
    const y = Math.floor(i / 2);
    positions.push(i % 2, y, 0);
    joints.push(y > 1 ? 1 : 0, 0, 0, 0);
    weights.push(1, 0, 0, 0);
  }
  const s = Math.sin(0.25), c = Math.cos(0.25);
  const parts = [
    floats(positions),
    Buffer.from(Uint8Array.from(joints)),
    floats(weights),
    Buffer.from(new Uint16Array([0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4]).buffer),
    floats([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1]),
    floats([0, 1]),
    floats([0, 0, 0, 1, s, 0, 0, c]),
  ];
  const views = [];
  let offset = 0;
  for (const part of parts) {
    views.push({ buffer: 0, byteOffset: offset, byteLength: part.length });
    offset += part.length;
  }
  const accessor = (view, componentType, count, type, extra = {}) => ({ bufferView: view, componentType, count, type, ...extra });
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0, 2] }],
    nodes: [{ name: 'root', children: [1] }, { name: 'tip', translation: [0, 1, 0] }, { name: 'strip', mesh: 0, skin: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, JOINTS_0: 1, WEIGHTS_0: 2 }, indices: 3 }] }],
    skins: [{ joints: [0, 1], inverseBindMatrices: 4 }],
    animations: [{ name: 'bend', samplers: [{ input: 5, output: 6 }], channels: [{ sampler: 0, target: { node: 1, path: 'rotation' } }] }],
    accessors: [
      accessor(0, 5126, 6, 'VEC3', { min: [0, 0, 0], max: [1, 2, 0] }),
      accessor(1, 5121, 6, 'VEC4'),
      accessor(2, 5126, 6, 'VEC4'),
      accessor(3, 5123, 12, 'SCALAR'),
      accessor(4, 5126, 2, 'MAT4'),
      accessor(5, 5126, 2, 'SCALAR', { min: [0], max: [1] }),
      accessor(6, 5126, 2, 'VEC4'),
    ],
    bufferViews: views,
    buffers: [{ byteLength: offset }],
  };
  const pad = (buffer, fill) => Buffer.concat([buffer, Buffer.alloc((4 - (buffer.length % 4)) % 4, fill)]);
  const jsonChunk = pad(Buffer.from(JSON.stringify(json)), 0x20);
  const binChunk = pad(Buffer.concat(parts), 0);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'ascii');
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + jsonChunk.length + 8 + binChunk.length, 8);
  const chunkHeader = (length, type) => {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(length, 0);
    b.writeUInt32LE(type, 4);
    return b;
  };
  return Buffer.concat([header, chunkHeader(jsonChunk.length, 0x4e4f534a), jsonChunk, chunkHeader(binChunk.length, 0x004e4942), binChunk]);
}

/** A small skinned, animated IQE: a quad strip on two joints, three frames (what the compile runs for most models). */
function warmUpModel() {
  const lines = ['# Inter-Quake Export', 'joint root -1', 'pq 0 0 0 0 0 0 1', 'joint tip 0', 'pq 0 0 1 0 0 0 1', 'mesh strip', 'material strip.tga'];
  for (let i = 0; i < 6; i++) {
    const z = Math.floor(i / 2);
    lines.push(`vp ${i % 2} 0 ${z}`, `vt ${i % 2} ${z / 2}`, `vn 0 -1 0`, `vb ${z > 1 ? 1 : 0} 1`);
  }
  lines.push('fm 0 1 3', 'fm 0 3 2', 'fm 2 3 5', 'fm 2 5 4', 'animation bend', 'framerate 10');
  for (let f = 0; f < 3; f++) {
    const s = Math.sin(f / 4), c = Math.cos(f / 4);
    lines.push('frame', 'pq 0 0 0 0 0 0 1', `pq 0 0 1 ${s.toFixed(6)} 0 0 ${c.toFixed(6)}`);
  }
  return lines.join('\n') + '\n';
}

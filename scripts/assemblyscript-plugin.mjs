// The esbuild plugin of every build that bundles core/ (esbuild.mjs, the in-editor tests, scripts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `import bytes from '…/wasm/NAME.wasm'`: the AssemblyScript source wasm/NAME.ts compiled to
 * WebAssembly here, at build time (the binary is never committed), and bundled as its bytes (a
 * Uint8Array) so that the Node and the browser bundles alike carry it. Each is compiled once per build.
 */
export const assemblyScriptPlugin = {
  name: 'assemblyscript',
  setup(build) {
    build.onResolve({ filter: /[\\/]wasm[\\/][\w-]+\.wasm$/ }, (args) => ({ path: join(args.resolveDir, args.path.replace(/\.wasm$/, '.ts')), namespace: 'assemblyscript' }));
    build.onLoad({ filter: /.*/, namespace: 'assemblyscript' }, async (args) => ({ contents: await compileAssemblyScript(args.path), loader: 'binary', watchFiles: [args.path] }));
  },
};
const compiledWasm = new Map();
function compileAssemblyScript(path) {
  if (!compiledWasm.has(path)) compiledWasm.set(path, (async () => {
    const { default: asc } = await import('assemblyscript/asc');
    const result = await asc.compileString(readFileSync(path, 'utf8'), { optimizeLevel: 3, shrinkLevel: 0, runtime: 'stub', noAssert: true, enable: ['simd'] });
    if (result.error || !result.binary) throw new Error(`${path}: ${result.error?.message ?? 'no binary'}\n${result.stderr}`);
    return result.binary;
  })());
  return compiledWasm.get(path);
}

// An esbuild plugin for the browser bundles: the glTF library (@gltf-transform/core) carries a Node
// reader, NodeIO, that imports node:fs and node:path when it is used; nothing here uses it
// (core/gltf hands the library every file's bytes), so in a browser bundle those imports become a
// module that says so. `filter`: the imports it replaces (default: every node: built-in).
export function noNodeBuiltins(filter = /^node:/) {
  return {
    name: 'no-node-builtins',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'no-node' }));
      build.onLoad({ filter: /.*/, namespace: 'no-node' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${args.path} is not available in the browser`)});`,
        loader: 'js',
      }));
    },
  };
}

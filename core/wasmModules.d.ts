// `import bytes from '../../wasm/NAME.wasm'`: wasm/NAME.ts compiled to WebAssembly by esbuild.mjs.
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}

// The WebAssembly kernels (wasm/*.ts, AssemblyScript compiled by esbuild.mjs into the bundles as
// bytes): instantiated on first use, synchronously (they are a few KB: baseline code is ready at
// once, which is why they exist: docs/PERFORMANCE.md, small models run mostly cold JavaScript).
// Where WebAssembly cannot compile (none, or a content security policy without
// 'wasm-unsafe-eval') a kernel is null and its caller runs the JavaScript version, which gives
// the same results; setWasmEnabled(false) chooses that too (tests, benchmarks).

/** WebAssembly, as far as it is used here (core/ is built without DOM or node types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let enabled = true;

/** false: every kernel reports unavailable from now on (its JavaScript version runs). */
export function setWasmEnabled(value: boolean): void {
  enabled = value;
}

export function wasmEnabled(): boolean {
  return enabled;
}

/** The exports of a kernel as T, or null when it cannot be had (above); memoised in `slot`. */
export function loadKernel<T>(slot: { kernel?: T | null }, bytes: Uint8Array): T | null {
  if (!enabled) return null;
  if (slot.kernel !== undefined) return slot.kernel;
  try {
    if (!api) throw new Error('no WebAssembly');
    const instance = new api.Instance(new api.Module(bytes), {
      env: {
        abort: () => {
          throw new Error('WebAssembly kernel aborted');
        },
      },
    });
    slot.kernel = instance.exports as T;
  } catch {
    slot.kernel = null;
  }
  return slot.kernel;
}

/** What kernelLayout needs of a kernel: its memory and where its own data ends. */
export interface KernelMemory {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  heapBase(): number;
}

/**
 * Arrays of these byte sizes laid out one after another in a kernel's memory, from the end of its
 * own data, each at a multiple of 16 bytes (v128 loads; doubles), the memory grown to hold them:
 * their byte offsets. The layout is the caller's until its next call (one pass at a time a thread).
 */
export function kernelLayout(kernel: KernelMemory, sizes: readonly number[]): number[] {
  const align = (n: number): number => (n + 15) & ~15;
  let at = align(kernel.heapBase());
  const offsets = sizes.map((size) => {
    const offset = at;
    at += align(size);
    return offset;
  });
  const memory = kernel.memory;
  if (memory.buffer.byteLength < at) memory.grow(Math.ceil((at - memory.buffer.byteLength) / 65536));
  return offsets;
}

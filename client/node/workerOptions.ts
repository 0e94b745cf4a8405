// How the Node extension host starts its compile worker (also used by bench/compile-editor.ts).
import type { WorkerOptions } from 'node:worker_threads';
import { LARGE_INPUT } from '../../node/heap';

/** The young generation of a large input's compile worker, MiB (V8's own grows while a large file is parsed, and stays). */
const LARGE_INPUT_YOUNG_MB = 6;

/**
 * The worker's options for `inputBytes` of IQE text: for a large input its young generation is
 * capped, as the CLI keeps it from growing (node/heap.ts) with a flag that here would reach every
 * extension of the host: big.iqe peaks ~30 MiB lower in the same time (bench/compile-editor.ts).
 */
export function compileWorkerOptions(inputBytes: number): WorkerOptions {
  return inputBytes >= LARGE_INPUT ? { resourceLimits: { maxYoungGenerationSizeMb: LARGE_INPUT_YOUNG_MB } } : {};
}

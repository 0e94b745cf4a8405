// The CLI's heap settings for the compile of a large input: a young generation that does not
// grow, and garbage collection on request (core/pages.ts setCollector). CLI.md runs the CLI as
// `node dist/cli.js` without flags, so both are set at run time:
// - --semi-space-growth-factor=1: V8 doubles the young generation (up to 2 x 16 MiB) while a
//   large file is parsed, and keeps it; the compile's JS objects are short-lived or few, so the
//   first size is enough (big.iqe: -25 MiB peak). V8 reads this flag at each growth. Not for
//   small files: there the cold code boxes every number it computes (24 MB of garbage on a
//   mrfixit-size compile), and a young generation that stays small collects it three times as
//   often (+10 ms).
// - --expose-gc, then `gc` taken from a context made after it.
// node:v8 is loaded only then: a small compile does not need it at start-up.
import { runInNewContext } from 'node:vm';

/** Input bytes from which these settings apply (and the editor's compile worker's heap limit, core/host/compileProtocol.ts). */
export const LARGE_INPUT = 16 << 20;

/**
 * Sets the heap flags for a compile of `inputBytes` of IQE text; gives a function that runs a
 * full collection, or null for small inputs (they map too few pages to need one, and the context
 * that gives `gc` costs a few ms) and where node does not give one.
 */
export function compileHeap(inputBytes: number): (() => void) | null {
  if (inputBytes < LARGE_INPUT) return null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  return fullCollector();
}

/** Input bytes from which `check` and `sample` collect garbage between their steps (a few ms each): what a step dropped is freed before the next allocates. */
export const COLLECT_BETWEEN_STEPS_FROM = 1 << 20;

/** A function that runs a full collection and waits for the buffers it freed, or null where node does not give one. */
export function fullCollector(): (() => void) | null {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
  if (typeof gc !== 'function') return null;
  const collect = gc as (options?: { type: 'major' | 'minor' }) => void;
  return () => {
    collect();
    // The dropped buffers of a full collection are freed on another thread, later; the next
    // collection (a cheap young-generation one) waits for that to finish.
    collect({ type: 'minor' });
  };
}

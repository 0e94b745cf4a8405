// The CLI's garbage collector on request (core/pages.ts setCollector): node exposes `gc` only
// with --expose-gc, and CLI.md runs the CLI as `node dist/cli.js` without flags, so the flag is
// set at run time and `gc` taken from a context made after it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A function that runs a full collection, or null where node does not give one. */
export function nodeCollector(): (() => void) | null {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
  return typeof gc === 'function' ? () => void (gc as () => unknown)() : null;
}

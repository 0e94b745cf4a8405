// The V8 flags a process of ours runs with (the `iqm-tools` process; cli/launch.ts), against
// node's shutdown deadlock (nodejs/node#54918; #64274 and #64560 on node 24 and 26): a V8 background thread compiling a
// hot function (TurboFan on node 20, Maglev and Sparkplug as well from node 24) that needs a
// garbage collection waits for the main thread to run it, while the main thread, its work done,
// waits for that background thread: in `NodePlatform::DrainTasks` at the end of the event loop
// (node 20 waits there for every background task), or joining the platform's threads in
// `process.exit()` on every version. The process printed its output and never exits. node's fixes
// (#58047: wait at the end only for user-blocking tasks) narrow the window on newer versions but
// do not close it, and V8 reads these flags only when the isolate starts (v8.setFlagsFromString
// at run time leaves TurboFan concurrent), so cli/launch.ts starts node again with them when
// they are missing. Compiled on the main thread instead, optimised code is the same; no
// compile is then in flight when the process ends.
export const EXIT_SAFE_V8_FLAGS = ['--no-concurrent-recompilation', '--no-concurrent-sparkplug'] as const;

/** The flags of EXIT_SAFE_V8_FLAGS that `execArgv` (node's own arguments) does not have. */
export function missingExitFlags(execArgv: readonly string[]): string[] {
  return EXIT_SAFE_V8_FLAGS.filter((flag) => !execArgv.includes(flag));
}

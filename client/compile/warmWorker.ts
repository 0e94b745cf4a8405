// The compile worker kept between compiles. In a fresh worker every stage of a compile runs as cold
// code: a 0.6 MB model takes ~250 ms of CPU the first time and 26-57 ms once its code is optimised
// (docs/PERFORMANCE.md), and the preview compiles its source again on every change. So a worker
// that answered is kept for the next compile, one at most (a second compile meanwhile gets a
// worker of its own, ended after it), and ended once no compile has come for IDLE_MS: an idle
// worker is a V8 isolate of its own. A worker that was cancelled, failed or died is never kept.

/** How long a kept worker waits for the next compile, ms. */
export const IDLE_MS = 60_000;

export class WarmWorker<W> {
  private kept: W | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `end` terminates a worker; `idleMs`: how long one is kept without a compile. */
  constructor(
    private readonly end: (worker: W) => void,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Whether a worker is kept now. */
  get holding(): boolean {
    return this.kept !== undefined;
  }

  /** The kept worker, now the caller's, or undefined when none is kept. */
  take(): W | undefined {
    const worker = this.kept;
    this.kept = undefined;
    this.stopTimer();
    return worker;
  }

  /** Keeps `worker` for the next compile (a worker kept before is ended: one at most). */
  keep(worker: W): void {
    if (this.kept !== undefined && this.kept !== worker) this.end(this.kept);
    this.kept = worker;
    this.stopTimer();
    this.timer = setTimeout(() => this.dispose(), this.idleMs);
    // Node: a kept worker's timer does not hold the process (tests, the CLI's own uses).
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** `worker` ended on its own (it exited or failed while kept): it is not handed out again. */
  forget(worker: W): void {
    if (this.kept === worker) this.take();
  }

  /** Ends the kept worker, if any (idle for IDLE_MS, or the extension ends). */
  dispose(): void {
    const worker = this.take();
    if (worker !== undefined) this.end(worker);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

// When to validate, and making sure only the newest version's diagnostics are published.
//
// Timing is a throttle: a change to a document whose last validation began `debounceMs` or more ago
// is validated at once (so a single keystroke shows its result with no delay); while the user keeps
// typing, validations begin at most every `debounceMs`, each taking the newest version, so what a
// keystroke did shows within debounceMs plus one validation (issue 35: a trailing debounce showed
// nothing until typing paused).
//
// Cancellation: a validation remembers the version it started with. Large documents are parsed in
// slices of a few milliseconds with a turn of the event loop between slices, so that a newer
// didChange is applied in between; the older validation then notices and stops, and never publishes.
//
// Cache: the per-document IqeDocument keeps its parse; the result published for (version, options)
// is remembered, and asking again for the same pair publishes nothing new.
import type { Diagnostic } from 'vscode-languageserver';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import type { IqeDocument } from '../core/iqe/document';
import { prepareNavigation } from '../core/iqe/navigation';
import type { ValidationTarget } from './documents';
import { internalErrorDiagnostic, toLspDiagnostics } from './diagnostics';
import { engineDiagnostics } from './engineDiagnostics';
import { faults } from './faults';
import { optionsKey, validateOptions, type SettingsStore } from './settings';

/** Characters handed to IqeDocument.parseSome per call, and how long a slice may run before yielding. */
const SLICE_CHARS = 1 << 17;
export const SLICE_MS = 4;

export type Publish = (uri: string, version: number | undefined, diagnostics: Diagnostic[]) => void;

export interface Logger {
  error(message: string): void;
  info(message: string): void;
}

interface Run {
  readonly version: number;
  readonly key: string;
}

interface State {
  /** performance.now() when the latest validation began (or of the open). */
  lastStart: number;
  /**
   * performance.now() before which no validation begins on a change: the end of the last one plus
   * the length of its analysis (what every keystroke repeats; a first parse is not), so that
   * validating (stale runs included) takes at most about half of the server's time and requests are
   * still answered when the machine is too slow to validate every keystroke.
   */
  restUntil: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  running: Run | undefined;
  /** What was last published (version and options): asking for it again publishes nothing. */
  published: Run | undefined;
  /** Whether the navigation tables of the document's chunks were built after its first diagnostics. */
  navigationPrepared: boolean;
}

/** Node's setImmediate (after the I/O that arrived meanwhile); workers have none. */
const setImmediateIfAny = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/**
 * Resolves on a later turn of the event loop, after the messages that arrived meanwhile: Node's
 * setImmediate, or in a worker a MessageChannel message (setTimeout there is clamped to 4 ms).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (setImmediateIfAny) {
      // Two hops: vscode-jsonrpc handles a message that arrived during the slice in a setImmediate
      // queued after ours, so with one hop the next slice ran first and a request waited for it too
      // (issue 35: definition and references waited a slice longer than hovers); the second hop
      // lands on the next turn, after the connection's.
      setImmediateIfAny(() => setImmediateIfAny(resolve));
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Parses what is left of `iqe` in time-boxed slices, yielding to the event loop between them (so
 * that requests and newer changes are handled meanwhile). Resolves true when it is all parsed, false
 * as soon as `stop()` says the work is no longer wanted.
 */
export function parseInSlices(iqe: IqeDocument, stop: () => boolean): Promise<boolean> {
  function* steps(): Generator<void, void, undefined> {
    while (!iqe.parseSome(SLICE_CHARS)) yield;
  }
  return stepInSlices(steps(), () => {}, stop);
}

/**
 * Runs `steps` to their end in time-boxed slices, handing each value to `each` and yielding to the
 * event loop between slices. Resolves true when done, false as soon as `stop()` says the work is no
 * longer wanted.
 */
async function stepInSlices<T>(steps: Iterator<T, unknown, undefined>, each: (value: T) => void, stop: () => boolean): Promise<boolean> {
  for (;;) {
    const sliceStart = performance.now();
    do {
      const step = steps.next();
      if (step.done) return true;
      each(step.value);
    } while (performance.now() - sliceStart < SLICE_MS);
    await yieldToEventLoop();
    if (stop()) return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export class ValidationScheduler {
  private readonly states = new Map<string, State>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly log: Logger,
    private readonly publish: Publish,
  ) {}

  /** The document is new (opened, or read from disk): validate it now. */
  opened(target: ValidationTarget): void {
    this.forget(target.uri);
    const state = this.state(target.uri);
    void this.run(target, state);
  }

  /** The document changed: validate now if the last validation began debounceMs ago or more, else when that much time has passed. */
  changed(target: ValidationTarget): void {
    const state = this.state(target.uri);
    void this.settings.get(target.uri).then(({ debounceMs }) => {
      if (target.closed || this.states.get(target.uri) !== state) return;
      if (state.timer !== undefined) return; // a validation is due already, and takes the newest version
      const wait = Math.max(state.lastStart + debounceMs, state.restUntil) - performance.now();
      if (wait <= 0) {
        void this.run(target, state);
      } else {
        state.timer = setTimeout(() => {
          state.timer = undefined;
          void this.run(target, state);
        }, wait);
      }
    });
  }

  /** Validate again without a content change (settings changed); a no-op when the result would be the same. */
  revalidate(target: ValidationTarget): void {
    const state = this.state(target.uri);
    if (state.timer !== undefined) return; // a validation is already due
    void this.run(target, state);
  }

  /** Stops everything pending for the URI (closed, or handed over to another kind of target). */
  forget(uri: string): void {
    const state = this.states.get(uri);
    if (!state) return;
    if (state.timer !== undefined) clearTimeout(state.timer);
    this.states.delete(uri);
  }

  dispose(): void {
    for (const uri of [...this.states.keys()]) this.forget(uri);
  }

  private state(uri: string): State {
    let state = this.states.get(uri);
    if (!state) {
      state = { lastStart: -Infinity, restUntil: -Infinity, timer: undefined, running: undefined, published: undefined, navigationPrepared: false };
      this.states.set(uri, state);
    }
    return state;
  }

  private async run(target: ValidationTarget, state: State): Promise<void> {
    const version = target.version;
    state.lastStart = performance.now();
    let analysisStart: number | undefined;
    const stale = () => target.closed || target.version !== version || this.states.get(target.uri) !== state;
    let run: Run | undefined;
    try {
      const settings = await this.settings.get(target.uri);
      if (stale()) return;
      const key = optionsKey(settings);
      if (state.published?.version === version && state.published.key === key) return; // cached
      if (state.running?.version === version && state.running.key === key) return; // under way
      const current: Run = { version, key };
      run = state.running = current;
      const iqe = target.iqe;
      if (faults.validate !== undefined && iqe.text.includes(faults.validate)) throw new Error('injected fault (IQM_TOOLS_LSP_FAULT)');
      // Parse in time-boxed slices; between slices newer changes get their turn.
      if (!(await parseInSlices(iqe, () => stale() || state.running !== current || target.iqe !== iqe))) return;
      analysisStart = performance.now();
      // The analysis and the diagnostics in slices too: requests are answered between them.
      const superseded = () => stale() || state.running !== current || target.iqe !== iqe;
      if (!(await stepInSlices(iqe.analyseInSteps(), () => {}, superseded))) return;
      const found: IqeDiagnostic[] = [];
      if (!(await stepInSlices(iqe.eachDiagnostic(validateOptions(settings)), (d) => found.push(d), superseded))) return;
      const diagnostics = toLspDiagnostics(target.uri, [...found, ...engineDiagnostics(iqe, settings)]);
      if (stale() || state.running !== current) return;
      state.published = current;
      this.publish(target.uri, target.publishVersion, diagnostics);
      if (!state.navigationPrepared) {
        state.navigationPrepared = true;
        // In slices after the first diagnostics, while the user reads them; chunks an edit replaces meanwhile are built when asked for.
        void stepInSlices(prepareNavigation([...iqe.parsedChunks]), () => {}, () => target.closed || target.iqe !== iqe || this.states.get(target.uri) !== state);
      }
    } catch (error) {
      this.log.error(`Validation of ${target.uri} (version ${version}) failed: ${describe(error)}`);
      if (stale()) return;
      state.published = undefined;
      try {
        target.reset();
      } catch (resetError) {
        this.log.error(`Rebuilding the parse of ${target.uri} failed: ${describe(resetError)}`);
      }
      this.publish(target.uri, target.publishVersion, [internalErrorDiagnostic(error)]);
    } finally {
      if (run !== undefined && state.running === run) state.running = undefined;
      if (analysisStart !== undefined) {
        const ended = performance.now();
        state.restUntil = Math.max(state.restUntil, ended + (ended - analysisStart));
      }
    }
  }
}

// When to validate, and making sure only the newest version's diagnostics are published.
//
// Timing is a leading-edge throttle with a trailing debounce: a change to a document that has been
// quiet for `debounceMs` is validated at once (so a single keystroke shows its result with no delay);
// changes that follow within `debounceMs` of one another are a burst, validated once typing pauses.
//
// Cancellation: a validation remembers the version it started with. Large documents are parsed in
// slices of a few milliseconds with a turn of the event loop between slices, so that a newer
// didChange is applied in between; the older validation then notices and stops, and never publishes.
//
// Cache: the per-document IqeDocument keeps its parse; the result published for (version, options)
// is remembered, and asking again for the same pair publishes nothing new.
import type { Diagnostic } from 'vscode-languageserver';
import type { ValidationTarget } from './documents';
import { internalErrorDiagnostic, toLspDiagnostics } from './diagnostics';
import { engineDiagnostics } from './engineDiagnostics';
import { faults } from './faults';
import { optionsKey, validateOptions, type SettingsStore } from './settings';

/** Characters handed to IqeDocument.parseSome per call, and how long a slice may run before yielding. */
const SLICE_CHARS = 1 << 18;
const SLICE_MS = 12;

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
  /** performance.now() of the latest change (or of the open). */
  lastActivity: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  running: Run | undefined;
  /** What was last published (version and options): asking for it again publishes nothing. */
  published: Run | undefined;
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
      setImmediateIfAny(resolve);
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
    state.lastActivity = performance.now();
    void this.run(target, state);
  }

  /** The document changed: validate now if it had been quiet for debounceMs, else once the burst pauses. */
  changed(target: ValidationTarget): void {
    const state = this.state(target.uri);
    const now = performance.now();
    const previous = state.lastActivity;
    state.lastActivity = now;
    void this.settings.get(target.uri).then(({ debounceMs }) => {
      if (target.closed || this.states.get(target.uri) !== state) return;
      const quiet = state.timer === undefined && now - previous >= debounceMs;
      if (state.timer !== undefined) clearTimeout(state.timer);
      state.timer = undefined;
      if (debounceMs <= 0 || quiet) {
        void this.run(target, state);
      } else {
        state.timer = setTimeout(() => {
          state.timer = undefined;
          void this.run(target, state);
        }, debounceMs);
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
      state = { lastActivity: -Infinity, timer: undefined, running: undefined, published: undefined };
      this.states.set(uri, state);
    }
    return state;
  }

  private async run(target: ValidationTarget, state: State): Promise<void> {
    const version = target.version;
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
      for (;;) {
        const sliceStart = performance.now();
        let done = iqe.parseSome(SLICE_CHARS);
        while (!done && performance.now() - sliceStart < SLICE_MS) done = iqe.parseSome(SLICE_CHARS);
        if (done) break;
        await yieldToEventLoop();
        if (stale() || state.running !== current || target.iqe !== iqe) return;
      }
      const diagnostics = toLspDiagnostics(target.uri, [...iqe.diagnostics(validateOptions(settings)), ...engineDiagnostics(iqe, settings)]);
      if (stale() || state.running !== current) return;
      state.published = current;
      this.publish(target.uri, target.publishVersion, diagnostics);
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
    }
  }
}

// The globals that both of the extension's hosts have: Node (desktop and remote extension host,
// the language server process) and the browser's workers (the web worker extension host, the
// language server and compile workers of vscode.dev). client/ and server/ common code is checked
// against these only, so a Node-only or DOM-only global there is a type error, not a crash in the
// other host. Declared by hand because no lib has exactly this intersection.

type TimerHandle = { readonly __timerHandle: unique symbol } | number;
declare function setTimeout(callback: () => void, ms?: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle | undefined): void;

declare const performance: { now(): number };

declare const console: {
  log(...data: unknown[]): void;
  error(...data: unknown[]): void;
};

declare const crypto: { getRandomValues<T extends Uint8Array>(array: T): T };

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

/** A macrotask queue without setTimeout's clamping (Node and workers both have it). */
declare class MessageChannel {
  readonly port1: { onmessage: (() => void) | null; close(): void };
  readonly port2: { postMessage(message: unknown): void; close(): void };
}

// Test harness for the language server: spawns the BUILT dist/server.js over stdio and speaks LSP
// to it with vscode-jsonrpc. Answers workspace/configuration from `settings`, records every
// publishDiagnostics, and lets a test wait for one with a timeout (never a fixed sleep).
// With `web`, the browser build dist/web/server.js runs instead, in a worker thread made to look
// like a Web Worker (its global `self` is the port to this thread; no setImmediate), and the test
// answers its iqmTools/readFile requests as the client would (`files`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  createMessageConnection,
  PortMessageReader,
  PortMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { ListFolderRequest, ReadFileRequest, type ReadFileParams, type ReadFileResult } from '../../../core/lspMethods';
import type {
  ConfigurationParams,
  Diagnostic,
  PublishDiagnosticsParams,
  TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol';

export const MINIMAL_IQE = ['# Inter-Quake Export', 'mesh m', 'material mat', 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2', ''].join('\n');

/** The repository root: the nearest directory above this (bundled) file with a package.json. */
/** A valid document of about `bytes` characters. */
export function bigIqe(bytes: number): string {
  const parts = ['# Inter-Quake Export\nmesh m\nmaterial mat\n'];
  let size = parts[0].length;
  let vertices = 0;
  while (size < bytes) {
    const chunk: string[] = [];
    for (let i = 0; i < 1000; i++) chunk.push(`vp ${i} ${(i * i) % 7} ${vertices / 1000}\n`);
    for (let i = 0; i < 998; i++) chunk.push(`fa ${vertices + i} ${vertices + i + 1} ${vertices + i + 2}\n`);
    vertices += 1000;
    const text = chunk.join('');
    parts.push(text);
    size += text.length;
  }
  return parts.join('');
}

export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export const SERVER_PATH = join(repoRoot(), 'dist', 'server.js');
export const WEB_SERVER_PATH = join(repoRoot(), 'dist', 'web', 'server.js');

/** Runs the browser server bundle in a worker thread as in a Web Worker: `self` posts to and hears from the parent, and there is no setImmediate. */
const WEB_WORKER_BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
globalThis.self = parentPort;
delete globalThis.setImmediate;
require(workerData.server);
`;
export interface DiagnosticSettings {
  maxProblems?: number;
  ignore?: string[];
  severity?: Record<string, string>;
  debounceMs?: number;
}

export interface StartOptions {
  /** iqmTools.diagnostics.* as the client would answer workspace/configuration. Default: debounce 0. */
  diagnostics?: DiagnosticSettings;
  /** Whether the client advertises workspace.configuration (default true). */
  configuration?: boolean;
  /** iqmTools.engine. */
  engine?: string;
  /** Extra node flags for the server process, e.g. --expose-gc. */
  execArgv?: string[];
  /** Extra environment variables for the server process. */
  env?: Record<string, string>;
  /** Run the browser build (dist/web/server.js) in a worker thread instead of the Node server process. */
  web?: boolean;
  /** The client's side of iqmTools/readFile (the browser server asks for large files' texts). */
  files?: (params: ReadFileParams) => Promise<ReadFileResult>;
  /** The client's side of iqmTools/listFolder (the names in a folder, null when none). */
  listFolder?: (uri: string) => Promise<string[] | null>;
}

/** How the test reaches the server and ends it: a child process, or a worker thread. */
interface ServerRunner {
  /** The Node server's process (undefined for the web server's worker). */
  process?: ChildProcess;
  connection: MessageConnection;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

interface Waiter {
  uri: string;
  since: number;
  predicate: (params: PublishDiagnosticsParams) => boolean;
  resolve: (params: PublishDiagnosticsParams) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class TestServer {
  /** Every publishDiagnostics, in arrival order. */
  readonly published: PublishDiagnosticsParams[] = [];
  /** window/logMessage texts and stderr lines. */
  readonly logs: string[] = [];
  /** How many workspace/configuration requests the server made, by scopeUri. */
  readonly configurationRequests: (string | undefined)[] = [];
  diagnosticSettings: DiagnosticSettings;
  /** iqmTools.engine as answered to workspace/configuration. */
  engine: string | undefined;
  exitCode: number | null | undefined;
  private readonly waiters = new Set<Waiter>();
  readonly exited: Promise<void>;

  readonly process: ChildProcess | undefined;
  readonly connection: MessageConnection;
  private readonly kill: () => void;

  private constructor(runner: ServerRunner, options: StartOptions) {
    this.process = runner.process;
    this.connection = runner.connection;
    this.kill = runner.kill;
    const connection = runner.connection;
    this.diagnosticSettings = { debounceMs: 0, ...options.diagnostics };
    this.engine = options.engine;
    this.exited = new Promise((resolve) => {
      runner.onExit((code) => {
        this.exitCode = code;
        for (const waiter of this.waiters) {
          clearTimeout(waiter.timer);
          waiter.reject(new Error(`server exited (code ${code}) while waiting for diagnostics of ${waiter.uri}\n${this.logs.join('\n')}`));
        }
        this.waiters.clear();
        resolve();
      });
    });
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.published.push(params);
      const index = this.published.length - 1;
      for (const waiter of [...this.waiters]) {
        if (waiter.uri === params.uri && index >= waiter.since && waiter.predicate(params)) {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          waiter.resolve(params);
        }
      }
    });
    connection.onNotification('window/logMessage', (params: { message: string }) => this.logs.push(params.message));
    connection.onRequest('workspace/configuration', (params: ConfigurationParams) => {
      return params.items.map((item) => {
        this.configurationRequests.push(item.scopeUri);
        const section = { diagnostics: this.diagnosticSettings, engine: this.engine, trace: { server: 'off' } };
        if (item.section === 'iqmTools') return section;
        if (item.section === undefined) return { iqmTools: section };
        return null;
      });
    });
    connection.onRequest(ReadFileRequest, (params) => {
      if (!options.files) throw new Error(`${ReadFileRequest.method} asked of a test client that serves no files`);
      return options.files(params);
    });
    connection.onRequest(ListFolderRequest, ({ uri }) => {
      if (!options.listFolder) throw new Error(`${ListFolderRequest.method} asked of a test client that lists no folders`);
      return options.listFolder(uri);
    });
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
  }

  static async start(options: StartOptions = {}): Promise<TestServer> {
    const path = options.web ? WEB_SERVER_PATH : SERVER_PATH;
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` (npm test does)`);
    let server: TestServer;
    if (options.web) {
      const worker = new Worker(WEB_WORKER_BOOTSTRAP, { eval: true, workerData: { server: path }, stderr: true, stdout: true });
      const connection = createMessageConnection(new PortMessageReader(worker), new PortMessageWriter(worker));
      server = new TestServer({ connection, onExit: (listener) => worker.once('exit', listener), kill: () => void worker.terminate() }, options);
      for (const stream of [worker.stderr, worker.stdout]) {
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => server.logs.push(chunk));
      }
      worker.on('error', (error) => server.logs.push(`worker error: ${error.stack ?? error.message}`));
    } else {
      const child = spawn(process.execPath, [...(options.execArgv ?? []), path, '--stdio'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, ...options.env },
      });
      const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
      server = new TestServer({ process: child, connection, onExit: (listener) => child.once('exit', listener), kill: () => child.kill('SIGKILL') }, options);
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => server.logs.push(chunk));
    }
    const connection = server.connection;
    connection.onError(() => undefined);
    connection.listen();
    try {
      const exitedEarly = server.exited.then(() => {
        throw new Error(`the server exited (code ${server.exitCode}) before answering initialize:\n${server.logs.join('\n')}`);
      });
      exitedEarly.catch(() => undefined); // it also rejects at the normal exit, later
      await withTimeout(
        Promise.race([exitedEarly, connection.sendRequest('initialize', {
          processId: process.pid,
          rootUri: null,
          capabilities: {
            workspace: { configuration: options.configuration ?? true, didChangeConfiguration: { dynamicRegistration: false } },
            textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } },
          },
        })]),
        30_000,
        'initialize',
      );
      await connection.sendNotification('initialized', {});
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  /** The index the next publishDiagnostics will get; pass it as `since` to wait for something new. */
  mark(): number {
    return this.published.length;
  }

  open(uri: string, text: string, version = 1, languageId = 'iqe'): Promise<void> {
    return this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  close(uri: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async setSettings(diagnostics: DiagnosticSettings, engine?: string): Promise<void> {
    this.diagnosticSettings = diagnostics;
    this.engine = engine;
    await this.connection.sendNotification('workspace/didChangeConfiguration', { settings: { iqmTools: { diagnostics, engine } } });
  }

  /** Resolves with the first publishDiagnostics for `uri` (at index >= since) that satisfies `predicate`. */
  waitForDiagnostics(
    uri: string,
    predicate: (params: PublishDiagnosticsParams) => boolean = () => true,
    { since = 0, timeoutMs = 30_000 }: { since?: number; timeoutMs?: number } = {},
  ): Promise<PublishDiagnosticsParams> {
    for (let i = since; i < this.published.length; i++) {
      const params = this.published[i];
      if (params.uri === uri && predicate(params)) return Promise.resolve(params);
    }
    if (!this.alive) return Promise.reject(new Error(`server is not running (exit code ${this.exitCode})`));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        uri,
        since,
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          const seen = this.published.filter((p) => p.uri === uri).map((p) => `v${p.version}: ${summary(p.diagnostics)}`);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for diagnostics of ${uri}; seen: [${seen.join(' | ')}]\n${this.logs.join('\n')}`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Waits for the diagnostics of exactly this document version. */
  waitForVersion(uri: string, version: number, timeoutMs?: number): Promise<PublishDiagnosticsParams> {
    return this.waitForDiagnostics(uri, (p) => p.version === version, { timeoutMs });
  }

  request<R>(method: string, params?: unknown, timeoutMs = 10_000): Promise<R> {
    return withTimeout(this.connection.sendRequest<R>(method, params), timeoutMs, method);
  }

  /** shutdown + exit, then kill if it has not gone within a few seconds. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.alive) {
      try {
        await withTimeout(this.connection.sendRequest('shutdown'), 3_000, 'shutdown');
        await this.connection.sendNotification('exit');
        await withTimeout(this.exited, 3_000, 'exit');
      } catch {
        // fall through to kill
      }
    }
    if (this.alive) {
      this.kill();
      await this.exited;
    }
    this.connection.dispose();
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A range on one line, in the LSP shape. */
export function range(line: number, character: number, endCharacter: number) {
  return { start: { line, character }, end: { line, character: endCharacter } };
}

/** "[code x count, ...]" for messages. */
export function summary(diagnostics: readonly Diagnostic[]): string {
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(String(d.code), (counts.get(String(d.code)) ?? 0) + 1);
  return `[${[...counts].map(([code, n]) => (n > 1 ? `${code} x${n}` : code)).join(', ')}]`;
}

export function codes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => String(d.code));
}

/** Codes of the errors and warnings (information and hints, e.g. `unreferenced-vertex`, left out). */
export function problemCodes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => (d.severity ?? 1) <= 2).map((d) => String(d.code));
}

/** Asserts that the only error or warning has this code, and returns it. */
export function single(diagnostics: readonly Diagnostic[], code: string): Diagnostic {
  const problems = problemCodes(diagnostics);
  if (problems.length !== 1 || problems[0] !== code) {
    throw new Error(`expected exactly one problem ${code}, got ${summary(diagnostics)}`);
  }
  return diagnostics.find((d) => d.code === code)!;
}

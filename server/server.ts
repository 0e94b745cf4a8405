// The IQE language server: connection wiring only. Features live in their own modules.
// Transport comes from the command line (--node-ipc from the VS Code client, --stdio in tests).
import {
  CodeActionKind,
  createConnection,
  ProposedFeatures,
  TextDocumentSyncKind,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { codeActions } from './codeActions';
import { completions } from './completion';
import { DocumentStore } from './documents';
import { foldingRanges } from './folding';
import { hover } from './hover';
import { definition, references } from './references';
import { documentSymbols } from './symbols';
import type { IqeDocument } from '../core/iqe/document';
import { CLOSE_LARGE_FILE, DEBUG_MEMORY, VALIDATE_LARGE_FILE, type DebugMemoryParams, type DebugMemoryResult, type LargeFileParams } from '../core/lspMethods';
import { LargeFiles } from './largeFiles';
import { ValidationScheduler } from './scheduler';
import { SettingsStore } from './settings';

/** For tests and benchmarks: the server's memory (optionally after a full GC when node runs with --expose-gc). */

const connection = createConnection(ProposedFeatures.all);
const log = {
  error: (message: string) => connection.console.error(message),
  info: (message: string) => connection.console.info(message),
};

// Whatever happens, the server stays up: an unexpected error is logged, never fatal. Only a broken
// pipe to the client ends it (logging that error would only fail again).
function logUnexpected(what: string, error: unknown): void {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_IPC_CHANNEL_CLOSED') process.exit(1);
  const text = `${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  try {
    log.error(text);
  } catch {
    process.stderr.write(`${text}\n`);
  }
}
process.on('uncaughtException', (error) => logUnexpected('Uncaught exception', error));
process.on('unhandledRejection', (reason) => logUnexpected('Unhandled rejection', reason));

const settings = new SettingsStore(connection);
const documents = new DocumentStore();

function publish(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void {
  void connection.sendDiagnostics({ uri, version, diagnostics });
}

const scheduler = new ValidationScheduler(settings, log, publish);
const largeFiles = new LargeFiles(scheduler, log, (uri, diagnostics) => publish(uri, undefined, diagnostics), (uri) => documents.has(uri));

connection.onInitialize((params): InitializeResult => {
  settings.setPullSupported(params.capabilities.workspace?.configuration === true);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      completionProvider: { triggerCharacters: [' '] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'iqm-tools IQE language server' },
  };
});

connection.onDidOpenTextDocument(({ textDocument }) => {
  largeFiles.drop(textDocument.uri); // the client syncs it after all
  scheduler.opened(documents.open(textDocument));
});

connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
  const document = documents.get(textDocument.uri);
  if (!document) {
    log.error(`didChange for a document that is not open: ${textDocument.uri}`);
    return;
  }
  const failure = document.applyChanges(contentChanges, textDocument.version);
  if (failure !== undefined) {
    log.error(`Updating the parse of ${textDocument.uri} failed, re-parsing it whole: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`);
  }
  scheduler.changed(document);
});

connection.onDidCloseTextDocument(({ textDocument }) => {
  documents.close(textDocument.uri);
  scheduler.forget(textDocument.uri);
  settings.forget(textDocument.uri);
  publish(textDocument.uri, undefined, []);
});

connection.onDidChangeConfiguration(({ settings: pushed }) => {
  settings.changed(pushed);
  for (const document of documents.all()) scheduler.revalidate(document);
  largeFiles.revalidateAll();
});

connection.onDidChangeWatchedFiles(({ changes }) => {
  for (const change of changes) largeFiles.changedOnDisk(change.uri);
});

connection.onNotification(VALIDATE_LARGE_FILE, (params: LargeFileParams) => largeFiles.open(params?.uri));
connection.onNotification(CLOSE_LARGE_FILE, (params: LargeFileParams) => largeFiles.close(params?.uri));

/**
 * Answers a feature request from the document's current parse; a request for a document that is
 * not open, or a feature that throws, answers `empty` (and the error is logged): never a crash.
 */
function answer<T>(uri: string, empty: T, feature: (doc: IqeDocument) => T): T {
  const document = documents.get(uri);
  if (!document) return empty;
  try {
    return feature(document.iqe);
  } catch (error) {
    logUnexpected(`A request on ${uri} failed`, error);
    return empty;
  }
}

connection.onDocumentSymbol(({ textDocument }) => answer(textDocument.uri, [], documentSymbols));
connection.onFoldingRanges(({ textDocument }) => answer(textDocument.uri, [], foldingRanges));
connection.onHover(({ textDocument, position }) => answer(textDocument.uri, null, (doc) => hover(doc, position)));
connection.onDefinition(({ textDocument, position }) => answer(textDocument.uri, [], (doc) => definition(doc, textDocument.uri, position)));
connection.onReferences(({ textDocument, position, context }) =>
  answer(textDocument.uri, [], (doc) => references(doc, textDocument.uri, position, context.includeDeclaration)),
);
connection.onCompletion(({ textDocument, position }) => answer(textDocument.uri, [], (doc) => completions(doc, position)));
connection.onCodeAction(({ textDocument, context }) => answer(textDocument.uri, [], (doc) => codeActions(doc, textDocument.uri, context.diagnostics)));

connection.onRequest(DEBUG_MEMORY, (params: DebugMemoryParams | undefined): DebugMemoryResult => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (params?.gc && gc) {
    gc();
    gc();
  }
  const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, heapTotal, rss, external, arrayBuffers, gc: Boolean(params?.gc && gc) };
});

connection.onShutdown(() => {
  scheduler.dispose();
  largeFiles.dispose();
});

connection.listen();

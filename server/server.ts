// The IQE language server: connection wiring only, the same in both hosts. Features live in their
// own modules; the entries (server/node/main.ts: a Node process; server/browser/main.ts: a Web
// Worker) make the connection and say how the host reads large files and reports its memory.
import { CodeActionKind, TextDocumentSyncKind, type Connection, type Diagnostic, type InitializeResult } from 'vscode-languageserver';
import { codeActions } from './codeActions';
import { completions, IQE_TRIGGER_CHARACTERS } from './completion';
import { DocumentStore } from './documents';
import { foldingRanges } from './folding';
import { hover } from './hover';
import { definition, references } from './references';
import { documentSymbols } from './symbols';
import type { IqeDocument } from '../core/iqe/document';
import { partialView, type ParsedLines } from '../core/iqe/navigation';
import { CloseLargeFileNotification, DebugMemoryRequest, type DebugMemoryResult, DebugTimingRequest, ValidateLargeFileNotification } from '../core/lspMethods';
import { LargeFiles, type LargeFileReader } from './largeFiles';
import { parseInSlices, SLICE_MS, ValidationScheduler } from './scheduler';
import { SettingsStore } from './settings';
import { kindOf, SidecarDocuments } from './sidecars';
import { MODELDEF_TRIGGER_CHARACTERS } from './modeldef';

/** What differs between the hosts. */
export interface ServerHost {
  /** Reads the files too large for the client to sync. */
  largeFiles: LargeFileReader;
  /** Logs an error that reached the top (the host decides what is fatal, e.g. a broken pipe). */
  unexpected(what: string, error: unknown): void;
  /** For tests and benchmarks: the host's memory (after a full collection when asked and possible); absent where the host cannot tell. */
  memory?(gc: boolean): DebugMemoryResult;
}

/** Wires the features to `connection` and starts listening. */
export function startServer(connection: Connection, host: ServerHost): void {
  const log = {
    error: (message: string) => connection.console.error(message),
    info: (message: string) => connection.console.info(message),
  };
  const logUnexpected = (what: string, error: unknown): void => host.unexpected(what, error);

  const settings = new SettingsStore(connection);
  const documents = new DocumentStore();

  /** performance.now() when each open document arrived, and how long its first diagnostics took from there (DebugTimingRequest). */
  const openTiming = new Map<string, { openedAt: number; firstDiagnosticsMs?: number }>();

  function publish(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void {
    const timing = openTiming.get(uri);
    if (timing && timing.firstDiagnosticsMs === undefined) timing.firstDiagnosticsMs = performance.now() - timing.openedAt;
    void connection.sendDiagnostics({ uri, version, diagnostics });
  }

  const scheduler = new ValidationScheduler(settings, log, publish);
  const largeFiles = new LargeFiles(host.largeFiles, scheduler, log, (uri, diagnostics) => publish(uri, undefined, diagnostics), (uri) => documents.has(uri));
  // .framegroups, animation.cfg, .skin and .shader documents: checked against the model beside them;
  // MODELDEF against its mod folder.
  const sidecars = new SidecarDocuments(host.largeFiles, settings, log, publish);

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
        // One list for every language: each language's completion ignores the others' characters.
        completionProvider: { triggerCharacters: [...new Set([...IQE_TRIGGER_CHARACTERS, ...MODELDEF_TRIGGER_CHARACTERS])] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'iqm-tools IQE language server' },
    };
  });

  connection.onDidOpenTextDocument(({ textDocument }) => {
    openTiming.set(textDocument.uri, { openedAt: performance.now() });
    const kind = kindOf(textDocument.uri, textDocument.languageId);
    if (kind !== undefined) {
      sidecars.open(textDocument.uri, kind, textDocument.text, textDocument.version);
      return;
    }
    largeFiles.drop(textDocument.uri); // the client syncs it after all
    scheduler.opened(documents.open(textDocument));
  });

  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    if (sidecars.has(textDocument.uri)) {
      sidecars.change(textDocument.uri, contentChanges, textDocument.version);
      return;
    }
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
    if (sidecars.has(textDocument.uri)) {
      sidecars.close(textDocument.uri);
      settings.forget(textDocument.uri);
      return;
    }
    documents.close(textDocument.uri);
    openTiming.delete(textDocument.uri);
    scheduler.forget(textDocument.uri);
    settings.forget(textDocument.uri);
    publish(textDocument.uri, undefined, []);
  });

  connection.onDidChangeConfiguration(({ settings: pushed }) => {
    settings.changed(pushed);
    for (const document of documents.all()) scheduler.revalidate(document);
    largeFiles.revalidateAll();
    sidecars.revalidateAll();
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      largeFiles.changedOnDisk(change.uri);
      sidecars.changedOnDisk(change.uri);
    }
  });

  // params?.: a client may send none (the tests do).
  connection.onNotification(ValidateLargeFileNotification, (params) => largeFiles.open(params?.uri));
  connection.onNotification(CloseLargeFileNotification, (params) => largeFiles.close(params?.uri));

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

  /**
   * As answer(), from the lines parsed so far: while a large document's first parse runs in slices,
   * a hover is answered at once from the parsed part (issue 35: requests waited for the whole
   * parse), after parsing on towards its `line` for at most one slice's time (a line far into the
   * file gets no answer until the parse reaches it). Requests share that slice: within a frame
   * (16 ms) after one request parsed, the next ones answer from what is parsed (issue 35: the
   * hovers that queued while a 95 MB document was sent each parsed a slice, and one sent after
   * them waited for all of those slices, 150 ms).
   */
  const FRAME_MS = 16;
  let requestParseUntil = -Infinity;
  function answerNow<T>(uri: string, line: number, empty: T, feature: (doc: ParsedLines) => T): T {
    return answer(uri, empty, (iqe) => {
      if (iqe.fullyParsed) return feature(iqe);
      const now = performance.now();
      if (iqe.lineCount <= line && now >= requestParseUntil) {
        const deadline = now + SLICE_MS;
        while (iqe.lineCount <= line && !iqe.parseSome(1) && performance.now() < deadline);
        requestParseUntil = now + FRAME_MS;
      }
      return feature(partialView(iqe));
    });
  }

  /**
   * As answer(), once the document is parsed whole (an outline or a list of references of a part
   * would be wrong); the parse goes on in slices meanwhile, so other requests are answered.
   */
  async function answerParsed<T>(uri: string, empty: T, feature: (doc: IqeDocument) => T): Promise<T> {
    const document = documents.get(uri);
    if (!document) return empty;
    const iqe = document.iqe;
    if (!iqe.fullyParsed) await parseInSlices(iqe, () => document.closed || document.iqe !== iqe);
    return answer(uri, empty, feature); // replaced or closed meanwhile: from whatever is open now
  }

  /** A sidecar feature, answering `empty` (and logging) when it throws. */
  function guard<T>(uri: string, empty: T, feature: () => T): T {
    try {
      return feature();
    } catch (error) {
      logUnexpected(`A request on ${uri} failed`, error);
      return empty;
    }
  }

  connection.onDocumentSymbol(({ textDocument }) => answerParsed(textDocument.uri, [], documentSymbols));
  connection.onFoldingRanges(({ textDocument }) => answerParsed(textDocument.uri, [], foldingRanges));
  connection.onHover(({ textDocument, position }) =>
    sidecars.has(textDocument.uri) ? guard(textDocument.uri, null, () => sidecars.hover(textDocument.uri, position)) : answerNow(textDocument.uri, position.line, null, (doc) => hover(doc, position)),
  );
  connection.onCodeLens(({ textDocument }) => guard(textDocument.uri, [], () => sidecars.codeLenses(textDocument.uri)));
  connection.onDefinition(({ textDocument, position }) =>
    sidecars.has(textDocument.uri) ? guard(textDocument.uri, [], () => sidecars.definition(textDocument.uri, position)) : answerNow(textDocument.uri, position.line, [], (doc) => definition(doc, textDocument.uri, position)),
  );
  connection.onReferences(({ textDocument, position, context }) =>
    answerParsed(textDocument.uri, [], (doc) => references(doc, textDocument.uri, position, context.includeDeclaration)),
  );
  connection.onCompletion(({ textDocument, position, context }) => {
    const trigger = context?.triggerCharacter;
    if (sidecars.has(textDocument.uri)) return sidecars.completion(textDocument.uri, position, trigger).catch((error: unknown) => (logUnexpected(`A request on ${textDocument.uri} failed`, error), []));
    return trigger !== undefined && !IQE_TRIGGER_CHARACTERS.includes(trigger) ? [] : answerNow(textDocument.uri, position.line, [], (doc) => completions(doc, position));
  });
  connection.onCodeAction(({ textDocument, context }) => answerParsed(textDocument.uri, [], (doc) => codeActions(doc, textDocument.uri, context.diagnostics)));

  connection.onRequest(DebugTimingRequest, (params) => ({ openToFirstDiagnosticsMs: openTiming.get(params.uri)?.firstDiagnosticsMs }));

  const memory = host.memory?.bind(host);
  if (memory) connection.onRequest(DebugMemoryRequest, (params) => memory(params?.gc === true));

  connection.onShutdown(() => {
    scheduler.dispose();
    largeFiles.dispose();
    sidecars.dispose();
  });

  connection.listen();
}

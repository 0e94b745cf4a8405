// Open (synced) IQE documents: the core IqeDocument is both the text and the parse cache. An
// incremental change goes straight to IqeDocument.edit, which re-parses only the chunks of lines it
// touches; no whole-document string is rebuilt per keystroke. (A vscode-languageserver-textdocument
// TextDocument beside it would hold a second copy of the text and rebuild and rescan the whole
// string on every edit: on a 20 MB document that was most of the edit latency and a third of the
// memory, see bench/lsp-edit.ts.)
import type { Position, TextDocumentContentChangeEvent, TextDocumentItem } from 'vscode-languageserver';
import { IqeDocument, offsetOfPosition } from '../core/iqe/document';
import { faults } from './faults';

/** What the scheduler validates: an open document here, or a large file read from disk (largeFiles.ts). */
export interface ValidationTarget {
  readonly uri: string;
  /** Grows whenever the content changes; a validation of an older version is stale. */
  readonly version: number;
  /** The version to publish diagnostics with (undefined when the client does not sync the document). */
  readonly publishVersion: number | undefined;
  readonly iqe: IqeDocument;
  readonly closed: boolean;
  /** After an unexpected exception: the parse cache may be inconsistent, start afresh from the text. */
  reset(): void;
}

/** Offset of an LSP position in `text` (the document's own line splitting: \r\n, \n or \r; the character clamped to the line). */
export function offsetAt(text: string, position: Position): number {
  return offsetOfPosition(text, position.line, position.character);
}

function isBefore(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

export class OpenDocument implements ValidationTarget {
  readonly uri: string;
  version: number;
  iqe: IqeDocument;
  closed = false;

  constructor(item: TextDocumentItem) {
    this.uri = item.uri;
    this.version = item.version;
    this.iqe = new IqeDocument(item.text);
  }

  get publishVersion(): number {
    return this.version;
  }

  reset(): void {
    this.iqe = new IqeDocument(this.iqe.text);
  }

  /**
   * Applies one didChange's content changes in order. When the parse cache throws on an edit, the
   * document is rebuilt from its text with that change applied by hand, and the error is returned
   * (for the log) instead of thrown.
   */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number): unknown {
    let failure: unknown;
    for (const change of changes) {
      if (!('range' in change) || !change.range) {
        this.iqe = new IqeDocument(change.text);
        continue;
      }
      let { start, end } = change.range;
      if (isBefore(end, start)) [start, end] = [end, start];
      try {
        if (faults.edit !== undefined && change.text.includes(faults.edit)) throw new Error('injected edit fault (IQM_TOOLS_LSP_EDIT_FAULT)');
        this.iqe.edit(start.line, start.character, end.line, end.character, change.text);
      } catch (error) {
        failure ??= error;
        try {
          const text = this.iqe.text;
          const from = offsetAt(text, start);
          this.iqe = new IqeDocument(text.slice(0, from) + change.text + text.slice(Math.max(from, offsetAt(text, end))));
        } catch (rebuildError) {
          failure = rebuildError;
        }
      }
    }
    this.version = version;
    return failure;
  }
}

export class DocumentStore {
  private readonly documents = new Map<string, OpenDocument>();

  get(uri: string): OpenDocument | undefined {
    return this.documents.get(uri);
  }

  has(uri: string): boolean {
    return this.documents.has(uri);
  }

  all(): IterableIterator<OpenDocument> {
    return this.documents.values();
  }

  open(item: TextDocumentItem): OpenDocument {
    this.close(item.uri);
    const document = new OpenDocument(item);
    this.documents.set(item.uri, document);
    return document;
  }

  close(uri: string): OpenDocument | undefined {
    const document = this.documents.get(uri);
    if (document) {
      document.closed = true;
      this.documents.delete(uri);
    }
    return document;
  }
}

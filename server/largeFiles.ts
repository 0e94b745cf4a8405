// Files too large for VS Code to sync (over 50 MB it sends no didOpen). The client tells us which
// ones are shown in tabs (iqmTools/validateLargeFile, iqmTools/closeLargeFile); we read them (the
// host's LargeFileReader: from disk in Node, through the client in a browser), validate them in
// slices like any document, re-read them when they change (the reader's own watch where it has
// one, plus workspace/didChangeWatchedFiles from the client), and clear their diagnostics when
// their tab closes.
import type { Diagnostic } from 'vscode-languageserver';
import { IqeDocument } from '../core/iqe/document';
import type { ReadFileResult } from '../core/lspMethods';
import type { ValidationTarget } from './documents';
import { documentDiagnostic } from './diagnostics';
import type { Logger, ValidationScheduler } from './scheduler';

/** How the host reads a large file (server/node/diskReader.ts, server/browser/main.ts). */
export interface LargeFileReader {
  /** Why files at `uri` cannot be read at all (a diagnostic `unsupported-uri` says it), or undefined. */
  unsupported(uri: string): string | undefined;
  /** As the READ_FILE request (core/lspMethods.ts): rejects with the reason when it cannot be read. */
  read(uri: string, maxBytes: number, unlessStamp: string | undefined): Promise<ReadFileResult>;
  /** A (model) file's bytes, for the sidecar checks; no bytes when over maxBytes. Rejects with the reason when it cannot be read. */
  readBytes(uri: string, maxBytes: number): Promise<BytesResult>;
  /** The names in a folder (files and folders), or null when it is not one or cannot be listed. */
  listFolder(uri: string): Promise<string[] | null>;
  /** Calls `changed` when the file may have changed; returns what stops it. Absent: only the client's file events. */
  watch?(uri: string, changed: () => void, log: Logger): () => void;
}

export interface BytesResult {
  stamp: string;
  size: number;
  bytes?: Uint8Array;
}

/** Longer files would not fit in one JavaScript string with room to spare; they get one diagnostic instead. */
export const MAX_LARGE_FILE_BYTES = 256 * 1024 * 1024;
/** fs.watch reports a single save as several events; wait for them to settle. */
const RELOAD_DELAY_MS = 100;

class LargeFile implements ValidationTarget {
  version = 0;
  iqe = new IqeDocument('');
  /** Kept apart from `iqe`, so that a reset does not depend on the parse that just failed. */
  text = '';
  closed = false;
  unwatch: (() => void) | undefined;
  reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** What was last read, to skip events that changed nothing. */
  stamp = '';
  loading: Promise<void> | undefined;
  /** Whether `iqe` holds the file's text (false before the first read and after a failed one). */
  loaded = false;
  reloadAgain = false;

  constructor(readonly uri: string) {}

  get publishVersion(): undefined {
    return undefined;
  }

  reset(): void {
    this.iqe = new IqeDocument(this.text);
  }
}

export class LargeFiles {
  private readonly files = new Map<string, LargeFile>();

  constructor(
    private readonly reader: LargeFileReader,
    private readonly scheduler: ValidationScheduler,
    private readonly log: Logger,
    private readonly publish: (uri: string, diagnostics: Diagnostic[]) => void,
    /** Whether the URI is synced by the client (then the open document wins). */
    private readonly isOpen: (uri: string) => boolean,
  ) {}

  has(uri: string): boolean {
    return this.files.has(uri);
  }

  /** iqmTools/validateLargeFile: start tracking, or re-read if already tracked. */
  open(uri: string): void {
    if (typeof uri !== 'string' || this.isOpen(uri)) return;
    const existing = this.files.get(uri);
    if (existing) {
      this.reload(existing);
      return;
    }
    const unsupported = this.reader.unsupported(uri);
    if (unsupported !== undefined) {
      this.log.info(`${uri}: ${unsupported}; no diagnostics.`);
      this.publish(uri, [documentDiagnostic('unsupported-uri', `This file is too large for VS Code to share with the IQE language server, and ${unsupported}. No diagnostics.`, 'information')]);
      return;
    }
    const file = new LargeFile(uri);
    this.files.set(uri, file);
    file.unwatch = this.reader.watch?.(uri, () => this.changedOnDisk(uri), this.log);
    this.reload(file);
  }

  /** iqmTools/closeLargeFile: stop tracking and clear the diagnostics. */
  close(uri: string): void {
    if (!this.drop(uri)) return;
    if (!this.isOpen(uri)) this.publish(uri, []);
  }

  /** Stops tracking without publishing (the client opened the document after all). Returns whether it was tracked. */
  drop(uri: string): boolean {
    const file = this.files.get(uri);
    if (!file) return false;
    file.closed = true;
    file.unwatch?.();
    if (file.reloadTimer !== undefined) clearTimeout(file.reloadTimer);
    this.files.delete(uri);
    this.scheduler.forget(uri);
    return true;
  }

  /** workspace/didChangeWatchedFiles or a watch event: re-read a tracked file soon. */
  changedOnDisk(uri: string): void {
    const file = this.files.get(uri);
    if (!file) return;
    if (file.reloadTimer !== undefined) clearTimeout(file.reloadTimer);
    file.reloadTimer = setTimeout(() => {
      file.reloadTimer = undefined;
      this.reload(file);
    }, RELOAD_DELAY_MS);
  }

  /** Settings changed: validate every tracked file again (cheap when the options did not change). */
  revalidateAll(): void {
    for (const file of this.files.values()) if (!file.loading && file.loaded) this.scheduler.revalidate(file);
  }

  dispose(): void {
    for (const uri of [...this.files.keys()]) this.drop(uri);
  }

  private reload(file: LargeFile): void {
    if (file.loading) {
      file.reloadAgain = true;
      return;
    }
    file.loading = this.load(file)
      .catch((error: unknown) => this.log.error(`Reading ${file.uri} failed: ${String(error)}`))
      .finally(() => {
        file.loading = undefined;
        if (file.reloadAgain && !file.closed) {
          file.reloadAgain = false;
          this.reload(file);
        }
      });
  }

  private async load(file: LargeFile): Promise<void> {
    let text: string;
    try {
      const read = await this.reader.read(file.uri, MAX_LARGE_FILE_BYTES, file.stamp || undefined);
      if (file.closed || read.stamp === file.stamp) return;
      if (read.size > MAX_LARGE_FILE_BYTES) {
        file.stamp = read.stamp;
        file.loaded = false;
        this.scheduler.forget(file.uri);
        this.publish(file.uri, [
          documentDiagnostic(
            'file-too-large',
            `This file is ${(read.size / 1048576).toFixed(0)} MB; the IQE language server validates files up to ${MAX_LARGE_FILE_BYTES / 1048576} MB. Use \`iqm-tools check\` instead.`,
            'information',
          ),
        ]);
        return;
      }
      if (read.text === undefined) throw new Error(`no text for ${read.size} bytes`);
      file.stamp = read.stamp;
      text = read.text;
    } catch (error) {
      if (file.closed) return;
      file.stamp = '';
      file.loaded = false;
      this.log.info(`Cannot read ${file.uri}: ${String(error)}`);
      this.scheduler.forget(file.uri);
      this.publish(file.uri, [
        documentDiagnostic('read-error', `The IQE language server cannot read this file: ${error instanceof Error ? error.message : String(error)}`),
      ]);
      return;
    }
    file.text = text;
    file.iqe = new IqeDocument(text);
    file.version++;
    file.loaded = true;
    this.scheduler.opened(file);
  }
}

// Files too large for VS Code to sync (over 50 MB it sends no didOpen). The client tells us which
// ones are shown in tabs (iqmTools/validateLargeFile, iqmTools/closeLargeFile); we read them from
// disk, validate them in slices like any document, re-read them when they change on disk (a
// directory watch here, plus workspace/didChangeWatchedFiles from the client), and clear their
// diagnostics when their tab closes.
import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import { IqeDocument } from '../core/iqe/document';
import type { ValidationTarget } from './documents';
import { documentDiagnostic } from './diagnostics';
import type { Logger, ValidationScheduler } from './scheduler';


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
  watcher: FSWatcher | undefined;
  reloadTimer: NodeJS.Timeout | undefined;
  /** What was last read, to skip events that changed nothing. */
  stamp = '';
  loading: Promise<void> | undefined;
  /** Whether `iqe` holds the file's text (false before the first read and after a failed one). */
  loaded = false;
  reloadAgain = false;

  constructor(
    readonly uri: string,
    readonly path: string,
  ) {}

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
    let path: string;
    try {
      if (!uri.startsWith('file:')) throw new Error('not a file: URI');
      path = fileURLToPath(uri);
    } catch {
      this.log.info(`${uri}: not a file: URI, so it cannot be read from disk; no diagnostics.`);
      this.publish(uri, [
        documentDiagnostic(
          'unsupported-uri',
          'This file is too large for VS Code to share with the IQE language server, which can only read large files from disk (file: URIs). No diagnostics.',
          'information',
        ),
      ]);
      return;
    }
    const file = new LargeFile(uri, path);
    this.files.set(uri, file);
    this.watch(file);
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
    file.watcher?.close();
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

  private watch(file: LargeFile): void {
    // Watch the directory, not the file: editors often save by writing a new file and renaming it.
    try {
      const name = basename(file.path);
      file.watcher = watch(dirname(file.path), { persistent: false }, (_event, changed) => {
        if (changed === null || changed.toString() === name) this.changedOnDisk(file.uri);
      });
      file.watcher.on('error', (error) => {
        this.log.info(`Watching ${file.path} stopped: ${String(error)}`);
        file.watcher?.close();
        file.watcher = undefined;
      });
    } catch (error) {
      this.log.info(`Cannot watch ${file.path} for changes: ${String(error)}`);
    }
  }

  private reload(file: LargeFile): void {
    if (file.loading) {
      file.reloadAgain = true;
      return;
    }
    file.loading = this.load(file)
      .catch((error: unknown) => this.log.error(`Reading ${file.path} failed: ${String(error)}`))
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
      const info = await stat(file.path);
      if (file.closed) return;
      if (!info.isFile()) throw new Error('not a regular file');
      const stamp = `${info.size}:${info.mtimeMs}`;
      if (stamp === file.stamp) return;
      if (info.size > MAX_LARGE_FILE_BYTES) {
        file.stamp = stamp;
        file.loaded = false;
        this.scheduler.forget(file.uri);
        this.publish(file.uri, [
          documentDiagnostic(
            'file-too-large',
            `This file is ${(info.size / 1048576).toFixed(0)} MB; the IQE language server validates files up to ${MAX_LARGE_FILE_BYTES / 1048576} MB. Use \`iqm-tools check\` instead.`,
            'information',
          ),
        ]);
        return;
      }
      const bytes = await readFile(file.path);
      if (file.closed) return;
      file.stamp = stamp;
      // Invalid UTF-8 becomes U+FFFD (as in VS Code); a BOM is dropped.
      text = new TextDecoder('utf-8').decode(bytes);
    } catch (error) {
      if (file.closed) return;
      file.stamp = '';
      file.loaded = false;
      this.log.info(`Cannot read ${file.path}: ${String(error)}`);
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

// The Node server reads large files from disk itself (file: URIs only) and watches their folder.
import { watch } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadFileResult } from '../../core/lspMethods';
import type { BytesResult, LargeFileReader } from '../largeFiles';
import type { Logger } from '../scheduler';

function pathOf(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

export const diskReader: LargeFileReader = {
  unsupported(uri: string): string | undefined {
    return pathOf(uri) === undefined ? 'the server can only read large files from disk (file: URIs)' : undefined;
  },

  async read(uri: string, maxBytes: number, unlessStamp: string | undefined): Promise<ReadFileResult> {
    const path = pathOf(uri);
    if (path === undefined) throw new Error('not a file: URI');
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a regular file');
    const stamp = `${info.size}:${info.mtimeMs}`;
    if (stamp === unlessStamp || info.size > maxBytes) return { stamp, size: info.size };
    // Invalid UTF-8 becomes U+FFFD (as in VS Code); a BOM is dropped.
    return { stamp, size: info.size, text: new TextDecoder('utf-8').decode(await readFile(path)) };
  },

  async readBytes(uri: string, maxBytes: number): Promise<BytesResult> {
    const path = pathOf(uri);
    if (path === undefined) throw new Error('not a file: URI');
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a regular file');
    const stamp = `${info.size}:${info.mtimeMs}`;
    if (info.size > maxBytes) return { stamp, size: info.size };
    return { stamp, size: info.size, bytes: new Uint8Array(await readFile(path)) };
  },

  async listFolder(uri: string): Promise<string[] | null> {
    const path = pathOf(uri);
    if (path === undefined) return null;
    try {
      return await readdir(path);
    } catch {
      return null;
    }
  },

  watch(uri: string, changed: () => void, log: Logger): () => void {
    const path = pathOf(uri) as string;
    // Watch the directory, not the file: editors often save by writing a new file and renaming it.
    try {
      const name = basename(path);
      const watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
        if (file === null || file.toString() === name) changed();
      });
      watcher.on('error', (error) => {
        log.info(`Watching ${path} stopped: ${String(error)}`);
        watcher.close();
      });
      return () => watcher.close();
    } catch (error) {
      log.info(`Cannot watch ${path} for changes: ${String(error)}`);
      return () => undefined;
    }
  },
};

// The Node extension host's reads of files on its own disk (file: URIs), with node:fs, for
// client/fileAccess.ts. Through vscode.workspace.fs each call is a round trip to the window: in
// code-server a stat took 5-9 ms (100 of them 0.46-0.94 s, against under 1 ms with node:fs), and a
// texture lookup trying dozens of names, the sidecars and the player parts took seconds. Async
// (fs/promises), so that a large model is not read on the extension host's thread.
import { readdir, readFile, stat } from 'node:fs/promises';
import type { DiskReads } from '../fileAccess';

export const nodeDiskReads: DiskReads = {
  async readBytes(fsPath) {
    try {
      const buffer = await readFile(fsPath);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch {
      return null;
    }
  },
  async isFile(fsPath) {
    try {
      return (await stat(fsPath)).isFile();
    } catch {
      return false;
    }
  },
  async listFolder(fsPath) {
    try {
      return await readdir(fsPath);
    } catch {
      return null;
    }
  },
};

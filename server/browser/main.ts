// The language server as a Web Worker (dist/web/server.js), for the browser's web worker extension
// host (vscode.dev, github.dev). Every feature is the Node server's (server/server.ts); a worker
// cannot read files, so large files come through the client (iqmTools/readFile, workspace.fs).
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { decodeBase64 } from '../../core/base64';
import { ListFolderRequest, ReadFileRequest } from '../../core/lspMethods';
import { startServer } from '../server';

const worker = self as DedicatedWorkerGlobalScope;
const connection = createConnection(new BrowserMessageReader(worker), new BrowserMessageWriter(worker));

function unexpected(what: string, error: unknown): void {
  const text = `${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  try {
    connection.console.error(text);
  } catch {
    console.error(text);
  }
}
// Whatever happens, the server stays up: an unexpected error is logged, never fatal.
worker.addEventListener('error', (event) => {
  event.preventDefault();
  unexpected('Uncaught exception', event.error ?? event.message);
});
worker.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  unexpected('Unhandled rejection', event.reason);
});

startServer(connection, {
  largeFiles: {
    unsupported: () => undefined,
    read: (uri, maxBytes, unlessStamp) => connection.sendRequest(ReadFileRequest, { uri, maxBytes, unlessStamp }),
    readBytes: async (uri, maxBytes) => {
      const read = await connection.sendRequest(ReadFileRequest, { uri, maxBytes, encoding: 'base64' });
      return { stamp: read.stamp, size: read.size, bytes: read.base64 === undefined ? undefined : decodeBase64(read.base64) };
    },
    listFolder: (uri) => connection.sendRequest(ListFolderRequest, { uri }),
  },
  unexpected,
});

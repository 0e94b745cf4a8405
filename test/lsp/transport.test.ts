// The VS Code client starts the server with node IPC (TransportKind.ipc: fork + --node-ipc); the
// tests and other editors use stdio. Both must work.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { describe, it } from 'node:test';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { MINIMAL_IQE, SERVER_PATH, withTimeout } from './helpers/server';

describe('lsp: transports', () => {
  it('node IPC, as vscode-languageclient starts it', async () => {
    const child = fork(SERVER_PATH, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    try {
      const published = new Promise<PublishDiagnosticsParams>((resolve) => {
        connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
          if (params.version === 1) resolve(params);
        });
      });
      connection.listen();
      const result = await withTimeout(
        connection.sendRequest<{ capabilities: { textDocumentSync: { change: number; openClose: boolean } } }>('initialize', {
          processId: process.pid,
          rootUri: null,
          capabilities: {},
        }),
        10_000,
        'initialize',
      );
      assert.equal(result.capabilities.textDocumentSync.change, 2, 'incremental sync');
      assert.equal(result.capabilities.textDocumentSync.openClose, true);
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: 'file:///test/ipc.iqe', languageId: 'iqe', version: 1, text: MINIMAL_IQE.replace('fa 0 1 2', 'fa 0 1 9') },
      });
      const params = await withTimeout(published, 10_000, 'publishDiagnostics');
      assert.ok(params.diagnostics.some((d) => d.code === 'face-index-range'));
      await withTimeout(connection.sendRequest('shutdown'), 5_000, 'shutdown');
      await connection.sendNotification('exit');
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

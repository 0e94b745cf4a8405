// The VS Code client starts the server with node IPC (TransportKind.ipc: fork + --node-ipc); the
// tests and other editors use stdio. Both must work.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { describe, it } from 'node:test';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { serverEnv } from '../../node/serverProcess';
import { bigIqe, MINIMAL_IQE, SERVER_PATH, withTimeout } from './helpers/server';

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
  // node's shutdown deadlock (nodejs/node#54918, node/exitFlags.ts): at its end a node process waits
  // for V8's background compiles, and hangs when one of them waits for a garbage collection. With
  // --concurrent-recompilation-delay every background compile lasts 6 s, so a server that waits for
  // one is seen every time. The server keeps its compiles concurrent (node/serverProcess.ts) and ends
  // by a signal to itself from its last 'exit' handler (server/node/main.ts): with node's own end it
  // ended 5.8 s after `exit` here; now in tens of milliseconds.
  it('node IPC as the client starts it: the server ends at `exit` without waiting for a background compile', async () => {
    const child = fork(SERVER_PATH, ['--node-ipc'], {
      execArgv: ['--concurrent-recompilation-delay=6000'],
      env: serverEnv(process.env),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    try {
      // Three 2 MB documents: enough parsing and checking for V8 to optimise functions in the background.
      const documents = 3;
      let published = 0;
      const allPublished = new Promise<void>((resolve) => {
        connection.onNotification('textDocument/publishDiagnostics', () => {
          if (++published === documents) resolve();
        });
      });
      connection.listen();
      await withTimeout(connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} }), 10_000, 'initialize');
      await connection.sendNotification('initialized', {});
      const text = bigIqe(2_000_000);
      for (let i = 0; i < documents; i++) {
        await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: `file:///test/big-${i}.iqe`, languageId: 'iqe', version: 1, text } });
      }
      await withTimeout(allPublished, 60_000, 'publishDiagnostics of every document');
      await withTimeout(connection.sendRequest('shutdown'), 5_000, 'shutdown');
      const asked = performance.now();
      await connection.sendNotification('exit');
      const signal = await withTimeout(exited, 30_000, 'the server\'s exit');
      const afterExitMs = performance.now() - asked;
      assert.ok(afterExitMs < 3000, `the server ended ${afterExitMs.toFixed(0)} ms after \`exit\` (it waited for a background compile)`);
      assert.equal(signal, 'SIGKILL', 'the server ends by its own signal');
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

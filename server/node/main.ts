// The language server as a Node process (dist/server.js). Transport comes from the command line
// (--node-ipc from the VS Code client, --stdio in tests).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { faults } from '../faults';
import { startServer } from '../server';
import { diskReader } from './diskReader';

faults.validate = process.env.IQM_TOOLS_LSP_FAULT || undefined;
faults.edit = process.env.IQM_TOOLS_LSP_EDIT_FAULT || undefined;

const connection = createConnection(ProposedFeatures.all);

// Whatever happens, the server stays up: an unexpected error is logged, never fatal. Only a broken
// pipe to the client ends it (logging that error would only fail again).
function unexpected(what: string, error: unknown): void {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_IPC_CHANNEL_CLOSED') process.exit(1);
  const text = `${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  try {
    connection.console.error(text);
  } catch {
    process.stderr.write(`${text}\n`);
  }
}
// node's own end of a process (its platform's teardown, after the 'exit' handlers) waits for V8's
// background compiles, and forever when one of them waits for a garbage collection
// (nodejs/node#54918, node/exitFlags.ts). The server keeps those compiles concurrent (compiled on
// the main thread they held requests up to 100 ms while typing, node/serverProcess.ts), so it ends
// in its last 'exit' handler, when all of its own has run, the one way that waits for nothing: a
// signal to itself. The client only logs how its server ended.
process.on('exit', () => process.kill(process.pid, 'SIGKILL'));
process.on('uncaughtException', (error) => unexpected('Uncaught exception', error));
process.on('unhandledRejection', (reason) => unexpected('Unhandled rejection', reason));

startServer(connection, {
  largeFiles: diskReader,
  unexpected,
  // Optionally after a full GC, when node runs with --expose-gc.
  memory(collect) {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (collect && gc) {
      gc();
      gc();
    }
    const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    return { heapUsed, heapTotal, rss, external, arrayBuffers, gc: Boolean(collect && gc), cpuMs: (user + system) / 1000 };
  },
});

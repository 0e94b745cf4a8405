// The Node host's language server: dist/server.js as a process over node IPC.
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { EXIT_SAFE_V8_FLAGS } from '../../node/exitFlags';

export async function startNodeLanguageClient(context: vscode.ExtensionContext, options: LanguageClientOptions): Promise<LanguageClient> {
  const module = context.asAbsolutePath('dist/server.js');
  // The server ends when VS Code closes it without waiting for a V8 background compile (node's
  // shutdown deadlock, nodejs/node#54918: node/exitFlags.ts), as the command line does.
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...EXIT_SAFE_V8_FLAGS] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...EXIT_SAFE_V8_FLAGS, '--nolazy', '--inspect=6009'] } },
  };
  // The id 'iqmTools' makes the client honour the iqmTools.trace.server setting.
  const client = new LanguageClient('iqmTools', 'IQE Language Server', serverOptions, options);
  await client.start();
  return client;
}

// The Node host's language server: dist/server.js as a process over node IPC.
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

export async function startNodeLanguageClient(context: vscode.ExtensionContext, options: LanguageClientOptions): Promise<LanguageClient> {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  // The id 'iqmTools' makes the client honour the iqmTools.trace.server setting.
  const client = new LanguageClient('iqmTools', 'IQE Language Server', serverOptions, options);
  await client.start();
  return client;
}

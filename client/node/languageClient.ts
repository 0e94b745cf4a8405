// The Node host's language server: dist/server.js as a process over node IPC.
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { serverEnv } from '../../node/serverProcess';

export async function startNodeLanguageClient(context: vscode.ExtensionContext, options: LanguageClientOptions): Promise<LanguageClient> {
  const module = context.asAbsolutePath('dist/server.js');
  // The server's environment (node/serverProcess.ts): a large document's memory in huge pages.
  const env = serverEnv(process.env);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'], env } },
  };
  // The id 'iqmTools' makes the client honour the iqmTools.trace.server setting.
  const client = new LanguageClient('iqmTools', 'IQE Language Server', serverOptions, options);
  await client.start();
  return client;
}

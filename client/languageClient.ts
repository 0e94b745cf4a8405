// Starts the IQE language server (dist/server.js) over node IPC and connects it to IQE documents.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

export async function startLanguageClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.iqe');
  context.subscriptions.push(watcher);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'iqe' }],
    synchronize: {
      // Pushes didChangeConfiguration when iqmTools.* changes; the server then pulls per document.
      configurationSection: 'iqmTools',
      // Lets the server re-read large files (which VS Code does not sync) when they change on disk.
      fileEvents: watcher,
    },
    outputChannelName: 'IQE Language Server',
  };
  // The id 'iqmTools' makes the client honour the iqmTools.trace.server setting.
  const client = new LanguageClient('iqmTools', 'IQE Language Server', serverOptions, clientOptions);
  await client.start();
  return client;
}

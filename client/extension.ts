// Extension entry point: activate() wiring only.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { startLanguageClient } from './languageClient';
import { LargeFileTracker } from './largeFiles';
import { registerPreview } from './preview/index';
import { registerCompile } from './compile/command';
import { registerConvert } from './convert/command';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  registerPreview(context);
  registerCompile(context);
  registerConvert(context);
  client = await startLanguageClient(context);
  context.subscriptions.push(new LargeFileTracker(client));
}

export async function deactivate(): Promise<void> {
  const stopping = client;
  client = undefined;
  await stopping?.stop();
}

// activate() of both entries (client/node/extension.ts, client/browser/extension.ts): the same
// features everywhere, on the host's Platform.
import type * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { registerCompile } from './compile/command';
import { startLanguageClient } from './languageClient';
import { LargeFileTracker } from './largeFiles';
import type { Platform } from './platform';
import { registerPreview } from './preview/index';

let client: BaseLanguageClient | undefined;

export async function activateOn(platform: Platform, context: vscode.ExtensionContext): Promise<void> {
  registerPreview(context);
  registerCompile(context, platform);
  client = await startLanguageClient(context, platform);
  context.subscriptions.push(new LargeFileTracker(client));
}

export async function deactivate(): Promise<void> {
  const stopping = client;
  client = undefined;
  await stopping?.stop();
}

// activate() of both entries (client/node/extension.ts, client/browser/extension.ts): the same
// features everywhere, on the host's Platform.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { registerCompile } from './compile/command';
import { startLanguageClient } from './languageClient';
import { LargeFileTracker } from './largeFiles';
import type { Platform } from './platform';
import { registerPreview } from './preview/index';
import { registerConvert } from './convert/command';
import { registerExportGltf } from './convert/exportGltf';
import { lazyChannel } from './convert/conversion';
import { registerSidecarCommands } from './sidecars';
import { registerCompare } from './compare/command';
import { Comparisons } from './compare/comparisons';

let client: BaseLanguageClient | undefined;

/** The extension's exports (vscode.extensions.getExtension(...).exports): where it runs, for tests and for users' bug reports. */
export interface ExtensionApi {
  host: Platform['host'];
  /** Whether this host has Node's `process` global (the web worker host has not). */
  hasProcess: boolean;
  /** How many compile workers this host started, and whether one is kept for the next compile. */
  compileWorkers(): { started: number; kept: boolean };
}

export async function activateOn(platform: Platform, context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const comparisons = new Comparisons();
  context.subscriptions.push({ dispose: () => platform.endWorkers() });
  registerPreview(context, platform, comparisons);
  registerCompile(context, platform);
  const convertLog = lazyChannel(context, 'IQM Tools Convert');
  registerConvert(context, platform, convertLog);
  registerExportGltf(context, platform, convertLog);
  registerSidecarCommands(context);
  registerCompare(context, comparisons);
  // A server that cannot start (e.g. a browser without workers inside workers) costs the IQE
  // language features only: the preview and the compile are registered already.
  try {
    client = await startLanguageClient(context, platform);
    context.subscriptions.push(new LargeFileTracker(client));
  } catch (error) {
    void vscode.window.showErrorMessage(`The IQE language server could not start: ${error instanceof Error ? error.message : String(error)}. The model preview and the compile still work.`);
  }
  return { host: platform.host, hasProcess: typeof (globalThis as { process?: unknown }).process !== 'undefined', compileWorkers: () => platform.compileWorkers() };
}

export async function deactivate(): Promise<void> {
  const stopping = client;
  client = undefined;
  await stopping?.stop();
}

// Entry of the browser's web worker extension host (package.json `browser`, dist/web/extension.js):
// vscode.dev, github.dev, code-server with remote.extensionKind "web". The same features as the
// Node entry, on the browser's Platform.
import type * as vscode from 'vscode';
import { activateOn, type ExtensionApi } from '../extension';
import { browserPlatform } from './platform';

export { deactivate } from '../extension';

export function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  return activateOn(browserPlatform, context);
}

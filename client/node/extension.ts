// Entry of the Node extension host (package.json `main`, dist/client.js): desktop VS Code and
// remote hosts (SSH, WSL, code-server).
import type * as vscode from 'vscode';
import { activateOn, type ExtensionApi } from '../extension';
import { readLocalFilesWith } from '../fileAccess';
import { nodeFileAccessAsync } from '../../node/files';
import { nodePlatform } from './platform';

export { deactivate } from '../extension';

export function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  // The model's neighbours (sidecars, textures, player parts, companions) are read with node:fs.
  readLocalFilesWith(nodeFileAccessAsync);
  return activateOn(nodePlatform, context);
}

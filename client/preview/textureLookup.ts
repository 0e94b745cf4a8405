// The VS Code panel's answers to the webview's texture requests: the host-neutral lookup
// (textureAnswers.ts) over the workspace's files, an image as a webview URI where the webview may
// load it (under an allowed root; a TGA the webview fetches and decodes itself), else its bytes.

import * as vscode from 'vscode';
import type { FileAccess } from '../../core/files';
import type { TextureRequest, TextureResult } from '../../core/protocol';
import { engineSetting } from './engines';
import { isInside } from '../../core/host/transfer';
import type { MaterialColor } from '../../core/host/sourceCompile';
import { answerTextureRequests, type EmbeddedImage } from '../../core/host/textureAnswers';

export type { EmbeddedImage };

export interface LookupPlace {
  /** The model (texture paths are relative to it and to the game root). */
  uri: vscode.Uri;
  fs: FileAccess;
  /** The webview's local resource roots. */
  roots: readonly vscode.Uri[];
  webview: vscode.Webview;
}

export function lookupTextures(place: LookupPlace, requests: TextureRequest[], embedded: readonly EmbeddedImage[] = [], colors: readonly MaterialColor[] = []): Promise<TextureResult[]> {
  const { uri, roots } = place;
  const display = (path: string) => {
    const fileUri = uri.with({ path });
    return uri.scheme === 'file' ? fileUri.fsPath : fileUri.toString();
  };
  const imageUri = (path: string) => (roots.some((r) => r.scheme === uri.scheme && isInside(path, r.path)) ? place.webview.asWebviewUri(uri.with({ path })).toString() : null);
  return answerTextureRequests({ path: uri.path, fs: place.fs, engines: engineSetting(uri), display, imageUri }, requests, embedded, colors);
}

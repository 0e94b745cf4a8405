// The language client's options, the same for both hosts (the server is a process or a Web
// Worker, client/node and client/browser), and the client's side of iqmTools/readFile: a server
// that cannot read files (the browser's) gets a large file's text, and folder listings, through
// vscode.workspace.fs.
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import { encodeBase64 } from '../core/base64';
import { SIDECAR_LANGUAGES } from '../core/lookup/companions';
import { MODELDEF_LANGUAGE } from '../core/sidecar/modeldef';
import { ListFolderRequest, ReadFileRequest, type ReadFileParams, type ReadFileResult } from '../core/lspMethods';
import type { Platform } from './platform';

/** Starts the client (with the platform's server) and answers the server's file reads. */
export async function startLanguageClient(context: vscode.ExtensionContext, platform: Platform): Promise<BaseLanguageClient> {
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.iqe');
  // The models, images and shader scripts the sidecar files' diagnostics depend on.
  const dependencies = vscode.workspace.createFileSystemWatcher('**/*.{iqm,md3,md2,dpm,mdr,vvm,exm,tga,png,jpg,jpeg,pcx,bmp,shader}');
  context.subscriptions.push(watcher, dependencies);
  const options: LanguageClientOptions = {
    documentSelector: [{ language: 'iqe' }, ...Object.values(SIDECAR_LANGUAGES).map((language) => ({ language })), { language: MODELDEF_LANGUAGE }],
    synchronize: {
      // Pushes didChangeConfiguration when iqmTools.* changes; the server then pulls per document.
      configurationSection: 'iqmTools',
      // Lets the server re-read large files (which VS Code does not sync) when they change on disk,
      // and check the sidecar files again when their model or a texture changes.
      fileEvents: [watcher, dependencies],
    },
    outputChannelName: 'IQE Language Server',
  };
  const client = await platform.startLanguageClient(context, options);
  context.subscriptions.push(
    client.onRequest(ReadFileRequest, (params) => readFile(params)),
    client.onRequest(ListFolderRequest, ({ uri }) => listFolder(uri)),
  );
  return client;
}

/** iqmTools/listFolder: the names in a folder, or null when it is not one or cannot be listed. */
export async function listFolder(uri: string): Promise<string[] | null> {
  try {
    return (await vscode.workspace.fs.readDirectory(vscode.Uri.parse(uri, true))).map(([name]) => name);
  } catch {
    return null;
  }
}

/** iqmTools/readFile: the file's stamp and size, and its text when it is new to the server and not too large. */
export async function readFile({ uri, maxBytes, unlessStamp, encoding }: ReadFileParams): Promise<ReadFileResult> {
  const target = vscode.Uri.parse(uri, true);
  const info = await vscode.workspace.fs.stat(target);
  if ((info.type & vscode.FileType.File) === 0) throw new Error('not a regular file');
  const stamp = `${info.size}:${info.mtime}`;
  if (stamp === unlessStamp || info.size > maxBytes) return { stamp, size: info.size };
  if (encoding === 'base64') return { stamp, size: info.size, base64: encodeBase64(await vscode.workspace.fs.readFile(target)) };
  // Invalid UTF-8 becomes U+FFFD (as in VS Code); a BOM is dropped.
  return { stamp, size: info.size, text: new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(target)) };
}

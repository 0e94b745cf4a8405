// Starting a Web Worker from the web worker extension host: `new Worker(<extension URI>)` throws
// there ("Creating workers from remote extensions is currently not supported", microsoft/vscode
// #144235), so the script is read through workspace.fs and started from a Blob URL when the URI
// itself is refused. The Blob URL is made once per script and kept for the session.
import * as vscode from 'vscode';

const blobUrls = new Map<string, Promise<string>>();

function blobUrl(script: vscode.Uri): Promise<string> {
  const key = script.toString();
  let url = blobUrls.get(key);
  if (!url) {
    url = Promise.resolve(vscode.workspace.fs.readFile(script)).then((source) => URL.createObjectURL(new Blob([source as Uint8Array<ArrayBuffer>], { type: 'text/javascript' })));
    // A failed read is not remembered: the next start tries again.
    url.catch(() => blobUrls.delete(key));
    blobUrls.set(key, url);
  }
  return url;
}

/** A worker running the bundle `dist/web/<name>` of the extension. */
export async function startWorker(context: vscode.ExtensionContext, name: string): Promise<Worker> {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', name);
  try {
    return new Worker(script.toString(true), { name });
  } catch {
    return new Worker(await blobUrl(script), { name });
  }
}

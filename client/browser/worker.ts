// Starting a Web Worker from the web worker extension host: `new Worker(<extension URI>)` throws
// there ("Creating workers from remote extensions is currently not supported", microsoft/vscode
// #144235), so the script is read through workspace.fs and started from a Blob URL when the URI
// itself is refused.
import * as vscode from 'vscode';

/** A worker running the bundle `dist/web/<name>` of the extension. */
export async function startWorker(context: vscode.ExtensionContext, name: string): Promise<Worker> {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', name);
  try {
    return new Worker(script.toString(true), { name });
  } catch {
    const source = await vscode.workspace.fs.readFile(script);
    const url = URL.createObjectURL(new Blob([source as Uint8Array<ArrayBuffer>], { type: 'text/javascript' }));
    try {
      return new Worker(url, { name });
    } finally {
      // The worker has fetched its script once it runs; the URL is not needed after that.
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    }
  }
}

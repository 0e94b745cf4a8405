// The `iqm-tools view` page's stand-in for what VS Code gives a webview (acquireVsCodeApi), loaded
// before the preview's bundle (dist/webview.js, unchanged): messages to the host are POSTed to the
// server in order, the host's come as server-sent events and are dispatched as the `message` events
// VS Code delivers; the view state is kept per model in sessionStorage (it survives a reload). What
// needs an editor is done here instead: an exported image is downloaded, and the editor-only
// commands say what to run. esbuild -> dist/view-shim.js; the server: cli/view/server.ts.

import { decodeBase64 } from '../../core/base64';
import type { WebviewToHost } from '../../core/protocol';

declare global {
  interface Window {
    acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
  }
}

const page = new URLSearchParams(location.search);
const file = page.get('file') ?? '0';
// One id per page load: the server keeps one host session per page. `compare` and `side`: the
// viewer's place in the page's comparison (media/standalone/page.ts).
const client = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
const query = new URLSearchParams({ client, file, compare: page.get('compare') ?? '', side: page.get('side') ?? '' }).toString();
const stateKey = `iqm-view-state:${location.pathname}:${file}`;

/** A host message: JSON whose `{"$bytes": base64}` values are ArrayBuffers (cli/view/server.ts encodeMessage). */
function decodeMessage(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
      const bytes = decodeBase64((value as { $bytes: string }).$bytes);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    }
    return value;
  });
}

/** The export-image button: the PNG downloaded by the browser. */
function download(png: ArrayBuffer, name: string): void {
  const url = URL.createObjectURL(new Blob([png], { type: 'image/png' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// In order: the host must see `ready` before the texture requests that follow it.
let sending: Promise<unknown> = Promise.resolve();
function toHost(m: WebviewToHost): void {
  if (m.type === 'saveImage') return download(m.png, m.name);
  if (m.type === 'convertToIqe') {
    window.alert('Convert to IQE writes the IQE text in VS Code. Here, in a terminal:\n\n  iqm-tools convert MODEL -o MODEL.iqe');
    return;
  }
  if (m.type === 'exportGltf') {
    window.alert('Export to glTF writes the .glb in VS Code. Here, in a terminal:\n\n  iqm-tools convert MODEL -o MODEL.glb');
    return;
  }
  const body = JSON.stringify(m);
  sending = sending.then(() => fetch(`post?${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }).catch(() => undefined));
}

window.acquireVsCodeApi = () => ({
  postMessage: (m: unknown) => toHost(m as WebviewToHost),
  getState: () => {
    const saved = sessionStorage.getItem(stateKey);
    try {
      return saved ? JSON.parse(saved) : undefined;
    } catch {
      return undefined;
    }
  },
  setState: (s: unknown) => sessionStorage.setItem(stateKey, JSON.stringify(s)),
});

const events = new EventSource(`events?${query}`);
events.onmessage = (e: MessageEvent<string>) => window.dispatchEvent(new MessageEvent('message', { data: decodeMessage(e.data) }));

// The `iqm-tools view` page's stand-in for what VS Code gives a webview (acquireVsCodeApi), loaded
// before the preview's bundle (dist/webview.js, unchanged): messages to the host are POSTed to the
// server in order, the host's come as server-sent events and are dispatched as the `message` events
// VS Code delivers; the view state is kept per model in sessionStorage (it survives a reload). What
// needs an editor is done here instead: an exported image is downloaded, and the editor-only
// commands say what to run. esbuild -> dist/view-shim.js; the server: cli/view/server.ts.

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

/**
 * A host message: JSON whose `{"$blob": n}` values are ArrayBuffers the server holds for this page
 * (cli/view/server.ts encodeMessage), fetched as binary here before the message is dispatched.
 */
async function decodeMessage(text: string): Promise<unknown> {
  const fetches: Promise<void>[] = [];
  const blobs = new Map<number, ArrayBuffer>();
  const message: unknown = JSON.parse(text, (_key, value: unknown) => {
    const n = typeof value === 'object' && value !== null ? (value as { $blob?: unknown }).$blob : undefined;
    if (typeof n !== 'number') return value;
    fetches.push(
      fetch(`blob?${query}&n=${n}`).then(async (r) => {
        if (!r.ok) throw new Error(`the model's data (${n}) was not served: ${r.status} ${await r.text()}`);
        blobs.set(n, await r.arrayBuffer());
      }),
    );
    return value;
  });
  await Promise.all(fetches);
  // The placeholders, replaced now that every buffer has arrived.
  const fill = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const n = (value as { $blob?: unknown }).$blob;
    if (typeof n === 'number') return blobs.get(n);
    for (const [key, inner] of Object.entries(value)) (value as Record<string, unknown>)[key] = fill(inner);
    return value;
  };
  return blobs.size > 0 ? fill(message) : message;
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

// The host's messages wait for the preview's `ready` (posted once its listener is in place): the
// host starts the model's load when the page connects, before the bundle has run.
let listening: () => void = () => undefined;
const pageListens = new Promise<void>((resolve) => (listening = resolve));

// In order: the host must see `ready` before the texture requests that follow it.
let sending: Promise<unknown> = Promise.resolve();
function toHost(m: WebviewToHost): void {
  if (m.type === 'ready') listening();
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
// In order: a message waits for the buffers of those before it (a reload's `load` after the first).
let receiving: Promise<unknown> = pageListens;
events.onmessage = (e: MessageEvent<string>) => {
  const decoded = decodeMessage(e.data);
  decoded.catch(() => undefined); // reported when its turn comes, below
  receiving = receiving.then(async () => {
    try {
      window.dispatchEvent(new MessageEvent('message', { data: await decoded }));
    } catch (error) {
      console.error(error);
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'hostError', message: `iqm-tools view: ${error instanceof Error ? error.message : String(error)}` } }));
    }
  });
};

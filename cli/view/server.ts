// The HTTP server of `iqm-tools view`: the preview's webview bundle (dist/webview.js) in a page of
// its own, on 127.0.0.1, behind a random token that every request carries as the first segment of
// its path (compared in constant time): another local user's page cannot guess it, so cannot read
// the models through it. The page talks to its host over the preview's typed protocol
// (core/protocol.ts): host -> page as server-sent events, page -> host as POSTs; each page is one
// ViewSession (session.ts). Served: the fixed bundle files, the pages, and the images the engine
// lookup resolved for a page's model. Nothing else: no path from the page is ever opened.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isWebviewToHost, type HostToWebview } from '../../core/protocol';
import { fileNameOf } from '../../core/paths';
import { ViewPairs, type Side } from './pairs';
import { ViewSession } from './session';

export interface ViewServerOptions {
  /** The models, absolute paths with / separators. */
  files: readonly string[];
  /** 0: a free port. */
  port: number;
  /** The engines to check the models for ('' none). */
  engines: string;
  /** The folder of the built bundles (dist/). */
  dist: string;
  log(message: string): void;
}

export interface ViewServer {
  /** The page's address, with the token. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The bundle files a page loads, by the name it asks for (dist/ of esbuild.mjs). */
const BUNDLE: Record<string, string> = {
  'webview.js': 'text/javascript',
  'webview.css': 'text/css',
  'codicon.ttf': 'font/ttf',
  'view-shim.js': 'text/javascript',
  'view-page.js': 'text/javascript',
  'view-page.css': 'text/css',
};

/** A page's POST is a protocol message: small (the page saves images itself). */
const MAX_POST_BYTES = 1 << 20;
/** A page whose event stream closed is given this long to reconnect before its session ends (ms). */
const RECONNECT_MS = 5000;
const CLIENT_ID = /^[A-Za-z0-9-]{8,64}$/;
/** A comparison group of the page (media/standalone/page.ts): its viewers' `compare` parameter. */
const GROUP_ID = /^[A-Za-z0-9]{8,64}$/;

interface Client {
  session: ViewSession;
  stream: ServerResponse | null;
  /** Messages posted before the page's event stream connected. */
  queue: string[];
  ending: ReturnType<typeof setTimeout> | null;
  /** The ArrayBuffers of messages sent, until the page fetches them (`blob?n=`): by number, with what waits for them. */
  blobs: Map<number, { bytes: ArrayBuffer; served(): void }>;
  nextBlob: number;
}

/**
 * A message as one line of JSON, its ArrayBuffers (model bytes, images) as `{"$blob": n}`, each
 * handed to `keep`, which numbers it: the page fetches them as binary before it dispatches the
 * message (media/standalone/shim.ts). A 100 MB model as base64 in the event stream took seconds
 * to encode, parse and decode, and a model over ~380 MB could not be a string at all.
 */
export function encodeMessage(m: HostToWebview, keep: (bytes: ArrayBuffer) => number): string {
  return JSON.stringify(m, (_key, value: unknown) => (value instanceof ArrayBuffer ? { $blob: keep(value) } : value));
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-src 'self'";
const VIEWER_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self'; connect-src 'self'";

/** The page: the list of models (and Compare) around one or two viewers (media/standalone/page.ts). */
function indexHtml(files: readonly string[]): string {
  const list = JSON.stringify({ files: files.map((path) => ({ name: fileNameOf(path), path })) });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="iqm-view" content="${escapeHtml(list)}">
<link rel="stylesheet" href="view-page.css">
<title>${escapeHtml(files.length === 1 ? fileNameOf(files[0]) : `${files.length} models`)} — iqm-tools view</title>
</head><body><script src="view-page.js"></script></body></html>`;
}

/** One viewer: the webview bundle, after the stand-in for VS Code's webview API (media/standalone/shim.ts). */
function viewerHtml(path: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="webview.css">
<title>${escapeHtml(fileNameOf(path))}</title>
</head><body><script src="view-shim.js"></script><script src="webview.js"></script></body></html>`;
}

export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  for (const name of Object.keys(BUNDLE)) {
    if (!existsSync(join(options.dist, name))) throw new Error(`the preview's bundle is missing (${join(options.dist, name)}): build it with npm run build`);
  }
  const token = randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const clients = new Map<string, Client>();
  const pairs = new ViewPairs();
  let port = 0;

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, csp?: string) => {
    res.writeHead(status, {
      'Content-Type': type,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // Known length: the page takes a large body into one buffer of that size.
      'Content-Length': Buffer.byteLength(body),
      ...(csp ? { 'Content-Security-Policy': csp } : {}),
    });
    res.end(body);
  };
  const refuse = (res: ServerResponse, status: number, why: string) => send(res, status, 'text/plain; charset=utf-8', `${why}\n`);

  const tokenMatches = (segment: string) => {
    const given = Buffer.from(segment);
    return given.length === tokenBytes.length && timingSafeEqual(given, tokenBytes);
  };

  /** The page's client (created on its first request, which may be its first POST or its event stream). */
  const clientOf = (url: URL): Client | null => {
    const id = url.searchParams.get('client') ?? '';
    const file = Number(url.searchParams.get('file'));
    if (!CLIENT_ID.test(id)) return null;
    const known = clients.get(id);
    if (known) return known;
    if (!Number.isInteger(file) || file < 0 || file >= options.files.length) return null;
    const client: Client = { stream: null, queue: [], ending: null, blobs: new Map(), nextBlob: 0, session: null as unknown as ViewSession };
    // Resolves once the page has fetched every buffer of the message (at once without any; or when the page is gone).
    const post = (m: HostToWebview): Promise<void> => {
      const served: Promise<void>[] = [];
      const keep = (bytes: ArrayBuffer) => {
        const n = client.nextBlob++;
        served.push(new Promise((resolve) => client.blobs.set(n, { bytes, served: resolve })));
        return n;
      };
      const line = `data: ${encodeMessage(m, keep)}\n\n`;
      if (client.stream) client.stream.write(line);
      else client.queue.push(line);
      return Promise.all(served).then(() => undefined);
    };
    const imageUrl = (path: string) => `image?client=${id}&path=${encodeURIComponent(path)}`;
    const session = new ViewSession(options.files[file], post, {
      engines: options.engines,
      imageUrl,
      log: options.log,
      loaded: () => pairs.loaded(session),
      viewChanged: (view) => pairs.viewChanged(session, view),
    });
    client.session = session;
    const group = url.searchParams.get('compare') ?? '';
    const side = url.searchParams.get('side');
    if (GROUP_ID.test(group) && (side === 'left' || side === 'right')) pairs.join(group, side as Side, session);
    clients.set(id, client);
    session.start();
    return client;
  };

  const endClient = (id: string) => {
    const client = clients.get(id);
    if (!client) return;
    pairs.leave(client.session);
    client.session.close();
    for (const blob of client.blobs.values()) blob.served();
    client.blobs.clear();
    client.stream?.end();
    clients.delete(id);
  };

  const events = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const client = clientOf(url);
    if (!client) return refuse(res, 400, 'no such page');
    const id = url.searchParams.get('client') as string;
    if (client.ending) clearTimeout(client.ending);
    client.ending = null;
    client.stream?.end();
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.write('retry: 1000\n\n');
    client.stream = res;
    for (const line of client.queue.splice(0)) res.write(line);
    // A comment now and then keeps proxies and idle timeouts from closing the stream.
    const keepAlive = setInterval(() => res.write(':\n\n'), 20000);
    req.on('close', () => {
      clearInterval(keepAlive);
      if (client.stream !== res) return;
      client.stream = null;
      client.ending = setTimeout(() => endClient(id), RECONNECT_MS);
    });
  };

  const receive = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_POST_BYTES) {
        refuse(res, 413, 'message too large');
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_POST_BYTES) return;
      const client = clientOf(url);
      if (!client) return refuse(res, 400, 'no such page');
      let message: unknown;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse(res, 400, 'not JSON');
      }
      if (!isWebviewToHost(message)) return refuse(res, 400, 'not a message of the preview');
      client.session.onMessage(message);
      send(res, 204, 'text/plain', '');
    });
  };

  /** A message's ArrayBuffer, once: the page fetches each as it receives the message that names it. */
  const serveBlob = (res: ServerResponse, url: URL) => {
    const client = clients.get(url.searchParams.get('client') ?? '');
    const n = Number(url.searchParams.get('n'));
    const blob = client?.blobs.get(n);
    if (!client || blob === undefined) return refuse(res, 404, 'no such data: fetched already, or of a page that is gone');
    client.blobs.delete(n);
    res.once('close', blob.served);
    send(res, 200, 'application/octet-stream', Buffer.from(blob.bytes));
  };

  /** An image the engine lookup resolved for this page's model; any other path is refused. */
  const image = (res: ServerResponse, url: URL) => {
    const client = clients.get(url.searchParams.get('client') ?? '');
    const path = url.searchParams.get('path') ?? '';
    if (!client || !client.session.images.has(path)) return refuse(res, 403, 'refused: not a file of the models this server was started with');
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return refuse(res, 404, 'cannot be read');
    }
    send(res, 200, /\.png$/i.test(path) ? 'image/png' : 'image/jpeg', bytes);
  };

  const server = createServer((req, res) => {
    // Only this machine's names for the server: a page of another site that rebinds its own name to
    // 127.0.0.1 sends its own Host.
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return refuse(res, 403, 'refused: unexpected Host');
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${host}`);
    } catch {
      return refuse(res, 400, 'bad request');
    }
    const [, first = '', ...rest] = url.pathname.split('/');
    if (!tokenMatches(first)) return refuse(res, 403, 'refused: the address lacks the token iqm-tools view printed');
    const route = rest.join('/');
    const method = req.method ?? 'GET';
    if (method === 'POST' && route === 'post') return receive(req, res, url);
    if (method !== 'GET' && method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    if (route === '') return send(res, 200, 'text/html; charset=utf-8', indexHtml(options.files), PAGE_CSP);
    if (route === 'view') {
      const file = Number(url.searchParams.get('file') ?? '0');
      if (!Number.isInteger(file) || file < 0 || file >= options.files.length) return refuse(res, 404, 'no such model');
      return send(res, 200, 'text/html; charset=utf-8', viewerHtml(options.files[file]), VIEWER_CSP);
    }
    if (route === 'events') return events(req, res, url);
    if (route === 'image') return image(res, url);
    if (route === 'blob') return serveBlob(res, url);
    const type = BUNDLE[route];
    if (type) return send(res, 200, type, readFileSync(join(options.dist, route)));
    refuse(res, 404, 'not found');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') reject(new Error(`port ${options.port} is taken (another program listens on it): choose another with --port N, or leave --port out for a free one`));
      else if (e.code === 'EACCES') reject(new Error(`port ${options.port} may not be used by this user: choose one above 1023 with --port N, or leave --port out`));
      else reject(e);
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const id of [...clients.keys()]) endClient(id);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

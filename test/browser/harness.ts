// Browser harness for the preview: the built webview bundle (dist/webview.js) in a page served by a
// tiny local HTTP server, driven by playwright-core with Debian's Chromium (headless, WebGL2 through
// SwiftShader). The page stands in for VS Code: a stub acquireVsCodeApi (state in sessionStorage so
// it survives reloads), and this module plays the extension host: it posts `load` with the file's
// bytes and sidecars and answers `textureRequest` with the same lookup code the extension uses
// (client/preview/resolve.ts over node:fs).

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { findSidecars } from '../../core/lookup/sidecars';
import { playerSet } from '../../core/lookup/player';
import { meshTexture, textureLookup } from '../../core/lookup/textures';
import { textureExtensions } from '../../core/engines/textures';
import { compileDocument } from '../helpers/compile-iqm';
import { IqeDocument } from '../../core/iqe/document';
import { detectFormat } from '../../core/formats/registry';
import { partnerChoice } from '../../core/model/animationSet';
import { readModel } from '../../core/formats/models';
import { nodeFileAccess as nodeLookupFs } from '../../node/files';

/** node:fs for the lookup code; paths are absolute POSIX paths. */
export { nodeLookupFs };
import type { EngineReport, Sidecars, TextureRequest, WebviewToHost } from '../../core/protocol';
import type { ValidationReport } from '../../core/validate/report';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const SHARED = resolve(process.cwd(), '..', 'shared');
export const ASSETS = join(SHARED, 'assets');
export const REPO = process.cwd();
export const OUTPUT = join(REPO, 'test-output', 'browser');

/** A reason to skip browser tests, or false. */
export function skipReason(): string | false {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is absent (apt-get install chromium); browser tests skipped`;
  if (!existsSync(ASSETS)) return `../shared is absent (${ASSETS}); browser tests skipped`;
  if (!existsSync(join(REPO, 'dist', 'webview.js'))) return 'dist/webview.js is missing (npm run build); browser tests skipped';
  return false;
}

/** Starts `iqm-tools view --no-open ARGS` (dist/cli.js) and resolves with the address it prints. */
export function startView(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(REPO, 'dist', 'cli.js'), 'view', '--no-open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\//.exec(out);
      if (m) resolve({ child, url: m[0] });
    });
    child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('exit', (code) => reject(new Error(`iqm-tools view exited (${code}): ${err}`)));
  });
}

/** Flags: headless WebGL2 on SwiftShader, no sandbox (root/containers), no background network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-default-apps',
  '--disable-crash-reporter',
];

const NONCE = 'harnessnonce0123456789abcdef';

/**
 * The few page-side objects the harness touches, typed structurally: this file is type-checked
 * without the DOM library (test/tsconfig.json), and these callbacks run in the page.
 */
export interface PageGlobals {
  iqmPreview: {
    rendererInfo: string;
    state: Record<string, unknown>;
    firstFrameMs: number;
    captureFrame(frame: number): Float32Array;
    textureStats(): { textured: number; textures: number; images: number };
    setPlaying(playing: boolean): void;
    selectClip(clip: number): void;
    selectJoint(joint: number): void;
    fitCamera(): void;
    changed(): void;
    persist(): void;
    renderFrame(): void;
  };
  __fetchBytes(url: string): Promise<ArrayBuffer>;
  postMessage(message: unknown, target: string): void;
  requestAnimationFrame(cb: () => void): number;
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { attributes: boolean; attributeFilter: string[] }): void; disconnect(): void };
  document: {
    getElementById(id: string): null | {
      dataset: Record<string, string | undefined>;
      getContext(kind: 'webgl2'): PageGl;
    };
  };
}

export interface PageGl {
  drawingBufferWidth: number;
  drawingBufferHeight: number;
  readPixels(x: number, y: number, w: number, h: number, format: number, type: number, out: Uint8Array): void;
  getExtension(name: string): { loseContext(): void; restoreContext(): void } | null;
}

/** In page callbacks: the page's globals. */
export const pageGlobals = (): PageGlobals => globalThis as unknown as PageGlobals;

/** The page: the production CSP, plus connect-src 'self' so the stand-in host can fetch asset bytes. */
function harnessHtml(): string {
  const csp = `default-src 'none'; img-src 'self'; style-src 'self'; font-src 'self'; script-src 'nonce-${NONCE}'; connect-src 'self'`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="/dist/webview.css"></head><body>
<script nonce="${NONCE}" src="/harness-stub.js"></script>
<script nonce="${NONCE}" src="/dist/webview.js"></script>
</body></html>`;
}

const STUB = `
window.__posted = [];
window.acquireVsCodeApi = function () {
  return {
    postMessage: function (m) { window.__posted.push(m); if (window.__hostPost) window.__hostPost(m); },
    getState: function () { var s = sessionStorage.getItem('state'); return s ? JSON.parse(s) : undefined; },
    setState: function (s) { sessionStorage.setItem('state', JSON.stringify(s)); },
  };
};
window.__fetchBytes = async function (url) { return await (await fetch(url)).arrayBuffer(); };
`;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ttf': 'font/ttf',
  '.html': 'text/html',
};

/** Serves the harness page, dist/ and ../shared/assets on 127.0.0.1 (random port). */
export async function startServer(extra: Map<string, Uint8Array> = new Map()): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = decodeURIComponent(url.pathname);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (path === '/' || path === '/harness.html') return send(200, 'text/html', harnessHtml());
    if (path === '/favicon.ico') return send(204, 'image/x-icon', '');
    if (path === '/harness-stub.js') return send(200, 'text/javascript', STUB);
    const serveFrom = (root: string, rel: string) => {
      const file = resolve(root, '.' + rel);
      if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return send(404, 'text/plain', 'not found');
      send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
    };
    const extraFile = extra.get(path);
    if (extraFile) return send(200, 'application/octet-stream', Buffer.from(extraFile.buffer, extraFile.byteOffset, extraFile.byteLength));
    if (path.startsWith('/dist/')) return serveFrom(join(REPO, 'dist'), path.slice('/dist'.length));
    if (path.startsWith('/assets/')) return serveFrom(ASSETS, path.slice('/assets'.length));
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, base: `http://127.0.0.1:${port}` };
}


export interface Session {
  browser: Browser;
  page: Page;
  server: Server;
  base: string;
  messages: WebviewToHost[];
  close(): Promise<void>;
}

/** Opens Chromium on the harness page; `extra` serves generated files at the given URL paths. */
export async function openSession(viewport = { width: 800, height: 600 }, extra: Map<string, Uint8Array> = new Map(), extraArgs: string[] = []): Promise<Session> {
  const { chromium } = await import('playwright-core');
  const { server, base } = await startServer(extra);
  const userDataDir = mkdtempSync(join(tmpdir(), 'iqm-preview-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport,
  });
  const browser = context.browser() as Browser;
  const page = context.pages()[0] ?? (await context.newPage());
  const messages: WebviewToHost[] = [];
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.exposeFunction('__hostPost', async (m: WebviewToHost) => {
    messages.push(m);
    if (m.type === 'textureRequest') await answerTextures(page, base, m.generation, m.requests);
  });
  await page.goto(`${base}/harness.html`);
  await page.waitForSelector('#viewer');
  return {
    browser,
    page,
    server,
    base,
    messages,
    async close() {
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(userDataDir, { recursive: true, force: true });
      if (pageErrors.length) process.stderr.write(`browser console errors:\n${pageErrors.join('\n')}\n`);
    },
  };
}

const currentModel = new WeakMap<Page, string>();

/** Plays the host: resolves textures with the extension's lookup and posts them (TGA as bytes, PNG/JPEG as URLs). */
async function answerTextures(page: Page, base: string, generation: number, requests: TextureRequest[]): Promise<void> {
  const modelPath = currentModel.get(page);
  if (!modelPath) return;
  const lookup = textureLookup(nodeLookupFs, modelPath.slice(0, modelPath.lastIndexOf('/')), textureExtensions([]));
  const results = [];
  for (const req of requests) {
    const found = await meshTexture(lookup, req.names, req.skin);
    results.push({
      key: req.key, via: found.via, tried: found.tried, twoSided: found.twoSided, alphaTest: found.alphaTest, blend: found.blend,
      path: found.path, url: found.path && found.path.startsWith(ASSETS + '/') ? `${base}/assets/${found.path.slice(ASSETS.length + 1)}` : null,
    });
  }
  await page.evaluate(
    async ({ generation, results }) => {
      const out = [];
      for (const r of results) {
        let source: unknown = { kind: 'none' };
        if (r.url && r.path) {
          // As the host answers: a URI, which the page fetches and decodes itself for a TGA.
          source = { kind: 'uri', uri: r.url, path: r.path, ...(/\.tga$/i.test(r.path) ? { mime: 'image/x-tga' } : {}) };
        }
        out.push({ key: r.key, via: r.via, tried: r.tried, twoSided: r.twoSided, alphaTest: r.alphaTest, blend: r.blend, source });
      }
      (globalThis as unknown as PageGlobals).postMessage({ type: 'textures', generation, results: out }, '*');
    },
    { generation, results },
  );
}

/**
 * As the host's "mesh from…" picker does (client/preview/partners.ts): the other IQMs of the
 * folder matched by core/model/animationSet.ts; the chosen one is fetched by the page.
 */
function partnerOffer(s: Session, abs: string, bytes: Uint8Array, remembered: string | undefined) {
  if (!/\.iqm$/i.test(abs)) return undefined;
  const read = (b: Uint8Array) => {
    try {
      return readModel(b);
    } catch {
      return null;
    }
  };
  const opened = read(bytes);
  if (!opened) return undefined;
  const dir = abs.slice(0, abs.lastIndexOf('/'));
  const folder = readdirSync(dir)
    .filter((n) => /\.iqm$/i.test(n) && join(dir, n) !== abs)
    .sort()
    .map((name) => ({ name, model: read(new Uint8Array(readFileSync(join(dir, name)))) }))
    .filter((f): f is { name: string; model: NonNullable<typeof f.model> } => f.model !== null);
  const choice = partnerChoice(opened, folder, remembered);
  if (!choice) return undefined;
  const chosen = choice.chosen ? { name: choice.chosen, url: `${s.base}/assets/${join(dir, choice.chosen).slice(ASSETS.length + 1)}` } : null;
  return { role: choice.role, matches: choice.matches, automatic: choice.automatic, chosen };
}

/** Posts `load` for an asset (path relative to ../shared/assets) and waits for ready or error. `partner`: the picker's remembered choice. */
export async function loadAsset(s: Session, rel: string, opts: { reload?: boolean; waitTextures?: boolean; extraSkins?: { name: string; text: string }[]; partner?: string } = {}): Promise<'ready' | 'error'> {
  const abs = join(ASSETS, rel);
  currentModel.set(s.page, abs);
  const bytes = readFileSync(abs);
  const md3 = bytes.subarray(0, 4).toString('latin1') === 'IDP3';
  const sidecars: Sidecars = await findSidecars(nodeLookupFs, abs, md3);
  // Skin files the test writes itself (as if they were beside the model).
  if (opts.extraSkins) sidecars.skins.push(...opts.extraSkins);
  const fileName = rel.slice(rel.lastIndexOf('/') + 1);
  // As the host does: the other Quake 3 player parts beside head/upper/lower.md3.
  const parts = [];
  if (md3) {
    for (const p of await playerSet(nodeLookupFs, abs)) {
      if (p.path === abs) continue;
      const side = await findSidecars(nodeLookupFs, p.path, false);
      parts.push({ part: p.part, name: p.path.slice(p.path.lastIndexOf('/') + 1), url: `${s.base}/assets/${p.path.slice(ASSETS.length + 1)}`, skins: side.skins });
    }
  }
  // IQE text: compiled here as the extension host compiles it (in its worker), posted as IQM.
  let compiled = null;
  if (detectFormat(bytes) === 'iqe') {
    const start = performance.now();
    const result = compileDocument(new IqeDocument(bytes.toString('utf8')));
    if (!result.bytes) throw new Error(`${rel} does not compile`);
    compiled = { bytes: Array.from(result.bytes), info: { version: 1, unsaved: false, milliseconds: performance.now() - start } };
  }
  const partner = partnerOffer(s, abs, bytes, opts.partner);
  await s.page.evaluate(
    async ({ url, fileName, sidecars, reload, parts, compiled, partner }) => {
      const g = globalThis as unknown as PageGlobals;
      const root = g.document.getElementById('viewer');
      if (root) {
        root.dataset.state = 'loading';
        delete root.dataset.textures;
      }
      const bytes = compiled ? new Uint8Array(compiled.bytes).buffer : await g.__fetchBytes(url);
      const playerParts = [];
      for (const p of parts) playerParts.push({ part: p.part, name: p.name, bytes: await g.__fetchBytes(p.url), skins: p.skins });
      const offer = partner && { ...partner, chosen: partner.chosen && { name: partner.chosen.name, bytes: await g.__fetchBytes(partner.chosen.url) } };
      g.postMessage({ type: 'load', fileName, path: fileName, bytes, sidecars, playerParts, reload, compiled: compiled?.info, ...(offer ? { partner: offer } : {}) }, '*');
    },
    { url: `${s.base}/assets/${rel}`, fileName, sidecars, reload: opts.reload ?? false, parts, compiled, partner },
  );
  await s.page.waitForSelector('#viewer[data-state="ready"], #viewer[data-state="error"]', { timeout: 60000 });
  const state = (await s.page.getAttribute('#viewer', 'data-state')) as 'ready' | 'error';
  if (state === 'ready' && opts.waitTextures !== false) {
    await s.page.waitForSelector('#viewer[data-textures="done"]', { timeout: 60000 });
  }
  return state;
}

/** Posts `load` for generated bytes (small files: they travel through page.evaluate as numbers), with the sidecars given (none by default) and the validator's report as the host sends it (none by default). */
export async function loadGenerated(s: Session, fileName: string, bytes: Uint8Array, engines?: EngineReport, sidecars: Sidecars = { framegroups: null, animationCfg: null, skins: [] }, validation?: ValidationReport): Promise<'ready' | 'error'> {
  currentModel.set(s.page, join(ASSETS, 'generated', fileName));
  await s.page.evaluate(
    ({ fileName, data, engines, sidecars, validation }) => {
      const g = globalThis as unknown as PageGlobals;
      const root = g.document.getElementById('viewer');
      if (root) {
        root.dataset.state = 'loading';
        delete root.dataset.textures;
      }
      const bytes = new Uint8Array(data).buffer;
      g.postMessage({ type: 'load', fileName, path: fileName, bytes, sidecars, playerParts: [], reload: false, engines }, '*');
      // As the hosts do: the validator's report after the load.
      if (validation) g.postMessage({ type: 'validation', report: validation }, '*');
    },
    { fileName, data: Array.from(bytes), engines, sidecars, validation },
  );
  await s.page.waitForSelector('#viewer[data-state="ready"], #viewer[data-state="error"]', { timeout: 60000 });
  return (await s.page.getAttribute('#viewer', 'data-state')) as 'ready' | 'error';
}

export interface PixelStats {
  width: number;
  height: number;
  /** Fraction of pixels that differ from the background colour. */
  covered: number;
  /** Distinct colours (quantised to 5 bits per channel). */
  colours: number;
  /** Bounding box of covered pixels in [0, 1] (x0, y0, x1, y1; y down). */
  box: [number, number, number, number];
  /** Mean colour of covered pixels. */
  mean: [number, number, number];
}

/**
 * Reads the canvas back (WebGL readPixels, preserveDrawingBuffer) and summarises it. Grid and
 * overlays are turned off first by the caller when only the model should count.
 */
export async function pixelStats(page: Page | Frame): Promise<PixelStats> {
  return await page.evaluate(() => {
    const canvas = (globalThis as unknown as PageGlobals).document.getElementById('view');
    if (!canvas) throw new Error('no canvas');
    const gl = canvas.getContext('webgl2');
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, 0x1908 /* RGBA */, 0x1401 /* UNSIGNED_BYTE */, px);
    // Background: the most common colour among the four corners.
    const bg = [px[0], px[1], px[2]];
    let covered = 0;
    const colours = new Set<number>();
    let x0 = w, y0 = h, x1 = -1, y1 = -1;
    let r = 0, g = 0, b = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        colours.add(((px[o] >> 3) << 10) | ((px[o + 1] >> 3) << 5) | (px[o + 2] >> 3));
        if (Math.abs(px[o] - bg[0]) + Math.abs(px[o + 1] - bg[1]) + Math.abs(px[o + 2] - bg[2]) > 12) {
          covered++;
          r += px[o]; g += px[o + 1]; b += px[o + 2];
          const yy = h - 1 - y;
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (yy < y0) y0 = yy;
          if (yy > y1) y1 = yy;
        }
      }
    }
    const n = Math.max(1, covered);
    return {
      width: w, height: h, covered: covered / (w * h), colours: colours.size,
      box: [x0 / w, y0 / h, (x1 + 1) / w, (y1 + 1) / h] as [number, number, number, number],
      mean: [r / n, g / n, b / n] as [number, number, number],
    };
  });
}

/** Sets view-state toggles through the real UI (clicking the toolbar buttons) when they differ. */
export async function setToggles(page: Page | Frame, wanted: Partial<Record<string, boolean>>): Promise<void> {
  for (const [key, on] of Object.entries(wanted)) {
    const [isOn, disabled] = await page.$eval(`button[data-toggle="${key}"]`, (b) => [b.classList.contains('on'), (b as unknown as { disabled: boolean }).disabled]);
    if (isOn !== on && !disabled) await page.click(`button[data-toggle="${key}"]`);
  }
  await settle(page);
}

/** Waits until the next two animation frames have been drawn. */
export async function settle(page: Page | Frame): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return new Promise<void>((r) => g.requestAnimationFrame(() => g.requestAnimationFrame(() => r())));
  });
}

export function screenshotPath(name: string): string {
  mkdirSync(OUTPUT, { recursive: true });
  return join(OUTPUT, `${name}.png`);
}

/** Clicks an entry of the toolbar's "more" menu (`menu-<id>`, or a button the row had no room for), then closes the menu. */
export async function menuClick(page: Page, id: string): Promise<void> {
  await page.click('#more');
  const lasting = await page.$(`#menu-${id}`);
  await page.click(lasting ? `#menu-${id}` : `[data-menu="${id}"]`);
  await page.keyboard.press('Escape');
  await settle(page);
}

/** Pauses on clip `clip` (-1: the bind pose), frames the model and hides the grid and overlays, so that only the model counts. */
export async function still(page: Page | Frame, clip = -1): Promise<void> {
  await page.evaluate((clip) => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview;
    v.setPlaying(false);
    v.selectClip(clip);
    v.fitCamera();
    v.changed();
  }, clip);
  await setToggles(page, { grid: false, skeleton: false, tags: false, bounds: false, wireframe: false, normals: false, weights: false });
}

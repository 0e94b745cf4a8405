// The custom editor: reads the model with vscode.workspace.fs (local, remote and virtual files),
// posts the bytes and sidecar texts to the webview, answers its texture requests, and reloads the
// panel's content when the file (or a sidecar) changes on disk. The webview keeps its own view
// state (vscode.setState), so hiding, showing and reloading keep the camera and playback.

import * as vscode from 'vscode';
import {
  assertNever,
  isWebviewToHost,
  type HostToWebview,
  type LoadMessage,
  type RenderedMessage,
  type TextureRequest,
  type TextureResult,
  type WebviewToHost,
} from '../../core/protocol';
import { sniff } from '../../core/sniff';
import { companionExtension, mtlLibraries } from '../../core/compile/companions';
import { siblingAnimations } from '../companions';
import { makeNonce, previewHtml } from './html';
import { basename, dirname, findSidecars, playerSet, resolveTexture, ShaderIndex, type LookupFs } from './resolve';

export const VIEW_TYPE = 'iqmTools.preview';
export const IQE_VIEW_TYPE = 'iqmTools.iqePreview';
/** The preview of an OBJ (an "Open With…" option: a text editor stays the default for .obj). */
export const OBJ_VIEW_TYPE = 'iqmTools.objPreview';

/** The files compiled with a source: its sibling animation files, an OBJ's .mtl files (unreadable ones left out). */
async function companionFiles(uri: vscode.Uri, bytes: Uint8Array): Promise<{ name: string; bytes: ArrayBuffer }[] | undefined> {
  const extension = companionExtension(uri.path);
  if (!extension) return undefined;
  const folder = dirname(uri.path);
  const paths =
    extension === '.mtl'
      ? mtlLibraries(new TextDecoder('utf-8').decode(bytes)).map((name) => `${folder}/${name.replace(/\\/g, '/')}`)
      : (await siblingAnimations(uri)).map((u) => u.path);
  const out: { name: string; bytes: ArrayBuffer }[] = [];
  for (const path of paths) {
    try {
      out.push({ name: path.slice(folder.length + 1), bytes: toArrayBuffer(await vscode.workspace.fs.readFile(uri.with({ path }))) });
    } catch {
      // Left out: the compile says what it misses (a .mtl: materials keep their names).
    }
  }
  return out;
}

class PreviewDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

/** LookupFs over vscode.workspace.fs for the model's file system (same scheme and authority). */
function workspaceFs(base: vscode.Uri): LookupFs {
  const uriOf = (path: string) => base.with({ path });
  return {
    async isFile(path) {
      try {
        const st = await vscode.workspace.fs.stat(uriOf(path));
        return (st.type & vscode.FileType.File) !== 0;
      } catch {
        return false;
      }
    },
    async readText(path) {
      try {
        const bytes = await vscode.workspace.fs.readFile(uriOf(path));
        return new TextDecoder('latin1').decode(bytes);
      } catch {
        return null;
      }
    },
    async shaderFiles() {
      try {
        const found = await vscode.workspace.findFiles('**/*.shader', '**/node_modules/**', 500);
        return found.filter((u) => u.scheme === base.scheme && u.authority === base.authority).map((u) => u.path);
      } catch {
        return [];
      }
    },
  };
}

function mimeOf(path: string): 'image/x-tga' | 'image/png' | 'image/jpeg' {
  const p = path.toLowerCase();
  if (p.endsWith('.png')) return 'image/png';
  if (p.endsWith('.jpg') || p.endsWith('.jpeg')) return 'image/jpeg';
  return 'image/x-tga';
}

/** A fresh ArrayBuffer holding exactly these bytes (postMessage transfers ArrayBuffers efficiently). */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : root + '/');
}

export class PreviewProvider implements vscode.CustomReadonlyEditorProvider<PreviewDocument> {
  /** Last `rendered` report per document URI (used by tests through a command). */
  readonly lastRendered = new Map<string, RenderedMessage>();
  private output: vscode.OutputChannel | null = null;

  constructor(private readonly context: vscode.ExtensionContext) {}

  openCustomDocument(uri: vscode.Uri): PreviewDocument {
    return new PreviewDocument(uri);
  }

  private log(message: string): void {
    if (!this.output) {
      this.output = vscode.window.createOutputChannel('IQM Tools Preview');
      this.context.subscriptions.push(this.output);
    }
    this.output.appendLine(message);
  }

  resolveCustomEditor(document: PreviewDocument, panel: vscode.WebviewPanel): void {
    const uri = document.uri;
    const modelDir = uri.with({ path: dirname(uri.path) });
    const workspaceFolder = vscode.workspace.getWorkspaceFolder(uri);
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    // Images load from the model's folder tree: the workspace folder (shaders and skins name paths
    // relative to the game root) or, outside a workspace, the model's folder and its parent.
    const roots = [dist, workspaceFolder ? workspaceFolder.uri : modelDir.with({ path: dirname(modelDir.path) })];
    panel.webview.options = { enableScripts: true, localResourceRoots: roots };
    const nonce = makeNonce((n) => {
      const b = new Uint8Array(n);
      crypto.getRandomValues(b);
      return b;
    });
    panel.webview.html = previewHtml({
      cspSource: panel.webview.cspSource,
      nonce,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });

    const fs = workspaceFs(uri);
    const stopAt = workspaceFolder && workspaceFolder.uri.scheme === uri.scheme ? workspaceFolder.uri.path : null;
    let loads = 0;
    let disposed = false;
    const post = (m: HostToWebview) => {
      if (!disposed) void panel.webview.postMessage(m);
    };

    const sendLoad = async () => {
      let bytes: Uint8Array;
      try {
        bytes = await vscode.workspace.fs.readFile(uri);
      } catch (e) {
        post({ type: 'hostError', message: `${uri.fsPath || uri.path}: ${e instanceof Error ? e.message : String(e)}` });
        return;
      }
      const md3 = sniff(bytes).format === 'md3';
      const sidecars = await findSidecars(uri.path, fs, md3);
      const playerParts: LoadMessage['playerParts'] = [];
      if (md3) {
        for (const part of await playerSet(uri.path, fs)) {
          if (part.path === uri.path) continue;
          try {
            const partBytes = await vscode.workspace.fs.readFile(uri.with({ path: part.path }));
            const partSidecars = await findSidecars(part.path, fs, false);
            playerParts.push({ part: part.part, name: basename(part.path), bytes: toArrayBuffer(partBytes), skins: partSidecars.skins });
          } catch {
            // A part that cannot be read just leaves the set incomplete.
          }
        }
      }
      const companions = await companionFiles(uri, bytes);
      const message: LoadMessage = {
        type: 'load',
        companions,
        fileName: basename(uri.path),
        path: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
        bytes: toArrayBuffer(bytes),
        sidecars,
        playerParts,
        reload: loads > 0,
      };
      loads++;
      post(message);
    };

    const answerTextures = async (generation: number, requests: TextureRequest[]) => {
      const shaders = new ShaderIndex(fs);
      const results: TextureResult[] = [];
      for (const req of requests) {
        const found = await resolveTexture(req, uri.path, fs, shaders, stopAt, null);
        const base = { key: req.key, via: found.via, tried: found.tried, twoSided: found.twoSided, alphaTest: found.alphaTest };
        if (!found.path) {
          results.push({ ...base, source: { kind: 'none' } });
          continue;
        }
        const mime = mimeOf(found.path);
        const fileUri = uri.with({ path: found.path });
        const display = uri.scheme === 'file' ? fileUri.fsPath : fileUri.toString();
        if (mime !== 'image/x-tga' && roots.some((r) => r.scheme === fileUri.scheme && isInside(found.path as string, r.path))) {
          results.push({ ...base, source: { kind: 'uri', uri: panel.webview.asWebviewUri(fileUri).toString(), path: display } });
          continue;
        }
        try {
          const bytes = await vscode.workspace.fs.readFile(fileUri);
          results.push({ ...base, source: { kind: 'bytes', bytes: toArrayBuffer(bytes), mime, path: display } });
        } catch (e) {
          results.push({ ...base, tried: [...found.tried, `${display}: ${e instanceof Error ? e.message : String(e)}`], source: { kind: 'none' } });
        }
      }
      post({ type: 'textures', generation, results });
    };

    const onMessage = (raw: unknown) => {
      if (!isWebviewToHost(raw)) return;
      const m: WebviewToHost = raw;
      switch (m.type) {
        case 'ready':
          void sendLoad();
          break;
        case 'textureRequest':
          void answerTextures(m.generation, m.requests);
          break;
        case 'rendered':
          this.lastRendered.set(uri.toString(), m);
          if (!m.ok) this.log(`${uri.toString()}: ${m.error ?? 'failed'}`);
          break;
        case 'log':
          this.log(`[${m.level}] ${m.message}`);
          break;
        default:
          assertNever(m);
      }
    };

    // Reload when the model or a sidecar next to it changes (debounced: exporters write in pieces).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void sendLoad(), 150);
    };
    const name = basename(uri.path);
    const watchers: vscode.FileSystemWatcher[] = [
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(modelDir, `${name}*`)),
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(modelDir, '{animation.cfg,*.skin}')),
    ];
    const subscriptions: vscode.Disposable[] = [panel.webview.onDidReceiveMessage(onMessage)];
    for (const w of watchers) subscriptions.push(w, w.onDidChange(schedule), w.onDidCreate(schedule));
    panel.onDidDispose(() => {
      disposed = true;
      if (timer) clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
    });
  }
}

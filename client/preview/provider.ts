// The custom editor: reads the model with vscode.workspace.fs (local, remote and virtual files),
// posts the bytes and sidecar texts to the webview, answers its texture requests, and reloads the
// panel's content when the file (or a sidecar) changes on disk. The webview keeps its own view
// state (vscode.setState), so hiding, showing and reloading keep the camera and playback.
// IQE text follows the editor's document, saved or not: each edit (after a pause in typing) is
// compiled in the compile worker, off the extension host's thread; an edit that comes while a
// compile runs cancels it. The webview gets the IQM and which version of the text it is.

import * as vscode from 'vscode';
import {
  assertNever,
  isWebviewToHost,
  type HostToWebview,
  type LoadMessage,
  type RenderedMessage,
  type SourceProblem,
  type TextureRequest,
  type TextureResult,
  type WebviewToHost,
} from '../../core/protocol';
import { sniff } from '../../core/sniff';
import { compileOptionsOf } from '../compile/settings';
import { compileSource, settingsFor } from '../compile/source';
import type { Platform } from '../platform';
import { engineFindings, toDiagnostics } from './engines';
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

/** How long typing must pause before the IQE preview compiles the text again, ms. */
const IQE_DEBOUNCE_MS = 300;

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
  /** IQE compiles started per document URI, and how many were cancelled as stale (tests read them through the status command). */
  readonly compiles = new Map<string, { started: number; cancelled: number }>();
  private output: vscode.OutputChannel | null = null;
  private engineProblems: vscode.DiagnosticCollection | null = null;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly platform: Platform,
  ) {}

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

  /** Problems-panel entries of `iqmTools.engine` for open binary models. */
  private problems(): vscode.DiagnosticCollection {
    if (!this.engineProblems) {
      this.engineProblems = vscode.languages.createDiagnosticCollection('iqm-tools engine');
      this.context.subscriptions.push(this.engineProblems);
    }
    return this.engineProblems;
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

    const openDocument = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    let compiling: vscode.CancellationTokenSource | null = null;
    /** IQE text: the document's (or the file's) text compiled to IQM in the worker, then `load`. */
    const key = uri.toString();
    const count = (field: 'started' | 'cancelled') => {
      const c = this.compiles.get(key) ?? { started: 0, cancelled: 0 };
      c[field]++;
      this.compiles.set(key, c);
    };
    const compileAndLoad = async () => {
      if (compiling && !compiling.token.isCancellationRequested) count('cancelled');
      compiling?.cancel();
      count('started');
      const cancel = new vscode.CancellationTokenSource();
      compiling = cancel;
      const doc = openDocument();
      const version = doc ? doc.version : null;
      const unsaved = doc ? doc.isDirty : false;
      post({ type: 'compileState', state: 'compiling', version, unsaved, problem: null });
      try {
        let input;
        try {
          input = await compileSource(uri, this.platform.files);
        } catch (e) {
          post({ type: 'hostError', message: `${uri.fsPath || uri.path}: ${e instanceof Error ? e.message : String(e)}` });
          return;
        }
        const reply = await this.platform.compile(this.context, { source: input.source, options: compileOptionsOf(settingsFor(uri)) }, input.size, cancel.token);
        // Cancelled: a newer text is on its way.
        if (!reply || cancel.token.isCancellationRequested || disposed) return;
        if (!reply.ok) {
          post({ type: 'hostError', message: `The IQE compiler failed: ${reply.message.split('\n')[0]}` });
          this.log(`${uri.toString()}: the compiler failed: ${reply.message}`);
          return;
        }
        const errors = reply.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error');
        if (!reply.bytes || errors.length > 0) {
          const first = errors[0];
          const problem: SourceProblem = first
            ? { message: first.message, line: first.range.line, column: first.range.column, count: errors.length }
            : { message: 'the IQE text could not be compiled', line: 0, column: 0, count: 1 };
          post({ type: 'compileState', state: 'failed', version, unsaved, problem });
          return;
        }
        const sidecars = await findSidecars(uri.path, fs, false);
        if (cancel.token.isCancellationRequested) return;
        post({
          type: 'load',
          fileName: basename(uri.path),
          path: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
          bytes: toArrayBuffer(reply.bytes),
          sidecars,
          playerParts: [],
          reload: loads++ > 0,
          compiled: { version, unsaved, milliseconds: reply.milliseconds },
        });
      } finally {
        cancel.dispose();
        if (compiling === cancel) compiling = null;
      }
    };
    const isIqePath = /\.iqe$/i.test(uri.path);

    const sendLoad = async () => {
      if (isIqePath) return compileAndLoad();
      let bytes: Uint8Array;
      try {
        bytes = await vscode.workspace.fs.readFile(uri);
      } catch (e) {
        post({ type: 'hostError', message: `${uri.fsPath || uri.path}: ${e instanceof Error ? e.message : String(e)}` });
        return;
      }
      const format = sniff(bytes).format;
      // IQE text in a file named otherwise (mislabeled): compiled as an .iqe would be.
      if (format === 'iqe') return compileAndLoad();
      const md3 = format === 'md3';
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
      const engines = await engineFindings(uri, bytes).catch((e: unknown) => {
        this.log(`${uri.toString()}: engine checks failed: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (!disposed) this.problems().set(uri, engines ? toDiagnostics(engines) : []);
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
        engines: engines?.report,
      };
      loads++;
      post(message);
    };

    const answerTextures = async (generation: number, requests: TextureRequest[]) => {
      const shaders = new ShaderIndex(fs);
      const results: TextureResult[] = [];
      for (const req of requests) {
        const found = await resolveTexture(req, uri.path, fs, shaders, stopAt, null);
        const base = { key: req.key, via: found.via, tried: found.tried, twoSided: found.twoSided, alphaTest: found.alphaTest, blend: found.blend };
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
        case 'convertToIqe':
          void vscode.commands.executeCommand('iqmTools.convertToIqe', uri);
          break;
        case 'openSource':
          void showSource(uri, m.line, m.column);
          break;
        case 'saveImage':
          void saveImage(uri, m.name, new Uint8Array(m.png));
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
    const subscriptions: vscode.Disposable[] = [
      panel.webview.onDidReceiveMessage(onMessage),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('iqmTools.engine', uri)) schedule();
      }),
    ];
    // The file on disk matters while no editor holds its text (an open document follows its edits).
    const onDisk = () => {
      if (!(isIqePath && openDocument())) schedule();
    };
    for (const w of watchers) subscriptions.push(w, w.onDidChange(onDisk), w.onDidCreate(onDisk));
    if (isIqePath) {
      const same = (d: vscode.TextDocument) => d.uri.toString() === uri.toString();
      let typing: ReturnType<typeof setTimeout> | undefined;
      subscriptions.push(
        vscode.workspace.onDidChangeTextDocument((e) => {
          if (!same(e.document) || e.contentChanges.length === 0) return;
          // A compile of older text is stale: stop it now, compile again when typing pauses.
          if (compiling && !compiling.token.isCancellationRequested) count('cancelled');
          compiling?.cancel();
          if (typing) clearTimeout(typing);
          typing = setTimeout(() => void compileAndLoad(), IQE_DEBOUNCE_MS);
        }),
        vscode.workspace.onDidSaveTextDocument((d) => {
          if (same(d)) post({ type: 'compileState', state: 'saved', version: d.version, unsaved: false, problem: null });
        }),
        // Closed without saving: the text on disk is what there is again.
        vscode.workspace.onDidCloseTextDocument((d) => {
          if (same(d)) schedule();
        }),
        { dispose: () => typing && clearTimeout(typing) },
      );
    }
    panel.onDidDispose(() => {
      disposed = true;
      compiling?.cancel();
      this.problems().delete(uri);
      if (timer) clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
    });
  }
}

/** Shows the IQE text at a line and column (in the editor that has it, else beside the preview). */
async function showSource(uri: vscode.Uri, line: number, column: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const position = new vscode.Position(Math.min(line, doc.lineCount - 1), column);
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  await vscode.window.showTextDocument(doc, { viewColumn: shown?.viewColumn ?? vscode.ViewColumn.Beside, selection: new vscode.Range(position, position) });
}

/** The export-image button: a save dialog beside the model, then the PNG. */
async function saveImage(model: vscode.Uri, name: string, png: Uint8Array): Promise<void> {
  const target = await vscode.window.showSaveDialog({ defaultUri: model.with({ path: `${dirname(model.path)}/${name}` }), filters: { 'PNG image': ['png'] } });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, png);
    vscode.window.setStatusBarMessage(`$(check) Saved ${basename(target.path)}`, 5000);
  } catch (e) {
    void vscode.window.showErrorMessage(`${target.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

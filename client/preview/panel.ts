// One open preview: owns its webview, its document's URI, the file watchers and the message
// traffic. The provider only creates panels; commands reach an open preview through the
// provider's `panelsOf(uri)` and these methods (playClip, highlight, showModel, reload, onPicked).
//
// The webview keeps its own view state (vscode.setState), so hiding, showing and reloading keep the
// camera and playback. IQE text follows the editor's document, saved or not: each edit (after a
// pause in typing) is compiled in the compile worker, off the extension host's thread; an edit
// that comes while a compile runs cancels it. The webview gets the IQM and which version of the
// text it is.

import * as vscode from 'vscode';
import {
  assertNever,
  isWebviewToHost,
  type Highlight,
  type HostToWebview,
  type PickedMessage,
  type ClipStateMessage,
  type RenderedMessage,
  type Sidecars,
  type SourceProblem,
  type Stamps,
  type WebviewToHost,
} from '../../core/protocol';
import { PreviewTimeline } from '../../core/previewTimeline';
import type { CompileReply, CompileRequest } from '../../core/host/compileProtocol';
import { compileOptionsOf } from '../compile/settings';
import { compileSource, settingsFor } from '../compile/source';
import type { Platform } from '../platform';
import { engineFindings, toDiagnostics } from './engines';
import { validationDiagnostics, validationDocLinks } from './validation';
import { errorText, toArrayBuffer } from '../../core/host/transfer';
import { saveImage, showSource } from './userFiles';
import { watchCompanionFiles, watchModelFiles } from './watchers';
import { workspaceAccess } from '../fileAccess';
import { makeNonce, previewHtml } from './html';
import { findPartners, partnersMatter, rememberedPartner, rememberPartner } from './partners';
import { displayPath, type ModelRead, loadPreviewModel } from './modelLoad';
import { type MaterialColor, previewClipLoops, sourceOutcome, sourceRequest } from '../../core/host/sourceCompile';
import { fileNameOf as basename, folderOf as dirname } from '../../core/paths';
import type { FileAccess } from '../../core/files';
import { findSidecars } from '../../core/lookup/sidecars';
import { type EmbeddedImage, lookupTextures } from './textureLookup';
import type { ComparablePreview, Comparisons } from '../compare/comparisons';
import { SourceLink, type SourceLinkStatus } from '../link/sourceLink';

/** How long typing must pause before the IQE preview compiles the text again, ms. */
const IQE_DEBOUNCE_MS = 300;
/** Exporters write in pieces: a change on disk reloads after this quiet time, ms. */
const RELOAD_DEBOUNCE_MS = 150;

/** What the panels share, held by the provider. */
export interface PanelHost {
  readonly context: vscode.ExtensionContext;
  readonly platform: Platform;
  log(message: string): void;
  /** Problems-panel entries of `iqmTools.engine` for open binary models. */
  problems(): vscode.DiagnosticCollection;
  /** The webview drew (or failed to draw) the model (tests read it through a command). */
  rendered(uri: vscode.Uri, m: RenderedMessage): void;
  /** The clips the webview lists and plays (tests read them through the same command). */
  clipState(uri: vscode.Uri, m: ClipStateMessage): void;
  /** An IQE compile started or was cancelled as stale (tests read the counts). */
  countCompile(uri: vscode.Uri, field: 'started' | 'cancelled'): void;
  /** Where previews shown side by side are paired and compared. */
  readonly comparisons: Comparisons;
}

export class PreviewPanel implements ComparablePreview {
  readonly uri: vscode.Uri;
  /** Where the model's bytes come from: the document, or what showModel set (a revision to compare). */
  private source: vscode.Uri;
  private readonly fs: FileAccess;
  private readonly roots: vscode.Uri[];
  private readonly isIqePath: boolean;
  private loads = 0;
  /** Bumped by each sendLoad: a load that finds a newer one started after its awaits posts nothing. */
  private loadGeneration = 0;
  private readonly pending: HostToWebview[] = [];
  /**
   * Messages posted before the new webview's first `ready` (its script not listening yet), sent
   * then in order; null once it is ready.
   */
  private beforeReady: { message: HostToWebview; delivered?: () => void }[] | null = [];
  private disposed = false;
  private compiling: vscode.CancellationTokenSource | null = null;
  /** The images inside a previewed glTF (its materials find them: textureLookup.ts). */
  private embedded: EmbeddedImage[] = [];
  /** A previewed glTF's materials without a texture: their colour is drawn where no image is found. */
  private materialColors: MaterialColor[] = [];
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Watchers of a compile source's companion files (a glTF's .bin and images, an OBJ's .mtl, MD5 animations), renewed at each compile. */
  private companionWatchers: vscode.Disposable[] = [];
  /** The other IQMs of the folder are offered in "Mesh from" / "Clips from": one changing or appearing reloads. */
  private partnersMatter = false;
  private readonly pickedEmitter = new vscode.EventEmitter<PickedMessage>();
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** The user clicked a triangle in the view. */
  readonly onPicked = this.pickedEmitter.event;
  /** IQE text: the link between its lines and the drawn model (click-to-line, cursor highlight). */
  private readonly link: SourceLink | null;
  /** The model as last loaded (an IQE's: the IQM compiled from it), for a comparison. */
  private modelBytes: Uint8Array | null = null;
  /** The sidecars of the last load drawn (its clips, for a comparison). */
  private modelSidecars: Sidecars | null = null;
  /** Why the last load drew no model (read or compile error), null after a load that drew one. */
  private loadProblem: string | null = null;
  /** The host's side of the first load's timeline (core/previewTimeline.ts). */
  private readonly timeline = new PreviewTimeline();
  /** The webview's side of it, as last posted. */
  private webviewStamps: Stamps = {};
  /** The first compile's own milliseconds (in the worker), for the timeline. */
  private compileMs: number | null = null;
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(
    private readonly host: PanelHost,
    uri: vscode.Uri,
    readonly webviewPanel: vscode.WebviewPanel,
  ) {
    this.timeline.mark('resolved');
    this.uri = uri;
    this.source = uri;
    this.isIqePath = /\.iqe$/i.test(uri.path);
    const modelDir = uri.with({ path: dirname(uri.path) });
    const workspaceFolder = vscode.workspace.getWorkspaceFolder(uri);
    const dist = vscode.Uri.joinPath(host.context.extensionUri, 'dist');
    // Images load from the model's folder tree: the workspace folder (shaders and skins name paths
    // relative to the game root) or, outside a workspace, the model's folder and its parent.
    this.roots = [dist, workspaceFolder ? workspaceFolder.uri : modelDir.with({ path: dirname(modelDir.path) })];
    this.fs = workspaceAccess(uri);
    const webview = webviewPanel.webview;
    webview.options = { enableScripts: true, localResourceRoots: this.roots };
    const nonce = makeNonce((n) => {
      const b = new Uint8Array(n);
      crypto.getRandomValues(b);
      return b;
    });
    webview.html = previewHtml({
      cspSource: webview.cspSource,
      nonce,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });
    this.timeline.mark('htmlSet');
    this.link = this.isIqePath ? new SourceLink(uri, (m) => this.post(m)) : null;
    this.watch(modelDir);
    webviewPanel.onDidDispose(() => this.dispose());
    host.comparisons.add(this);
    // Read (and compile) the model while the webview starts, not after: its `load` waits in
    // beforeReady for the webview's `ready` (the two overlap; the first frame comes sooner).
    void this.sendLoad();
  }

  /** The first load's timeline so far, both sides' stamps, and its compile's own milliseconds (the benchmark reads it through iqmTools.previewStatus). */
  get firstLoad(): { stamps: Stamps; compileMs: number | null } {
    return { stamps: { ...this.timeline.stamps, ...this.webviewStamps }, compileMs: this.compileMs };
  }

  /** What the source link last did (tests, through iqmTools.previewStatus). */
  get linkStatus(): SourceLinkStatus | null {
    return this.link ? this.link.status : null;
  }

  model(): Uint8Array | null {
    return this.modelBytes;
  }

  sidecars(): Sidecars | null {
    return this.modelSidecars;
  }

  problem(): string | null {
    return this.loadProblem;
  }

  get visible(): boolean {
    return !this.disposed && this.webviewPanel.visible;
  }

  /** A load drew no model: said in the view (which drops the model it drew), and to a comparison. */
  private loadFailed(message: string, fileName?: string): void {
    this.post({ type: 'hostError', message, ...(fileName !== undefined ? { fileName } : {}) });
    this.modelBytes = null;
    this.noModel(message);
  }

  /** Remembers why there is no model (a comparison says it instead of waiting for one). */
  private noModel(problem: string): void {
    this.loadProblem = problem;
    this.host.comparisons.loaded(this);
  }

  /** A load drew a model: kept for a comparison, which computes its differences again. */
  private loaded(bytes: Uint8Array, sidecars: Sidecars): void {
    this.modelBytes = bytes;
    this.modelSidecars = sidecars;
    this.loadProblem = null;
    this.flushPending();
    this.host.comparisons.loaded(this);
  }

  // ---------------------------------------------------------------- seams for commands

  /** Plays a listed clip (by name, and first frame where names repeat). */
  playClip(name: string, firstFrame?: number, play = true, frame?: number): void {
    this.postAfterLoad({ type: 'playClip', name, firstFrame, play, frame });
  }

  /** Highlights vertices, triangles or a joint of the drawn model (null: nothing). */
  highlight(target: Highlight | null): void {
    this.postAfterLoad({ type: 'highlight', target });
  }

  /** Messages about the model wait for its first load (a panel just opened has no page or model yet). */
  private postAfterLoad(m: HostToWebview): void {
    if (this.loads > 0) this.post(m);
    else this.pending.push(m);
  }

  /** After a `load`: what waited for it. */
  private flushPending(): void {
    const waiting = this.pending.splice(0);
    for (const m of waiting) this.post(m);
  }

  /**
   * Shows the model read from `source` instead of the document (a revision of the same file, for a
   * comparison); sidecars and textures are still looked up beside the document. Null: the document.
   */
  showModel(source: vscode.Uri | null): void {
    this.source = source ?? this.uri;
    void this.sendLoad();
  }

  /** Sends the model again (a setting or a file it depends on changed). */
  reload(): void {
    this.schedule();
  }

  post(m: HostToWebview): void {
    void this.postDelivered(m);
  }

  /**
   * Posts `m`; resolves once VS Code has handed it to the webview (for a message posted before
   * `ready`, once it was sent then), or at once when the panel is gone.
   */
  private postDelivered(m: HostToWebview): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.beforeReady) {
      const queue = this.beforeReady;
      return new Promise((delivered) => queue.push({ message: m, delivered }));
    }
    return Promise.resolve(this.webviewPanel.webview.postMessage(m)).then(
      () => undefined,
      () => undefined,
    );
  }

  // ---------------------------------------------------------------- loading

  private async sendLoad(): Promise<void> {
    if (this.isIqePath && this.source === this.uri) return this.compileAndLoad();
    // Loads overlap (a sidecar edited, then reverted, while the first load still reads the
    // folder): only the newest may post, or an older text would be drawn last.
    const generation = ++this.loadGeneration;
    const stale = () => generation !== this.loadGeneration || this.disposed;
    this.timeline.mark('readStart');
    const read = await loadPreviewModel(this.uri, this.source, this.fs, (m) => this.host.log(m), (event) => this.timeline.mark(event));
    if (stale()) return;
    if (read.kind === 'error') {
      this.loadFailed(read.message);
      return;
    }
    if (read.kind === 'iqe') return this.compileAndLoad();
    if (read.kind === 'source') return this.compileSourceAndLoad(read);
    // The engines' findings on the document's own bytes (not on a model shown in its place); the validator's report follows the load.
    const ownBytes = this.source === this.uri;
    const engineProblems = read.engines && ownBytes ? toDiagnostics(read.engines) : [];
    if (!this.disposed) this.host.problems().set(this.uri, engineProblems);
    // An animation file borrows a mesh of the folder, a mesh the clips of an animation file.
    const bytes = new Uint8Array(read.message.bytes);
    const partner = this.source === this.uri ? await findPartners(this.uri, bytes, rememberedPartner(this.host.context.workspaceState, this.uri), (m) => this.host.log(m)) : undefined;
    if (stale()) return;
    this.partnersMatter = this.source === this.uri && partnersMatter(this.uri, bytes);
    const reload = this.loads > 0;
    this.loads++;
    const model = new Uint8Array(read.message.bytes);
    this.timeline.mark('loadPosted');
    const delivered = this.postDelivered({ ...read.message, reload, ...(partner ? { partner } : {}) });
    this.loaded(model, read.message.sidecars);
    // The validator once the load has gone to the webview: it reads every frame and triangle (0.5 s
    // and more on a 100 MB file, all of it on this thread), which the first frame need not wait for.
    await delivered;
    if (stale()) return;
    const report = read.validate();
    if (!report || stale()) return;
    this.timeline.mark('validated');
    if (ownBytes) {
      // Each entry's code links to its section of the packaged docs/VALIDATION.md.
      const links = await validationDocLinks(this.host.context.extensionUri, (m) => this.host.log(m));
      if (stale()) return;
      this.host.problems().set(this.uri, [...engineProblems, ...validationDiagnostics(report, links)]);
    }
    this.post({ type: 'validation', report });
  }

  /**
   * The one compile path of the preview: a compile in the platform's worker that a newer load
   * cancels (counted for tests). `start` makes the request (or says why there is none), `done`
   * posts what a reply that compiled gives; a worker that failed is said and logged.
   */
  private async compileInWorker(start: () => Promise<{ request: CompileRequest; size: number } | { error: string }>, done: (reply: Extract<CompileReply, { ok: true }>, cancel: vscode.CancellationToken) => Promise<void>): Promise<void> {
    const uri = this.uri;
    this.cancelCompile();
    this.host.countCompile(uri, 'started');
    const cancel = new vscode.CancellationTokenSource();
    this.compiling = cancel;
    try {
      const started = await start();
      if ('error' in started) {
        this.loadFailed(started.error);
        return;
      }
      this.timeline.mark('compileStart');
      const reply = await this.host.platform.compile(this.host.context, started.request, started.size, cancel.token);
      // Cancelled: a newer load is on its way.
      if (!reply || cancel.token.isCancellationRequested || this.disposed) return;
      if (this.timeline.mark('compileDone') && reply.ok) this.compileMs = reply.milliseconds;
      if (!reply.ok) {
        this.host.log(`${uri.toString()}: the compiler failed: ${reply.message}`);
        this.loadFailed(`The compiler failed: ${reply.message.split('\n')[0]}`, basename(uri.path));
        return;
      }
      await done(reply, cancel.token);
    } finally {
      cancel.dispose();
      if (this.compiling === cancel) this.compiling = null;
    }
  }

  /**
   * A compile source (MD5, SMD, OBJ, glTF): compiled with its companion files (the request every
   * face makes of a source: sourceCompile.ts), then `load` with the IQM.
   */
  private compileSourceAndLoad(read: Extract<ModelRead, { kind: 'source' }>): Promise<void> {
    const uri = this.uri;
    const name = basename(uri.path);
    const { animations, resources, lookedFor } = read.companions;
    const start = async () => {
      this.watchCompanions(lookedFor);
      const request = sourceRequest(name, read.format, read.bytes, animations, resources, compileOptionsOf(settingsFor(uri)));
      return { request, size: read.bytes.length + animations.reduce((n, a) => n + a.bytes.length, 0) };
    };
    return this.compileInWorker(start, async (reply, cancel) => {
      const outcome = sourceOutcome(reply, name, read.format, animations.map((a) => a.name));
      if ('error' in outcome) {
        this.loadFailed(outcome.error, name);
        return;
      }
      // The engines judge what would be written: the IQM.
      const engines = await engineFindings(uri, outcome.bytes).catch(() => undefined);
      if (cancel.isCancellationRequested || this.disposed) return;
      this.timeline.mark('enginesChecked');
      this.host.problems().set(uri, engines ? toDiagnostics(engines) : []);
      this.embedded = outcome.images;
      this.materialColors = outcome.materials;
      // The clips as the preview plays them (a glTF's loop); the engines judged the IQM as written.
      const shown = previewClipLoops(outcome.bytes, read.format);
      this.timeline.mark('loadPosted');
      this.post({
        type: 'load',
        fileName: name,
        path: displayPath(uri),
        bytes: toArrayBuffer(shown),
        sidecars: read.sidecars,
        playerParts: [],
        reload: this.loads++ > 0,
        engines: engines?.report,
        converted: outcome.converted,
      });
      // A comparison compares what is drawn: the IQM compiled from the source (its text is no model).
      this.loaded(shown, read.sidecars);
    });
  }

  private openDocument(): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.uri.toString());
  }

  /** Stops a compile of older text (it is stale). */
  private cancelCompile(): void {
    if (this.compiling && !this.compiling.token.isCancellationRequested) this.host.countCompile(this.uri, 'cancelled');
    this.compiling?.cancel();
  }

  /** IQE text: the document's (or the file's) text compiled to IQM in the worker, with its source map, then `load`. */
  private compileAndLoad(): Promise<void> {
    const uri = this.uri;
    const doc = this.openDocument();
    const version = doc ? doc.version : null;
    const unsaved = doc ? doc.isDirty : false;
    const start = async () => {
      this.post({ type: 'compileState', state: 'compiling', version, unsaved, problem: null });
      let input;
      try {
        input = await compileSource(uri, this.host.platform.files);
      } catch (e) {
        return { error: `${uri.fsPath || uri.path}: ${errorText(e)}` };
      }
      const request: CompileRequest = { source: input.source, options: { ...compileOptionsOf(settingsFor(uri)), sourceMap: true }, ...(input.resources ? { resources: input.resources } : {}) };
      return { request, size: input.size };
    };
    return this.compileInWorker(start, async (reply, cancel) => {
      const errors = reply.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error');
      if (!reply.bytes || errors.length > 0) {
        const first = errors[0];
        const problem: SourceProblem = first
          ? { message: first.message, line: first.range.line, column: first.range.column, count: errors.length }
          : { message: 'the IQE text could not be compiled', line: 0, column: 0, count: 1 };
        this.post({ type: 'compileState', state: 'failed', version, unsaved, problem });
        // The view keeps the model compiled before, if any: a comparison too.
        this.noModel(`${problem.message} (line ${problem.line + 1}${problem.count > 1 ? `, and ${problem.count - 1} more error${problem.count > 2 ? 's' : ''}` : ''})`);
        return;
      }
      const sidecars = await findSidecars(this.fs, uri.path, false);
      if (cancel.isCancellationRequested) return;
      this.timeline.mark('loadPosted');
      this.post({
        type: 'load',
        fileName: basename(uri.path),
        path: displayPath(uri),
        bytes: toArrayBuffer(reply.bytes),
        sidecars,
        playerParts: [],
        reload: this.loads++ > 0,
        compiled: { version, unsaved, milliseconds: reply.milliseconds },
      });
      this.link?.setMap(reply.sourceMap, version);
      this.loaded(reply.bytes, sidecars);
    });
  }

  // ---------------------------------------------------------------- messages

  private onMessage(raw: unknown): void {
    if (!isWebviewToHost(raw)) return;
    const m: WebviewToHost = raw;
    switch (m.type) {
      case 'ready': {
        this.timeline.mark('readyReceived');
        // The first: the load started with the panel is (or will be) in beforeReady. A later
        // one: the webview was made again (shown after being hidden) and needs the model again.
        const waiting = this.beforeReady;
        if (!waiting) {
          void this.sendLoad();
          break;
        }
        this.beforeReady = null;
        for (const queued of waiting) void this.postDelivered(queued.message).then(queued.delivered);
        break;
      }
      case 'textureRequest': {
        const place = { uri: this.uri, fs: this.fs, roots: this.roots, webview: this.webviewPanel.webview };
        this.timeline.mark('textureLookupStart');
        void lookupTextures(place, m.requests, this.embedded, this.materialColors)
          .catch((e: unknown) => {
            // Answered all the same: the view would otherwise wait for its textures forever.
            const message = `the texture lookup failed: ${errorText(e)}`;
            this.host.log(`${this.uri.toString()}: ${message}`);
            return m.requests.map((r) => ({ key: r.key, via: '', tried: [message], twoSided: false, alphaTest: null, source: { kind: 'none' as const } }));
          })
          .then((results) => {
            this.timeline.mark('textureLookupDone');
            this.post({ type: 'textures', generation: m.generation, results });
          });
        break;
      }
      case 'rendered':
        this.host.rendered(this.uri, m);
        if (!m.ok) this.host.log(`${this.uri.toString()}: ${m.error ?? 'failed'}`);
        break;
      case 'clipState':
        this.host.clipState(this.uri, m);
        break;
      case 'log':
        this.host.log(`[${m.level}] ${m.message}`);
        break;
      case 'convertToIqe':
        void vscode.commands.executeCommand('iqmTools.convertToIqe', this.uri);
        break;
      case 'exportGltf':
        void vscode.commands.executeCommand('iqmTools.exportGltf', this.uri);
        break;
      case 'openSource':
        void showSource(this.uri, m.line, m.column);
        break;
      case 'saveImage':
        void saveImage(this.uri, m.name, new Uint8Array(m.png));
        break;
      case 'picked':
        this.pickedEmitter.fire(m);
        void this.link?.picked(m);
        break;
      case 'viewChanged':
        this.host.comparisons.viewChanged(this, m.view);
        break;
      case 'timeline':
        this.webviewStamps = m.stamps;
        break;
      case 'choosePartner':
        void rememberPartner(this.host.context.workspaceState, this.uri, m.name).then(() => this.sendLoad());
        break;
      default:
        assertNever(m);
    }
  }

  // ---------------------------------------------------------------- watching

  /** Reload when the model or a sidecar next to it changes (debounced: exporters write in pieces). */
  private schedule(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.sendLoad(), RELOAD_DEBOUNCE_MS);
  }

  /** Reload when a file compiled with the source changes or appears (watchers.ts). */
  private watchCompanions(files: readonly vscode.Uri[]): void {
    for (const w of this.companionWatchers) w.dispose();
    this.companionWatchers = watchCompanionFiles(files, () => this.schedule());
  }

  private watch(modelDir: vscode.Uri): void {
    const uri = this.uri;
    this.subscriptions.push(
      this.webviewPanel.webview.onDidReceiveMessage((m) => this.onMessage(m)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('iqmTools.engine', uri) || e.affectsConfiguration('iqmTools.validation', uri)) this.schedule();
      }),
      ...watchModelFiles(uri, modelDir, {
        reload: () => this.schedule(),
        // The file on disk matters while no editor holds its text (an open document follows its edits).
        followsEditor: () => this.isIqePath && this.openDocument() !== undefined,
        partnersMatter: () => this.partnersMatter,
        iqeEdited: this.isIqePath
          ? () => {
              // A compile of older text is stale: stop it now, compile again when typing pauses.
              this.cancelCompile();
              if (this.typingTimer) clearTimeout(this.typingTimer);
              this.typingTimer = setTimeout(() => void this.compileAndLoad(), IQE_DEBOUNCE_MS);
            }
          : undefined,
        iqeSaved: (version) => this.post({ type: 'compileState', state: 'saved', version, unsaved: false, problem: null }),
      }),
    );
  }

  private dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.compiling?.cancel();
    this.host.problems().delete(this.uri);
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    if (this.typingTimer) clearTimeout(this.typingTimer);
    for (const s of this.subscriptions) s.dispose();
    for (const w of this.companionWatchers) w.dispose();
    this.link?.dispose();
    this.host.comparisons.remove(this);
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.pickedEmitter.dispose();
  }
}

// One page of `iqm-tools view`: the host's part for one model file, as the VS Code panel plays it
// (client/preview/panel.ts), over node:fs. The webview's requests are answered by the same
// host-neutral code the panel uses: the model read with its sidecars and player parts
// (modelRead.ts), a compile source or IQE text compiled with its companions into the IQM drawn
// (sourceCompile.ts, the compile workers' compileRequest: here in this process, as the CLI
// compiles), the textures found by the engine lookup (textureAnswers.ts). It follows the files on
// disk: a change reloads the page's model (debounced, as exporters write in pieces).

import { readFileSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { compileRequest } from '../../core/host/compileRun';
import { engineFindingsOf } from '../../core/host/engineCheck';
import { readPreviewModel } from '../../core/host/modelRead';
import { partnerOffer, type PartnerFolder } from '../../core/host/partnerOffer';
import { previewClipLoops, sourceOutcome, sourceRequest, type MaterialColor } from '../../core/host/sourceCompile';
import { answerTextureRequests, type EmbeddedImage } from '../../core/host/textureAnswers';
import { toArrayBuffer } from '../../core/host/transfer';
import { gatherCompanions } from '../../core/formats/companions';
import { findSidecars } from '../../core/lookup/sidecars';
import { sidecarKind } from '../../core/lookup/companions';
import { fileNameOf, folderOf } from '../../core/paths';
import { assertNever, type HostToWebview, type Sidecars, type SourceProblem, type WebviewToHost } from '../../core/protocol';
import type { SharedView } from '../../core/viewLink';
import { nodeFileAccess } from '../../node/files';

/** Milliseconds without further changes before a changed file is loaded again. */
const RELOAD_DEBOUNCE_MS = 200;

export interface SessionOptions {
  /** The engines to check the model for (`--engine`), as iqmTools.engine names them; '' none. */
  engines: string;
  /** The URL of an image the page may load itself (a resolved PNG/JPEG), served by the server. */
  imageUrl(path: string): string;
  log(message: string): void;
  /** A load ended, with a model or with a problem (a comparison is made again). */
  loaded(): void;
  /** The user moved the camera or changed the clip or playback (the other side of a comparison follows). */
  viewChanged(view: SharedView): void;
}

export class ViewSession {
  /** The images the lookup resolved for this model: the only files the server hands out besides the model's load. */
  readonly images = new Set<string>();
  private generation = 0;
  private loads = 0;
  private embedded: EmbeddedImage[] = [];
  private colors: MaterialColor[] = [];
  /** Files named by a compile source (a glTF's .bin, an OBJ's .mtl): a change to one reloads. */
  private lookedFor = new Set<string>();
  private watcher: FSWatcher | null = null;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  /** What the page last drew, and with which sidecars (a comparison compares it), or why it drew nothing. */
  model: Uint8Array | null = null;
  sidecars: Sidecars | null = null;
  problem: string | null = null;
  /** The "mesh from…" picker's choice ('' none; undefined: the automatic one), for this page. */
  private partner: string | undefined;

  constructor(
    /** The model's absolute path (POSIX separators). */
    readonly path: string,
    /** Sends a message to the page; resolves once the page has it with its buffers (or is gone). */
    readonly post: (m: HostToWebview) => Promise<void>,
    private readonly options: SessionOptions,
  ) {}

  onMessage(m: WebviewToHost): void {
    switch (m.type) {
      case 'ready':
        // The load started when the page connected (start): its bytes travel while the page builds its viewer.
        break;
      case 'textureRequest':
        void this.answerTextures(m.generation, m.requests);
        break;
      case 'rendered':
        if (!m.ok) this.options.log(`${this.path}: ${m.error ?? 'failed'}`);
        break;
      case 'log':
        if (m.level !== 'info') this.options.log(`[${m.level}] ${m.message}`);
        break;
      // The page handles these itself (media/standalone/shim.ts) or they have no meaning without an
      // editor; the first-load stamps ('timeline') are read by the VS Code benchmark only.
      case 'clipState':
      case 'saveImage':
      case 'convertToIqe':
      case 'exportGltf':
      case 'openSource':
      case 'picked':
      case 'timeline':
        break;
      case 'choosePartner':
        this.partner = m.name;
        void this.sendLoad();
        break;
      case 'viewChanged':
        this.options.viewChanged(m.view);
        break;
      default:
        assertNever(m);
    }
  }

  /**
   * Reads the model and posts its `load` as soon as the page has connected (its event stream opens
   * before the preview's bundle runs); the page's stand-in for VS Code dispatches it once the
   * viewer listens (media/standalone/shim.ts), as a panel posts on `ready`.
   */
  start(): void {
    this.follow();
    void this.sendLoad();
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
  }

  private async answerTextures(generation: number, requests: Parameters<typeof answerTextureRequests>[1]): Promise<void> {
    const host = {
      path: this.path,
      fs: nodeFileAccess,
      engines: this.options.engines,
      display: (p: string) => p,
      imageUri: (p: string) => {
        this.images.add(p);
        return this.options.imageUrl(p);
      },
    };
    const results = await answerTextureRequests(host, requests, this.embedded, this.colors);
    if (!this.closed) this.post({ type: 'textures', generation, results });
  }

  /** A load drew `model` (with `sidecars`), or nothing (`problem`): kept for a comparison. */
  private outcome(model: Uint8Array | null, sidecars: Sidecars | null, problem: string | null): void {
    this.model = model;
    this.sidecars = sidecars;
    this.problem = problem;
    this.options.loaded();
  }

  /** The model, read (or compiled) and posted as `load`; only the newest of overlapping loads posts. */
  private async sendLoad(): Promise<void> {
    const generation = ++this.generation;
    const stale = () => generation !== this.generation || this.closed;
    const fs = nodeFileAccess;
    const bytes = await fs.readBytes(this.path);
    if (stale()) return;
    if (!bytes) return this.failed(`${this.path}: cannot read the file`);
    const read = await readPreviewModel(this.path, bytes, {
      fs,
      engines: (b) => engineFindingsOf(this.options.engines, this.path, b, fs),
      display: this.path,
      log: this.options.log,
    });
    if (stale()) return;
    const reload = this.loads > 0;
    const fileName = fileNameOf(this.path);
    switch (read.kind) {
      case 'error':
        return this.failed(read.message);
      case 'model': {
        // An animation file borrows a mesh of the folder, a mesh the clips of an animation file.
        const partner = await partnerOffer(this.path, bytes, this.partner, nodeFolder(folderOf(this.path)), (m) => this.options.log(`${this.path}: ${m}`));
        if (stale()) return;
        this.embedded = [];
        this.colors = [];
        this.loads++;
        const delivered = this.post({ ...read.message, reload, ...(partner ? { partner } : {}) });
        this.outcome(bytes, read.message.sidecars, null);
        // The validator once the page has the model (it reads every frame and triangle, 0.5 s and more
        // on 100 MB, on this thread): the model's transfer and first frame do not wait for it.
        await delivered;
        if (stale()) return;
        const report = read.validate();
        if (report && !stale()) this.post({ type: 'validation', report });
        return;
      }
      case 'iqe': {
        this.post({ type: 'compileState', state: 'compiling', version: null, unsaved: false, problem: null });
        const reply = await compileRequest({ source: { bytes, name: fileName }, options: {} });
        if (stale()) return;
        const errors = reply.ok ? reply.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error') : [];
        if (!reply.ok || !reply.bytes || errors.length > 0) {
          const first = errors[0];
          const problem: SourceProblem = first
            ? { message: first.message, line: first.range.line, column: first.range.column, count: errors.length }
            : { message: reply.ok ? 'the IQE text could not be compiled' : `the compiler failed: ${reply.message.split('\n')[0]}`, line: 0, column: 0, count: 1 };
          this.post({ type: 'compileState', state: 'failed', version: null, unsaved: false, problem });
          return this.outcome(null, null, `${problem.message} (line ${problem.line + 1})`);
        }
        this.embedded = [];
        this.colors = [];
        this.loads++;
        const sidecars = await findSidecars(fs, this.path, false);
        if (stale()) return;
        this.post({ type: 'load', fileName, path: this.path, bytes: toArrayBuffer(reply.bytes), sidecars, playerParts: [], reload, compiled: { version: null, unsaved: false, milliseconds: reply.milliseconds } });
        return this.outcome(reply.bytes, sidecars, null);
      }
      case 'source': {
        const companions = await gatherCompanions(this.path, bytes, read.format, fs);
        this.lookedFor = new Set(companions.lookedFor);
        const folder = folderOf(this.path);
        const animations = companions.animations.map((a) => ({ name: a.path.slice(folder.length + 1), bytes: a.bytes }));
        const reply = await compileRequest(sourceRequest(fileName, read.format, bytes, animations, companions.resources, {}));
        if (stale()) return;
        const outcome = sourceOutcome(reply, fileName, read.format, animations.map((a) => a.name));
        if ('error' in outcome) return this.failed(outcome.error, fileName);
        // The engines judge what would be written: the IQM.
        const engines = await engineFindingsOf(this.options.engines, this.path, outcome.bytes, fs).catch(() => undefined);
        if (stale()) return;
        this.embedded = outcome.images;
        this.colors = outcome.materials;
        this.loads++;
        const shown = previewClipLoops(outcome.bytes, read.format);
        this.post({ type: 'load', fileName, path: this.path, bytes: toArrayBuffer(shown), sidecars: read.sidecars, playerParts: [], reload, engines: engines?.report, converted: outcome.converted });
        return this.outcome(shown, read.sidecars, null);
      }
      default:
        assertNever(read, 'read');
    }
  }

  /** The load drew no model: said in the page (with `fileName`: a source that does not compile). */
  private failed(message: string, fileName?: string): void {
    this.post({ type: 'hostError', message, ...(fileName !== undefined ? { fileName } : {}) });
    this.outcome(null, null, message);
  }

  /**
   * Watches the model's folder: the model and the files named after it, its sidecars (animation.cfg,
   * .skin, .framegroups, .shader), a source's companions, the folder's images (a texture saved by an
   * image editor), MD3s (the other parts of a player) and IQMs (the "mesh from…" picker's) reload it.
   */
  private follow(): void {
    if (this.watcher) return;
    const folder = folderOf(this.path);
    const name = fileNameOf(this.path);
    try {
      this.watcher = watch(folder, { persistent: false }, (_event, changed) => {
        if (!changed) return;
        const file = String(changed);
        const path = `${folder}/${file}`;
        if (file.startsWith(name) || sidecarKind(path) !== undefined || this.lookedFor.has(path) || this.images.has(path) || /\.(tga|png|jpe?g|md3|iqm)$/i.test(file)) this.schedule();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch (e) {
      this.options.log(`${folder}: not watched for changes (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  private schedule(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.sendLoad(), RELOAD_DEBOUNCE_MS);
  }
}

/** A folder for the "mesh from…" picker, over node:fs. */
function nodeFolder(folder: string): PartnerFolder {
  return {
    files: async () => {
      try {
        return readdirSync(folder, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
      } catch {
        return null;
      }
    },
    size: async (name) => statSync(`${folder}/${name}`).size,
    read: async (name) => new Uint8Array(readFileSync(`${folder}/${name}`)),
  };
}

// Open sidecar documents (.framegroups, animation.cfg, .skin, Q3 .shader): their text, their
// diagnostics against the model found beside them (core/sidecar/check.ts), hover on a clip line and
// the "▶ Play" code lens. Files are read through the host's reader, so the same code works in the
// Node server (from disk) and in the browser's worker (through the client, iqmTools/readFile):
// models as bytes (base64 in the browser), textures only checked for existence.
// Models are cached by their stamp (size and modification time) and the open sidecars validated
// again when a model or an image changes (client file events; the Node reader's own watch).
import { type CodeLens, type CompletionItem, type Diagnostic, type Hover, type Location, MarkupKind, type Position, type TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { parseEngineList } from '../core/engines/index';
import { animCfgNames } from '../core/engines/player';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { offsetOfPosition } from '../core/iqe/document';
import { PLAY_CLIP_COMMAND, type PlayClipArgs } from '../core/lspMethods';
import { textureExtensions } from '../core/engines/textures';
import { checkSidecar, readModelSummary, type SidecarCheck, type SidecarIo } from '../core/sidecarCheck/check';
import { sidecarKind, sidecarKindOfLanguage, type SidecarKind } from '../core/lookup/companions';
import { clipAtLine, clipHover, type ModelSummary } from '../core/sidecarCheck/lint';
import { internalErrorDiagnostic, toLspDiagnostics } from './diagnostics';
import { MAX_LARGE_FILE_BYTES, type LargeFileReader } from './largeFiles';
import type { Logger } from './scheduler';
import type { Settings, SettingsStore } from './settings';
import { isModeldefName, MODELDEF_LANGUAGE } from '../core/sidecar/modeldef';
import { checkModeldef, type ModeldefCheck } from '../core/sidecarCheck/modeldef';
import { modeldefCodeLenses, modeldefCompletions, modeldefDefinition, modeldefHover } from './modeldef';

/** What the server checks as a sidecar: the files beside a model, and a mod's MODELDEF. */
export type ServerSidecarKind = SidecarKind | 'modeldef';

/** The diagnostics' source, as shown in the Problems panel. */
export const SIDECAR_SOURCE = 'iqm-tools';
/** fs.watch and file events come in bursts; validate once they settle. */
const RELOAD_DELAY_MS = 100;

/**
 * How long a texture's existence is trusted without a file event: typing in a skin must not send
 * dozens of file lookups per pause (through the client, in the browser), and an image added outside
 * the workspace (no file event) is still seen soon.
 */
const EXISTS_TTL_MS = 5000;

/** Files whose change can change a sidecar's diagnostics: models and images. */
const DEPENDENCY = /\.(iqm|md3|md2|dpm|mdr|vvm|exm|tga|png|jpe?g|pcx|bmp|shader)$/i;

interface SidecarDocument {
  uri: string;
  kind: ServerSidecarKind;
  text: string;
  version: number;
  closed: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The newest finished check, for hover and code lenses. */
  check: SidecarCheck | undefined;
  /** A MODELDEF's newest finished check. */
  modeldef: ModeldefCheck | undefined;
  /** The URIs of the models it was paired with, and of a MODELDEF's included files (watched while it is open). */
  models: string[];
  /** Counts validations: only the newest one started publishes. */
  run: number;
}

/** A URI's path (decoded) and how to make a URI of another path on the same file system. */
function splitUri(uri: string): { path: string; toUri: (path: string) => string } | undefined {
  const m = /^([a-zA-Z][\w+.-]*:(?:\/\/[^/?#]*)?)(\/[^?#]*)/.exec(uri);
  if (!m) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(m[2]);
  } catch {
    return undefined;
  }
  const prefix = m[1];
  return { path, toUri: (p) => prefix + p.split('/').map((s) => encodeURIComponent(s)).join('/') };
}

/** The kind of an opened document: by its language id, else by its file name. */
export function kindOf(uri: string, languageId: string | undefined): ServerSidecarKind | undefined {
  if (languageId === MODELDEF_LANGUAGE) return 'modeldef';
  const byName = languageId === undefined || languageId === 'plaintext';
  if (byName && isModeldefName(uri.replace(/[?#].*$/, ''))) return 'modeldef';
  return (languageId ? sidecarKindOfLanguage(languageId) : undefined) ?? (byName ? sidecarKind(uri.replace(/[?#].*$/, '')) : undefined);
}

export class SidecarDocuments {
  private readonly documents = new Map<string, SidecarDocument>();
  /** Model URI → its stamp and summary (or the reader's error). */
  private readonly models = new Map<string, { stamp: string; result: { summary: ModelSummary } | { error: string } }>();
  /** Model URI → how to stop watching it, and how many open sidecars use it. */
  private readonly watches = new Map<string, { stop: () => void; users: number }>();
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** URI → whether a file is there, and when that was asked (performance.now()). */
  private readonly exists = new Map<string, { found: boolean; at: number }>();

  /** Shader scripts' bytes by URI (read once, again after a .shader file event): every check reads the scripts near it. */
  private readonly shaderBytes = new Map<string, Promise<Uint8Array | null>>();

  constructor(
    private readonly reader: LargeFileReader,
    private readonly settings: SettingsStore,
    private readonly log: Logger,
    private readonly publish: (uri: string, version: number | undefined, diagnostics: Diagnostic[]) => void,
  ) {}

  has(uri: string): boolean {
    return this.documents.has(uri);
  }

  open(uri: string, kind: ServerSidecarKind, text: string, version: number): void {
    this.close(uri, false);
    const doc: SidecarDocument = { uri, kind, text, version, closed: false, timer: undefined, check: undefined, modeldef: undefined, models: [], run: 0 };
    this.documents.set(uri, doc);
    void this.validate(doc);
  }

  change(uri: string, changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    for (const change of changes) {
      if (!('range' in change) || !change.range) {
        doc.text = change.text;
        continue;
      }
      const from = offsetOfPosition(doc.text, change.range.start.line, change.range.start.character);
      const to = offsetOfPosition(doc.text, change.range.end.line, change.range.end.character);
      doc.text = doc.text.slice(0, Math.min(from, to)) + change.text + doc.text.slice(Math.max(from, to));
    }
    doc.version = version;
    void this.settings.get(uri).then(({ debounceMs }) => {
      if (doc.closed || doc.version !== version) return;
      if (doc.timer !== undefined) clearTimeout(doc.timer);
      doc.timer = setTimeout(() => {
        doc.timer = undefined;
        void this.validate(doc);
        // A MODELDEF that #includes this file reads it as typed (editorText): checked again too.
        for (const other of this.documents.values()) if (other !== doc && other.kind === 'modeldef' && other.models.includes(uri)) void this.validate(other);
      }, debounceMs);
    });
  }

  close(uri: string, clear = true): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    doc.closed = true;
    if (doc.timer !== undefined) clearTimeout(doc.timer);
    this.setModels(doc, []);
    this.documents.delete(uri);
    if (clear) this.publish(uri, undefined, []);
  }

  /** Settings changed: validate everything again. */
  revalidateAll(): void {
    for (const doc of this.documents.values()) void this.validate(doc);
  }

  /** A file changed on disk (client file events, or a watch): a model or an image may differ now. */
  changedOnDisk(uri: string): void {
    // A model or an image, or a file an open sidecar depends on by name (a MODELDEF's #include).
    if (!DEPENDENCY.test(uri.replace(/[?#].*$/, '')) && !this.watches.has(uri)) return;
    this.models.delete(uri);
    this.exists.clear();
    if (/\.shader$/i.test(uri.replace(/[?#].*$/, ''))) this.shaderBytes.clear();
    if (this.reloadTimer !== undefined) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      this.revalidateAll();
    }, RELOAD_DELAY_MS);
  }

  dispose(): void {
    if (this.reloadTimer !== undefined) clearTimeout(this.reloadTimer);
    for (const uri of [...this.documents.keys()]) this.close(uri, false);
  }

  hover(uri: string, position: Position): Hover | null {
    const doc = this.documents.get(uri);
    if (doc?.modeldef) return modeldefHover(doc.modeldef, position);
    const check = doc?.check;
    if (!check) return null;
    const clip = clipAtLine(check.doc, position.line);
    if (clip) {
      const r = clip.range;
      return { contents: { kind: MarkupKind.Markdown, value: clipHover(check.doc, clip) }, range: { start: { line: r.line, character: r.column }, end: { line: r.endLine, character: r.endColumn } } };
    }
    // A texture path: where it was found.
    const i = check.doc.textures.findIndex((t) => t.range.line === position.line && t.range.column <= position.character && position.character <= t.range.endColumn);
    if (i < 0) return null;
    const t = check.doc.textures[i];
    const r = check.textures[i];
    const text =
      r.state === 'found' ? `Found: \`${r.path}\`` : r.state === 'shader' ? `A shader defined in \`${r.file}\`` : r.state === 'beside' ? `Found only beside this file: \`${r.path}\`` : `Not found (${r.tried} places tried)`;
    return { contents: { kind: MarkupKind.Markdown, value: `\`${t.path}\` (${t.what})\n\n${text}` }, range: { start: { line: t.range.line, character: t.range.column }, end: { line: t.range.endLine, character: t.range.endColumn } } };
  }

  /** Go to definition (MODELDEF: the model, skin or included file a name resolves to). */
  definition(uri: string, position: Position): Location[] {
    const doc = this.documents.get(uri);
    const split = splitUri(uri);
    return doc?.modeldef && split ? modeldefDefinition(doc.modeldef, position, split.toUri) : [];
  }

  /** Completion (MODELDEF: keywords, flags, files under Path, the model's animation or frame names). */
  /** `trigger`: the character whose typing asked (none: asked by hand). */
  async completion(uri: string, position: Position, trigger?: string): Promise<CompletionItem[]> {
    const doc = this.documents.get(uri);
    const split = splitUri(uri);
    if (!doc?.modeldef || !split) return [];
    return modeldefCompletions(doc.modeldef, doc.text, position, (path) => this.reader.listFolder(split.toUri(path)), trigger);
  }

  codeLenses(uri: string): CodeLens[] {
    const doc = this.documents.get(uri);
    const split = splitUri(uri);
    if (doc?.modeldef && split) return modeldefCodeLenses(doc.modeldef, uri, split.toUri);
    const check = doc?.check;
    if (!doc || !check) return [];
    if (!split) return [];
    const lenses: CodeLens[] = [];
    // How many clips have each name (counted once: asking per clip was quadratic in the clips).
    const named = new Map<string, number>();
    for (const clip of check.doc.clips) named.set(clip.name, (named.get(clip.name) ?? 0) + 1);
    for (const clip of check.doc.clips) {
      // animation.cfg: TORSO_* play on upper.md3, the others on lower.md3 (the preview assembles the player from either).
      const part = clip.parts ? (clip.parts.includes('lower') ? 'lower' : 'upper') : undefined;
      const at = part ? check.companions.findIndex((c) => c.part === part) : 0;
      const modelPath = check.modelPaths[at];
      if (modelPath === undefined) continue;
      const repeated = (named.get(clip.name) ?? 0) > 1;
      const args: PlayClipArgs = { model: split.toUri(modelPath), clip: clip.name, index: clip.index, sidecar: uri, ...(repeated ? { firstFrame: clip.firstFrame } : {}) };
      const range = { start: { line: clip.range.line, character: clip.range.column }, end: { line: clip.range.endLine, character: clip.range.endColumn } };
      lenses.push({ range, command: { title: '▶ Play', command: PLAY_CLIP_COMMAND, arguments: [args] } });
    }
    return lenses;
  }

  private async validate(doc: SidecarDocument): Promise<void> {
    const version = doc.version;
    const run = ++doc.run;
    const stale = () => doc.closed || doc.version !== version || doc.run !== run;
    const split = splitUri(doc.uri);
    try {
      const settings = await this.settings.get(doc.uri);
      if (stale()) return;
      const io: SidecarIo = split ? this.io(split.toUri) : { isFile: async () => false, listFolder: async () => null, readBytes: async () => null, model: async () => null };
      const path = split?.path ?? '/untitled';
      if (doc.kind === 'modeldef') {
        // Read as UZDoom's when iqmTools.engine names it (it reads a few more words), else as GZDoom's.
        const checked = await checkModeldef(path, doc.text, io, parseEngineList(settings.engines).engines.some((e) => e.id === 'uzdoom') ? 'uzdoom' : 'gzdoom');
        if (stale()) return;
        doc.modeldef = checked;
        this.setModels(doc, split ? checked.modelPaths.map(split.toUri) : []);
        this.publish(doc.uri, doc.version, toLspDiagnostics(doc.uri, applySettings(checked.diagnostics, settings), SIDECAR_SOURCE, split?.toUri));
        return;
      }
      const engines = parseEngineList(settings.engines).engines;
      const check = await checkSidecar(doc.kind, path, doc.text, io, textureExtensions(engines), { animCfgNames: animCfgNames(engines) });
      if (stale()) return;
      doc.check = check;
      this.setModels(doc, split ? check.modelPaths.filter((p): p is string => p !== undefined).map(split.toUri) : []);
      this.publish(doc.uri, doc.version, toLspDiagnostics(doc.uri, applySettings(check.diagnostics, settings), SIDECAR_SOURCE));
    } catch (error) {
      this.log.error(`Validation of ${doc.uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!stale()) this.publish(doc.uri, doc.version, [internalErrorDiagnostic(error)]);
    }
  }

  /** File access through the host's reader, models cached by stamp. */
  private io(toUri: (path: string) => string): SidecarIo {
    return {
      isFile: async (path) => {
        const uri = toUri(path);
        const known = this.exists.get(uri);
        if (known && performance.now() - known.at < EXISTS_TTL_MS) return known.found;
        let found = true;
        try {
          await this.reader.read(uri, 0, undefined);
        } catch {
          found = false;
        }
        if (this.exists.size >= 10000) this.exists.clear(); // bounded: old answers are cheap to ask again
        this.exists.set(uri, { found, at: performance.now() });
        return found;
      },
      listFolder: (path) => this.reader.listFolder(toUri(path)),
      readBytes: (path) => {
        const uri = toUri(path);
        const known = this.shaderBytes.get(uri);
        if (known) return known;
        const read = this.reader.readBytes(uri, MAX_LARGE_FILE_BYTES).then(
          (r) => r.bytes ?? null,
          () => null,
        );
        if (/\.shader$/i.test(path)) this.shaderBytes.set(uri, read);
        return read;
      },
      // An open sidecar's text as typed (a shader script being edited).
      editorText: (path) => {
        const open = this.documents.get(toUri(path));
        return open && !open.closed ? open.text : undefined;
      },
      model: async (path) => {
        const uri = toUri(path);
        let stamp: string;
        try {
          stamp = (await this.reader.read(uri, 0, undefined)).stamp;
        } catch {
          return null;
        }
        const cached = this.models.get(uri);
        if (cached && cached.stamp === stamp) return cached.result;
        let result: { summary: ModelSummary } | { error: string };
        try {
          const read = await this.reader.readBytes(uri, MAX_LARGE_FILE_BYTES);
          result = read.bytes ? readModelSummary(path, read.bytes) : { error: `the file is ${read.size} bytes, more than the language server reads` };
          stamp = read.stamp;
        } catch (error) {
          result = { error: `cannot read it (${error instanceof Error ? error.message : String(error)})` };
        }
        this.models.set(uri, { stamp, result });
        return result;
      },
    };
  }

  /** Watches the models a sidecar uses (where the host can watch), shared between sidecars. */
  private setModels(doc: SidecarDocument, models: string[]): void {
    const watch = this.reader.watch?.bind(this.reader);
    for (const uri of doc.models) {
      if (models.includes(uri)) continue;
      const w = this.watches.get(uri);
      if (w && --w.users === 0) {
        w.stop();
        this.watches.delete(uri);
      }
    }
    for (const uri of models) {
      if (doc.models.includes(uri)) continue;
      const w = this.watches.get(uri);
      if (w) w.users++;
      else if (watch) this.watches.set(uri, { stop: watch(uri, () => this.changedOnDisk(uri), this.log), users: 1 });
    }
    doc.models = models;
  }
}

/** iqmTools.diagnostics.ignore and .severity apply to these codes as to the IQE ones. */
function applySettings(diagnostics: readonly IqeDiagnostic[], settings: Settings): IqeDiagnostic[] {
  const ignore = new Set(settings.ignore);
  return diagnostics.filter((d) => !ignore.has(d.code)).map((d) => (settings.severity[d.code] ? { ...d, severity: settings.severity[d.code] } : d));
}

// The sources of a compile and what it gives back. A source is read when the compile starts
// (core reads no files: the caller gives the text, or a stream of it for a large IQE); each
// format has its reader, all making the same neutral SourceModel (source.ts), with their
// diagnostics as data (0-based line and column, a code).
import type { CompileSourceMap } from './sourceMap';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { IqeDocument } from '../iqe/document';
import { releaseLineText } from '../iqe/line';
import { assertSameModel, gatherInput } from './input';
import { type IngestResult, ingestText } from './ingest';
import type { AnimationOptions } from './options';
export type { AnimationOptions } from './options';
import type { SourceModel } from './source';

/** What reading a source gives: its model, or null when it has errors; its diagnostics either way. */
export interface SourceRead {
  model: SourceModel | null;
  diagnostics: IqeDiagnostic[];
}

/** One input of a compile. */
export interface CompileSource {
  /** Its file name or path ('' for none): the format where the content does not say, an animation's default name. */
  name: string;
  /** Its animation options (`--name --fps --loop --start --end` before it). */
  options?: AnimationOptions;
  read(): SourceRead;
}

/** Another file beside a source (an OBJ's .mtl), by the name the source gives; null when it cannot be read. */
export type SiblingReader = (name: string) => string | null;

/** A diagnostic and the index of the source it is about. */
export interface SourceDiagnostic {
  source: number;
  diagnostic: IqeDiagnostic;
}

export interface CompileStats {
  meshes: number;
  vertices: number;
  triangles: number;
  joints: number;
  poses: number;
  animations: number;
  frames: number;
  frameChannels: number;
  /** Output vertices whose generated tangent needed the B8 fallback. */
  tangentFallbacks: number;
  bytes: number;
}

export interface CompileResult {
  /** The IQM file; absent when a source has errors. */
  bytes?: Uint8Array;
  /** The sources' diagnostics (all of a source with errors; the warnings of an IQE document source) and the compile's notes. */
  diagnostics: SourceDiagnostic[];
  /** What the compile itself noticed (also in `diagnostics`): ignored options, tangent fallbacks, ... */
  notes: SourceDiagnostic[];
  stats: CompileStats;
  /** The first source with errors, or -1. */
  failed: number;
  /** With CompileOptions.sourceMap: where each written vertex, triangle and joint comes from (of the mesh source). */
  sourceMap?: CompileSourceMap;
}

/** A one-line error at the top of a source (a format that cannot be compiled). */
export function sourceError(code: string, message: string): SourceRead {
  return { model: null, diagnostics: [{ range: { line: 0, column: 0, endLine: 0, endColumn: 0 }, severity: 'error', code, message }] };
}

/**
 * An IQE source read through the ingest (ingest.ts: a large file streams through it, never held
 * whole); a text with errors is parsed again as a document for its diagnostics (which need the
 * text for their columns). Its warnings are not collected when there is no error.
 */
export function iqeStreamSource(name: string, ingest: () => IngestResult, text: () => string, options?: AnimationOptions): CompileSource {
  return {
    name,
    options,
    read() {
      const loaded = ingest();
      if (loaded.ok) return { model: loaded.input, diagnostics: [] };
      return checkDocument(new IqeDocument(text()));
    },
  };
}

/** A parsed IQE document as a source: every diagnostic of it (warnings too), and its model when it has no error. */
export function documentSource(doc: IqeDocument, name = '', options?: AnimationOptions): CompileSource {
  return { name, options, read: () => checkDocument(doc) };
}

function checkDocument(doc: IqeDocument): SourceRead {
  const diagnostics = doc.diagnostics({ maxProblems: Number.MAX_SAFE_INTEGER });
  const model = diagnostics.some((d) => d.severity === 'error') ? null : gatherInput(doc.text, doc.parsedChunks);
  // What is gathered must be what was checked (a compile never writes a model that lost part of it).
  if (model) assertSameModel(model, doc.analyse());
  releaseLineText();
  return { model, diagnostics };
}

/**
 * IQE text as a source (an editor's text, held whole): the ingest when it has no error, else every
 * diagnostic of it as a document. Other formats: core/formats/sources.ts (openSource).
 */
export function textIqeSource(text: string, name = '', options?: AnimationOptions): CompileSource {
  return {
    name,
    options,
    read() {
      // Text that is nothing else is read as IQE: its diagnostics say what is wrong (the header first).
      const loaded = ingestText(text);
      return loaded.ok ? { model: loaded.input, diagnostics: [] } : checkDocument(new IqeDocument(text));
    },
  };
}

// Messages between the extension host and the compile worker (client/node/compileWorker.ts, a
// worker thread; client/browser/compileWorker.ts, a Web Worker); `iqm-tools view` makes the same
// requests in its process (compileRun.ts).
import type { CompileOptions, CompileSourceMap, CompileStats, SourceOptions } from '../compile/index';
import type { GltfMaterialColor } from '../gltf/source';
import type { IqeDiagnostic } from '../iqe/diagnostic';

/**
 * An input as the host gives it: the text of an open document (what the user sees, saved or not);
 * the path of a local file that is not open, which the Node worker streams from disk as the CLI
 * does (the host never holds its text, and a large file is never copied between threads); or,
 * where the worker cannot read the file (the browser, other file systems), its bytes as read
 * through workspace.fs, transferred to the worker (not copied) and decoded there in blocks.
 * `name` (its path) gives the format where the content does not (an OBJ has no header).
 */
export type CompileInput = { text: string; name?: string } | { path: string } | { bytes: Uint8Array; name?: string };

/**
 * The buffers of a request's byte sources to transfer with it: only those the bytes fill alone (a
 * view into a shared pool, as Node's small Buffers are, is copied: transferring would take the
 * pool from everything else that uses it).
 */
export function requestTransfers(request: CompileRequest): ArrayBuffer[] {
  return [request.source, ...(request.animations ?? []), ...(request.resources ?? [])].flatMap((source) => {
    if (!('bytes' in source)) return [];
    const { buffer, byteOffset, byteLength } = source.bytes;
    return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength ? [buffer] : [];
  });
}

/** The editor's options: those of the whole compile, and the options of the compiled file (its animation options, a glTF's material colours). */
export type EditorCompileOptions = CompileOptions & SourceOptions;

export interface CompileRequest {
  source: CompileInput;
  options: EditorCompileOptions;
  /** Animation files merged after it (iqmTools.compile.animationFiles). */
  animations?: CompileInput[];
  /**
   * The files a glTF source names (its .bin buffers, its images) or an OBJ names (its .mtl), by the
   * uri or name it gives, for a worker that cannot read them itself (a path's are read from disk
   * beside it).
   */
  resources?: { uri: string; bytes: Uint8Array }[];
}

/** A note of the compile and the text it is about (0: the source, k: animations[k - 1]). */
export interface CompileNote {
  text: number;
  diagnostic: IqeDiagnostic;
}

export type CompileReply =
  | {
      ok: true;
      bytes: Uint8Array | undefined;
      /** Every diagnostic of the sources (those of a source with errors) and the compile's notes, each with its text. */
      diagnostics: CompileNote[];
      notes: CompileNote[];
      stats: CompileStats;
      milliseconds: number;
      /** The first text with errors, or -1. */
      failedText: number;
      /** With options.sourceMap (the IQE preview): where each written triangle and joint comes from. */
      sourceMap?: CompileSourceMap;
      /** A glTF source's embedded images (a material is named after its image's stem): the preview draws them. */
      images?: { stem: string; extension: string; bytes: Uint8Array }[];
      /** A glTF source's materials without a texture and their colours (sRGB; `baked`: in the vertex colours): the preview draws them. */
      materials?: GltfMaterialColor[];
    }
  | { ok: false; message: string };

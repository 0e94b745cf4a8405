// The language server's custom LSP methods, declared once for the client, the server, the tests
// and the benchmarks: each is a typed RequestType / NotificationType of the LSP protocol library
// (its method name, params and result), which the client's vscode-languageclient and the server's
// vscode-languageserver connections both take, so a handler and a sender cannot disagree on the
// types. The protocol library's message types are pure (no Node, DOM or vscode; the bundles that
// import this file already hold the library: vscode-languageclient and vscode-languageserver
// re-export it).

import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

export interface LargeFileParams {
  uri: string;
}
/** Client → server: a tab shows an .iqe that VS Code does not sync (over its 50 MB limit). */
export const ValidateLargeFileNotification = new NotificationType<LargeFileParams>('iqmTools/validateLargeFile');
/** Client → server: that tab closed; its diagnostics are cleared. */
export const CloseLargeFileNotification = new NotificationType<LargeFileParams>('iqmTools/closeLargeFile');

export interface DebugMemoryParams {
  gc?: boolean;
}
export interface DebugMemoryResult {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  arrayBuffers: number;
  /** Whether a collection ran (the server needs --expose-gc for it). */
  gc: boolean;
  /** CPU time the server process has used so far (user + system, ms), where the host can tell. */
  cpuMs?: number;
}
/** Tests and benchmarks → server: its memory use (bytes, process.memoryUsage()), after a full collection when asked and possible. */
export const DebugMemoryRequest = new RequestType<DebugMemoryParams | undefined, DebugMemoryResult, void>('iqmTools/debugMemory');

export interface DebugTimingParams {
  uri: string;
}
export interface DebugTimingResult {
  /** From the server's didOpen handler getting the document (its text decoded) to the first diagnostics it published for it, ms; absent before. */
  openToFirstDiagnosticsMs?: number;
}
/** Benchmarks → server: how long the server took from having an opened document's text to its first diagnostics (bench/lsp-edit.ts). */
export const DebugTimingRequest = new RequestType<DebugTimingParams, DebugTimingResult, void>('iqmTools/debugTiming');

export interface ReadFileParams {
  uri: string;
  /** Larger files are not sent: the result then has no text. */
  maxBytes: number;
  /** The stamp of the copy the server has: when the file still has it, the result has no text. */
  unlessStamp?: string;
  /** 'base64': the bytes as base64 (`base64` in the result) instead of decoded text; for model files. */
  encoding?: 'text' | 'base64';
}
export interface ReadFileResult {
  /** Changes whenever the file does (its size and modification time). */
  stamp: string;
  /** Bytes. */
  size: number;
  /** UTF-8 decoded (invalid bytes as U+FFFD, a BOM dropped); absent when too large or unchanged. */
  text?: string;
  /** With encoding 'base64': the file's bytes; absent when too large or unchanged. */
  base64?: string;
}
/**
 * Server → client: a large file's text, or a model file's bytes for the sidecar checks, or (with
 * maxBytes 0) only whether a file exists, for a server that cannot read files itself (in the browser
 * the server is a Web Worker without file access; the client reads through vscode.workspace.fs).
 * Fails with the reason (not found, a folder, ...) when the file cannot be read.
 */
export const ReadFileRequest = new RequestType<ReadFileParams, ReadFileResult, void>('iqmTools/readFile');

/**
 * The command of the "▶ Play" code lens on a clip line of a sidecar file (.framegroups,
 * animation.cfg): the client opens the model's preview on that clip.
 */
export const PLAY_CLIP_COMMAND = 'iqmTools.playClip';
export interface PlayClipArgs {
  /** The model the clip plays on (for animation.cfg: lower.md3, or upper.md3 for TORSO_*). */
  model: string;
  /** The clip's name, as the preview lists it. */
  clip: string;
  /** Its index among the file's clips. */
  index: number;
  /** Its first frame, given only where the name repeats in the file (the preview matches by name, then by it). */
  firstFrame?: number;
  /** The sidecar file the lens is in. */
  sidecar: string;
  /** Show this frame of the clip (0-based within it), paused, instead of playing it (a MODELDEF frame's lens). */
  frame?: number;
}

export interface ListFolderParams {
  uri: string;
}
/**
 * Server → client: the names in a folder (vscode.workspace.fs.readDirectory), or null when it is
 * not a folder or cannot be listed; the sidecar checks look textures up a folder at a time.
 */
export const ListFolderRequest = new RequestType<ListFolderParams, string[] | null, void>('iqmTools/listFolder');

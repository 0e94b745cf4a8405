// The language server's custom LSP methods, declared once for the client, the server, the tests
// and the benchmarks. Pure declarations: each side sends or handles them with its own
// vscode-languageclient / vscode-languageserver connection.

/** Client → server: a tab shows an .iqe that VS Code does not sync (over its 50 MB limit). */
export const VALIDATE_LARGE_FILE = 'iqmTools/validateLargeFile';
/** Client → server: that tab closed; its diagnostics are cleared. */
export const CLOSE_LARGE_FILE = 'iqmTools/closeLargeFile';
export interface LargeFileParams {
  uri: string;
}

/** Tests and benchmarks → server: its memory use (bytes, process.memoryUsage()), after a full collection when asked and possible. */
export const DEBUG_MEMORY = 'iqmTools/debugMemory';
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
}

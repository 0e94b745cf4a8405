// The file access every face injects into core (core/formats open, core/lookup): the CLI's node:fs,
// the extension host's vscode.workspace.fs (local, remote and virtual files), the language server's
// requests to its client, a test's in-memory folder. Paths are /-separated absolute paths (a URI's
// path); core never reads a file itself.

export interface FileAccess {
  /** The bytes of the file at `path`, or null when there is none (or it cannot be read). */
  readBytes(path: string): Promise<Uint8Array | null>;
  /** True when a regular file exists at `path`. */
  isFile(path: string): Promise<boolean>;
  /** The names in a folder (files and folders), or null when it is not one (or cannot be listed). */
  listFolder(path: string): Promise<readonly string[] | null>;
  /**
   * The text an editor holds for `path` when it differs from the file (unsaved edits), else
   * undefined. Optional: hosts without editors leave it out.
   */
  editorText?(path: string): string | undefined;
}

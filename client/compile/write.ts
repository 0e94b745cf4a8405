// Writing a compiled model through vscode.workspace.fs so that no reader sees part of it: the bytes
// go to a temporary file beside the target, which is then renamed over it. Both hosts write this
// way (the Node host first resolves links and permissions, client/node/platform.ts).
import * as vscode from 'vscode';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes `bytes` to `target` through a temporary file renamed over it; `beforeRename` may adjust
 * the temporary file (permissions). A file system that cannot rename (some virtual ones) gets the
 * bytes written in place instead, and the returned note says so (a reader could then have seen a
 * partly written file); otherwise undefined. Rejects, leaving no temporary file, when the bytes
 * cannot be written at all.
 */
export async function writeReplacing(target: vscode.Uri, bytes: Uint8Array, beforeRename?: (temporary: vscode.Uri) => Promise<void>): Promise<string | undefined> {
  const temporary = target.with({ path: `${target.path}.${Date.now()}-${Math.random().toString(36).slice(2, 8)}.tmp` });
  await vscode.workspace.fs.writeFile(temporary, bytes);
  try {
    await beforeRename?.(temporary);
  } catch (error) {
    await vscode.workspace.fs.delete(temporary).then(undefined, () => undefined);
    throw error;
  }
  try {
    await vscode.workspace.fs.rename(temporary, target, { overwrite: true });
    return undefined;
  } catch (renameError) {
    await vscode.workspace.fs.delete(temporary).then(undefined, () => undefined);
    await vscode.workspace.fs.writeFile(target, bytes);
    return `the file system could not rename the temporary file ${temporary.path} over ${target.path} (${describe(renameError)}), so the IQM was written in place, not atomically`;
  }
}

// Writing a whole output file so that no reader ever sees part of it: the bytes go to a temporary
// file beside it, which is then renamed over it. Otherwise it behaves as a plain write (the
// reference compiler's fopen "wb") would: through symbolic links (the link stays a link and the
// file it names gets the bytes), keeping the permissions of the file it replaces, and refusing a
// file that may not be written (EACCES). The CLI writes with writeFileAtomically; the editor's
// compile command, which writes through vscode.workspace.fs, uses outputTarget for file: URIs.
import { accessSync, chmodSync, closeSync, constants, openSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Linux's limit on the symbolic links followed in one lookup (ELOOP beyond it). */
const MAX_LINKS = 40;

/**
 * The file `path` finally names: symbolic links followed (a relative one from the folder that
 * really holds it), to a file that may not exist yet (a dangling link names the file a write creates).
 */
export function linkTarget(path: string): string {
  let current = path;
  for (let followed = 0; followed <= MAX_LINKS; followed++) {
    let link: string;
    try {
      link = readlinkSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Not a link (EINVAL), or nothing there yet (ENOENT): this is the file.
      if (code === 'EINVAL' || code === 'ENOENT') return current;
      throw error;
    }
    current = resolve(realpathSync(dirname(current)), link);
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP' });
}

/**
 * Where a write of `path` goes and the permission bits it keeps (undefined for a new file).
 * Throws EACCES (as opening it for writing would) when the file exists and may not be written.
 */
export function outputTarget(path: string): { target: string; mode: number | undefined } {
  const target = linkTarget(path);
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    return { target, mode: undefined };
  }
  accessSync(target, constants.W_OK);
  return { target, mode };
}

/** Whether two paths name one existing file (through links, hard links too): an output that would replace an input. */
export function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a), y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** Writes `bytes` as the file `path` (see above); on failure nothing is left behind and the error is thrown. */
export function writeFileAtomically(path: string, bytes: Uint8Array): void {
  const { target, mode } = outputTarget(path);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  // 'wx': a file already at the temporary's name (or a link planted there) is neither written
  // through nor removed; from here on the temporary is ours.
  const fd = openSync(temporary, 'wx');
  try {
    try {
      writeFileSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

// Path helpers for the POSIX-style paths core works with (a URI's path, or a CLI path with / or \):
// one meaning per name. `fileNameOf` keeps the extension, `stemOf` drops the last one.

/** The last part of a path, extension kept: `a/b/lower.md3` → `lower.md3`. */
export function fileNameOf(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** The file name without its last extension: `a/b/grunt.dpm` → `grunt` (a leading dot is kept: `.hidden`). */
export function stemOf(path: string): string {
  const name = fileNameOf(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The last extension, lower-cased with its dot (`.md3`), or '' for none. */
export function extensionOf(path: string): string {
  const name = fileNameOf(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The folder of a /-separated path: `/a/b/c.md3` → `/a/b`; `/c.md3` → `/`. */
export function folderOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** `dir` + `/` + `rel` as an absolute /-separated path, `.` and `..` folded (rel may use \). */
export function joinPath(dir: string, rel: string): string {
  const out: string[] = [];
  for (const p of `${dir}/${rel.replace(/\\/g, '/')}`.split('/')) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return '/' + out.join('/');
}

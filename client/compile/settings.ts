// The compile settings (iqmTools.compile.*) and where the output goes. Pure, so it is unit-tested
// without VS Code.
import type { EditorCompileOptions as CompileOptions } from '../../core/host/compileProtocol';

export interface CompileSettings {
  /** Output path template; variables: ${fileDirname}, ${fileBasenameNoExtension}, ${workspaceFolder}. */
  outputPath: string;
  onSave: boolean;
  scale: number;
  translate: number[];
  rotate: number[];
  fps: number;
  loop: boolean;
  /** Animation files to merge after the source (path templates, as outputPath). */
  animationFiles: string[];
  /** glTF: a material's colour without a texture as its meshes' vertex colours (absent: true). */
  materialColors?: boolean;
}

export const DEFAULT_OUTPUT_PATH = '${fileDirname}/${fileBasenameNoExtension}.iqm';

/** The compiler options of the settings (the reference's defaults leave them out). */
export function compileOptionsOf(settings: CompileSettings): CompileOptions {
  const options: CompileOptions = {};
  if (settings.scale !== 1 && settings.scale > 0) options.scale = settings.scale;
  const t = settings.translate;
  if (t.length === 3 && t.some((v) => v !== 0)) options.translate = [t[0], t[1], t[2]];
  const r = settings.rotate;
  if (r.length === 3 && r.some((v) => v !== 0)) options.rotate = [[r[0], r[1], r[2]]];
  if (settings.fps > 0) options.fps = settings.fps;
  if (settings.loop) options.loop = true;
  if (settings.materialColors === false) options.materialColors = false;
  return options;
}

/**
 * The output path for a source path (POSIX-style paths, as URI paths are): the template with its
 * variables replaced; a relative result is relative to the source's folder.
 */
export function outputPathFor(sourcePath: string, template: string, workspaceFolder: string | undefined): string {
  const path = expandPath(sourcePath, template.trim() || DEFAULT_OUTPUT_PATH, workspaceFolder);
  return path.endsWith('/') ? `${path}${stemOf(sourcePath)}.iqm` : path;
}

/** The animation files to merge after a source: each template expanded as outputPathFor does. */
export function animationPathsFor(sourcePath: string, templates: readonly string[], workspaceFolder: string | undefined): string[] {
  return templates.filter((t) => t.trim() !== '').map((t) => expandPath(sourcePath, t.trim(), workspaceFolder));
}

function stemOf(sourcePath: string): string {
  const base = sourcePath.slice(sourcePath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** A path template with its variables replaced, made absolute against the source's folder. */
function expandPath(sourcePath: string, template: string, workspaceFolder: string | undefined): string {
  const slash = sourcePath.lastIndexOf('/');
  const dir = slash >= 0 ? sourcePath.slice(0, slash) : '.';
  const filled = template
    .replaceAll('${fileDirname}', dir)
    .replaceAll('${fileBasenameNoExtension}', stemOf(sourcePath))
    .replaceAll('${workspaceFolder}', workspaceFolder ?? dir);
  const absolute = filled.startsWith('/') || /^[A-Za-z]:\//.test(filled) ? filled : `${dir}/${filled}`;
  const normalised = normalise(absolute);
  return absolute.endsWith('/') && !normalised.endsWith('/') ? `${normalised}/` : normalised;
}

/** Resolves `.` and `..` segments of a POSIX-style path. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '.' || (part === '' && out.length > 0)) continue;
    if (part === '..' && out.length > 1) out.pop();
    else out.push(part);
  }
  return out.join('/') || '/';
}

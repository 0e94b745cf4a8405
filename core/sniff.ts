// Chooses a format by the file's first bytes, never by its extension (FORMAT-PITFALLS §1):
// real content has MD3 files named .iqm and .dpm, and Git LFS pointers named .iqm.

export type ModelFormat = 'iqm' | 'md3' | 'dpm' | 'iqe';
export type OtherFormat = 'md2' | 'mdl' | 'zym' | 'md5' | 'glb' | 'lfs' | 'unknown';

export interface SniffResult {
  format: ModelFormat | OtherFormat;
  /** What the bytes are, for messages ("an MD2 model", "a Git LFS pointer"). */
  description: string;
  /** True for the formats this project reads. */
  supported: boolean;
}

function startsWith(bytes: Uint8Array, ascii: string, at = 0): boolean {
  if (bytes.length < at + ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** The first line (without a UTF-8 BOM), at most `limit` bytes, as Latin-1. */
function firstLine(bytes: Uint8Array, limit = 4096): string {
  let start = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  let end = start;
  const max = Math.min(bytes.length, start + limit);
  while (end < max && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

export function sniff(bytes: Uint8Array): SniffResult {
  if (startsWith(bytes, 'INTERQUAKEMODEL\0')) return { format: 'iqm', description: 'an IQM model', supported: true };
  if (startsWith(bytes, 'IDP3')) return { format: 'md3', description: 'an MD3 model', supported: true };
  if (startsWith(bytes, 'DARKPLACESMODEL\0')) return { format: 'dpm', description: 'a DPM model', supported: true };
  if (startsWith(bytes, 'IDP2')) return { format: 'md2', description: 'an MD2 (Quake 2) model', supported: false };
  if (startsWith(bytes, 'IDPO')) return { format: 'mdl', description: 'a Quake MDL model', supported: false };
  // A glTF source (compiled, not viewed: core/gltf).
  if (startsWith(bytes, 'glTF')) return { format: 'glb', description: 'a binary glTF (GLB)', supported: false };
  if (startsWith(bytes, 'ZYMOTICMODEL')) return { format: 'zym', description: 'a Zymotic (ZYM) model', supported: false };
  const line = firstLine(bytes);
  // IQE: the first line contains the header comment, possibly after spaces (and a BOM, stripped
  // above); the same rule as the manifest's firstLine pattern.
  if (/^[^#]*# Inter-Quake Export/.test(line)) return { format: 'iqe', description: 'an IQE model', supported: true };
  if (/^\s*MD5Version/.test(line)) return { format: 'md5', description: 'an MD5 (Doom 3) text model', supported: false };
  if (line.startsWith('version https://git-lfs.github.com/spec/')) {
    return { format: 'lfs', description: 'a Git LFS pointer, not a model', supported: false };
  }
  return { format: 'unknown', description: 'not a recognised model format', supported: false };
}

/** The extensions each format is usually saved with, for "extension disagrees with magic" warnings. */
export const FORMAT_EXTENSIONS: Readonly<Record<ModelFormat, readonly string[]>> = {
  iqm: ['.iqm'],
  md3: ['.md3'],
  dpm: ['.dpm'],
  iqe: ['.iqe'],
};

/** A warning when `fileName`'s extension names another model format than the bytes, else null. */
export function extensionWarning(fileName: string, format: ModelFormat): string | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  const ext = fileName.slice(dot).toLowerCase();
  if (FORMAT_EXTENSIONS[format].includes(ext)) return null;
  for (const [other, exts] of Object.entries(FORMAT_EXTENSIONS)) {
    if (exts.includes(ext)) {
      return `the file is named ${ext} but its content is ${format.toUpperCase()} (read by its magic bytes, not its ${other.toUpperCase()} extension)`;
    }
  }
  return null;
}

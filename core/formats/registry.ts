// The format registry: one entry per file format the tool meets, and the one place that tells a
// file's format from its bytes (FORMAT-PITFALLS §1: by content, never by extension alone; real
// content has MD3 files named .iqm and Git LFS pointers named .iqm). Metadata only: the readers
// are attached by format in models.ts (binary models, in every bundle) and sources.ts (compile
// sources, only in the CLI and the compile workers), so the webview's bundle never carries the
// compiler or the glTF library. Every face (CLI, compile workers, the preview's host, the webview)
// asks here; nothing else sniffs or dispatches.

import type { CompileOptions } from '../compile/options';
import { DPM_MAGIC } from '../dpm/reader';
import { IQM_MAGIC } from '../iqm/layout';
import { MD3_MAGIC } from '../md3/reader';
import { extensionOf } from '../paths';
import { decodeUtf8Text } from '../utf8';

/** Every format the registry knows, readable or not. */
export type FormatId =
  | 'iqm'
  | 'md3'
  | 'dpm'
  | 'iqe'
  | 'md5mesh'
  | 'md5anim'
  | 'smd'
  | 'obj'
  | 'gltf'
  | 'glb'
  | 'fbx'
  | 'fbx-binary'
  | 'md2'
  | 'mdl'
  | 'zym'
  | 'lfs'
  | 'binary'
  | 'empty'
  | 'text';

/**
 * What the tool does with a format: a binary `model` is read as it is (IQM, MD3, DPM); a `source`
 * is compiled to IQM first (IQE, MD5, SMD, OBJ, glTF; the preview, info and convert show what the
 * compile makes of it); anything else is `unsupported`, with a reason.
 */
export type FormatRole = 'model' | 'source' | 'unsupported';

/** The files beside a source that go with it (companions.ts reads them). */
export type CompanionRule =
  /** The .md5anim files beside an .md5mesh whose skeleton is the mesh's. */
  | 'md5anim-siblings'
  /** The animation SMDs (no triangles) beside a mesh SMD whose skeleton is the mesh's. */
  | 'smd-siblings'
  /** The .mtl files an OBJ's mtllib lines name. */
  | 'mtl'
  /** The .bin buffers and images a glTF names by relative URI. */
  | 'gltf-resources';

export interface FormatEntry {
  id: FormatId;
  /** What the bytes are, for messages: "an IQM model". */
  label: string;
  /** Its short name: "IQM". */
  name: string;
  /** The extensions files of this format are saved with, lower-case with the dot; the first is the usual one. */
  extensions: readonly string[];
  role: FormatRole;
  /** Files beside it that go with it. */
  companions: readonly CompanionRule[];
  /** Compile sources only: IQE text streams through the compile in blocks (never held whole). */
  streams?: boolean;
  /** Compile sources only: animations only (merged after a mesh, or compiled to an animation-only IQM). */
  animationOnly?: boolean;
  /** Unsupported formats: why, and what to do instead. */
  hint?: string;
}

const COMPILE_SOURCES = 'IQE, MD5, SMD, OBJ or glTF';
const READ = 'iqm-tools reads IQM, MD3, DPM, IQE, MD5, SMD, OBJ and glTF';

const entry = (e: Omit<FormatEntry, 'companions'> & { companions?: readonly CompanionRule[] }): FormatEntry => ({ companions: [], ...e });

/** The registry. Adding a format: an entry here, its recognition in detectFormat, its reader in models.ts or sources.ts (docs/DEVELOPMENT.md). */
export const FORMATS: Readonly<Record<FormatId, FormatEntry>> = {
  iqm: entry({ id: 'iqm', label: 'an IQM model', name: 'IQM', extensions: ['.iqm', '.vvm', '.exm'], role: 'model' }),
  md3: entry({ id: 'md3', label: 'an MD3 model', name: 'MD3', extensions: ['.md3'], role: 'model' }),
  dpm: entry({ id: 'dpm', label: 'a DPM model', name: 'DPM', extensions: ['.dpm'], role: 'model' }),
  iqe: entry({ id: 'iqe', label: 'an IQE model', name: 'IQE', extensions: ['.iqe'], role: 'source', streams: true }),
  md5mesh: entry({ id: 'md5mesh', label: 'an MD5 mesh (.md5mesh)', name: 'MD5 mesh', extensions: ['.md5mesh'], role: 'source', companions: ['md5anim-siblings'] }),
  md5anim: entry({ id: 'md5anim', label: 'an MD5 animation (.md5anim)', name: 'MD5 animation', extensions: ['.md5anim'], role: 'source', animationOnly: true }),
  smd: entry({ id: 'smd', label: 'a Valve SMD', name: 'SMD', extensions: ['.smd'], role: 'source', companions: ['smd-siblings'] }),
  obj: entry({ id: 'obj', label: 'a Wavefront OBJ', name: 'OBJ', extensions: ['.obj'], role: 'source', companions: ['mtl'] }),
  gltf: entry({ id: 'gltf', label: 'a glTF 2.0 (.gltf)', name: 'glTF', extensions: ['.gltf'], role: 'source', companions: ['gltf-resources'] }),
  glb: entry({ id: 'glb', label: 'a binary glTF 2.0 (.glb)', name: 'GLB', extensions: ['.glb'], role: 'source', companions: ['gltf-resources'] }),
  fbx: entry({
    id: 'fbx',
    label: 'an ASCII FBX',
    name: 'FBX',
    extensions: ['.fbx'],
    role: 'unsupported',
    hint: `FBX is not read (the reference compiler's ASCII FBX 7 input is not supported here); export ${COMPILE_SOURCES}`,
  }),
  'fbx-binary': entry({
    id: 'fbx-binary',
    label: 'a binary FBX',
    name: 'FBX',
    extensions: ['.fbx'],
    role: 'unsupported',
    hint: `binary FBX is not read (out of scope; the reference compiler reads only ASCII FBX); export ${COMPILE_SOURCES}`,
  }),
  md2: entry({ id: 'md2', label: 'an MD2 (Quake 2) model', name: 'MD2', extensions: ['.md2'], role: 'unsupported', hint: READ }),
  mdl: entry({ id: 'mdl', label: 'a Quake MDL model', name: 'MDL', extensions: ['.mdl'], role: 'unsupported', hint: READ }),
  zym: entry({ id: 'zym', label: 'a Zymotic (ZYM) model', name: 'ZYM', extensions: ['.zym'], role: 'unsupported', hint: READ }),
  lfs: entry({ id: 'lfs', label: 'a Git LFS pointer', name: 'Git LFS pointer', extensions: [], role: 'unsupported', hint: "not the model it stands for; run 'git lfs pull'" }),
  binary: entry({ id: 'binary', label: 'binary data', name: 'binary data', extensions: [], role: 'unsupported', hint: READ }),
  empty: entry({ id: 'empty', label: 'an empty file', name: 'empty file', extensions: [], role: 'unsupported', hint: READ }),
  // Text that is no other format: no model, but a compile takes it as IQE, whose diagnostics then
  // say what is wrong (the header first).
  text: entry({ id: 'text', label: 'not a recognised model format', name: 'text', extensions: [], role: 'unsupported', streams: true, hint: READ }),
};

/** How many bytes of a file detectFormat looks at (read this much of a file's head for it). */
export const HEAD_BYTES = 8192;

/** How far into a file a NUL byte says "binary data" (model and source text has none). */
const BINARY_PROBE_BYTES = 4096;

const OBJ_COMMANDS = /^(v|vt|vn|vp|f|l|p|o|g|s|usemtl|mtllib|cstype|deg|curv|surf)\s/;

function startsWith(bytes: Uint8Array, ascii: string): boolean {
  if (bytes.length < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** Binary formats by their magic bytes, first match wins. */
const MAGIC: readonly [string, FormatId][] = [
  [IQM_MAGIC, 'iqm'],
  [MD3_MAGIC, 'md3'],
  [DPM_MAGIC, 'dpm'],
  ['IDP2', 'md2'],
  ['IDPO', 'mdl'],
  ['glTF', 'glb'],
  ['ZYMOTICMODEL', 'zym'],
  ['Kaydara FBX Binary', 'fbx-binary'],
];

/**
 * The format of a file from its first bytes (at least HEAD_BYTES of them where the file has that
 * many) and its name: magic bytes first, then what the text says, then the extension where the
 * text says nothing clear (an OBJ has no header; a file of blank lines has nothing).
 */
export function detectFormat(head: Uint8Array, name = ''): FormatId {
  if (head.length === 0) return 'empty';
  for (const [magic, id] of MAGIC) if (startsWith(head, magic)) return id;
  const text = decodeUtf8Text(head.subarray(0, HEAD_BYTES)).replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r\n?|\n/, 1)[0];
  // IQE: the header comment on the first line, possibly after spaces (the manifest's firstLine rule).
  if (/^[^#]*# Inter-Quake Export/.test(firstLine)) return 'iqe';
  // Leading blanks are [^\S\r\n]* (spaces and tabs): ^\s* would run on across blank lines, from
  // each of them (quadratic in a run of blank lines).
  if (/^[^\S\r\n]*MD5Version\b/m.test(text)) {
    if (/^[^\S\r\n]*(numFrames|hierarchy\s*\{|baseframe\s*\{)/m.test(text)) return 'md5anim';
    if (/^[^\S\r\n]*(numMeshes|mesh\s*\{)/m.test(text)) return 'md5mesh';
    return extensionOf(name) === '.md5anim' ? 'md5anim' : 'md5mesh';
  }
  if (firstLine.startsWith('version https://git-lfs.github.com/spec/')) return 'lfs';
  if (head.subarray(0, BINARY_PROBE_BYTES).includes(0)) return 'binary';
  // glTF JSON: an object with an "asset" (exporters write it first; the extension where it is not in the head).
  if (/^\s*\{/.test(text) && (/"asset"\s*:/.test(text) || extensionOf(name) === '.gltf')) return 'gltf';
  if (/^[^\S\r\n]*;\s*FBX \d/m.test(text) || /^[^\S\r\n]*FBXHeaderExtension\s*:/m.test(text)) return 'fbx';
  // SMD: the first line that is not a comment is `version N` (the reader says which it takes).
  const meaningful = firstMeaningfulLine(text);
  if (meaningful !== null && /^version\s+\d+/.test(meaningful)) return 'smd';
  if (meaningful !== null && OBJ_COMMANDS.test(meaningful + ' ')) return 'obj';
  return formatOfExtension(name) ?? 'text';
}

/** The first line that is neither blank nor a comment (#, ;, //), trimmed; null when there is none. */
function firstMeaningfulLine(text: string): string | null {
  for (const line of text.split(/\r\n?|\n/)) {
    const t = line.trim();
    if (t !== '' && !/^(#|;|\/\/)/.test(t)) return t;
  }
  return null;
}

/** The text formats a name's extension stands for where the content says nothing clear. */
const BY_EXTENSION: ReadonlySet<FormatId> = new Set(['iqe', 'md5mesh', 'md5anim', 'smd', 'obj', 'fbx', 'gltf', 'glb']);

/** The format a file name's extension suggests (used only where the content says nothing), or null. */
export function formatOfExtension(name: string): FormatId | null {
  const ext = extensionOf(name);
  if (!ext) return null;
  for (const id of BY_EXTENSION) if (FORMATS[id].extensions.includes(ext)) return id;
  return null;
}

/** The entries of a role, in the registry's order. */
export function formatsWithRole(role: FormatRole): FormatEntry[] {
  return Object.values(FORMATS).filter((f) => f.role === role && f.extensions.length > 0);
}

/** Every extension of the formats of a role (`.iqm`, `.vvm`, ...), in the registry's order. */
export function extensionsOf(role: FormatRole): string[] {
  return formatsWithRole(role).flatMap((f) => f.extensions);
}

/**
 * The one message for a file that cannot be used as asked: `model` (read or shown as a model:
 * binary models and compile sources are), `compile` (a compile source; text in no other format
 * is compiled as IQE, whose diagnostics say what is wrong). Null when it can.
 */
export function unusableMessage(id: FormatId, purpose: 'model' | 'compile'): string | null {
  const f = FORMATS[id];
  if (f.role === 'source' || (purpose === 'model' && f.role === 'model') || (purpose === 'compile' && id === 'text')) return null;
  if (id === 'empty') return 'empty file';
  if (id === 'lfs') return `${f.label}, ${f.hint}`;
  // A format with a reason of its own (FBX) says it; the others say what a compile takes.
  if (f.hint && f.hint !== READ) return `${f.label}: ${f.hint}`;
  if (purpose === 'compile') return `${f.label}, not IQE text or another compile source (${COMPILE_SOURCES})${f.role === 'model' ? '; iqm-tools info reads it' : ''}`;
  return `${f.label}; ${f.hint}`;
}

/**
 * A warning when `fileName`'s extension names another format than the bytes are (the file is read
 * by its bytes), else null.
 */
export function extensionWarning(fileName: string, id: FormatId): string | null {
  const ext = extensionOf(fileName);
  if (!ext || FORMATS[id].extensions.includes(ext)) return null;
  const named = Object.values(FORMATS).find((f) => f.role !== 'unsupported' && f.extensions.includes(ext));
  if (!named) return null;
  return `the file is named ${ext} but its content is ${FORMATS[id].name} (read by its magic bytes, not its ${named.name} extension)`;
}

/** What a file of this name becomes when compiled or converted: the name with `extension` in place of its own (a source's), else added. */
export function outputName(input: string, extension: string): string {
  const ext = extensionOf(input);
  const known = ext !== '' && Object.values(FORMATS).some((f) => f.role !== 'unsupported' && f.extensions.includes(ext));
  return known ? input.slice(0, input.length - ext.length) + extension : input + extension;
}

/**
 * The compile options the model of a source is made with, wherever it is shown (the preview, info,
 * convert, diff, sample, Compare; the editor adds its settings): -j for the formats other than IQE,
 * so that an animation file alone still shows its skeleton; IQE as `compile` makes it (a file
 * without faces has no joints).
 */
export function modelOptions(format: FormatId): CompileOptions {
  return FORMATS[format].streams ? {} : { forceJoints: true };
}

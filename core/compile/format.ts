// Which reader a source text goes to: by its content, as binary models are read by their magic
// (FORMAT-PITFALLS §1), with the file name's extension only where the content says nothing
// clear (an OBJ has no header; an empty file has nothing). A glTF is recognised here too (a GLB
// by its magic, a .gltf by its JSON's "asset"), though it is read from its bytes (core/gltf).

export type SourceFormat = 'iqe' | 'md5mesh' | 'md5anim' | 'smd' | 'obj' | 'gltf' | 'glb' | 'fbx' | 'fbx-binary' | 'unknown';

/** How far into the text the content is looked at (characters). */
const HEAD = 8192;

const OBJ_COMMANDS = /^(v|vt|vn|vp|f|l|p|o|g|s|usemtl|mtllib|cstype|deg|curv|surf)\s/;

/** The format of a source text named `name` (a path or file name; may be ''). */
export function sourceFormat(text: string, name = ''): SourceFormat {
  const head = text.slice(0, HEAD).replace(/^\uFEFF/, '');
  if (head.startsWith('Kaydara FBX Binary')) return 'fbx-binary';
  if (head.startsWith('glTF')) return 'glb';
  // glTF JSON: an object with an "asset" (exporters write it first; the extension where it is not in the head).
  if (/^\s*\{/.test(head) && (/"asset"\s*:/.test(head) || /\.gltf$/i.test(name))) return 'gltf';
  const firstLine = head.split(/\r\n?|\n/, 1)[0];
  if (/^[^#]*# Inter-Quake Export/.test(firstLine)) return 'iqe';
  // Leading blanks are [^\S\r\n]* (spaces and tabs): ^\s* ran on across blank lines, from each of
  // them (quadratic: 4,000 blank lines took 0.3 s).
  if (/^[^\S\r\n]*MD5Version\b/m.test(head)) {
    if (/^[^\S\r\n]*(numFrames|hierarchy\s*\{|baseframe\s*\{)/m.test(head)) return 'md5anim';
    if (/^[^\S\r\n]*(numMeshes|mesh\s*\{)/m.test(head)) return 'md5mesh';
    return /\.md5anim$/i.test(name) ? 'md5anim' : 'md5mesh';
  }
  if (/^[^\S\r\n]*;\s*FBX \d/m.test(head) || /^[^\S\r\n]*FBXHeaderExtension\s*:/m.test(head)) return 'fbx';
  // SMD: the first line that is not a comment is `version 1` (any version: the reader says which it takes).
  const lines = head.split(/\r\n?|\n/);
  const meaningful = lines.map((l) => l.trim()).filter((l) => l !== '' && !/^(#|;|\/\/)/.test(l));
  if (meaningful.length > 0 && /^version\s+\d+/.test(meaningful[0])) return 'smd';
  if (meaningful.length > 0 && OBJ_COMMANDS.test(meaningful[0] + ' ')) return 'obj';
  const ext = /\.([^./\\]+)$/.exec(name)?.[1].toLowerCase();
  switch (ext) {
    case 'iqe': return 'iqe';
    case 'md5mesh': return 'md5mesh';
    case 'md5anim': return 'md5anim';
    case 'smd': return 'smd';
    case 'obj': return 'obj';
    case 'fbx': return 'fbx';
    case 'gltf': return 'gltf';
    case 'glb': return 'glb';
    default: return 'unknown';
  }
}

/** What each format is, for messages. */
export const SOURCE_FORMAT_NAMES: Readonly<Record<SourceFormat, string>> = {
  iqe: 'IQE',
  md5mesh: 'an MD5 mesh (.md5mesh)',
  md5anim: 'an MD5 animation (.md5anim)',
  smd: 'a Valve SMD',
  obj: 'a Wavefront OBJ',
  gltf: 'a glTF 2.0 (.gltf)',
  glb: 'a binary glTF 2.0 (.glb)',
  fbx: 'an ASCII FBX',
  'fbx-binary': 'a binary FBX',
  unknown: 'not a model source',
};

/** The name of a file without its folders and its last extension (an animation's default name). */
export function baseName(name: string): string {
  const file = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

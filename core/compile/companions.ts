// The files that go with a source as the reference compiler would be given them: an .md5mesh
// with the .md5anim files beside it, a mesh SMD with the animation SMDs of its folder (those
// without triangles), in name order, each only when its skeleton is the mesh's (the same joint
// names in the same order: another model's animations in the same folder are left out); an OBJ
// with the .mtl files its mtllib lines name. The editor's compile and the preview use them when
// iqmTools.compile.animationFiles says nothing.
import { type SourceFormat, sourceFormat } from './format';

// Leading and trailing blanks of a line are [^\S\r\n]* (spaces and tabs): ^\s* ran on across blank
// lines, from each of them (quadratic: a source of 40,000 blank lines took 1.5 s to look at).

/** The joint names of an MD5 (joints or hierarchy block) or SMD (nodes) text, in order; null for another format. */
export function skeletonNames(text: string, format: SourceFormat): string[] | null {
  if (format === 'md5mesh' || format === 'md5anim') {
    const block = /^[^\S\r\n]*(joints|hierarchy)\s*\{([^}]*)\}/m.exec(text);
    if (!block) return [];
    return [...block[2].matchAll(/^[^\S\r\n]*"([^"]*)"/gm)].map((m) => m[1]);
  }
  if (format === 'smd') {
    const block = /^[^\S\r\n]*nodes[^\S\r\n]*$([\s\S]*?)^[^\S\r\n]*end[^\S\r\n]*$/m.exec(text);
    if (!block) return [];
    return [...block[1].matchAll(/^[^\S\r\n]*\d+\s+"([^"]*)"/gm)].map((m) => m[1]);
  }
  return null;
}

/** Whether a source text is animations only: an .md5anim, or an SMD without triangles. */
export function isAnimationSource(text: string, format: SourceFormat): boolean {
  return format === 'md5anim' || (format === 'smd' && !/^[^\S\r\n]*triangles[^\S\r\n]*$/m.test(text));
}

/** The extension of the files that may go with a source of this name, or null when none do. */
export function companionExtension(name: string): string | null {
  if (/\.md5mesh$/i.test(name)) return '.md5anim';
  if (/\.smd$/i.test(name)) return '.smd';
  if (/\.obj$/i.test(name)) return '.mtl';
  return null;
}

/**
 * Of `candidates` (files beside `main`, with the extension companionExtension gives), the
 * animation files to merge after it, in name order. `main` itself is never one.
 */
export function companionAnimations(main: { name: string; text: string }, candidates: readonly { name: string; text: string }[]): string[] {
  const format = sourceFormat(main.text, main.name);
  if (isAnimationSource(main.text, format)) return [];
  const skeleton = skeletonNames(main.text, format);
  if (!skeleton || skeleton.length === 0) return [];
  const key = skeleton.join('\u0000');
  return candidates
    .filter((c) => c.name !== main.name)
    .filter((c) => {
      const f = sourceFormat(c.text, c.name);
      return (f === 'md5anim' || f === 'smd') && isAnimationSource(c.text, f) && skeletonNames(c.text, f)?.join('\u0000') === key;
    })
    .map((c) => c.name)
    .sort();
}

/** The .mtl files an OBJ text names (mtllib), as written. */
export function mtlLibraries(text: string): string[] {
  return [...text.matchAll(/^[^\S\r\n]*mtllib[^\S\r\n]+(.+?)[^\S\r\n]*$/gm)].flatMap((m) => m[1].split(/\s+/));
}

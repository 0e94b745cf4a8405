// The registry's readers for compile sources (IQE, MD5, SMD, OBJ, glTF): a file's name and its
// text or bytes in, a CompileSource out, by the format the registry tells from the content. The
// one dispatch of the CLI and both compile workers. Imports the glTF library: only the bundles
// that compile (the CLI and the compile workers) take this file.

import type { SourceOptions } from '../compile/options';
import { type AnimationOptions, type CompileSource, iqeStreamSource, type SiblingReader, type SourceRead, sourceError, textIqeSource } from '../compile/sources';
import { IqeIngest } from '../compile/ingest';
import { gltfSource, type ResourceReader } from '../gltf/source';
import { readMd5Anim, readMd5Mesh } from '../md5/reader';
import { readObj } from '../obj/reader';
import { readSmd } from '../smd/reader';
import { stemOf } from '../paths';
import { decodeUtf8Text, encodeUtf8, utf8Decoder } from '../utf8';
import { detectFormat, type FormatId, HEAD_BYTES, unusableMessage } from './registry';

/** A source's content: a text (an editor's), or the file's bytes (UTF-8). */
export type SourceContent = { text: string } | { bytes: Uint8Array };

/** Bytes decoded per block: each block's string stays small (young generation), as node/text.ts reads files. */
const BLOCK_BYTES = 1 << 16;

/** The text readers of the formats that are read whole as text (a new text source format adds its reader here). */
const TEXT_READERS: Readonly<Partial<Record<FormatId, (text: string, name: string, siblings?: SiblingReader) => SourceRead>>> = {
  md5mesh: (text) => readMd5Mesh(text),
  md5anim: (text, name) => readMd5Anim(text, stemOf(name)),
  smd: (text, name) => readSmd(text, stemOf(name)),
  obj: (text, _name, siblings) => readObj(text, siblings),
};

/** The format of a source's content named `name` (its head is enough). */
export function sourceFormatOf(content: SourceContent, name: string): FormatId {
  return detectFormat('bytes' in content ? content.bytes.subarray(0, HEAD_BYTES) : encodeUtf8(content.text.slice(0, HEAD_BYTES)), name);
}

/** A resource reader's files as an OBJ's sibling texts (UTF-8), by the name the source gives. */
export function siblingTexts(resources: ResourceReader | undefined): SiblingReader | undefined {
  if (!resources) return undefined;
  return (name) => {
    const bytes = resources(name) ?? resources(name.replace(/\\/g, '/'));
    return bytes ? decodeUtf8Text(bytes) : null;
  };
}

/**
 * A compile source of any format the registry reads, named `name` (a path or file name: the
 * format where the content says nothing, an animation's default name); `resources` reads the files
 * it names (an OBJ's .mtl, a glTF's .bin and images). IQE bytes are decoded in blocks into the
 * ingest (never one string) and whole only for the diagnostics of a file with errors; a glTF is
 * decoded now (its reader is async); a format that is no compile source is a source whose read()
 * gives the registry's one message. Never rejects.
 */
export async function openSource(content: SourceContent, name = '', resources?: ResourceReader, options?: SourceOptions, known?: FormatId): Promise<CompileSource> {
  // `known`: the format the caller already told from the same bytes (never told twice).
  const format = known ?? sourceFormatOf(content, name);
  if (format === 'gltf' || format === 'glb') return gltfSource('bytes' in content ? content.bytes : encodeUtf8(content.text), name, resources, options);
  return readerSource(content, format, name, siblingTexts(resources), options);
}

/** A source text of any format read synchronously (all but glTF, whose source is openSource's), named `name`. */
export function textSource(text: string, name = '', options?: AnimationOptions, siblings?: SiblingReader): CompileSource {
  const content = { text };
  return readerSource(content, sourceFormatOf(content, name), name, siblings, options);
}

/** The source of content of a format the registry told: its reader's (glTF gets a message here: openSource decodes it). */
function readerSource(content: SourceContent, format: FormatId, name = '', siblings?: SiblingReader, options?: AnimationOptions): CompileSource {
  const whole = () => ('text' in content ? content.text : decodeUtf8Text(content.bytes));
  if (format === 'iqe' || format === 'text') {
    if ('text' in content) return textIqeSource(content.text, name, options);
    const bytes = content.bytes;
    const ingest = () => {
      const decoder = utf8Decoder();
      const iqe = new IqeIngest();
      for (let at = 0; at < bytes.length; at += BLOCK_BYTES) iqe.push(decoder.decode(bytes.subarray(at, at + BLOCK_BYTES), { stream: true }));
      iqe.push(decoder.decode());
      return iqe.finish();
    };
    return iqeStreamSource(name, ingest, whole, options);
  }
  const reader = TEXT_READERS[format];
  return {
    name,
    options,
    read: () => (reader ? reader(whole(), name, siblings) : sourceError('source-format', unusableMessage(format, 'compile') ?? `${format} is read from its bytes (openSource), not as text`)),
  };
}

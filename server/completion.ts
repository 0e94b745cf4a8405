// Completion: command names at the start of a line; vertexarray TYPE and FORMAT words after it.
import { type CompletionItem, CompletionItemKind, InsertTextFormat, MarkupKind, type Position } from 'vscode-languageserver';
import { VERTEXARRAY_FORMATS, VERTEXARRAY_TYPES } from '../core/iqe/commands';
import { commentLine, lineText, type ParsedLines } from '../core/iqe/navigation';
import { COMMAND_DOCS, VERTEXARRAY_FORMAT_DOCS, VERTEXARRAY_TYPE_DOCS } from './commandDocs';

/** Snippets with placeholders for the commands whose arguments are worth prompting. */
const SNIPPETS: Readonly<Record<string, string>> = {
  vp: 'vp ${1:0} ${2:0} ${3:0}',
  vt: 'vt ${1:0} ${2:0}',
  vn: 'vn ${1:0} ${2:0} ${3:1}',
  vb: 'vb ${1:0} ${2:1}',
  fa: 'fa ${1:0} ${2:1} ${3:2}',
  fm: 'fm ${1:0} ${2:1} ${3:2}',
  pq: 'pq ${1:0} ${2:0} ${3:0} ${4:0} ${5:0} ${6:0} ${7:-1}',
  joint: 'joint "${1:name}" ${2:-1}',
  mesh: 'mesh "${1:name}"',
  material: 'material "${1:texture.png}"',
  animation: 'animation "${1:name}"',
  vertexarray: 'vertexarray ${1:blendindexes} ${2:ushort} ${3:4}',
};

/** The characters whose typing asks for IQE completion: a space (a vertexarray's type and format). */
export const IQE_TRIGGER_CHARACTERS: readonly string[] = [' '];

export function completions(doc: ParsedLines, position: Position): CompletionItem[] {
  const comment = commentLine(doc);
  if (comment >= 0 && position.line > comment) return [];
  const before = lineText(doc, position.line).slice(0, position.character);
  const words = before.trimStart().split(/[ \t]+/);
  if (before.trimStart().startsWith('#')) return [];
  if (words.length === 1) {
    return Object.entries(COMMAND_DOCS).map(([name, d]) => ({
      label: name,
      kind: CompletionItemKind.Keyword,
      detail: d.syntax,
      documentation: { kind: MarkupKind.Markdown, value: d.summary },
      insertText: SNIPPETS[name] ?? name,
      insertTextFormat: SNIPPETS[name] ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    }));
  }
  if (words[0] === 'vertexarray' && words.length === 2) {
    return VERTEXARRAY_TYPES.map((t) => ({ label: t, kind: CompletionItemKind.EnumMember, detail: VERTEXARRAY_TYPE_DOCS[t] ?? 'custom attribute; default float 4' }));
  }
  if (words[0] === 'vertexarray' && words.length === 3) {
    return VERTEXARRAY_FORMATS.map((f) => ({ label: f, kind: CompletionItemKind.EnumMember, detail: VERTEXARRAY_FORMAT_DOCS[f] }));
  }
  return [];
}

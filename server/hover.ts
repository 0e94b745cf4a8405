// Hover: what a command does, which vertex a face index resolves to, which joint an index names.
import { type Hover, MarkupKind, type Position } from 'vscode-languageserver';
import { Cmd, COMMAND_NAMES, VERTEXARRAY_FORMATS, VERTEXARRAY_TYPES } from '../core/iqe/commands';
import { type ParsedLines, faceVertex, joints, lineText, tokenAt, verticesBefore, vertexLine } from '../core/iqe/navigation';
import { COMMAND_DOCS, VERTEXARRAY_FORMAT_DOCS, VERTEXARRAY_TYPE_DOCS } from './commandDocs';

/** undefined while the document is partly parsed and the joint is not among the parsed lines (it may come later). */
function jointLabel(doc: ParsedLines, index: number): string | undefined {
  const list = joints(doc);
  const j = list[index];
  if (!j && index >= 0 && !doc.fullyParsed) return undefined;
  return j ? `joint ${index} \`${j.name}\` (line ${j.line + 1})` : `joint ${index} (no such joint: the file has ${list.length})`;
}

export function hover(doc: ParsedLines, position: Position): Hover | null {
  const token = tokenAt(doc, position.line, position.character);
  if (!token) return null;
  const range = { start: { line: token.line, character: token.start }, end: { line: token.line, character: token.end } };
  const md = (value: string): Hover => ({ contents: { kind: MarkupKind.Markdown, value }, range });
  const command = COMMAND_NAMES[token.kind];
  switch (token.role) {
    case 'command': {
      const doc_ = command ? COMMAND_DOCS[command] : undefined;
      if (!doc_) return null;
      let extra = '';
      if (token.kind === Cmd.Vp) extra = `\n\nThis is vertex **${verticesBefore(doc, token.line)}**.`;
      if (token.kind === Cmd.Joint) {
        const j = joints(doc).find((x) => x.line === token.line);
        if (j) extra = `\n\nThis is joint **${j.index}**.`;
      }
      return md(`\`${doc_.syntax}\`\n\n${doc_.summary}${extra}`);
    }
    case 'value': {
      if (token.kind === Cmd.Fa || token.kind === Cmd.Fm) {
        const vertex = faceVertex(doc, token.line, token.valueIndex);
        // A partly parsed document may hold the vertex further on: say nothing rather than something wrong.
        if (vertex < 0) return doc.fullyParsed ? md(`Index ${token.values[token.valueIndex]} resolves to no vertex.`) : null;
        const line = vertexLine(doc, vertex);
        return md(`Vertex **${vertex}**, line ${line + 1}:\n\n\`\`\`iqe\n${lineText(doc, line).trim()}\n\`\`\``);
      }
      const parent = token.kind === Cmd.Joint && token.valueIndex === 0;
      if (!parent && !(token.kind === Cmd.Vb && token.valueIndex % 2 === 0)) return null;
      const label = jointLabel(doc, token.values[token.valueIndex]);
      if (label === undefined) return null;
      return md(parent ? `Parent: ${label}` : label);
    }
    case 'type': {
      const name = VERTEXARRAY_TYPES[token.values[0]];
      return name ? md(`\`${name}\`: ${VERTEXARRAY_TYPE_DOCS[name] ?? 'custom attribute; default float 4'}`) : null;
    }
    case 'format': {
      const name = VERTEXARRAY_FORMATS[token.values[1]];
      return name ? md(`\`${name}\`: ${VERTEXARRAY_FORMAT_DOCS[name]}`) : null;
    }
    default:
      return null;
  }
}

// Go to definition (a face index → its vp, a parent or vb joint → its joint line) and find
// references (a vp → the faces using it, a joint → its children and the vb lines using it).
import type { Location, Position } from 'vscode-languageserver';
import { Cmd } from '../core/iqe/commands';
import { type ParsedLines, faceVertex, facesUsingVertex, jointReferences, joints, lineText, tokenAt, verticesBefore, vertexLine } from '../core/iqe/navigation';

/** At most this many references are listed (a vertex or root joint can be used a million times). */
const MAX_REFERENCES = 2000;

function lineLocation(doc: ParsedLines, uri: string, line: number): Location {
  return { uri, range: { start: { line, character: 0 }, end: { line, character: lineText(doc, line).length } } };
}

export function definition(doc: ParsedLines, uri: string, position: Position): Location[] {
  const token = tokenAt(doc, position.line, position.character);
  if (!token || token.role !== 'value') return [];
  if (token.kind === Cmd.Fa || token.kind === Cmd.Fm) {
    const line = vertexLine(doc, faceVertex(doc, token.line, token.valueIndex));
    return line >= 0 ? [lineLocation(doc, uri, line)] : [];
  }
  const jointIndex =
    token.kind === Cmd.Joint && token.valueIndex === 0 ? token.values[0] : token.kind === Cmd.Vb && token.valueIndex % 2 === 0 ? token.values[token.valueIndex] : -1;
  const joint = joints(doc)[jointIndex];
  return joint ? [lineLocation(doc, uri, joint.line)] : [];
}

export function references(doc: ParsedLines, uri: string, position: Position, includeDeclaration: boolean): Location[] {
  const token = tokenAt(doc, position.line, position.character);
  if (!token) return [];
  const out: Location[] = [];
  if (token.kind === Cmd.Vp) {
    if (includeDeclaration) out.push(lineLocation(doc, uri, token.line));
    for (const line of facesUsingVertex(doc, verticesBefore(doc, token.line), MAX_REFERENCES)) out.push(lineLocation(doc, uri, line));
    return out;
  }
  let jointIndex = -1;
  if (token.kind === Cmd.Joint && token.role !== 'value') jointIndex = joints(doc).find((j) => j.line === token.line)?.index ?? -1;
  else if (token.role === 'value' && ((token.kind === Cmd.Joint && token.valueIndex === 0) || (token.kind === Cmd.Vb && token.valueIndex % 2 === 0))) {
    jointIndex = token.values[token.valueIndex];
  }
  if (jointIndex < 0) return [];
  const joint = joints(doc)[jointIndex];
  if (includeDeclaration && joint) out.push(lineLocation(doc, uri, joint.line));
  for (const ref of jointReferences(doc, jointIndex, MAX_REFERENCES)) out.push(lineLocation(doc, uri, ref.line));
  return out;
}

// Document outline: the skeleton as a joint tree, the meshes with their materials, the
// animations with their frames, and the comment section.
import { type DocumentSymbol, SymbolKind, type Range } from 'vscode-languageserver';
import type { IqeDocument } from '../core/iqe/document';
import { joints, lineText, sections } from '../core/iqe/navigation';

function lineRange(doc: IqeDocument, line: number, endLine = line): Range {
  return { start: { line, character: 0 }, end: { line: endLine, character: lineText(doc, endLine).length } };
}

/**
 * The deepest nesting of the joint tree. The response is one JSON message, which is serialised
 * recursively: a chain of thousands of joints (each the parent of the next) nested all the way
 * overflowed the stack and the request was never answered. Deeper joints are listed flat.
 */
export const MAX_OUTLINE_DEPTH = 64;

export function documentSymbols(doc: IqeDocument): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const skeleton = joints(doc);
  if (skeleton.length > 0) {
    const symbols = skeleton.map<DocumentSymbol>((j) => {
      const range = lineRange(doc, j.line);
      return { name: j.name || `joint ${j.index}`, detail: `#${j.index}`, kind: SymbolKind.Object, range, selectionRange: { start: { ...range.start }, end: { ...range.end } }, children: [] };
    });
    const roots: DocumentSymbol[] = [];
    // Nesting level of each joint's symbol, and the list it is in.
    const level = new Int32Array(skeleton.length);
    const container: DocumentSymbol[][] = [];
    skeleton.forEach((j, i) => {
      // Only well-ordered parents nest (a bad parent is reported as a diagnostic; it stays a root here).
      const p = j.parent;
      if (!(p >= 0 && p < i)) {
        container[i] = roots;
      } else if (level[p] < MAX_OUTLINE_DEPTH - 1) {
        container[i] = symbols[p].children!;
        level[i] = level[p] + 1;
      } else {
        // Below the deepest level a joint sits beside its parent, which the detail names.
        container[i] = container[p];
        level[i] = level[p];
        symbols[i].detail = `#${j.index}, child of #${p}`;
      }
      container[i].push(symbols[i]);
    });
    const first = skeleton[0].line;
    const last = skeleton[skeleton.length - 1].line;
    out.push({ name: 'skeleton', detail: `${skeleton.length} joints`, kind: SymbolKind.Namespace, range: lineRange(doc, first, last), selectionRange: lineRange(doc, first), children: roots });
  }
  for (const s of sections(doc)) {
    const range = lineRange(doc, s.line, s.endLine);
    const selectionRange = lineRange(doc, s.line);
    if (s.kind === 'mesh') {
      out.push({
        name: s.name || '(unnamed mesh)',
        detail: `${s.material ? `material ${s.material}, ` : ''}${s.vertices} vertices, ${s.faces} faces`,
        kind: SymbolKind.Module,
        range,
        selectionRange,
      });
    } else if (s.kind === 'animation') {
      out.push({
        name: s.name || '(unnamed animation)',
        detail: `${s.frames} frames${s.framerate ? ` at ${s.framerate} fps` : ''}${s.loop ? ', loop' : ''}`,
        kind: SymbolKind.Event,
        range,
        selectionRange,
        children: (s.frameLines ?? []).map((line, k) => {
          // The line's length from the outline: a lookup of each of thousands of frame lines cost more than the rest of the outline.
          const end = s.frameLineLengths![k];
          return { name: `frame ${k}`, kind: SymbolKind.Number, range: { start: { line, character: 0 }, end: { line, character: end } }, selectionRange: { start: { line, character: 0 }, end: { line, character: end } } };
        }),
      });
    } else {
      out.push({ name: 'comment', detail: 'verbatim to the IQM comment section', kind: SymbolKind.String, range, selectionRange });
    }
  }
  return out;
}

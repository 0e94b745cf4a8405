// Document outline: the skeleton as a joint tree, the meshes with their materials, the
// animations with their frames, and the comment section.
import { type DocumentSymbol, SymbolKind, type Range } from 'vscode-languageserver';
import type { IqeDocument } from '../core/iqe/document';
import { joints, lineText, sections } from '../core/iqe/navigation';

function lineRange(doc: IqeDocument, line: number, endLine = line): Range {
  return { start: { line, character: 0 }, end: { line: endLine, character: lineText(doc, endLine).length } };
}

export function documentSymbols(doc: IqeDocument): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const skeleton = joints(doc);
  if (skeleton.length > 0) {
    const symbols = skeleton.map<DocumentSymbol>((j) => ({
      name: j.name || `joint ${j.index}`,
      detail: `#${j.index}`,
      kind: SymbolKind.Object,
      range: lineRange(doc, j.line),
      selectionRange: lineRange(doc, j.line),
      children: [],
    }));
    const roots: DocumentSymbol[] = [];
    skeleton.forEach((j, i) => {
      // Only well-ordered parents nest (a bad parent is reported as a diagnostic; it stays a root here).
      if (j.parent >= 0 && j.parent < i) symbols[j.parent].children!.push(symbols[i]);
      else roots.push(symbols[i]);
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
        children: (s.frameLines ?? []).map((line, k) => ({ name: `frame ${k}`, kind: SymbolKind.Number, range: lineRange(doc, line), selectionRange: lineRange(doc, line) })),
      });
    } else {
      out.push({ name: 'comment', detail: 'verbatim to the IQM comment section', kind: SymbolKind.String, range, selectionRange });
    }
  }
  return out;
}

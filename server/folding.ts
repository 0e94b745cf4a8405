// Folding: each mesh, each animation and each of its frames, the skeleton, and the comment section.
import { type FoldingRange, FoldingRangeKind } from 'vscode-languageserver';
import type { IqeDocument } from '../core/iqe/document';
import { joints, sections } from '../core/iqe/navigation';

export function foldingRanges(doc: IqeDocument): FoldingRange[] {
  const out: FoldingRange[] = [];
  const skeleton = joints(doc);
  if (skeleton.length > 1) out.push({ startLine: skeleton[0].line, endLine: skeleton[skeleton.length - 1].line, kind: FoldingRangeKind.Region });
  for (const s of sections(doc)) {
    if (s.endLine > s.line) out.push({ startLine: s.line, endLine: s.endLine, kind: s.kind === 'comment' ? FoldingRangeKind.Comment : FoldingRangeKind.Region });
    const frames = s.frameLines ?? [];
    for (let k = 0; k < frames.length; k++) {
      // A frame runs from its `frame` line (just above its first pose, usually) to before the next.
      const start = Math.max(s.line, frames[k] - 1);
      const end = (k + 1 < frames.length ? frames[k + 1] - 2 : s.endLine);
      if (end > start) out.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Region });
    }
  }
  return out;
}

// Quick fixes for diagnostics whose fix is certain: a wrong-case or glued command word, a decimal
// comma, a missing header, an unterminated quote, a non-unit quaternion, text after `comment`.
import { type CodeAction, CodeActionKind, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import { suggestCommand } from '../core/iqe/commands';
import type { IqeDocument } from '../core/iqe/document';
import { lineText, tokenAt } from '../core/iqe/navigation';

function fix(title: string, uri: string, diagnostic: Diagnostic, edits: TextEdit[]): CodeAction {
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true, edit: { changes: { [uri]: edits } } };
}

/** Shortest decimal that reads back as the same float64, for edits that write numbers. */
function number(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

export function codeActions(doc: IqeDocument, uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.source !== undefined && d.source !== 'iqe') continue;
    const { range } = d;
    const text = lineText(doc, range.start.line);
    const token = text.slice(range.start.character, range.end.character);
    switch (d.code) {
      case 'unknown-command': {
        const suggestion = suggestCommand(token);
        if (suggestion && suggestion !== token) out.push(fix(`Change '${token}' to '${suggestion}'`, uri, d, [{ range, newText: suggestion }]));
        break;
      }
      case 'number-invalid':
        if (/^[-+]?\d+,\d+$/.test(token)) out.push(fix(`Use a decimal point: '${token.replace(',', '.')}'`, uri, d, [{ range, newText: token.replace(',', '.') }]));
        break;
      case 'header':
        out.push(fix("Insert the '# Inter-Quake Export' header", uri, d, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# Inter-Quake Export\n' }]));
        break;
      case 'unterminated-quote':
        out.push(fix('Close the quote', uri, d, [{ range: { start: { line: range.start.line, character: text.trimEnd().length }, end: { line: range.start.line, character: text.trimEnd().length } }, newText: '"' }]));
        break;
      case 'quaternion-not-unit': {
        const at = tokenAt(doc, range.start.line, 0);
        if (!at || at.values.length < 7) break;
        const [x, y, z, w] = at.values.slice(3, 7);
        const length = Math.hypot(x, y, z, w);
        if (!(length > 0)) break;
        // Normalise, keeping w <= 0 as the reference compiler stores rotations.
        const sign = w / length > 0 ? -1 : 1;
        const q = [x, y, z, w].map((c) => number((sign * c) / length));
        out.push(fix('Normalise the quaternion', uri, d, [{ range, newText: q.join(' ') }]));
        break;
      }
      case 'comment-trailing-text':
        out.push(fix('Move the text to the comment section', uri, d, [{ range: { start: { line: range.start.line, character: text.indexOf('comment') + 7 }, end: range.start }, newText: '\n' }]));
        break;
    }
  }
  return out;
}

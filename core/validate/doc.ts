// The code table of docs/VALIDATION.md, made from codes.ts (a test keeps the two the same).

import { VALIDATION_CODES } from './codes';

export const CODE_TABLE_START = '<!-- validation codes: made from core/validate/codes.ts -->';
export const CODE_TABLE_END = '<!-- end of validation codes -->';

/** The Markdown table of every code: code, kind, default severity, what it means. */
export function validationCodeTable(): string {
  const rows = Object.entries(VALIDATION_CODES).map(([code, e]) => `| \`${code}\` | ${e.kind} | ${e.severity} | ${e.summary.replace(/\|/g, '\\|')} |`);
  return [CODE_TABLE_START, '', '| code | kind | default severity | the problem |', '|---|---|---|---|', ...rows, '', CODE_TABLE_END].join('\n');
}

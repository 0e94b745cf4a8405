// Where each code's section is in docs/VALIDATION.md: the heading doc.ts writes for it and the line
// the Problems panel links to. Kept apart from doc.ts so the extension does not bundle the citations.

import { VALIDATION_CODES } from './codes';

/** The Markdown heading of a code's section. */
export const codeHeading = (code: string): string => `### \`${code}\``;

/** The 1-based line of each code's section heading in the doc's text (a code without one is absent). */
export function codeSectionLines(doc: string): Map<string, number> {
  const lines = new Map<string, number>();
  doc.split('\n').forEach((line, i) => {
    const m = /^### `([a-z0-9-]+)`$/.exec(line);
    if (m && m[1] in VALIDATION_CODES) lines.set(m[1], i + 1);
  });
  return lines;
}

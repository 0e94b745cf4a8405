// The codes part of docs/VALIDATION.md, made from codes.ts and citations.ts (`npm run validation-doc`
// writes it; a test keeps the doc the same): a table of every code, then one section per code with
// what each engine whose source was read does with the problem. The Problems panel links each
// entry to its code's section (docSections.ts).

import { citeSource } from '../engines/types';
import { citationsOf } from './citations';
import { VALIDATION_CODES, type ValidationCode } from './codes';
import { codeHeading } from './docSections';

export const CODE_TABLE_START = '<!-- validation codes: made from core/validate/codes.ts and citations.ts (npm run validation-doc) -->';
export const CODE_TABLE_END = '<!-- end of validation codes -->';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** What the section says where no engine's source was read for the code. */
const UNCITED = 'No engine\'s handling of this was read in its source: the message says what follows from the format (iqm.txt, md3.txt, dpmodel.txt) for a loader that trusts the file.';

/** The Markdown of every code: the table (each code linking to its section), then the sections. */
export function validationCodeTable(): string {
  const codes = Object.keys(VALIDATION_CODES) as ValidationCode[];
  const rows = codes.map((code) => {
    const e = VALIDATION_CODES[code];
    return `| [\`${code}\`](#${code}) | ${e.kind} | ${e.severity} | ${escapeCell(e.summary)} |`;
  });
  const cited = codes.filter((code) => citationsOf(code).length > 0).length;
  const sections = codes.flatMap((code) => {
    const e = VALIDATION_CODES[code];
    const facts = citationsOf(code).map((f) => `- **${f.engine}**: ${f.does} (${citeSource(f.source)})`);
    return [codeHeading(code), '', `${e.kind}, ${e.severity}: ${e.summary}.`, '', ...(facts.length > 0 ? facts : [UNCITED]), ''];
  });
  return [
    CODE_TABLE_START,
    '',
    '| code | kind | default severity | the problem |',
    '|---|---|---|---|',
    ...rows,
    '',
    `### What engines do, code by code`,
    '',
    `${cited} of the ${codes.length} codes cite an engine's source: the repository, the file, the lines at a commit (or, in files too long to count, the function and the character offset).`,
    '',
    ...sections,
    CODE_TABLE_END,
  ].join('\n');
}

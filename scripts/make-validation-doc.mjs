// `npm run validation-doc`: writes the codes part of docs/VALIDATION.md (core/validate/doc.ts: the
// code table and each code's section with its engine citations) between its markers.
// test/unit/validate-iqm.test.ts fails when they differ.
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

await esbuild.build({ entryPoints: ['core/validate/doc.ts'], outfile: 'out/scripts/validation-doc.cjs', bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
const { validationCodeTable, CODE_TABLE_START, CODE_TABLE_END } = createRequire(import.meta.url)('../out/scripts/validation-doc.cjs');
const doc = readFileSync('docs/VALIDATION.md', 'utf8');
const start = doc.indexOf(CODE_TABLE_START);
const end = doc.indexOf(CODE_TABLE_END);
if (start < 0 || end < start) throw new Error('docs/VALIDATION.md: the validation-codes markers are missing');
writeFileSync('docs/VALIDATION.md', doc.slice(0, start) + validationCodeTable() + doc.slice(end + CODE_TABLE_END.length));
console.log('docs/VALIDATION.md: codes written');

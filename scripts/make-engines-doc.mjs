// `npm run engines-doc`: writes the profile tables (core/engines/doc.ts) into docs/ENGINES.md
// between the generated-tables markers. test/unit/engines.test.ts fails when they differ.
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

await esbuild.build({ entryPoints: ['core/engines/doc.ts'], outfile: 'out/scripts/engines-doc.cjs', bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
const { engineTables } = createRequire(import.meta.url)('../out/scripts/engines-doc.cjs');
const BEGIN = '<!-- generated tables: npm run engines-doc -->';
const END = '<!-- end of generated tables -->';
const doc = readFileSync('docs/ENGINES.md', 'utf8');
const start = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
if (start < 0 || end < start) throw new Error('docs/ENGINES.md: the generated-tables markers are missing');
writeFileSync('docs/ENGINES.md', doc.slice(0, start + BEGIN.length) + '\n\n' + engineTables() + '\n' + doc.slice(end));
console.log('docs/ENGINES.md: tables written');

// Writes the README that goes into the .vsix (out/package/README.md; `npm run package`). VS Code's
// extension details page shows an installed extension's README in a webview whose
// Content-Security-Policy allows images only from https: and data: URIs, and it resolves no
// relative link: the README's screenshots (docs/screenshots/*.png) are put in as data: URIs, and
// links to files that are not in the package (docs/DEVELOPMENT.md) become plain text.
//   node scripts/package-readme.mjs [README.md] [out/package/README.md]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const input = process.argv[2] ?? 'README.md';
const output = process.argv[3] ?? join('out', 'package', 'README.md');
const root = dirname(input);
let text = readFileSync(input, 'utf8');
let images = 0;
// ![alt](relative/path.png): the image's bytes in the page itself.
text = text.replace(/!\[([^\]]*)\]\(((?!https?:|data:)[^)\s]+\.png)\)/g, (_, alt, path) => {
  images++;
  return `![${alt}](data:image/png;base64,${readFileSync(join(root, path)).toString('base64')})`;
});
// [text](relative/file.md#anchor): not in the package, so no link.
text = text.replace(/(?<!!)\[([^\]]+)\]\(((?!https?:|#|data:)[^)\s]+)\)/g, (_, label) => label);
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, text);
console.log(`package-readme: ${output} (${images} images inlined, ${(text.length / 1024).toFixed(0)} KB)`);

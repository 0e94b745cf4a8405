// Writes the README that goes into the .vsix (out/package/README.md; `npm run package`). VS Code's
// extension details page (1.139: DOMPurify with http/https media only, and a CSP of
// `img-src https: data:`) shows an installed extension's README images only from absolute https
// URLs: a relative link, a data: URI or a file packaged in the .vsix shows as a broken image.
//  - With an https base (IQM_README_IMAGES_URL, e.g. where docs/screenshots/ is published), the
//    README's relative image links point there, as `vsce --baseImagesUrl` would make them.
//  - Without one, each image becomes its caption (no broken picture on the details page).
// Links to files that are not in the package (docs/DEVELOPMENT.md) become plain text, and the
// "Developing iqm-tools" section (set-up from a checkout) is left out: the page is for users.
//   [IQM_README_IMAGES_URL=https://host/path/] node scripts/package-readme.mjs [README.md] [out/package/README.md]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const input = process.argv[2] ?? 'README.md';
const output = process.argv[3] ?? join('out', 'package', 'README.md');
const base = process.env.IQM_README_IMAGES_URL ?? '';
if (base && !/^https:\/\/\S+\/$/.test(base)) {
  console.error(`package-readme: IQM_README_IMAGES_URL must be an https URL ending in / (VS Code loads README images only over https): ${base}`);
  process.exit(2);
}
let text = readFileSync(input, 'utf8');
let images = 0;
text = text.replace(/^## Developing iqm-tools\n[\s\S]*?(?=^## )/m, '');
text = text.replace(/!\[([^\]]*)\]\(((?!https:)[^)\s]+)\)/g, (_, alt, path) => {
  images++;
  return base ? `![${alt}](${base}${path.replace(/^\.\//, '')})` : `*Screenshot: ${alt}.*`;
});
// [text](relative/file.md#anchor): not in the package, so no link.
text = text.replace(/(?<!!)\[([^\]]+)\]\(((?!https?:|#)[^)\s]+)\)/g, (_, label) => label);
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, text);
console.log(`package-readme: ${output}: ${images} images ${base ? `from ${base}` : 'as captions (no https base: IQM_README_IMAGES_URL)'}`);

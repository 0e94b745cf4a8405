// The `iqm-tools view` page around the previews: one model fills it; several get a bar to switch
// between them, and Compare shows two side by side, each in its own viewer (an iframe of
// cli/view/server.ts's `view?file=N`, as VS Code holds each preview in a frame). The list comes in
// the page's <meta name="iqm-view">. esbuild -> dist/view-page.js.

import './page.css';

interface ListedFile {
  name: string;
  path: string;
}

const meta = document.querySelector('meta[name="iqm-view"]');
const files: ListedFile[] = (JSON.parse(meta?.getAttribute('content') ?? '{"files":[]}') as { files: ListedFile[] }).files;

const bar = document.createElement('nav');
bar.id = 'files';
const views = document.createElement('main');
views.id = 'views';
document.body.append(bar, views);

/** What is shown: one model, or two compared (left, right). */
let shown: number[] = [Number(new URLSearchParams(location.hash.slice(1)).get('file') ?? '0') || 0];
let comparing = false;

/** The page's comparison group: the server pairs its left and right viewers. */
const group = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

function frame(file: number, side: 'left' | 'right'): HTMLIFrameElement {
  const f = document.createElement('iframe');
  f.src = `view?file=${file}&compare=${group}&side=${side}`;
  f.title = files[file]?.name ?? '';
  f.dataset.file = String(file);
  return f;
}

function show(): void {
  // A viewer whose model stays keeps its frame where it is (a frame moved in the document loads
  // again): its view and playback stay; the others are made anew.
  const current = Array.from(views.querySelectorAll('iframe'));
  shown.forEach((file, at) => {
    const there = current[at];
    const side = at === 0 ? 'left' : 'right';
    if (!there) views.append(frame(file, side));
    else if (there.dataset.file !== String(file)) there.replaceWith(frame(file, side));
  });
  for (const extra of current.slice(shown.length)) extra.remove();
  views.classList.toggle('compare', shown.length === 2);
  for (const b of Array.from(bar.querySelectorAll<HTMLButtonElement>('button[data-file]'))) {
    const at = shown.indexOf(Number(b.dataset.file));
    b.classList.toggle('on', at >= 0);
    b.title = `${files[Number(b.dataset.file)].path}${comparing && at >= 0 ? ` (${at === 0 ? 'left' : 'right'})` : ''}`;
  }
  compareButton.classList.toggle('on', comparing);
  history.replaceState(null, '', `#file=${shown[0]}`);
}

/** A click on a model: shows it; while comparing, on the right (the left one stays). */
function pick(file: number): void {
  if (!comparing) shown = [file];
  else if (file !== shown[0]) shown = [shown[0], file];
  show();
}

const compareButton = document.createElement('button');
compareButton.id = 'compare';
compareButton.textContent = 'Compare';
compareButton.title = 'Show two models side by side: click a second one';
compareButton.addEventListener('click', () => {
  comparing = !comparing;
  shown = comparing ? [shown[0], shown[0] === 0 ? 1 : 0] : [shown[0]];
  show();
});

if (files.length > 1) {
  files.forEach((f, i) => {
    const b = document.createElement('button');
    b.dataset.file = String(i);
    b.textContent = f.name;
    b.addEventListener('click', () => pick(i));
    bar.append(b);
  });
  bar.append(compareButton);
} else {
  bar.hidden = true;
}
if (!(shown[0] >= 0 && shown[0] < files.length)) shown = [0];
show();

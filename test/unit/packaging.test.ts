// What the .vsix holds (`npm run package`: vsce with the .vscodeignore whitelist): every file that
// package.json contributes or names (the entries, the icon, every grammar and language
// configuration, any other `./` path under contributes) and every file the build writes to dist/
// (the webview's script, style and font, the workers, the CLI), and nothing else but the package's
// documents. A file left out works in the development folder and fails only once installed (the
// sidecar grammars and language configurations were: no colouring, no comment toggling, a 404).
// The list is vsce's own (listFiles, the files `vsce package` puts in); the in-editor suite then
// runs on the installed .vsix (test/vscode/run-harness.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix, resolve } from 'node:path';

const ROOT = resolve('.');
const DIST = join(ROOT, 'dist');
const NOT_BUILT = existsSync(join(DIST, 'webview.js')) && existsSync(join(DIST, 'web', 'extension.js')) ? false : `${DIST} is not built (npm run build)`;

/** vsce's API (no typings ship with it). */
const vsce = createRequire(join(ROOT, 'package.json'))('@vscode/vsce') as { listFiles(options: { cwd: string; dependencies: boolean }): Promise<string[]> };

interface Manifest {
  main?: string;
  browser?: string;
  icon?: string;
  bin?: Record<string, string>;
  contributes?: unknown;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** A manifest path as a path in the package (`./syntaxes/x.json` -> `syntaxes/x.json`). */
const packaged = (path: string): string => posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '');

/** Every `./…` string under `contributes` (grammars, language configurations, icons, snippets, …). */
function contributedPaths(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith('./')) found.push(packaged(value));
  } else if (value && typeof value === 'object') {
    for (const child of Object.values(value)) contributedPaths(child, found);
  }
  return found;
}

/** Files of the manifest itself: its entries, the icon, the command line. */
function manifestPaths(): string[] {
  return [manifest.main, manifest.browser, manifest.icon, ...Object.values(manifest.bin ?? {})].filter((p): p is string => typeof p === 'string').map(packaged);
}

/**
 * What the build writes to dist/ and the extension loads at run time; not the source maps (a
 * development build's) nor the CLI's V8 code cache (it is only valid for the node that wrote it).
 */
function builtFiles(dir = DIST, prefix = 'dist'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return builtFiles(path, `${prefix}/${name}`);
    return name.endsWith('.map') || name.endsWith('.codecache') ? [] : [`${prefix}/${name}`];
  });
}

/** The package's documents (the README is out/package/README.md, packaged under this name; the validator's codes page, which the Problems entries link to). */
const DOCUMENTS = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'docs/VALIDATION.md'];

let listing: Promise<Set<string>> | undefined;
const packageFiles = (): Promise<Set<string>> => (listing ??= vsce.listFiles({ cwd: ROOT, dependencies: false }).then((files) => new Set(files.map(packaged))));

test('package.json contributes grammars and language configurations for every language, and each file exists', () => {
  const contributes = manifest.contributes as { languages?: { id: string; configuration?: string }[]; grammars?: { language?: string; path: string }[] };
  const languages = contributes.languages ?? [];
  assert.ok(languages.length >= 5, 'the IQE and sidecar languages');
  for (const language of languages) {
    assert.ok(language.configuration, `${language.id} has no language configuration (no comment toggling)`);
    assert.ok(contributes.grammars?.some((g) => g.language === language.id), `${language.id} has no grammar (no colouring)`);
  }
  for (const path of [...manifestPaths(), ...contributedPaths(manifest.contributes)]) {
    if (path.startsWith('dist/')) continue; // built: the next tests
    assert.ok(existsSync(join(ROOT, path)), `package.json names ${path}, which does not exist`);
  }
});

test('the .vsix holds every file package.json contributes or names', { skip: NOT_BUILT }, async () => {
  const files = await packageFiles();
  const needed = [...new Set([...manifestPaths(), ...contributedPaths(manifest.contributes)])];
  // Every grammar and language configuration of the sidecars too, not only IQE's.
  assert.ok(needed.includes('syntaxes/framegroups.tmLanguage.json') && needed.includes('syntaxes/sidecar-language-configuration.json'), needed.join(', '));
  const missing = needed.filter((path) => !files.has(path));
  assert.deepEqual(missing, [], `.vscodeignore leaves out what package.json names: ${missing.join(', ')}`);
});

test('the .vsix holds every file the build writes to dist/ (webview assets, workers, the CLI)', { skip: NOT_BUILT }, async () => {
  const files = await packageFiles();
  const built = builtFiles();
  // The webview's script, style and the font its style loads; the workers of both hosts.
  // iqm-tools view's page: the stand-in for the webview API and the page around the previews.
  for (const expected of ['dist/webview.js', 'dist/webview.css', 'dist/codicon.ttf', 'dist/compileWorker.js', 'dist/boundsWorker.js', 'dist/web/server.js', 'dist/web/compileWorker.js', 'dist/view-shim.js', 'dist/view-page.js', 'dist/view-page.css']) {
    assert.ok(built.includes(expected), `the build no longer writes ${expected}`);
  }
  // What the style sheet loads beside it (url(...)), so that a new asset of the webview is seen.
  const css = readFileSync(join(DIST, 'webview.css'), 'utf8');
  for (const [, url] of css.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) {
    if (!/^(data|https?):/.test(url)) assert.ok(built.includes(`dist/${packaged(url.replace(/[?#].*$/, ''))}`), `webview.css loads ${url}, which the build did not write`);
  }
  const missing = built.filter((path) => !files.has(path));
  assert.deepEqual(missing, [], `.vscodeignore leaves out what the build writes: ${missing.join(', ')}`);
});

test('the .vsix holds docs/VALIDATION.md, the page the validator\'s Problems entries link to', { skip: NOT_BUILT }, async () => {
  assert.ok((await packageFiles()).has('docs/VALIDATION.md'), '.vscodeignore leaves out docs/VALIDATION.md');
});

test('the .vsix holds nothing else: no sources, source maps, tests or examples', { skip: NOT_BUILT }, async () => {
  const files = await packageFiles();
  const allowed = new Set([...DOCUMENTS, ...manifestPaths(), ...contributedPaths(manifest.contributes), ...builtFiles()]);
  const extra = [...files].filter((path) => !allowed.has(path));
  assert.deepEqual(extra, [], `the package holds files nothing loads: ${extra.join(', ')}`);
});

// The extension's details page shows the packaged README (scripts/package-readme.mjs): it is for
// users, so a checkout's set-up (npm install / test / start) stays in "Developing iqm-tools", the
// section the script leaves out. (The UI test reads the same on the installed extension's page.)
test('the packaged README has no developer set-up outside the section the packaging leaves out', async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'iqm-readme-'));
  try {
    const out = join(dir, 'README.md');
    const run = spawnSync(process.execPath, [resolve('scripts/package-readme.mjs'), resolve('README.md'), out], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const lines = readFileSync(out, 'utf8').split('\n');
    const setUp = lines.map((line, i) => ({ line, at: i + 1 })).filter(({ line }) => /npm (install|test|start)\b/.test(line));
    assert.deepEqual(setUp, [], 'developer set-up in the packaged README');
    assert.ok(lines.some((l) => l.startsWith('## Command line')), 'the packaged README keeps the user sections');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

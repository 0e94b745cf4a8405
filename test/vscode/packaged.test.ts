// What the extension's folder holds, wherever the suite runs: the development folder, or the
// installed .vsix (test/vscode/run-harness.mjs runs the suite on both). Every file the manifest
// names is there, and each sidecar language's configuration is loaded: "Toggle Line Comment"
// comments a line of a .framegroups, animation.cfg, .skin and .shader file (it does nothing when
// the configuration is missing from the package, as it once was: VS Code only logs a 404).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { activeExtension, revertAndClose, scratchFolder, utf8 } from './helpers';

interface Manifest {
  main?: string;
  browser?: string;
  icon?: string;
  contributes?: {
    languages?: { id: string; configuration?: string }[];
    grammars?: { language?: string; path: string }[];
  };
}

/** A sidecar file (its language told by its name), and a line of it that `//` can go before. */
const SIDECAR_LINES: { file: string[]; language: string; line: string }[] = [
  { file: ['clip.framegroups'], language: 'iqm-framegroups', line: '0 10 20 1 idle' },
  { file: ['players', 'x', 'animation.cfg'], language: 'q3-animation-cfg', line: '0 30 0 20' },
  { file: ['head_default.skin'], language: 'q3-skin', line: 'tag_head,' },
  { file: ['scripts', 'x.shader'], language: 'q3-shader', line: 'models/players/x/body' },
];

suite('packaged files', () => {
  let extension: vscode.Extension<unknown>;

  let scratch: Awaited<ReturnType<typeof scratchFolder>>;

  suiteSetup(async () => {
    extension = await activeExtension();
    scratch = await scratchFolder('packaged');
  });

  suiteTeardown(async () => {
    await scratch.remove();
  });

  test('every file the manifest names is in the extension folder (entries, icon, grammars, language configurations, webview, workers)', async () => {
    const manifest = extension.packageJSON as Manifest;
    const contributes = manifest.contributes ?? {};
    const named = [
      manifest.main,
      manifest.browser,
      manifest.icon,
      ...(contributes.grammars ?? []).map((g) => g.path),
      ...(contributes.languages ?? []).map((l) => l.configuration),
      // What the extension loads at run time (client/preview/panel.ts, the platforms' workers).
      'dist/webview.js',
      'dist/webview.css',
      'dist/codicon.ttf',
      'dist/server.js',
      'dist/compileWorker.js',
      'dist/web/server.js',
      'dist/web/compileWorker.js',
    ].filter((p): p is string => typeof p === 'string');
    assert.ok(named.some((p) => p.includes('framegroups')), `the manifest names no .framegroups grammar: ${named.join(', ')}`);
    const missing: string[] = [];
    for (const path of new Set(named)) {
      const uri = vscode.Uri.joinPath(extension.extensionUri, ...path.replace(/^\.\//, '').split('/'));
      try {
        await vscode.workspace.fs.stat(uri);
      } catch {
        missing.push(path);
      }
    }
    assert.deepEqual(missing, [], `not in ${extension.extensionUri.toString()}: ${missing.join(', ')}`);
  });

  for (const { file, language, line } of SIDECAR_LINES) {
    test(`Toggle Line Comment comments a line of ${file.join('/')} (the ${language} language configuration is loaded)`, async () => {
      const uri = vscode.Uri.joinPath(scratch.uri, ...file);
      await vscode.workspace.fs.writeFile(uri, utf8(`${line}\n`));
      const document = await vscode.workspace.openTextDocument(uri);
      try {
        const editor = await vscode.window.showTextDocument(document, { preview: false });
        assert.equal(document.languageId, language, `the language of ${file.join('/')}`);
        editor.selection = new vscode.Selection(0, 0, 0, 0);
        // The configuration is read when the language is first used: a first toggle can come
        // before it, so the toggle is tried again (only while the line is still uncommented).
        const commented = () => document.lineAt(0).text.startsWith('//');
        for (let tries = 0; tries < 10 && !commented(); tries++) {
          await vscode.commands.executeCommand('editor.action.commentLine');
          await waitFor(commented, 'the comment', 1000).catch(() => undefined);
        }
        assert.ok(commented(), `Toggle Line Comment left the ${language} line as it was (no language configuration from ${extension.extensionUri.toString()}?): ${JSON.stringify(document.getText())}`);
        assert.equal(document.lineAt(0).text.replace(/^\/\/\s?/, ''), line);
      } finally {
        await revertAndClose(document);
      }
    });
  }
});

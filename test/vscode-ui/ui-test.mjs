// UI test: drives the VS Code workbench like a user, through the harness's Session
// (../shared/vscode-harness/harness.js, playwright-core + headless Chromium + code-server), on the
// examples/ folder that scripts/make-examples.mjs writes. Opens planted-errors.iqe and checks what
// is on screen: the language mode, error squiggles in the editor, and the Problems panel listing
// the planted problems by code. Screenshots go to the output folder.
//   node scripts/make-examples.mjs && node test/vscode-ui/ui-test.mjs [--out DIR]
// Exit status: 0 passed, 1 failed, 2 could not start. Run by `npm run test:vscode`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outArg = process.argv.indexOf('--out');
const outDir = resolve(outArg > 0 ? process.argv[outArg + 1] : join(repo, 'test-output', 'vscode-ui'));
const examples = join(repo, 'examples');
const harnessPath = resolve(repo, '..', 'shared', 'vscode-harness', 'harness.js');

/**
 * What the command line reports for the file (dist/cli.js check --json): the editor must show the
 * same problems, since both come from core/iqe.
 */
function cliDiagnostics(file) {
  const result = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'check', file, '--json'], { encoding: 'utf8' });
  const parsed = JSON.parse(result.stdout);
  return parsed.diagnostics;
}

/** Whether the Problems panel's text lists `code` from our source: shown as "iqe(code)" (source and code are separate elements). */
function listed(text, code) {
  return new RegExp(`\\biqe\\W{0,3}${code}\\b`).test(text);
}

async function main() {
  if (!existsSync(harnessPath)) {
    console.log(`[ui-test] SKIPPED: ${harnessPath} is absent`);
    return 0;
  }
  if (!existsSync(join(examples, 'planted-errors.iqe'))) {
    console.error('[ui-test] examples/planted-errors.iqe is missing: run node scripts/make-examples.mjs first');
    return 2;
  }
  const expected = cliDiagnostics(join(examples, 'planted-errors.iqe'));
  const codes = [...new Set(expected.map((d) => d.code))];
  // The example must still plant what this test is about.
  for (const code of ['face-index-range', 'unknown-command', 'joint-parent', 'attribute-count']) {
    if (!codes.includes(code)) throw new Error(`iqm-tools check no longer reports '${code}' for examples/planted-errors.iqe`);
  }
  const errors = expected.filter((d) => d.severity === 'error').length;
  const { Session } = createRequire(import.meta.url)(harnessPath);
  let session;
  try {
    session = await Session.start({ extensionDevelopmentPath: repo, workspace: examples, outDir });
  } catch (error) {
    console.error('[ui-test] could not start VS Code:', error);
    return 2;
  }
  const { page } = session;
  try {
    await session.waitForWorkbench();
    await session.quickOpen('planted-errors.iqe');

    // The file is recognised as IQE: the status bar's language mode shows the language's name.
    await page.locator('.statusbar-item', { hasText: 'Inter-Quake Export' }).first().waitFor({ timeout: 30000 });

    // The language server's errors are drawn as squiggles in the editor.
    await page.waitForSelector('.monaco-editor .squiggly-error', { timeout: 60000 });
    const squiggles = await page.locator('.monaco-editor .squiggly-error').count();
    assert.ok(squiggles >= errors, `${squiggles} error squiggles for ${errors} errors`);
    await session.screenshot('1-planted-errors-editor');

    // Hover on the bad face index: the problem (with its code) and the server's own hover for the
    // token, which says what the index resolves to.
    const bad = expected.find((d) => d.code === 'face-index-range');
    await session.runCommand('Go to Line/Column');
    await page.keyboard.type(`${bad.line}:${bad.column}`);
    await page.keyboard.press('Enter');
    await session.runCommand('Show or Focus Hover');
    const hover = page.locator('.monaco-hover', { hasText: 'face-index-range' }).first();
    await hover.waitFor({ timeout: 30000 });
    let hoverText = '';
    for (let tries = 0; tries < 100 && !/resolves to no vertex/.test(hoverText); tries++) {
      hoverText = (await page.locator('.monaco-hover').allInnerTexts()).join(' ').replace(/\s+/g, ' ');
      if (!/resolves to no vertex/.test(hoverText)) await page.waitForTimeout(100);
    }
    assert.match(hoverText, /Face index resolves to vertex 7/);
    assert.match(hoverText, /resolves to no vertex/, `hover: ${hoverText}`);
    await session.screenshot('2-hover-on-problem');
    await page.keyboard.press('Escape');

    // The Problems panel lists them, each with its code ("iqe(face-index-range)").
    await session.runCommand('View: Focus Problems');
    const panel = page.locator('.markers-panel');
    await panel.locator('.monaco-list-row', { hasText: 'face-index-range' }).first().waitFor({ timeout: 30000 });
    // Maximise the panel so that every entry is rendered (the list is virtual) and readable on the screenshot.
    await session.runCommand('View: Toggle Maximized Panel');
    let text = '';
    for (let tries = 0; tries < 100; tries++) {
      text = (await panel.innerText()).replace(/\s+/g, ' ');
      if (codes.every((code) => listed(text, code))) break;
      await page.waitForTimeout(100);
    }
    for (const code of codes) assert.ok(listed(text, code), `Problems panel has no 'iqe(${code})': ${text.slice(0, 2000)}`);
    assert.match(text, /planted-errors\.iqe/);
    assert.match(text, /Face index resolves to vertex 7/);
    await session.screenshot('3-problems-panel');

    // The file's row counts its problems: as many as the command line reports.
    const fileRow = panel.locator('.monaco-list-row', { hasText: 'planted-errors.iqe' }).first();
    const count = (await fileRow.locator('.monaco-count-badge').first().innerText()).trim();
    assert.equal(count, String(expected.length), `Problems panel counts ${count}, iqm-tools check reports ${expected.length}`);
    console.log(`[ui-test] ${squiggles} error squiggles; Problems panel: ${count} problems, codes ${codes.join(' ')}`);
    // The model preview beside the text, from the command palette, on the animated example.
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    const previewCommand = (manifest.contributes?.commands ?? []).find((c) => c.command === 'iqmTools.openPreviewToSide');
    if (!previewCommand) {
      console.log('[ui-test] preview step SKIPPED: package.json contributes no iqmTools.openPreviewToSide yet');
    } else {
      const info = JSON.parse(spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'info', join(examples, 'skinned-tube.iqe'), '--json'], { encoding: 'utf8' }).stdout);
      const triangles = info.meshes.reduce((n, m) => n + m.triangles, 0);
      await page.keyboard.press('Escape');
      await session.quickOpen('skinned-tube.iqe');
      await session.runCommand(`${previewCommand.category}: ${previewCommand.title}`);
      const frame = await session.findFrame('#viewer[data-state="ready"]', 60000);
      const viewer = { file: await frame.locator('#viewer').getAttribute('data-file'), text: await frame.locator('body').innerText() };
      assert.equal(viewer.file, 'skinned-tube.iqe');
      assert.match(viewer.text.replace(/\s+/g, ' '), new RegExp(`triangles ${triangles}\\b`), viewer.text.slice(0, 600));
      assert.match(viewer.text.replace(/\s+/g, ' '), new RegExp(`joints ${info.joints.length}\\b`));
      await session.screenshotWebview('4-preview-webview', '#viewer[data-state="ready"]');
      await session.screenshot('4-preview-beside-text');
      console.log(`[ui-test] preview ready: ${triangles} triangles, ${info.joints.length} joints`);
    }

    console.log('[ui-test] PASSED');
    return 0;
  } catch (error) {
    console.error('[ui-test] FAILED', error);
    await session.screenshot('failure').catch(() => {});
    return 1;
  } finally {
    await session.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 2;
  },
);

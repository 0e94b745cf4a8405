// UI test: drives the VS Code workbench like a user, through the harness's Session
// (../shared/vscode-harness/harness.js, playwright-core + headless Chromium + code-server), on the
// examples/ folder that scripts/make-examples.mjs writes. The extension is the packaged one: the
// .vsix (`npm run package`) is installed into a private extensions folder by code-server's own
// `--install-extension`, and code-server runs with that folder and no development extension, so
// what ships is what is tested. Opens planted-errors.iqe and checks what is on screen: the
// language mode, error squiggles in the editor, a hover, the Problems panel listing the planted
// problems by code, the model preview beside skinned-tube.iqe, and "IQE: Compile to IQM" from the
// command palette, whose .iqm opens in the preview and is checked on the pixels of its webview
// (the model is drawn: the centre is not the background), and the preview toolbar's "Convert to
// IQE" (the replace question on an existing file; a DPM written as IQE that compiles). Screenshots go to the output
// folder; the ones the README shows are also written to docs/screenshots/ (unless --no-docs).
//   npm run package && node scripts/make-examples.mjs examples && node test/vscode-ui/ui-test.mjs
//   options: --out DIR (default test-output/vscode-ui, with --web test-output/vscode-ui-web),
//            --vsix FILE (default iqm-tools.vsix),
//            --development (load this folder as a development extension instead of the .vsix),
//            --no-docs (leave docs/screenshots/ alone),
//            --only-place-to-work (only the click-to-line and comparison steps),
//            --only-sidecar-colours (only the sidecar grammars step),
//            --web (the extension in the browser's web worker extension host, as on vscode.dev: the
//            user setting remote.extensionKind; then also checks that the running-extensions view
//            says so, and draws the MD3 and DPM examples; its README screenshot is web-preview.png)
// Exit status: 0 passed, 1 failed, 2 could not start. Run by `npm run test:vscode`.
/* global document, Event -- used only in functions that run in the page */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { differingPixels, readPng } from './png.mjs';
import { clickToLineStep, compareStep } from './place-to-work.mjs';
import { quickOpen, runCommand as runCommandOn } from './workbench.mjs';
import { installVsix } from './vsix.mjs';

/** The preview's pixel measure of the in-editor suite (test/vscode/pixels.ts, bundled by scripts/build-vscode-tests.mjs). */
async function loadModelPixels() {
  const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'test-vscode', 'pixels.mjs');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`node scripts/build-vscode-tests.mjs\` first`);
  return (await import(pathToFileURL(bundle).href)).modelPixels;
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const web = process.argv.includes('--web');
const outDir = resolve(option('--out', join(repo, 'test-output', web ? 'vscode-ui-web' : 'vscode-ui')));
const vsix = resolve(option('--vsix', join(repo, 'iqm-tools.vsix')));
const development = process.argv.includes('--development');
const docsDir = process.argv.includes('--no-docs') ? null : join(repo, 'docs', 'screenshots');
const examples = join(repo, 'examples');
const harnessPath = resolve(repo, '..', 'shared', 'vscode-harness', 'harness.js');

/** The folder of the extension under test: the development folder, or the installed .vsix. */
let extensionDir = repo;

/**
 * What the command line reports for the file (dist/cli.js check --json, from the extension under
 * test): the editor must show the same problems, since both come from core/iqe.
 */
function cliDiagnostics(file) {
  const result = spawnSync(process.execPath, [join(extensionDir, 'dist', 'cli.js'), 'check', file, '--json'], { encoding: 'utf8' });
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
  const harness = createRequire(import.meta.url)(harnessPath);
  const tmp = mkdtempSync(join(tmpdir(), 'iqm-ui-test-'));
  try {
    return await test(harness, tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function test(harness, tmp) {
  const modelPixels = await loadModelPixels();
  if (!development) {
    if (!existsSync(vsix)) {
      console.error(`[ui-test] ${vsix} is missing: run \`npm run package\` first (or pass --development)`);
      return 2;
    }
    try {
      extensionDir = installVsix(harness, vsix, tmp);
    } catch (error) {
      console.error('[ui-test] could not install the .vsix:', error instanceof Error ? error.message : error);
      return 2;
    }
    console.log(`[ui-test] installed ${vsix} (${(statSync(vsix).size / 1024).toFixed(0)} KB) as ${extensionDir}`);
    // The package holds the production bundles (minified, no source maps), and nothing of the sources.
    const shipped = readdirSync(join(extensionDir, 'dist'), { recursive: true }).filter((name) => statSync(join(extensionDir, 'dist', name)).isFile());
    const devFiles = shipped.filter((name) => name.endsWith('.map') || readFileSync(join(extensionDir, 'dist', name), 'utf8').includes('sourceMappingURL='));
    // Both entries of the manifest are in the package.
    const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
    for (const entry of [manifest.main, manifest.browser]) {
      if (!entry || !existsSync(join(extensionDir, entry))) {
        console.error(`[ui-test] FAILED: ${vsix} declares main ${manifest.main} and browser ${manifest.browser}, and ${entry ?? 'one of them'} is not in it`);
        return 1;
      }
    }
    if (devFiles.length) {
      console.error(`[ui-test] FAILED: ${vsix} holds a development build (${devFiles.join(', ')}): was dist/ rebuilt while \`npm run package\` ran?`);
      return 1;
    }
    for (const absent of ['src', 'client', 'core', 'server', 'node_modules', 'test', 'examples']) {
      if (existsSync(join(extensionDir, absent))) {
        console.error(`[ui-test] FAILED: ${vsix} contains ${absent}/, which .vscodeignore should leave out`);
        return 1;
      }
    }
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
  // A cursor that does not blink, so that screenshots of the same state are the same.
  // Auto save off, VS Code's default on the desktop (code-server saves after a delay): an edit
  // stays unsaved, as the IQE preview step needs.
  const settings = { 'editor.cursorBlinking': 'solid', 'files.autoSave': 'off' };
  // The web run: the `browser` entry in the web worker extension host (../shared/docs/WEB-EXTENSION.md).
  if (web) settings['remote.extensionKind'] = { [`${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).publisher}.iqm-tools`]: ['web'] };
  let session;
  try {
    session = await harness.Session.start(
      development
        ? { extensionDevelopmentPath: repo, workspace: examples, outDir, settings }
        : // Installed like a user's extension, and no smoke-test driver: the workbench as a user sees it.
          { installExtensions: [extensionDir], smokeTestDriver: false, workspace: examples, outDir, settings },
    );
  } catch (error) {
    console.error('[ui-test] could not start VS Code:', error);
    return 2;
  }
  const { page } = session;
  /** A command from the palette, opened by a click (workbench.mjs: an F1 can go to a webview still loading). */
  const runCommand = (title, timeoutMs) => runCommandOn(page, title, timeoutMs);

  /**
   * quickOpen (workbench.mjs), once more when the click on the matching row did not open the file:
   * on a busy machine the list can still be re-rendering under the click (seen in CI after "Close
   * All Editors": the row selected, the picker still open, no tab).
   */
  async function openFile(name) {
    try {
      await quickOpen(page, name, 15000);
    } catch (error) {
      console.log(`[ui-test] quick open of ${name} did not open it (${error instanceof Error ? error.message.split('\n')[0] : error}); once more`);
      await page.keyboard.press('Escape');
      await quickOpen(page, name);
    }
  }

  /**
   * Screenshot to the output folder, and for the README also to docs/screenshots/ (`docs` names
   * the file there). `clip` is a region of the page, e.g. from clipBeside().
   */
  async function shoot(name, { docs: docsName, clip } = {}) {
    // The web run keeps the desktop's screenshots and adds its own preview.
    const docs = web ? (docsName === 'preview' ? 'web-preview' : undefined) : docsName;
    if (docs) {
      // Scroll bars fade out a moment after scrolling; wait for that, so that the same state gives
      // the same picture (and docs/screenshots/ changes only when the UI does).
      await page.waitForFunction(() => !document.querySelector('.scrollbar.visible:not(.invisible)'), null, { timeout: 5000 }).catch(() => {});
    }
    const file = join(outDir, `${name}.png`);
    // Transitions (a scroll bar fading out) are finished first: the same state, the same picture.
    await page.screenshot({ path: file, clip, animations: 'disabled' });
    let note = '';
    if (docs && docsDir) {
      // Replaced only when the picture changed: a few pixels of anti-aliasing differ between runs.
      const committed = join(docsDir, `${docs}.png`);
      const changed = !existsSync(committed) || differingPixels(file, committed) > 200;
      if (changed) {
        mkdirSync(docsDir, { recursive: true });
        copyFileSync(file, committed);
      }
      note = changed ? ` (written to docs/screenshots/${docs}.png)` : ` (docs/screenshots/${docs}.png unchanged)`;
    }
    console.log(`[ui-test] screenshot ${file}${note}`);
  }

  /**
   * A region of the window: from the left edge of `left` to the right edge of `box` plus `margin`,
   * and from `above` pixels above `box` to `below` pixels below it, within the viewport.
   */
  async function clipBeside(left, box, { above = 0, below = 0, margin = 0 } = {}) {
    const a = await left.boundingBox();
    const b = await box.boundingBox();
    const viewport = page.viewportSize();
    const x = Math.max(0, Math.round(a.x));
    const y = Math.max(0, Math.round(b.y - above));
    const right = Math.min(viewport.width, Math.round(b.x + b.width + margin));
    const bottom = Math.min(viewport.height, Math.round(b.y + b.height + below));
    return { x, y, width: right - x, height: bottom - y };
  }
  /** "IQE: Compile to IQM" on skinned-tube.iqe, then the compiled model in the preview. */
  async function compileStep(compileCommand, manifest) {
    const cli = join(extensionDir, 'dist', 'cli.js');
    const source = join(session.workspace, 'skinned-tube.iqe');
    const compiled = join(session.workspace, 'skinned-tube.iqm');
    rmSync(compiled, { force: true });
    const sourceInfo = JSON.parse(spawnSync(process.execPath, [cli, 'info', source, '--json'], { encoding: 'utf8' }).stdout);
    await page.keyboard.press('Escape');
    // Only the text editor open, so that it is the active editor the command compiles (with the
    // IQE preview beside, opening the file again can focus the preview instead).
    await runCommand('View: Close All Editors');
    await page.locator('.tab').first().waitFor({ state: 'detached', timeout: 10000 }).catch(() => {});
    await openFile('skinned-tube.iqe');
    await runCommand(`${compileCommand.category}: ${compileCommand.title}`);
    for (let tries = 0; tries < 600 && !existsSync(compiled); tries++) await page.waitForTimeout(100);
    if (!existsSync(compiled)) {
      const notes = await session.notificationMessages().catch(() => []);
      assert.fail(`${compiled} was not written by "${compileCommand.category}: ${compileCommand.title}"; notifications: ${notes.join(' | ') || '(none)'}`);
    }
    const info = JSON.parse(spawnSync(process.execPath, [cli, 'info', compiled, '--json'], { encoding: 'utf8' }).stdout);
    const sum = (i, key) => i.meshes.reduce((n, m) => n + m[key], 0);
    assert.equal(info.format, 'iqm');
    assert.equal(sum(info, 'triangles'), sum(sourceInfo, 'triangles'));
    assert.equal(sum(info, 'vertices'), sum(sourceInfo, 'vertices'));
    assert.deepEqual(info.joints.map((j) => j.name), sourceInfo.joints.map((j) => j.name));
    assert.deepEqual(info.animations.map((a) => a.name), sourceInfo.animations.map((a) => a.name));
    // The command opens the .iqm beside, in the model preview (its custom editor): a tab of its own.
    // (Quick Open does not list a file this new yet, so the test takes the tab the command opened.)
    const previewContributed = (manifest.contributes?.customEditors ?? []).some((e) => e.viewType === 'iqmTools.preview');
    if (!previewContributed) {
      console.log(`[ui-test] compiled ${info.meshes.length} mesh(es), ${sum(info, 'triangles')} triangles; preview of the .iqm SKIPPED (no iqmTools.preview)`);
      return;
    }
    await page.locator('.tab', { hasText: 'skinned-tube.iqm' }).first().waitFor({ timeout: 30000 });
    const selector = '#viewer[data-state="ready"][data-file="skinned-tube.iqm"]';
    const frame = await session.findFrame(selector, 60000);
    const text = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`triangles ${sum(info, 'triangles')}\\b`), text.slice(0, 600));
    // A still picture on a bent frame (moving the timeline pauses playback).
    await frame.locator('#timeline').evaluate((input) => {
      input.value = String(Math.min(5, Number(input.max)));
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.mouse.move(700, 895);
    await page.waitForTimeout(500);
    const file = await session.screenshotWebview('5-compiled-iqm-webview', selector);
    await shoot('5-compiled-iqm-beside-text');
    const { drawn, checked } = modelPixels(readPng(file));
    assert.ok(drawn > checked * 0.01, `the preview shows no model: ${drawn} of ${checked} pixels of its view area are covered (${file})`);
    console.log(`[ui-test] compiled skinned-tube.iqm (${sum(info, 'triangles')} triangles, ${info.joints.length} joints); the model covers ${drawn} of ${checked} pixels of the view area`);
  }

  /** The web run: VS Code's running-extensions view lists the extension in the web worker host. */
  async function webHostStep() {
    await page.keyboard.press('Escape');
    await runCommand('Developer: Show Running Extensions');
    const row = page.locator('.monaco-list-row', { hasText: 'IQM Tools' }).first();
    // The view lists the extensions by activation time and draws only the rows in sight: ours is
    // below the fold when others activated slower (seen on a loaded machine), so the list scrolls.
    const list = page.locator('.monaco-list', { has: page.locator('.monaco-list-row', { hasText: 'Activation' }) }).first();
    await list.waitFor({ timeout: 30000 });
    const box = await list.boundingBox();
    for (const deadline = Date.now() + 30000; !(await row.isVisible()) && Date.now() < deadline; ) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(200);
    }
    await row.waitFor({ timeout: 5000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    await shoot('6-running-extensions');
    console.log(`[ui-test] running extensions: ${text}`);
    assert.match(text, /web worker/i, `the running-extensions view does not place IQM Tools in the web worker host: ${text}`);
  }

  /** An example model opened from Quick Open: the preview draws it (pixels read back) with the command line's counts. */
  async function modelStep(file) {
    await page.keyboard.press('Escape');
    await openFile(file);
    const info = JSON.parse(spawnSync(process.execPath, [join(extensionDir, 'dist', 'cli.js'), 'info', join(session.workspace, file), '--json'], { encoding: 'utf8' }).stdout);
    const triangles = info.meshes.reduce((n, m) => n + m.triangles, 0);
    const selector = `#viewer[data-state="ready"][data-file="${file}"]`;
    const frame = await session.findFrame(selector, 60000);
    const text = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`triangles ${triangles}\\b`), text.slice(0, 600));
    await page.mouse.move(700, 895);
    const shot = await session.screenshotWebview(`7-${file.replace('.', '-')}-webview`, selector);
    const { drawn, checked } = modelPixels(readPng(shot));
    assert.ok(drawn > checked * 0.01, `the preview of ${file} shows no model: ${drawn} of ${checked} pixels of its view area are covered (${shot})`);
    console.log(`[ui-test] ${file}: ${triangles} triangles; the model covers ${drawn} of ${checked} pixels of the view area`);
  }

  /**
   * A real glTF (../shared/assets/gltf/bevy/Fox.glb, copied into the session's copy of examples/,
   * never into the repository) opened from Quick Open, in the glTF preview (its default editor): the IQM it
   * compiles to, on the host, with its embedded texture. Paused on a frame; the screenshot is
   * checked for a drawn model and, by the info panel, for the texture found inside the file.
   */
  async function gltfStep() {
    const fox = resolve(repo, '..', 'shared', 'assets', 'gltf', 'bevy', 'Fox.glb');
    if (!existsSync(fox)) {
      console.log(`[ui-test] glTF step SKIPPED: ${fox} is absent`);
      return;
    }
    copyFileSync(fox, join(session.workspace, 'Fox.glb'));
    await page.keyboard.press('Escape');
    await runCommand('View: Close All Editor Groups');
    // The default editor of .glb: opening the file shows the model (not VS Code's binary-file page).
    await openFile('Fox.glb');
    const selector = '#viewer[data-state="ready"][data-file="Fox.glb"]';
    const frame = await session.findFrame(selector, 90000);
    const text = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(text, /triangles 576\b/, text.slice(0, 600));
    assert.match(text, /joints 24\b/, text.slice(0, 600));
    // A still picture: a frame of the first clip (moving the timeline pauses playback).
    await frame.locator('#timeline').evaluate((input) => {
      input.value = String(Math.min(10, Number(input.max)));
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.mouse.move(700, 895);
    await page.waitForTimeout(1000);
    const after = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(after, /embedded in Fox\.glb/, `the texture inside Fox.glb is not used: ${after.slice(0, 800)}`);
    const shot = await session.screenshotWebview('8-gltf-fox-webview', selector);
    const { drawn, checked } = modelPixels(readPng(shot));
    assert.ok(drawn > checked * 0.01, `the preview of Fox.glb shows no model: ${drawn} of ${checked} pixels (${shot})`);
    // Not in docs/screenshots: the fox is a third party's model (CC-BY 4.0, ../shared/assets/MANIFEST.tsv).
    await shoot('8-gltf-fox');
    console.log(`[ui-test] Fox.glb as IQM: 576 triangles, 24 joints, textured from inside the file; the model covers ${drawn} of ${checked} pixels of the view area`);
    await runCommand('View: Close All Editor Groups');
  }

  /** An entry of the preview toolbar's "more" menu (media/ui/toolbar.ts: `menu-<id>`). */
  async function clickMenuItem(frame, id) {
    await frame.locator('#more').click();
    await frame.locator(`#menu-${id}`).click();
  }

  /**
   * "Convert to IQE" from the preview toolbar's menu. On the compiled skinned-tube.iqm its IQE
   * would replace skinned-tube.iqe: the question comes, and Cancel keeps the file. On the DPM
   * example the IQE is written beside it, opens in a tab, and compiles (iqm-tools compile).
   */
  async function convertStep() {
    const cli = join(extensionDir, 'dist', 'cli.js');
    const source = join(session.workspace, 'skinned-tube.iqe');
    const before = readFileSync(source, 'utf8');
    const iqmFrame = await session.findFrame('#viewer[data-state="ready"][data-file="skinned-tube.iqm"]', 60000);
    await clickMenuItem(iqmFrame, 'convert-iqe');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30000 });
    assert.match(await dialog.innerText(), /skinned-tube\.iqe already exists/);
    await shoot('6-convert-replace-question');
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
    await dialog.waitFor({ state: 'detached', timeout: 10000 });
    assert.equal(readFileSync(source, 'utf8'), before, 'Cancel keeps the existing file');

    const dpm = join(session.workspace, 'skinned-column.dpm');
    const output = join(session.workspace, 'skinned-column.iqe');
    rmSync(output, { force: true });
    await openFile('skinned-column.dpm');
    const dpmFrame = await session.findFrame('#viewer[data-state="ready"][data-file="skinned-column.dpm"]', 60000);
    await clickMenuItem(dpmFrame, 'convert-iqe');
    for (let tries = 0; tries < 300 && !existsSync(output); tries++) await page.waitForTimeout(100);
    assert.ok(existsSync(output), `${output} was not written by the toolbar's Convert to IQE`);
    await page.locator('.tab', { hasText: 'skinned-column.iqe' }).first().waitFor({ timeout: 30000 });
    const compiled = spawnSync(process.execPath, [cli, 'compile', output, '--json'], { encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const stats = JSON.parse(compiled.stdout).stats;
    const info = JSON.parse(spawnSync(process.execPath, [cli, 'info', dpm, '--json'], { encoding: 'utf8' }).stdout);
    assert.equal(stats.triangles, info.meshes.reduce((n, m) => n + m.triangles, 0));
    assert.equal(stats.joints, info.joints.length);
    assert.equal(stats.frames, info.frames);
    await shoot('7-converted-dpm');
    console.log(`[ui-test] Convert to IQE: the replace question on skinned-tube.iqm (cancelled); skinned-column.dpm -> skinned-column.iqe (${stats.triangles} triangles, ${stats.joints} joints, ${stats.frames} frames once compiled)`);
  }

  /**
   * The sidecar files are coloured by their grammars (written into the session's copy of
   * examples/, beside no model): a line with words and a comment is drawn in more than one token
   * colour. Without its grammar (left out of the package once) VS Code draws the line in one.
   */
  async function sidecarColouringStep() {
    const files = [
      ['colours.framegroups', '0 10 20 1 idle // the idle clip'],
      [join('players', 'colours', 'animation.cfg'), '0 30 0 20 // BOTH_DEATH1'],
      ['colours.skin', 'u_torso,models/colours/torso.tga // the torso'],
      [join('scripts', 'colours.shader'), 'models/colours/torso // the torso\n{\n}'],
    ];
    await cleanSlate();
    for (const [file, text] of files) {
      mkdirSync(dirname(join(session.workspace, file)), { recursive: true });
      writeFileSync(join(session.workspace, file), `${text}\n`);
    }
    const colours = [];
    for (const [file] of files) {
      const name = file.split(/[\\/]/).pop();
      await page.keyboard.press('Escape');
      await openFile(name);
      const line = page.locator('.editor-group-container.active .monaco-editor .view-line').first();
      await line.waitFor({ timeout: 30000 });
      // The grammar tokenises shortly after the text is drawn: wait for the line to be in several colours.
      let classes = [];
      for (let tries = 0; tries < 100; tries++) {
        classes = await line.evaluate((element) => [...new Set([...element.querySelectorAll('span[class^="mtk"]')].map((span) => span.className))]);
        if (classes.length > 1) break;
        await page.waitForTimeout(100);
      }
      assert.ok(classes.length > 1, `${file} is drawn in one token colour (${classes.join(', ')}): its grammar is not loaded`);
      colours.push(`${name}: ${classes.length} colours`);
    }
    await shoot('11-sidecar-colours');
    console.log(`[ui-test] sidecar grammars: ${colours.join(', ')}`);
    await cleanSlate();
  }

  /** Only one editor group with nothing open, the side bar and panel hidden. */
  async function cleanSlate() {
    await page.keyboard.press('Escape');
    await runCommand('View: Close All Editor Groups');
    await page.locator('.tab').first().waitFor({ state: 'detached', timeout: 10000 }).catch(() => {});
  }

  /** The IQE preview beside skinned-tube.iqe follows an edit that is not saved. */
  async function unsavedEditStep(previewCommand) {
    await cleanSlate();
    await openFile('skinned-tube.iqe');
    await runCommand(`${previewCommand.category}: ${previewCommand.title}`);
    const frame = await session.findFrame('#viewer[data-state="ready"][data-source-version]', 60000);
    const first = Number(await frame.locator('#viewer').getAttribute('data-source-version'));
    const before = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    // Back in the text: the first vertex, `vp 0.3 0 0`, becomes `vp 10.3 0 0` (a spike out of the tube).
    const text = readFileSync(join(session.workspace, 'skinned-tube.iqe'), 'utf8').split('\n');
    const line = text.findIndex((l) => l.startsWith('vp ')) + 1;
    await page.locator('.editor-group-container').first().click({ position: { x: 200, y: 120 } });
    await runCommand('Go to Line/Column');
    await page.keyboard.type(`${line}:4`);
    await page.keyboard.press('Enter');
    await page.keyboard.type('1');
    await frame.locator('#viewer[data-unsaved="true"]').waitFor({ timeout: 30000 });
    const drawn = Number(await frame.locator('#viewer').getAttribute('data-source-version'));
    assert.ok(drawn > first, `the preview draws version ${drawn}, after ${first}`);
    const badge = (await frame.locator('#source').innerText()).replace(/\s+/g, ' ');
    assert.match(badge, new RegExp(`version ${drawn}, unsaved · compiled in \\d+ ms`));
    // The same model (vertex and triangle counts), one vertex moved, and the file on disk untouched.
    const after = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.equal(/triangles \d+/.exec(after)?.[0], /triangles \d+/.exec(before)?.[0]);
    assert.match(readFileSync(join(session.workspace, 'skinned-tube.iqe'), 'utf8'), /^vp 0\.3 0 0$/m);
    await frame.locator('#timeline').evaluate((input) => {
      input.value = '0';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.mouse.move(700, 895);
    await page.waitForTimeout(500);
    await shoot('6-iqe-preview-unsaved-edit', { docs: 'unsaved-edit' });
    console.log(`[ui-test] the IQE preview drew unsaved version ${drawn} (opened at ${first}): ${badge}`);
    await runCommand('File: Revert File');
  }

  /** A clip that does not loop ends on its last frame with the restart button; Play plays it again. */
  async function finishedClipStep() {
    await cleanSlate();
    await openFile('skinned-tube.iqm');
    const frame = await session.findFrame('#viewer[data-state="ready"][data-file="skinned-tube.iqm"]', 60000);
    const twist = await frame.locator('#clip option', { hasText: 'twist' }).getAttribute('value');
    await frame.locator('#clip').selectOption(twist);
    if ((await frame.locator('#play').getAttribute('data-state')) !== 'playing') await frame.locator('#play').click();
    await frame.locator('#play[data-state="ended"]').waitFor({ timeout: 30000 });
    const ended = (await frame.locator('#frame').innerText()).trim();
    assert.match(ended, /\(15\/15\)/, ended);
    assert.match(await frame.locator('#play').getAttribute('title'), /Play again/);
    await page.mouse.move(700, 895);
    await shoot('7-clip-ended');
    await frame.locator('#play').click();
    await frame.locator('#play[data-state="playing"]').waitFor({ timeout: 5000 });
    await frame.locator('#play[data-state="ended"]').waitFor({ timeout: 30000 });
    await shoot('7-clip-replayed-to-the-end');
    console.log(`[ui-test] the twist clip ended (${ended}), restarted with Play and ended again`);
  }

  /** A model whose vertices have no blend weights: drawn lit, and the panel says what engines do. */
  async function unweightedStep() {
    await cleanSlate();
    await openFile('unweighted.iqm');
    const frame = await session.findFrame('#viewer[data-state="ready"][data-file="unweighted.iqm"]', 60000);
    const text = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(text, /unweighted vertices \d+ \(all: the meshes have no blend weights\): in engines' GPU skinning it collapses to the origin/);
    await page.mouse.move(700, 895);
    await page.waitForTimeout(300);
    const file = await session.screenshotWebview('8-unweighted-webview', '#viewer[data-file="unweighted.iqm"]');
    await shoot('8-unweighted');
    const { drawn, checked } = modelPixels(readPng(file));
    assert.ok(drawn > checked * 0.01, `the unweighted model is not drawn: ${drawn} of ${checked} pixels of its view area are covered`);
  }

  /** The vertex-coloured cube in three editor groups side by side: the narrow layout in each. */
  async function threeWaySplitStep() {
    await cleanSlate();
    await openFile('coloured-cube.iqm');
    await session.findFrame('#viewer[data-state="ready"][data-file="coloured-cube.iqm"]', 60000);
    // The editor title's Split button (the palette's keys would go to the focused webview).
    for (let groups = 2; groups <= 3; groups++) {
      await page.locator('.editor-group-container.active .editor-actions .codicon-split-horizontal').first().click();
      await page.waitForFunction((n) => document.querySelectorAll('.editor-group-container').length === n, groups, { timeout: 20000 });
    }
    await page.waitForTimeout(1500);
    const frame = await session.findFrame('#viewer.narrow[data-state="ready"]', 60000);
    const layout = await frame.locator('#viewer').evaluate((root) => {
      const r = (q) => root.querySelector(q).getBoundingClientRect();
      const bar = r('.controls');
      // Every visible control of the playback bar lies inside it (none cut off at the right).
      const outside = [...root.querySelectorAll('.controls > *')]
        .filter((el) => el.getClientRects().length > 0)
        .filter((el) => { const b = el.getBoundingClientRect(); return b.right > bar.right + 1 || b.left < bar.left - 1; })
        .map((el) => el.id || el.className);
      return { width: root.clientWidth, stage: r('.stage').width, row: r('.tool-row').height, controls: bar.height, barWidth: root.querySelector('.controls').clientWidth, compact: root.querySelector('.controls').classList.contains('compact'), outside, info: r('.info').top, controlsBottom: bar.bottom, colours: root.querySelector('#tool-colors').getAttribute('aria-pressed') };
    });
    assert.ok(layout.width < 620, `each group is ${layout.width}px wide`);
    assert.ok(layout.stage >= layout.width - 1, `the 3D view is ${layout.stage} of ${layout.width}px`);
    // Under 480px the playback bar is two rows (media/ui/timeline.ts): the clip menu, then the slider.
    const twoRows = layout.barWidth < 480;
    assert.equal(layout.compact, twoRows, `the playback bar is ${layout.compact ? '' : 'not '}compact at ${layout.width}px`);
    assert.ok(layout.row < 34, `toolbar ${layout.row}px high: one row`);
    assert.ok(twoRows ? layout.controls > 40 && layout.controls < 72 : layout.controls < 40, `controls ${layout.controls}px high: ${twoRows ? 'two rows' : 'one row'}`);
    assert.deepEqual(layout.outside, [], 'controls past the bar\'s edge');
    assert.ok(layout.info >= layout.controlsBottom - 1, 'the info panel is below the view');
    assert.equal(layout.colours, 'true');
    const file = await session.screenshotWebview('9-split-cube-webview', '#viewer.narrow[data-state="ready"]');
    const { drawn, checked } = modelPixels(readPng(file));
    assert.ok(drawn > checked * 0.01, `the cube is not drawn: ${drawn} of ${checked} pixels of its view area are covered`);
    await page.mouse.move(700, 895);
    await shoot('9-three-way-split', { docs: 'split' });
    console.log(`[ui-test] three-way split: each preview ${layout.width}px wide, the view ${layout.stage}px, toolbar one row, playback bar ${layout.compact ? 'two rows' : 'one row'} (${layout.controls}px)`);
  }

  /**
   * The extension's details page (Extensions view): the packaged README (scripts/package-readme.mjs)
   * for users, and no broken image. VS Code shows README images there only from https URLs; without
   * one (IQM_README_IMAGES_URL at packaging) the screenshots are captions.
   */
  async function detailsPageStep(manifest) {
    await cleanSlate();
    await runCommand('Extensions: Show Installed Extensions');
    const item = page.locator('.extensions-viewlet .monaco-list-row', { hasText: manifest.displayName }).first();
    await item.waitFor({ timeout: 30000 });
    await item.click();
    // The README's frame (the workbench page has images of its own).
    const frame = await session.findFrame('h2:has-text("Command line")', 60000);
    await frame.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 20000 });
    const images = await frame.evaluate(() => [...document.images].map((img) => ({ html: img.outerHTML.slice(0, 200), width: img.naturalWidth })));
    const broken = images.filter((i) => i.width === 0);
    const text = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
    await runCommand('View: Toggle Primary Side Bar Visibility');
    await page.mouse.move(700, 895);
    await page.waitForTimeout(500);
    await shoot('10-extension-details-page');
    assert.deepEqual(broken, [], `broken images on the details page: ${broken.map((i) => i.html).join(', ')}`);
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const pictures = (readme.match(/!\[[^\]]*\]\(docs\/screenshots\//g) ?? []).length;
    // Each screenshot is there: as a picture from an https base, or as its caption.
    assert.ok(images.length + (text.match(/Screenshot: /g) ?? []).length >= pictures, `${images.length} images and captions for ${pictures} screenshots`);
    for (const heading of ['Features', 'Settings', 'Commands', 'Command line']) assert.match(text, new RegExp(heading));
    assert.doesNotMatch(text, /npm install|npm test|npm start/, 'developer set-up on the details page');
    console.log(`[ui-test] details page: ${images.length} images (none broken), ${pictures} screenshots`);
  }

  try {
    await session.waitForWorkbench();
    if (process.argv.includes('--only-place-to-work')) {
      // Only the steps of place-to-work.mjs (a quicker run while working on them).
      const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
      const previewCommand = manifest.contributes.commands.find((c) => c.command === 'iqmTools.openPreviewToSide');
      const steps = { session, page, shoot, openFile, runCommand, cleanSlate, modelPixels, previewCommand, extensionDir };
      await clickToLineStep(steps);
      await compareStep(steps);
      console.log('[ui-test] PASSED (place-to-work steps only)');
      return 0;
    }
    if (process.argv.includes('--only-sidecar-colours')) {
      await sidecarColouringStep();
      console.log('[ui-test] PASSED (sidecar colours only)');
      return 0;
    }
    await openFile('planted-errors.iqe');

    // The file is recognised as IQE: the status bar's language mode shows the language's name.
    await page.locator('.statusbar-item', { hasText: 'Inter-Quake Export' }).first().waitFor({ timeout: 30000 });

    // The language server's errors are drawn as squiggles in the editor.
    await page.waitForSelector('.monaco-editor .squiggly-error', { timeout: 60000 });
    const squiggles = await page.locator('.monaco-editor .squiggly-error').count();
    assert.ok(squiggles >= errors, `${squiggles} error squiggles for ${errors} errors`);
    await shoot('1-planted-errors-editor');

    // Hover on the bad face index: the problem (with its code) and the server's own hover for the
    // token, which says what the index resolves to.
    const bad = expected.find((d) => d.code === 'face-index-range');
    await runCommand('Go to Line/Column');
    await page.keyboard.type(`${bad.line}:${bad.column}`);
    await page.keyboard.press('Enter');
    await runCommand('Show or Focus Hover');
    const hover = page.locator('.monaco-hover', { hasText: 'face-index-range' }).first();
    await hover.waitFor({ timeout: 30000 });
    let hoverText = '';
    for (let tries = 0; tries < 100 && !/resolves to no vertex/.test(hoverText); tries++) {
      hoverText = (await page.locator('.monaco-hover').allInnerTexts()).join(' ').replace(/\s+/g, ' ');
      if (!/resolves to no vertex/.test(hoverText)) await page.waitForTimeout(100);
    }
    assert.match(hoverText, /Face index resolves to vertex 7/);
    assert.match(hoverText, /resolves to no vertex/, `hover: ${hoverText}`);
    await shoot('2-hover-on-problem');
    // For the README: the hover and the lines around it, from the editor's left edge.
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    const hoverBox = page.locator('.monaco-hover').first();
    await shoot('2-hover-on-problem-detail', { docs: 'hover', clip: await clipBeside(editor, hoverBox, { above: 60, below: 90, margin: 24 }) });
    await page.keyboard.press('Escape');

    // The Problems panel lists them, each with its code ("iqe(face-index-range)").
    await runCommand('View: Focus Problems');
    const panel = page.locator('.markers-panel');
    await panel.locator('.monaco-list-row', { hasText: 'face-index-range' }).first().waitFor({ timeout: 30000 });
    await page.mouse.move(700, 895); // off the editor and the list, so that their scroll bars fade
    await shoot('3-editor-and-problems', { docs: 'diagnostics' });
    // Maximise the panel so that every entry is rendered (the list is virtual) and readable on the screenshot.
    await runCommand('View: Toggle Maximized Panel');
    let text = '';
    for (let tries = 0; tries < 100; tries++) {
      text = (await panel.innerText()).replace(/\s+/g, ' ');
      if (codes.every((code) => listed(text, code))) break;
      await page.waitForTimeout(100);
    }
    for (const code of codes) assert.ok(listed(text, code), `Problems panel has no 'iqe(${code})': ${text.slice(0, 2000)}`);
    assert.match(text, /planted-errors\.iqe/);
    assert.match(text, /Face index resolves to vertex 7/);
    await shoot('3-problems-panel');

    // The file's row counts its problems: as many as the command line reports.
    const fileRow = panel.locator('.monaco-list-row', { hasText: 'planted-errors.iqe' }).first();
    const count = (await fileRow.locator('.monaco-count-badge').first().innerText()).trim();
    assert.equal(count, String(expected.length), `Problems panel counts ${count}, iqm-tools check reports ${expected.length}`);
    console.log(`[ui-test] ${squiggles} error squiggles; Problems panel: ${count} problems, codes ${codes.join(' ')}`);
    // The model preview beside the text, from the command palette, on the animated example.
    const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
    const previewCommand = (manifest.contributes?.commands ?? []).find((c) => c.command === 'iqmTools.openPreviewToSide');
    if (!previewCommand) {
      console.log('[ui-test] preview step SKIPPED: package.json contributes no iqmTools.openPreviewToSide yet');
    } else {
      const info = JSON.parse(spawnSync(process.execPath, [join(extensionDir, 'dist', 'cli.js'), 'info', join(examples, 'skinned-tube.iqe'), '--json'], { encoding: 'utf8' }).stdout);
      const triangles = info.meshes.reduce((n, m) => n + m.triangles, 0);
      await page.keyboard.press('Escape');
      await openFile('skinned-tube.iqe');
      // Room for the text and the preview side by side: no panel, no side bar.
      await runCommand('View: Hide Panel');
      await runCommand('View: Toggle Primary Side Bar Visibility');
      await runCommand(`${previewCommand.category}: ${previewCommand.title}`);
      const frame = await session.findFrame('#viewer[data-state="ready"]', 60000);
      const viewer = { file: await frame.locator('#viewer').getAttribute('data-file'), text: await frame.locator('body').innerText() };
      assert.equal(viewer.file, 'skinned-tube.iqe');
      assert.match(viewer.text.replace(/\s+/g, ' '), new RegExp(`triangles ${triangles}\\b`), viewer.text.slice(0, 600));
      assert.match(viewer.text.replace(/\s+/g, ' '), new RegExp(`joints ${info.joints.length}\\b`));
      // A still picture: stop the animation on a frame where the tube bends (moving the timeline
      // pauses playback), and move the pointer off the tabs so that no tooltip shows.
      await frame.locator('#timeline').evaluate((input) => {
        input.value = String(Math.min(5, Number(input.max)));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
      assert.equal(await frame.locator('#play').getAttribute('data-state'), 'paused');
      await page.mouse.move(700, 895);
      await page.waitForTimeout(500);
      await session.screenshotWebview('4-preview-webview', '#viewer[data-state="ready"]');
      await shoot('4-preview-beside-text', { docs: 'preview' });
      console.log(`[ui-test] preview ready: ${triangles} triangles, ${info.joints.length} joints`);
    }

    // Compile from the command palette: the .iqm is written beside the .iqe (in the session's copy
    // of examples/) and opens in the model preview.
    const compileCommand = (manifest.contributes?.commands ?? []).find((c) => c.command === 'iqmTools.compile');
    if (!compileCommand) {
      console.log('[ui-test] compile step SKIPPED: package.json contributes no iqmTools.compile yet');
    } else {
      await compileStep(compileCommand, manifest);
      if ((manifest.contributes?.commands ?? []).some((c) => c.command === 'iqmTools.convertToIqe')) await convertStep();
      else console.log('[ui-test] convert step SKIPPED: package.json contributes no iqmTools.convertToIqe yet');
    }

    if (web) {
      await webHostStep();
      for (const file of ['bending-pyramid.md3', 'skinned-column.dpm']) await modelStep(file);
    }
    await gltfStep();

    if (previewCommand) {
      await unsavedEditStep(previewCommand);
      await finishedClipStep();
      await unweightedStep();
      await threeWaySplitStep();
      const steps = { session, page, shoot, openFile, runCommand, cleanSlate, modelPixels, previewCommand, extensionDir };
      await clickToLineStep(steps);
      await compareStep(steps);
    }
    await sidecarColouringStep();
    if (!development) await detailsPageStep(manifest);

    console.log('[ui-test] PASSED');
    return 0;
  } catch (error) {
    console.error('[ui-test] FAILED', error);
    await shoot('failure').catch(() => {});
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

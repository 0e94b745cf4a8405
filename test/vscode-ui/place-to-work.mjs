// UI steps of the preview as a place to work (run by ui-test.mjs, in the same session):
//  - click-to-line: a click on the IQE preview of skinned-tube.iqe puts the text's cursor on the
//    face line of the clicked triangle (checked against the file: the line is an `fm`, and the
//    `vp` lines the info panel names are the ones its indices resolve to); the cursor on a `vp`
//    line highlights that vertex in the preview.
//  - comparison: "IQM Tools: Compare with…" from the palette on skinned-tube.iqm and a variant
//    (a joint renamed, a vertex moved, compiled by dist/cli.js): both side by side in one diff
//    editor, the list of differences equal to `iqm-tools diff --json`, the camera and the clip
//    of one side followed by the other. ("Open Changes" needs the git extension, which the
//    harness turns off; the in-editor suite pairs the two sides of a diff editor instead.)
// Screenshots go to the output folder; two to docs/screenshots (click-to-line.png, compare.png).
/* global document, Event -- used only in functions that run in the page */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPng } from './png.mjs';

/** The lines a face line's indices resolve to (fa absolute, fm from the last mesh, negative from the vp count so far): an independent oracle. */
function faceVertexLines(text, faceLine) {
  const lines = text.split(/\r\n|\r|\n/);
  const vp = [];
  let base = 0;
  for (let l = 0; l < faceLine; l++) {
    const word = lines[l].trim().split(/\s+/)[0];
    if (word === 'vp') vp.push(l);
    else if (word === 'mesh') base = vp.length;
  }
  const [command, ...indices] = lines[faceLine].trim().split(/\s+/);
  return indices.map(Number).map((i) => vp[i < 0 ? vp.length + i : command === 'fm' ? base + i : i]);
}

/** The line of the text editor's cursor (0-based): its active line number (the preview keeps the focus, so the status bar has no Ln/Col). */
async function cursorLine(page) {
  const number = page.locator('.editor-group-container .monaco-editor .line-numbers.active-line-number').first();
  if ((await number.count()) === 0) return -1;
  return Number((await number.innerText()).trim()) - 1;
}

/** Sets the timeline to a frame (pauses playback). */
async function still(frame, at = 0) {
  await frame.locator('#timeline').evaluate((input, value) => {
    input.value = String(Math.min(value, Number(input.max)));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, at);
}

/** A point of the canvas where the model is drawn (a pixel that is not the background), in page coordinates. */
async function pointOnModel(session, frame, shotName, modelPixels) {
  const file = await session.screenshotWebview(shotName, '#viewer[data-state="ready"]');
  const picture = readPng(file);
  const { drawn } = modelPixels(picture);
  assert.ok(drawn > 0, 'the model is drawn');
  // (Playwright gives the box of an element in a frame in the page's coordinates.)
  const canvas = await frame.locator('canvas').first().boundingBox();
  // The centre of the canvas, where the examples are framed: the click goes there.
  return { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
}

export async function clickToLineStep({ session, page, shoot, openFile, runCommand, cleanSlate, modelPixels, previewCommand }) {
  await cleanSlate();
  await openFile('skinned-tube.iqe');
  await runCommand(`${previewCommand.category}: ${previewCommand.title}`);
  const selector = '#viewer[data-state="ready"][data-file="skinned-tube.iqe"][data-source-map]';
  const frame = await session.findFrame(selector, 60000);
  await still(frame, 0);
  await page.waitForTimeout(300);
  const point = await pointOnModel(session, frame, '11-click-to-line-before-webview', modelPixels);
  await page.mouse.click(point.x, point.y);
  const picked = await frame.waitForSelector('#viewer[data-picked]', { timeout: 30000 });
  const triangle = Number(await picked.getAttribute('data-picked'));
  // The webview names the triangle at once; its source lines come in the host's answer
  // (pickedSource), a round trip later: wait for them before reading the panel.
  await frame.locator('#pick-info .source-lines').waitFor({ timeout: 30000 });
  const info = await frame.locator('#pick-info').innerText();
  assert.match(info, new RegExp(`triangle ${triangle}\\b`), info);
  assert.match(info, /of mesh \d+ '[^']*', material '/, info);
  // The text's cursor moved to the face line (the preview keeps the focus).
  const text = readFileSync(join(session.workspace, 'skinned-tube.iqe'), 'utf8');
  const lines = text.split(/\r\n|\r|\n/);
  let line = -1;
  for (const deadline = Date.now() + 30000; Date.now() < deadline; ) {
    line = await cursorLine(page);
    if (/^\s*f[am]\s/.test(lines[line] ?? '')) break;
    await page.waitForTimeout(100);
  }
  assert.match(lines[line], /^\s*f[am]\s/, `the cursor is on line ${line + 1}: '${lines[line]}'`);
  assert.match(info, new RegExp(`line ${line + 1}\\b`), `the info panel names the face line ${line + 1}: ${info}`);
  const named = [...info.matchAll(/vp (?:on )?lines? ([\d, ]+)/g)].flatMap((m) => m[1].split(/[ ,]+/).filter(Boolean).map(Number));
  const resolved = faceVertexLines(text, line).map((l) => l + 1);
  assert.equal(named.length, 3, info);
  for (const l of named) assert.ok(resolved.includes(l), `vp line ${l} is not one the face's indices resolve to (${resolved})`);
  // The face and vp lines are marked in the editor.
  await page.locator('.monaco-editor .view-overlays div[class*="ced-"]').first().waitFor({ timeout: 10000 }).catch(() => {});
  await page.mouse.move(700, 895);
  await page.waitForTimeout(300);
  await shoot('11-click-to-line', { docs: 'click-to-line' });
  console.log(`[ui-test] click-to-line: triangle ${triangle} -> line ${line + 1} '${lines[line].trim()}', vp lines ${named.join(', ')}`);

  // The cursor on a vp line: the vertex is highlighted in the preview.
  const vpLine = named[0];
  await page.locator('.editor-group-container .monaco-editor').first().click({ position: { x: 200, y: 10 } });
  await runCommand('Go to Line/Column');
  await page.keyboard.type(`${vpLine}:1`);
  await page.keyboard.press('Enter');
  const highlighted = await frame.waitForSelector('#viewer[data-highlight^="vertices:"]', { timeout: 30000 });
  const highlight = await highlighted.getAttribute('data-highlight');
  console.log(`[ui-test] cursor on line ${vpLine} ('${lines[vpLine - 1].trim()}'): the preview highlights ${highlight}`);
  await page.mouse.move(700, 895);
  await page.waitForTimeout(300);
  await shoot('12-cursor-highlights-vertex');
}

/** A variant of skinned-tube.iqe: a joint renamed and a vertex moved, compiled beside it. */
function writeVariant(workspace, cli) {
  const text = readFileSync(join(workspace, 'skinned-tube.iqe'), 'utf8');
  const joint = /^joint "?([^"\s]+)"? /m.exec(text)[1];
  const vp = /^vp .*$/m.exec(text)[0];
  const variant = text.replace(/^joint "?[^"\s]+"? /m, (m) => m.replace(joint, `${joint}_renamed`)).replace(vp, 'vp 0.6 0 0.1');
  writeFileSync(join(workspace, 'skinned-tube-variant.iqe'), variant);
  for (const name of ['skinned-tube', 'skinned-tube-variant']) {
    const result = spawnSync(process.execPath, [cli, 'compile', join(workspace, `${name}.iqe`), '-o', join(workspace, `${name}.iqm`)], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  }
  return joint;
}

/** The differences the webview lists, as `section: message` lines. */
async function listed(frame) {
  await frame.waitForSelector('#compare-list[data-state="done"]', { timeout: 60000 });
  return (await frame.locator('#compare-list li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

export async function compareStep({ session, page, shoot, openFile, runCommand, cleanSlate, extensionDir }) {
  const cli = join(extensionDir, 'dist', 'cli.js');
  const workspace = session.workspace;
  writeVariant(workspace, cli);
  const a = join(workspace, 'skinned-tube.iqm');
  const b = join(workspace, 'skinned-tube-variant.iqm');
  const expected = JSON.parse(spawnSync(process.execPath, [cli, 'diff', a, b, '--json'], { encoding: 'utf8' }).stdout).differences.map((d) => `${d.section}: ${d.message}`);
  assert.ok(expected.length > 0);
  await cleanSlate();
  await openFile('skinned-tube.iqm');
  // Its page loaded first: a preview takes the focus when it loads, which closes the palette (workbench.mjs).
  await session.findFrame('#viewer[data-state="ready"][data-file="skinned-tube.iqm"]', 60000);
  await runCommand('IQM Tools: Compare with…');
  await page.keyboard.type('skinned-tube-variant.iqm');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'skinned-tube-variant.iqm' }).first().click({ timeout: 30000 });
  const left = await session.findFrame('#viewer[data-state="ready"][data-file="skinned-tube.iqm"][data-compare="left"]', 60000);
  const right = await session.findFrame('#viewer[data-state="ready"][data-file="skinned-tube-variant.iqm"][data-compare="right"]', 60000);
  const shown = await listed(left);
  assert.deepEqual(shown, expected, 'the list is what iqm-tools diff finds');
  assert.deepEqual(await listed(right), expected);
  const camera = async (frame) => frame.locator('#viewer').getAttribute('data-camera');
  const loads = async (frame) => frame.locator('#viewer').getAttribute('data-loads');
  // Paired, the right side takes the left one's camera.
  const synced = async () => {
    for (const deadline = Date.now() + 30000; Date.now() < deadline; await page.waitForTimeout(100)) {
      const l = await camera(left);
      if (l !== null && l === (await camera(right))) return l;
    }
    return null;
  };
  assert.ok(await synced(), `the cameras when paired: left ${await camera(left)}, right ${await camera(right)} (loads: left ${await loads(left)}, right ${await loads(right)})`);
  // The camera: a drag in the left view turns the right one the same way.
  await still(left, 3);
  const canvas = await left.locator('canvas').first().boundingBox();
  const x = canvas.x + canvas.width / 2, y = canvas.y + canvas.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 80, y + 20, { steps: 5 });
  await page.mouse.up();
  // (Each side posts its view to the other through the extension host, coalesced over 30 ms:
  // generous waits for a loaded machine and the web worker host.)
  let leftCamera = await camera(left);
  for (const deadline = Date.now() + 30000; Date.now() < deadline && (await camera(right)) !== leftCamera; ) {
    await page.waitForTimeout(100);
    leftCamera = await camera(left);
  }
  assert.equal(await camera(right), leftCamera, `the right camera follows the left one (loads: left ${await loads(left)}, right ${await loads(right)})`);
  // The clip and the frame follow too.
  const clips = await left.locator('#clip option').allInnerTexts();
  if (clips.length > 1) {
    await left.locator('#clip').selectOption({ index: 1 });
    await still(left, 4);
    // The frame label is redrawn by the frame loop, after the scrub: wait for the left side's own
    // label of the frame set before comparing the right one with it. The label's title is the whole
    // label (a narrow bar shows only "3/15": media/ui/timeline.ts).
    const at = Number(await left.locator('#timeline').inputValue());
    await left.waitForFunction(
      ([name, shown]) => document.querySelector('#clip').selectedOptions[0]?.textContent === name && document.querySelector('#frame').title.includes(`(${shown}/`),
      [clips[1], at + 1],
      { timeout: 30000 },
    );
    const frameText = await left.locator('#frame').getAttribute('title');
    await right.waitForFunction((name) => document.querySelector('#clip').selectedOptions[0]?.textContent === name, clips[1], { timeout: 30000 });
    await right.waitForFunction((t) => document.querySelector('#frame').title === t, frameText, { timeout: 30000 });
  }
  await page.mouse.move(700, 895);
  await page.waitForTimeout(500);
  await shoot('13-compare', { docs: 'compare' });
  console.log(`[ui-test] compare: ${shown.length} differences listed on both sides (as iqm-tools diff), camera and clip synced (loads: left ${await left.locator('#viewer').getAttribute('data-loads')}, right ${await right.locator('#viewer').getAttribute('data-loads')})`);
}

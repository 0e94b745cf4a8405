// Without WebGL2 (here: Chromium started with --disable-webgl) the preview says so in words and
// still describes the file in the info panel; it never shows a blank or black panel.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAsset, openSession, screenshotPath, skipReason, type Session } from './harness';

const skip = skipReason();
let s: Session;

before(async () => {
  if (!skip) s = await openSession({ width: 800, height: 600 }, new Map(), ['--disable-webgl']);
});
after(async () => {
  if (s) await s.close();
});

test('no WebGL2: a readable message, and the info panel still lists the model', { skip }, async () => {
  assert.equal(await loadAsset(s, 'iqm/mrfixit/mrfixit.iqm', { waitTextures: false }), 'error');
  assert.match((await s.page.textContent('.error-view')) ?? '', /WebGL2 is not available/);
  assert.match((await s.page.textContent('#info')) ?? '', /mrfixit\.iqm.*IQM version 2/s);
  await s.page.screenshot({ path: screenshotPath('no-webgl2') });
});

// Without WebGL2 (here: Chromium started with --disable-webgl) the preview says so in words and
// still describes the file in the info panel; it never shows a blank or black panel.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkEngine } from '../../core/engines/check';
import { factsFromModel } from '../../core/engines/facts';
import { findEngine } from '../../core/engines/index';
import { engineReport } from '../../core/engines/report';
import { readModel } from '../../core/formats/models';
import { md3 } from '../helpers/engine-models';
import { loadAsset, loadGenerated, openSession, screenshotPath, skipReason, type Session } from './harness';

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

test('the info panel lists the engine findings the host sends (iqmTools.engine), even without WebGL2', { skip }, async () => {
  // The host's work, done here with the same core functions: a 1000-vertex MD3 surface under ioquake3.
  const bytes = md3({ vertices: 1000 });
  const engine = findEngine('ioquake3')!;
  const findings = checkEngine(factsFromModel(readModel(bytes), bytes), engine);
  await loadGenerated(s, 'big.md3', bytes, engineReport(findings, [engine], []));
  const text = (await s.page.textContent('#info')) ?? '';
  assert.match(text, /Engines: ioquake3 \(1 refused, 0 changed, 0 notes\)/);
  assert.match(text, /ioquake3: surface 0 "surface0" has 1,000 vertices, over 999 \(surface 0 "surface0", byte 164\) \[md3-surface-vertices\]/);
  assert.match(text, /tr_model\.c:454 @2ca05943/);
});

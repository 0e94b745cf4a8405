// Every skinned, animated glTF sample of ../shared/assets/gltf in the preview, in Chromium: the
// IQM our compile makes of it (as the host's compile worker makes it for "glTF as IQM Preview")
// loads, is drawn in its bind pose and paused in every animation, and moves: the positions the GPU
// skins (transform feedback) a quarter, half or three quarters through each animation differ from its first.
// Upright: a standing character's compiled bind pose is tallest along Z (Z-up); the exact axis
// conversion is the sampling test's (test/unit/gltf-sampling.test.ts, against the specification).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile } from '../../core/compile/index';
import { readModel } from '../../core/formats/models';
import { openForCompile } from '../../cli/compileOne';
import { loadGenerated, openSession, pixelStats, type PageGlobals, settle, skipReason, still, type Session } from './harness';

const GLTF = resolve('..', 'shared', 'assets', 'gltf');
/** The skinned, animated samples (MANIFEST.tsv); `standing`: a character whose height is its longest side. */
const SAMPLES = [
  { file: 'bevy/SimpleSkin.gltf', standing: true },
  { file: 'bevy/Fox.glb', standing: false },
  { file: 'raylib/RiggedFigure.glb', standing: true },
  { file: 'raylib/Wizard.glb', standing: true },
  { file: 'raylib/girl.glb', standing: true },
];

const skip = skipReason() || (existsSync(GLTF) ? false : `${GLTF} is absent (the shared glTF samples)`);
let s: Session;

before(async () => {
  if (skip) return;
  s = await openSession();
});
after(async () => {
  if (s) await s.close();
});

interface ViewerInternals {
  captureFrame(frame: number): Float32Array;
  changed(): void;
  state: { cull: boolean };
}

/**
 * Both faces drawn: SimpleSkin is one flat, one-sided strip facing glTF's +Z (IQM's -Y), which the
 * default camera sees from behind; winding is the reader test's, not this one's.
 */
async function noCulling(s: Session): Promise<void> {
  await s.page.evaluate(() => {
    const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as ViewerInternals;
    v.state.cull = false;
    v.changed();
  });
  await settle(s.page);
}

for (const sample of SAMPLES) {
  test(`glTF in the preview: ${sample.file} is drawn and every animation moves it`, { skip }, async () => {
    const source = await openForCompile(join(GLTF, sample.file));
    assert.ok(typeof source !== 'string', String(source));
    const result = compile([source]);
    const errors = result.diagnostics.filter((d) => d.diagnostic.severity === 'error');
    assert.equal(errors.length, 0, errors.map((e) => e.diagnostic.message).join('\n'));
    assert.ok(result.bytes, 'no IQM written');
    const model = readModel(result.bytes);
    assert.ok(model.clips.length > 0, 'no animation compiled');

    if (sample.standing && model.bounds) {
      // Bind-pose box of the first frame's bounds: [minX, minY, minZ, maxX, maxY, maxZ, ...].
      const b = model.bounds;
      const [dx, dy, dz] = [b[3] - b[0], b[4] - b[1], b[5] - b[2]];
      assert.ok(dz > dx && dz > dy, `not upright in Z: extents x ${dx}, y ${dy}, z ${dz}`);
    }

    const name = sample.file.replace(/^.*\//, '') + '.iqm';
    assert.equal(await loadGenerated(s, name, result.bytes), 'ready');
    await still(s.page, -1);
    await noCulling(s);
    const bind = await pixelStats(s.page);
    assert.ok(bind.covered > 0.005, `the bind pose covers ${bind.covered} of the view`);

    for (let c = 0; c < model.clips.length; c++) {
      const clip = model.clips[c];
      // A quarter, half and three quarters through: a clip may pass its first pose again midway.
      const later = [1, 2, 3].map((q) => clip.firstFrame + Math.floor((clip.frameCount * q) / 4));
      const moved = await s.page.evaluate(
        ({ first, later }) => {
          const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as ViewerInternals;
          const a = v.captureFrame(first);
          let most = 0;
          for (const frame of later) {
            const b = v.captureFrame(frame);
            for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i] - b[i]));
          }
          return most;
        },
        { first: clip.firstFrame, later },
      );
      assert.ok(moved > 1e-4, `${clip.name}: the GPU-skinned vertices at frames ${later.join(', ')} equal those at ${clip.firstFrame} (largest difference ${moved})`);
      await still(s.page, c);
      await noCulling(s);
      const drawn = await pixelStats(s.page);
      assert.ok(drawn.covered > 0.005, `${clip.name}: the model covers ${drawn.covered} of the view`);
    }
  });
}

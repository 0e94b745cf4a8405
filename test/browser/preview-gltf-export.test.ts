// glTF out (issue 32) in the preview, in Chromium: the preview draws a model's glTF export (as
// "glTF as IQM Preview" draws a .glb: compiled by our glTF input) as it draws the model itself:
// the bind pose and the first frame of each of its first clips, with the same camera, give the
// same picture (from the model's camera). One model or source per format from ../shared/assets. Textures are left out on
// both sides (the export's embedded images are the glTF unit tests'): the preview's checker shows.
// Differences allowed: pixels on the model's edges, where positions that went through float32 (and
// 16-bit animation channels) move a silhouette by a fraction of a pixel: at most 1.5% of the
// pixels the model covers, and the covered area within 1.5% of itself.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../core/compile/index';
import { detectFormat, FORMATS } from '../../core/formats/registry';
import { readModel } from '../../core/formats/models';
import { openForCompile } from '../../cli/compileOne';
import { ASSETS } from '../helpers/model-assets';
import { findSidecars, type Sidecars } from '../../core/lookup/sidecars';
import { nodeFileAccess } from '../../node/files';
import { withTempDir } from '../helpers/temp-dir';
import { loadGenerated, openSession, type PageGlobals, screenshotPath, settle, skipReason, still, type Session } from './harness';

/** One per format: a binary model (IQM, DPM) as the preview reads it, a source as the host compiles it. */
const MODELS = ['iqm/mrfixit/mrfixit.iqm', 'dpm/nexuiz/grunt.dpm', 'md5/bob/Bob.md5mesh', 'smd/nexuiz/grunt.smd', 'iqe/unvanquished/rocket.iqe', 'obj/tinyobjloader/cornell_box.obj'];
/** Clips compared after the bind pose (their first frames). */
const CLIPS = 2;
const EDGE_FRACTION = 0.015;

const skip = skipReason() || (existsSync(ASSETS) ? false : `${ASSETS} is absent (the shared models)`);
let s: Session;

before(async () => {
  if (skip) return;
  s = await openSession({ width: 480, height: 360 });
});
after(async () => {
  if (s) await s.close();
});

/** The IQM the compile writes of a source (as the preview's host compiles it), or the error. */
async function compiled(path: string): Promise<Uint8Array> {
  const source = await openForCompile(path);
  if (typeof source === 'string') throw new Error(`${path}: ${source}`);
  const result = compile([source]);
  if (!result.bytes) throw new Error(`${path} does not compile: ${result.diagnostics.map((d) => d.diagnostic.message).join('; ')}`);
  return result.bytes;
}

/** The canvas's RGBA pixels (bottom row first, as readPixels gives them). */
async function pixels(): Promise<Uint8Array> {
  const data = await s.page.evaluate(() => {
    const canvas = (globalThis as unknown as PageGlobals).document.getElementById('view');
    if (!canvas) throw new Error('no canvas');
    const gl = canvas.getContext('webgl2');
    const px = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
    gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, 0x1908 /* RGBA */, 0x1401 /* UNSIGNED_BYTE */, px);
    return Array.from(px);
  });
  return Uint8Array.from(data);
}

/** The viewer's camera, saved and restored as a saved view is (private to the viewer: its state() and restoreCamera). */
interface CameraInternals {
  camera: { state(): unknown };
  restoreCamera(c: unknown): void;
  changed(): void;
}

/**
 * Pictures of the bind pose and the first frame of each of the first `clips` clips, each framed as
 * the preview frames it, or from `cameras` (the model's: formats differ in the side the preview
 * looks at first, DPM's front is +X); the cameras used are returned.
 */
async function pictures(name: string, bytes: Uint8Array, clips: number, sidecars: Sidecars | undefined, cameras: unknown[] = []): Promise<{ pixels: Uint8Array[]; cameras: unknown[]; clipNames: string[] }> {
  assert.equal(await loadGenerated(s, name, bytes, undefined, sidecars), 'ready', `${name} is not drawn`);
  // The clip menu as listed (name and frame count), the bind pose first.
  const clipNames = (await s.page.$$eval('#clip option', (o) => o.map((x) => x.textContent ?? ''))).slice(0, clips + 1);
  const out: Uint8Array[] = [];
  const used: unknown[] = [];
  for (let clip = -1; clip < clips; clip++) {
    await still(s.page, clip);
    used.push(
      await s.page.evaluate((camera) => {
        const v = (globalThis as unknown as PageGlobals).iqmPreview as unknown as CameraInternals;
        if (camera !== null) v.restoreCamera(camera);
        v.changed();
        return v.camera.state();
      }, cameras[clip + 1] ?? null),
    );
    await settle(s.page);
    out.push(await pixels());
  }
  return { pixels: out, cameras: used, clipNames };
}

/** [pixels that differ, pixels covered in a, in b]: covered = not the background (the first pixel's colour: a corner). */
function compare(a: Uint8Array, b: Uint8Array): [number, number, number] {
  const far = (p: Uint8Array, i: number, q: Uint8Array, j: number) => Math.abs(p[i] - q[j]) + Math.abs(p[i + 1] - q[j + 1]) + Math.abs(p[i + 2] - q[j + 2]) > 24;
  let different = 0, coveredA = 0, coveredB = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (far(a, i, b, i)) different++;
    if (far(a, i, a, 0)) coveredA++;
    if (far(b, i, b, 0)) coveredB++;
  }
  return [different, coveredA, coveredB];
}

for (const rel of MODELS) {
  test(`the preview draws the glTF export of ${rel} as it draws the model`, { skip }, async () => {
    const path = join(ASSETS, rel);
    const bytes = new Uint8Array(readFileSync(path));
    const format = detectFormat(bytes, path);
    const original = FORMATS[format].role === 'model' ? bytes : await compiled(path);
    const clips = Math.min(CLIPS, readModel(original).clips.length);
    const exported = await withTempDir('gltf-export-', async (dir): Promise<Uint8Array> => {
      const glb = join(dir, 'export.glb');
      const run = spawnSync(process.execPath, ['dist/cli.js', 'convert', path, '-o', glb], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      return compiled(glb);
    });
    assert.equal(readModel(exported).clips.length >= clips, true, 'the export has fewer clips');
    const stem = rel.replace(/^.*\//, '');
    // The model with its sidecars (a DPM's .framegroups names its clips) as the preview opens it;
    // the export has them inside.
    const sidecars = FORMATS[format].role === 'model' ? await findSidecars(nodeFileAccess, path, format === 'md3') : undefined;
    const before = await pictures(stem, original, clips, sidecars);
    const after = await pictures(`${stem}.glb`, exported, clips, undefined, before.cameras);
    assert.deepEqual(after.clipNames, before.clipNames, 'the clips compared are not the same');
    for (let i = 0; i < before.pixels.length; i++) {
      const [different, coveredA, coveredB] = compare(before.pixels[i], after.pixels[i]);
      const what = i === 0 ? 'the bind pose' : `clip ${i - 1}'s first frame`;
      assert.ok(coveredA > 500, `${what}: the model covers ${coveredA} pixels`);
      if (different > EDGE_FRACTION * coveredA || Math.abs(coveredA - coveredB) > EDGE_FRACTION * coveredA) {
        // Both pictures, to look at.
        const shots: string[] = [];
        for (const [side, model] of [['model', original], ['export', exported]] as const) {
          await loadGenerated(s, `${stem}.${side}`, model, undefined, side === 'model' ? sidecars : undefined);
          await still(s.page, i - 1);
          await s.page.evaluate((camera) => (globalThis as unknown as PageGlobals).iqmPreview && ((globalThis as unknown as PageGlobals).iqmPreview as unknown as CameraInternals).restoreCamera(camera), before.cameras[i]);
          await settle(s.page);
          shots.push(screenshotPath(`gltf-export-${stem}-${i}-${side}`));
          await s.page.screenshot({ path: shots[shots.length - 1] });
        }
        assert.fail(`${what}: ${different} of the ${coveredA} pixels the model covers differ (the export covers ${coveredB}): ${shots.join(', ')}`);
      }
    }
  });
}

// The validator on every real model (IQM, MD3, DPM) of ../shared/assets: no false error, and each warning it gives
// is a property of that file, named here with what it is (checked by hand when it was added).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateModel } from '../../core/validate/index';
import { IQM_HEADER } from '../../core/iqm/layout';
import { asset, modelAssets, NO_ASSETS } from '../helpers/model-assets';

/** Per file: the codes of its errors and warnings (informations are not listed). */
const EXPECTED: Record<string, { errors?: string[]; warnings?: string[] }> = {
  // 3 vertex tangents of length 0 (4,779 of them, exported as (0, 0, 0, w)).
  'iqm/excessive/ld36_bird.iqm': { warnings: ['iqm-tangent-unit'] },
  // The assimp regression file: a mesh table past the end of a header-only file.
  'iqm/invalid/InvalidMeshOffset.iqm': { errors: ['iqm-block-out-of-file'] },
  // Written by FTE's exporter: tables at odd offsets (173, 197), and an adjacency whose entries
  // name triangles without the edge (3,314 of 8,700 entries; its entry 0 matches edges 0, 1 and 2 alike).
  'iqm/nuclide/logo.iqm': { warnings: ['iqm-adjacency-mismatch', 'iqm-block-misaligned'] },
  // 20 tangents of length 0 in mesh "GunLowPoly".
  'iqm/redeclipse/rifle.iqm': { warnings: ['iqm-tangent-unit'] },
  // Every frame's stored box sits 1.5 units above the skinned vertices in z (x and y agree to 0.01:
  // model-dpm.test.ts), and in 101 of the 441 frames the radius falls short by up to 1.14 units;
  // mesh 0's triangles 1372 and 1373 repeat 1366 and 1367.
  'dpm/nexuiz/grunt.dpm': { warnings: ['dpm-bounds-contain', 'dpm-bounds-radius', 'dpm-triangle-duplicate'] },
  // 267 of its 271 frames store all-zero bounds (box and radii) for a model about 2 units wide.
  'dpm/nexuiz/h_chainsaw.dpm': { warnings: ['dpm-bounds-contain', 'dpm-bounds-radius'] },
  // Its one frame's box (-34 -24 -8 .. 23 0 7) is not where its vertices are (-25 -5.5 8 .. 32 4.8 23),
  // its radius 40.4 short of 42.9; triangles 1210 and 1211 repeat 1075 and 1074; its surface 0 has
  // 1,408 vertices, past ioquake3's 999 (a Nexuiz model: DarkPlaces has no such limit).
  'md3/chainsaw/g_chainsaw.md3': { warnings: ['md3-bounds-contain', 'md3-bounds-radius', 'md3-surface-renderer-limit', 'md3-triangle-duplicate'] },
  // Triangle 267 of surface 0 repeats triangle 139.
  'md3/unvanquished/chaingun_thirdperson.md3': { warnings: ['md3-triangle-duplicate'] },
  // An MD3 named .iqm: its surface 2 "rtzsentry" has 3,544 vertices, past ioquake3's 999 (R_LoadMD3 refuses the model; DarkPlaces loads it).
  'iqm/mislabeled/rtzsentry.iqm': { warnings: ['md3-surface-renderer-limit'] },
  // Its surface "tag_weapon" (one marker triangle of 3 vertices; the file has no MD3 tags) has no normals: every word is 0.
  'md3/unvanquished/ckit_vwep.md3': { warnings: ['md3-normals-zero'] },
};
/** Files the validator does not read (not a binary model, or a format it does not validate yet). */
const NOT_VALIDATED = new Set(['iqm/invalid/erebus_lfs_pointer.iqm']);

test('every real IQM, MD3 and DPM validates with no false error, and each warning is named', { skip: NO_ASSETS }, () => {
  const files = modelAssets().filter((f) => !NOT_VALIDATED.has(f));
  let validated = 0;
  for (const file of files) {
    const report = validateModel(asset(file));
    if (!report) continue;
    validated++;
    const codes = (severity: string) => [...new Set(report.issues.filter((i) => i.severity === severity).map((i) => i.code))].sort();
    assert.deepEqual(codes('error'), EXPECTED[file]?.errors ?? [], `${file} errors: ${JSON.stringify(report.issues.filter((i) => i.severity === 'error'))}`);
    assert.deepEqual(codes('warning'), EXPECTED[file]?.warnings ?? [], `${file} warnings: ${JSON.stringify(report.issues.filter((i) => i.severity === 'warning').slice(0, 3))}`);
  }
  assert.ok(validated >= 8, `validated ${validated} files`);
  for (const format of ['md3', 'dpm']) assert.ok(files.some((f) => f.startsWith(`${format}/`) && validateModel(asset(f))?.format === format), `a real ${format} file was validated`);
});

test('the real files the validator reads: mrfixit\'s bounds hold its skinned vertices in all 101 frames', { skip: NO_ASSETS }, () => {
  const report = validateModel(asset('iqm/mrfixit/mrfixit.iqm'))!;
  assert.deepEqual(report.notes, []);
  assert.equal(report.counts.error + report.counts.warning, 0);
  // Its mesh "Body" has 1,476 vertices: past ioquake3's 999, an information (other IQM engines load it).
  assert.deepEqual(report.issues.filter((i) => i.code === 'iqm-mesh-renderer-limit').map((i) => [i.severity, i.where]), [['information', 'mesh 0 "Body"']]);
  // One frame's box made too small is found (the comparison does run).
  const bytes = asset('iqm/mrfixit/mrfixit.iqm');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const ofsBounds = view.getUint32(IQM_HEADER.ofs_bounds, true);
  // Frame 50's maxs.x down to its mins.x: the box is flat in x.
  view.setFloat32(ofsBounds + 50 * 32 + 12, view.getFloat32(ofsBounds + 50 * 32, true), true);
  const moved = validateModel(bytes)!;
  assert.deepEqual(moved.issues.filter((i) => i.severity !== 'information').map((i) => [i.code, i.where]), [['iqm-bounds-contain', 'frame 50 bounds']]);
});

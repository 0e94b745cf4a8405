import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../core/binary';
import { readModel } from '../../core/formats/models';
import { createPose, morphVertices, sampleClip } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { detectFormat } from '../../core/formats/registry';
import { asset, modelAssets, NO_ASSETS } from '../helpers/model-assets';

/** Files that must fail, with the error they must fail with. */
const INVALID: Record<string, RegExp> = {
  'iqm/invalid/erebus_lfs_pointer.iqm': /Git LFS pointer/,
  'iqm/invalid/InvalidMeshOffset.iqm': /meshes: 1 × 24 bytes at offset 124 run past the end/,
};
/** Files read by their magic, not their extension. */
const MISLABELED: Record<string, string> = { 'iqm/mislabeled/rtzsentry.iqm': 'md3' };

test('every model file in ../shared/assets reads, or fails with the right clear error', { skip: NO_ASSETS }, () => {
  const files = modelAssets();
  assert.ok(files.length >= 20, `found ${files.length} model files`);
  for (const file of files) {
    const bytes = asset(file);
    if (INVALID[file]) {
      assert.throws(() => readModel(bytes), (e: unknown) => e instanceof FormatError && INVALID[file].test(e.message), file);
      continue;
    }
    const model = readModel(bytes);
    const ext = file.slice(file.lastIndexOf('.') + 1);
    assert.equal(model.format, MISLABELED[file] ?? ext, file);
    assert.equal(detectFormat(bytes), model.format);
    // Every mesh is internally consistent.
    for (const m of model.meshes) {
      assert.equal(m.position.length, m.vertexCount * 3, `${file} ${m.name} positions`);
      assert.equal(m.indices.length, m.triangleCount * 3);
      for (const i of m.indices) assert.ok(i < m.vertexCount, `${file} ${m.name} index ${i}`);
    }
    // Every clip can be sampled and every vertex comes out finite.
    const out = new Float32Array(totalVertices(model) * 3);
    if (model.format === 'md3') morphVertices(model, model.frameCount - 1, 0, 0.5, out);
    else {
      const pose = createPose(model);
      for (let c = 0; c < Math.min(model.clips.length, 5); c++) {
        sampleClip(model, c, 0.37, pose);
        skinVertices(model, pose, out);
        for (const x of pose.world) assert.ok(Number.isFinite(x), `${file} clip ${c} world`);
      }
      skinVertices(model, pose, out);
    }
    for (const x of out) assert.ok(Number.isFinite(x), `${file} positions finite`);
  }
});

test('detectFormat: magic bytes decide, including IQE first lines with a BOM or leading spaces', () => {
  const b = (s: string) => new Uint8Array([...s].map((c) => c.charCodeAt(0)));
  assert.equal(detectFormat(b('INTERQUAKEMODEL\0\x02\0\0\0')), 'iqm');
  assert.equal(detectFormat(b('IDP3\x0f\0\0\0')), 'md3');
  assert.equal(detectFormat(b('DARKPLACESMODEL\0')), 'dpm');
  assert.equal(detectFormat(b('# Inter-Quake Export\n')), 'iqe');
  assert.equal(detectFormat(b('\xef\xbb\xbf  # Inter-Quake Export\r\nmesh')), 'iqe');
  assert.equal(detectFormat(b('IDP2')), 'md2');
  assert.equal(detectFormat(b('IDPO')), 'mdl');
  assert.equal(detectFormat(b('ZYMOTICMODEL')), 'zym');
  assert.equal(detectFormat(b('MD5Version 10\n')), 'md5mesh');
  assert.equal(detectFormat(b('version https://git-lfs.github.com/spec/v1\noid sha256:')), 'lfs');
  assert.equal(detectFormat(b('INTERQUAKEMODE')), 'text');
  assert.equal(detectFormat(new Uint8Array(0)), 'empty');
  assert.throws(() => readModel(new Uint8Array(0)), (e: unknown) => e instanceof FormatError && /empty/.test(e.message));
});

// Round trip (issue 4): compile each animated shared IQE, read the IQM with the core reader,
// sample every frame, and compare with sampling the IQE directly (test/helpers/iqe-pose.ts, an
// evaluator that shares no code with the compiler or the reader): joint world matrices and
// skinned vertex positions agree within the 16-bit channel quantisation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileDocument } from '../helpers/compile-iqm';
import { IqeDocument } from '../../core/iqe/document';
import { readModel } from '../../core/formats/models';
import { createPose, sampleFrames } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { inverseBindMatrices, readRig, skinnedPosition, worldMatrices } from '../helpers/iqe-pose';

const assets = resolve(process.cwd(), '..', 'shared', 'assets', 'iqe');

for (const file of ['love-und-panzer/test_cube', 'unvanquished/medistat', 'unvanquished/lgun_view']) {
  test(`round trip: ${file}.iqe compiled, read and sampled at every frame equals sampling the IQE`, (t) => {
    if (!existsSync(assets)) return t.skip('../shared is absent');
    const doc = new IqeDocument(readFileSync(join(assets, `${file}.iqe`), 'utf8'));
    const result = compileDocument(doc);
    assert.ok(result.bytes);
    const model = readModel(result.bytes);
    const rig = readRig(doc);
    assert.equal(model.frameCount, rig.frames.length, 'frames');
    assert.equal(model.skeleton?.names.length, rig.parents.length, 'joints');
    const inverseBind = inverseBindMatrices(rig);

    // Which IQE vertex each compiled vertex came from: the first with the same float32 position
    // and the same influences (several vertices share a position but follow different joints).
    const blendKey = (pairs: [number, number][]): string => pairs.filter(([, w]) => w > 0).map(([j, w]) => `${j}:${Math.round(w * 255)}`).sort().join(' ');
    const byPosition = new Map<string, number>();
    rig.positions.forEach((p, v) => {
      const key = `${p.map(Math.fround).join(',')}|${blendKey(rig.blends[v] ?? [])}`;
      if (!byPosition.has(key)) byPosition.set(key, v);
    });
    const source: number[] = [];
    for (const mesh of model.meshes) {
      for (let v = 0; v < mesh.vertexCount; v++) {
        const pairs: [number, number][] = [];
        for (let k = 0; k < mesh.influences; k++) pairs.push([mesh.blendIndices![v * mesh.influences + k], mesh.blendWeights![v * mesh.influences + k]]);
        const key = `${Array.from(mesh.position.subarray(3 * v, 3 * v + 3)).join(',')}|${blendKey(pairs)}`;
        const s = byPosition.get(key);
        assert.ok(s !== undefined, `compiled vertex at ${key} has no IQE vertex`);
        source.push(s);
      }
    }

    // Model size sets the scale of the quantisation error (16-bit channels over each range).
    let extent = 0;
    for (const p of rig.positions) extent = Math.max(extent, ...p.map(Math.abs));
    const tolerance = 1e-4 + 1e-5 * extent;
    const pose = createPose(model);
    const positions = new Float32Array(totalVertices(model) * 3);
    let worstJoint = 0;
    let worstVertex = 0;
    for (let f = 0; f < rig.frames.length; f++) {
      sampleFrames(model, f, f, 0, pose);
      const world = worldMatrices(rig, rig.frames[f]);
      for (let j = 0; j < rig.parents.length; j++) {
        for (let r = 0; r < 3; r++) {
          for (let c = 0; c < 4; c++) worstJoint = Math.max(worstJoint, Math.abs(pose.world[12 * j + 4 * r + c] - world[j][4 * r + c]));
        }
      }
      skinVertices(model, pose, positions);
      for (let v = 0; v < source.length; v++) {
        const expected = skinnedPosition(rig, world, inverseBind, source[v]);
        for (let k = 0; k < 3; k++) worstVertex = Math.max(worstVertex, Math.abs(positions[3 * v + k] - expected[k]));
      }
    }
    t.diagnostic(`${rig.frames.length} frames; largest error: joint matrices ${worstJoint.toExponential(2)}, vertices ${worstVertex.toExponential(2)} (tolerance ${tolerance.toExponential(2)})`);
    assert.ok(worstJoint <= tolerance, `joint matrices differ by ${worstJoint}`);
    assert.ok(worstVertex <= tolerance, `vertices differ by ${worstVertex}`);
  });
}

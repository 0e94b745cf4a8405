// What a validator issue points at in the preview (core/validate/target.ts): read from the
// generated files' own reports, so the wording it parses is the validators' real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { validateModel } from '../../core/validate/index';
import { issueHighlight } from '../../core/validate/target';
import { writeMd3 } from '../helpers/model-writers';
import { iqmWith } from '../helpers/validate-fixtures';
import { cleanMd3, dpmWith } from '../helpers/validate-fixtures-md3-dpm';

/** The highlight of each issue of a file's report, by code. */
function targets(bytes: Uint8Array): Record<string, unknown> {
  const report = validateModel(bytes)!;
  const model = readModel(bytes);
  return Object.fromEntries(report.issues.map((i) => [i.code, issueHighlight(i.where, report.format, model)]));
}

test('an IQM issue names a global vertex or a joint; a header issue nothing', () => {
  assert.deepEqual(targets(iqmWith((d) => { d.vertexArrays[1].data[5] = Infinity; d.joints[1].name = 'ti\u0001p'; d.anims[0].framerate = 0; })), {
    'iqm-vertex-nonfinite': { kind: 'vertices', indices: [2] },
    'iqm-name-control': { kind: 'joint', joint: 1 },
    'iqm-anim-framerate': null,
  });
});

test("an MD3 issue's triangle is offset by the earlier surfaces' triangles; a DPM bone is a joint", () => {
  const spec = cleanMd3();
  // A second surface, the first's copy, with a degenerate triangle (its triangle 2): drawn triangle 2 + 2.
  spec.surfaces.push({ ...structuredClone(spec.surfaces[0]), name: 'second', triangles: [...spec.surfaces[0].triangles, 0, 0, 1] });
  assert.deepEqual(targets(writeMd3(spec)), { 'md3-triangle-degenerate': { kind: 'triangles', indices: [4] } });
  assert.deepEqual(targets(dpmWith((d) => { d.bones[1].name = 'ti\u0001p'; d.meshes[0].indices.push(0, 0, 1); })), {
    'dpm-name-control': { kind: 'joint', joint: 1 },
    'dpm-triangle-degenerate': { kind: 'triangles', indices: [2] },
  });
});

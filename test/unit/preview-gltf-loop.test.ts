// The preview loops a glTF's clips (core/host/sourceCompile.ts previewClipLoops): glTF has no
// loop mark, so none of its animations is marked, and the preview loops what a file does not mark.
// The IQM that the compile writes keeps its flags (no loop, as without --loop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { compileRequest } from '../../core/host/compileRun';
import { previewClipLoops, sourceOutcome, sourceRequest } from '../../core/host/sourceCompile';
import { makeGltf } from '../helpers/gltf-writer';

async function compiledGlb(): Promise<Uint8Array> {
  const glb = makeGltf({ vertices: 64, joints: 3, animations: [{ name: 'Bend', interpolation: 'LINEAR' }, { name: 'Sway', interpolation: 'STEP' }] }).bytes;
  const outcome = sourceOutcome(await compileRequest(sourceRequest('tube.glb', 'glb', glb, [], [], {})), 'tube.glb', 'glb', []);
  assert.ok(!('error' in outcome), 'error' in outcome ? outcome.error : '');
  return outcome.bytes;
}

test("a glTF's clips loop in the preview; the compiled IQM keeps them unmarked", async () => {
  const written = await compiledGlb();
  const before = new Uint8Array(written);
  assert.deepEqual(readModel(written).clips.map((c) => [c.name, c.loop]), [['Bend', false], ['Sway', false]]);
  const shown = previewClipLoops(written, 'glb');
  assert.deepEqual(readModel(shown).clips.map((c) => [c.name, c.loop]), [['Bend', true], ['Sway', true]]);
  assert.deepEqual(readModel(previewClipLoops(written, 'gltf')).clips.map((c) => c.loop), [true, true]);
  // The written bytes are not changed (engine checks, Compare and Convert read them).
  assert.deepEqual(written, before);
});

test('other formats keep the flags their file (or the compile) gives', async () => {
  const written = await compiledGlb();
  for (const format of ['iqm', 'md5mesh', 'smd', 'obj', 'iqe'] as const) assert.equal(previewClipLoops(written, format), written);
});

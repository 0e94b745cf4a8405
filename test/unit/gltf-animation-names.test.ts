// glTF animation names are unique (issue 32): glTF tools find an action by its name, and Blender
// renames a second "walk" to "walk.001". The writer keeps the first of a name; a later one gets its
// input's name after it, "walk (anim.iqm)", then "walk (anim.iqm, 2)"; one warning lists them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { writeGltf } from '../../core/gltf/writer';
import type { Model } from '../../core/model/model';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { smallIqmDocument } from '../helpers/model-writers';
import { validateGltf } from '../helpers/gltf-validator';

/** The small animated model with its two clips named `names` (both cover its frames). */
function withClips(names: [string, string]): Model {
  const model = readModel(writeIqmDocument(smallIqmDocument(2)));
  assert.equal(model.clips.length, 2);
  return { ...model, clips: model.clips.map((c, i) => ({ ...c, name: names[i] })) };
}

function glbJson(bytes: Uint8Array): { animations: { name: string }[] } {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
}

test('animation names: the model\'s own duplicate, and two animation inputs sharing its names, written unique in a stated order', async () => {
  const model = withClips(['walk', 'walk']);
  const result = writeGltf(model, {
    container: 'glb',
    label: 'model.iqm',
    animations: [
      { label: 'anim.iqm', model: withClips(['walk', 'run']) },
      { label: 'anim.iqm', model: withClips(['run', 'walk (anim.iqm)']) },
    ],
  });
  const names = glbJson(result.bytes).animations.map((a) => a.name);
  assert.deepEqual(names, ['walk', 'walk (model.iqm)', 'walk (anim.iqm)', 'run', 'run (anim.iqm)', 'walk (anim.iqm) (anim.iqm)']);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(result.warnings.filter((w) => w.includes('name of an earlier one')), [
    '4 animations had the name of an earlier one (glTF tools such as Blender need each name once): written "walk" as "walk (model.iqm)", "walk" as "walk (anim.iqm)", "run" as "run (anim.iqm)", "walk (anim.iqm)" as "walk (anim.iqm) (anim.iqm)"',
  ]);
  assert.deepEqual(await validateGltf(result.bytes), []);
});

test('animation names: the same name three times from one input counts on; unique names are left as they are, with no warning', () => {
  const model = withClips(['idle', 'idle']);
  const result = writeGltf(model, { container: 'glb', label: 'm.iqm', animations: [{ label: 'a.iqm', model: withClips(['idle', 'idle']) }] });
  assert.deepEqual(glbJson(result.bytes).animations.map((a) => a.name), ['idle', 'idle (m.iqm)', 'idle (a.iqm)', 'idle (a.iqm, 2)']);
  const plain = writeGltf(withClips(['idle', 'run']), { container: 'glb', label: 'm.iqm' });
  assert.deepEqual(glbJson(plain.bytes).animations.map((a) => a.name), ['idle', 'run']);
  assert.ok(!plain.warnings.some((w) => w.includes('name of an earlier one')), plain.warnings.join('\n'));
});

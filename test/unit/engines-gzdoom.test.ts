// The gzdoom and uzdoom engine profiles (core/engines/gzdoom.ts): each rule at its limit (clean)
// and one past it (reported), on generated models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkEngine } from '../../core/engines/check';
import { factsFromModel } from '../../core/engines/facts';
import { findEngine, parseEngineList } from '../../core/engines/index';
import type { EngineFinding } from '../../core/engines/types';
import { readModel } from '../../core/formats/models';
import { IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_FLOAT, IQM_HALF, IQM_INT, IQM_POSITION, IQM_SHORT, IQM_TEXCOORD, IQM_UBYTE } from '../../core/iqm/layout';
import { iqm, iqmDocument, md3, md3Spec, type IqmOptions } from '../helpers/engine-models';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { writeDpm, writeMd3, type DpmSpec } from '../helpers/model-writers';

function check(bytes: Uint8Array, engine: string): EngineFinding[] {
  const profile = findEngine(engine);
  assert.ok(profile, engine);
  return checkEngine(factsFromModel(readModel(bytes), bytes), profile);
}
const codes = (fs: EngineFinding[]) => fs.filter((f) => f.severity !== 'information').map((f) => `${f.code} ${f.severity}`);
/** A one-triangle DPM with one bone and one frame. */
const DPM: DpmSpec = {
  bones: [{ name: 'root', parent: -1, flags: 0 }],
  meshes: [{ shader: 'skin', verts: [0, 1, 2].map((i) => [{ origin: [i, i % 2, 0], influence: 1, normal: [0, 0, 1], bone: 0 }]), texcoords: [0, 0, 1, 0, 0, 1], indices: [0, 1, 2], groupIds: null }],
  frames: [{ name: 'f0', bounds: [0, 0, 0, 1, 1, 1], matrices: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0] }],
};
const skinned = (o: IqmOptions = {}) => iqm({ joints: 2, anims: [2], ...o });

for (const engine of ['gzdoom', 'uzdoom']) {
  test(`${engine}: IQM version 2 loads, version 1 is refused`, () => {
    assert.deepEqual(codes(check(skinned(), engine)), []);
    const v1 = iqmDocument({ joints: 2, anims: [2] });
    v1.version = 1;
    assert.deepEqual(codes(check(writeIqmDocument(v1), engine)), ['iqm-version error']);
  });

  test(`${engine}: each vertex array in the formats IQMModel reads, and one it does not (I_FatalError)`, () => {
    // Accepted: blendindexes ubyte×4 and int×4, blendweights ubyte×4 and float×4.
    assert.deepEqual(codes(check(skinned({ arrayFormat: [IQM_BLENDINDEXES, IQM_INT, 4] }), engine)), []);
    assert.deepEqual(codes(check(skinned({ arrayFormat: [IQM_BLENDWEIGHTS, IQM_FLOAT, 4] }), engine)), []);
    assert.deepEqual(codes(check(skinned({ arrayFormat: [IQM_BLENDINDEXES, IQM_UBYTE, 4] }), engine)), []);
    // Refused: another format, or another size.
    assert.deepEqual(codes(check(skinned({ arrayFormat: [IQM_BLENDINDEXES, IQM_SHORT, 4] }), engine)), ['array-format error']);
    assert.deepEqual(codes(check(skinned({ arrayFormat: [IQM_BLENDWEIGHTS, IQM_HALF, 4] }), engine)), ['array-format error']);
    assert.deepEqual(codes(check(skinned({ arrayFormat: [IQM_BLENDINDEXES, IQM_UBYTE, 3] }), engine)), ['array-format error']);
    assert.deepEqual(codes(check(iqm({ arrayFormat: [IQM_TEXCOORD, IQM_HALF, 2] }), engine)), ['array-format error']);
    assert.deepEqual(codes(check(iqm({ arrayFormat: [IQM_POSITION, IQM_FLOAT, 4] }), engine)), ['array-format error']);
    const f = check(iqm({ arrayFormat: [IQM_TEXCOORD, IQM_HALF, 2] }), engine).find((x) => x.code === 'array-format')!;
    assert.match(f.fact.text, /I_FatalError/);
    assert.match(f.fact.source.commit, /^[0-9a-f]{40}$/);
    assert.equal(f.fact.source.repo, engine === 'gzdoom' ? 'ZDoom/gzdoom' : 'UZDoom/UZDoom');
  });

  test(`${engine}: an MD3 frame name of 15 characters is kept, one of 16 is cut to 15 (FMD3Model::Load, cited by line)`, () => {
    const named = (name: string) => {
      const spec = md3Spec({ frames: 2 });
      spec.frames[1].name = name;
      return writeMd3(spec);
    };
    assert.deepEqual(codes(check(named('abcdefghijklmno'), engine)), []);
    const over = check(named('abcdefghijklmnop'), engine).filter((x) => x.code === 'md3-frame-name');
    assert.deepEqual(codes(over), ['md3-frame-name warning']);
    assert.match(over[0].message, /frame 1 "abcdefghijklmnop" has 16 characters: it is kept as "abcdefghijklmno"/);
    assert.equal(over[0].fact.source.path, 'src/common/models/models_md3.cpp');
    assert.equal(over[0].fact.source.lines, engine === 'gzdoom' ? '144' : '152');
  });

  test(`${engine}: the MD3 facts without a limit (units, axes, shaders, unchecked counts) are cited by line`, () => {
    const notes = findEngine(engine)!.md3!.notes!;
    assert.deepEqual(Object.keys(notes).sort(), ['axes', 'frameRange', 'shaders', 'unchecked', 'units', 'unskinned']);
    for (const fact of Object.values(notes)) assert.match(fact.source.lines ?? '', /^\d+(-\d+)?$/, fact.text);
  });

  test(`${engine}: the MD2 refusals (applied in MODELDEF) are cited by line in the engine's own models_md2.cpp`, () => {
    const md2 = findEngine(engine)!.md2!;
    assert.equal(md2.glCommands?.fact.source.repo, engine === 'gzdoom' ? 'ZDoom/gzdoom' : 'UZDoom/UZDoom');
    assert.equal(md2.glCommands?.fact.source.lines, engine === 'gzdoom' ? '465-469' : '467-471');
    assert.equal(md2.framesInFile?.fact.source.lines, engine === 'gzdoom' ? '460-464' : '462-466');
    assert.equal(md2.notes?.vertices.source.lines, engine === 'gzdoom' ? '39, 501, 528-531' : '41, 503, 530-533');
  });

  test(`${engine}: MD3 loads, DPM has no loader`, () => {
    assert.deepEqual(codes(check(md3({ frames: 3 }), engine)), []);
    assert.deepEqual(codes(check(writeDpm(DPM), engine)), ['format-unsupported error']);
  });
}

test('uzdoom refuses a joint listed before its parent; gzdoom (the version read) does not check it', () => {
  const inOrder = skinned();
  const late = iqm({ joints: 2, parent: (i) => (i === 0 ? 1 : -1) });
  assert.deepEqual(codes(check(inOrder, 'uzdoom')), []);
  assert.deepEqual(codes(check(late, 'uzdoom')), ['joint-order error']);
  assert.deepEqual(codes(check(late, 'gzdoom')), []);
});

test('the names: gzdoom (zdoom), uzdoom, in a list', () => {
  assert.deepEqual(parseEngineList('gzdoom, UZDoom,zdoom').engines.map((e) => e.id), ['gzdoom', 'uzdoom']);
});

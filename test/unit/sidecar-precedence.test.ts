// core/sidecar/precedence.ts: which sidecar decides a model's clips and textures, and how its
// ranges apply (the one place the preview, the converter and the checks take these rules from).
// Real files from ../shared/assets; sidecar texts written here where a case needs one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { Q3_ANIMATIONS } from '../../core/sidecar/animcfg';
import { parseSkin } from '../../core/sidecar/skin';
import { animCfgClips, chooseSkin, modelClips, textureCandidates, textureNames } from '../../core/sidecar/precedence';
import { asset, assetText, NO_ASSETS } from '../helpers/model-assets';

const cfg = () => ({ name: 'animation.cfg', text: assetText('md3/oa_soldier/animation.cfg') });
const framegroups = (text: string) => ({ name: 'x.framegroups', text });

test('a Quake 3 player part takes animation.cfg over a .framegroups beside it, and only its own animations', { skip: NO_ASSETS }, () => {
  const upper = readModel(asset('md3/oa_soldier/upper.md3'));
  const fg = framegroups('0 10 20 1 spin\n');
  const u = modelClips(upper, 'upper.md3', { framegroups: fg, animationCfg: cfg() });
  assert.equal(u.from, 'animation.cfg');
  const names = u.clips.map((c) => c.name);
  assert.ok(names.includes('BOTH_DEATH1') && names.includes('TORSO_STAND'), names.join(' '));
  assert.ok(!names.some((n) => n.startsWith('LEGS_')), 'the torso does not play the legs\' animations');
  assert.ok(u.clips.every((c) => c.source === 'animation.cfg'));

  const lower = readModel(asset('md3/oa_soldier/lower.md3'));
  const l = modelClips(lower, 'LOWER.MD3', { framegroups: null, animationCfg: cfg() });
  const lnames = l.clips.map((c) => c.name);
  assert.ok(lnames.includes('LEGS_RUN') && !lnames.some((n) => n.startsWith('TORSO_')), lnames.join(' '));
  // LEGS_* frames are moved back by the legs offset (first LEGS_WALKCR - first TORSO_GESTURE = 0 here).
  assert.equal(l.clips.find((c) => c.name === 'LEGS_RUN')?.firstFrame, 128);

  // The head is not animated: no clip from animation.cfg, the model's own (none for an MD3).
  const head = readModel(asset('md3/oa_soldier/head.md3'));
  const h = modelClips(head, 'head.md3', { framegroups: null, animationCfg: cfg() });
  assert.equal(h.from, 'model');
  assert.deepEqual(h.clips, []);
});

test('any other model: .framegroups first (any format), then animation.cfg for an MD3, then its own clips', { skip: NO_ASSETS }, () => {
  const can = readModel(asset('md3/watercan/watercan.md3'));
  const fg = modelClips(can, 'watercan.md3', { framegroups: framegroups('0 1 5 0 still\n'), animationCfg: cfg() });
  assert.equal(fg.from, 'framegroups');
  assert.deepEqual(fg.clips.map((c) => [c.name, c.firstFrame, c.frameCount, c.fps, c.loop, c.source]), [['still', 0, 1, 5, false, 'x.framegroups']]);
  const any = modelClips(can, 'watercan.md3', { framegroups: null, animationCfg: cfg() });
  assert.equal(any.from, 'animation.cfg');
  // An MD3 not named as a part: every animation (all start past its single frame but BOTH_DEATH1).
  assert.deepEqual(any.clips.map((c) => [c.name, c.frameCount]), [['BOTH_DEATH1', 1]]);

  const fixit = readModel(asset('iqm/mrfixit/mrfixit.iqm'));
  // animation.cfg is Quake 3's, for MD3 only.
  assert.equal(modelClips(fixit, 'mrfixit.iqm', { framegroups: null, animationCfg: cfg() }).from, 'model');
  const own = modelClips(fixit, 'mrfixit.iqm', { framegroups: null, animationCfg: null });
  assert.deepEqual(own.clips.map((c) => [c.name, c.source]), fixit.clips.map((c) => [c.name, 'IQM']));
  // A .framegroups without one usable line leaves the model's own clips (DarkPlaces aborts the file).
  const empty = modelClips(fixit, 'mrfixit.iqm', { framegroups: framegroups('// nothing\nbad line\n'), animationCfg: null });
  assert.equal(empty.from, 'model');
  assert.equal(empty.clips.length, fixit.clips.length);
  assert.match(empty.warnings.join('\n'), /x\.framegroups: line 2/);
  // Ranges past the model's frames are clamped by the .framegroups rules (DarkPlaces).
  const far = modelClips(fixit, 'mrfixit.iqm', { framegroups: framegroups('90 50 10 1 tail\n'), animationCfg: null });
  assert.deepEqual(far.clips.map((c) => [c.firstFrame, c.frameCount]), [[90, fixit.frameCount - 90]]);
});

test('animation.cfg ranges: a clip running past the part\'s frames is cut there with a warning; one starting past them is left out', { skip: NO_ASSETS }, () => {
  const upper = readModel(asset('md3/oa_soldier/upper.md3'));
  assert.equal(upper.frameCount, 218);
  const lines = Q3_ANIMATIONS.slice(0, 25).map((name) => (name === 'TORSO_STAND' ? '200 30 0 10' : name === 'TORSO_STAND2' ? '300 5 0 10' : '0 1 0 10'));
  const r = animCfgClips(upper, { name: 'animation.cfg', text: lines.join('\n') }, 'upper');
  const stand = r.clips.find((c) => c.name === 'TORSO_STAND');
  assert.deepEqual([stand?.firstFrame, stand?.frameCount], [200, 18]);
  assert.ok(!r.clips.some((c) => c.name === 'TORSO_STAND2'));
  assert.equal(r.warnings.length, 2, r.warnings.join('\n'));
  assert.match(r.warnings[0], /^animation\.cfg: TORSO_STAND runs to frame 229, past the model's 218 frames/);
  assert.match(r.warnings[1], /^animation\.cfg: TORSO_STAND2 starts at frame 300, past the model's 218 frames; left out/);
});

test('textures: the skin entry for the mesh\'s name (never its material\'s), then the material, then the surface\'s other shaders', { skip: NO_ASSETS }, () => {
  const fixit = readModel(asset('iqm/mrfixit/mrfixit.iqm'));
  // mrfixit's meshes: Body (material Body.tga), Head (material Head.tga).
  const byMaterial = parseSkin('Body.tga,skins/other.tga\n');
  assert.deepEqual(textureCandidates(fixit, 0, byMaterial), [{ name: 'Body.tga', source: 'material' }]);
  const byName = parseSkin('BODY,skins/red.tga\n');
  assert.deepEqual(textureNames(fixit, 0, byName), ['skins/red.tga', 'Body.tga']);
  assert.deepEqual(textureNames(fixit, 1, byName), ['Head.tga'], 'a mesh the skin does not name keeps its own');

  const can = readModel(asset('md3/watercan/watercan.md3'));
  assert.deepEqual(textureCandidates(can, 0, null), [{ name: 'models/mapobjects/kt_utilities/water_can.tga', source: 'material' }]);
});

test('skins: the chosen one when it names a surface, else the first (engine order) that does', { skip: NO_ASSETS }, () => {
  const upper = readModel(asset('md3/oa_soldier/upper.md3'));
  const real = { name: 'upper.md3_0.skin', text: assetText('md3/oa_soldier/upper.md3_0.skin') };
  const other = { name: 'upper_blue.skin', text: 'u_torso,models/blue.tga\n' };
  const unrelated = { name: 'upper_x.skin', text: 'h_face,models/face.tga\n' };
  assert.equal(chooseSkin(upper, [unrelated, real, other])?.name, 'upper.md3_0.skin');
  assert.equal(chooseSkin(upper, [real, other], 'upper_blue.skin')?.name, 'upper_blue.skin');
  // A chosen skin that names none of the surfaces does not apply.
  assert.equal(chooseSkin(upper, [real, unrelated], 'upper_x.skin')?.name, 'upper.md3_0.skin');
  assert.equal(chooseSkin(upper, [unrelated]), null);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnimCfg } from '../../core/sidecar/animcfg';
import { parseFramegroups } from '../../core/sidecar/framegroups';
import { blendOf, parseShaders } from '../../core/sidecar/shader';
import { parseSkin, skinTexture } from '../../core/sidecar/skin';
import { readModel } from '../../core/formats/models';
import { applyFramegroups } from '../../core/sidecar/apply';
import { animCfgClips, textureCandidates } from '../../core/sidecar/precedence';
import { asset, assetText, NO_ASSETS } from '../helpers/model-assets';

test('framegroups: defaults, clamping and comments', () => {
  const r = parseFramegroups('/* header\n spans lines */\n1 8 20 0 run // trailing\n9 0\n  \n500 3 0.5 1 far extra tokens\nbad line\n10 5 10 1 //  zombie attackleap \n', 100);
  assert.deepEqual(r.clips, [
    { name: 'run', firstFrame: 1, frameCount: 8, fps: 20, loop: false },
    { name: 'groupified_1_anim', firstFrame: 9, frameCount: 1, fps: 20, loop: true },
    { name: 'far', firstFrame: 99, frameCount: 1, fps: 1, loop: true },
    // No name token: the line's comment names the clip.
    { name: 'zombie attackleap', firstFrame: 10, frameCount: 5, fps: 10, loop: true },
  ]);
  assert.equal(r.warnings.length, 2);
  assert.match(r.warnings[1], /line 7/);
});

test('framegroups and skins from the real DPM folder', { skip: NO_ASSETS }, () => {
  const grunt = parseFramegroups(assetText('dpm/nexuiz/grunt.dpm.framegroups'), 441);
  assert.equal(grunt.clips.length, 25);
  assert.deepEqual(grunt.clips[0], { name: 'grunt_anim1', firstFrame: 1, frameCount: 19, fps: 10, loop: false });
  assert.deepEqual(grunt.clips[24], { name: 'grunt_anim25', firstFrame: 430, frameCount: 11, fps: 10, loop: true });
  const saw = parseFramegroups(assetText('dpm/nexuiz/h_chainsaw.dpm.framegroups'), 271);
  assert.deepEqual(saw.clips.map((c) => [c.name, c.firstFrame, c.frameCount, c.loop]), [
    ['groupified_0_anim', 1, 8, false], ['groupified_1_anim', 9, 23, false], ['groupified_2_anim', 32, 200, true], ['groupified_3_anim', 232, 39, false],
  ]);
  assert.equal(skinTexture(parseSkin(assetText('dpm/nexuiz/grunt.dpm_0.skin')), 'SHADER0'), 'fbgrunt');
  const upper = parseSkin(assetText('md3/oa_soldier/upper.md3_0.skin'));
  assert.equal(skinTexture(upper, 'u_torso'), 'models/monsters/soldier/skin.tga');
  assert.deepEqual(upper.tags, ['tag_head', 'tag_weapon', 'tag_torso']);
});

test('animation.cfg: keywords, order, the legs skip and negative counts', { skip: NO_ASSETS }, () => {
  const cfg = parseAnimCfg(assetText('md3/oa_soldier/animation.cfg'));
  assert.equal(cfg.sex, 'm');
  assert.deepEqual(cfg.headOffset, [0, 0, 0]);
  assert.deepEqual(cfg.warnings, []);
  assert.equal(cfg.clips.length, 31);
  const by = (n: string) => cfg.clips.find((c) => c.name === n)!;
  assert.deepEqual([by('TORSO_GESTURE').firstFrame, by('TORSO_GESTURE').frameCount], [86, 24]);
  // skip = 86 - 86 = 0 in this file.
  assert.deepEqual([by('LEGS_IDLE').firstFrame, by('LEGS_IDLE').frameCount, by('LEGS_IDLE').fps, by('LEGS_IDLE').loop], [194, 6, 6, true]);
  assert.equal(by('BOTH_DEATH1').loop, false);
  assert.equal(by('TORSO_NEGATIVE').firstFrame, 86, 'missing Team Arena animations copy TORSO_GESTURE');
  const lines = ['sex f', 'footsteps boot', 'fixedlegs'];
  for (let i = 0; i < 25; i++) lines.push(i === 6 ? '90 10 0 15' : i === 13 ? '120 -5 0 0' : `${i * 4} 4 2 10 // comment`);
  const skipped = parseAnimCfg(lines.join('\n'));
  assert.equal(skipped.fixedLegs, true);
  const walkcr = skipped.clips[13];
  assert.deepEqual([walkcr.firstFrame, walkcr.frameCount, walkcr.reverse, walkcr.fps], [120 - 30, 5, true, 1]);
  assert.equal(skipped.clips[14].firstFrame, 14 * 4 - 30);
});

test('animation.cfg: 100 unknown words warned of, the rest counted; words past the animations left unread', () => {
  const words = Array.from({ length: 5000 }, (_, i) => `word${i}`).join(' ');
  const rows = Array.from({ length: 25 }, (_, i) => `${i * 4} 4 0 10`).join('\n');
  const cfg = parseAnimCfg(`sex m\n${words}\n${rows}\n`);
  assert.equal(cfg.warnings.length, 101);
  assert.equal(cfg.warnings[0], 'unknown keyword "word0"');
  assert.equal(cfg.warnings[100], 'unknown keyword "word100" and 4899 more unknown words after it');
  assert.deepEqual([cfg.warningAt[100]?.line, cfg.warningAt[100]?.start], [1, words.indexOf('word100 ')]);
  assert.equal(cfg.entries.length, 25);
  // A tail of a million words after the 31 animations: the engine never reads it, nor does the parser.
  const full = Array.from({ length: 31 }, (_, i) => `${i * 4} 4 0 10`).join('\n');
  const tail = `${'1 '.repeat(1_000_000)}\n`;
  const long = parseAnimCfg(`${full}\n${tail}`);
  assert.deepEqual([long.entries.length, long.warnings], [31, []]);
  // Too few animations: the warning points at the file's last word.
  const short = parseAnimCfg('sex m\n0 4 0 10\n4 4 0 10 // end\n\n');
  assert.equal(short.warnings[0], 'only 2 of the 25 required animations');
  assert.deepEqual([short.warningAt[0]?.line, short.warningAt[0]?.text], [2, '10']);
});

test('shader scripts: first stage image, cull and alpha test', { skip: NO_ASSETS }, () => {
  const shaders = parseShaders(assetText('md3/kubalwagon/kt_kubalwagon.shader'));
  const image = 'models/mapobjects/kt_kubalwagon/euro_frnt_2.tga';
  assert.deepEqual(shaders, [
    {
      name: 'models/mapobjects/kt_kubalwagon/euro_frnt_2',
      image,
      twoSided: true,
      alphaTest: 'GE128',
      // Positions in the file: the name on line 6, the map path on line 12 after 16 spaces and "map ".
      at: { line: 5, start: 0, end: 43 },
      images: [{ keyword: 'map', path: image, line: 11, start: 20, end: 20 + image.length }],
    },
  ]);
  const more = parseShaders('a/b\n{\n{\nmap $lightmap\n}\n{\nanimMap 10 x1.tga x2.tga\n}\n}\nc { cull back\n { clampmap "q.tga" }\n}\n');
  assert.deepEqual(more.map((s) => [s.name, s.image, s.twoSided]), [['a/b', 'x1.tga', false], ['c', 'q.tga', false]]);
  assert.deepEqual(more.map((s) => s.images?.map((i) => [i.keyword, i.path, i.line, i.start, i.end])), [
    [['animMap', 'x1.tga', 6, 11, 17], ['animMap', 'x2.tga', 6, 18, 24]],
    [['clampmap', 'q.tga', 10, 13, 18]],
  ]);
});

test('sidecars applied to models: framegroups replace clips, skins give textures', { skip: NO_ASSETS }, () => {
  const grunt = readModel(asset('dpm/nexuiz/grunt.dpm'));
  assert.equal(grunt.clips.length, 441, 'without framegroups every frame is its own clip');
  assert.deepEqual(applyFramegroups(grunt, assetText('dpm/nexuiz/grunt.dpm.framegroups')), []);
  assert.equal(grunt.clips.length, 25);
  // A DPM mesh is named by its shader: the skin's `fbgrunt` line matches it.
  assert.deepEqual(textureCandidates(grunt, 0, parseSkin(assetText('dpm/nexuiz/grunt.dpm_0.skin')))[0], { name: 'fbgrunt', source: 'skin' });
  const upper = readModel(asset('md3/oa_soldier/upper.md3'));
  const cfg = animCfgClips(upper, { name: 'animation.cfg', text: assetText('md3/oa_soldier/animation.cfg') }, 'upper');
  assert.deepEqual(cfg.warnings, []);
  assert.ok(cfg.clips.some((c) => c.name === 'TORSO_STAND') && !cfg.clips.some((c) => c.name.startsWith('LEGS_')));
  assert.deepEqual(textureCandidates(upper, 0, parseSkin(assetText('md3/oa_soldier/upper.md3_0.skin')))[0], { name: 'models/monsters/soldier/skin.tga', source: 'skin' });
});

test('shaders: the image stage\'s blendFunc (additive, alpha, filter), before or after its map line', () => {
  const shaders = parseShaders(
    [
      'models/fx/glow', '{', 'cull none', '{', 'map models/fx/glow.tga', 'blendFunc GL_ONE GL_ONE', '}', '}',
      'models/fx/smoke', '{', '{', 'blendfunc blend', 'map models/fx/smoke.tga', '}', '}',
      'models/fx/grime', '{', '{', 'map $lightmap', '}', '{', 'map models/fx/grime.tga', 'blendFunc GL_DST_COLOR GL_ZERO', '}', '}',
      'models/solid', '{', '{', 'map models/solid.tga', '}', '{', 'map models/glint.tga', 'blendFunc add', '}', '}',
    ].join('\n'),
  );
  assert.deepEqual(shaders.map((x) => [x.name, x.image, x.blend ?? 'opaque']), [
    ['models/fx/glow', 'models/fx/glow.tga', 'add'],
    ['models/fx/smoke', 'models/fx/smoke.tga', 'blend'],
    ['models/fx/grime', 'models/fx/grime.tga', 'filter'],
    // The blend of a later stage is not the image stage's.
    ['models/solid', 'models/solid.tga', 'opaque'],
  ]);
  assert.equal(blendOf(['GL_SRC_ALPHA', 'GL_ONE']), 'add');
  assert.equal(blendOf(['GL_ZERO', 'GL_SRC_COLOR']), 'filter');
  assert.equal(blendOf(['GL_ONE', 'GL_ZERO']), undefined);
});

// The sidecar diagnostics (core/sidecar/check.ts, lint.ts) on the real files of ../shared/assets and
// on broken variants written here beside generated models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeBase64, decodeBase64 } from '../../core/base64';
import { textureExtensions } from '../../core/engines/textures';
import { listedIsFile, searchFolders } from '../../core/lookup/folders';
import { texturePlan } from '../../core/lookup/textures';
import { checkSidecar, type SidecarIo } from '../../core/sidecarCheck/check';
import { companionModels, sidecarKind } from '../../core/lookup/companions';
import { clipAtLine, clipHover } from '../../core/sidecarCheck/lint';
import { findEngine } from '../../core/engines/index';
import { diskSidecarIo } from '../../node/sidecarIo';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { iqm, md3 } from '../helpers/engine-models';
import { withTempDir } from '../helpers/temp-dir';

const EXT = textureExtensions([]);

async function check(path: string, text = readFileSync(path, 'latin1')) {
  const kind = sidecarKind(path);
  assert.ok(kind, `${path} is a sidecar`);
  return checkSidecar(kind, path, text, diskSidecarIo, EXT);
}

/** "line:column code" of each diagnostic (1-based, as the CLI prints them). */
function where(r: { diagnostics: { range: { line: number; column: number }; code: string }[] }): string[] {
  return r.diagnostics.map((d) => `${d.range.line + 1}:${d.range.column + 1} ${d.code}`);
}

test('sidecar kinds and the models an engine pairs them with', () => {
  assert.equal(sidecarKind('/a/grunt.dpm.framegroups'), 'framegroups');
  assert.equal(sidecarKind('/a/Animation.CFG'), 'animcfg');
  assert.equal(sidecarKind('/a/lower_default.skin'), 'skin');
  assert.equal(sidecarKind('/a/scripts/x.shader'), 'shader');
  assert.equal(sidecarKind('/a/server.cfg'), undefined);
  assert.deepEqual(companionModels('framegroups', '/a/grunt.dpm.framegroups'), [{ candidates: ['grunt.dpm'] }]);
  assert.deepEqual(companionModels('skin', '/a/lower.md3_0.skin'), [{ candidates: ['lower.md3'] }]);
  assert.deepEqual(companionModels('skin', '/a/lower_default.skin')[0].candidates.slice(0, 2), ['lower.md3', 'lower.iqm']);
  assert.deepEqual(companionModels('skin', '/a/my_car_red.skin')[0].candidates.slice(0, 5), ['my_car.md3', 'my_car.iqm', 'my_car.dpm', 'my_car.mdr', 'my.md3']);
  assert.deepEqual(companionModels('animcfg', '/p/animation.cfg').map((c) => c.candidates[0]), ['lower.md3', 'upper.md3', 'head.md3']);
  assert.deepEqual(companionModels('shader', '/s/a.shader'), []);
});

test('texture lookup plan: the engine extensions from each folder upwards, then the base name beside the file', () => {
  const plan = texturePlan('models/x/skin', '/g/models/x', ['tga', 'png']);
  assert.deepEqual(plan.engine.slice(0, 4).map((e) => e.path), ['/g/models/x/models/x/skin.tga', '/g/models/x/models/x/skin.png', '/g/models/models/x/skin.tga', '/g/models/models/x/skin.png']);
  assert.ok(plan.engine.some((e) => e.path === '/g/models/x/skin.tga' && e.candidate === 'models/x/skin.tga'), 'from /g as the game folder');
  assert.deepEqual(plan.beside, []);
  assert.deepEqual(texturePlan('a/b/c.jpg', '/m', ['tga', 'jpg']).beside, ['/m/c.jpg', '/m/c.tga']);
  assert.deepEqual(texturePlan('a/b/c.jpg', '/m/n', ['tga', 'jpg']).beside, ['/m/n/c.jpg', '/m/n/c.tga']);
  assert.deepEqual(textureExtensions([findEngine('ioquake3')!]), ['tga', 'jpg', 'jpeg', 'png', 'pcx', 'bmp']);
});

test('base64 round trip (models sent to the browser server)', () => {
  for (const n of [0, 1, 2, 3, 4, 5, 100, 70000]) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 255);
    const text = encodeBase64(bytes);
    assert.equal(text, Buffer.from(bytes).toString('base64'));
    assert.deepEqual(decodeBase64(text), bytes);
  }
  assert.throws(() => decodeBase64('abc'), /multiple of 4/);
  assert.throws(() => decodeBase64('ab!d'), /character 2/);
});

test('real files: the DPM framegroups and skin, the Q3 player, the chainsaw skin, the shader script', { skip: NO_ASSETS }, async () => {
  const grunt = await check(join(ASSETS, 'dpm/nexuiz/grunt.dpm.framegroups'));
  assert.deepEqual(where(grunt), [], 'grunt.dpm.framegroups fits its 441 frames');
  assert.equal(grunt.doc.clips.length, 25);
  assert.equal(grunt.companions[0].state === 'read' && grunt.companions[0].model.frameCount, 441);
  const saw = await check(join(ASSETS, 'dpm/nexuiz/h_chainsaw.dpm.framegroups'));
  assert.deepEqual(where(saw), []);
  assert.deepEqual(saw.doc.clips.map((c) => [c.name, c.firstFrame, c.frameCount, c.fps]), [['groupified_0_anim', 1, 8, 20], ['groupified_1_anim', 9, 23, 20], ['groupified_2_anim', 32, 200, 20], ['groupified_3_anim', 232, 39, 20]]);

  // The skin names "fbgrunt", an image the folder does not have.
  const gruntSkin = await check(join(ASSETS, 'dpm/nexuiz/grunt.dpm_0.skin'));
  assert.deepEqual(where(gruntSkin), ['1:9 texture-not-found']);
  assert.match(gruntSkin.diagnostics[0].message, /"fbgrunt".*\.tga, \.jpg, \.jpeg, \.png, \.pcx, \.bmp/);

  // oa_soldier: LEGS_JUMPB (184, 3 frames) and LEGS_LANDB (186, 3 frames) share frame 186.
  const cfg = await check(join(ASSETS, 'md3/oa_soldier/animation.cfg'));
  assert.deepEqual(where(cfg), ['40:1 frame-range-overlap']);
  assert.match(cfg.diagnostics[0].message, /frame 186 also belongs to "LEGS_JUMPB" \(line 39\)/);
  assert.deepEqual(cfg.companions.map((c) => c.state === 'read' && [c.part, c.model.frameCount]), [['lower', 218], ['upper', 218], ['head', 218]]);

  // Their textures are named under models/monsters/soldier/, while the folder is md3/oa_soldier.
  const head = await check(join(ASSETS, 'md3/oa_soldier/head.md3_0.skin'));
  assert.deepEqual(where(head), ['1:9 texture-outside-game-path', '2:8 texture-outside-game-path', '3:1 skin-tag-unknown']);
  assert.match(head.diagnostics[0].message, /only as "hairs\.tga" beside this file.*"models\/monsters\/soldier\/"/);
  assert.deepEqual(where(await check(join(ASSETS, 'md3/oa_soldier/lower.md3_0.skin'))), ['1:8 texture-outside-game-path']);
  assert.deepEqual(where(await check(join(ASSETS, 'md3/chainsaw/g_chainsaw.md3_0.skin'))), ['1:9 texture-outside-game-path']);
  assert.deepEqual(where(await check(join(ASSETS, 'md3/kubalwagon/kt_kubalwagon.shader'))), ['12:21 texture-outside-game-path']);
});

test('real files: hover text of a clip (frames and duration), with the legs offset', { skip: NO_ASSETS }, async () => {
  const grunt = await check(join(ASSETS, 'dpm/nexuiz/grunt.dpm.framegroups'));
  const clip = clipAtLine(grunt.doc, 0)!;
  assert.equal(clipHover(grunt.doc, clip), '**grunt_anim1**: frames 1–19 (19 frames)\n\n10 fps: 1.9 s, plays once');
  const cfg = await check(join(ASSETS, 'md3/oa_soldier/animation.cfg'));
  const walk = clipAtLine(cfg.doc, 30)!;
  assert.equal(walk.name, 'LEGS_WALK');
  assert.equal(clipHover(cfg.doc, walk), '**LEGS_WALK**: frames 115–125 (11 frames) of lower.md3\n\n11 fps: 1 s, loops');
});

test('broken variants beside generated models: ranges, overlaps, empty, fps, surfaces, textures, the legs offset', async () => {
  await withTempDir('iqm-sidecar-', async (dir) => {
    writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [10, 20] })); // 30 frames, mesh "body"
    const fg = join(dir, 'm.iqm.framegroups');
    const r = await check(fg, '0 10 10 1 idle\n5 10 10 1 overlaps\n25 10\n40 1 // past the end\n30 0 -5\nbad line\n');
    assert.deepEqual(where(r), ['2:1 frame-range-overlap', '3:1 frame-range', '4:1 frame-range', '5:4 frame-range-empty', '5:6 fps-invalid', '6:1 sidecar-syntax']);
    assert.match(r.diagnostics[1].message, /Frames 25–34 of m\.iqm, which has 30 frames \(0–29\)/);
    assert.match(r.diagnostics[0].message, /frames 5–9 also belong to "idle" \(line 1\)/);

    // The model changes: the same text fits once it has 40 frames.
    writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [40, 1] }));
    assert.deepEqual(where(await check(fg, '0 10\n25 10\n40 1\n')), []);
    // No model: one warning, nothing else checked.
    assert.deepEqual(where(await check(join(dir, 'none.iqm.framegroups'), '0 99999\n')), ['1:1 model-not-found']);
    // A model that is not one: the reader's error with its byte offset.
    writeFileSync(join(dir, 'bad.iqm'), 'INTERQUAKEMODEL\0xx');
    const bad = await check(join(dir, 'bad.iqm.framegroups'), '0 1\n');
    assert.deepEqual(where(bad), ['1:1 model-unreadable']);
    assert.match(bad.diagnostics[0].message, /bad\.iqm cannot be read: .*at byte \d+/);

    // A skin: an unknown surface, an image that exists (found from the game folder), one that does not.
    mkdirSync(join(dir, 'models/car'), { recursive: true });
    mkdirSync(join(dir, 'textures'), { recursive: true });
    writeFileSync(join(dir, 'textures/paint.png'), 'not decoded, only found');
    writeFileSync(join(dir, 'models/car/car.md3'), md3({ frames: 2, surfaceName: 'hull_1', tagNames: ['tag_wheel'] }));
    // A shader script under scripts/ of the game folder defines "textures/glass" (the engine tries shaders first).
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'car.shader'), 'textures/glass\n{\n  { map textures/paint.tga }\n}\n');
    const skin = await check(join(dir, 'models/car/car_red.skin'), 'hull,textures/paint.tga\nHULL_1 , textures/paint\nwheel,textures/nothing\ntag_wheel,\ntag_roof,\nno comma here\nhull,textures/glass.tga\n');
    assert.deepEqual(where(skin), ['3:1 skin-surface-unknown', '3:7 texture-not-found', '5:1 skin-tag-unknown', '6:1 sidecar-syntax']);
    assert.deepEqual(skin.textures[3], { state: 'shader', file: join(dir, 'scripts', 'car.shader') });
    assert.match(skin.diagnostics[1].message, /No shader of that name either \(1 shader script read\)/);
    assert.equal(skin.textures[0].state === 'found' && skin.textures[0].path, join(dir, 'textures/paint.png'));
    assert.match(skin.diagnostics[0].message, /car\.md3 has no surface "wheel" \(its surfaces: "hull_1"\)/);

    // animation.cfg: the legs offset moves LEGS_* into lower.md3's frames; one past the end.
    const player = join(dir, 'player');
    mkdirSync(player);
    writeFileSync(join(player, 'lower.md3'), md3({ frames: 40, surfaceName: 'l_legs' }));
    writeFileSync(join(player, 'upper.md3'), md3({ frames: 30, surfaceName: 'u_torso' }));
    writeFileSync(join(player, 'head.md3'), md3({ frames: 1, surfaceName: 'h_head' }));
    const rows = [
      [0, 5, 0, 20], [4, 1, 0, 20], [5, 5, 0, 20], [9, 1, 0, 20], [10, 5, 0, 20], [14, 1, 0, 20], // BOTH_*: 0-14
      [15, 5, 0, 15], [20, 2, 0, 15], [22, 2, 0, 15], [24, 2, 0, 15], [26, 2, 0, 15], [28, 1, 1, 0], [28, 1, 1, 15], // TORSO_*: 15-28
      [29, 5, 5, 15], [34, 5, 5, 15], [39, 5, 5, 15], [44, 5, 5, 15], [49, 5, 5, 15], [54, 2, 0, 15], [56, 2, 0, 15], [58, 2, 0, 15], [60, 2, 0, 15], [62, 5, 5, 15], [67, 0, 0, 15], [67, 3, 0, -2], // LEGS_*
    ];
    const text = 'sex m\n' + rows.map((r) => r.join('\t')).join('\n') + '\n';
    const cfg = await check(join(player, 'animation.cfg'), text);
    // skip = 29 - 15 = 14: LEGS_WALKCR plays lower.md3 frames 15-19, LEGS_TURN 53-55, past its 40.
    assert.equal(cfg.doc.legsOffset, 14);
    // Line 1 is "sex m"; the rows start on line 2.
    assert.deepEqual(where(cfg), [
      '13:8 fps-invalid', // TORSO_STAND fps 0
      '20:1 frame-range', '21:1 frame-range', '22:1 frame-range', '23:1 frame-range', '24:1 frame-range', // LEGS_JUMP (54 - 14 = 40) to LEGS_IDLE
      '25:4 frame-range-empty', // LEGS_IDLECR 0 frames
      '26:1 frame-range', '26:8 fps-invalid', // LEGS_TURN, negative fps
    ]);
    const jump = cfg.diagnostics.find((d) => d.range.line === 19)!;
    assert.match(jump.message, /^LEGS_JUMP plays frames 40–41 \(written 54, lowered by the LEGS_\* offset 14.*\) of lower\.md3, which has 40 frames/);
    assert.equal(cfg.diagnostics.find((d) => d.code === 'fps-invalid' && d.range.line === 25)?.severity, 'error');
  });
});

test('frame-range overlaps: one warning per clip on the later line, the same frames twice allowed, linear in the clips', async () => {
  await withTempDir('iqm-sidecar-', async (dir) => {
    writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [50, 50] })); // 100 frames
    const fg = join(dir, 'm.iqm.framegroups');
    // Line 3 has line 1's very frames (no warning); line 4 is inside both and inside line 2, but
    // gets one warning; line 5 starts before line 2 and overlaps it: the warning goes on line 5
    // (the later line); line 6 touches nothing.
    const r = await check(fg, '0 10 10 1 a\n20 10 10 1 b\n0 10 10 1 same\n5 2 10 1 inner\n15 6 10 1 before_b\n40 5 10 1 alone\n');
    assert.deepEqual(where(r), ['4:1 frame-range-overlap', '5:1 frame-range-overlap']);
    assert.match(r.diagnostics[0].message, /^frames 5–6 also belong to "(a|same)" \(line [13]\)/);
    assert.match(r.diagnostics[1].message, /^frame 20 also belongs to "b" \(line 2\)/);
    // A clip with the frames of the furthest-reaching one still overlaps a third.
    assert.deepEqual(where(await check(fg, '0 10 10 1 a\n5 3 10 1 b\n0 10 10 1 same_as_a\n')), ['2:1 frame-range-overlap']);
    assert.deepEqual(where(await check(fg, '5 3 10 1 b\n0 10 10 1 a\n0 10 10 1 same_as_a\n')), ['2:1 frame-range-overlap']);

    // 20,000 nested ranges: every clip overlaps every other. Pairing every two was 200 million
    // warnings (1,000 lines: 500,000 warnings and a stack overflow in `check`); now one a clip,
    // each naming the line before it.
    const nested = Array.from({ length: 20_000 }, (_, i) => `0 ${i + 1} 10 1 c${i}\n`).join('');
    const overlaps = (await check(fg, nested)).diagnostics.filter((d) => d.code === 'frame-range-overlap');
    assert.equal(overlaps.length, 19_999);
    assert.deepEqual(overlaps.map((d) => d.range.line), Array.from({ length: 19_999 }, (_, i) => i + 1));
    assert.match(overlaps[19_998].message, /^frames 0–19998 also belong to "c19998" \(line 19999\)/);
  });
});

test('texture lookups go a folder at a time: a shader script of 400 stages lists each folder once and asks only for names that are there', async () => {
  await withTempDir('iqm-sidecar-', async (dir) => {
    mkdirSync(join(dir, 'scripts'));
    mkdirSync(join(dir, 'textures', 'base'), { recursive: true });
    writeFileSync(join(dir, 'textures', 'base', 'wall7.jpg'), 'found, not decoded');
    writeFileSync(join(dir, 'textures', 'base', 'WALL8.TGA'), 'another case');
    const stages = Array.from({ length: 400 }, (_, i) => `textures/base/wall${i}\n{\n  {\n    map textures/base/wall${i}.tga\n  }\n}\n`).join('');
    const calls = { isFile: 0, listFolder: 0 };
    const counting: SidecarIo = {
      ...diskSidecarIo,
      isFile: (path) => (calls.isFile++, diskSidecarIo.isFile(path)),
      listFolder: (path) => (calls.listFolder++, diskSidecarIo.listFolder(path)),
    };
    const shader = join(dir, 'scripts', 'walls.shader');
    const r = await checkSidecar('shader', shader, stages, counting, EXT);
    assert.deepEqual(r.textures[7], { state: 'found', path: join(dir, 'textures', 'base', 'wall7.jpg') });
    // The file system decides the case, as a lookup by path would (WALL8.TGA is wall8.tga only where names ignore case).
    const caseBlind = existsSync(join(dir, 'textures', 'base', 'wall8.tga'));
    assert.equal(r.textures[8].state, caseBlind ? 'found' : 'missing');
    assert.equal(r.textures.filter((t) => t.state === 'missing').length, caseBlind ? 398 : 399);
    // Asked by path: only the names some folder lists (wall7.tga is not there, wall7.jpg is).
    assert.ok(calls.isFile <= 3, `${calls.isFile} lookups by path`);
    // Listed: the folders above the script (9 at most) with textures/base under each, and the script's own.
    assert.ok(calls.listFolder <= 20, `${calls.listFolder} folders listed`);

    // 300 textures in 300 folders that are nowhere: a folder is listed only where its parent holds
    // its name, so textures/ is, and none of textures/set0..299 (300 x 9 listings otherwise).
    calls.listFolder = calls.isFile = 0;
    const spread = Array.from({ length: 300 }, (_, i) => `textures/set${i}/wall\n{\n  {\n    map textures/set${i}/wall.tga\n  }\n}\n`).join('');
    const apart = await checkSidecar('shader', shader, spread, counting, EXT);
    assert.equal(apart.textures.filter((t) => t.state === 'missing').length, 300);
    assert.ok(calls.listFolder <= 20, `${calls.listFolder} folders listed`);
    assert.equal(calls.isFile, 0);
  });
});

test('folder listings for a path of 5,000 folders: no deeper than 64 parents asked, no stack overflow', async () => {
  const listed: string[] = [];
  const isFile = listedIsFile({
    listFolder: async (p) => (listed.push(p), p === '/' ? ['a'] : p.endsWith('/a') ? ['a', 'x.tga'] : null),
    isFile: async () => true,
  });
  const deep = `/${Array.from({ length: 5000 }, () => 'a').join('/')}/x.tga`;
  assert.equal(await isFile(deep), true);
  assert.ok(listed.length <= 64, `${listed.length} folders listed`);
  assert.equal(await isFile('/a/a/x.tga'), true);
  assert.equal(await isFile('/b/x.tga'), false);
});

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, 'check', ...args], { encoding: 'utf8' });

test('iqm-tools check on the real sidecar files: the same diagnostics, exit 0 with warnings only', { skip: NO_CLI || NO_ASSETS }, () => {
  const files = ['md3/oa_soldier/animation.cfg', 'dpm/nexuiz/grunt.dpm.framegroups', 'dpm/nexuiz/grunt.dpm_0.skin', 'md3/kubalwagon/kt_kubalwagon.shader'].map((f) => join(ASSETS, f));
  const run = cli(...files);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, [
    `${files[0]}:40:1: warning: frame 186 also belongs to "LEGS_JUMPB" (line 39). [frame-range-overlap]`,
    `${files[2]}:1:9: warning: No image "fbgrunt" (surface "shader0"): looked in this folder and each one above it as the game's folder, with .tga, .jpg, .jpeg, .png, .pcx, .bmp (${searchFolders(join(ASSETS, 'dpm/nexuiz')).length * 6} paths). No shader of that name either (0 shader scripts read). The engine draws its missing-texture image. [texture-not-found]`,
    `${files[3]}:12:21: information: "models/mapobjects/kt_kubalwagon/euro_frnt_2.tga" is not found where the engine looks (the path under the game's folder), only as "euro_frnt_2.tga" beside this file. The engine finds it once this folder is "models/mapobjects/kt_kubalwagon/" under the game's folder. [texture-outside-game-path]`,
    '',
  ].join('\n'));
});

test('iqm-tools check on broken sidecars: errors exit 1, JSON with each file, an unreadable file exits 2', { skip: NO_CLI }, () => {
  return withTempDir('iqm-check-sidecar-', (dir) => {
    writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [8] }));
    writeFileSync(join(dir, 'm.iqm.framegroups'), '0 8 10 1 all\n6 4 10 1 past\n');
    writeFileSync(join(dir, 'm.iqm_0.skin'), 'body,nothing/here\n');
    const run = cli(join(dir, 'm.iqm.framegroups'), join(dir, 'm.iqm_0.skin'));
    assert.equal(run.status, 1);
    assert.match(run.stdout, /m\.iqm\.framegroups:2:1: error: Frames 6–9 of m\.iqm, which has 8 frames \(0–7\): DarkPlaces clamps the range to the last frame\. \[frame-range\]/);
    assert.match(run.stdout, /m\.iqm_0\.skin:1:6: warning: No image "nothing\/here"/);
    const json = cli('--json', join(dir, 'm.iqm.framegroups'));
    assert.equal(json.status, 1);
    const parsed = JSON.parse(json.stdout) as { diagnostics: { file: string; line: number; column: number; endColumn: number; code: string; severity: string }[] };
    assert.deepEqual(parsed.diagnostics.map((d) => [d.line, d.column, d.endColumn, d.code, d.severity]), [[2, 1, 4, 'frame-range', 'error'], [2, 1, 4, 'frame-range-overlap', 'warning']]);
    const missing = cli(join(dir, 'gone.framegroups'), join(dir, 'm.iqm.framegroups'));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /gone\.framegroups: cannot read: ENOENT/);
  });
});

// `iqm-tools lint` and `compile --engine` as a user runs them (the built dist/cli.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { iqm, md3, md3Spec } from '../helpers/engine-models';
import { writeMd3 } from '../helpers/model-writers';
import { withTempDir } from '../helpers/temp-dir';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('lint: exit 1 when an engine refuses, 0 when it loads; --json; several engines; bad arguments exit 2', () => {
  withTempDir('iqm-lint-', (dir) => {
    const file = join(dir, 'big.md3');
    writeFileSync(file, md3({ vertices: 1000 }));
    const q = cli('lint', file, '--engine', 'ioquake3');
    assert.equal(q.status, 1, q.stderr);
    assert.match(q.stdout, /big\.md3: error: \[ioquake3\] surface 0 "surface0" has 1,000 vertices, over 999 \[md3-surface-vertices\] \(at byte 164\)\n {4}a surface with SHADER_MAX_VERTEXES .* — ioquake\/ioq3 code\/renderergl1\/tr_model\.c:454 @2ca05943/);
    const dp = cli('lint', file, '--engine', 'xonotic');
    assert.equal(dp.status, 0, dp.stdout + dp.stderr);
    assert.equal(dp.stdout, '');

    const json = cli('lint', file, '--engine', 'darkplaces,quake3,ioquake3', '--json');
    assert.equal(json.status, 1);
    const out = JSON.parse(json.stdout);
    assert.deepEqual(out.engines, ['darkplaces', 'quake3', 'ioquake3']);
    // (The generated surface names the shader textures/s0, which is not there: a note.)
    assert.deepEqual(out.findings.map((f: { engine: string; code: string }) => `${f.engine} ${f.code}`), ['ioquake3 md3-surface-vertices', 'ioquake3 texture-not-found']);
    const f = out.findings[0];
    assert.equal(f.file, file);
    assert.equal(f.severity, 'error');
    assert.equal(f.location.byteOffset, 164);
    assert.equal(f.fact.source.repo, 'ioquake/ioq3');
    assert.equal(f.fact.source.lines, '454');

    assert.equal(cli('lint', file, '--engine', 'quake9').status, 2);
    assert.match(cli('lint', file, '--engine', 'quake9').stderr, /unknown engine 'quake9'; known: darkplaces, fte, ioquake3/);
    assert.equal(cli('lint', file).status, 2);
    assert.equal(cli('lint', join(dir, 'missing.md3'), '--engine', 'fte').status, 2);
    writeFileSync(join(dir, 'junk.iqm'), 'not a model');
    const junk = cli('lint', join(dir, 'junk.iqm'), '--engine', 'fte');
    assert.equal(junk.status, 2);
    assert.match(junk.stderr, /junk\.iqm: .*\(at byte 0\)/);
  });
});

test('lint: IQE findings carry their line', () => {
  withTempDir('iqm-lint-', (dir) => {
    const file = join(dir, 'half.iqe');
    writeFileSync(file, ['# Inter-Quake Export', 'vertexarray texcoord half 2', 'mesh m', 'vp 0 0 0', 'vt 0 0', 'vp 1 0 0', 'vt 1 0', 'vp 0 1 0', 'vt 0 1', 'fa 0 1 2', ''].join('\n'));
    const r = cli('lint', file, '--engine', 'redeclipse');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /half\.iqe:2: error: \[redeclipse\] vertexarray texcoord is half × 2; float × 2 only \[array-format\]/);
    // compile --engine: the same finding as a warning on stderr; the IQM is written, exit 0.
    const c = cli('compile', file, '--engine', 'redeclipse');
    assert.equal(c.status, 0, c.stderr);
    assert.match(c.stderr, /half\.iqm: error: \[redeclipse\] vertex array 1 \(texcoord\) is half × 2; float × 2 only \[array-format\]/);
    const j = JSON.parse(cli('compile', file, '--engine', 'redeclipse,fte', '--json').stdout);
    assert.deepEqual(j.engines.map((e: { engine: string; code: string }) => `${e.engine} ${e.code}`), ['redeclipse array-format']);
    assert.equal(cli('compile', file, '--engine', 'nope').status, 2);
  });
});

test('lint: a Quake 3 player folder is checked as a set (skins, tags, animation.cfg)', () => {
  withTempDir('iqm-player-', (dir) => {
    const part = (tags: string[], surface: string, frames: number) => writeMd3({ ...md3Spec({ frames, tagNames: tags, surfaceName: surface }) });
    writeFileSync(join(dir, 'lower.md3'), part(['tag_torso'], 'l_legs', 20));
    writeFileSync(join(dir, 'upper.md3'), part(['tag_head', 'tag_weapon'], 'u_torso', 20));
    writeFileSync(join(dir, 'head.md3'), part([], 'h_head', 1));
    const rows = Array.from({ length: 25 }, (_, k) => `${k} 1 0 10`); // LEGS_WALKCR at 13, TORSO_GESTURE at 6: offset 7
    writeFileSync(join(dir, 'animation.cfg'), ['sex f', ...rows].join('\n'));
    writeFileSync(join(dir, 'lower_default.skin'), 'l_legs,models/players/x/legs.tga\n');
    writeFileSync(join(dir, 'upper_default.skin'), 'u_torso,models/players/x/torso.tga\n');
    writeFileSync(join(dir, 'head_default.skin'), 'h_head,models/players/x/head.tga\n');
    const ok = cli('lint', dir, '--engine', 'ioquake3');
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^\S+animation\.cfg: information: \[ioquake3\] LEGS_\* first frames are lowered by 7 .* \[player-legs-offset\]\n {4}.*cg_players\.c \(CG_ParseAnimationFile\) @0742d30e\n$/);
    // The upper part without tag_weapon, and a head skin that misses the head's surface.
    writeFileSync(join(dir, 'upper.md3'), part(['tag_head'], 'u_torso', 20));
    writeFileSync(join(dir, 'head_default.skin'), 'face,models/players/x/head.tga\n');
    const bad = cli('lint', join(dir, 'upper.md3'), '--engine', 'ioquake3', '--json');
    assert.equal(bad.status, 1);
    const codes = JSON.parse(bad.stdout).findings.map((f: { code: string }) => f.code).sort();
    assert.deepEqual(codes, ['player-legs-offset', 'player-skin-surface', 'player-tag-missing']);
  });
});

/** A TGA header (uncompressed true colour) with no pixels: enough for a size. */
function tgaHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(18);
  b[2] = 2;
  b[12] = width & 255;
  b[13] = width >> 8;
  b[14] = height & 255;
  b[15] = height >> 8;
  b[16] = 24;
  return b;
}

test('lint: textures looked up as ioquake3 does (extensions in order, from the game root); non-power-of-two ones are resampled', () => {
  withTempDir('iqm-tex-', (dir) => {
    const folder = join(dir, 'models', 'box');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'box.iqm');
    // The material names the texture without extension, relative to the game's root (dir).
    writeFileSync(file, iqm({ material: 'models/box/skin' }));
    const missing = JSON.parse(cli('lint', file, '--engine', 'ioquake3', '--json').stdout).findings;
    assert.deepEqual(missing.map((f: { code: string; severity: string }) => `${f.code} ${f.severity}`), ['texture-not-found information']);
    // A .png is found after .tga, .jpg and .jpeg were tried; 300 × 200 is resampled.
    writeFileSync(join(folder, 'skin.png'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 44, 0, 0, 0, 200]));
    const npot = cli('lint', file, '--engine', 'ioquake3');
    assert.equal(npot.status, 1);
    assert.match(npot.stdout, /warning: \[ioquake3\] models\/box\/skin\.png is 300 × 200, not a power of two on each side \[texture-npot\]/);
    // A .tga comes first in the order: a 256 × 128 one is used, and nothing is said.
    writeFileSync(join(folder, 'skin.tga'), tgaHeader(256, 128));
    const ok = cli('lint', file, '--engine', 'ioquake3');
    assert.equal(ok.status, 0, ok.stdout);
    assert.equal(ok.stdout, '');
    // Engines without texture rules say nothing about textures.
    rmSync(join(folder, 'skin.tga'));
    assert.equal(cli('lint', file, '--engine', 'darkplaces').stdout, '');
  });
});

test('info names whose limit it quotes, and shows an engine\'s findings with --engine', () => {
  withTempDir('iqm-info-', (dir) => {
    const file = join(dir, 'big.md3');
    writeFileSync(file, md3({ vertices: 4097 }));
    const plain = cli('info', file);
    assert.equal(plain.status, 0);
    assert.match(plain.stdout, /warning: surface "surface0": 4097 vertices exceed Quake 3's MD3_MAX_VERTS of 4096 \(other engines differ: iqm-tools lint --engine NAME\)/);
    assert.doesNotMatch(plain.stdout, /the engine limit/);
    const dp = JSON.parse(cli('info', file, '--json', '--engine', 'darkplaces').stdout);
    assert.deepEqual(dp.engines, []);
    const q = cli('info', file, '--engine', 'ioquake3');
    assert.equal(q.status, 0);
    assert.match(q.stdout, /error: \[ioquake3\] surface 0 "surface0" has 4,097 vertices, over 999 \[md3-surface-vertices\]/);
    assert.equal(cli('info', file, '--engine', 'nope').status, 2);
  });
});

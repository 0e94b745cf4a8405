// Issue 30: one engine lookup and one clip order. For the same folders (real files in a temp dir,
// and the real assets where ../shared/assets is there), the preview, the sidecar check and lint give
// the same answer for each texture name, and the preview, convert and info the same clips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { diffModels } from '../../core/compare/diff';
import { findEngine } from '../../core/engines/index';
import { textureExtensions } from '../../core/engines/textures';
import { clipsBeside, modelClips, playedModel } from '../../core/lookup/clips';
import { chooseSkin, textureNames } from '../../core/lookup/meshTextures';
import { findSidecars } from '../../core/lookup/sidecars';
import { meshTexture, textureLookup } from '../../core/lookup/textures';
import { readModel } from '../../core/formats/models';
import { checkSidecar } from '../../core/sidecarCheck/check';
import { lintFile } from '../../cli/lint';
import { diskSidecarIo } from '../../node/sidecarIo';
import { nodeFileAccess } from '../../node/files';
import { compileSourceText } from '../helpers/compile-iqm';
import { iqm, md3 } from '../helpers/engine-models';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { withTempDir } from '../helpers/temp-dir';

const IOQ3 = findEngine('ioquake3')!;
const EXT = textureExtensions([IOQ3]);

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Whether the engine finds the name, as each of the three asks the one lookup. */
interface Answers {
  preview: { engine: boolean; path: string | null };
  check: { engine: boolean; state: string };
  lint: { engine: boolean };
}

/**
 * The model `m.iqm` in `dir` whose mesh "body" has the material `name`, with `m.iqm_0.skin` giving
 * it `name` too: the preview's request (the skin's name, then the material), the skin's check and
 * lint of the model.
 */
async function answers(dir: string, name: string): Promise<Answers> {
  const modelPath = join(dir, 'm.iqm');
  const bytes = iqm({ material: name });
  write(modelPath, bytes);
  const skinPath = join(dir, 'm.iqm_0.skin');
  write(skinPath, `body,${name}\n`);
  // The preview: the webview's names for the mesh (its skin chosen as it chooses), the host's lookup.
  const model = readModel(bytes);
  const sidecars = await findSidecars(nodeFileAccess, modelPath, false);
  const skin = chooseSkin(model, sidecars.skins);
  const preview = await meshTexture(textureLookup(nodeFileAccess, dir, EXT), textureNames(model, 0, skin?.skin ?? null), skin?.name ?? null);
  // The language server's (and `check`'s) check of the skin.
  const checked = await checkSidecar('skin', skinPath, `body,${name}\n`, diskSidecarIo, EXT);
  const state = checked.textures[0].state;
  // lint --engine ioquake3.
  const linted = await lintFile(modelPath, bytes, [IOQ3]);
  assert.ok('findings' in linted);
  const missing = linted.findings.some((f) => f.code === 'texture-not-found');
  return {
    preview: { engine: preview.found === 'engine' || preview.shader !== null, path: preview.path },
    check: { engine: state === 'found' || state === 'shader', state },
    lint: { engine: !missing },
  };
}

test('textures: the preview, the sidecar check and lint give the same answer for each name (generated folders)', async () => {
  await withTempDir('iqm-parity-', async (root) => {
    const game = join(root, 'game');
    write(join(game, 'models/x/skin.jpg'), 'image');
    write(join(game, 'models/x/old.pcx'), 'image'); // ioquake3 loads PCX (the old preview did not try it)
    write(join(game, 'textures/base/wall.tga'), 'image');
    write(join(game, 'beside.tga'), 'image');
    write(join(game, 'models/x/beside.tga'), 'image');
    write(join(game, 'scripts/x.shader'), 'models/x/glow\n{\n  cull none\n  {\n    map textures/base/wall.tga\n  }\n}\n');
    const dir = join(game, 'models/x');
    // name → whether the engine finds it (a shader, or an image from some folder above as the game root)
    const table: [string, boolean][] = [
      ['models/x/skin.tga', true], // the .tga named, the .jpg there: the engine tries the other extensions
      ['models/x/skin', true],
      ['models/x/old', true],
      ['textures/base/wall.tga', true],
      ['models/x/glow', true], // a shader of scripts/ (lint did not ask the shaders)
      ['models/x/glow.tga', true], // the shader by its name with an image extension (R_FindShader strips it)
      ['textures/elsewhere/beside', false], // only the base name beside the model: not where the engine looks
      ['textures/none/at_all', false],
    ];
    for (const [name, engine] of table) {
      const a = await answers(dir, name);
      assert.deepEqual([a.preview.engine, a.check.engine, a.lint.engine], [engine, engine, engine], `${name}: ${JSON.stringify(a)}`);
    }
    // The preview still shows an image lying beside the model, and the check says it is only there.
    const beside = await answers(dir, 'textures/elsewhere/beside');
    assert.equal(beside.preview.path, join(dir, 'beside.tga'));
    assert.equal(beside.check.state, 'beside');
  });
});

test('textures: the same answers on the real assets (the names their models and skins give)', { skip: NO_ASSETS }, async () => {
  const cases: [string, string][] = [
    ['md3/oa_soldier/upper.md3_0.skin', 'md3/oa_soldier'],
    ['md3/chainsaw/g_chainsaw.md3_0.skin', 'md3/chainsaw'],
    ['dpm/nexuiz/grunt.dpm_0.skin', 'dpm/nexuiz'],
  ];
  for (const [skinRel, folder] of cases) {
    const dir = join(ASSETS, folder);
    const text = readFileSync(join(ASSETS, skinRel), 'latin1');
    const checked = await checkSidecar('skin', join(ASSETS, skinRel), text, diskSidecarIo, EXT);
    const lookup = textureLookup(nodeFileAccess, dir, EXT);
    for (const [i, t] of checked.doc.textures.entries()) {
      const preview = await meshTexture(lookup, [t.path], null);
      const state = checked.textures[i].state;
      const checkEngine = state === 'found' || state === 'shader';
      assert.equal(preview.found === 'engine' || preview.shader !== null, checkEngine, `${skinRel} ${t.path}: preview ${preview.found}, check ${state}`);
      if (state === 'found') assert.equal(preview.path, (checked.textures[i] as { path: string }).path);
    }
  }
  // The kubalwagon's surfaces name shaders of the script beside it: found by the preview and lint alike.
  const wagon = join(ASSETS, 'md3/kubalwagon/european_fnt_v2.md3');
  const bytes = new Uint8Array(readFileSync(wagon));
  const linted = await lintFile(wagon, bytes, [IOQ3]);
  assert.ok('findings' in linted);
  const model = readModel(bytes);
  const lookup = textureLookup(nodeFileAccess, dirname(wagon), EXT);
  for (const [i, mesh] of model.meshes.entries()) {
    if (!mesh.material) continue;
    const preview = await meshTexture(lookup, [mesh.material], null);
    const lintMissing = linted.findings.some((f) => f.code === 'texture-not-found' && f.location.mesh === i);
    // lint reports a name once, at its first mesh: compare where it reports.
    if (model.meshes.findIndex((m) => m.material === mesh.material) !== i) continue;
    assert.equal(preview.found === 'engine' || preview.shader !== null, !lintMissing, `${mesh.material}: preview ${preview.found}, lint ${lintMissing ? 'missing' : 'found'}`);
  }
});

test('lint looks a material up as a shader first, as the preview does (lint said "no image" for a shader of scripts/)', async () => {
  await withTempDir('iqm-lint-shader-', async (root) => {
    write(join(root, 'scripts/fx.shader'), 'models/fx/glow\n{\n  {\n    map models/fx/glow_img.tga\n  }\n}\n');
    write(join(root, 'models/fx/glow_img.tga'), 'image');
    const model = join(root, 'models/fx/m.iqm');
    write(model, iqm({ material: 'models/fx/glow' }));
    const r = cli('lint', model, '--engine', 'ioquake3', '--json');
    const codes = (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    assert.ok(!codes.includes('texture-not-found'), r.stdout);
  });
});

/**
 * The clip names of an IQE text (its `animation` lines), without the one the writer adds to carry
 * the frames no clip covers (`<label> frames`, core/iqe/writer.ts: IQE keeps only frames of animations).
 */
function iqeClips(text: string, label: string): string[] {
  return [...text.matchAll(/^animation "?([^"\n]*)"?\s*$/gm)].map((m) => m[1]).filter((n) => n !== `${label} frames`);
}

/** The clips the three give for the model at `path`: the preview's (the host's sidecars, core's order), convert's and info's. */
async function clipsOf(path: string, dir: string): Promise<{ preview: string[]; convert: string[]; convertNotes: string; info: string[]; from: string }> {
  const model = readModel(new Uint8Array(readFileSync(path)));
  const sidecars = await findSidecars(nodeFileAccess, path, model.format === 'md3');
  const preview = modelClips(model, path, sidecars);
  const out = join(dir, 'converted.iqe');
  const converted = cli('convert', path, '-o', out);
  assert.equal(converted.status, 0, converted.stderr);
  const info = cli('info', path, '--json');
  assert.equal(info.status, 0, info.stderr);
  const json = JSON.parse(info.stdout) as { animations: { name: string }[]; clips?: { name: string }[]; clips_from?: string };
  // info's clips where a sidecar decides them, else the file's own animations.
  return { preview: preview.clips.map((c) => c.name), convertNotes: converted.stderr, convert: iqeClips(readFileSync(out, 'utf8'), basename(path)), info: (json.clips ?? json.animations).map((a) => a.name), from: json.clips_from ?? 'model' };
}

/** An animation.cfg of the 25 required animations, one frame each from `first`. */
function animationCfg(first = 0): string {
  return `sex m\n${Array.from({ length: 25 }, (_, i) => `${first + i} 1 0 10`).join('\n')}\n`;
}

test('clips: the preview, convert and info give the same clips (animation.cfg beside an MD3; a player part; a .framegroups)', async () => {
  await withTempDir('iqm-clips-', async (dir) => {
    // An MD3 of another name with an animation.cfg: convert named clips from .framegroups only.
    const gun = join(dir, 'gun', 'gun.md3');
    write(gun, md3({ frames: 40 }));
    write(join(dir, 'gun', 'animation.cfg'), animationCfg());
    const g = await clipsOf(gun, dir);
    assert.ok(g.preview.includes('BOTH_DEATH1') && g.preview.length >= 25, g.preview.join(','));
    assert.deepEqual(g.info, g.preview);
    assert.equal(g.from, 'animation.cfg');
    // IQE carries no MD3 vertex animation (frame 0 is written): convert says which file named the clips.
    assert.match(g.convertNotes, /gun\.md3: animations from animation\.cfg/);
    // A player part: animation.cfg wins over a .framegroups (which convert used to take), its own animations only.
    const lower = join(dir, 'player', 'lower.md3');
    write(lower, md3({ frames: 40 }));
    write(join(dir, 'player', 'animation.cfg'), animationCfg());
    write(join(dir, 'player', 'lower.md3.framegroups'), '0 5 10 1 ignored\n');
    const l = await clipsOf(lower, dir);
    assert.ok(l.preview.every((n) => n.startsWith('BOTH_') || n.startsWith('LEGS_')) && l.preview.length > 0, l.preview.join(','));
    assert.deepEqual(l.info, l.preview);
    assert.match(l.convertNotes, /lower\.md3: animations from animation\.cfg/);
    assert.doesNotMatch(l.convertNotes, /framegroups/);
    // Any other model: its .framegroups.
    const m = join(dir, 'iqm', 'm.iqm');
    write(m, iqm({ joints: 2, anims: [20] }));
    write(join(dir, 'iqm', 'm.iqm.framegroups'), '0 10 10 1 walk\n10 10 10 0 die\n');
    const f = await clipsOf(m, dir);
    assert.deepEqual(f.preview, ['walk', 'die']);
    assert.deepEqual(f.convert, f.preview);
    assert.deepEqual(f.info, f.preview);
    assert.equal(f.from, 'm.iqm.framegroups');
  });
});

test('clips: a real DPM with its .framegroups, and Compare with… of it and its own conversion: the same clips on both sides', { skip: NO_ASSETS }, async () => {
  await withTempDir('iqm-clips-dpm-', async (dir) => {
    const grunt = join(ASSETS, 'dpm/nexuiz/grunt.dpm');
    const c = await clipsOf(grunt, dir);
    assert.equal(c.from, 'grunt.dpm.framegroups');
    assert.deepEqual(c.convert, c.preview);
    assert.deepEqual(c.info, c.preview);
    // Each side as its preview plays it: the DPM with its .framegroups, the IQE (compiled) with none.
    const dpm = readModel(new Uint8Array(readFileSync(grunt)));
    const left = playedModel(dpm, 'grunt.dpm', await clipsBeside(nodeFileAccess, grunt, dpm).then((r) => r.sidecars));
    const compiled = compileSourceText(readFileSync(join(dir, 'converted.iqe'), 'utf8'));
    assert.ok(compiled.bytes);
    const iqeModel = readModel(compiled.bytes);
    const right = playedModel(iqeModel, 'converted.iqe', await clipsBeside(nodeFileAccess, join(dir, 'converted.iqe'), iqeModel).then((r) => r.sidecars));
    // Both sides list the same clips, in order (the IQE's one more is the writer's carrier of the
    // frames no group covers; core/iqe/writer.ts moves those frames to the end).
    assert.deepEqual(right.clips.map((c) => c.name).filter((n) => n !== 'grunt.dpm frames'), left.clips.map((c) => c.name));
    // Compared clip by clip (core/compare/diff.ts): the clips and their frames agree; the one
    // animation the conversion adds is the only difference in the animations and frames.
    const played = diffModels(left, right).filter((d) => d.section === 'animations' || d.section === 'frames');
    assert.deepEqual(played.map((d) => d.message), ['animation "grunt.dpm frames" is only in the second model']);
    // What the comparison did before: the DPM's one clip a frame against the groups.
    assert.equal(diffModels(dpm, iqeModel).find((d) => /animation count/.test(d.message))?.message, `animation count ${dpm.clips.length} ≠ ${left.clips.length + 1}`);
  });
});

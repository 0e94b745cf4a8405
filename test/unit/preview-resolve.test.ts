// The engine lookup as the preview asks it (core/lookup through client/preview/resolve.ts and
// textureLookup.ts) over an in-memory file system and over the real ../shared/assets folders.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FileAccess as LookupFs } from '../../core/files';
import { findSidecars } from '../../core/lookup/sidecars';
import { playerSet } from '../../core/lookup/player';
import { textureExtensions } from '../../core/engines/textures';
import { skinCandidates } from '../../core/lookup/player';
import { meshTexture, textureLookup, texturePlan } from '../../core/lookup/textures';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { nodeFileAccess } from '../../node/files';

const EXT = textureExtensions([]);

function memoryFs(files: Record<string, string>): LookupFs & { stats: string[]; listed: string[] } {
  const stats: string[] = [];
  const listed: string[] = [];
  return {
    stats,
    listed,
    async isFile(p) {
      stats.push(p);
      return p in files;
    },
    // A folder is one when some file lies under it.
    async listFolder(p) {
      listed.push(p);
      const under = Object.keys(files).filter((f) => f.startsWith(p === '/' ? '/' : `${p}/`));
      return under.length > 0 ? [...new Set(under.map((f) => f.slice(p === '/' ? 1 : p.length + 1).split('/')[0]))] : null;
    },
    async readBytes(p) {
      return p in files ? Buffer.from(files[p], 'latin1') : null;
    },
  };
}

test('candidates: the engine\'s (the given extension, then the profile\'s), from each folder upwards, then the base name beside the model; skins in engine order', () => {
  const plan = texturePlan('models/players/x/skin', '/game/models/players/x', EXT);
  assert.equal(plan.engine[0].path, '/game/models/players/x/models/players/x/skin.tga');
  assert.ok(plan.engine.some((e) => e.path === '/game/models/players/x/skin.tga'));
  assert.ok(plan.engine.findIndex((e) => e.path === '/game/models/players/x/skin.png') > 0);
  // Windows separators; a doubled extension is the engine's: only the last one is replaced.
  const d = texturePlan('textures\\glass.tga.tga', '/m', EXT);
  assert.deepEqual(d.engine.slice(0, 2).map((e) => e.path), ['/m/textures/glass.tga.tga', '/m/textures/glass.tga.jpg']);
  assert.deepEqual(skinCandidates('lower.md3'), ['lower.md3_0.skin', 'lower_default.skin', 'lower_0.skin']);
});

test('a Q3 shader name resolves to its first stage image; two-sided and alpha test are reported; paths tried are listed', async () => {
  const fs = memoryFs({
    '/g/scripts/a.shader': 'models/obj/glass\n{\n cull none\n {\n  map $lightmap\n }\n {\n  map models/obj/glass_real.tga\n  alphaFunc GE128\n }\n}\n',
    '/g/models/obj/glass_real.tga': '',
  });
  const lookup = textureLookup(fs, '/g/models/obj', EXT);
  const r = await meshTexture(lookup, ['models/obj/glass'], null);
  assert.equal(r.path, '/g/models/obj/glass_real.tga');
  assert.equal(r.twoSided, true);
  assert.equal(r.alphaTest, 'GE128');
  assert.match(r.via, /shader "models\/obj\/glass" in a\.shader/);
  // The shader's name with an image extension is the same shader (R_FindShader strips it).
  assert.equal((await meshTexture(lookup, ['models/obj/glass.tga'], null)).path, '/g/models/obj/glass_real.tga');
  const none = await meshTexture(lookup, ['nothing/here'], null);
  assert.equal(none.path, null);
  assert.ok(none.tried.length >= 8 && none.tried.includes('/g/models/obj/here.tga'));
});

test('textures looked up through folder listings (as the preview asks): a path asked only when its folder holds the name, each folder listed once', async () => {
  const files = { '/g/models/obj/thing.md3': '', '/g/textures/wood.JPG': '', '/g/models/obj/metal.png': '' };
  const names = ['textures/wood', 'metal', ...Array.from({ length: 20 }, (_, i) => `textures/missing${i}`)];
  const counted = memoryFs(files);
  const lookup = textureLookup(counted, '/g/models/obj', EXT);
  const listed = [];
  for (const name of names) listed.push((await meshTexture(lookup, [name], null)).path);
  // The file system decides the case: wood.JPG is not textures/wood.jpg here, as a lookup by path says.
  assert.deepEqual(listed.slice(0, 3), [null, '/g/models/obj/metal.png', null]);
  assert.ok(listed.slice(2).every((p) => p === null));
  // Only the names a folder holds, in any case.
  assert.deepEqual(counted.stats, ['/g/textures/wood.jpg', '/g/models/obj/metal.png']);
  assert.equal(new Set(counted.listed).size, counted.listed.length, 'a folder listed twice');
});

test('the lookup asks the file system at once (the model\'s folders together), and answers as if asked one by one, whatever order the answers arrive in', async () => {
  const files = { '/g/models/obj/thing.md3': '', '/g/models/obj/textures/wood.tga': '', '/g/textures/wood.tga': '', '/g/textures/wood.png': '', '/g/scripts/a.shader': 'x\n{\n}\n' };
  const memory = memoryFs(files);
  // Each call waits until released; answers are released last asked, first answered.
  const waiting: { name: string; release: () => void }[] = [];
  const held = <T>(name: string, f: () => Promise<T>): Promise<T> => new Promise<T>((resolve) => waiting.push({ name, release: () => void f().then(resolve) }));
  const fs: LookupFs = {
    isFile: (p) => held(`isFile ${p}`, () => memory.isFile(p)),
    listFolder: (p) => held(`list ${p}`, () => memory.listFolder(p)),
    readBytes: (p) => held(`read ${p}`, () => memory.readBytes(p)),
  };
  const lookup = textureLookup(fs, '/g/models/obj', EXT);
  const answer = meshTexture(lookup, ['textures/missing', 'textures/wood'], null);
  await new Promise((r) => setTimeout(r, 0));
  // Before any answer: the model's folder and every folder above it are being listed together.
  const listing = waiting.map((w) => w.name);
  for (const folder of ['/', '/g', '/g/models', '/g/models/obj']) assert.ok(listing.includes(`list ${folder}`), `${folder} is not listed at once with the others: ${listing.join(', ')}`);
  let settled = false;
  void answer.then(() => (settled = true));
  while (!settled) {
    const next = waiting.pop();
    if (next) next.release();
    await new Promise((r) => setTimeout(r, 0));
  }
  // The nearest folder's file, as the engine finds it asking one by one (not the first answered).
  const found = await answer;
  assert.equal(found.path, '/g/models/obj/textures/wood.tga');
  assert.equal(found.tried[0], '/g/models/obj/textures/missing.tga');
  assert.equal(found.tried[found.tried.length - 1], '/g/models/obj/textures/wood.tga');
});

test('sidecars: .framegroups, animation.cfg (MD3 only) and skins in engine order', async () => {
  const fs = memoryFs({
    '/m/grunt.dpm.framegroups': '1 10 20 1 idle',
    '/m/animation.cfg': 'sex m',
    '/m/grunt.dpm_0.skin': 'shader0,fbgrunt',
    '/m/grunt_default.skin': 'shader0,other',
  });
  const s = await findSidecars(fs, '/m/grunt.dpm', false);
  assert.equal(s.framegroups?.name, 'grunt.dpm.framegroups');
  assert.equal(s.animationCfg, null);
  assert.deepEqual(s.skins.map((x) => x.name), ['grunt.dpm_0.skin', 'grunt_default.skin']);
  assert.equal((await findSidecars(fs, '/m/grunt.dpm', true)).animationCfg?.text, 'sex m');
  // An editor's unsaved text is what the preview follows.
  const edited = { ...fs, editorText: (p: string) => (p === '/m/grunt.dpm.framegroups' ? '1 5 20 1 walk' : undefined) };
  assert.equal((await findSidecars(edited, '/m/grunt.dpm', false)).framegroups?.text, '1 5 20 1 walk');
});

test('real assets: mrfixit Body.tga, oa_soldier skin files, kubalwagon shader beside its model, player set', { skip: NO_ASSETS }, async () => {
  const body = await meshTexture(textureLookup(nodeFileAccess, join(ASSETS, 'iqm/mrfixit'), EXT), ['Body.tga'], null);
  assert.equal(body.path, join(ASSETS, 'iqm/mrfixit/Body.tga'));
  const upper = join(ASSETS, 'md3/oa_soldier/upper.md3');
  const side = await findSidecars(nodeFileAccess, upper, true);
  assert.equal(side.skins[0]?.name, 'upper.md3_0.skin');
  assert.ok(side.animationCfg);
  assert.deepEqual((await playerSet(nodeFileAccess, upper)).map((p) => p.part), ['lower', 'upper', 'head']);
  assert.deepEqual(await playerSet(nodeFileAccess, join(ASSETS, 'md3/watercan/watercan.md3')), []);
  const kubal = textureLookup(nodeFileAccess, join(ASSETS, 'md3/kubalwagon'), EXT);
  assert.deepEqual((await kubal.shaderScripts()).map((p) => p.slice(ASSETS.length + 1)), ['md3/kubalwagon/kt_kubalwagon.shader']);
});

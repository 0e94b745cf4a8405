// Texture and sidecar lookup (client/preview/resolve.ts) over an in-memory file system and over
// the real ../shared/assets folders.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { findSidecars, imageCandidates, playerSet, resolveTexture, searchFolders, ShaderIndex, skinCandidates, type LookupFs } from '../../client/preview/resolve';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { listedIsFile } from '../../core/sidecar/companions';
import { nodeLookupFs } from '../helpers/lookup-fs';

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
    async readText(p) {
      return p in files ? files[p] : null;
    },
    async shaderFiles() {
      return Object.keys(files).filter((p) => p.endsWith('.shader'));
    },
  };
}

test('candidates: the given extension first, then .tga/.png/.jpg/.jpeg, relative to each ancestor, then the base name beside the model', () => {
  const folders = searchFolders('/game/models/players/x', '/game', null);
  assert.deepEqual(folders, ['/game/models/players/x', '/game/models/players', '/game/models', '/game']);
  const c = imageCandidates('models/players/x/skin', '/game/models/players/x', folders);
  assert.equal(c[0], '/game/models/players/x/models/players/x/skin.tga');
  assert.ok(c.includes('/game/models/players/x/skin.tga'));
  assert.ok(c.indexOf('/game/models/players/x/skin.png') > c.indexOf('/game/models/players/x/models/players/x/skin.tga'));
  // Windows separators and a double extension.
  const d = imageCandidates('textures\\glass.tga.tga', '/m', ['/m']);
  assert.equal(d[0], '/m/textures/glass.tga.tga');
  assert.ok(d.includes('/m/textures/glass.tga'));
  assert.deepEqual(skinCandidates('lower.md3'), ['lower.md3_0.skin', 'lower_default.skin', 'lower_0.skin']);
});

test('a Q3 shader name resolves to its first stage image; two-sided and alpha test are reported; paths tried are listed', async () => {
  const fs = memoryFs({
    '/g/scripts/a.shader': 'models/obj/glass\n{\n cull none\n {\n  map $lightmap\n }\n {\n  map models/obj/glass_real.tga\n  alphaFunc GE128\n }\n}\n',
    '/g/models/obj/glass_real.tga': '',
  });
  const r = await resolveTexture({ key: '0', names: ['models/obj/glass'], skin: null }, '/g/models/obj/thing.md3', fs, new ShaderIndex(fs), '/g', null);
  assert.equal(r.path, '/g/models/obj/glass_real.tga');
  assert.equal(r.twoSided, true);
  assert.equal(r.alphaTest, 'GE128');
  assert.match(r.via, /shader "models\/obj\/glass" in a\.shader/);
  const none = await resolveTexture({ key: '1', names: ['nothing/here'], skin: null }, '/g/models/obj/thing.md3', fs, new ShaderIndex(fs), '/g', null);
  assert.equal(none.path, null);
  assert.ok(none.tried.length >= 8 && none.tried.includes('/g/models/obj/here.tga'));
});

test('textures looked up through folder listings (as the preview asks): the same answers, a path asked only when its folder holds the name', async () => {
  const files = { '/g/models/obj/thing.md3': '', '/g/textures/wood.JPG': '', '/g/models/obj/metal.png': '' };
  const names = ['textures/wood', 'metal', ...Array.from({ length: 20 }, (_, i) => `textures/missing${i}`)];
  const resolveAll = async (fs: LookupFs) => {
    const out = [];
    for (const [i, name] of names.entries()) out.push((await resolveTexture({ key: String(i), names: [name], skin: null }, '/g/models/obj/thing.md3', fs, new ShaderIndex(fs), '/g', null)).path);
    return out;
  };
  const plain = memoryFs(files);
  const direct = await resolveAll(plain);
  const counted = memoryFs(files);
  const listed = await resolveAll({ ...counted, isFile: listedIsFile((p) => counted.listFolder(p), (p) => counted.isFile(p)) });
  assert.deepEqual(listed, direct);
  // The file system decides the case: wood.JPG is not textures/wood.jpg here, as a lookup by path says.
  assert.deepEqual(listed.slice(0, 3), [null, '/g/models/obj/metal.png', null]);
  assert.ok(plain.stats.length > 300, `${plain.stats.length} paths asked without listings`);
  // With them: only the names a folder holds, in any case.
  assert.deepEqual(counted.stats, ['/g/textures/wood.jpg', '/g/models/obj/metal.png']);
  assert.equal(new Set(counted.listed).size, counted.listed.length, 'a folder listed twice');
});

test('sidecars: .framegroups, animation.cfg (MD3 only) and skins in engine order', async () => {
  const fs = memoryFs({
    '/m/grunt.dpm.framegroups': '1 10 20 1 idle',
    '/m/animation.cfg': 'sex m',
    '/m/grunt.dpm_0.skin': 'shader0,fbgrunt',
    '/m/grunt_default.skin': 'shader0,other',
  });
  const s = await findSidecars('/m/grunt.dpm', fs, false);
  assert.equal(s.framegroups?.name, 'grunt.dpm.framegroups');
  assert.equal(s.animationCfg, null);
  assert.deepEqual(s.skins.map((x) => x.name), ['grunt.dpm_0.skin', 'grunt_default.skin']);
  assert.equal((await findSidecars('/m/grunt.dpm', fs, true)).animationCfg?.text, 'sex m');
});


test('real assets: mrfixit Body.tga, oa_soldier skin files, kubalwagon shader, player set', { skip: NO_ASSETS }, async () => {
  const shaders = new ShaderIndex(nodeLookupFs);
  const body = await resolveTexture({ key: '0', names: ['Body.tga'], skin: null }, join(ASSETS, 'iqm/mrfixit/mrfixit.iqm'), nodeLookupFs, shaders, ASSETS, null);
  assert.equal(body.path, join(ASSETS, 'iqm/mrfixit/Body.tga'));
  const upper = join(ASSETS, 'md3/oa_soldier/upper.md3');
  const side = await findSidecars(upper, nodeLookupFs, true);
  assert.equal(side.skins[0]?.name, 'upper.md3_0.skin');
  assert.ok(side.animationCfg);
  assert.deepEqual((await playerSet(upper, nodeLookupFs)).map((p) => p.part), ['lower', 'upper', 'head']);
  assert.deepEqual(await playerSet(join(ASSETS, 'md3/watercan/watercan.md3'), nodeLookupFs), []);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkEngine } from '../../core/engines/check';
import { factsFromModel } from '../../core/engines/facts';
import { ENGINES, findEngine, parseEngineList } from '../../core/engines/index';
import { engineTables } from '../../core/engines/doc';
import { factsFromIqe } from '../../core/engines/iqe';
import { textureCandidates } from '../../core/lookup/textures';
import { imageSize, isPowerOfTwo } from '../../core/image/size';
import { checkPlayer, type PlayerInput } from '../../core/engines/player';
import type { EngineFinding } from '../../core/engines/types';
import { FormatError } from '../../core/binary';
import { IqeDocument } from '../../core/iqe/document';
import { IQM_HALF, IQM_TEXCOORD, IQM_SHORT } from '../../core/iqm/layout';
import { readModel } from '../../core/formats/models';
import { iqm, iqmOfSize, md3, type Md3Options } from '../helpers/engine-models';
import { ASSETS, HAVE_ASSETS, NO_ASSETS, SHARED, modelAssets } from '../helpers/model-assets';

function check(bytes: Uint8Array, engine: string): EngineFinding[] {
  const profile = findEngine(engine);
  assert.ok(profile, engine);
  return checkEngine(factsFromModel(readModel(bytes), bytes), profile);
}

const codes = (fs: EngineFinding[], code: string) => fs.filter((f) => f.code === code);

/** At `limit` the model has no finding `code` for `engine`; at `limit + 1` it has one. */
function limitCase(engine: string, code: string, limit: number, build: (n: number) => Uint8Array, severity?: EngineFinding['severity']): void {
  test(`${engine}: ${code} at ${limit} is clean, at ${limit + 1} reported`, () => {
    assert.deepEqual(codes(check(build(limit), engine), code), [], 'at the limit');
    const over = codes(check(build(limit + 1), engine), code);
    assert.ok(over.length >= 1, `one over: expected ${code}`);
    assert.equal(over[0].engine, engine);
    if (severity) assert.equal(over[0].severity, severity);
    assert.match(over[0].fact.source.repo, /^[\w.-]+\/[\w.-]+$/);
    assert.match(over[0].fact.source.commit, /^[0-9a-f]{40}$/);
    assert.ok(over[0].message.includes(String(limit + 1).replace(/\B(?=(\d{3})+(?!\d))/g, ',')), over[0].message);
  });
}

const md3With = (key: keyof Md3Options) => (n: number) => md3({ [key]: n });

// ioquake3: the renderer limits (SHADER_MAX_*) refuse; the MD3_MAX_* format limits are noted.
limitCase('ioquake3', 'md3-surface-vertices', 999, md3With('vertices'), 'error');
limitCase('ioquake3', 'md3-surface-triangles', 1999, md3With('triangles'), 'error');
limitCase('ioquake3', 'joints-limit', 128, (n) => iqm({ joints: n }), 'error');
limitCase('ioquake3', 'mesh-vertices-limit', 999, (n) => iqm({ vertices: n }), 'error');
limitCase('ioquake3', 'mesh-triangles-limit', 1999, (n) => iqm({ triangles: n }), 'error');
for (const engine of ['quake3', 'ioquake3']) limitCase(engine, 'md3-format-limit', 4096, md3With('vertices'), 'information');
test('ioquake3 and quake3: every MD3_MAX_* format limit at the limit and one over', () => {
  const cases: [keyof Md3Options, number][] = [['triangles', 8192], ['frames', 1024], ['tags', 16], ['surfaces', 32], ['shaders', 256]];
  for (const engine of ['ioquake3', 'quake3']) {
    for (const [key, limit] of cases) {
      assert.deepEqual(codes(check(md3({ [key]: limit }), engine), 'md3-format-limit'), [], `${engine} ${key} ${limit}`);
      const over = codes(check(md3({ [key]: limit + 1 }), engine), 'md3-format-limit');
      assert.equal(over.length, 1, `${engine} ${key} ${limit + 1}`);
      assert.ok(over[0].message.includes(key), over[0].message);
    }
  }
});

// The original Quake 3: a surface may have exactly SHADER_MAX_VERTEXES vertices.
limitCase('quake3', 'md3-surface-vertices', 1000, md3With('vertices'), 'error');
limitCase('quake3', 'md3-surface-triangles', 2000, md3With('triangles'), 'error');

// raylib: 16-bit indices, signed char blend indexes, 32-byte joint names.
limitCase('raylib', 'mesh-vertices-limit', 65536, (n) => iqm({ vertices: n }), 'warning');
limitCase('raylib', 'blend-index-range', 127, (n) => iqm({ joints: n + 1, blendIndex: n }), 'warning');
limitCase('raylib', 'joint-name-length', 31, (n) => iqm({ joints: 1, jointName: () => 'b'.repeat(n) }), 'warning');

// FTE: char name[32] for joints.
limitCase('fte', 'joint-name-length', 31, (n) => iqm({ joints: 2, jointName: (i) => (i === 1 ? 'n'.repeat(n) : 'root') }), 'warning');

// Red Eclipse: 16-bit MD3 indices.
limitCase('redeclipse', 'md3-index-range', 65536, md3With('vertices'), 'warning');

// The 16 MiB file limits (ioquake3, Red Eclipse, Daemon), on real files of exactly that size.
test('ioquake3, redeclipse, daemon: an IQM of 16 MiB loads, one byte more is refused', () => {
  const at = iqmOfSize(16 << 20);
  assert.equal(at.length, 16 << 20);
  // One byte more: the same file with a trailing byte, its header's filesize saying so.
  const over = new Uint8Array(at.length + 1);
  over.set(at);
  new DataView(over.buffer).setUint32(20, over.length, true);
  for (const engine of ['ioquake3', 'redeclipse', 'daemon']) {
    assert.deepEqual(codes(check(at, engine), 'file-too-large'), [], engine);
    const f = codes(check(over, engine), 'file-too-large');
    assert.equal(f.length, 1, engine);
    assert.equal(f[0].severity, 'error');
    assert.equal(f[0].location.byteOffset, 0);
  }
  for (const engine of ['darkplaces', 'fte', 'raylib']) assert.deepEqual(codes(check(over, engine), 'file-too-large'), [], engine);
});

test('engine rules without a count: array formats, joint order and scale, poses, animations, sizes', () => {
  // A half-float texcoord: refused (ioq3, Daemon, Red Eclipse), skipped so the model has no texcoords (DarkPlaces), misread (raylib), converted (FTE).
  const half = iqm({ arrayFormat: [IQM_TEXCOORD, IQM_HALF, 2] });
  assert.equal(codes(check(half, 'ioquake3'), 'array-format')[0].severity, 'error');
  assert.equal(codes(check(half, 'daemon'), 'array-format')[0].severity, 'error');
  assert.equal(codes(check(half, 'redeclipse'), 'array-format')[0].severity, 'error');
  const dp = codes(check(half, 'darkplaces'), 'array-missing');
  assert.equal(dp.length, 1);
  assert.equal(dp[0].severity, 'error');
  assert.equal(dp[0].location.array, 1);
  assert.ok(dp[0].location.byteOffset! > 0);
  assert.equal(codes(check(half, 'raylib'), 'array-misread')[0].severity, 'warning');
  assert.deepEqual(check(half, 'fte').filter((f) => f.severity !== 'information'), []);
  // A short normal: ioquake3 refuses any short array, DarkPlaces recomputes normals.
  const shortNormal = iqm({ arrayFormat: [2, IQM_SHORT, 3] });
  assert.ok(codes(check(shortNormal, 'ioquake3'), 'array-format').length >= 1);
  assert.equal(codes(check(shortNormal, 'darkplaces'), 'array-ignored')[0].severity, 'warning');

  // Missing texcoords: refused by ioquake3, DarkPlaces, FTE.
  const noTc = iqm({ without: IQM_TEXCOORD });
  for (const engine of ['ioquake3', 'darkplaces', 'fte']) assert.equal(codes(check(noTc, engine), 'array-missing').length, 1, engine);

  // A parent listed after its child.
  const late = iqm({ joints: 2, parent: (i) => (i === 0 ? 1 : -1) });
  for (const engine of ['darkplaces', 'daemon']) assert.equal(codes(check(late, engine), 'joint-order')[0].location.joint, 0, engine);
  assert.deepEqual(codes(check(iqm({ joints: 2 }), 'darkplaces'), 'joint-order'), []);

  // Joint scale: dropped by DarkPlaces and Red Eclipse; Daemon refuses |x-y| >= 1, uses only x below that.
  const scaled = iqm({ joints: 1, scale: () => [2, 2, 2] });
  assert.equal(codes(check(scaled, 'darkplaces'), 'joint-scale-ignored').length, 1);
  assert.equal(codes(check(scaled, 'redeclipse'), 'joint-scale-ignored').length, 1);
  assert.deepEqual(codes(check(scaled, 'daemon'), 'joint-scale'), []);
  assert.equal(codes(check(iqm({ joints: 1, scale: () => [1, 2, 1] }), 'daemon'), 'joint-scale')[0].severity, 'error');
  assert.equal(codes(check(iqm({ joints: 1, scale: () => [1, 1.5, 1] }), 'daemon'), 'joint-scale')[0].severity, 'warning');
  assert.equal(codes(check(iqm({ joints: 1, scale: () => [-1, -1, -1] }), 'daemon'), 'joint-scale')[0].severity, 'error');

  // Animated scale: skipped by Red Eclipse, refused by Daemon when non-uniform by 1 or more.
  const poseScaled = iqm({ joints: 1, anims: [2], poseScale: [1, 3, 1] });
  assert.equal(codes(check(poseScaled, 'redeclipse'), 'pose-scale-ignored').length, 1);
  assert.equal(codes(check(poseScaled, 'daemon'), 'pose-scale')[0].severity, 'error');
  assert.deepEqual(codes(check(iqm({ joints: 1, anims: [2] }), 'redeclipse'), 'pose-scale-ignored'), []);

  // An animation with no frames (Daemon), poses without joints (ioquake3; FTE allows animation-only files).
  assert.equal(codes(check(iqm({ joints: 1, anims: [0, 2] }), 'daemon'), 'animation-empty').length, 1);

  // FTE wants the header's filesize to be the file's.
  const sized = iqm();
  const grown = new Uint8Array(sized.length + 4);
  grown.set(sized);
  assert.deepEqual(codes(check(sized, 'fte'), 'iqm-file-size'), []);
  assert.equal(codes(check(grown, 'fte'), 'iqm-file-size').length, 1);

  // Materials that raylib never loads; MD3 shaders Red Eclipse never uses; formats an engine has no loader for.
  assert.equal(codes(check(iqm({ material: 'skin.tga' }), 'raylib'), 'materials-ignored')[0].severity, 'information');
  assert.equal(codes(check(md3(), 'redeclipse'), 'md3-shaders-ignored')[0].severity, 'information');
  assert.equal(codes(check(iqm(), 'quake3'), 'format-unsupported')[0].severity, 'error');
  assert.equal(codes(check(md3(), 'raylib'), 'format-unsupported')[0].severity, 'error');

  // MD3 surfaces: frame counts that differ from the header (DarkPlaces), names cut at `_X` (Quake 3 family).
  assert.equal(codes(check(md3({ frames: 2, firstSurfaceFrames: 1 }), 'darkplaces'), 'md3-surface-frames')[0].severity, 'error');
  assert.equal(codes(check(md3({ surfaceName: 'h_1' }), 'ioquake3'), 'md3-surface-name')[0].message.includes('"h"'), true);
});

test('the 6005-vertex MD3 surface: clean under DarkPlaces, reported under ioquake3 with both limits (generated)', () => {
  const bytes = md3({ vertices: 6005, triangles: 8200 });
  assert.deepEqual(check(bytes, 'darkplaces'), []);
  const q = check(bytes, 'ioquake3');
  const loader = codes(q, 'md3-surface-vertices');
  assert.equal(loader.length, 1);
  assert.equal(loader[0].severity, 'error');
  assert.match(loader[0].message, /6,005 vertices, over 999/);
  const format = codes(q, 'md3-format-limit').filter((f) => f.message.includes('vertices'));
  assert.equal(format.length, 1);
  assert.match(format[0].message, /6,005 vertices, over the MD3 format limit of 4,096/);
  assert.equal(codes(q, 'md3-surface-triangles').length, 1);
});

/** The Xonotic MD3 with a 6005-vertex surface, found through MANIFEST.tsv. */
function xonoticMd3(): string | undefined {
  if (!HAVE_ASSETS) return undefined;
  const manifest = readFileSync(join(ASSETS, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  for (const row of manifest) {
    const [file, repo, , , , , , notes = ''] = row.split('\t');
    if (!/\.md3$/i.test(file ?? '') || !/xonotic/i.test(`${file} ${repo} ${notes}`)) continue;
    const model = readModel(new Uint8Array(readFileSync(join(ASSETS, file))));
    if (model.meshes.some((m) => m.vertexCount === 6005)) return file;
  }
  return undefined;
}
const XONOTIC = xonoticMd3();

test('the Xonotic MD3 with 6005 vertices: clean under DarkPlaces, both ioquake3 limits reported', { skip: XONOTIC ? false : `no Xonotic MD3 with a 6005-vertex surface is listed in ${join(SHARED, 'assets/MANIFEST.tsv')}` }, () => {
  const bytes = new Uint8Array(readFileSync(join(ASSETS, XONOTIC!)));
  assert.deepEqual(check(bytes, 'darkplaces').filter((f) => f.severity !== 'information'), []);
  const q = check(bytes, 'ioquake3');
  assert.ok(codes(q, 'md3-surface-vertices').some((f) => f.message.includes('6,005')));
  assert.ok(codes(q, 'md3-format-limit').some((f) => f.message.includes('6,005 vertices')));
});

function sharedModelFiles(): string[] {
  const out: string[] = [...modelAssets()];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.iqe$/i.test(name)) out.push(p.slice(ASSETS.length + 1));
    }
  };
  if (HAVE_ASSETS) walk(ASSETS);
  return out.sort();
}

test('every shared asset lints under every profile without a crash', { skip: NO_ASSETS }, () => {
  let checked = 0;
  for (const rel of sharedModelFiles()) {
    const bytes = new Uint8Array(readFileSync(join(ASSETS, rel)));
    let facts;
    if (rel.endsWith('.iqe')) facts = factsFromIqe(new IqeDocument(new TextDecoder().decode(bytes)));
    else {
      try {
        facts = factsFromModel(readModel(bytes), bytes);
      } catch (e) {
        assert.ok(e instanceof FormatError, `${rel}: ${String(e)}`); // the invalid examples
        continue;
      }
    }
    for (const engine of ENGINES) {
      for (const f of checkEngine(facts, engine)) {
        assert.ok(f.code && f.message && f.location.what, `${rel} ${engine.id}`);
        assert.ok(['error', 'warning', 'information'].includes(f.severity));
        assert.ok(f.fact.text.length > 0 && f.fact.source.path.length > 0);
      }
      checked++;
    }
  }
  assert.ok(checked >= ENGINES.length * 20, `only ${checked} checks`);
});

test('every profile cites its sources and has a scope; names and aliases resolve', () => {
  assert.equal(ENGINES.length, 9);
  for (const e of ENGINES) {
    assert.equal(findEngine(e.id), e);
    for (const a of e.aliases) assert.equal(findEngine(a.toUpperCase()), e);
    assert.ok(e.scope.length > 20);
    assert.ok(e.iqm || e.md3, e.id);
  }
  assert.equal(findEngine('xonotic')?.id, 'darkplaces');
  assert.deepEqual(parseEngineList('darkplaces, fte,nope').unknown, ['nope']);
  assert.deepEqual(parseEngineList(['ioq3', 'ioquake3']).engines.map((e) => e.id), ['ioquake3']);
});

test('IQE: declared vertex array formats and joints are checked at their lines', () => {
  const text = [
    '# Inter-Quake Export',
    'vertexarray texcoord half 2',
    `joint "${'k'.repeat(40)}" -1`,
    'pq 0 0 0 0 0 0 1',
    'mesh body',
    'vp 0 0 0',
    'vt 0 0',
    'vp 1 0 0',
    'vt 1 0',
    'vp 0 1 0',
    'vt 0 1',
    'fa 0 1 2',
  ].join('\n');
  const facts = factsFromIqe(new IqeDocument(text));
  const ioq3 = checkEngine(facts, findEngine('ioquake3')!);
  assert.equal(codes(ioq3, 'array-format')[0].location.line, 1);
  const dp = checkEngine(facts, findEngine('darkplaces')!);
  assert.equal(codes(dp, 'array-missing')[0].location.line, 1);
  const fte = checkEngine(facts, findEngine('fte')!);
  assert.equal(codes(fte, 'joint-name-length')[0].location.line, 2);
  assert.deepEqual(checkEngine(factsFromIqe(new IqeDocument(text.replace('half', 'float'))), findEngine('ioquake3')!), []);
});

/** A player set built from generated parts, checked as ioquake3 would load it. */
function player(o: { cfgFirstLegs?: number; lowerFrames?: number; skins?: PlayerInput['skins']; upperTags?: string[] } = {}): PlayerInput {
  const lower = readModel(md3({ frames: o.lowerFrames ?? 20, tagNames: ['tag_torso'], surfaceName: 'l_legs' }));
  const upper = readModel(md3({ frames: 30, tagNames: o.upperTags ?? ['tag_head', 'tag_weapon', 'tag_torso'], surfaceName: 'u_torso' }));
  const head = readModel(md3({ frames: 1, surfaceName: 'h_head' }));
  // BOTH 0..5, TORSO 6..12 (gesture first frame 6), LEGS from `cfgFirstLegs`, one frame each.
  const rows: string[] = [];
  for (let k = 0; k < 25; k++) {
    const first = k < 13 ? k : (o.cfgFirstLegs ?? 13) + (k - 13);
    rows.push(`${first} 1 0 10`);
  }
  return {
    parts: { lower, upper, head },
    animationCfg: ['sex m', ...rows].join('\n'),
    skins: o.skins ?? [
      { file: 'lower_default.skin', text: 'l_legs,models/players/x/legs.tga\ntag_torso,' },
      { file: 'upper_default.skin', text: 'u_torso,models/players/x/torso.tga' },
      { file: 'head_default.skin', text: 'h_head,models/players/x/head.tga' },
    ],
  };
}

test('Quake 3 players: parts, skins, tags and animation.cfg checked together (LEGS offset included)', () => {
  const ioq3 = findEngine('ioquake3')!;
  // LEGS_WALKCR written as frame 13, TORSO_GESTURE at 6: LEGS_* are lowered by 7 and use lower.md3 frames 6..17 of its 20.
  const ok = checkPlayer(player(), ioq3);
  assert.deepEqual(ok.filter((f) => f.severity !== 'information'), []);
  assert.equal(codes(ok, 'player-legs-offset').length, 1);
  // Without an offset (LEGS written from 6) the cfg fits too. A lower.md3 of 10 frames is too short for LEGS frames 6..17.
  assert.deepEqual(checkPlayer(player({ cfgFirstLegs: 6 }), ioq3).filter((f) => f.severity !== 'information'), []);
  const over = codes(checkPlayer(player({ lowerFrames: 10 }), ioq3), 'player-frame-range');
  assert.equal(over.length, 8); // LEGS frames 10..17
  assert.match(over[0].message, /LEGS_\w+ uses frames 10\.\.10 \(after the LEGS_\* offset of 7\), lower\.md3 has 10/);
  // DarkPlaces-style skin names are not the ones Quake 3 looks for.
  const dpNames = checkPlayer(player({ skins: [{ file: 'lower.md3_0.skin', text: 'l_legs,a.tga' }] }), ioq3);
  assert.match(codes(dpNames, 'player-skin-missing')[0].message, /lower\.md3_0\.skin/);
  // A skin without one of the part's surfaces; a missing tag; a missing part.
  const partial = player({ skins: [{ file: 'lower_red.skin', text: 'other,a.tga' }, { file: 'upper_red.skin', text: 'u_torso,b.tga' }, { file: 'head_red.skin', text: 'h_head,c.tga' }], upperTags: ['tag_head'] });
  const found = checkPlayer(partial, ioq3);
  assert.equal(codes(found, 'player-skin-surface')[0].location.file, 'lower_red.skin');
  assert.match(codes(found, 'player-tag-missing')[0].message, /tag_weapon/);
  const headless = player();
  headless.parts.head = undefined;
  assert.equal(codes(checkPlayer(headless, ioq3), 'player-part-missing')[0].severity, 'error');
  // Engines without Quake 3's player code have no player rules.
  assert.deepEqual(checkPlayer(player(), findEngine('darkplaces')!), []);
});

test('the OpenArena soldier: DarkPlaces-style skins that ioquake3 does not look for', { skip: NO_ASSETS }, () => {
  const dir = join(ASSETS, 'md3/oa_soldier');
  const input: PlayerInput = {
    parts: { lower: readModel(new Uint8Array(readFileSync(join(dir, 'lower.md3')))), upper: readModel(new Uint8Array(readFileSync(join(dir, 'upper.md3')))), head: readModel(new Uint8Array(readFileSync(join(dir, 'head.md3')))) },
    animationCfg: readFileSync(join(dir, 'animation.cfg'), 'latin1'),
    skins: readdirSync(dir).filter((n) => n.endsWith('.skin')).map((n) => ({ file: n, text: readFileSync(join(dir, n), 'latin1') })),
  };
  const found = checkPlayer(input, findEngine('ioquake3')!);
  assert.deepEqual(found.map((f) => f.code), ['player-skin-missing']);
  assert.deepEqual(codes(found, 'player-frame-range'), []);
});

test('docs/ENGINES.md holds the profile tables as they are (npm run engines-doc)', () => {
  const doc = readFileSync('docs/ENGINES.md', 'utf8');
  const begin = '<!-- generated tables: npm run engines-doc -->';
  const region = doc.slice(doc.indexOf(begin) + begin.length, doc.indexOf('<!-- end of generated tables -->'));
  assert.equal(region, '\n\n' + engineTables() + '\n');
  for (const e of ENGINES) assert.ok(region.includes(`(\`${e.id}\``), e.id);
});

test('texture names: the extension given first, then the others in the engine order; image sizes from headers', () => {
  const order = ['tga', 'jpg', 'jpeg', 'png', 'pcx', 'bmp'];
  assert.deepEqual(textureCandidates('models/x/skin.png', order), ['models/x/skin.png', 'models/x/skin.tga', 'models/x/skin.jpg', 'models/x/skin.jpeg', 'models/x/skin.pcx', 'models/x/skin.bmp']);
  assert.deepEqual(textureCandidates('\\models\\x.y\\skin', order).slice(0, 2), ['models/x.y/skin.tga', 'models/x.y/skin.jpg']);
  assert.deepEqual(textureCandidates('  ', order), []);
  // JPEG: SOI, an APP0 segment, then SOF0 (height 3, width 5).
  const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 3, 0, 5, 1, 1, 0x11, 0]);
  assert.deepEqual(imageSize(jpeg), { format: 'jpeg', width: 5, height: 3 });
  assert.equal(imageSize(new TextEncoder().encode('not an image at all')), null);
  assert.equal(imageSize(Uint8Array.from([0xff, 0xd8, 0xff])), null);
  assert.ok(isPowerOfTwo(1) && isPowerOfTwo(1024) && !isPowerOfTwo(0) && !isPowerOfTwo(300));
});

test('every texture of the shared assets has its size read from its header', { skip: NO_ASSETS }, () => {
  const images: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(tga|png|jpe?g)$/i.test(name)) images.push(p);
    }
  };
  walk(ASSETS);
  assert.ok(images.length >= 10);
  for (const p of images) {
    const size = imageSize(new Uint8Array(readFileSync(p)));
    assert.ok(size && size.width > 0 && size.height > 0, p);
  }
  // A known size: the watercan's texture is 256 × 128 (`file` says so too).
  assert.deepEqual(imageSize(new Uint8Array(readFileSync(join(ASSETS, 'md3/watercan/water_can.tga')))), { format: 'tga', width: 256, height: 128 });
});

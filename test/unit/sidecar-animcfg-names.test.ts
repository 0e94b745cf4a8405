// animation.cfg of a game's own list (not Quake 3's 25 to 31 animations, each line's comment naming
// it): its clips are named from the comments, as a .framegroups' comments name its clips, and it is
// not held to Quake 3's 25 required animations unless an engine that loads Quake 3 players is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { findEngine } from '../../core/engines/index';
import { animCfgNames, checkPlayer } from '../../core/engines/player';
import { textureExtensions } from '../../core/engines/textures';
import { modelClips } from '../../core/lookup/clips';
import { parseAnimCfg, Q3_ANIMATIONS } from '../../core/sidecar/animcfg';
import { checkSidecar, type SidecarIo } from '../../core/sidecarCheck/check';
import type { ModelSummary } from '../../core/sidecarCheck/lint';
import { md3 } from '../helpers/engine-models';

const OWN_NAMES = ['DEATH1', 'DEAD1', 'DEATH2', 'DEAD2', 'PAIN', 'IDLE', 'IDLE2', 'WALK', 'RUN', 'JUMP', 'LAND', 'ATTACK1', 'ATTACK2', 'ATTACK3', 'TAUNT', 'FLINCH', 'SWIM', 'CROUCH', 'CRAWL', 'TURN', 'SPAWN', 'DODGE', 'ROAR', 'SLEEP'];
/** A monster's list of 24 animations of 2 frames, each named in its comment. */
const OWN = `sex n\n${OWN_NAMES.map((n, i) => `${2 * i}\t2\t0\t15\t\t// ${n} (of the game's list)`).join('\n')}\n`;

const io: SidecarIo = {
  isFile: async () => false,
  listFolder: async () => null,
  readBytes: async () => null,
  model: async (path) => (/\/(lower|upper|head)\.md3$/.test(path) ? { summary: { file: path.slice(path.lastIndexOf('/') + 1), frameCount: 100, surfaces: [], materials: [], tags: [] } satisfies ModelSummary } : null),
};
const codes = (ds: readonly { code: string; severity: string }[]): string[] => ds.map((d) => `${d.code} ${d.severity}`);

test("a game's own list is named from its comments, with no Quake 3 requirement", () => {
  const cfg = parseAnimCfg(OWN);
  assert.equal(cfg.names, 'comments');
  assert.deepEqual(cfg.clips.map((c) => c.name), OWN_NAMES);
  assert.deepEqual(cfg.warnings, []);
  assert.deepEqual(cfg.clips[8], { name: 'RUN', firstFrame: 16, frameCount: 2, fps: 15, loop: false, loopFrames: 0, reverse: false });
  // Read as Quake 3 reads it: by position, 24 of the 25 required.
  const q3 = parseAnimCfg(OWN, { names: 'quake3' });
  assert.equal(q3.names, 'quake3');
  assert.deepEqual(q3.clips.map((c) => c.name), Q3_ANIMATIONS.slice(0, 24));
  assert.deepEqual(q3.warnings, ['only 24 of the 25 required animations']);
});

test("the check names a game's own list's clips; with ioquake3 or quake3 set, Quake 3's 25 are required", async () => {
  const plain = await checkSidecar('animcfg', '/g/animation.cfg', OWN, io, textureExtensions([]));
  assert.deepEqual(codes(plain.diagnostics), ['animcfg-own-list information']);
  assert.match(plain.diagnostics[0].message, /^24 animations named by their comments \(DEATH1, DEAD1, DEATH2, …\): a game's own list, not Quake 3's 25\./);
  assert.deepEqual(plain.doc.clips.map((c) => c.name), OWN_NAMES);
  // Unprefixed names play on both parts.
  assert.deepEqual(plain.doc.clips[5].parts, ['lower', 'upper']);
  for (const id of ['ioquake3', 'quake3']) {
    const engines = [findEngine(id)!];
    assert.equal(animCfgNames(engines), 'quake3');
    const q3 = await checkSidecar('animcfg', '/g/animation.cfg', OWN, io, textureExtensions(engines), { animCfgNames: animCfgNames(engines) });
    assert.ok(codes(q3.diagnostics).includes('animcfg-incomplete error'), `${id}: ${codes(q3.diagnostics).join(', ')}`);
    assert.equal(q3.doc.clips[0].name, 'BOTH_DEATH1');
  }
  assert.equal(animCfgNames([findEngine('darkplaces')!]), 'auto');
  assert.equal(animCfgNames([]), 'auto');
});

test('the ioquake3 player check keeps Quake 3\'s requirements for a game\'s own list', () => {
  const findings = checkPlayer({ parts: { lower: undefined, upper: undefined, head: undefined }, skins: [], animationCfg: OWN }, findEngine('ioquake3')!);
  assert.ok(findings.some((f) => f.code === 'player-animation-cfg' && f.message === 'animation.cfg: only 24 of the 25 required animations'), findings.map((f) => f.message).join('\n'));
});

test("Quake 3's own names, a Quake 3 count or an unnamed line keep Quake 3's reading", () => {
  // A Quake 3 file cut short: its comments are Quake 3's names at their places.
  const cut = Q3_ANIMATIONS.slice(0, 24).map((n, i) => `${i} 1 0 10 // ${n} (as in Quake 3)`).join('\n');
  assert.deepEqual([parseAnimCfg(cut).names, parseAnimCfg(cut).warnings], ['quake3', ['only 24 of the 25 required animations']]);
  // 25 animations: Quake 3's count, whatever the comments say.
  const own25 = `${OWN}48 2 0 15 // EXTRA\n`;
  assert.equal(parseAnimCfg(own25).names, 'quake3');
  // One line without a name in its comment.
  const unnamed = OWN.replace('// IDLE ', '// ');
  assert.equal(parseAnimCfg(unnamed).names, 'quake3');
});

test("a game's own list longer than Quake 3's is read whole, and the preview plays it on a player part", () => {
  const names = Array.from({ length: 40 }, (_, i) => (i === 6 ? 'TORSO_GESTURE' : i === 13 ? 'LEGS_WALKCR' : i === 20 ? 'LEGS_RUN' : `ANIM_${i}`));
  const text = names.map((n, i) => `${2 * i} 2 2 10 // ${n}`).join('\n');
  const cfg = parseAnimCfg(text);
  assert.equal(cfg.names, 'comments');
  assert.equal(cfg.clips.length, 40);
  // Quake 3's LEGS_* offset where the list names LEGS_WALKCR and TORSO_GESTURE: 26 - 12.
  assert.equal(cfg.legsOffset, 14);
  assert.equal(cfg.clips[20].firstFrame, 40 - 14);
  assert.equal(cfg.clips[21].firstFrame, 42);
  const model = readModel(md3({ frames: 100 }));
  const lower = modelClips(model, 'lower.md3', { framegroups: null, animationCfg: { name: 'animation.cfg', text } });
  assert.equal(lower.from, 'animation.cfg');
  assert.deepEqual(lower.clips.map((c) => c.name), names.filter((n) => !n.startsWith('TORSO_')));
  const upper = modelClips(model, 'upper.md3', { framegroups: null, animationCfg: { name: 'animation.cfg', text } });
  assert.deepEqual(upper.clips.map((c) => c.name), names.filter((n) => !n.startsWith('LEGS_')));
});

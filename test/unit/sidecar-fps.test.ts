// Frame rates of the sidecars (.framegroups, animation.cfg) that no clip can play at: non-finite
// (1e309) or absurd (1e308, which a conversion wrote as `framerate Infinity`, which compile refused)
// are errors at their word, and the clips the preview and conversions take have a usable rate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../../core/formats/models';
import { textureExtensions } from '../../core/engines/textures';
import { modelClips, withClips } from '../../core/lookup/clips';
import { writeIqe } from '../../core/iqe/writer';
import { checkSidecar, type SidecarIo } from '../../core/sidecarCheck/check';
import type { ModelSummary } from '../../core/sidecarCheck/lint';
import { MAX_SIDECAR_FPS } from '../../core/sidecar/text';
import { iqm, md3 } from '../helpers/engine-models';

const FRAMES = 60;
const summary = (file: string): ModelSummary => ({ file, frameCount: FRAMES, surfaces: ['body'], materials: [''], tags: [] });
const io: SidecarIo = {
  isFile: async () => false,
  listFolder: async () => null,
  readBytes: async () => null,
  model: async (path) => (/\/(m|lower|upper|head)\.md3$/.test(path) ? { summary: summary(path.slice(path.lastIndexOf('/') + 1)) } : null),
};

/** "line:column code severity" of the fps diagnostics (1-based). */
const fpsFindings = (ds: { range: { line: number; column: number }; code: string; severity: string }[]): string[] =>
  ds.filter((d) => d.code === 'fps-invalid').map((d) => `${d.range.line + 1}:${d.range.column + 1} ${d.severity}`);

const FRAMEGROUPS = '0 10 1e308 1 run\n10 5 1e309 0 jump\n// a comment\n20 5 -1e309 1 fall\n30 5 9999 1 fast\n40 5 25 1 ok\n';

test('.framegroups: a frame rate that is not finite or over 1,000 is an error at its word', async () => {
  const r = await checkSidecar('framegroups', '/g/m.md3.framegroups', FRAMEGROUPS, io, textureExtensions([]));
  assert.deepEqual(fpsFindings(r.diagnostics), ['1:6 error', '2:6 error', '4:6 error', '5:6 error']);
  const messages = r.diagnostics.filter((d) => d.code === 'fps-invalid').map((d) => d.message);
  assert.match(messages[0], /^Frame rate 1e308 is over 1,000 frames per second: .*use 20/);
  assert.match(messages[1], /^Frame rate 1e309 is not a finite number: /);
  // Hover and code lenses play the clip at the rate the preview uses.
  assert.deepEqual(r.doc.clips.map((c) => c.fps), [20, 20, 20, 20, 25]);
});

test('.framegroups: an unplayable frame rate never reaches the preview or a conversion', () => {
  // A skeletal model (what Convert to IQE writes animations of), its clips from the .framegroups.
  const model = readModel(iqm({ joints: 2, anims: [FRAMES] }));
  const found = modelClips(model, 'm.iqm', { framegroups: { name: 'm.iqm.framegroups', text: FRAMEGROUPS }, animationCfg: null });
  assert.deepEqual(found.clips.map((c) => c.fps), [20, 20, 20, 20, 25]);
  assert.ok(found.warnings.some((w) => w === 'm.iqm.framegroups: line 1: frame rate 1e308 is over 1,000 frames per second; 20 used'), found.warnings.join('\n'));
  assert.ok(found.warnings.some((w) => w === 'm.iqm.framegroups: line 2: frame rate 1e309 is not a finite number; 20 used'), found.warnings.join('\n'));
  const iqe = writeIqe(withClips(model, found)).text;
  assert.doesNotMatch(iqe, /Infinity|NaN|e\+/);
  assert.deepEqual([...iqe.matchAll(/^framerate (\S+)$/gm)].map((m) => m[1]), ['20', '20', '20', '20', '25']);
});

test('animation.cfg: a frame rate over 1,000 is an error at its word, and the clip plays at 1,000', async () => {
  const rows = Array.from({ length: 25 }, (_, i) => `${2 * i} 2 0 ${i === 3 ? '1000000' : i === 4 ? '1000' : '15'}`);
  const text = `sex m\n${rows.join('\n')}\n`;
  const r = await checkSidecar('animcfg', '/g/animation.cfg', text, io, textureExtensions([]));
  assert.deepEqual(fpsFindings(r.diagnostics), ['5:7 error']);
  assert.match(r.diagnostics.find((d) => d.code === 'fps-invalid')!.message, /^BOTH_DEAD2: frame rate 1000000 is over 1,000 frames per second: /);
  assert.equal(r.diagnostics.filter((d) => d.code === 'sidecar-syntax').length, 0, 'reported once, at its animation');
  assert.equal(r.doc.clips[3].fps, MAX_SIDECAR_FPS);
  assert.equal(r.doc.clips[4].fps, 1000);
  const model = readModel(md3({ frames: FRAMES }));
  const found = modelClips(model, 'lower.md3', { framegroups: null, animationCfg: { name: 'animation.cfg', text } });
  assert.ok(found.clips.every((c) => Number.isFinite(c.fps) && c.fps > 0 && c.fps <= MAX_SIDECAR_FPS));
});

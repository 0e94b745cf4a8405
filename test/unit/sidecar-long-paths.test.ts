// A texture path longer than any file system opens (core/lookup/textures.ts MAX_TEXTURE_PATH) is
// warned of at its place and not looked up: a skin of one path of 750,000 folders took 2.3 s and
// 335 MB to check (each candidate under each folder above the file a copy of the path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textureExtensions } from '../../core/engines/textures';
import { MAX_TEXTURE_PATH, textureCandidates, textureLookup, texturePlan } from '../../core/lookup/textures';
import { checkSidecar, type SidecarIo } from '../../core/sidecarCheck/check';

const EXT = textureExtensions([]);

/** File access that finds nothing and counts what it is asked. */
function countingIo(): SidecarIo & { asked: number } {
  const io = {
    asked: 0,
    isFile: async () => (io.asked++, false),
    listFolder: async () => (io.asked++, ['models', 'scripts']),
    readBytes: async () => (io.asked++, null),
    model: async () => null,
  };
  return io;
}

const LONG = `${'a/'.repeat(750_000)}x.tga`;

test('a skin texture path of 750,000 folders is a warning at its place, not a lookup', async () => {
  const io = countingIo();
  const r = await checkSidecar('skin', '/game/models/m/m.md3_0.skin', `surf,${LONG}\nhead,ok.tga\n`, io, EXT);
  const long = r.diagnostics.filter((d) => d.code === 'texture-path-too-long');
  assert.equal(long.length, 1);
  assert.deepEqual(long[0].range, { line: 0, column: 5, endLine: 0, endColumn: 5 + LONG.length });
  assert.equal(long[0].severity, 'warning');
  assert.match(long[0].message, /^A texture path of 750,000 folders, "a\/a\/.*….*\/x\.tga" \(1,500,005 characters\): no file system opens a path of more than 4,096 characters/);
  assert.ok(long[0].message.length < 400, `a message of ${long[0].message.length} characters`);
  // Only the short path was looked up: its texture-not-found, and no lookup answer for the long one.
  assert.deepEqual(r.doc.textures.map((t) => t.path), ['ok.tga']);
  assert.deepEqual(r.diagnostics.filter((d) => d.code === 'texture-not-found').map((d) => d.range.line), [1]);
});

test('a shader stage image path over the limit is warned of and not looked up', async () => {
  const io = countingIo();
  const r = await checkSidecar('shader', '/game/scripts/x.shader', `x\n{\n  {\n    map ${LONG}\n  }\n}\n`, io, EXT);
  assert.deepEqual(r.diagnostics.map((d) => `${d.range.line + 1}:${d.range.column + 1} ${d.code}`), ['4:9 texture-path-too-long']);
  assert.equal(r.doc.textures.length, 0);
});

test('the engine lookup tries nothing for a path over MAX_TEXTURE_PATH, and a path at it as before', async () => {
  const folders = 'b/'.repeat(2000);
  const atLimit = `${folders}${'x'.repeat(MAX_TEXTURE_PATH - folders.length - 4)}.tg`;
  assert.equal(atLimit.length, MAX_TEXTURE_PATH - 1);
  assert.deepEqual(textureCandidates(`${atLimit}a`, EXT).length, EXT.length);
  assert.deepEqual(textureCandidates(`${atLimit}ab`, EXT), []);
  assert.deepEqual(texturePlan(LONG, '/game/models/m', EXT), { engine: [], beside: [] });
  // The preview's lookup: no path tried, no file asked for.
  const io = countingIo();
  const answer = await textureLookup(io, '/game/models/m', EXT).texture(LONG, { shader: false });
  assert.deepEqual([answer.path, answer.tried.length, io.asked], [null, 0, 0]);
});

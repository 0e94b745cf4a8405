// Names from a file reach messages escaped (core/names.ts quotedName): a control byte in a name
// never splits or colours a message, and a name of a million characters is shown cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quotedName } from '../../core/names';
import { readModel } from '../../core/formats/models';
import { textureExtensions } from '../../core/engines/textures';
import { checkSidecar, type SidecarIo } from '../../core/sidecarCheck/check';
import type { ModelSummary } from '../../core/sidecarCheck/lint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { md3Spec } from '../helpers/engine-models';
import { exercise } from '../helpers/model-fuzz';
import { writeMd3 } from '../helpers/model-writers';

/** No C0 or C1 control, DEL or line separator: the message prints as one plain line. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

test('quotedName escapes as JSON does, and more', () => {
  assert.equal(quotedName('tag_head'), '"tag_head"');
  assert.equal(quotedName(''), '""');
  assert.equal(quotedName('a\nb'), '"a\\nb"');
  assert.equal(quotedName('say "hi"\\'), '"say \\"hi\\"\\\\"');
  assert.equal(quotedName('\u001b[31mred'), '"\\u001b[31mred"');
  // JSON.stringify leaves these raw; terminals and editors act on them.
  assert.equal(quotedName('a\u0085b\u2028c\u007f'), '"a\\u0085b\\u2028c\\u007f"');
  assert.equal(quotedName('caf\u00e9'), '"caf\u00e9"', 'printable non-ASCII is kept');
  // What is printed reads back as the name.
  assert.equal(JSON.parse(quotedName('x\u0000\u0085\u2029y')), 'x\u0000\u0085\u2029y');
});

test('quotedName cuts a long name around its middle and says how long it is', () => {
  const long = `${'a/'.repeat(500_000)}x.tga`;
  const shown = quotedName(long);
  assert.ok(shown.length < 200, `${shown.length} characters shown`);
  assert.match(shown, /^"a\/a\/.*….*x\.tga" \(1,000,005 characters\)$/);
});

test('an MD3 tag named with a newline gives a one-line warning', () => {
  const spec = md3Spec({ frames: 2, tagNames: ['tag_head'] });
  spec.tags[1][0].name = 'tag\nhead';
  const model = readModel(writeMd3(spec));
  const warning = model.warnings.find((w) => w.includes('tag 0 is named'));
  assert.ok(warning, `a warning about the renamed tag: ${JSON.stringify(model.warnings)}`);
  assert.equal(warning, 'frame 1 tag 0 is named "tag\\nhead", frame 0 calls it "tag_head"');
});

test('sidecar messages escape the names they quote (skin surfaces, tags, clip names)', async () => {
  const summary: ModelSummary = { file: 'm.md3', frameCount: 20, surfaces: ['body\u0007'], materials: [''], tags: ['tag_\u001bhead'] };
  const io: SidecarIo = {
    isFile: async () => false,
    listFolder: async () => null,
    readBytes: async () => null,
    model: async (path) => (path === '/g/m.md3' ? { summary } : null),
  };
  const ext = textureExtensions([]);
  const skin = await checkSidecar('skin', '/g/m.md3_0.skin', 'he\u0001ad,x\u0085.tga\ntag_\u0002,\n', io, ext);
  const messages = skin.diagnostics.map((d) => d.message);
  assert.ok(messages.some((m) => m.includes('no surface "he\\u0001ad" (its surfaces: "body\\u0007")')), messages.join('\n'));
  assert.ok(messages.some((m) => m.includes('No image "x\\u0085.tga" (surface "he\\u0001ad")')), messages.join('\n'));
  assert.ok(messages.some((m) => m.includes('no tag "tag_\\u0002" (its tags: "tag_\\u001bhead")')), messages.join('\n'));
  // A .framegroups clip named by its comment, which an overlap warning quotes.
  const fg = await checkSidecar('framegroups', '/g/m.md3.framegroups', '0 10 10 1 // run\u000b\u0085fast\n5 10 10 1 // walk\n', io, ext);
  const overlap = fg.diagnostics.find((d) => d.code === 'frame-range-overlap');
  assert.equal(overlap?.message, 'frames 5–9 also belong to "run\\u000b\\u0085fast" (line 1).');
  for (const d of [...skin.diagnostics, ...fg.diagnostics]) assert.doesNotMatch(d.message, RAW_CONTROL, d.message);
});

test('the fuzz corpus of MD3 files: every input that once failed passes the model fuzz now', (t) => {
  const dir = resolve('test', 'fuzz', 'corpus', 'md3');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md3')) : [];
  if (files.length === 0) return t.skip(`${dir} has no inputs`);
  for (const f of files) assert.doesNotThrow(() => exercise(new Uint8Array(readFileSync(join(dir, f)))), f);
  t.diagnostic(`${files.length} inputs`);
});

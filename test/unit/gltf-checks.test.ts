// What a glTF must be before it is read (core/gltf/container.ts, issue 31): every accessor of the
// type and component type its use requires (glTF 2.0: indices, attributes, morph targets, inverse
// bind matrices, animation key times and outputs), else one error naming the accessor, mesh and
// primitive (a float VEC3 read as indices wrote NaN vertices and a note at line NaN); JSON that does
// not parse is one line at the real line and column; the fuzz corpus of glTFs that once failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile, type CompileResult } from '../../core/compile/index';
import { gltfSource } from '../../core/gltf/source';
import { readModel } from '../../core/formats/models';
import { jsonSyntaxError } from '../../core/gltf/jsonSyntax';
import { sampleModel } from '../../cli/sample';
import { BYTE, GltfBuilder, glbOf, type Json, SHORT, skinnedStrip, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT } from '../helpers/gltf-build';
import { exerciseSource } from '../helpers/source-fuzz';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

async function compileGltf(bytes: Uint8Array | string, name = 'test.glb'): Promise<CompileResult> {
  const data = typeof bytes === 'string' ? new Uint8Array(Buffer.from(bytes, 'utf8')) : bytes;
  return compile([await gltfSource(data, name, () => null)]);
}

function firstError(result: CompileResult): { code: string; message: string; line: number; column: number } {
  assert.equal(result.bytes, undefined, 'compiled, but should not have');
  const error = result.diagnostics.find((d) => d.diagnostic.severity === 'error');
  assert.ok(error, JSON.stringify(result.diagnostics));
  const d = error.diagnostic;
  return { code: d.code, message: d.message, line: d.range.line, column: d.range.column };
}

/** The animated strip (accessors: 0 POSITION, 1 JOINTS_0, 2 WEIGHTS_0, 3 TEXCOORD_0, 4 indices, 5 inverse bind matrices, 6 key times, 7 rotations) edited, as a GLB. */
function strip(edit: (b: GltfBuilder, json: Json) => void): Uint8Array {
  const b = skinnedStrip({ animation: true });
  edit(b, b.json);
  return b.glb();
}

/** The strip with float VEC3 indices, one of them -1 (the file). */
function vec3Indices(): GltfBuilder {
  const b = skinnedStrip({ animation: true });
  b.json.meshes[0].primitives[0].indices = b.accessor([-1, 0, 1, 1, 3, 0], 'VEC3');
  return b;
}

test('a float VEC3 as indices (it wrote NaN vertices and a note at line NaN) is one error naming the accessor, mesh and primitive; the CLI writes nothing and check says so', { skip: NO_CLI }, async () => {
  const error = firstError(await compileGltf(vec3Indices().glb()));
  assert.equal(error.code, 'gltf-accessor-type');
  assert.equal(error.message, 'mesh 0 primitive 0: indices (accessor 8) is VEC3 of FLOAT; glTF requires SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT');
  withTempDir('iqm-gltf-checks-', (dir) => {
    const path = join(dir, 'quad.gltf');
    writeFileSync(path, vec3Indices().gltf());
    const compiled = spawnSync(process.execPath, [CLI, 'compile', path, '--json'], { encoding: 'utf8' });
    assert.equal(compiled.status, 1, compiled.stdout + compiled.stderr);
    const [d] = JSON.parse(compiled.stdout).diagnostics;
    assert.deepEqual([d.code, d.line, d.column], ['gltf-accessor-type', 1, 1]);
    assert.equal(existsSync(join(dir, 'quad.iqm')), false);
    const checked = spawnSync(process.execPath, [CLI, 'check', path], { encoding: 'utf8' });
    assert.equal(checked.status, 1, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /quad\.gltf:1:1: error: mesh 0 primitive 0: indices \(accessor 8\) is VEC3 of FLOAT.*\[gltf-accessor-type\]/);
  });
});

test('every use of an accessor is checked against the formats glTF allows it, the error naming the use and the accessor', async () => {
  const cases: [string, (b: GltfBuilder, j: Json) => void, string][] = [
    ['POSITION', (_, j) => (j.meshes[0].primitives[0].attributes.POSITION = 2), 'mesh 0 primitive 0: attribute POSITION (accessor 2) is VEC4 of FLOAT; glTF requires VEC3 of FLOAT'],
    ['NORMAL', (_, j) => (j.meshes[0].primitives[0].attributes.NORMAL = 3), 'mesh 0 primitive 0: attribute NORMAL (accessor 3) is VEC2 of FLOAT; glTF requires VEC3 of FLOAT'],
    ['TANGENT', (_, j) => (j.meshes[0].primitives[0].attributes.TANGENT = 0), 'mesh 0 primitive 0: attribute TANGENT (accessor 0) is VEC3 of FLOAT; glTF requires VEC4 of FLOAT'],
    [
      'TEXCOORD_0 of bytes not normalized',
      (b, j) => (j.meshes[0].primitives[0].attributes.TEXCOORD_0 = b.accessor(new Array(16).fill(1), 'VEC2', UNSIGNED_BYTE)),
      'mesh 0 primitive 0: attribute TEXCOORD_0 (accessor 8) is VEC2 of UNSIGNED_BYTE; glTF requires VEC2 of FLOAT, normalized UNSIGNED_BYTE or normalized UNSIGNED_SHORT',
    ],
    ['COLOR_0', (_, j) => (j.meshes[0].primitives[0].attributes.COLOR_0 = 1), 'mesh 0 primitive 0: attribute COLOR_0 (accessor 1) is VEC4 of UNSIGNED_BYTE; glTF requires VEC3 or VEC4 of FLOAT, normalized UNSIGNED_BYTE or normalized UNSIGNED_SHORT'],
    ['JOINTS_0', (_, j) => (j.meshes[0].primitives[0].attributes.JOINTS_0 = 2), 'mesh 0 primitive 0: attribute JOINTS_0 (accessor 2) is VEC4 of FLOAT; glTF requires VEC4 of UNSIGNED_BYTE or UNSIGNED_SHORT'],
    ['WEIGHTS_0', (_, j) => (j.meshes[0].primitives[0].attributes.WEIGHTS_0 = 1), 'mesh 0 primitive 0: attribute WEIGHTS_0 (accessor 1) is VEC4 of UNSIGNED_BYTE; glTF requires VEC4 of FLOAT, normalized UNSIGNED_BYTE or normalized UNSIGNED_SHORT'],
    ['indices of VEC2', (_, j) => (j.meshes[0].primitives[0].indices = 3), 'mesh 0 primitive 0: indices (accessor 3) is VEC2 of FLOAT; glTF requires SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT'],
    ['a morph target', (_, j) => (j.meshes[0].primitives[0].targets = [{ POSITION: 2 }]), 'mesh 0 primitive 0: POSITION of morph target 0 (accessor 2) is VEC4 of FLOAT; glTF requires VEC3 of FLOAT'],
    ['inverse bind matrices', (_, j) => (j.skins[0].inverseBindMatrices = 7), "skin 0: inverseBindMatrices (accessor 7) is VEC4 of FLOAT; glTF requires MAT4 of FLOAT"],
    ['key times', (b, j) => (j.animations[0].samplers[0].input = b.accessor([0, 1], 'SCALAR', UNSIGNED_SHORT)), "animation 0 ('bend') sampler 0: input (accessor 8) is SCALAR of UNSIGNED_SHORT; glTF requires SCALAR of FLOAT"],
    [
      'rotations',
      (_, j) => (j.animations[0].samplers[0].output = 0),
      "animation 0 ('bend') channel 0: the rotation output of sampler 0 (accessor 0) is VEC3 of FLOAT; glTF requires VEC4 of FLOAT, normalized BYTE, normalized UNSIGNED_BYTE, normalized SHORT or normalized UNSIGNED_SHORT",
    ],
    ['translations', (_, j) => (j.animations[0].channels[0].target.path = 'translation'), "animation 0 ('bend') channel 0: the translation output of sampler 0 (accessor 7) is VEC4 of FLOAT; glTF requires VEC3 of FLOAT"],
    ['normalized floats', (_, j) => (j.accessors[0].normalized = true), 'accessor 0: normalized FLOAT: glTF normalizes only 8- and 16-bit integers'],
    // The glTF library threw "Invalid component type." out of the reader: a crash (the fuzz found it).
    ['normalized UNSIGNED_INT', (_, j) => Object.assign(j.accessors[2], { componentType: UNSIGNED_INT, normalized: true }), 'accessor 2: normalized UNSIGNED_INT: glTF normalizes only 8- and 16-bit integers'],
    ['normalized, not a boolean', (_, j) => (j.accessors[3].normalized = 1), 'accessor 3: normalized is not true or false'],
  ];
  for (const [what, edit, message] of cases) {
    const error = firstError(await compileGltf(strip(edit)));
    assert.equal(error.message, message, what);
    assert.equal(error.code, message.includes('is not true or false') ? 'gltf-invalid' : 'gltf-accessor-type', what);
  }
});

test('the formats glTF allows besides float compile as the glTF library reads them (normalized texture coordinates, colours and weights, short joints, byte indices, normalized rotations)', async () => {
  const plain = await compileGltf(skinnedStrip({ animation: true }).glb());
  assert.ok(plain.bytes, JSON.stringify(plain.diagnostics));
  const expected = readModel(plain.bytes);
  const allowed: [string, (b: GltfBuilder, j: Json) => void][] = [
    ['TEXCOORD_0 as normalized ubyte', (b, j) => {
      const uvs = [0, 0, 255, 0, 0, 85, 255, 85, 0, 170, 255, 170, 0, 255, 255, 255];
      j.meshes[0].primitives[0].attributes.TEXCOORD_0 = b.accessor(uvs, 'VEC2', UNSIGNED_BYTE, { normalized: true });
    }],
    ['JOINTS_0 as ushort, WEIGHTS_0 as normalized ubyte', (b, j) => {
      const p = j.meshes[0].primitives[0].attributes;
      p.JOINTS_0 = b.accessor([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 'VEC4', UNSIGNED_SHORT);
      p.WEIGHTS_0 = b.accessor(new Array(8).fill([255, 0, 0, 0]).flat(), 'VEC4', UNSIGNED_BYTE, { normalized: true });
    }],
    ['indices as ubyte', (b, j) => (j.meshes[0].primitives[0].indices = b.accessor([0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4, 4, 5, 7, 4, 7, 6], 'SCALAR', UNSIGNED_BYTE))],
    ['rotations as normalized short', (b, j) => (j.animations[0].samplers[0].output = b.accessor([0, 0, 0, 32767, 23170, 0, 0, 23170], 'VEC4', SHORT, { normalized: true }))],
    ['rotations as normalized byte', (b, j) => (j.animations[0].samplers[0].output = b.accessor([0, 0, 0, 127, 90, 0, 0, 90], 'VEC4', BYTE, { normalized: true }))],
  ];
  for (const [what, edit] of allowed) {
    const result = await compileGltf(strip(edit));
    assert.ok(result.bytes, `${what}: ${JSON.stringify(result.diagnostics)}`);
    const model = readModel(result.bytes);
    assert.deepEqual(model.meshes[0].texcoord!.map((x) => Math.round(x * 100) / 100), expected.meshes[0].texcoord!.map((x) => Math.round(x * 100) / 100), what);
    // Every frame skins the strip where the float file's does (normalized values are within 1/127).
    for (const frame of [0, 15, 30]) {
      const got = sampleModel(model, frame), want = sampleModel(expected, frame);
      assert.ok(typeof got !== 'string' && typeof want !== 'string');
      got.positions.forEach((x, i) => assert.ok(Math.abs(x - want.positions[i]) < 0.02, `${what}: frame ${frame} coordinate ${i}: ${x}, ${want.positions[i]}`));
    }
  }
  // A colour of normalized ushort VEC3 is the ubyte colour array.
  const coloured = await compileGltf(strip((b, j) => (j.meshes[0].primitives[0].attributes.COLOR_0 = b.accessor(new Array(8).fill([65535, 32768, 0]).flat(), 'VEC3', UNSIGNED_SHORT, { normalized: true }))));
  assert.ok(coloured.bytes, JSON.stringify(coloured.diagnostics));
  assert.deepEqual([...readModel(coloured.bytes).meshes[0].color!.subarray(0, 4)].map((x) => Math.round(x * 255)), [255, 128, 0, 255]);
});

test('a required extension is refused before the accessors are judged (quantised files have integer positions)', async () => {
  const error = firstError(await compileGltf(strip((b, j) => {
    j.extensionsUsed = j.extensionsRequired = ['KHR_mesh_quantization'];
    j.meshes[0].primitives[0].attributes.POSITION = b.accessor(new Array(24).fill(0), 'VEC3', SHORT);
  })));
  assert.deepEqual([error.code, error.message], ['gltf-extension', 'the glTF requires extension "KHR_mesh_quantization", which is not read: export without compression or quantisation']);
});

test('glTF JSON that does not parse: one line, at the real line and column (a .gltf) or byte (a GLB), whatever the engine says', async () => {
  const good = skinnedStrip({ animation: true }).gltf();
  const lines = good.split('\n');
  // Each: the text, the 1-based line and column of the error, what the message says.
  const cases: [string, string, number, number, RegExp][] = [
    // V8 pastes an excerpt with a newline here ("Unexpected token ',', ...\"sion\": tru,\n  \"gener\"... is not valid JSON") and gives no position.
    ['a word that is no value', good.replace('"version": "2.0"', '"version": tru'), 3, 14, /expected a value, found 'tru'$/],
    ['a closing brace for a value', good.replace('"version": "2.0"', '"version": }'), 3, 14, /expected a value, found '\}'$/],
    ['a missing comma', good.replace('"version": "2.0",', '"version": "2.0"'), 4, 3, /expected ',' or '\}' after a member of the object opened at line 2, column 11, found '"'$/],
    ['a trailing comma', good.replace(/\n \]/, ',\n ]'), 0, 0, /expected a value, found '\]'$/],
    ['a name without quotes', good.replace('"generator"', 'generator'), 4, 3, /expected a member name in double quotes, found 'generator'$/],
    ['a string over a line break', good.replace('"iqm-tools tests"', '"iqm-tools\ntests"'), 4, 26, /a line break inside the string that starts at line 4, column 16/],
    ['a bad escape', good.replace('"iqm-tools tests"', '"iqm\\qtools"'), 4, 20, /escape '\\q' is not a JSON escape$/],
    ['a leading zero', good.replace('"scene": 0', '"scene": 00'), 0, 0, /a number with a leading zero$/],
    ['text after the object', `${good}\n}`, lines.length + 1, 1, /'\}' after the end of the JSON value$/],
    ['the end inside an array', good.slice(0, good.indexOf('"nodes": [') + 12), 0, 0, /the text ends inside the array opened at line \d+, column 13$/],
  ];
  for (const [what, text, line, column, message] of cases) {
    const error = firstError(await compileGltf(text, 'bad.gltf'));
    assert.equal(error.code, 'gltf-json', what);
    assert.match(error.message, /^the glTF JSON is not valid: /, what);
    assert.doesNotMatch(error.message, /[\r\n]/, `${what}: one line`);
    assert.match(error.message, message, what);
    if (line > 0) assert.deepEqual([error.line + 1, error.column + 1], [line, column], what);
  }
  // The trailing comma: at the ']' after it.
  const comma = good.replace(/\n \]/, ',\n ]');
  const trailing = firstError(await compileGltf(comma, 'bad.gltf'));
  const before = comma.slice(0, comma.indexOf(',\n ]') + 2).split('\n');
  assert.deepEqual([trailing.line, trailing.column], [before.length - 1, 1]);
  // CRLF lines, a lone CR and a byte order mark: columns are the editor's.
  const crlf = '\uFEFF{\r\n "asset": {"version": "2.0"},\r\n "nodes": [1,,2]\r\n}';
  assert.deepEqual(Object.values(firstError(await compileGltf(crlf, 'crlf.gltf'))).slice(2), [2, 13]);
  assert.deepEqual(Object.values(firstError(await compileGltf('{\r "asset": x}', 'cr.gltf'))).slice(2), [1, 10]);
  // A GLB's JSON chunk: the byte offset in the file (its chunk starts at byte 20).
  const json = '{"asset": {"version": "2.0"}, "nodes": [}';
  const glb = firstError(await compileGltf(glbOf(json, new Uint8Array(0))));
  assert.equal(glb.message, `the glTF JSON is not valid: expected a value, found '}' (at byte ${20 + json.indexOf('[}') + 1})`);
  // Nesting a million deep costs no stack: the end of the text is the error.
  const deep = `{"asset": ${'['.repeat(1_000_000)}`;
  assert.match(firstError(await compileGltf(deep, 'deep.gltf')).message, /the text ends inside the array opened at line 1, column 1000010$/);
});

test('jsonSyntaxError finds nothing in valid JSON and the first error in broken JSON, as JSON.parse judges', () => {
  const valid = ['{}', '[]', '0', '-0.5e+10', '"a\\u00e9\\n"', '{"a": [1, true, false, null, {"b": "c"}]}', ' \t\r\n{ "a" : 1 } \n'];
  for (const text of valid) assert.equal(jsonSyntaxError(text), null, text);
  const broken = ['', '{', '[1,]', '{"a" 1}', '{"a": 1,}', '01', '1.', '.5', '-', '1e', 'NaN', '"\\x"', '"\\u12"', '"a', '{} {}', '[1 2]', '\u0001', '{"a":\u00a01}'];
  for (const text of broken) {
    assert.throws(() => JSON.parse(text), text);
    const found = jsonSyntaxError(text);
    assert.ok(found, `no error found in ${JSON.stringify(text)}`);
    assert.doesNotMatch(found.message, /[\r\n]/);
  }
});

test('the fuzz corpus: every glTF that once failed passes the reader and the compile now', async (t) => {
  const dir = resolve('test', 'fuzz', 'corpus', 'gltf');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.txt')) : [];
  if (files.length === 0) return t.skip(`${dir} has no inputs`);
  for (const f of files) await assert.doesNotReject(exerciseSource(new Uint8Array(readFileSync(join(dir, f))), f), f);
  t.diagnostic(`${files.length} inputs`);
});

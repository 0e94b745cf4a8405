// MODELDEF (GZDoom, UZDoom): the scanner and parser (core/sidecar/modeldef.ts), the engine's frame
// lookups and the check against a generated mod folder (core/sidecarCheck/modeldef.ts), and
// `iqm-tools check modeldef.txt` on that folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { md2FrameNames } from '../../core/md2/frames';
import { isModeldefName, modeldefInteger, parseModeldef, tokenizeModeldef } from '../../core/sidecar/modeldef';
import { checkModeldef, findFrame, modeldefLinkAt, modRoot, type ModeldefModel } from '../../core/sidecarCheck/modeldef';
import { diskSidecarIo } from '../../node/sidecarIo';
import { MODELDEF_LINES, modeldefModFiles, plantedProblems, WEAPONS_LINES } from '../helpers/modeldef-mod';
import { withTempDir } from '../helpers/temp-dir';
import { md3Spec } from '../helpers/engine-models';
import { writeMd3 } from '../helpers/model-writers';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

function writeMod(dir: string, files = modeldefModFiles()): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

test('the scanner: Hexen comments (// ; /* */), quoted strings, { } | = as tokens, positions', () => {
  const tokens = tokenizeModeldef('Model Imp{ // note\n  Path "models/imp" ; a comment\n/* x\n y */ Scale 1 2 3 }');
  assert.deepEqual(
    tokens.map((t) => `${t.text}@${t.line}:${t.column}-${t.endLine}:${t.endColumn}${t.quoted ? 'q' : ''}`),
    ['Model@0:0-0:5', 'Imp@0:6-0:9', '{@0:9-0:10', 'Path@1:2-1:6', 'models/imp@1:7-1:19q', 'Scale@3:6-3:11', '1@3:12-3:13', '2@3:14-3:15', '3@3:16-3:17', '}@3:18-3:19'],
  );
  // A / inside a word is part of it; CRLF counts one line; \" inside a string.
  assert.deepEqual(
    tokenizeModeldef('Path models/x\r\nSkin 0 "a\\"b"').map((t) => [t.text, t.line]),
    [
      ['Path', 0],
      ['models/x', 0],
      ['Skin', 1],
      ['0', 1],
      ['a"b', 1],
    ],
  );
});

test('numbers as FScanner reads them, and the names that are MODELDEF', () => {
  assert.equal(modeldefInteger('12'), 12);
  assert.equal(modeldefInteger('-3'), -3);
  assert.equal(modeldefInteger('0x10'), 16);
  assert.equal(modeldefInteger('010'), 8);
  assert.ok(Number.isNaN(modeldefInteger('1.5')));
  assert.ok(Number.isNaN(modeldefInteger('x')));
  assert.ok(isModeldefName('/m/MODELDEF.txt'));
  assert.ok(isModeldefName('/m/modeldef.monsters'));
  assert.ok(isModeldefName('modeldef'));
  assert.ok(!isModeldefName('/m/models.txt'));
});

test('model slots come from the block\'s last "Model N" (at least 4, a uint8_t)', () => {
  const amount = (body: string) => parseModeldef(`Model A {\n${body}\n}`).blocks[0].modelsAmount;
  assert.equal(amount('Model 0 "a.md3"'), 4);
  assert.equal(amount('Model 3 "a.md3"'), 4);
  assert.equal(amount('Model 4 "a.md3"'), 5);
  assert.equal(amount('Model 6 "a.md3"\nModel 0 "b.md3"'), 4, 'the last line counts, not the largest index');
  assert.equal(amount('Model 255 "a.md3"'), 4, '256 wraps to 0 in a uint8_t');
});

test('syntax: a missing {, a word where a number goes, an unclosed block, words outside a block', () => {
  const codes = (text: string) => parseModeldef(text).problems.map((p) => `${p.range.line + 1}:${p.range.column + 1} ${p.severity} ${p.code}`);
  assert.deepEqual(codes('Model A\nPath "x"'), ['2:1 error modeldef-syntax']);
  assert.deepEqual(codes('Model A {\n Scale 1 x 1\n}'), ['2:10 error modeldef-syntax']);
  assert.deepEqual(codes('Model A {\n Path "x"\n'), ['2:10 error modeldef-syntax']);
  assert.deepEqual(codes('Actor A {}'), ['1:1 warning modeldef-ignored', '1:7 warning modeldef-ignored', '1:9 warning modeldef-ignored', '1:10 warning modeldef-ignored']);
  assert.deepEqual(codes('Model A {\n Bogus\n NoInterpolation\n}'), ['2:2 warning modeldef-unknown-keyword']);
  // A keyword where a number goes starts the next statement: one problem, not two.
  assert.deepEqual(codes('Model A {\n Scale 1 1\n Skin 0 "x"\n}'), ['3:2 error modeldef-syntax']);
});

test("the engines' FindFrame: IQM by animation name (its first letters) and name:offset, MD3 and MD2 by frame name", () => {
  const iqm: ModeldefModel = {
    lookedUp: 'm.iqm',
    summary: { file: 'm.iqm', frameCount: 12, surfaces: [], materials: [], tags: [], format: 'iqm', version: 2, clips: [{ name: 'Idle', firstFrame: 0, frameCount: 4, fps: 10, loop: true }, { name: 'walking', firstFrame: 4, frameCount: 8, fps: 10, loop: true }] },
  };
  assert.deepEqual(findFrame(iqm, 'idle'), { frame: 0, prefixOf: undefined });
  assert.deepEqual(findFrame(iqm, 'walking:7'), { frame: 11, prefixOf: undefined });
  assert.deepEqual(findFrame(iqm, 'walk:1'), { frame: 5, prefixOf: 'walking' }, 'strnicmp over the name given');
  assert.equal(findFrame(iqm, 'walking:8'), null, 'an offset at the animation\'s frame count');
  assert.equal(findFrame(iqm, 'walking:-1'), null, 'read as unsigned');
  assert.deepEqual(findFrame(iqm, 'walking:x'), { frame: 4, prefixOf: undefined }, 'atoi of no digits is 0');
  assert.equal(findFrame(iqm, 'walkingfast'), null);
  assert.deepEqual(findFrame(iqm, ':2'), { frame: 2, prefixOf: 'Idle' }, 'an empty name matches the first animation');
  const md3: ModeldefModel = { lookedUp: 'b.md3', summary: { file: 'b.md3', frameCount: 2, surfaces: [], materials: [], tags: [], format: 'md3', version: 15, frameNames: ['Stand', 'roll'] } };
  assert.deepEqual(findFrame(md3, 'stand'), { frame: 0 });
  assert.equal(findFrame(md3, 'stand:0'), null, 'MD3 has no name:offset');
  assert.deepEqual(findFrame({ lookedUp: 'x.md2', md2Frames: ['run1', 'run2'] }, 'RUN2'), { frame: 1 });
  assert.equal(findFrame({ lookedUp: 'x.obj' }, 'any'), undefined, 'a format iqm-tools does not read: not checked');
});

function md2(names: string[], frameSize = 40 + 4): Uint8Array {
  const bytes = new Uint8Array(68 + names.length * frameSize);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x44, 0x50, 0x32]); // IDP2
  view.setInt32(4, 8, true);
  view.setInt32(16, frameSize, true);
  view.setInt32(40, names.length, true);
  view.setInt32(56, 68, true);
  names.forEach((n, f) => {
    for (let k = 0; k < n.length; k++) bytes[68 + f * frameSize + 24 + k] = n.charCodeAt(k);
  });
  return bytes;
}

test('GZDoom\'s MD2 refusals in a MODELDEF: num_glcmds 1 loads, 0 is refused; frames past the file end are refused', async () => {
  await withTempDir('iqm-modeldef-md2-', async (dir) => {
    const withGl = (count: number) => {
      const bytes = md2(['stand', 'run1']);
      new DataView(bytes.buffer).setInt32(36, count, true);
      return bytes;
    };
    writeMod(dir, { ...modeldefModFiles(), 'm/one.md2': withGl(1), 'm/none.md2': withGl(0), 'm/short.md2': withGl(1).subarray(0, 100) });
    const text = 'Model A\n{\n  Path "m"\n  Model 0 "one.md2"\n  Frame TROO A 0 "run1"\n  Model 1 "none.md2"\n  Model 2 "short.md2"\n}\n';
    const result = await checkModeldef(join(dir, 'modeldef.txt'), text, diskSidecarIo);
    assert.deepEqual(result.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`), ['6 modeldef-model-unreadable', '7 modeldef-model-unreadable']);
    assert.match(result.diagnostics[0].message, /num_glcmds is 0 \(byte 36\): GZDoom refuses it \("invalid NumGLCommands"\)/);
    assert.match(result.diagnostics[1].message, /run past the file's 100 bytes: GZDoom's MD2 loader fails \("file too short"\)/);
  });
});

test('UZDoom\'s MODELDEF (iqmTools.engine uzdoom): ViewModelFOV, BaseFrame, CorrectPixelStretch, ForceCullBackfaces read; a Frame name found in the Animation file', async () => {
  await withTempDir('iqm-modeldef-uzdoom-', async (dir) => {
    writeMod(dir);
    const text = [
      'Model ZombieMonster',
      '{',
      '  Path "models"',
      '  Model 0 "monster/monster.iqm"',
      '  Animation 0 "barrel/barrel.md3"',
      '  ViewModelFOV 90',
      '  BaseFrame',
      '  CorrectPixelStretch',
      '  ForceCullBackfaces',
      '  Frame TROO A 0 "roll"',
      '  Frame TROO B 0 "walk:3"',
      '}',
      '',
    ].join('\n');
    const as = async (dialect: 'gzdoom' | 'uzdoom') => (await checkModeldef(join(dir, 'modeldef.txt'), text, diskSidecarIo, dialect)).diagnostics;
    // GZDoom: the four words are unknown (and ViewModelFOV's number too), "roll" is not monster.iqm's; "walk:3" is.
    const gz = await as('gzdoom');
    assert.deepEqual(gz.map((d) => `${d.range.line + 1} ${d.code}`), ['6 modeldef-unknown-keyword', '6 modeldef-unknown-keyword', '7 modeldef-unknown-keyword', '8 modeldef-unknown-keyword', '9 modeldef-unknown-keyword', '10 modeldef-frame-unknown']);
    assert.match(gz[0].message, /^"ViewModelFOV" is UZDoom's, not GZDoom's: .*set iqmTools\.engine to uzdoom/);
    // UZDoom: all read; "roll" is found in the Animation file (barrel.md3), and "walk:3" then is not.
    const uz = await as('uzdoom');
    assert.deepEqual(uz.map((d) => `${d.range.line + 1} ${d.code}`), ['11 modeldef-frame-unknown']);
    assert.match(uz[0].message, /"Barrel\.md3" has no frame "walk:3" .*UZDoom stops with "Unknown frame"/);
    // Its argument is a number, as for UZDoom's MustGetFloat.
    const bad = await checkModeldef(join(dir, 'modeldef.txt'), text.replace('ViewModelFOV 90', 'ViewModelFOV wide'), diskSidecarIo, 'uzdoom');
    assert.deepEqual(bad.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`), ['6 modeldef-syntax', '11 modeldef-frame-unknown']);
  });
});

test('an MD3 frame name of 16 characters is matched by its first 15, as FMD3Model keeps it', async () => {
  await withTempDir('iqm-modeldef-md3name-', async (dir) => {
    const spec = md3Spec({ frames: 2, vertices: 3, triangles: 1 });
    spec.frames[1].name = 'abcdefghijklmnop';
    writeMod(dir, { ...modeldefModFiles(), 'm/long.md3': writeMd3(spec) });
    const text = 'Model A\n{\n  Path "m"\n  Model 0 "long.md3"\n  Frame TROO A 0 "abcdefghijklmno"\n  Frame TROO B 0 "abcdefghijklmnop"\n}\n';
    const result = await checkModeldef(join(dir, 'modeldef.txt'), text, diskSidecarIo);
    assert.deepEqual(result.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`), ['6 modeldef-frame-unknown']);
  });
});

test('MD2 frame names, every count and offset checked against the file', () => {
  assert.deepEqual(md2FrameNames(md2(['stand01', 'run1'])), { names: ['stand01', 'run1'] });
  const short = md2(['a', 'b']).subarray(0, 100);
  assert.match(String((md2FrameNames(short) as { error: string }).error), /run past the file's 100 bytes/);
  const bad = md2(['a']);
  new DataView(bad.buffer).setInt32(40, -5, true);
  assert.ok('error' in md2FrameNames(bad));
  assert.ok('error' in md2FrameNames(new Uint8Array(10)));
});

test('the generated mod folder: exactly the planted problems, each at its line', async () => {
  await withTempDir('iqm-modeldef-', async (dir) => {
    writeMod(dir);
    const path = join(dir, 'modeldef.txt');
    const result = await checkModeldef(path, MODELDEF_LINES.join('\n'), diskSidecarIo);
    assert.deepEqual(
      result.diagnostics.map((d) => ({ line: d.range.line + 1, code: d.code })),
      plantedProblems(),
      result.diagnostics.map((d) => `${d.range.line + 1}: ${d.code}: ${d.message}`).join('\n'),
    );
    // Each diagnostic points at the token the problem is in.
    const at = (code: string, n = 0) => {
      const d = result.diagnostics.filter((x) => x.code === code)[n];
      const line = MODELDEF_LINES[d.range.line];
      return line.slice(d.range.column, d.range.endColumn);
    };
    assert.equal(at('modeldef-file-not-found'), '"monstr.iqm"');
    assert.equal(at('modeldef-frame-unknown'), '"atack:1"');
    assert.equal(at('modeldef-frame-index'), '17');
    assert.equal(at('modeldef-model-unset'), '3');
    assert.equal(at('modeldef-include-not-found'), '"modeldef.effects"');
    assert.equal(at('modeldef-index'), '4');
    assert.equal(at('modeldef-syntax'), 'high');
    assert.equal(at('modeldef-unknown-keyword'), 'InheritActorYaw');
    assert.equal(at('modeldef-sprite'), 'TRO');
    const messages = result.diagnostics.map((d) => d.message).join('\n');
    assert.match(messages, /"monster\.iqm" has no frame "atack:1" \(its animations: "idle" \(4 frames\), "walk" \(8 frames\), "attack" \(5 frames\)/);
    assert.match(messages, /Frame 17 is past "monster\.iqm"'s 17 frames \(0–16\)/);
    assert.match(messages, /Model index 0 has no model at this line \(Model 0 is given on line 34, below\)/);
    assert.match(messages, /"Barrel\.md3" has no frame "explode" \(its frames: "stand", "roll", "burst"\)/);
    // Links for hover and ▶.
    // The model files found (one in another case than written) and the included file: the server watches them.
    assert.deepEqual(result.modelPaths.map((p) => p.slice(dir.length)).sort(), ['/modeldef.weapons', '/models/barrel/Barrel.md3', '/models/monster/monster.iqm']);
    const walk = modeldefLinkAt(result, 17, MODELDEF_LINES[17].indexOf('walk:3') + 1);
    assert.ok(walk && walk.kind === 'frame');
    assert.equal(walk.frame, 7);
    assert.deepEqual(walk.clip, { name: 'walk', firstFrame: 4, frameCount: 8, offset: 3 });
    const skin = modeldefLinkAt(result, 35, MODELDEF_LINES[35].indexOf('barrel_top') + 1);
    assert.ok(skin && skin.kind === 'skin');
    assert.equal(skin.path, join(dir, 'models/barrel/barrel_top.tga'), 'an image found by another extension, as LoadSkin finds it');
  });
});

test('#include: the included file checked where it is read (its problems shown at the #include), a definition repeated across files, a cycle reported and not followed', async () => {
  await withTempDir('iqm-modeldef-include-', async (dir) => {
    writeMod(dir);
    const result = await checkModeldef(join(dir, 'modeldef.txt'), MODELDEF_LINES.join('\n'), diskSidecarIo);
    // The included file's own problems, at its lines (its #include back to modeldef.txt is a cycle).
    assert.deepEqual(result.included.map((f) => f.path), [join(dir, 'modeldef.weapons')]);
    assert.deepEqual(
      result.included[0].diagnostics.map((d) => ({ line: d.range.line + 1, code: d.code })),
      plantedProblems(WEAPONS_LINES),
    );
    const cycle = result.included[0].diagnostics.find((d) => d.code === 'modeldef-include-cycle');
    assert.match(cycle?.message ?? '', /\(modeldef\.txt → modeldef\.weapons → modeldef\.txt\): GZDoom has no guard/);
    // At the #include in modeldef.txt: a summary, with a related location for each.
    const summary = result.diagnostics.find((d) => d.code === 'modeldef-include-problems');
    assert.equal(summary?.severity, 'error');
    assert.equal(summary?.range.line, 1);
    assert.match(summary?.message ?? '', /^"modeldef\.weapons" \(included here, read by GZDoom at this line\) has 2 problems: line 8: Frame 3 is past "Barrel\.md3"'s 3 frames.*; line 10: #include "modeldef\.txt" includes a file/);
    assert.deepEqual(summary?.related?.map((r) => [r.path, r.range.line]), [
      [join(dir, 'modeldef.weapons'), 7],
      [join(dir, 'modeldef.weapons'), 9],
    ]);
    // PISG B of Pistol is defined in the included file first (read at line 2), then in modeldef.txt.
    const duplicate = result.diagnostics.find((d) => d.code === 'modeldef-duplicate' && MODELDEF_LINES[d.range.line].includes('PISG'));
    assert.match(duplicate?.message ?? '', /^"Pistol PISG B" is already defined in "modeldef\.weapons", line 7: GZDoom uses this later definition/);
    assert.deepEqual(duplicate?.related?.map((r) => [r.path, r.range.line]), [[join(dir, 'modeldef.weapons'), 6]]);
    // Within one file, the related location has no path (the same file).
    const sameFile = result.diagnostics.find((d) => d.code === 'modeldef-duplicate' && MODELDEF_LINES[d.range.line].includes('TROO'));
    assert.deepEqual(sameFile?.related?.map((r) => [r.path, r.range.line]), [[undefined, 16]]);
  });
});

test('#include: a file included twice (two ways) is read once; a file that includes itself is a cycle', async () => {
  await withTempDir('iqm-modeldef-include2-', async (dir) => {
    const files = modeldefModFiles();
    writeMod(dir, {
      ...files,
      'modeldef.txt': '#include "a.txt"\n#include "b.txt"\n',
      'a.txt': '#include "common.txt"\n',
      'b.txt': '#include "common.txt"\n#include "b.txt"\n',
      'common.txt': 'Model Pistol\n{\n  Model 0 "models/barrel/barrel.md3"\n  FrameIndex PISG A 0 9\n}\n',
    });
    const result = await checkModeldef(join(dir, 'modeldef.txt'), '#include "a.txt"\n#include "b.txt"\n', diskSidecarIo);
    assert.deepEqual(result.included.map((f) => f.path.slice(dir.length)), ['/a.txt', '/common.txt', '/b.txt']);
    // common.txt's frame past the model: once (no duplicate of itself), shown through a.txt only.
    assert.deepEqual(result.included.find((f) => f.path.endsWith('common.txt'))?.diagnostics.map((d) => d.code), ['modeldef-frame-index']);
    assert.deepEqual(result.included.find((f) => f.path.endsWith('b.txt'))?.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`), ['2 modeldef-include-cycle']);
    assert.deepEqual(result.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`), ['1 modeldef-include-problems', '2 modeldef-include-problems']);
    assert.match(result.diagnostics[1].message, /\(b\.txt → b\.txt\)/);
  });
});

test('an included file is resolved from the mod root; a file not named MODELDEF finds its root above', async () => {
  await withTempDir('iqm-modeldef-root-', async (dir) => {
    writeMod(dir, { ...modeldefModFiles(), 'defs/monsters.txt': 'Model Imp\n{\n  Model 0 "models/monster/monster.iqm"\n  Frame TROO A 0 "idle"\n  Frame TROO B 0 "run"\n}\n' });
    assert.equal(await modRoot(join(dir, 'defs/monsters.txt'), diskSidecarIo), dir);
    const result = await checkModeldef(join(dir, 'defs/monsters.txt'), 'Model Imp\n{\n  Model 0 "models/monster/monster.iqm"\n  Frame TROO A 0 "idle"\n  Frame TROO B 0 "run"\n}\n', diskSidecarIo);
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`),
      ['5 modeldef-frame-unknown'],
    );
  });
});

test('an IQM GZDoom refuses (version 1) and a format it has no loader for (DPM)', async () => {
  await withTempDir('iqm-modeldef-formats-', async (dir) => {
    const files = modeldefModFiles();
    const iqm = new Uint8Array(files['models/monster/monster.iqm'] as Uint8Array);
    new DataView(iqm.buffer).setUint32(16, 1, true); // version 1: same layout for this model
    writeMod(dir, { ...files, 'models/monster/monster.iqm': iqm, 'models/monster/monster.dpm': new TextEncoder().encode('DARKPLACESMODEL\0') });
    const text = 'Model A\n{\n  Path "models/monster"\n  Model 0 "monster.iqm"\n  Model 1 "monster.dpm"\n  Frame TROO A 0 "idle"\n}\n';
    const result = await checkModeldef(join(dir, 'modeldef.txt'), text, diskSidecarIo);
    const codes = result.diagnostics.map((d) => `${d.range.line + 1} ${d.code}`);
    assert.deepEqual(codes, ['4 modeldef-model-unreadable', '5 modeldef-model-unreadable']);
    assert.match(result.diagnostics[0].message, /version 1: GZDoom loads version 2 only/);
  });
});

test('iqm-tools check modeldef.txt prints the same diagnostics (exit 1)', { skip: NO_CLI }, () => {
  withTempDir('iqm-modeldef-cli-', (dir) => {
    writeMod(dir);
    const run = spawnSync(process.execPath, [CLI, 'check', join(dir, 'modeldef.txt'), '--json'], { encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    const json = JSON.parse(run.stdout) as { diagnostics: { line: number; code: string }[] };
    assert.deepEqual(
      json.diagnostics.map((d) => ({ line: d.line, code: d.code })),
      plantedProblems(),
    );
    const text = spawnSync(process.execPath, [CLI, 'check', join(dir, 'modeldef.txt')], { encoding: 'utf8' });
    assert.match(text.stdout, /modeldef\.txt:10:\d+: error: "models\/monster\/monstr\.iqm" is not in the mod folder/);
  });
});

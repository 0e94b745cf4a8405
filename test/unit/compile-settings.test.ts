// Where "IQE: Compile to IQM" writes, and which compiler options the settings give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { animationPathsFor, compileOptionsOf, outputPathFor, DEFAULT_OUTPUT_PATH, type CompileSettings } from '../../client/compile/settings';

test('output path: beside the source by default, variables, relative paths and folders', () => {
  assert.equal(outputPathFor('/w/models/tank.iqe', DEFAULT_OUTPUT_PATH, '/w'), '/w/models/tank.iqm');
  assert.equal(outputPathFor('/w/models/tank.iqe', '', '/w'), '/w/models/tank.iqm');
  assert.equal(outputPathFor('/w/models/tank.iqe', '${workspaceFolder}/build/${fileBasenameNoExtension}.iqm', '/w'), '/w/build/tank.iqm');
  assert.equal(outputPathFor('/w/models/tank.iqe', '../compiled/', '/w'), '/w/compiled/tank.iqm');
  assert.equal(outputPathFor('/w/models/a.b.iqe', '${fileBasenameNoExtension}.iqm', undefined), '/w/models/a.b.iqm');
  assert.equal(outputPathFor('/c:/m/x.iqe', '${fileDirname}/out/${fileBasenameNoExtension}.iqm', undefined), '/c:/m/out/x.iqm');
});

test('compile options: the reference defaults are left out; the rest map to the CLI options', () => {
  const defaults: CompileSettings = { outputPath: '', onSave: false, scale: 1, translate: [0, 0, 0], rotate: [0, 0, 0], fps: 0, loop: false, animationFiles: [] };
  assert.deepEqual(compileOptionsOf(defaults), {});
  assert.deepEqual(compileOptionsOf({ ...defaults, scale: 0.5, translate: [0, 0, 2], rotate: [0, 0, 90], fps: 24, loop: true }), {
    scale: 0.5,
    translate: [0, 0, 2],
    rotate: [[0, 0, 90]],
    fps: 24,
    loop: true,
  });
  assert.deepEqual(compileOptionsOf({ ...defaults, scale: -3 }), {}, 'a scale that is not positive is ignored, not mirrored');
});

test('compile settings: animation files resolve against the source folder, with the same variables', () => {
  assert.deepEqual(
    animationPathsFor('/w/models/tank.iqe', ['walk.iqe', '../anims/${fileBasenameNoExtension}_run.iqe', '${workspaceFolder}/shared/idle.iqe', ' '], '/w'),
    ['/w/models/walk.iqe', '/w/anims/tank_run.iqe', '/w/shared/idle.iqe'],
  );
});

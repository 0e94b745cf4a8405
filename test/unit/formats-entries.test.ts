// The format registry (core/formats) as every face uses it: each model and source of
// ../shared/assets opened through each entry (the CLI's loadModel, the compile worker's request as
// the preview's host and Convert make it, the webview's reader) gives the same model; and the
// registry's answers that used to differ between modules (names, menus, messages) are one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadModel } from '../../cli/info';
import { compileRequest } from '../../core/host/compileRun';
import { sourceOutcome, sourceRequest } from '../../core/host/sourceCompile';
import { diffModels } from '../../core/compare/diff';
import { gatherCompanions } from '../../core/formats/companions';
import { modelOfSource } from '../../core/formats/compiled';
import { readModel } from '../../core/formats/models';
import { openModel } from '../../core/formats/open';
import { detectFormat, extensionsOf, extensionWarning, FORMATS, type FormatId, formatOfExtension, outputName, unusableMessage } from '../../core/formats/registry';
import { loadModelBytes } from '../../media/load';
import { nodeFileAccess } from '../../node/files';
import { withTempDir } from '../helpers/temp-dir';

const ASSETS = resolve('..', 'shared', 'assets');
const NO_ASSETS = existsSync(ASSETS) ? false : `${ASSETS} is absent (the shared real-file assets)`;
const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

/** Every file under ../shared/assets whose extension the registry names as a model or a compile source. */
function registeredAssets(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (formatOfExtension(name) !== null || extensionsOf('model').some((e) => name.toLowerCase().endsWith(e))) out.push(path);
    }
  };
  walk(ASSETS);
  return out;
}

test('every model and source of ../shared/assets is the same model through the CLI, the compile worker (the preview host\'s and Convert\'s request) and the webview', { skip: NO_ASSETS, timeout: 600_000 }, async () => {
  const files = registeredAssets();
  assert.ok(files.length >= 40, `found ${files.length} files`);
  let sources = 0;
  let models = 0;
  for (const file of files) {
    const label = file.slice(ASSETS.length + 1);
    const cli = await loadModel(file);
    const opened = await openModel(file, nodeFileAccess);
    if (opened.kind === 'failed') {
      // One message for the file, whichever entry asks.
      assert.equal(cli.ok, false, label);
      assert.ok(!cli.ok && cli.message.includes(opened.message), `${label}: ${!cli.ok && cli.message} / ${opened.message}`);
      continue;
    }
    assert.ok(cli.ok, `${label}: ${!cli.ok && cli.message}`);
    if (opened.kind === 'model') {
      models++;
      // The webview reads the host's bytes with the same reader and the same extension warning.
      const webview = loadModelBytes(opened.bytes, label.slice(label.lastIndexOf('/') + 1));
      assert.deepEqual(diffModels(webview.model, cli.model), [], label);
      assert.deepEqual(diffModels(opened.model, cli.model), [], label);
      const warning = extensionWarning(label, opened.format);
      if (warning) assert.ok(cli.warnings.includes(warning) && webview.notes.includes(warning), label);
      continue;
    }
    sources++;
    // The compile worker's request, as the preview's host (and Convert) builds it from the same companions.
    const name = label.slice(label.lastIndexOf('/') + 1);
    const folder = file.slice(0, file.length - name.length - 1);
    const animations = opened.companions.animations.map((a) => ({ name: a.path.slice(folder.length + 1), bytes: a.bytes }));
    const reply = await compileRequest(sourceRequest(name, opened.format, opened.bytes, animations, opened.companions.resources, {}));
    const outcome = sourceOutcome(reply, name, opened.format, animations.map((a) => a.name));
    const inProcess = await modelOfSource(file, opened.bytes, opened.format, opened.companions);
    if ('error' in outcome) {
      assert.equal(inProcess.ok, false, `${label}: the worker says ${outcome.error}`);
      continue;
    }
    assert.ok(inProcess.ok, label);
    assert.deepEqual(outcome.bytes, inProcess.bytes, `${label}: the same IQM bytes in the worker and in the CLI`);
    assert.deepEqual(diffModels(readModel(outcome.bytes), cli.model).filter((d) => !/format|version/.test(d.message)), [], label);
    assert.deepEqual(cli.model.clips.map((c) => c.name), readModel(outcome.bytes).clips.map((c) => c.name), `${label}: clips`);
  }
  assert.ok(models >= 15 && sources >= 15, `${models} models, ${sources} sources`);
});

test('detectFormat: each format by its content; the extension only where the content says nothing', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const cases: [Uint8Array, string, FormatId][] = [
    [text('INTERQUAKEMODEL\0\x02'), 'x.md3', 'iqm'],
    [text('IDP3\x0f\0\0\0'), 'x.iqm', 'md3'],
    [text('# Inter-Quake Export\n'), 'x.obj', 'iqe'],
    [text('MD5Version 10\nnumFrames 3\n'), 'x.md5mesh', 'md5anim'],
    [text('MD5Version 10\nnumMeshes 1\n'), 'x.txt', 'md5mesh'],
    [text('// comment\nversion 1\nnodes\n'), 'x.txt', 'smd'],
    [text('# Blender\nv 0 0 0\n'), 'x.txt', 'obj'],
    [text('{"asset": {"version": "2.0"}}'), 'x.json', 'gltf'],
    [text('glTF\x02\0\0\0'), 'x.bin', 'glb'],
    [text('Kaydara FBX Binary  \0'), 'x.fbx', 'fbx-binary'],
    [text('; FBX 7.4.0 project file\n'), 'x.txt', 'fbx'],
    [text('version https://git-lfs.github.com/spec/v1\n'), 'x.iqm', 'lfs'],
    [new Uint8Array([35, 32, 73, 0, 1, 2]), 'x.obj', 'binary'],
    [new Uint8Array(0), 'x.iqm', 'empty'],
    [text('\n\n'), 'x.obj', 'obj'],
    [text('\n\n'), 'x.md5anim', 'md5anim'],
    [text('hello\n'), 'x.dat', 'text'],
  ];
  for (const [bytes, name, format] of cases) assert.equal(detectFormat(bytes, name), format, `${name}: ${new TextDecoder().decode(bytes).slice(0, 20)}`);
});

test('registry: one output name rule, one message per unusable format, extensions listed once', () => {
  // compile and compile --each name outputs alike (they differed: a.obj.iqm beside a.iqm).
  assert.equal(outputName('a.obj', '.iqm'), 'a.iqm');
  assert.equal(outputName('dir/b.SMD', '.iqm'), 'dir/b.iqm');
  assert.equal(outputName('c.md5anim', '.iqm'), 'c.iqm');
  assert.equal(outputName('d.txt', '.iqm'), 'd.txt.iqm');
  assert.equal(outputName('e.iqm', '.iqe'), 'e.iqe');
  assert.match(unusableMessage('iqm', 'compile') ?? '', /^an IQM model, not IQE text.*iqm-tools info reads it/);
  assert.equal(unusableMessage('iqm', 'model'), null);
  assert.equal(unusableMessage('obj', 'compile'), null);
  assert.equal(unusableMessage('text', 'compile'), null, 'text in no format is compiled as IQE (its diagnostics say why)');
  assert.match(unusableMessage('text', 'model') ?? '', /not a recognised model format/);
  assert.match(unusableMessage('lfs', 'model') ?? '', /git lfs pull/);
  assert.match(unusableMessage('fbx-binary', 'compile') ?? '', /binary FBX is not read/);
  assert.equal(unusableMessage('empty', 'model'), 'empty file');
  for (const f of Object.values(FORMATS)) if (f.role === 'unsupported' && f.id !== 'text') assert.ok(unusableMessage(f.id, 'model'), f.id);
  assert.deepEqual(extensionsOf('source'), ['.iqe', '.md5mesh', '.md5anim', '.smd', '.obj', '.gltf', '.glb']);
  assert.match(extensionWarning('x.iqm', 'md3') ?? '', /named \.iqm but its content is MD3/);
});

test('package.json: the compile, convert and glTF export menus offer exactly the registry\'s sources (and models), .md5anim included', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
  const listed = (command: string): string[][] =>
    Object.values(pkg.contributes.menus)
      .flat()
      .filter((m) => m.command === command && m.when?.includes('resourceExtname =~'))
      .map((m) => /resourceExtname =~ \/\^\\\.\(([^)]*)\)\$\/i/.exec(m.when ?? '')![1].split('|').map((e) => `.${e}`).sort());
  const sources = extensionsOf('source').sort();
  const compile = listed('iqmTools.compile');
  assert.ok(compile.length >= 3);
  for (const l of compile) assert.deepEqual(l, sources);
  for (const command of ['iqmTools.convertToIqe', 'iqmTools.exportGltf']) {
    const convert = listed(command);
    assert.equal(convert.length, 1, `${command}: one explorer menu entry`);
    for (const l of convert) assert.deepEqual(l, [...extensionsOf('model'), ...extensionsOf('source')].sort(), command);
  }
});

test('companions: an OBJ names its .mtl, a glTF its buffers, an .md5mesh its animations, through any file access', { skip: NO_ASSETS }, async () => {
  const obj = join(ASSETS, 'obj');
  const withMtl = readdirSync(obj, { recursive: true }).map(String).find((f) => f.endsWith('.obj') && /^mtllib/m.test(readFileSync(join(obj, f), 'utf8')));
  if (withMtl) {
    const path = join(obj, withMtl);
    const found = await gatherCompanions(path, readFileSync(path), 'obj', nodeFileAccess);
    assert.ok(found.lookedFor.some((p) => p.endsWith('.mtl')), withMtl);
  }
  const bob = join(ASSETS, 'md5', 'bob', 'Bob.md5mesh');
  const md5 = await gatherCompanions(bob, readFileSync(bob), 'md5mesh', nodeFileAccess);
  assert.deepEqual(md5.animations.map((a) => a.path.slice(a.path.lastIndexOf('/') + 1)), ['Bob.md5anim']);
  const none = await gatherCompanions(bob, readFileSync(bob), 'md5mesh', nodeFileAccess, { animations: false });
  assert.deepEqual(none.animations, []);
});

test('CLI: compile --each names outputs as compile does (a.obj -> a.iqm, b.SMD -> b.iqm), and a binary model is one line, exit 2', { skip: NO_CLI }, () => {
  withTempDir('iqm-each-', (dir) => {
    writeFileSync(join(dir, 'a.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    writeFileSync(join(dir, 'b.SMD'), 'version 1\nnodes\n0 "root" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\nm\n0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 0 1 0 0 0 1 0 1 1 0 1\nend\n');
    const run = spawnSync(process.execPath, [CLI, 'compile', '--each', join(dir, 'a.obj'), join(dir, 'b.SMD')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.ok(existsSync(join(dir, 'a.iqm')) && existsSync(join(dir, 'b.iqm')), readdirSync(dir).join(', '));
    assert.ok(!existsSync(join(dir, 'a.obj.iqm')));
    writeFileSync(join(dir, 'm.iqe'), Buffer.from('INTERQUAKEMODEL\0\x02\0\0\0', 'latin1'));
    const bad = spawnSync(process.execPath, [CLI, 'compile', join(dir, 'm.iqe')], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^.*m\.iqe: an IQM model, not IQE text.*\n$/);
  });
});

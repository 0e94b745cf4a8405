// The sidecar files (.framegroups, animation.cfg, .skin, .shader) through the real language server:
// the Node process reading the model beside the file from disk (and noticing when it changes), and
// the browser build asking the client for the model's bytes (iqmTools/readFile, base64).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { CodeLens, Hover } from 'vscode-languageserver-protocol';
import { PLAY_CLIP_COMMAND, type PlayClipArgs, type ReadFileParams, type ReadFileResult } from '../../core/lspMethods';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { iqm } from '../helpers/engine-models';
import { withTempDir } from '../helpers/temp-dir';
import { codes, TestServer } from './helpers/server';
import { listFolderFromDisk, readFileFromDisk } from './helpers/diskClient';

const uriOf = (path: string) => pathToFileURL(path).href;

describe('lsp: sidecar files on the Node server', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('real grunt.dpm.framegroups: no problems, a hover with frames and duration, a ▶ Play lens per clip', { skip: NO_ASSETS }, async () => {
    const path = join(ASSETS, 'dpm/nexuiz/grunt.dpm.framegroups');
    const uri = uriOf(path);
    await server.open(uri, readFileSync(path, 'latin1'), 1, 'iqm-framegroups');
    const published = await server.waitForVersion(uri, 1);
    assert.deepEqual(published.diagnostics, []);
    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 1 } });
    assert.match(JSON.stringify(hover?.contents), /grunt_anim3\*\*: frames 33–41 \(9 frames\).*10 fps: 0\.9 s, loops/);
    const lenses = await server.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.equal(lenses.length, 25);
    assert.equal(lenses[3].command?.title, '▶ Play');
    assert.equal(lenses[3].command?.command, PLAY_CLIP_COMMAND);
    const args = lenses[3].command?.arguments?.[0] as PlayClipArgs;
    assert.equal(fileURLToPath(args.model), join(ASSETS, 'dpm/nexuiz/grunt.dpm'));
    assert.deepEqual([args.clip, args.index, args.sidecar], ['grunt_anim4', 3, uri]);
    assert.equal(lenses[3].range.start.line, 3);
    await server.close(uri);
  });

  it('real animation.cfg and skins: the overlap in oa_soldier, the textures outside a game folder', { skip: NO_ASSETS }, async () => {
    const cfg = join(ASSETS, 'md3/oa_soldier/animation.cfg');
    await server.open(uriOf(cfg), readFileSync(cfg, 'latin1'), 1, 'q3-animation-cfg');
    const published = await server.waitForVersion(uriOf(cfg), 1);
    assert.deepEqual(codes(published.diagnostics), ['frame-range-overlap']);
    assert.equal(published.diagnostics[0].range.start.line, 39);
    assert.equal(published.diagnostics[0].source, 'iqm-tools');
    const lenses = await server.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: uriOf(cfg) } });
    const models = lenses.map((l) => (l.command?.arguments?.[0] as PlayClipArgs).model.replace(/.*\//, ''));
    // BOTH_* and LEGS_* play on lower.md3, TORSO_* on upper.md3.
    assert.deepEqual(models, [...Array(6).fill('lower.md3'), ...Array(7).fill('upper.md3'), ...Array(12).fill('lower.md3')]);
    const skin = join(ASSETS, 'dpm/nexuiz/grunt.dpm_0.skin');
    await server.open(uriOf(skin), readFileSync(skin, 'latin1'), 1, 'q3-skin');
    assert.deepEqual(codes((await server.waitForVersion(uriOf(skin), 1)).diagnostics), ['texture-not-found']);
    const shader = join(ASSETS, 'md3/kubalwagon/kt_kubalwagon.shader');
    await server.open(uriOf(shader), readFileSync(shader, 'latin1'), 1, 'q3-shader');
    assert.deepEqual(codes((await server.waitForVersion(uriOf(shader), 1)).diagnostics), ['texture-outside-game-path']);
    for (const p of [cfg, skin, shader]) await server.close(uriOf(p));
  });

  it('code lenses of 20,000 clips: one each, the first frame given where a name repeats', async () => {
    await withTempDir('iqm-lsp-sidecar-', async (dir) => {
      writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [30] }));
      const uri = uriOf(join(dir, 'm.iqm.framegroups'));
      // c0..c19997 once each, then "again" twice (frames 3 and 4).
      const text = Array.from({ length: 19_998 }, (_, i) => `${i % 30} 1 10 1 c${i}\n`).join('') + '3 1 10 1 again\n4 1 10 1 again\n';
      await server.open(uri, text, 1, 'iqm-framegroups');
      await server.waitForVersion(uri, 1);
      const lenses = await server.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      assert.equal(lenses.length, 20_000);
      const args = lenses.map((l) => l.command?.arguments?.[0] as PlayClipArgs);
      assert.deepEqual(args.filter((a) => a.firstFrame !== undefined).map((a) => [a.clip, a.index, a.firstFrame]), [['again', 19_998, 3], ['again', 19_999, 4]]);
      await server.close(uri);
    });
  });

  it('follows edits (unsaved text) and the model changing on disk, without a client file event', async () => {
    await withTempDir('iqm-lsp-sidecar-', async (dir) => {
      const model = join(dir, 'm.iqm');
      writeFileSync(model, iqm({ anims: [30] }));
      const uri = uriOf(join(dir, 'm.iqm.framegroups'));
      await server.open(uri, '0 10 10 1 idle\n', 1, 'iqm-framegroups');
      assert.deepEqual(codes((await server.waitForVersion(uri, 1)).diagnostics), []);
      await server.change(uri, 2, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '25 10 10 1 run\n' }]);
      const changed = await server.waitForVersion(uri, 2);
      assert.deepEqual(codes(changed.diagnostics), ['frame-range']);
      assert.deepEqual(changed.diagnostics[0].range, { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } });
      assert.match(changed.diagnostics[0].message, /Frames 25–34 of m\.iqm, which has 30 frames/);
      // The model is exported again with more frames: the Node server's watch notices.
      const since = server.mark();
      const before = statSync(model).mtimeMs;
      writeFileSync(model, iqm({ anims: [40] }));
      assert.ok(statSync(model).size > 0 && statSync(model).mtimeMs >= before);
      const fixed = await server.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0, { since });
      assert.equal(fixed.version, 2);
      // A broken export: the reader's error instead (here announced by a client file event too).
      const since2 = server.mark();
      writeFileSync(model, 'not a model at all');
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(model), type: 2 }] });
      const broken = await server.waitForDiagnostics(uri, (p) => codes(p.diagnostics).includes('model-unreadable'), { since: since2 });
      assert.match(broken.diagnostics[0].message, /m\.iqm cannot be read/);
      await server.close(uri);
    });
  });

});

describe('lsp: sidecar files on the browser build of the server', () => {
  let server: TestServer;
  const asked: ReadFileParams[] = [];
  /** The client's side of iqmTools/readFile, from disk: text, base64 bytes, or (maxBytes 0) the stamp only. */
  async function serve(params: ReadFileParams): Promise<ReadFileResult> {
    asked.push(params);
    return readFileFromDisk(params);
  }
  /** The folders the server asked the client to list (iqmTools/listFolder, answered from disk). */
  const listed: string[] = [];
  const listFolder = async (uri: string): Promise<string[] | null> => {
    listed.push(uri);
    return listFolderFromDisk(uri);
  };
  before(async () => {
    server = await TestServer.start({ web: true, files: serve, listFolder });
  });
  after(async () => {
    await server?.stop();
  });

  it('reads the models as base64 through the client and checks the ranges', async () => {
    await withTempDir('iqm-web-sidecar-', async (dir) => {
      writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [12] }));
      const uri = uriOf(join(dir, 'm.iqm.framegroups'));
      await server.open(uri, '0 12\n10 5 0\n', 1, 'iqm-framegroups');
      const published = await server.waitForVersion(uri, 1);
      assert.deepEqual(codes(published.diagnostics), ['frame-range', 'frame-range-overlap', 'fps-invalid']);
      const read = asked.find((p) => p.uri === uriOf(join(dir, 'm.iqm')) && p.encoding === 'base64');
      assert.ok(read, 'the server did not ask for the model\'s bytes');
      // The client's file watcher reports the new export.
      writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [20] }));
      const since = server.mark();
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(join(dir, 'm.iqm')), type: 2 }] });
      const again = await server.waitForDiagnostics(uri, () => true, { since });
      assert.deepEqual(codes(again.diagnostics), ['frame-range-overlap', 'fps-invalid']);
      await server.close(uri);
    });
  });

  it('a skin naming a shader of a script beside the model (where the engine loads scripts) is fine; the scripts are read again after a .shader event', async () => {
    await withTempDir('iqm-web-skin-', async (dir) => {
      writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [1] })); // one mesh, "body"
      const uri = uriOf(join(dir, 'm.iqm_0.skin'));
      await server.open(uri, 'body,textures/glass\n', 1, 'q3-skin');
      const before = await server.waitForVersion(uri, 1);
      assert.deepEqual(codes(before.diagnostics), ['texture-not-found']);
      assert.match(before.diagnostics[0].message, /No shader of that name either \(0 shader scripts read\)/);
      const script = join(dir, 'glass.shader');
      writeFileSync(script, 'textures/glass\n{\n  { map $lightmap }\n}\n');
      const since = server.mark();
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(script), type: 1 }] });
      const after = await server.waitForDiagnostics(uri, () => true, { since });
      assert.deepEqual(codes(after.diagnostics), []);
      const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 8 } });
      assert.match(JSON.stringify(hover?.contents), /A shader defined in .*glass\.shader/);
      await server.close(uri);
    });
  });

  it('a skin\'s images looked up through the client a folder at a time, each folder listed once', async () => {
    await withTempDir('iqm-web-skin-', async (dir) => {
      writeFileSync(join(dir, 'm.iqm'), iqm({ anims: [1] })); // one mesh, "body"
      mkdirSync(join(dir, 'textures'));
      writeFileSync(join(dir, 'textures', 'paint.jpg'), 'found, not decoded');
      const uri = uriOf(join(dir, 'm.iqm_0.skin'));
      listed.length = 0;
      asked.length = 0;
      await server.open(uri, 'body,textures/paint.tga\nbody,textures/rust.tga\nbody,textures/paint\n', 1, 'q3-skin');
      const published = await server.waitForVersion(uri, 1);
      assert.deepEqual(codes(published.diagnostics), ['texture-not-found']);
      assert.equal(published.diagnostics[0].range.start.line, 1);
      const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 8 } });
      assert.match(JSON.stringify(hover?.contents), /Found: .*textures\/paint\.jpg/);
      assert.equal(new Set(listed).size, listed.length, 'a folder listed twice in one check');
      assert.ok(listed.includes(uriOf(join(dir, 'textures'))));
      // By path: the model, and the one image some folder lists (not the 30 names of each texture).
      const byPath = asked.filter((p) => p.maxBytes === 0).map((p) => p.uri);
      assert.deepEqual([...new Set(byPath)], [uriOf(join(dir, 'm.iqm')), uriOf(join(dir, 'textures', 'paint.jpg'))]);
      await server.close(uri);
    });
  });
});

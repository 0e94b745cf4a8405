// "Export to glTF" (iqmTools.exportGltf) in both hosts (only workspace.fs): preview.iqm (features.iqe
// compiled by scripts/make-vscode-fixtures.mjs: 3 joints, meshes "body" with material skin.tga and
// "head" with head.tga, one clip "wave") copied into a scratch folder with a skin.tga written by the
// test, exported as preview.glb beside it; the .glb read back: its image is the TGA made PNG (the
// host's deflate: node:zlib, or CompressionStream in the web worker), and our glTF reader compiles
// it to the model's joints, clip and vertices. Then: asking before replacing (overwrite given),
// bad input (an error, nothing written).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { compile } from '../../core/compile/index';
import { readModel } from '../../core/formats/models';
import { readContainer } from '../../core/gltf/container';
import { gltfSource } from '../../core/gltf/source';
import { decodePng } from './pixels';
import { activeExtension, fixtureUri, scratchFolder, TEST_HOST } from './helpers';

const COMMAND = 'iqmTools.exportGltf';

interface ConvertOutcome {
  output?: vscode.Uri;
  warnings: string[];
  error?: string;
}

/** A 3 x 2 uncompressed 32-bit TGA, top row first, each pixel a different colour and alpha (BGRA in the file). */
function skinTga(): { tga: Uint8Array; rgba: number[] } {
  const rgba = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 128, 200, 100, 50, 64, 1, 2, 3, 255];
  const tga = new Uint8Array(18 + rgba.length);
  tga[2] = 2; // uncompressed true colour
  tga[12] = 3; // width
  tga[14] = 2; // height
  tga[16] = 32; // bits per pixel
  tga[17] = 0x28; // top-left origin, 8 alpha bits
  for (let p = 0; p < rgba.length / 4; p++) {
    const [r, g, b, a] = rgba.slice(p * 4, p * 4 + 4);
    tga.set([b, g, r, a], 18 + p * 4);
  }
  return { tga, rgba };
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return Promise.resolve(vscode.workspace.fs.stat(uri)).then(
    () => true,
    () => false,
  );
}

suite('export to glTF command', () => {
  let scratch: { uri: vscode.Uri; remove: () => Promise<void> };

  suiteSetup(async () => {
    await activeExtension();
    scratch = await scratchFolder('gltf');
  });

  suiteTeardown(async () => {
    await scratch.remove();
  });

  test(`a textured, skinned, animated IQM: NAME.glb beside it with its image (PNG), joints and clip (${TEST_HOST} host)`, async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes(COMMAND), `the extension registers ${COMMAND}`);
    const iqmBytes = await vscode.workspace.fs.readFile(fixtureUri('preview.iqm'));
    const source = vscode.Uri.joinPath(scratch.uri, 'preview.iqm');
    await vscode.workspace.fs.writeFile(source, iqmBytes);
    const { tga, rgba } = skinTga();
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(scratch.uri, 'skin.tga'), tga);
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(outcome?.output, outcome?.error ?? 'no output');
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.output.toString(), vscode.Uri.joinPath(scratch.uri, 'preview.glb').toString());
    // head.tga is not there: said, not failed.
    assert.ok(outcome.warnings.some((w) => /head\.tga/.test(w)), outcome.warnings.join('; '));
    const glb = await vscode.workspace.fs.readFile(outcome.output);

    // The container: one image, PNG, in the binary chunk, decoding to the TGA's pixels.
    const { json, bin } = readContainer(glb);
    assert.ok(bin, 'a GLB binary chunk');
    assert.equal(json.images?.length, 1, JSON.stringify(json.images));
    const image = json.images[0];
    assert.equal(image.mimeType, 'image/png');
    const view = json.bufferViews[image.bufferView];
    const png = await decodePng(bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength));
    assert.deepEqual([png.width, png.height, png.channels], [3, 2, 4]);
    assert.deepEqual([...png.pixels], rgba);
    // The material of "body" (skin.tga) draws it; "head" has no image.
    const textured = (json.materials as { pbrMetallicRoughness?: { baseColorTexture?: unknown } }[]).filter((m) => m.pbrMetallicRoughness?.baseColorTexture);
    assert.equal(textured.length, 1);

    // Our glTF reader and compile: the same joints, clip and vertex and triangle counts.
    const compiled = compile([await gltfSource(glb, 'preview.glb')]);
    const errors = compiled.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error');
    assert.deepEqual(errors.map((d) => d.message), []);
    assert.ok(compiled.bytes);
    const back = readModel(compiled.bytes);
    const original = readModel(iqmBytes);
    assert.deepEqual(back.skeleton?.names, ['root', 'arm', 'hand']);
    assert.deepEqual(back.skeleton?.names, original.skeleton?.names);
    assert.deepEqual(back.clips.map((c) => [c.name, c.frameCount]), original.clips.map((c) => [c.name, c.frameCount]));
    assert.deepEqual(back.clips.map((c) => c.name), ['wave']);
    assert.equal(back.meshes.reduce((n, m) => n + m.vertexCount, 0), original.meshes.reduce((n, m) => n + m.vertexCount, 0));
    assert.equal(back.meshes.reduce((n, m) => n + m.triangleCount, 0), original.meshes.reduce((n, m) => n + m.triangleCount, 0));
  });

  test('an existing .glb is replaced when allowed; bad input is an error with its byte offset, and nothing is written', async () => {
    const source = vscode.Uri.joinPath(scratch.uri, 'preview.iqm');
    const output = vscode.Uri.joinPath(scratch.uri, 'preview.glb');
    await vscode.workspace.fs.writeFile(output, new TextEncoder().encode('stale'));
    const again = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source, { overwrite: true });
    assert.ok(again?.output, again?.error ?? 'no output');
    const replaced = await vscode.workspace.fs.readFile(output);
    assert.equal(new TextDecoder().decode(replaced.subarray(0, 4)), 'glTF');

    const bad = vscode.Uri.joinPath(scratch.uri, 'truncated.iqm');
    await vscode.workspace.fs.writeFile(bad, (await vscode.workspace.fs.readFile(fixtureUri('preview.iqm'))).subarray(0, 60));
    const failed = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, bad);
    assert.ok(failed?.error, 'an error is reported');
    assert.match(failed.error, /truncated\.iqm: .*\(at byte \d+\)/);
    assert.equal(await exists(vscode.Uri.joinPath(scratch.uri, 'truncated.glb')), false);
  });

  test('an MD3: frames as morph targets, tags as nodes', async () => {
    const source = vscode.Uri.joinPath(scratch.uri, 'pyramid.md3');
    await vscode.workspace.fs.writeFile(source, await vscode.workspace.fs.readFile(fixtureUri('preview.md3')));
    const md3 = readModel(await vscode.workspace.fs.readFile(source));
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(outcome?.output, outcome?.error ?? 'no output');
    const { json } = readContainer(await vscode.workspace.fs.readFile(outcome.output));
    const targets = (json.meshes as { primitives: { targets?: unknown[] }[] }[]).map((m) => m.primitives[0].targets?.length ?? 0);
    // Frame 0 is the mesh itself; every later frame a target.
    assert.ok(md3.frameCount > 1);
    assert.deepEqual(targets, md3.meshes.map(() => md3.frameCount - 1));
    const names = (json.nodes as { name?: string }[]).map((n) => n.name);
    for (const tag of md3.tags?.names ?? []) assert.ok(names.includes(tag), `tag ${tag} as a node among ${names.join(', ')}`);
  });
});

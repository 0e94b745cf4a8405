// glTF materials that are a colour without a texture (issue 31; Blender's exports often are): the
// compile writes the colour as the vertex colours of their meshes (IQM has no material colour),
// in sRGB as a viewer shows glTF's linear factor, times COLOR_0 where there is one, with a note;
// `--no-material-colors` / iqmTools.compile.materialColors: false leaves them out. The preview's
// host answers such a mesh with the colour instead of "not found" (the checker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile, type CompileResult } from '../../core/compile/index';
import { gltfSource } from '../../core/gltf/source';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';
import { compileOptionsOf, type CompileSettings } from '../../client/compile/settings';
import { materialColorSource } from '../../core/host/sourceCompile';
import { compileRequest } from '../../core/host/compileRun';
import { GltfBuilder } from '../helpers/gltf-build';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

/** sRGB of a linear value, as bytes: 0.8 -> 231, 0.1 -> 89, 0.5 -> 188. */
const SRGB: Record<number, number> = { 0.8: 231, 0.1: 89, 0.5: 188, 1: 255, 0: 0 };

/**
 * Three quads side by side: 'red' (material 'Red', linear 0.8, 0.1, 0.1), 'plain' (a white
 * material), 'tinted' (material 'Grey', linear 0.5, with COLOR_0 of pure green and blue halves).
 */
function coloured(): GltfBuilder {
  const b = new GltfBuilder();
  const quad = (x: number, extra: Record<string, number> = {}, material?: number): number => {
    const position = b.accessor([x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0], 'VEC3');
    const index = b.accessor([0, 1, 2, 0, 2, 3], 'SCALAR', 5123);
    return b.mesh({ POSITION: position, ...extra }, index, material === undefined ? {} : { material });
  };
  b.json.materials = [
    { name: 'Red', pbrMetallicRoughness: { baseColorFactor: [0.8, 0.1, 0.1, 1] } },
    { name: 'White', pbrMetallicRoughness: {} },
    { name: 'Grey', pbrMetallicRoughness: { baseColorFactor: [0.5, 0.5, 0.5, 1] } },
  ];
  b.node({ name: 'red', mesh: quad(0, {}, 0) });
  b.node({ name: 'plain', mesh: quad(2, {}, 1) });
  const green = b.accessor([0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1], 'VEC3');
  b.node({ name: 'tinted', mesh: quad(4, { COLOR_0: green }, 2) });
  return b;
}

async function compileColoured(materialColors?: boolean): Promise<{ result: CompileResult; model: Model; source: Awaited<ReturnType<typeof gltfSource>> }> {
  const source = await gltfSource(coloured().glb(), 'coloured.glb', () => null, materialColors === undefined ? {} : { materialColors });
  const result = compile([source]);
  assert.ok(result.bytes, JSON.stringify(result.diagnostics));
  return { result, model: readModel(result.bytes), source };
}

/** Each mesh's vertex colours as bytes (RGBA), first vertex. */
function firstColour(model: Model, mesh: string): number[] {
  const m = model.meshes.find((x) => x.name === mesh)!;
  assert.ok(m.color, `mesh ${mesh} has no vertex colours`);
  return [...m.color.subarray(0, 4)].map((x) => Math.round(x * 255));
}

test('a material colour without a texture becomes its meshes\' vertex colours (sRGB, times COLOR_0), with a note naming the materials', async () => {
  const { result, model, source } = await compileColoured();
  assert.deepEqual(firstColour(model, 'red'), [SRGB[0.8], SRGB[0.1], SRGB[0.1], 255]);
  // A white material adds nothing: white.
  assert.deepEqual(firstColour(model, 'plain'), [255, 255, 255, 255]);
  // glTF's base colour is the factor times COLOR_0: green and blue halves at sRGB 0.5.
  const tinted = model.meshes.find((x) => x.name === 'tinted')!;
  const colours = new Set<string>();
  for (let v = 0; v < tinted.vertexCount; v++) colours.add([...tinted.color!.subarray(4 * v, 4 * v + 4)].map((x) => Math.round(x * 255)).join());
  assert.deepEqual([...colours].sort(), [`0,0,${SRGB[0.5]},255`, `0,${SRGB[0.5]},0,255`]);
  const notes = result.diagnostics.filter((d) => d.diagnostic.code === 'gltf-material-colors');
  assert.equal(notes.length, 1, JSON.stringify(result.diagnostics));
  assert.equal(notes[0].diagnostic.severity, 'information');
  assert.equal(notes[0].diagnostic.message, "materials 'Red', 'Grey' have a colour and no texture: it is written as their meshes' vertex colours (IQM has no material colour; --no-material-colors leaves it out)");
  // What the preview's host is told: each material's colour (sRGB) and whether it is in the vertex colours.
  assert.deepEqual(
    source.materials.map((m) => [m.name, m.rgba.map((x) => Math.round(x * 255)), m.baked]),
    [['Red', [SRGB[0.8], SRGB[0.1], SRGB[0.1], 255], true], ['White', [255, 255, 255, 255], false], ['Grey', [SRGB[0.5], SRGB[0.5], SRGB[0.5], 255], true]],
  );
});

test('materialColors: false leaves material colours out (COLOR_0 stays as it is); a textured material keeps its image, not its factor', async () => {
  const { result, model, source } = await compileColoured(false);
  // White: the colour array is there for COLOR_0 of 'tinted'.
  assert.deepEqual(firstColour(model, 'red'), [255, 255, 255, 255]);
  assert.deepEqual(firstColour(model, 'tinted'), [0, 255, 0, 255]);
  assert.ok(!result.diagnostics.some((d) => d.diagnostic.code === 'gltf-material-colors'));
  assert.deepEqual(source.materials.map((m) => m.baked), [false, false, false]);

  // A base colour texture: its image is the colour (the factor a tint engines do not draw).
  const b = coloured();
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  b.json.images = [{ name: 'bricks', uri: `data:image/png;base64,${png.toString('base64')}` }];
  b.json.textures = [{ source: 0 }];
  b.json.materials[0].pbrMetallicRoughness.baseColorTexture = { index: 0 };
  const textured = await gltfSource(b.glb(), 'textured.glb', () => null);
  const compiled = compile([textured]);
  assert.ok(compiled.bytes, JSON.stringify(compiled.diagnostics));
  const red = readModel(compiled.bytes).meshes.find((x) => x.name === 'red')!;
  assert.equal(red.material, 'bricks');
  assert.deepEqual([...red.color!.subarray(0, 4)], [1, 1, 1, 1]);
  assert.deepEqual(textured.materials.map((m) => m.name), ['White', 'Grey']);
});

test('the compile setting iqmTools.compile.materialColors reaches the glTF reader through the compile worker\'s request', async () => {
  const defaults: CompileSettings = { outputPath: '', onSave: false, scale: 1, translate: [0, 0, 0], rotate: [0, 0, 0], fps: 0, loop: false, animationFiles: [] };
  assert.deepEqual(compileOptionsOf({ ...defaults, materialColors: true }), {});
  assert.deepEqual(compileOptionsOf({ ...defaults, materialColors: false }), { materialColors: false });
  for (const materialColors of [true, false]) {
    const reply = await compileRequest({ source: { bytes: coloured().glb(), name: 'coloured.glb' }, options: compileOptionsOf({ ...defaults, materialColors }) });
    assert.ok(reply.ok && reply.bytes, JSON.stringify(reply));
    assert.deepEqual(firstColour(readModel(reply.bytes), 'red'), materialColors ? [SRGB[0.8], SRGB[0.1], SRGB[0.1], 255] : [255, 255, 255, 255]);
    assert.deepEqual(reply.materials?.map((m) => m.baked), [materialColors, false, materialColors]);
  }
});

test('the preview\'s answer for a mesh whose material is a colour: the colour, white where the vertex colours carry it; nothing for other names', () => {
  const red = { name: 'Red', rgba: [231 / 255, 89 / 255, 89 / 255, 1] as [number, number, number, number], baked: false };
  const drawn = materialColorSource(['textures/x/red.tga', 'red'], [red], 'coloured.glb');
  assert.deepEqual(drawn, { source: { kind: 'color', rgba: red.rgba, label: "none, the material's colour #e75959" }, via: "material 'Red' of coloured.glb" });
  const baked = materialColorSource(['Red'], [{ ...red, baked: true }], 'coloured.glb');
  assert.deepEqual(baked?.source, { kind: 'color', rgba: [1, 1, 1, 1], label: "none, the material's colour #e75959, in the vertex colours" });
  assert.equal(materialColorSource(['Blue', 'default'], [red], 'coloured.glb'), null);
});

test('CLI: compile --no-material-colors leaves the colour out; without it the note is printed', { skip: NO_CLI }, () => {
  withTempDir('iqm-material-colors-', (dir) => {
    const path = join(dir, 'coloured.gltf');
    writeFileSync(path, coloured().gltf());
    const on = spawnSync(process.execPath, [CLI, 'compile', path], { encoding: 'utf8' });
    assert.equal(on.status, 0, on.stderr + on.stdout);
    assert.match(on.stderr + on.stdout, /materials 'Red', 'Grey' have a colour and no texture: .* \[gltf-material-colors\]/);
    assert.deepEqual(firstColour(readModel(readFileSync(join(dir, 'coloured.iqm'))), 'red'), [SRGB[0.8], SRGB[0.1], SRGB[0.1], 255]);
    const off = spawnSync(process.execPath, [CLI, 'compile', path, '--no-material-colors'], { encoding: 'utf8' });
    assert.equal(off.status, 0, off.stderr + off.stdout);
    assert.doesNotMatch(off.stderr + off.stdout, /gltf-material-colors/);
    assert.deepEqual(firstColour(readModel(readFileSync(join(dir, 'coloured.iqm'))), 'red'), [255, 255, 255, 255]);
  });
});

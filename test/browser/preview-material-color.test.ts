// A glTF material that is a colour without a texture (issue 31) in the preview, in Chromium: the
// host answers its mesh with the colour (core/host/sourceCompile.ts materialColorSource), and
// the mesh is drawn in it, lit, instead of the grey checker of a texture not found; where the
// compile wrote the colour into the vertex colours, the host's white texel lets them show once.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../core/compile/index';
import { gltfSource } from '../../core/gltf/source';
import { GltfBuilder } from '../helpers/gltf-build';
import { loadGenerated, openSession, type PageGlobals, pixelStats, screenshotPath, setToggles, settle, skipReason, still, type Session } from './harness';

const skip = skipReason();
let s: Session;

before(async () => {
  if (skip) return;
  s = await openSession();
});
after(async () => {
  if (s) await s.close();
});

/** One quad of material 'Red' (linear 0.8, 0.1, 0.1: sRGB #e75959) compiled as the preview's worker compiles it. */
async function redQuad(materialColors: boolean): Promise<{ bytes: Uint8Array; rgba: [number, number, number, number] }> {
  const b = new GltfBuilder();
  const position = b.accessor([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0], 'VEC3');
  const index = b.accessor([0, 1, 2, 0, 2, 3], 'SCALAR', 5123);
  b.json.materials = [{ name: 'Red', pbrMetallicRoughness: { baseColorFactor: [0.8, 0.1, 0.1, 1] } }];
  b.node({ name: 'quad', mesh: b.mesh({ POSITION: position }, index, { material: 0 }) });
  const source = await gltfSource(b.glb(), 'red.glb', () => null, { materialColors });
  const result = compile([source]);
  assert.ok(result.bytes, JSON.stringify(result.diagnostics));
  return { bytes: result.bytes, rgba: source.materials[0].rgba };
}

/** Answers the open model's texture request as the host does for a material colour (white texel where baked). */
async function answerColour(rgba: number[]): Promise<void> {
  await s.page.waitForTimeout(300);
  await s.page.evaluate((rgba) => {
    const g = globalThis as unknown as PageGlobals & { iqmPreview: { generation: number } };
    const results = [{ key: '0', via: "material 'Red' of red.glb", tried: [], twoSided: false, alphaTest: null, source: { kind: 'color', rgba, label: "none, the material's colour #e75959" } }];
    g.postMessage({ type: 'textures', generation: g.iqmPreview.generation, results }, '*');
  }, rgba);
  await s.page.waitForTimeout(300);
  await settle(s.page);
}

test('a material colour without a texture is drawn in its colour, not as the checker', { skip }, async () => {
  const plain = await redQuad(false);
  assert.equal(await loadGenerated(s, 'red.iqm', plain.bytes), 'ready');
  await still(s.page);
  await setToggles(s.page, { cull: false, grid: false });
  const checker = await pixelStats(s.page);
  await answerColour(plain.rgba);
  const drawn = await pixelStats(s.page);
  await s.page.screenshot({ path: screenshotPath('material-colour') });
  assert.ok(drawn.covered > 0.02, `the quad covers ${drawn.covered}`);
  const [r, g, b] = drawn.mean;
  // Lit red: red well above green and blue, which stay together; the checker is grey.
  assert.ok(r > g + 60 && r > b + 60 && Math.abs(g - b) < 12, `mean ${drawn.mean.map((x) => x.toFixed(0))}`);
  assert.ok(Math.abs(checker.mean[0] - checker.mean[1]) < 20, `the checker's mean ${checker.mean.map((x) => x.toFixed(0))}`);

  // Baked into the vertex colours (the compile's default): a white texel, the same red.
  const baked = await redQuad(true);
  assert.equal(await loadGenerated(s, 'red-baked.iqm', baked.bytes), 'ready');
  await still(s.page);
  await answerColour([1, 1, 1, 1]);
  const once = await pixelStats(s.page);
  drawn.mean.forEach((x, k) => assert.ok(Math.abs(x - once.mean[k]) < 8, `baked ${once.mean.map((v) => v.toFixed(0))}, drawn ${drawn.mean.map((v) => v.toFixed(0))}`));
  await setToggles(s.page, { cull: true, grid: true });
});

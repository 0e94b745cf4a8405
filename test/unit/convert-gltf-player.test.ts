// A Quake 3 player folder as one glTF scene (core/gltf/player.ts, `iqm-tools convert FOLDER -o
// x.glb`): the shared OpenArena soldier (md3/oa_soldier: lower, upper, head.md3, animation.cfg and
// skins) exported by the CLI, checked by Khronos' validator, and its head's vertices evaluated from
// the glTF specification (test/helpers/gltf-eval.ts, independent of our reader) at several times of
// several clips equal where the preview's own assembly (media/player.ts PlayerAssembly, Scene) puts
// them. Also: the three parts given as files assemble the same; a folder without a part is an
// error with exit 2 and no output (CLI.md: bad input exits 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';
import { PlayerAssembly, type PartName } from '../../media/player';
import type { ModelGpu } from '../../media/renderer/renderer';
import { Scene } from '../../media/scene';
import { evaluateGltf, loadGltf, scenePrimitives, type Gltf, type GltfAnimation } from '../helpers/gltf-eval';
import { validateGltf } from '../helpers/gltf-validator';
import { ASSETS, NO_ASSETS } from '../helpers/model-assets';
import { withTempDir } from '../helpers/temp-dir';

const SOLDIER = join(ASSETS, 'md3', 'oa_soldier');
const SKIP = NO_ASSETS || (!existsSync(join(SOLDIER, 'animation.cfg')) && `${SOLDIER} is absent; the player export test is skipped`);

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The preview's assembly of the soldier with GPU stand-ins that only hold the model matrices the assembly computes. */
function previewAssembly(models: Record<PartName, Model>, cfg: string): PlayerAssembly {
  const others = (['upper', 'head'] as const).map((part) => ({ part, fileName: `${part}.md3`, model: models[part] }));
  const player = new PlayerAssembly({ part: 'lower', fileName: 'lower.md3', scene: new Scene(models.lower) }, others, cfg);
  for (const p of player.parts) p.gpu = { modelMatrix: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), setFrames: () => undefined } as unknown as ModelGpu;
  return player;
}

/** One animation made of several (their channels at the same time), as a player's legs and torso clips play together. */
function together(animations: GltfAnimation[]): GltfAnimation {
  const out: GltfAnimation = { channels: [], samplers: [] };
  for (const a of animations) {
    const base = out.samplers.length;
    out.samplers.push(...a.samplers);
    out.channels.push(...a.channels.map((c) => ({ ...c, sampler: c.sampler + base })));
  }
  return out;
}

/** The node indexes under the part node `name` (the exporter's grouping node of that part). */
function subtree(gltf: Gltf, name: string): Set<number> {
  const nodes = gltf.json.nodes ?? [];
  const root = nodes.findIndex((n) => n.name === name && !n.mesh);
  assert.ok(root >= 0, `a node "${name}"`);
  const out = new Set<number>();
  const visit = (i: number): void => {
    out.add(i);
    for (const c of nodes[i].children ?? []) visit(c);
  };
  visit(root);
  return out;
}

test('a Quake 3 player folder: one scene, validated, its head where the preview assembles it at every checked time', { skip: SKIP }, async () => {
  await withTempDir('iqm-gltf-player-', async (dir) => {
    const out = join(dir, 'soldier.glb');
    const run = cli('convert', SOLDIER, '-o', out);
    assert.equal(run.status, 0, run.stderr);
    const bytes = new Uint8Array(readFileSync(out));
    assert.deepEqual(await validateGltf(bytes), []);
    const gltf = loadGltf(bytes, () => {
      throw new Error('a .glb names no other file');
    });
    const json = gltf.json as Gltf['json'] & { images?: unknown[] };
    const models = Object.fromEntries((['lower', 'upper', 'head'] as const).map((p) => [p, readModel(new Uint8Array(readFileSync(join(SOLDIER, `${p}.md3`))))])) as Record<PartName, Model>;
    const cfg = readFileSync(join(SOLDIER, 'animation.cfg'), 'utf8');
    // One image per skin texture the parts use (skin.tga, face.tga, hairs.tga).
    assert.equal(json.images?.length, 3);
    // The hierarchy: upper under lower's tag_torso, head under upper's tag_head.
    const nodes = gltf.json.nodes!;
    const parentOf = (name: string): string | undefined => nodes.find((n) => n.children?.includes(nodes.findIndex((m) => m.name === name && !m.mesh)))?.name;
    assert.equal(parentOf('upper'), 'tag_torso');
    assert.equal(parentOf('head'), 'tag_head');
    assert.deepEqual(gltf.json.scenes![0].nodes!.map((n) => nodes[n].name), ['lower']);

    const player = previewAssembly(models, cfg);
    const names = player.clips.map((c) => c.name);
    const animations = new Map((gltf.json.animations ?? []).map((a) => [a.name!, a]));
    // Every clip of animation.cfg is an animation of the scene.
    for (const n of names) assert.ok(animations.has(n), `animation ${n} (have ${[...animations.keys()].join(', ')})`);
    const head = subtree(gltf, 'head');
    const headPrimitives = scenePrimitives(gltf).filter((p) => head.has(p.node));
    assert.equal(headPrimitives.length, models.head.meshes.length);

    // [the torso-side clip, the legs clip] as the preview's player plays them (selectClip).
    const cases: [string, string | null][] = [
      ['BOTH_DEATH1', null],
      ['TORSO_GESTURE', 'LEGS_RUN'],
      ['LEGS_JUMP', null],
    ];
    let checked = 0;
    for (const [torsoName, legsName] of cases) {
      player.selectClip(names.indexOf(torsoName), legsName ? names.indexOf(legsName) : -1);
      const playing = [...new Set([player.part('lower').clip, player.part('upper').clip])].map((i) => player.clips[i]);
      const animation = together(playing.map((c) => animations.get(c.name)!));
      // Times on a key of every clip playing (the preview lerps a tag's matrix between frames,
      // glTF slerps its rotation: they agree on the keys), the last one past every clip's end.
      const first = playing[0];
      const times: number[] = [];
      const end = Math.max(...playing.map((c) => c.frameCount / c.fps));
      for (let k = 0; k / first.fps <= end + 1; k++) {
        const t = Math.fround(k / first.fps);
        if (playing.every((c) => Math.abs(t * c.fps - Math.round(t * c.fps)) < 1e-4)) times.push(t);
      }
      times.push(60);
      assert.ok(times.length >= 3, `${torsoName}: keys shared by ${playing.map((c) => c.name).join(', ')}: ${times.join(', ')}`);
      for (const t of times) {
        player.update(t, false, true);
        const matrix = player.part('head').gpu!.modelMatrix;
        const got = evaluateGltf(gltf, headPrimitives, animation, t).positions;
        // Tolerance: both sides hold the chain in float32 (the preview's 4x4 model matrices, the
        // glTF's TRS, positions and key times): a few float32 roundings (2^-24 relative) of the
        // largest coordinate of the assembled head, 16 of them allowed.
        let extent = 0;
        for (const v of got) extent = Math.max(extent, Math.abs(v));
        const tolerance = 16 * 2 ** -24 * extent;
        let o = 0;
        for (const [m, p] of headPrimitives.entries()) {
          const mesh = models.head.meshes[m];
          for (const v of p.used) {
            const x = mesh.position[3 * v], y = mesh.position[3 * v + 1], z = mesh.position[3 * v + 2];
            const want = [0, 1, 2].map((r) => matrix[r] * x + matrix[4 + r] * y + matrix[8 + r] * z + matrix[12 + r]);
            for (let r = 0; r < 3; r++) {
              const d = Math.abs(got[o + r] - want[r]);
              assert.ok(d <= tolerance, `${torsoName}${legsName ? ` + ${legsName}` : ''} at ${t} s: head mesh ${m} vertex ${v} axis ${r}: glTF ${got[o + r]}, preview ${want[r]} (${d} > ${tolerance})`);
            }
            o += 3;
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 0);
    console.log(`[player] ${checked} head vertex positions checked against the preview's assembly`);
  });
});

test('a player as its three parts assembles the same; a folder without a part: exit 2, nothing written', { skip: SKIP }, () => {
  withTempDir('iqm-gltf-player-', (dir) => {
    const fromFolder = join(dir, 'a.glb'), fromParts = join(dir, 'b.glb');
    assert.equal(cli('convert', SOLDIER, '-o', fromFolder).status, 0);
    const parts = cli('convert', join(SOLDIER, 'head.md3'), join(SOLDIER, 'lower.md3'), join(SOLDIER, 'upper.md3'), '-o', fromParts);
    assert.equal(parts.status, 0, parts.stderr);
    const a = loadGltf(new Uint8Array(readFileSync(fromFolder)), () => new Uint8Array(0));
    const b = loadGltf(new Uint8Array(readFileSync(fromParts)), () => new Uint8Array(0));
    assert.deepEqual(b.json.nodes, a.json.nodes);
    assert.deepEqual(b.json.animations, a.json.animations);
    const missing = cli('convert', dir, '-o', join(dir, 'c.glb'));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /lower\.md3, upper\.md3, head\.md3 not found/);
    assert.equal(existsSync(join(dir, 'c.glb')), false);
    const noGltf = cli('convert', SOLDIER, '-o', join(dir, 'd.iqe'));
    assert.equal(noGltf.status, 2);
    assert.match(noGltf.stderr, /glTF only/);
  });
});

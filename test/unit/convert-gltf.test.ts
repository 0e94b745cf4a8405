// glTF out (issue 32): every shared model and source, and generated IQMs, written as GLB by
// `iqm-tools convert -o X.glb`: Khronos' glTF-Validator reports no error and no warning, and our
// own glTF input compiles the GLB back to the model that X's IQE conversion compiles to (the
// semantic diff, core/compare/diff.ts, at its default tolerance). MD3 frames (morph targets with a
// weights animation) are checked by evaluating the GLB's morph targets against the MD3's frames.
// The conversions and compiles run in this process (test/helpers/convert-here.ts: the CLI's own
// functions); one CLI run per output format checks that the command writes the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffModels } from '../../core/compare/diff';
import { readModel } from '../../core/formats/models';
import { decodeGltf } from '../../core/gltf/decode';
import { NEAR_UNIT } from '../../core/gltf/math';
import { fallbackTangent } from '../../core/math/tangent';
import type { Model } from '../../core/model/model';
import { compileHere, convertHere } from '../helpers/convert-here';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { ASSETS, NO_ASSETS, sharedModels } from '../helpers/model-assets';
import { smallIqmDocument } from '../helpers/model-writers';
import { withTempDir } from '../helpers/temp-dir';
import { validateGltf as validate } from '../helpers/gltf-validator';
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * What glTF requires of the reference, applied to it as the writer applies it (and says so in its
 * warnings): unit normals (further than NEAR_UNIT from unit length: normalised; zero: up), unit
 * tangents (zero or not finite: the compile's own fallback, IQE-SEMANTICS.md B8). Tangents the
 * compile generated on both sides (the source has none) are left out of the comparison: one side
 * computes them in double precision from the IQE's decimal text, the other from the glTF's float32
 * values, and a triangle with nearly parallel texture edges turns that half-ulp into any angle.
 */
function asGltfHolds(model: Model, generatedTangents: boolean): void {
  const t = new Float64Array(4);
  for (const mesh of model.meshes) {
    const n = mesh.normal;
    if (n) {
      const fixed = n.slice();
      for (let v = 0; v < mesh.vertexCount; v++) {
        const l = Math.hypot(n[3 * v], n[3 * v + 1], n[3 * v + 2]);
        if (!(l > 0 && Number.isFinite(l))) fixed.set([0, 0, 1], 3 * v);
        else if (Math.abs(l - 1) > NEAR_UNIT) for (let k = 0; k < 3; k++) fixed[3 * v + k] = n[3 * v + k] / l;
      }
      mesh.normal = fixed;
    }
    if (generatedTangents) mesh.tangent = null;
    else if (mesh.tangent && n) {
      const x = mesh.tangent.slice();
      for (let v = 0; v < mesh.vertexCount; v++) {
        const l = Math.hypot(x[4 * v], x[4 * v + 1], x[4 * v + 2]);
        if (l > 0 && Number.isFinite(l) && Number.isFinite(x[4 * v + 3])) continue;
        fallbackTangent(t, 0, n[3 * v], n[3 * v + 1], n[3 * v + 2]);
        x.set(t, 4 * v);
      }
      mesh.tangent = x;
    }
  }
}

/**
 * Differences not explained yet, exactly as they are (the closing note lists them): they
 * fail the test the day they change or vanish.
 * - Fox.glb: only the per-frame bounds, by up to 2.6e-5 of its extent (joints, frames and
 *   triangles equal); the suspicion is the 16-bit quantisation of rotations read back with the
 *   other sign, which the bounds of the compile see and the frame comparison allows.
 */
const KNOWN: Record<string, { sections: string[] }> = {
  'gltf/bevy/Fox.glb': { sections: ['bounds'] },
};

/** X -> GLB (validated) -> our compile, against X -> IQE -> our compile; the differences, none expected. */
async function roundTrip(dir: string, file: string, label: string, extension: '.glb' | '.gltf' = '.glb', animations: string[] = [], documented?: (expected: Model) => void): Promise<{ glb: Uint8Array; warnings: string[] }> {
  const inputs = [file, ...animations];
  const { path: glbPath, bytes: glb, warnings } = await convertHere(dir, inputs, extension);
  assert.deepEqual(await validate(glb, extension === '.gltf' ? dir : undefined), [], `${label}: glTF-Validator`);
  const iqe = await convertHere(dir, inputs, '.iqe');
  const expected = await compileHere(iqe.path);
  documented?.(expected);
  const actual = await compileHere(glbPath);
  const generated = !/^vx /m.test(new TextDecoder().decode(iqe.bytes));
  asGltfHolds(expected, generated);
  if (generated) for (const m of actual.meshes) m.tangent = null;
  const differences = diffModels(expected, actual);
  const known = KNOWN[label];
  if (known) {
    assert.ok(differences.length > 0, `${label}: the known difference is gone: take it off KNOWN`);
    assert.deepEqual([...new Set(differences.map((d) => d.section))], known.sections, `${label}: ${JSON.stringify(differences.slice(0, 3))}`);
  } else assert.deepEqual(differences, [], `${label}: X -> glTF -> IQM differs from X -> IQE -> IQM`);
  return { glb, warnings };
}

test('convert -o .glb: every shared model validates clean and compiles back to what its IQE compiles to', { skip: NO_ASSETS }, async (t) => {
  const files = sharedModels();
  assert.ok(files.length >= 40, `found ${files.length} models`);
  for (const file of files) {
    const label = file.slice(ASSETS.length + 1);
    // An animation-only IQM goes with the mesh it animates (its own case below).
    if (/guyanim\.iqm$/.test(file)) continue;
    await withTempDir('iqm-gltf-', async (dir) => {
      const { warnings } = await roundTrip(dir, file, label);
      if (warnings.length) t.diagnostic(`${label}: ${warnings.join(' | ')}`);
    });
  }
});

test('convert -o .glb: generated IQMs (v2 and v1: custom array, comment, scaled joints, two clips) come back equal', async () => {
  for (const version of [2, 1] as const) {
    const doc = smallIqmDocument(version);
    doc.meshes = [doc.meshes[0]];
    doc.triangles = doc.triangles.subarray(0, 6);
    // Vertex 3 has no weight (kept at its bind pose by the preview): glTF needs weights summing to
    // 1, so the writer binds it to joint 0 with a warning; here it is weighted to joint 0 as written.
    const weights = doc.vertexArrays.find((a) => a.name === 'blendweights')!;
    (weights.data as Float32Array).set([1, 0, 0, 0], 12);
    await withTempDir('iqm-gltf-', async (dir) => {
      const file = join(dir, `small-v${version}.iqm`);
      writeFileSync(file, writeIqmDocument(doc));
      const { glb } = await roundTrip(dir, file, `v${version}`);
      const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
      assert.ok(json.meshes[0].primitives[0].attributes._my_custom !== undefined, 'the custom array as _my_custom');
      assert.equal(json.scenes[0].extras.iqmTools.comment, 'written by the iqm-tools tests');
      assert.deepEqual(json.animations.map((a: { extras: { iqmTools: { loop: boolean } } }) => typeof a.extras.iqmTools.loop), ['boolean', 'boolean']);
    });
  }
});

test('convert MESH ANIM -o .glb: an animation-only IQM with the mesh it borrows; alone, a clear error', { skip: NO_ASSETS }, async () => {
  await withTempDir('iqm-gltf-', async (dir) => {
    const guy = join(ASSETS, 'iqm/raylib_guy/guy.iqm'), anim = join(ASSETS, 'iqm/raylib_guy/guyanim.iqm');
    // The two files' clips share their names (jump, dance): IQE and IQM keep both; glTF's are
    // made unique (Blender would rename the second), the animation file's named after it.
    const { warnings } = await roundTrip(dir, guy, 'guy.iqm + guyanim.iqm', '.glb', [anim], (expected) => {
      assert.deepEqual(expected.clips.map((c) => c.name), ['jump', 'dance', 'jump', 'dance']);
      expected.clips = expected.clips.map((c, i) => (i < 2 ? c : { ...c, name: `${c.name} (guyanim.iqm)` }));
    });
    assert.ok(warnings.some((w) => w.includes('2 animations had the name of an earlier one (glTF tools such as Blender need each name once): written "jump" as "jump (guyanim.iqm)", "dance" as "dance (guyanim.iqm)"')), warnings.join('\n'));
    await assert.rejects(convertHere(dir, [anim], '.glb'), /animation-only model .*give the model whose skeleton it animates first/);
  });
});

test('convert -o .gltf: the buffer and the textures (TGA made PNG) beside it, validated with them, compiling back equal', { skip: NO_ASSETS }, async () => {
  await withTempDir('iqm-gltf-', async (dir) => {
    const file = join(ASSETS, 'iqm/mrfixit/mrfixit.iqm');
    await roundTrip(dir, file, 'mrfixit.gltf', '.gltf');
    assert.deepEqual(readdirSync(dir).sort(), ['x.bin', 'x.gltf', 'x.iqe', 'x_Body.png', 'x_Head.png']);
    for (const png of ['x_Body.png', 'x_Head.png']) assert.deepEqual([...readFileSync(join(dir, png)).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const json = JSON.parse(readFileSync(join(dir, 'x.gltf'), 'utf8'));
    assert.deepEqual(json.images.map((i: { uri: string }) => i.uri), ['x_Body.png', 'x_Head.png']);
    assert.deepEqual(json.materials.map((m: { name: string }) => m.name), ['Body.tga', 'Head.tga']);
  });
});

test('convert -o .glb: MD3 frames as morph targets: the GLB evaluated at several frames gives the MD3 frame positions', { skip: NO_ASSETS }, async () => {
  for (const rel of ['md3/oa_soldier/upper.md3', 'md3/oa_soldier/head.md3', 'md3/oa_soldier/lower.md3']) {
    const file = join(ASSETS, rel);
    const md3 = readModel(new Uint8Array(readFileSync(file)));
    await withTempDir('iqm-gltf-', async (dir) => {
      const { bytes } = await convertHere(dir, [file], '.glb');
      assert.deepEqual(await validate(bytes), [], rel);
      const { document } = await decodeGltf(bytes, 'x', undefined);
      const root = document.getRoot();
      const meshes = root.listMeshes();
      assert.equal(meshes.length, md3.meshes.length);
      const frames = [0, 1, Math.floor(md3.frameCount / 2), md3.frameCount - 1].filter((f, i, a) => f < md3.frameCount && a.indexOf(f) === i);
      let checked = 0;
      for (const f of frames) {
        for (const [i, mesh] of md3.meshes.entries()) {
          const primitive = meshes[i].listPrimitives()[0];
          const base = primitive.getAttribute('POSITION')!.getArray()!;
          const targets = primitive.listTargets();
          assert.equal(targets.length, md3.frameCount - 1, `${rel}: one target per frame after the first`);
          const p = Float64Array.from(base);
          // glTF: position = base + Σ weight_t · target_t; frame f is weight 1 on target f - 1.
          if (f > 0) {
            const d = targets[f - 1].getAttribute('POSITION')!.getArray()!;
            for (let k = 0; k < p.length; k++) p[k] += d[k];
          }
          const n = mesh.vertexCount;
          for (let v = 0; v < n; v++) {
            const o = (f * n + v) * 3;
            // Y-up back to Z-up: (x, y, z) -> (x, -z, y). Exact: MD3 positions are int16 / 64, so
            // frame 0, each frame's difference from it and their sum are all exact in float32.
            const want = [mesh.morph!.positions[o], mesh.morph!.positions[o + 1], mesh.morph!.positions[o + 2]];
            const got = [p[3 * v], -p[3 * v + 2], p[3 * v + 1]].map((x) => x + 0);
            assert.deepEqual(got, want, `${rel}: frame ${f} mesh ${i} vertex ${v}`);
            checked++;
          }
        }
      }
      assert.ok(checked > 0);
      // Tags: a node each, moved by every animation.
      for (const tag of md3.tags?.names ?? []) {
        const node = root.listNodes().find((n) => n.getName() === tag);
        assert.ok(node, `${rel}: tag ${tag} is a node`);
        for (const a of root.listAnimations()) assert.ok(a.listChannels().some((c) => c.getTargetNode() === node && c.getTargetPath() === 'translation'), `${rel}: ${a.getName()} moves ${tag}`);
      }
      // Weights animations: each drives every mesh node; its keys are 0 or 1 on one target.
      const animations = root.listAnimations();
      assert.ok(animations.length >= 1, `${rel}: animations`);
      for (const a of animations) {
        const weights = a.listChannels().filter((c) => c.getTargetPath() === 'weights');
        assert.equal(weights.length, md3.meshes.length, `${rel}: ${a.getName()}: a weights channel per mesh`);
        const values = weights[0].getSampler()!.getOutput()!.getArray()!;
        for (let k = 0; k < values.length; k += md3.frameCount - 1) {
          const key = Array.from(values.subarray(k, k + md3.frameCount - 1));
          assert.ok(key.every((x) => x === 0 || x === 1) && key.filter((x) => x === 1).length <= 1, `${rel}: ${a.getName()}: key ${k}`);
        }
      }
    });
  }
});

test('convert -o .glb: bad input is one clear line, exit 2, no file; an output of another extension is refused', { skip: NO_ASSETS }, () => {
  withTempDir('iqm-gltf-', (dir) => {
    const bad = join(ASSETS, 'iqm/invalid/InvalidMeshOffset.iqm');
    const r = cli('convert', bad, '-o', join(dir, 'x.glb'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /InvalidMeshOffset\.iqm: meshes: .* \(at byte \d+\)/);
    assert.ok(!existsSync(join(dir, 'x.glb')));
    const named = cli('convert', join(ASSETS, 'iqm/raylib_guy/guy.iqm'), '-o', join(dir, 'x.fbx'));
    assert.equal(named.status, 2);
    assert.match(named.stderr, /name it \.iqe .*\.glb, \.gltf/);
    assert.deepEqual(readdirSync(dir), []);
  });
});

test('the command writes what the functions above write: convert -o .glb, .gltf, .iqe and compile x.glb, one CLI run each', { skip: NO_ASSETS }, async () => {
  const file = join(ASSETS, 'iqm/mrfixit/mrfixit.iqm');
  await withTempDir('iqm-gltf-', async (here) => {
    await withTempDir('iqm-gltf-cli-', async (there) => {
      for (const extension of ['.glb', '.gltf', '.iqe'] as const) {
        const made = await convertHere(here, [file], extension);
        const r = cli('convert', file, '-o', join(there, `x${extension}`), '--json');
        assert.equal(r.status, 0, r.stderr);
        assert.deepEqual((JSON.parse(r.stdout) as { warnings: string[] }).warnings, made.warnings, `${extension}: the same notes`);
      }
      // Every file the three wrote, byte for byte (the .gltf's buffer and PNGs beside it).
      assert.deepEqual(readdirSync(there).sort(), readdirSync(here).sort());
      for (const name of readdirSync(here)) assert.ok(readFileSync(join(there, name)).equals(readFileSync(join(here, name))), `${name}: the same bytes`);
      const back = cli('compile', join(there, 'x.glb'), '-o', join(there, 'back.iqm'));
      assert.equal(back.status, 0, back.stderr);
      assert.deepEqual(diffModels(await compileHere(join(here, 'x.glb')), readModel(new Uint8Array(readFileSync(join(there, 'back.iqm'))))), [], 'compile x.glb: the same model');
    });
  });
});

// GPU buffer layout (media/renderer/layout.ts): what the renderer uploads, and a JavaScript
// emulation of the vertex shader reading the joint/influence textures through the same texel
// addressing, compared with the CPU skinning reference (core/model/sample.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { readModel } from '../../core/formats/models';
import type { Mesh, Model } from '../../core/model/model';
import { createPose, morphVertices, sampleFrames } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import {
  buildLayout,
  computeNormals,
  createJointTexture,
  influenceTexel,
  INFLUENCES_PER_ROW,
  jointTexel,
  jointTextureSize,
  JOINTS_PER_ROW,
  morphOffsets,
  packJoints,
  skinKind,
  wireframeIndices,
  type ModelLayout,
  type TextureLayout,
} from '../../media/renderer/layout';
import { Scene } from '../../media/scene';
import { smallIqmDocument, writeDpm, writeMd3, type DpmSpec } from '../helpers/model-writers';
import { asset, NO_ASSETS } from '../helpers/model-assets';

function texel(t: TextureLayout, x: number, y: number, c: number): number {
  assert.ok(x >= 0 && x < t.width && y >= 0 && y < t.height, `texel ${x},${y} inside ${t.width}x${t.height}`);
  return t.data[(y * t.width + x) * 4 + c];
}

/** The vertex shader's arithmetic in JS (SKIN_LINEAR / SKIN_DPM / MORPH / static). */
function emulateShader(model: Model, layout: ModelLayout, joints: TextureLayout | null, morph: { a: number; b: number; t: number }): Float32Array {
  const out = new Float32Array(layout.totalVertices * 3);
  let base = 0;
  const row = (j: number, r: number, c: number) => {
    const [x, y] = jointTexel(j, r);
    return texel(joints as TextureLayout, x, y, c);
  };
  const xf = (j: number, px: number, py: number, pz: number, pw: number, o: number[]) => {
    for (let r = 0; r < 3; r++) o[r] = row(j, r, 0) * px + row(j, r, 1) * py + row(j, r, 2) * pz + row(j, r, 3) * pw;
  };
  const tmp = [0, 0, 0];
  for (const m of layout.meshes) {
    for (let v = 0; v < m.vertexCount; v++) {
      let x = 0, y = 0, z = 0;
      if (m.kind === 'linear' && m.weights && m.joints) {
        const total = m.weights[v * 4] + m.weights[v * 4 + 1] + m.weights[v * 4 + 2] + m.weights[v * 4 + 3];
        if (total > 0) {
          for (let i = 0; i < 4; i++) {
            const w = m.weights[v * 4 + i];
            if (w === 0) continue;
            xf(m.joints[v * 4 + i], m.position[v * 3], m.position[v * 3 + 1], m.position[v * 3 + 2], 1, tmp);
            x += w * tmp[0]; y += w * tmp[1]; z += w * tmp[2];
          }
        } else {
          x = m.position[v * 3]; y = m.position[v * 3 + 1]; z = m.position[v * 3 + 2];
        }
      } else if (m.kind === 'dpm' && m.dpmRange && layout.influences) {
        const first = m.dpmRange[v * 2], count = m.dpmRange[v * 2 + 1];
        for (let i = 0; i < count; i++) {
          const [tx, ty] = influenceTexel(first + i, 0);
          const ox = texel(layout.influences, tx, ty, 0), oy = texel(layout.influences, tx, ty, 1), oz = texel(layout.influences, tx, ty, 2), inf = texel(layout.influences, tx, ty, 3);
          const bone = texel(layout.influences, tx + 1, ty, 3);
          if (bone < 0) continue;
          xf(bone, ox, oy, oz, inf, tmp);
          x += tmp[0]; y += tmp[1]; z += tmp[2];
        }
      } else if (m.kind === 'morph' && m.morphPositions) {
        const offs = new Float64Array(2);
        morphOffsets(m, morph.a, morph.b, offs);
        const a = offs[0] / 4 + v * 3, b = offs[1] / 4 + v * 3;
        x = m.morphPositions[a] + (m.morphPositions[b] - m.morphPositions[a]) * morph.t;
        y = m.morphPositions[a + 1] + (m.morphPositions[b + 1] - m.morphPositions[a + 1]) * morph.t;
        z = m.morphPositions[a + 2] + (m.morphPositions[b + 2] - m.morphPositions[a + 2]) * morph.t;
      } else {
        x = m.position[v * 3]; y = m.position[v * 3 + 1]; z = m.position[v * 3 + 2];
      }
      out[base + v * 3] = x; out[base + v * 3 + 1] = y; out[base + v * 3 + 2] = z;
    }
    base += m.vertexCount * 3;
  }
  void model;
  return out;
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

test('joint texture: 3 texels per joint, 256 joints per row, any joint count', () => {
  assert.deepEqual(jointTextureSize(0), { width: 3, height: 1 });
  assert.deepEqual(jointTextureSize(75), { width: 225, height: 1 });
  assert.deepEqual(jointTextureSize(JOINTS_PER_ROW), { width: 768, height: 1 });
  assert.deepEqual(jointTextureSize(JOINTS_PER_ROW + 1), { width: 768, height: 2 });
  assert.deepEqual(jointTextureSize(1000), { width: 768, height: 4 });
  assert.deepEqual(jointTexel(0, 0), [0, 0]);
  assert.deepEqual(jointTexel(1, 2), [5, 0]);
  assert.deepEqual(jointTexel(256, 1), [1, 1]);
  // Packing 300 joints: every matrix element lands at its texel.
  const n = 300;
  const m = new Float32Array(n * 12).map((_, i) => i);
  const tex = createJointTexture(n);
  packJoints(m, n, tex);
  for (let j = 0; j < n; j += 37) {
    for (let r = 0; r < 3; r++) {
      const [x, y] = jointTexel(j, r);
      for (let c = 0; c < 4; c++) assert.equal(texel(tex, x, y, c), j * 12 + r * 4 + c);
    }
  }
});

test('IQM layout: 4 influences per vertex, uint16 joints, weights sum 1 or 0 (unweighted)', () => {
  const model = readModel(writeIqmDocument(smallIqmDocument()));
  const layout = buildLayout(model);
  assert.equal(layout.kind, 'linear');
  assert.equal(layout.meshes.length, model.meshes.length);
  assert.equal(layout.totalVertices, totalVertices(model));
  for (const [i, m] of layout.meshes.entries()) {
    assert.ok(m.joints instanceof Uint16Array && m.joints.length === m.vertexCount * 4);
    assert.ok(m.weights instanceof Float32Array && m.weights.length === m.vertexCount * 4);
    assert.equal(m.position.length, m.vertexCount * 3);
    assert.equal(m.normal.length, m.vertexCount * 3);
    assert.equal(m.texcoord.length, m.vertexCount * 2);
    assert.equal(m.indices, model.meshes[i].indices, 'indices uploaded as read (file winding)');
    for (let v = 0; v < m.vertexCount; v++) {
      const sum = m.weights[v * 4] + m.weights[v * 4 + 1] + m.weights[v * 4 + 2] + m.weights[v * 4 + 3];
      assert.ok(Math.abs(sum - 1) < 1e-6 || sum === 0, `vertex ${v} weights sum ${sum}`);
      for (let k = 0; k < 4; k++) assert.ok(m.joints[v * 4 + k] < layout.jointCount);
    }
  }
  assert.equal(layout.meshes.reduce((n, m) => n + m.unweighted, 0), 1, 'the all-zero-weight vertex is counted');
});

test('more than 4 influences: the 4 largest are kept, renormalised, the rest counted as dropped', () => {
  const model = readModel(writeIqmDocument(smallIqmDocument()));
  const mesh: Mesh = { ...model.meshes[0], vertexCount: 1, influences: 6, indices: new Uint32Array(0), position: new Float32Array(3), normal: null, texcoord: null };
  mesh.blendIndices = new Uint8Array([0, 1, 2, 0, 1, 2]);
  mesh.blendWeights = new Float32Array([0.05, 0.3, 0.1, 0.2, 0.25, 0.1]);
  const layout = buildLayout({ ...model, meshes: [mesh] });
  const m = layout.meshes[0];
  assert.equal(m.droppedInfluences, 2);
  assert.deepEqual(Array.from(m.joints as Uint16Array), [1, 1, 0, 2]);
  const w = Array.from(m.weights as Float32Array);
  const kept = 0.3 + 0.25 + 0.2 + 0.1;
  [0.3, 0.25, 0.2, 0.1].forEach((x, i) => assert.ok(Math.abs(w[i] - x / kept) < 1e-6));
});

test('IQM: the shader emulation over the packed joint texture equals CPU skinning at every frame', () => {
  const model = readModel(writeIqmDocument(smallIqmDocument()));
  const scene = new Scene(model);
  const ref = new Float32Array(totalVertices(model) * 3);
  const pose = createPose(model); // the bind pose until sampled
  for (let f = -1; f < model.frameCount; f++) {
    scene.setFrame(f);
    if (f >= 0) sampleFrames(model, f, f, 0, pose);
    skinVertices(model, pose, ref);
    const gpu = emulateShader(model, scene.layout, scene.joints, { a: 0, b: 0, t: 0 });
    assert.ok(maxDiff(gpu, ref) < 1e-5, `frame ${f}: ${maxDiff(gpu, ref)}`);
  }
});

function smallDpm(): DpmSpec {
  const id = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
  const rot = (a: number, t: number[]) => [Math.cos(a), -Math.sin(a), 0, t[0], Math.sin(a), Math.cos(a), 0, t[1], 0, 0, 1, t[2]];
  return {
    bones: [
      { name: 'root', parent: -1, flags: 0 },
      { name: 'arm', parent: 0, flags: 0 },
    ],
    meshes: [
      {
        shader: 'skin0',
        verts: [
          [{ origin: [1, 0, 0], influence: 1, normal: [0, 0, 1], bone: 0 }],
          [
            { origin: [0.5, 0, 0], influence: 0.5, normal: [0, 0, 0.5], bone: 0 },
            { origin: [0.25, 0.25, 0], influence: 0.5, normal: [0, 0, 0.5], bone: 1 },
          ],
          [{ origin: [0, 1, 0], influence: 1, normal: [0, 0, 1], bone: 1 }],
        ],
        texcoords: [0, 0, 1, 0, 0, 1],
        indices: [0, 1, 2],
        groupIds: null,
      },
    ],
    frames: [
      { name: 'base', bounds: [-1, -1, -1, 1, 1, 1, 1, 1], matrices: [...id, ...rot(0, [1, 0, 0])] },
      { name: 'bend', bounds: [-1, -1, -1, 1, 1, 1, 1, 1], matrices: [...rot(0.3, [0, 0, 0.5]), ...rot(1.1, [1, 0.2, 0])] },
    ],
  };
}

test('DPM layout: every influence in the texture (origin+influence, normal+bone); emulation equals CPU at every frame', () => {
  const model = readModel(writeDpm(smallDpm()));
  assert.equal(skinKind(model), 'dpm');
  const scene = new Scene(model);
  const layout = scene.layout;
  assert.ok(layout.influences);
  assert.equal(layout.influences.width, INFLUENCES_PER_ROW * 2);
  const m = layout.meshes[0];
  assert.deepEqual(Array.from(m.dpmRange as Uint32Array), [0, 1, 1, 2, 3, 1]);
  const [x, y] = influenceTexel(2, 0);
  assert.deepEqual([0, 1, 2, 3].map((c) => texel(layout.influences as TextureLayout, x, y, c)), [0.25, 0.25, 0, 0.5]);
  assert.equal(texel(layout.influences, x + 1, y, 3), 1, 'bone index in the second texel');
  const ref = new Float32Array(totalVertices(model) * 3);
  const pose = createPose(model);
  for (let f = 0; f < model.frameCount; f++) {
    scene.setFrame(f);
    sampleFrames(model, f, f, 0, pose);
    skinVertices(model, pose, ref);
    const gpu = emulateShader(model, layout, scene.joints, { a: 0, b: 0, t: 0 });
    assert.ok(maxDiff(gpu, ref) < 1e-5, `frame ${f}: ${maxDiff(gpu, ref)}`);
  }
});

test('influence texel addressing wraps rows at INFLUENCES_PER_ROW', () => {
  assert.deepEqual(influenceTexel(0, 0), [0, 0]);
  assert.deepEqual(influenceTexel(0, 1), [1, 0]);
  assert.deepEqual(influenceTexel(INFLUENCES_PER_ROW - 1, 1), [INFLUENCES_PER_ROW * 2 - 1, 0]);
  assert.deepEqual(influenceTexel(INFLUENCES_PER_ROW, 0), [0, 1]);
});

test('MD3 layout: all frames in one buffer, byte offsets per frame (clamped), blend equals CPU morphing', () => {
  const frames = [0, 1, 2].map((f) => ({ mins: [-1, -1, -1], maxs: [1, 1, 1], origin: [0, 0, 0], radius: 1, name: `f${f}` }));
  const bytes = writeMd3({
    name: 'm',
    frames,
    tags: [[], [], []],
    surfaces: [
      {
        name: 's',
        shaders: ['models/x/skin'],
        triangles: [0, 1, 2],
        st: [0, 0, 1, 0, 0, 1],
        xyz: [0, 1, 2].map((f) => [0, 0, f * 64, 64, 0, 0, 0, 64 * (f + 1), 0]),
        normals: [0, 1, 2].map(() => [0, 0, 0]),
      },
    ],
  });
  const model = readModel(bytes);
  const layout = buildLayout(model);
  assert.equal(layout.kind, 'morph');
  const m = layout.meshes[0];
  assert.equal(m.morphFrames, 3);
  const offs = new Float64Array(2);
  morphOffsets(m, 1, 7, offs);
  assert.deepEqual(Array.from(offs), [1 * 3 * 12, 2 * 3 * 12]);
  const ref = new Float32Array(9);
  morphVertices(model, 1, 2, 0.25, ref);
  const gpu = emulateShader(model, layout, null, { a: 1, b: 2, t: 0.25 });
  assert.ok(maxDiff(gpu, ref) < 1e-6);
});

test('wireframe edges are unique; normals are computed when the file has none', () => {
  assert.deepEqual(Array.from(wireframeIndices(new Uint32Array([0, 1, 2, 2, 1, 3]))), [0, 1, 1, 2, 0, 2, 1, 3, 2, 3]);
  const n = computeNormals(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2]), 3);
  assert.deepEqual(Array.from(n), [0, 0, 1, 0, 0, 1, 0, 0, 1]);
});

test('real files: layouts of mrfixit.iqm (75 joints) and grunt.dpm (74 bones) are complete', { skip: NO_ASSETS }, () => {
  const iqm = buildLayout(readModel(asset('iqm/mrfixit/mrfixit.iqm')));
  assert.equal(iqm.kind, 'linear');
  assert.equal(iqm.jointCount, 75);
  assert.equal(iqm.meshes.reduce((n, m) => n + m.unweighted, 0), 0);
  const dpm = buildLayout(readModel(asset('dpm/nexuiz/grunt.dpm')));
  assert.equal(dpm.kind, 'dpm');
  assert.equal(dpm.jointCount, 74);
  assert.ok(dpm.influences && dpm.influences.height >= 1);
});

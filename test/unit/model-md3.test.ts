import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../core/binary';
import { readMd3 } from '../../core/md3/reader';
import { morphVertices, sampleTag } from '../../core/model/sample';
import { totalVertices } from '../../core/model/skin';
import { asset, NO_ASSETS } from '../helpers/model-assets';
import { near } from '../helpers/model-ref';
import { writeMd3, type Md3Spec } from '../helpers/model-writers';

/** Surfaces of an MD3 decoded by hand: frame-0 positions, raw normal bytes, triangles. */
function handSurfaces(bytes: Uint8Array) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let s = dv.getInt32(100, true);
  for (let i = 0; i < dv.getInt32(84, true); i++) {
    const nv = dv.getInt32(s + 80, true), nt = dv.getInt32(s + 84, true);
    const tri = s + dv.getInt32(s + 88, true), xyz = s + dv.getInt32(s + 100, true);
    const pos: number[] = [], b6: number[] = [], b7: number[] = [], idx: number[] = [];
    for (let v = 0; v < nv; v++) {
      for (let k = 0; k < 3; k++) pos.push(dv.getInt16(xyz + v * 8 + k * 2, true) / 64);
      b6.push(bytes[xyz + v * 8 + 6]);
      b7.push(bytes[xyz + v * 8 + 7]);
    }
    for (let k = 0; k < nt * 3; k++) idx.push(dv.getInt32(tri + k * 4, true));
    out.push({ pos, b6, b7, idx, nv });
    s += dv.getInt32(s + 104, true);
  }
  return out;
}

/** Mean cosine between decoded vertex normals and area-weighted face normals (clockwise winding). */
function agreement(bytes: Uint8Array, zenithByte: 6 | 7): number {
  let sum = 0, n = 0;
  for (const s of handSurfaces(bytes)) {
    const acc = new Float64Array(s.nv * 3);
    const P = s.pos;
    for (let t = 0; t < s.idx.length; t += 3) {
      const [a, b, c] = [s.idx[t], s.idx[t + 1], s.idx[t + 2]];
      const u = [0, 1, 2].map((k) => P[b * 3 + k] - P[a * 3 + k]);
      const w = [0, 1, 2].map((k) => P[c * 3 + k] - P[a * 3 + k]);
      // Clockwise front faces: normal = w × u.
      const f = [w[1] * u[2] - w[2] * u[1], w[2] * u[0] - w[0] * u[2], w[0] * u[1] - w[1] * u[0]];
      for (const i of [a, b, c]) for (let k = 0; k < 3; k++) acc[i * 3 + k] += f[k];
    }
    for (let v = 0; v < s.nv; v++) {
      const l = Math.hypot(acc[v * 3], acc[v * 3 + 1], acc[v * 3 + 2]);
      if (!l) continue;
      const zen = ((zenithByte === 6 ? s.b6[v] : s.b7[v]) * 2 * Math.PI) / 256;
      const az = ((zenithByte === 6 ? s.b7[v] : s.b6[v]) * 2 * Math.PI) / 256;
      const nrm = [Math.cos(az) * Math.sin(zen), Math.sin(az) * Math.sin(zen), Math.cos(zen)];
      sum += (acc[v * 3] * nrm[0] + acc[v * 3 + 1] * nrm[1] + acc[v * 3 + 2] * nrm[2]) / l;
      n++;
    }
  }
  return sum / n;
}

test('md3 normal byte order: byte 6 is the zenith, byte 7 the azimuth (face normals agree)', { skip: NO_ASSETS }, () => {
  for (const file of ['md3/watercan/watercan.md3', 'md3/oa_soldier/head.md3', 'md3/unvanquished/chaingun_thirdperson.md3', 'iqm/mislabeled/rtzsentry.iqm', 'md3/chainsaw/g_chainsaw.md3']) {
    const bytes = asset(file);
    const engine = agreement(bytes, 6);
    const swapped = agreement(bytes, 7);
    assert.ok(engine > 0.75, `${file}: byte 6 = zenith gives mean cosine ${engine}`);
    assert.ok(swapped < 0.5, `${file}: byte 7 = zenith gives mean cosine ${swapped}`);
    // The reader decodes the same way.
    const model = readMd3(bytes);
    const s = handSurfaces(bytes)[0];
    const zen = (s.b6[3] * Math.PI) / 128, az = (s.b7[3] * Math.PI) / 128;
    near(model.meshes[0].normal!.subarray(9, 12), [Math.cos(az) * Math.sin(zen), Math.sin(az) * Math.sin(zen), Math.cos(zen)], 1e-6, `${file} normal 3`);
  }
});

test('md3 watercan and oa_soldier: counts, positions and tags decoded by hand', { skip: NO_ASSETS }, () => {
  const can = asset('md3/watercan/watercan.md3');
  const m = readMd3(can);
  assert.deepEqual(m.meshes.map((s) => [s.name, s.material, s.vertexCount, s.triangleCount]), [['watercan', 'models/mapobjects/kt_utilities/water_can.tga', 92, 78]]);
  assert.equal(m.winding, 'cw');
  const hand = handSurfaces(can)[0];
  near(m.meshes[0].position.subarray(15, 18), hand.pos.slice(15, 18), 0, 'vertex 5');
  assert.deepEqual(Array.from(m.meshes[0].indices), hand.idx);

  const upper = asset('md3/oa_soldier/upper.md3');
  const u = readMd3(upper);
  assert.equal(u.frameCount, 218);
  assert.deepEqual(u.tags!.names, ['tag_weapon', 'tag_torso', 'tag_head']);
  const dv = new DataView(upper.buffer, upper.byteOffset);
  const ofsTags = dv.getInt32(96, true);
  const frame = 100, tag = 2;
  const o = ofsTags + (frame * 3 + tag) * 112;
  const origin = [0, 1, 2].map((k) => dv.getFloat32(o + 64 + k * 4, true));
  const axis = [0, 1, 2].map((a) => [0, 1, 2].map((k) => dv.getFloat32(o + 76 + a * 12 + k * 4, true)));
  const out = new Float32Array(12);
  sampleTag(u, tag, frame, frame, 0, out);
  // Axes are the columns, the origin the last column.
  near(out, [0, 1, 2].flatMap((r) => [axis[0][r], axis[1][r], axis[2][r], origin[r]]), 0, 'tag_head at frame 100');
  // Halfway between two frames the axes stay orthonormal and the origin is the midpoint.
  sampleTag(u, tag, 100, 101, 0.5, out);
  const col = (c: number) => [out[c], out[4 + c], out[8 + c]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  for (const [a, b] of [[0, 1], [1, 2], [0, 2]]) assert.ok(Math.abs(dot(col(a), col(b))) < 1e-5);
  const o2 = ofsTags + (101 * 3 + tag) * 112;
  near([out[3], out[7], out[11]], origin.map((x, k) => (x + dv.getFloat32(o2 + 64 + k * 4, true)) / 2), 1e-5, 'lerped origin');
});

test('md3: vertex animation lerps between frames; tag-only and fake-tag files read', { skip: NO_ASSETS }, () => {
  const head = readMd3(asset('md3/oa_soldier/head.md3'));
  const n = totalVertices(head) * 3;
  const a = new Float32Array(n), b = new Float32Array(n), mid = new Float32Array(n);
  morphVertices(head, 10, 10, 0, a);
  morphVertices(head, 11, 11, 0, b);
  morphVertices(head, 10, 11, 0.5, mid);
  for (let i = 0; i < n; i += 97) assert.ok(Math.abs(mid[i] - (a[i] + b[i]) / 2) < 1e-5);
  const tagOnly = readMd3(asset('md3/unvanquished/rifle_hand.md3'));
  assert.equal(tagOnly.meshes.length, 0);
  assert.deepEqual(tagOnly.tags!.names, ['tag_weapon']);
  assert.equal(tagOnly.frameCount, 15);
  const fake = readMd3(asset('md3/unvanquished/ckit_vwep.md3'));
  assert.deepEqual(fake.meshes.map((m) => [m.name, m.material]), [['ckit', 'models/weapons/ckit/tpskin'], ['tag_weapon', ''], ['tag_flash', '']]);
  assert.deepEqual(fake.tags!.names, []);
});

function smallMd3(): Md3Spec {
  const frames = [0, 1, 2].map((f) => ({ mins: [-f, -1, -1], maxs: [1, 1, 1 + f], origin: [0, 0, 0], radius: 2 + f, name: `frame${f}` }));
  return {
    name: 'models/test.md3',
    frames,
    tags: frames.map((_, f) => [
      { name: 'tag_a', origin: [f, 2, 3], axis: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
      { name: 'tag_b', origin: [0, f, 0], axis: [[0, 1, 0], [-1, 0, 0], [0, 0, 1]] },
    ]),
    surfaces: [
      {
        name: 'body',
        shaders: ['models/test/body', 'models/test/body_alt'],
        triangles: [0, 1, 2, 2, 1, 3],
        st: [0, 0, 1, 0, 0, 1, 1, 1],
        xyz: frames.map((_, f) => [0, 0, 0, 64, 0, 0, 0, 64, 0, 64, 64, f * 64]),
        normals: frames.map(() => [0, 0x0040, 0x8040, 0x4020]),
      },
      {
        name: 'head',
        shaders: [],
        triangles: [0, 1, 2],
        st: [0.5, 0.5, 0.25, 0.25, 0, 0],
        xyz: frames.map((_, f) => [-64, -64, f, -128, 0, 0, 0, -32768, 32767]),
        normals: frames.map(() => [0x0000, 0x0080, 0xc040]),
      },
    ],
  };
}

test('md3: a file written by the test writer reads back equal', () => {
  const spec = smallMd3();
  const m = readMd3(writeMd3(spec));
  assert.deepEqual(m.warnings, []);
  assert.equal(m.frameCount, 3);
  assert.deepEqual(m.frameNames, ['frame0', 'frame1', 'frame2']);
  near(m.bounds!.subarray(8, 14), [-1, -1, -1, 1, 1, 2], 0, 'frame 1 bounds');
  assert.ok(Number.isNaN(m.bounds![14]), 'MD3 has no xy radius');
  assert.equal(m.bounds![15], 3);
  assert.deepEqual(m.tags!.names, ['tag_a', 'tag_b']);
  near(m.tags!.frames.subarray(12 * 3, 12 * 4), [0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0], 0, 'tag_b frame 1 (axes as columns)');
  spec.surfaces.forEach((s, i) => {
    const mesh = m.meshes[i];
    assert.equal(mesh.name, s.name);
    assert.deepEqual(mesh.shaders, s.shaders);
    assert.equal(mesh.material, s.shaders[0] ?? '');
    assert.deepEqual(Array.from(mesh.indices), s.triangles);
    near(mesh.texcoord!, s.st, 0, 'st');
    assert.equal(mesh.morph!.frameCount, 3);
    near(mesh.morph!.positions, s.xyz.flat().map((x) => x / 64), 0, 'positions');
    for (let v = 0; v < mesh.vertexCount; v++) {
      const raw = s.normals[2][v];
      const zen = ((raw & 255) * Math.PI) / 128, az = ((raw >> 8) * Math.PI) / 128;
      near(mesh.morph!.normals.subarray((2 * mesh.vertexCount + v) * 3, (2 * mesh.vertexCount + v) * 3 + 3), [Math.cos(az) * Math.sin(zen), Math.sin(az) * Math.sin(zen), Math.cos(zen)], 1e-6, 'normal');
    }
  });
});

test('md3: structural problems are warnings, broken offsets FormatErrors', () => {
  const spec = smallMd3();
  spec.surfaces[1].xyz.pop();
  spec.surfaces[1].normals.pop();
  const m = readMd3(writeMd3(spec));
  assert.ok(m.warnings.some((w) => /surface "head" has 2 frames, the header says 3/.test(w)));
  const sample = new Float32Array(7 * 3);
  morphVertices(m, 2, 2, 0, sample); // clamps to the surface's last frame
  near(sample.subarray(12, 15), [-1, -1, 1 / 64], 0, 'clamped frame');

  const bytes = writeMd3(smallMd3());
  const dv = new DataView(bytes.buffer);
  const bad = (patch: (v: DataView) => void, pattern: RegExp) => {
    const b = bytes.slice();
    patch(new DataView(b.buffer));
    assert.throws(() => readMd3(b), (e: unknown) => e instanceof FormatError && pattern.test(e.message), String(pattern));
  };
  bad((v) => v.setInt32(76, -5, true), /negative/);
  bad((v) => v.setInt32(84, 1000, true), /surface|past the end/);
  const s0 = dv.getInt32(100, true);
  bad((v) => v.setInt32(s0 + 104, 0, true), /OFS_END/);
  bad((v) => v.setInt32(s0 + dv.getInt32(s0 + 88, true), 9, true), /vertex 9 outside/);
  bad((v) => v.setInt32(s0 + 80, 0x1000000, true), /past the end|claim/);
});

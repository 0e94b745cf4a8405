import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../core/binary';
import { readDpm } from '../../core/dpm/reader';
import { createPose, sampleFrames } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { asset, NO_ASSETS } from '../helpers/model-assets';
import { apply4, fromRows3x4, invertM4, mul4, near, trsM4, type M4 } from '../helpers/model-ref';
import { writeDpm, type DpmSpec } from '../helpers/model-writers';

/** Big-endian hand decoding of a DPM: bone parents, one frame's matrices, one mesh's vertices. */
function hand(bytes: Uint8Array) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (o: number) => dv.getUint32(o, false);
  const f = (o: number) => dv.getFloat32(o, false);
  const numBones = u(56), numFrames = u(64), ofsBones = u(68), ofsMeshes = u(72), ofsFrames = u(76);
  const parents = Array.from({ length: numBones }, (_, b) => dv.getInt32(ofsBones + b * 40 + 32, false));
  const local = (frame: number, b: number): M4 => {
    const o = dv.getInt32(ofsFrames + frame * 68 + 64, false) + b * 48;
    return fromRows3x4(Array.from({ length: 12 }, (_, k) => f(o + k * 4)));
  };
  const world = (frame: number, composed = true): M4[] => {
    const w: M4[] = [];
    for (let b = 0; b < numBones; b++) w.push(composed && parents[b] >= 0 ? mul4(w[parents[b]], local(frame, b)) : local(frame, b));
    return w;
  };
  const bounds = (frame: number) => Array.from({ length: 6 }, (_, k) => f(ofsFrames + frame * 68 + 32 + k * 4));
  /** Every vertex of every mesh: influences {origin, influence, bone}. */
  const vertices = () => {
    const all: { origin: number[]; influence: number; bone: number }[][] = [];
    for (let m = 0; m < u(60); m++) {
      let p = u(ofsMeshes + m * 56 + 40);
      for (let v = 0; v < u(ofsMeshes + m * 56 + 32); v++) {
        const n = u(p);
        p += 4;
        const infl = [];
        for (let i = 0; i < n; i++, p += 32) infl.push({ origin: [f(p), f(p + 4), f(p + 8)], influence: f(p + 12), bone: u(p + 28) });
        all.push(infl);
      }
    }
    return all;
  };
  const position = (w: M4[], infl: { origin: number[]; influence: number; bone: number }[]) => {
    const out = [0, 0, 0];
    for (const i of infl) {
      const m = w[i.bone];
      for (let r = 0; r < 3; r++) out[r] += m[r][0] * i.origin[0] + m[r][1] * i.origin[1] + m[r][2] * i.origin[2] + i.influence * m[r][3];
    }
    return out;
  };
  return { numBones, numFrames, parents, world, bounds, vertices, position };
}

test('dpm frame matrices are parent-relative: composed poses reproduce every frame\'s stored bounds', { skip: NO_ASSETS }, () => {
  const h = hand(asset('dpm/nexuiz/grunt.dpm'));
  const verts = h.vertices();
  const miss = (frame: number, composed: boolean) => {
    const w = h.world(frame, composed);
    const mn = [Infinity, Infinity, Infinity], mx = [-Infinity, -Infinity, -Infinity];
    for (const v of verts) {
      const p = h.position(w, v);
      for (let k = 0; k < 3; k++) {
        mn[k] = Math.min(mn[k], p[k]);
        mx[k] = Math.max(mx[k], p[k]);
      }
    }
    const b = h.bounds(frame);
    // x and y only: the exporter pads z by a constant 1.5 units.
    return Math.max(...[0, 1].flatMap((k) => [Math.abs(mn[k] - b[k]), Math.abs(mx[k] - b[3 + k])]));
  };
  for (const frame of [0, 1, 57, 150, 300, 440]) {
    assert.ok(miss(frame, true) < 0.01, `frame ${frame}: composed misses the stored bounds by ${miss(frame, true)}`);
  }
  assert.ok(Math.max(...[1, 57, 150, 300, 440].map((f) => miss(f, false))) > 5, 'stored matrices used as world matrices do not match');
});

test('dpm grunt: counts, a bone world matrix and a vertex at frame 200 (decoded by hand)', { skip: NO_ASSETS }, () => {
  const bytes = asset('dpm/nexuiz/grunt.dpm');
  const model = readDpm(bytes);
  assert.equal(model.winding, 'ccw');
  assert.equal(model.skeleton!.names.length, 74);
  assert.equal(model.frameCount, 441);
  assert.deepEqual(model.meshes.map((m) => [m.name, m.vertexCount, m.triangleCount]), [['shader0', 1989, 3029]]);
  assert.deepEqual(model.warnings, []);
  const h = hand(bytes);
  const frame = 200;
  const w = h.world(frame);
  const pose = createPose(model);
  sampleFrames(model, frame, frame, 0, pose);
  for (const b of [0, 9, 73]) near(pose.world.subarray(b * 12, b * 12 + 12), w[b].slice(0, 3).flat(), 1e-4, `bone ${b} world`);
  const out = new Float32Array(totalVertices(model) * 3);
  skinVertices(model, pose, out);
  const verts = h.vertices();
  for (const v of [0, 777, 1988]) near(out.subarray(v * 3, v * 3 + 3), h.position(w, verts[v]), 1e-4, `vertex ${v}`);
  // Bind pose (frame 0) positions are the mesh's position stream.
  const w0 = h.world(0);
  near(model.meshes[0].position.subarray(777 * 3, 778 * 3), h.position(w0, verts[777]), 1e-4, 'bind vertex 777');
});

test('dpm: small real files read (static, and the 4-vertex animation holder)', { skip: NO_ASSETS }, () => {
  const reactor = readDpm(asset('dpm/xonotic/reactor.dpm'));
  assert.deepEqual(reactor.meshes.map((m) => m.name), ['core', 'reactor']);
  assert.equal(reactor.frameCount, 1);
  const holder = readDpm(asset('dpm/nexuiz/h_chainsaw.dpm'));
  assert.equal(holder.meshes[0].vertexCount, 4);
  assert.equal(holder.skeleton!.names.length, 4);
  assert.equal(holder.frameCount, 271);
});

/** Model-space vertices skinned to bones with known world matrices; origins = influence · inverse(world) · p. */
function smallDpm(): { spec: DpmSpec; points: number[][]; weights: number[][]; worlds: M4[][] } {
  const bones = [
    { name: 'root', parent: -1, flags: 0 },
    { name: 'arm', parent: 0, flags: 0 },
    { name: 'hand', parent: 1, flags: 1 },
  ];
  const locals = [
    [trsM4([0, 0, 1], [0, 0, 0, 1], [1, 1, 1]), trsM4([1, 0, 0], [0, 0, Math.SQRT1_2, Math.SQRT1_2], [1, 1, 1]), trsM4([0, 2, 0], [Math.sin(0.3), 0, 0, Math.cos(0.3)], [1, 1, 1])],
    [trsM4([0, 0, 1.5], [0, Math.sin(0.2), 0, Math.cos(0.2)], [1, 1, 1]), trsM4([1, 0, 0], [0, 0, 0, 1], [1, 1, 1]), trsM4([0, 2, 0.5], [0, 0, Math.sin(0.4), Math.cos(0.4)], [1, 1, 1])],
  ];
  const worlds = locals.map((ls) => {
    const w: M4[] = [];
    ls.forEach((l, b) => w.push(bones[b].parent >= 0 ? mul4(w[bones[b].parent], l) : l));
    return w;
  });
  const points = [[0, 0, 0], [1, 2, 3], [-1, 0.5, 2], [0.25, -3, 1]];
  const influences = [[[0, 1]], [[1, 0.6], [2, 0.4]], [[0, 0.2], [1, 0.3], [2, 0.5]], [[2, 1]]];
  const inv = worlds[0].map(invertM4);
  const verts = points.map((p, v) =>
    influences[v].map(([bone, wgt]) => {
      const o = apply4(inv[bone], p).map((x) => x * wgt);
      return { origin: o, influence: wgt, normal: [0, 0, wgt], bone };
    }),
  );
  return {
    spec: {
      bones,
      meshes: [{ shader: 'skin0', verts, texcoords: [0, 0, 1, 0, 0, 1, 1, 1], indices: [0, 2, 1, 1, 2, 3], groupIds: [7, 8] }],
      frames: locals.map((ls, f) => ({ name: `frame${f}`, bounds: [-1, -2, -3, 1, 2, 3, 4, 5], matrices: ls.flatMap((m) => m.slice(0, 3).flat()) })),
    },
    points,
    weights: influences.map((i) => i.map(([, w]) => w)),
    worlds,
  };
}

test('dpm: a file written by the test writer reads back equal and skins exactly', () => {
  const { spec, points, worlds } = smallDpm();
  const model = readDpm(writeDpm(spec));
  assert.deepEqual(model.warnings, []);
  assert.deepEqual(model.skeleton!.names, ['root', 'arm', 'hand']);
  assert.deepEqual(Array.from(model.skeleton!.parents), [-1, 0, 1]);
  assert.deepEqual(Array.from(model.skeleton!.flags), [0, 0, 1]);
  assert.deepEqual(model.frameNames, ['frame0', 'frame1']);
  near(model.bounds!.subarray(8, 16), [-1, -2, -3, 1, 2, 3, 4, 5], 0, 'bounds');
  const mesh = model.meshes[0];
  assert.deepEqual(Array.from(mesh.indices), spec.meshes[0].indices);
  assert.deepEqual(Array.from(mesh.groupIds!), [7, 8]);
  near(mesh.texcoord!, spec.meshes[0].texcoords, 0, 'texcoords');
  assert.deepEqual(Array.from(mesh.dpm!.start), [0, 1, 3, 6, 7]);
  near(mesh.dpm!.influence, spec.meshes[0].verts.flat().map((i) => Math.fround(i.influence)), 0, 'influences');
  // Bind pose = frame 0 reproduces the model-space points.
  near(mesh.position, points.flat(), 1e-5, 'bind positions');
  // Frame 1: Σ wᵢ · world1ᵢ · inverse(world0ᵢ) · p.
  const pose = createPose(model);
  sampleFrames(model, 1, 1, 0, pose);
  const out = new Float32Array(12);
  skinVertices(model, pose, out);
  const expected = spec.meshes[0].verts.flatMap((infl, v) => {
    const acc = [0, 0, 0];
    for (const i of infl) {
      const q = apply4(mul4(worlds[1][i.bone], invertM4(worlds[0][i.bone])), points[v]);
      for (let k = 0; k < 3; k++) acc[k] += i.influence * q[k];
    }
    return acc;
  });
  near(out, expected, 1e-5, 'frame 1 positions');
  // The GPU-style top-4 influences give the same result through skin matrices.
  near(mesh.blendWeights!.subarray(6, 9), [0.5, 0.3, 0.2], 1e-6, 'vertex 2 weights, largest first');
  assert.deepEqual(Array.from(mesh.blendIndices!.subarray(6, 9)), [2, 1, 0]);
  // Halfway between frames: matrices interpolated through [t q s], never lerped as matrices.
  sampleFrames(model, 0, 1, 0.5, pose);
  for (let b = 0; b < 3; b++) {
    const r = pose.world.subarray(b * 12, b * 12 + 12);
    for (let c = 0; c < 3; c++) assert.ok(Math.abs(Math.hypot(r[c], r[4 + c], r[8 + c]) - 1) < 1e-5, 'rotation columns stay unit length');
  }
});

test('dpm: bad indices are FormatErrors; a late parent is a warning', () => {
  const { spec } = smallDpm();
  const bytes = writeDpm(spec);
  const lateParent = structuredClone(spec);
  lateParent.bones = [{ name: 'a', parent: 1, flags: 0 }, { name: 'b', parent: -1, flags: 0 }, { name: 'c', parent: 0, flags: 0 }];
  assert.ok(readDpm(writeDpm(lateParent)).warnings.some((w) => /not before them/.test(w)));
  const cycle = structuredClone(spec);
  cycle.bones = [{ name: 'a', parent: 1, flags: 0 }, { name: 'b', parent: 0, flags: 0 }, { name: 'c', parent: 0, flags: 0 }];
  assert.throws(() => readDpm(writeDpm(cycle)), (e: unknown) => e instanceof FormatError && /cycle/.test(e.message));
  const badBone = structuredClone(spec);
  badBone.meshes[0].verts[1][0].bone = 3;
  assert.throws(() => readDpm(writeDpm(badBone)), (e: unknown) => e instanceof FormatError && /bone 3 ≥ num_bones 3/.test(e.message));
  const badIndex = structuredClone(spec);
  badIndex.meshes[0].indices[4] = 4;
  assert.throws(() => readDpm(writeDpm(badIndex)), (e: unknown) => e instanceof FormatError && /vertex 4 ≥ 4/.test(e.message));
  const b = bytes.slice();
  new DataView(b.buffer).setUint32(64, 0x7fffffff, false);
  assert.throws(() => readDpm(b), FormatError);
  assert.throws(() => readDpm(bytes.subarray(0, 60)), (e: unknown) => e instanceof FormatError && /truncated DPM header/.test(e.message));
});

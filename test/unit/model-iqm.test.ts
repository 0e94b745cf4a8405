import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../core/binary';
import type { IqmDocument } from '../../core/iqm/document';
import { readIqm, readIqmDocument } from '../../core/iqm/reader';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { createPose, decodeFrame, sampleFrames } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { asset, NO_ASSETS } from '../helpers/model-assets';
import { apply4, fromRows3x4, invertM4, mul4, near, trsM4, type M4 } from '../helpers/model-ref';
import { smallIqmDocument } from '../helpers/model-writers';

function plain(doc: IqmDocument): unknown {
  // Typed arrays -> {type, values}; offsets (file positions) dropped; extension raw data of decoded
  // extensions dropped (the writer re-encodes them with new text offsets).
  return JSON.parse(
    JSON.stringify(
      {
        ...doc,
        vertexArrays: doc.vertexArrays.map((a) => ({ ...a, type: Math.min(a.type, 0x10), offset: 0, data: [a.data.constructor.name, Array.from(a.data)] })),
        extensions: doc.extensions.map((e) => ({ ...e, offset: 0, data: e.meshes || e.events || e.skins ? null : Array.from(e.data) })),
      },
      (_k, v) => (ArrayBuffer.isView(v) ? [v.constructor.name, Array.from(v as unknown as ArrayLike<number>)] : v),
    ),
  );
}

for (const version of [2, 1] as const) {
  test(`iqm v${version}: a written document reads back equal`, () => {
    const doc = smallIqmDocument(version);
    const bytes = writeIqmDocument(doc);
    const { document, warnings } = readIqmDocument(bytes);
    assert.deepEqual(warnings, []);
    assert.deepEqual(plain(document), plain(doc));
    // And a second write of what was read gives the same bytes.
    assert.deepEqual(writeIqmDocument(document), bytes);
  });
}

test('iqm: every vertex format decodes (half, normalised short, uint indices, float weights, double custom)', () => {
  const model = readIqm(writeIqmDocument(smallIqmDocument(2)));
  const body = model.meshes[0];
  const head = model.meshes[1];
  near(body.texcoord!, [1, 0, 0.5, 0.25, 0, 1, 1, 1], 0, 'half texcoords');
  near(body.normal!.subarray(0, 6), [0, 0, 1, 0, 0, 1], 1e-7, 'short normals');
  assert.equal(head.normal![2], -1, 'signed normalisation clamps -32768 to -1');
  near(body.color!.subarray(0, 4), [0, 10 / 255, 20 / 255, 30 / 255], 1e-7, 'ubyte colours');
  assert.equal(model.meshes[0].custom[0].name, 'my_custom');
  near(model.meshes[1].custom[0].data, [5.5, 6.5], 0, 'double custom array');
  // Weights: renormalised; vertex 2 (0.25, 0.25) -> (0.5, 0.5); vertex 3 all zero; vertex 4 weight 2 -> 1.
  near(body.blendWeights!.subarray(8, 12), [0.5, 0.5, 0, 0], 1e-7, 'renormalised weights');
  near(body.blendWeights!.subarray(12, 16), [0, 0, 0, 0], 0, 'unweighted vertex');
  near(head.blendWeights!.subarray(0, 4), [1, 0, 0, 0], 1e-7, 'weight 2 renormalised');
  // Vertex 5: joint 7 does not exist (3 joints): its 0.4 is dropped, the rest renormalised.
  near(head.blendWeights!.subarray(4, 8), [0.5, 0.5, 0, 0], 1e-6, 'out-of-range influence dropped');
  assert.ok(model.warnings.some((w) => /1 blend influences name a joint ≥ 3/.test(w)), model.warnings.join('\n'));
  assert.ok(model.warnings.some((w) => /1 vertices have all blend weights zero/.test(w)));
  assert.ok(model.warnings.some((w) => /non-standard vertex formats/.test(w)));
  // The head mesh's triangle uses global vertices 4, 5 -> local 0, 1.
  assert.deepEqual(Array.from(head.indices), [0, 1, 0]);
  assert.equal(model.iqm!.fteEvents![0].data, 'footstep left');
  assert.equal(model.iqm!.fteSkins!.meshes[0].skins[0].frames[1].shader, 'glow');
  assert.deepEqual(model.iqm!.extensions.map((e) => e.name), ['FTE_MESH', 'FTE_EVENT', 'FTE_SKINS', 'MY_THING']);
  assert.deepEqual(model.clips.map((c) => [c.name, c.firstFrame, c.frameCount, c.fps, c.loop]), [['idle', 0, 2, 10, true], ['wave', 2, 2, 0, false]]);
});

test('iqm v1: quaternion w is reconstructed as -sqrt(1 - x² - y² - z²)', () => {
  const doc = smallIqmDocument(1);
  const model = readIqm(writeIqmDocument(doc));
  const local = new Float32Array(model.skeleton!.names.length * 10);
  decodeFrame(model, 2, local);
  // pose 1 channels 3..5 are samples 1..3 of frame 2 (7 samples per frame).
  const s = Array.from(doc.frames.subarray(2 * 7 + 1, 2 * 7 + 4));
  const xyz = s.map((v) => -1 + (v * 2) / 65535);
  const w = -Math.sqrt(Math.max(0, 1 - xyz[0] ** 2 - xyz[1] ** 2 - xyz[2] ** 2));
  const l = Math.hypot(...xyz, w);
  near(local.subarray(13, 17), [...xyz, w].map((x) => x / l), 1e-5, 'v1 pose rotation');
  // The bind joint (v1) also gets a negative w.
  assert.ok(model.skeleton!.bindLocal[16] < 0);
});

test('iqm: hostile structure is a FormatError or a warning, never a hang', () => {
  const bytes = writeIqmDocument(smallIqmDocument(2));
  const dv = new DataView(bytes.buffer);
  // Extension list that loops back on itself.
  const loop = bytes.slice();
  const ldv = new DataView(loop.buffer);
  const first = ldv.getUint32(120, true);
  ldv.setUint32(116, 1000, true);
  ldv.setUint32(first + 12, first, true);
  const r = readIqmDocument(loop);
  assert.ok(r.warnings.some((w) => /loops back/.test(w)));
  // Inflated counts.
  for (const [field, value, pattern] of [
    [48, 0xffffffff, /vertices|vertex array/],
    [56, 0x7fffffff, /triangles/],
    [36, 0x10000000, /meshes/],
    [92, 0xffffffff, /frames|bounds/],
  ] as const) {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(field, value, true);
    assert.throws(() => readIqm(b), (e: unknown) => e instanceof FormatError && pattern.test(e.message), `field ${field}`);
  }
  // A joint whose parent is itself: a cycle.
  const c = bytes.slice();
  const ofsJoints = dv.getUint32(72, true);
  new DataView(c.buffer).setInt32(ofsJoints + 48 + 4, 1, true);
  assert.throws(() => readIqm(c), (e: unknown) => e instanceof FormatError && /cycle/.test(e.message));
  // filesize disagreeing with the length: a warning.
  const f = bytes.slice();
  new DataView(f.buffer).setUint32(20, bytes.length + 4, true);
  assert.ok(readIqm(f).warnings.some((w) => /filesize/.test(w)));
  // Truncated header.
  assert.throws(() => readIqm(bytes.subarray(0, 100)), (e: unknown) => e instanceof FormatError && e.offset === 100);
});

/** Decodes mrfixit by hand (DataView at offsets from iqm.txt) and composes with the reference path. */
function handDecode(bytes: Uint8Array, frame: number) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (o: number) => dv.getUint32(o, true);
  const f = (o: number) => dv.getFloat32(o, true);
  const numJoints = u(68), ofsJoints = u(72), numPoses = u(76), ofsPoses = u(80);
  const numChannels = u(96), ofsFrames = u(100);
  const parents: number[] = [];
  const bind: M4[] = [];
  for (let j = 0; j < numJoints; j++) {
    const o = ofsJoints + j * 48;
    parents.push(dv.getInt32(o + 4, true));
    const local = trsM4([f(o + 8), f(o + 12), f(o + 16)], [f(o + 20), f(o + 24), f(o + 28), f(o + 32)], [f(o + 36), f(o + 40), f(o + 44)]);
    bind.push(parents[j] >= 0 ? mul4(bind[parents[j]], local) : local);
  }
  const world: M4[] = [];
  let s = ofsFrames + frame * numChannels * 2;
  for (let j = 0; j < numPoses; j++) {
    const o = ofsPoses + j * 88;
    const mask = u(o + 4);
    const ch: number[] = [];
    for (let c = 0; c < 10; c++) {
      let v = f(o + 8 + c * 4);
      if (mask & (1 << c)) {
        v += dv.getUint16(s, true) * f(o + 48 + c * 4);
        s += 2;
      }
      ch.push(v);
    }
    const local = trsM4(ch.slice(0, 3), ch.slice(3, 7), ch.slice(7, 10));
    world.push(parents[j] >= 0 ? mul4(world[parents[j]], local) : local);
  }
  return { dv, bind, world, numJoints };
}

test('iqm mrfixit: counts, a joint world matrix and a skinned vertex at frame 37 (decoded by hand)', { skip: NO_ASSETS }, () => {
  const bytes = asset('iqm/mrfixit/mrfixit.iqm');
  const model = readIqm(bytes);
  assert.deepEqual(model.meshes.map((m) => [m.name, m.material, m.vertexCount, m.triangleCount]), [['Body', 'Body.tga', 1476, 2386], ['Head', 'Head.tga', 385, 602]]);
  assert.equal(model.skeleton!.names.length, 75);
  assert.equal(model.frameCount, 101);
  assert.deepEqual(model.clips.map((c) => c.name), ['idle']);
  assert.deepEqual(model.warnings, []);

  const frame = 37;
  const ref = handDecode(bytes, frame);
  const pose = createPose(model);
  sampleFrames(model, frame, frame, 0, pose);
  for (const j of [0, 20, 74]) {
    near(pose.world.subarray(j * 12, j * 12 + 12), ref.world[j].slice(0, 3).flat(), 1e-4, `joint ${j} world at frame ${frame}`);
  }

  // Vertex 1000 of the body: position, blend indices and weights straight from the vertex arrays.
  const dv = ref.dv;
  const arrays: Record<number, number> = {};
  for (let i = 0; i < dv.getUint32(44, true); i++) {
    const o = dv.getUint32(52, true) + i * 20;
    arrays[dv.getUint32(o, true)] = dv.getUint32(o + 16, true);
  }
  const v = 1000;
  const p = [0, 1, 2].map((k) => dv.getFloat32(arrays[0] + (v * 3 + k) * 4, true));
  const idx = [0, 1, 2, 3].map((k) => dv.getUint8(arrays[4] + v * 4 + k));
  const wts = [0, 1, 2, 3].map((k) => dv.getUint8(arrays[5] + v * 4 + k));
  const total = wts.reduce((a, b) => a + b, 0);
  const expected = [0, 0, 0];
  idx.forEach((j, k) => {
    if (!wts[k]) return;
    const q = apply4(mul4(ref.world[j], invertM4(ref.bind[j])), p);
    for (let c = 0; c < 3; c++) expected[c] += (wts[k] / total) * q[c];
  });
  const out = new Float32Array(totalVertices(model) * 3);
  skinVertices(model, pose, out);
  near(out.subarray(v * 3, v * 3 + 3), expected, 1e-4, `vertex ${v} at frame ${frame}`);
  // Bind pose check: the bind world from the reader equals the hand-composed one.
  near(model.skeleton!.bindWorld.subarray(50 * 12, 51 * 12), ref.bind[50].slice(0, 3).flat(), 1e-5, 'bind world joint 50');
  near(Array.from(fromRows3x4(model.skeleton!.inverseBindWorld, 50 * 12)).flat(), invertM4(ref.bind[50]).flat(), 1e-4, 'inverse bind joint 50');
});

test('iqm nuclide/logo: unaligned tables and FTE_MESH', { skip: NO_ASSETS }, () => {
  const model = readIqm(asset('iqm/nuclide/logo.iqm'));
  assert.equal(model.meshes[0].vertexCount, 8733);
  assert.ok(model.warnings.some((w) => /offset 173 is not 4-byte aligned/.test(w)));
  assert.deepEqual(model.iqm!.extensions.map((e) => [e.name, e.size]), [['FTE_MESH', 28]]);
  assert.equal(model.iqm!.fteMesh![0].contents, 0x2000000);
  assert.equal(model.iqm!.fteMesh![0].geomset, 0xffffffff);
  // The position array is aligned even though the tables are not; first vertex decoded by hand.
  const bytes = asset('iqm/nuclide/logo.iqm');
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  near(model.meshes[0].position.subarray(0, 3), [0, 1, 2].map((k) => dv.getFloat32(320 + k * 4, true)), 0, 'vertex 0');
});

test('iqm raylib_guy/guyanim: animation-only (no joints) samples from its poses', { skip: NO_ASSETS }, () => {
  const model = readIqm(asset('iqm/raylib_guy/guyanim.iqm'));
  assert.equal(model.skeleton, null);
  assert.equal(model.animation!.poseCount, 14);
  assert.equal(model.frameCount, 122);
  assert.deepEqual(model.clips.map((c) => [c.name, c.firstFrame, c.frameCount]), [['jump', 0, 61], ['dance', 61, 61]]);
  const pose = createPose(model);
  sampleFrames(model, 70, 70, 0, pose);
  // Same frames as guy.iqm (which has the joints too): the world matrices agree.
  const full = readIqm(asset('iqm/raylib_guy/guy.iqm'));
  const fullPose = createPose(full);
  sampleFrames(full, 70, 70, 0, fullPose);
  near(pose.world, fullPose.world, 1e-5, 'guyanim vs guy at frame 70');
});

test('iqm: FTE_SKINS and FTE_EVENT decode from bytes laid out by hand (FORMAT-PITFALLS §5.2)', () => {
  const doc = smallIqmDocument(2);
  // Strings the extensions refer to, carried into the text table as animation names.
  doc.anims.push({ name: 'skin_a.tga', firstFrame: 0, frameCount: 1, framerate: 0, flags: 0 }, { name: 'skin_b', firstFrame: 0, frameCount: 1, framerate: 0, flags: 0 }, { name: 'shout', firstFrame: 0, frameCount: 1, framerate: 0, flags: 0 });
  const skins = new Uint8Array(8 + 4 * 2 + 8 * 3 + 12 * 2);
  const events = new Uint8Array(32);
  doc.extensions = [{ name: 'FTE_SKINS', data: skins, offset: 0 }, { name: 'FTE_EVENT', data: events, offset: 0 }];
  const bytes = writeIqmDocument(doc);
  const dv = new DataView(bytes.buffer);
  const ofsText = dv.getUint32(32, true), numText = dv.getUint32(28, true);
  const textOffset = (s: string) => {
    for (let i = 0; i < numText; i++) {
      let ok = true;
      for (let k = 0; k <= s.length; k++) if (bytes[ofsText + i + k] !== (k < s.length ? s.charCodeAt(k) : 0)) ok = false;
      if (ok && (i === 0 || bytes[ofsText + i - 1] === 0)) return i;
    }
    throw new Error(s);
  };
  // Extension data sits after its 16-byte header; walk the list from the header.
  const ext1 = dv.getUint32(120, true);
  const skinsAt = dv.getUint32(ext1 + 8, true);
  const ext2 = dv.getUint32(ext1 + 12, true);
  const eventsAt = dv.getUint32(ext2 + 8, true);
  const w = (o: number, v: number) => dv.setUint32(o, v, true);
  // numskinframes 3, nummeshskins 2, numskins [2, 0], frames, mesh skins {first, count, interval}.
  w(skinsAt, 3); w(skinsAt + 4, 2); w(skinsAt + 8, 2); w(skinsAt + 12, 0);
  w(skinsAt + 16, textOffset('skin_a.tga')); w(skinsAt + 20, 0);
  w(skinsAt + 24, textOffset('skin_b')); w(skinsAt + 28, textOffset('shout'));
  w(skinsAt + 32, textOffset('skin_a.tga')); w(skinsAt + 36, 0);
  w(skinsAt + 40, 0); w(skinsAt + 44, 2); dv.setFloat32(skinsAt + 48, 0.5, true);
  w(skinsAt + 52, 2); w(skinsAt + 56, 1); dv.setFloat32(skinsAt + 60, 0, true);
  // Two events: {anim, timestamp, code, string}.
  w(eventsAt, 1); dv.setFloat32(eventsAt + 4, 0.25, true); w(eventsAt + 8, 42); w(eventsAt + 12, textOffset('shout'));
  w(eventsAt + 16, 0); dv.setFloat32(eventsAt + 20, 1.5, true); w(eventsAt + 24, 7); w(eventsAt + 28, 0);
  const model = readIqm(bytes);
  assert.deepEqual(model.iqm!.fteSkins, {
    meshes: [
      { skins: [{ frames: [{ texture: 'skin_a.tga', shader: '' }, { texture: 'skin_b', shader: 'shout' }], interval: 0.5 }, { frames: [{ texture: 'skin_a.tga', shader: '' }], interval: 0 }] },
      { skins: [] },
    ],
  });
  assert.deepEqual(model.iqm!.fteEvents, [{ anim: 1, timestamp: 0.25, code: 42, data: 'shout' }, { anim: 0, timestamp: 1.5, code: 7, data: '' }]);
  assert.deepEqual(model.iqm!.extensions.map((e) => [e.name, e.size]), [['FTE_SKINS', 64], ['FTE_EVENT', 32]]);
});

test('iqm: names pointing into one long string are refused instead of decoded again and again', () => {
  const doc = smallIqmDocument(2);
  const long = 'x'.repeat(5000);
  doc.meshes = Array.from({ length: 40 }, (_, i) => ({ name: i === 0 ? long : `m${i}`, material: '', firstVertex: 0, vertexCount: 0, firstTriangle: 0, triangleCount: 0 }));
  doc.extensions = [];
  const bytes = writeIqmDocument(doc);
  const dv = new DataView(bytes.buffer);
  const ofsMeshes = dv.getUint32(40, true);
  const ofsName0 = dv.getUint32(ofsMeshes, true);
  assert.equal(readIqm(bytes).meshes[0].name, long);
  // Every mesh name and material starts one byte further into the long string: 80 × ~5000 characters.
  for (let i = 0; i < 40; i++) {
    dv.setUint32(ofsMeshes + i * 24, ofsName0 + i, true);
    dv.setUint32(ofsMeshes + i * 24 + 4, ofsName0 + 40 + i, true);
  }
  assert.throws(() => readIqm(bytes), (e: unknown) => e instanceof FormatError && /names overlap/.test(e.message));
});

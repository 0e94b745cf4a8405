// Unit tests of the compiler's building blocks: encoders (IQE-SEMANTICS.md §4.8.2), blend weights
// (§4.8.4), the text table (§4.12), the layout worked example (§4.13), the vertex-cache rank
// terms (§4.5) and the UTF-8 encoder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blendWeightBytes, signedNormalized, toHalf, unsignedNormalized, writeComponent, Format } from '../../core/compile/encode';
import { blendCombo, gatherInput } from '../../core/compile/input';
import { IqeDocument } from '../../core/iqe/document';
import { TextTable } from '../../core/compile/text';
import { encodeUtf8 } from '../../core/utf8';
import { vertexScore } from '../../core/compile/vcache';
import { fallbackTangent } from '../../core/math/tangent';
import { PairTable } from '../../core/compile/classify';
import { assembleMeshes } from '../../core/compile/meshes';
import { weldCorners } from '../../core/compile/smooth';
import { compileText, IQE_HEADER, readString } from '../helpers/compile-iqm';

function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

test('half: truncating conversion, subnormals, overflow and NaN to infinity', () => {
  assert.equal(halfToNumber(toHalf(3.14159)), 3.140625);
  assert.equal(toHalf(1), 0x3c00);
  assert.equal(toHalf(-2), 0xc000);
  assert.equal(toHalf(0), 0);
  assert.equal(toHalf(-0), 0x8000);
  // 1 + 2^-11 would round up to 1 + 2^-10 when rounding; the reference truncates.
  assert.equal(toHalf(1 + 2 ** -11 + 2 ** -12), 0x3c00);
  assert.equal(toHalf(2 ** -24), 0x0001);
  assert.equal(toHalf(2 ** -30), 0);
  assert.equal(toHalf(65536), 0x7c00);
  assert.equal(toHalf(NaN) & 0x7fff, 0x7c00);
});

test('normalised integer encoders (§4.8.2 examples)', () => {
  assert.equal(signedNormalized(1, 255), 127);
  assert.equal(signedNormalized(-1, 255), -128);
  assert.equal(signedNormalized(-0.001, 255), -1);
  // "0.7071 -> 23170" of §4.8.2 is sqrt(1/2); 0.7071 itself gives 23169 (floor of 23169.9).
  assert.equal(signedNormalized(Math.SQRT1_2, 65535), 23170);
  assert.equal(signedNormalized(0.7071, 65535), 23169);
  assert.equal(signedNormalized(0, 255), 0);
  assert.equal(signedNormalized(5, 255), 127);
  assert.equal(unsignedNormalized(1, 255), 255);
  assert.equal(unsignedNormalized(0.5, 255), 128);
  assert.equal(unsignedNormalized(-3, 255), 0);
  assert.equal(unsignedNormalized(0.7, 65535), 45875);
  assert.equal(unsignedNormalized(1, 4294967295), 4294967295);
  const view = new DataView(new ArrayBuffer(8));
  writeComponent(view, 0, Format.Float, 0.1);
  assert.equal(view.getFloat32(0, true), Math.fround(0.1));
  writeComponent(view, 0, Format.Double, 0.1);
  assert.equal(view.getFloat64(0, true), 0.1);
  writeComponent(view, 0, Format.Short, -1);
  assert.equal(view.getInt16(0, true), -32768);
});

function blend(pairs: number[]): { bones: number[]; weights: number[]; bytes: number[] } {
  const bones = new Uint8Array(4);
  const weights = new Float64Array(4);
  blendCombo(Float64Array.from(pairs), 0, pairs.length, bones, weights, 0);
  const bytes = new Uint8Array(4);
  blendWeightBytes(weights, 0, bytes, 0);
  return { bones: [...bones], weights: [...weights], bytes: [...bytes] };
}

test('blend weights: top 4, normalisation and the exact-255 rule (§4.8.4 examples)', () => {
  assert.deepEqual(blend([0, 0.5, 1, 0.5]).bytes, [127, 128, 0, 0]);
  const five = blend([0, 0.5, 1, 0.5, 2, 0.5, 3, 0.5, 4, 0.5]);
  assert.deepEqual(five.bytes, [63, 64, 64, 64]);
  assert.deepEqual(five.bones, [0, 1, 2, 3]);
  const mixed = blend([1, 0.1, 2, 0.2, 3, 0.3, 4, 0.15, 5, 0.25]);
  assert.deepEqual(mixed.bones, [3, 5, 2, 4]);
  assert.deepEqual(mixed.bytes, [84, 71, 57, 43]);
  assert.deepEqual(blend([0, 0.3937, 1, 0.3937, 2, 0.2125]).bytes, [101, 100, 54, 0]);
  // Weights <= 0.001 are dropped; no weight at all gives zeros; bone indices wrap to a byte.
  assert.deepEqual(blend([0, 0.001, 1, -1]).bytes, [0, 0, 0, 0]);
  assert.deepEqual(blend([300, 1]).bones, [44, 0, 0, 0]);
  assert.deepEqual(blend([7, 2]).weights, [1, 0, 0, 0]);
});

test('vertex-cache rank terms equal the glibc powf table of §4.5 (B7: 0 from rank 32)', () => {
  const hex: Record<number, string> = {
    3: '0x1p+0', 4: '0x1.e5bf32p-1', 5: '0x1.cbf55ep-1', 6: '0x1.b2a4bp-1', 7: '0x1.99cf76p-1', 8: '0x1.817824p-1',
    9: '0x1.69a156p-1', 10: '0x1.524dcap-1', 11: '0x1.3b8078p-1', 12: '0x1.253c88p-1', 13: '0x1.0f855ep-1',
    14: '0x1.f4bd44p-2', 15: '0x1.cb989cp-2', 16: '0x1.a3a556p-2', 17: '0x1.7cecep-2', 18: '0x1.577994p-2',
    19: '0x1.3356d8p-2', 20: '0x1.109166p-2', 21: '0x1.de6f1ap-3', 22: '0x1.9eb2fp-3', 23: '0x1.62138p-3',
    24: '0x1.28bc06p-3', 25: '0x1.e5bf34p-4', 26: '0x1.817824p-4', 27: '0x1.253c84p-4', 28: '0x1.a3a55ap-5',
    29: '0x1.109166p-5', 30: '0x1.28bbfap-6', 31: '0x1.a3a56cp-8',
  };
  const parseHex = (s: string): number => {
    const m = /^0x1(?:\.([0-9a-f]+))?p([+-]\d+)$/.exec(s)!;
    const frac = m[1] ? parseInt(m[1], 16) / 16 ** m[1].length : 0;
    return (1 + frac) * 2 ** Number(m[2]);
  };
  const valence = vertexScore(1, -1);
  assert.equal(valence, 2);
  for (let rank = 3; rank <= 31; rank++) {
    assert.equal(vertexScore(1, rank), Math.fround(valence + parseHex(hex[rank])), `rank ${rank}`);
  }
  for (let rank = 32; rank <= 34; rank++) assert.equal(vertexScore(1, rank), valence, `rank ${rank} (B7)`);
  assert.equal(vertexScore(4, 0), Math.fround(Math.fround(2 * Math.fround(4 ** -0.5)) + 0.75));
  assert.equal(vertexScore(0, 0), -1);
});

test('text table: empty until first share, "" at 0, unique strings in order, UTF-8', () => {
  const table = new TextTable();
  assert.equal(table.length, 0);
  assert.equal(table.share('A'), 1);
  assert.equal(table.share(''), 0);
  assert.equal(table.share('M'), 3);
  assert.equal(table.share('A'), 1);
  assert.equal(table.share('é'), 5);
  assert.equal(table.length, 8);
  const out = new Uint8Array(8);
  table.write(out, 0);
  assert.deepEqual([...out], [0, 0x41, 0, 0x4d, 0, 0xc3, 0xa9, 0]);
});

test('UTF-8 encoder', () => {
  assert.deepEqual([...encodeUtf8('aé€😀')], [...Buffer.from('aé€😀', 'utf8')]);
  assert.deepEqual([...encodeUtf8('\ud800x')], [0xef, 0xbf, 0xbd, 0x78]);
});

test('layout: the worked example of §4.13 is 344 bytes', () => {
  const iqe = IQE_HEADER + 'mesh A\nmaterial M\n' +
    'vp 0 0 0\nvn 0 0 1\nvp 1 0 0\nvn 0 0 1\nvp 0 1 0\nvn 0 0 1\nvp 1 1 0\nvn 0 0 1\nfa 0 1 2\nfa 2 1 3\n';
  const { file } = compileText(iqe);
  const h = file.header;
  assert.equal(file.bytes.length, 344);
  assert.equal(h.filesize, 344);
  assert.equal(h.ofs_text, 124);
  assert.equal(h.num_text, 8);
  assert.equal(h.ofs_meshes, 132);
  assert.equal(h.ofs_vertexarrays, 156);
  assert.equal(file.arrays[0].offset, 200);
  assert.equal(file.arrays[1].offset, 248);
  assert.equal(h.ofs_triangles, 296);
  assert.equal(h.ofs_adjacency, 320);
  assert.equal(readString(file.text, 1), 'A');
  assert.deepEqual(file.meshes[0], { name: 'A', material: 'M', firstVertex: 0, vertexCount: 4, firstTriangle: 0, triangleCount: 2 });
  // Unused offsets are 0.
  for (const k of ['ofs_joints', 'ofs_poses', 'ofs_anims', 'ofs_frames', 'ofs_bounds', 'ofs_comment', 'ofs_extensions'] as const) assert.equal(h[k], 0);
});

test('layout: a file with vertices but no faces is 128 bytes; comments are NUL-terminated and padded', () => {
  const { file } = compileText(IQE_HEADER + 'vp 0 0 0\nvp 1 0 0\n');
  assert.equal(file.bytes.length, 128);
  const withComment = compileText(IQE_HEADER + 'vp 0 0 0\ncomment\nhello é\n').file;
  const h = withComment.header;
  assert.equal(h.num_comment, 12);
  assert.equal(h.ofs_comment, 128);
  assert.deepEqual([...withComment.bytes.subarray(128)], [...Buffer.from('hello é\n\0\0\0', 'utf8')]);
});

test('B8 fallback tangent: the axis where the normal is smallest, orthogonalised', () => {
  const out = new Float64Array(4);
  fallbackTangent(out, 0, 0, 0, 1);
  assert.deepEqual([...out], [1, 0, 0, 1]);
  fallbackTangent(out, 0, 1, 0, 0);
  assert.deepEqual([...out], [0, 1, 0, 1]);
  fallbackTangent(out, 0, 0, 0, 0);
  assert.deepEqual([...out], [1, 0, 0, 1]);
  const s = Math.SQRT1_2;
  fallbackTangent(out, 0, s, 0, s);
  assert.deepEqual([...out], [0, 1, 0, 1]);
});

test('frame poses: seven values each while every scale is 1; the first other scale gives the earlier poses theirs', () => {
  const frames = (second: string): string =>
    IQE_HEADER + 'joint a -1\npq 0 0 0 0 0 0 1\njoint b 0\npq 1 0 0 0 0 0 1\nanimation x\n' +
    'frame\npq 0.5 0 0 0 0 0 1\npq 1 0 0 0 0 0 1 1 1 1\n' + `frame\npq 0 0 0 0 0 0 1\n${second}\n`;
  const gather = (text: string): ReturnType<typeof gatherInput> => gatherInput(text, new IqeDocument(text).parsedChunks);
  // Values with -0 as 0 (quaternions are flipped to w <= 0).
  const values = (a: Float64Array): number[] => Array.from(a, (v) => v + 0);
  const unit = gather(frames('pq 2 0 0 0 0 0 1'));
  assert.equal(unit.framePoseStride, 7);
  assert.deepEqual(values(unit.framePoses), [0.5, 0, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, 2, 0, 0, 0, 0, 0, -1]);
  const scaled = gather(frames('pq 2 0 0 0 0 0 1 1 3 1'));
  assert.equal(scaled.framePoseStride, 10);
  assert.deepEqual(Array.from(scaled.framePoseStart), [0, 2, 4]);
  assert.deepEqual(values(scaled.framePoses.subarray(0, 10)), [0.5, 0, 0, 0, 0, 0, -1, 1, 1, 1]);
  assert.deepEqual(values(scaled.framePoses.subarray(30, 40)), [2, 0, 0, 0, 0, 0, -1, 1, 3, 1]);
  // The compiled channels are the same either way for the frames they share.
  const a = compileText(frames('pq 2 0 0 0 0 0 1 1 1 1')).file;
  const b = compileText(frames('pq 2 0 0 0 0 0 1')).file;
  assert.ok(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), 'an explicit scale of 1 compiles as the 7-value form');
});

test('PairTable: numbers pairs in insertion order; clear() forgets them, across growth, and numbering starts again', () => {
  const table = new PairTable(4, true);
  for (let round = 0; round < 3; round++) {
    const n = round === 1 ? 1000 : 10; // the second round grows the table
    for (let i = 0; i < n; i++) assert.equal(table.get(i, i * 7 + round), i);
    for (let i = 0; i < n; i++) assert.equal(table.get(i, i * 7 + round), i, 'a pair already in keeps its number');
    assert.equal(table.find(n, 0), -1);
    table.clear();
    assert.equal(table.size, 0);
    for (let i = 0; i < n; i++) assert.equal(table.find(i, i * 7 + round), -1, `round ${round}: pair ${i} is gone after clear()`);
  }
});

test('assembleMeshes: each mesh keeps as many source and weld entries as it has vertices (20,000 one-triangle meshes held 800 MB of growable arrays)', () => {
  let text = IQE_HEADER + 'mesh big\n';
  for (let y = 0; y < 20; y++) for (let x = 0; x < 20; x++) text += `vp ${x} ${y} 0\n`;
  for (let y = 0; y < 19; y++) for (let x = 0; x < 19; x++) text += `fm ${20 * y + x} ${20 * y + x + 1} ${20 * y + x + 20}\n`;
  for (let i = 0; i < 50; i++) text += `mesh m${i}\nvp 0 0 ${i}\nvp 1 0 ${i}\nvp 0 1 ${i}\nfm 0 1 2\n`;
  const input = gatherInput(text, new IqeDocument(text).parsedChunks);
  const meshes = assembleMeshes(input, weldCorners(input));
  assert.equal(meshes.length, 51);
  for (const mesh of meshes) {
    assert.equal(mesh.source.length, mesh.weld.length);
    assert.equal(mesh.source.buffer.byteLength, 4 * mesh.source.length, `${mesh.name}: its own array, of its size`);
    assert.equal(mesh.weld.buffer.byteLength, 4 * mesh.weld.length, `${mesh.name}: its own array, of its size`);
    assert.equal(Math.max(...mesh.triangles) + 1, mesh.source.length, `${mesh.name}: every vertex is used`);
  }
  assert.equal(meshes[0].source.length, 399, 'the big mesh: every grid vertex but the corner (19, 19), which no face uses');
});

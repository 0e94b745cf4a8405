// Several inputs in one compile (core/compile/merge.ts, IQE-SEMANTICS.md §4.1, §4.9, §4.10): a mesh
// file plus animation files gives the bytes of one file that holds the same animations; per-input
// options apply to their input; an animation file with another skeleton has its poses matched by
// position (extra dropped, missing the identity) and a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, compileModel } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { ingestText } from '../../core/compile/ingest';
import type { SourceModel } from '../../core/compile/source';
import { mergeInputs } from '../../core/compile/merge';
import { parseIqm } from '../helpers/compile-iqm';

function inputOf(text: string): SourceModel {
  const result = ingestText(text);
  assert.ok(result.ok, 'no errors');
  return result.input;
}

const HEADER = '# Inter-Quake Export\n';
const SKELETON = 'joint root -1\njoint arm 0\njoint hand 1\npq 0 0 0 0 0 0 -1\npq 0 0 1 0 0 0 -1\npq 0 0 1 0 0 0 -1\n';
const MESH = 'mesh body\nmaterial skin\n' + [0, 1, 2, 3].map((i) => `vp ${i % 2} ${Math.floor(i / 2)} ${i}\nvt ${i % 2} ${Math.floor(i / 2)}\nvb ${i % 3} 0.75 ${(i + 1) % 3} 0.25\n`).join('') + 'fm 0 1 2\nfm 1 3 2\n';

function animation(name: string, frames: number, joints = 3, rate = 15): string {
  let s = `animation ${name}\nframerate ${rate}\n`;
  for (let f = 0; f < frames; f++) {
    s += 'frame\n';
    for (let j = 0; j < joints; j++) s += `pq 0 ${(0.1 * f).toFixed(2)} ${j === 0 ? 0 : 1} 0 0 ${(0.05 * f * (j + 1)).toFixed(3)} -${Math.sqrt(1 - (0.05 * f * (j + 1)) ** 2).toFixed(6)}\n`;
  }
  return s;
}

test('merge: mesh file + animation files = one file with the same animations, byte for byte', () => {
  const one = inputOf(HEADER + SKELETON + MESH + animation('idle', 3) + animation('walk', 5) + animation('run', 4));
  const expected = compileModel(one, {}).bytes;
  const parts = [HEADER + SKELETON + MESH + animation('idle', 3), HEADER + SKELETON + animation('walk', 5), HEADER + SKELETON + animation('run', 4)];
  const merged = mergeInputs(parts.map((text) => ({ input: inputOf(text), options: {} })));
  assert.deepEqual(merged.notes, []);
  const bytes = compileModel(merged.input, {}).bytes;
  assert.ok(Buffer.from(bytes).equals(Buffer.from(expected)), 'same bytes');
});

test('merge: per-input options, and an animation file with another skeleton', () => {
  const parts = [
    { input: inputOf(HEADER + SKELETON + MESH), options: {} },
    { input: inputOf(HEADER + SKELETON + animation('cycle', 6)), options: { name: 'walk', fps: 30, loop: true, start: 1, end: 3 } },
    // Two joints only: the third pose of each frame is the identity.
    { input: inputOf(HEADER + 'joint root -1\njoint arm 0\npq 0 0 0 0 0 0 -1\npq 0 0 1 0 0 0 -1\n' + animation('wave', 2, 2)), options: {} },
  ];
  const merged = mergeInputs(parts);
  assert.deepEqual(merged.notes.map((n) => [n.part, n.diagnostic.code]), [[2, 'input-joints-mismatch']]);
  const a = merged.input.animations;
  assert.deepEqual(a.map((x) => [x.name, x.firstFrame, x.frameCount, x.framerate, x.flags]), [['walk', 0, 3, 30, 1], ['wave', 3, 2, 15, 0]]);
  // Frames 1..3 of the cycle (--end 3 counts from the first frame, then --start 1).
  assert.equal(merged.input.framePoses[merged.input.framePoseStart[0] * 10 + 1], 0.1);
  const wave = merged.input.framePoseStart[3];
  assert.deepEqual(Array.from(merged.input.framePoses.subarray(10 * (wave + 2), 10 * (wave + 3))), [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
  const file = parseIqm(compileModel(merged.input, {}).bytes);
  assert.equal(file.header.num_frames, 5);
  assert.equal(file.header.num_joints, 3);
  assert.equal(file.header.num_anims, 2);
});

test('merge: an animation input before the mesh input is warned about; a second mesh input replaces the first', () => {
  const anim = { input: inputOf(HEADER + SKELETON + animation('idle', 2)), options: {} };
  const mesh = { input: inputOf(HEADER + SKELETON + MESH), options: {} };
  const merged = mergeInputs([anim, mesh]);
  assert.deepEqual(merged.notes.map((n) => [n.part, n.diagnostic.code]), [[0, 'input-order']]);
  assert.equal(parseIqm(compileModel(merged.input, {}).bytes).header.num_frames, 2);
  const other = { input: inputOf(HEADER + SKELETON + MESH.replace('mesh body', 'mesh other') + 'fm 0 2 3\n'), options: {} };
  const twoMeshes = mergeInputs([{ input: inputOf(HEADER + SKELETON + MESH), options: {} }, other]);
  assert.deepEqual(twoMeshes.notes.map((n) => [n.part, n.diagnostic.code]), [[1, 'input-mesh-replaced']]);
  assert.equal(parseIqm(compileModel(twoMeshes.input, {}).bytes).header.num_triangles, 3);
});

test('compile() of several sources (the editor with iqmTools.compile.animationFiles): merged bytes; an animation text with errors is named', () => {
  const texts = [HEADER + SKELETON + MESH + animation('idle', 3), HEADER + SKELETON + animation('walk', 5)];
  const expected = compileModel(inputOf(HEADER + SKELETON + MESH + animation('idle', 3) + animation('walk', 5)), { scale: 2 }).bytes;
  const result = compile(texts.map((t) => textSource(t)), { scale: 2 });
  assert.equal(result.failed, -1);
  assert.ok(result.bytes && Buffer.from(result.bytes).equals(Buffer.from(expected)), 'same bytes');
  const broken = compile([texts[0], HEADER + SKELETON + 'animation bad\nframe\npq 0 0 0 0 0 0 0\n'].map((t) => textSource(t)));
  assert.equal(broken.failed, 1);
  assert.equal(broken.bytes, undefined);
  const source = compile([HEADER + 'vp 0 0 0\nfa 0 0 4\n', texts[1]].map((t) => textSource(t)));
  assert.equal(source.failed, 0);
  assert.equal(source.bytes, undefined);
  assert.ok(source.diagnostics.some((d) => d.source === 0 && d.diagnostic.code === 'face-index-range'));
});

// Convert to IQE (issue 14): every model written as IQE by core/iqe/writer.ts and compiled back by
// our compiler is the same model, seen through the semantic diff (core/compare/diff.ts) and the
// CPU skinning reference (core/model/sample.ts, skin.ts). Real files from ../shared (skipped where
// absent); the edge cases are generated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSourceText } from '../helpers/compile-iqm';
import { validateIqe } from '../../core/iqe/document';
import { fallbackTangent } from '../../core/math/tangent';
import { diffModels } from '../../core/compare/diff';
import { formatFloat32, IqeWriteError, writeIqe } from '../../core/iqe/writer';
import type { IqmDocument } from '../../core/iqm/document';
import { readIqm } from '../../core/iqm/reader';
import { writeIqmDocument } from '../helpers/iqm-writer';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import { createPose, sampleFrames } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { ASSETS, NO_ASSETS, SHARED } from '../helpers/model-assets';
import { smallIqmDocument, writeDpm, writeMd3, type DpmSpec } from '../helpers/model-writers';
import { withTempDir } from '../helpers/temp-dir';

/** Model → IQE → our compile → Model; the IQE must compile without errors. */
function roundTrip(model: Model, animations: { label: string; model: Model }[] = []): { back: Model; text: string; warnings: string[] } {
  const { text, warnings } = writeIqe(model, { animations });
  const result = compileSourceText(text);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors.map((d) => `${d.range.line + 1}: ${d.message}`), [], 'the IQE compiles');
  assert.ok(result.bytes);
  return { back: readModel(result.bytes), text, warnings };
}

/** Every shared IQM: the assets and the reference compiler outputs. */
function sharedIqms(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.iqm')) out.push(p);
    }
  };
  walk(join(ASSETS, 'iqm'));
  walk(join(SHARED, 'reference'));
  return out.sort();
}

/** The model with each NaN tangent replaced by the compile's fallback (what the writer writes for it); the count replaced. */
function withFallbackTangents(model: Model): number {
  let replaced = 0;
  const t = new Float64Array(4);
  for (const m of model.meshes) {
    if (!m.tangent) continue;
    const tangent = m.tangent.slice();
    for (let v = 0; v < m.vertexCount; v++) {
      if ([0, 1, 2, 3].every((k) => Number.isFinite(tangent[4 * v + k]))) continue;
      const n = m.normal;
      fallbackTangent(t, 0, n ? n[3 * v] : 0, n ? n[3 * v + 1] : 0, n ? n[3 * v + 2] : 1);
      tangent.set(t, 4 * v);
      replaced++;
    }
    m.tangent = tangent;
  }
  return replaced;
}

/** Per frame, the largest distance between stored bounds (mins, maxs) and the box of the model's skinned vertices. */
function boundsError(bounds: Float32Array, model: Model): number {
  const pose = createPose(model);
  const p = new Float32Array(totalVertices(model) * 3);
  let worst = 0;
  for (let f = 0; f < model.frameCount; f++) {
    sampleFrames(model, f, f, 0, pose);
    skinVertices(model, pose, p);
    for (let k = 0; k < 3; k++) {
      let lo = Infinity, hi = -Infinity;
      for (let i = k; i < p.length; i += 3) {
        lo = Math.min(lo, p[i]);
        hi = Math.max(hi, p[i]);
      }
      worst = Math.max(worst, Math.abs(bounds[8 * f + k] - lo), Math.abs(bounds[8 * f + 3 + k] - hi));
    }
  }
  return worst;
}

test('convert: IQM → IQE → IQM is semantically equal for every shared IQM', { skip: NO_ASSETS }, (t) => {
  const files = sharedIqms();
  assert.ok(files.length >= 20, `found ${files.length} IQMs`);
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    let original: Model;
    try {
      original = readModel(bytes);
    } catch {
      continue; // the invalid/ folder: bad input is the CLI test's
    }
    const name = file.slice(SHARED.length + 1);
    const { back, warnings } = roundTrip(original);
    // IQE cannot say NaN: the writer puts the compile's fallback there (and says so).
    const replaced = withFallbackTangents(original);
    if (replaced) assert.ok(warnings.some((w) => w.startsWith(`${replaced} tangent`)), `${name}: ${warnings.join('; ')}`);
    // MD3 content in an .iqm (mislabeled/): frame 0 only, tangents generated; its own test is below.
    if (original.format === 'md3') continue;
    const differences = diffModels(original, back);
    const other = differences.filter((d) => d.section !== 'bounds');
    assert.deepEqual(other, [], `${name}: ${JSON.stringify(other)}`);
    if (differences.length > 0) {
      // The compile recomputes bounds from the skinned vertices. Where the file's own bounds are
      // not that box (the reference compiler counts unused vertices, B15, and poses before
      // quantisation), the new ones must be it, within the quaternion rounding the compile keeps (B6).
      let extent = 0;
      for (let i = 0; i < back.bounds!.length; i += 8) extent = Math.max(extent, back.bounds![i + 7]);
      const ours = boundsError(back.bounds!, original);
      const theirs = boundsError(original.bounds!, original);
      t.diagnostic(`${name}: bounds differ; the file's are off its skinned box by up to ${theirs.toPrecision(3)}, the recompiled ones by ${ours.toPrecision(3)} (extent ${extent.toPrecision(3)})`);
      assert.ok(ours <= 3e-4 * extent, `${name}: recompiled bounds off the skinned box by ${ours}`);
      assert.ok(theirs > ours, `${name}: the file's bounds (${theirs}) are closer to the skinned box than ours (${ours})`);
    }
  }
});

test('convert: a generated IQM with every section, v2 and v1: formats, custom array, comment and animations survive', () => {
  for (const version of [2, 1] as const) {
    const doc = smallIqmDocument(version);
    // The mesh of the degenerate triangle (4 5 4) is left out here: its own case is below.
    doc.meshes = [doc.meshes[0]];
    doc.triangles = doc.triangles.subarray(0, 6);
    const original = readIqm(writeIqmDocument(doc));
    const { back, text, warnings } = roundTrip(original);
    for (const line of ['vertexarray texcoord half 2', 'vertexarray normal short 3', 'vertexarray blendindexes uint 4', 'vertexarray blendweights float 4', 'vertexarray custom0 double 1 "my_custom"']) {
      assert.ok(text.includes(`\n${line}\n`), `v${version}: ${line}`);
    }
    assert.ok(!text.includes('vertexarray color'), 'ubyte RGBA colour is the default: no declaration');
    assert.ok(text.endsWith('\ncomment\nwritten by the iqm-tools tests'), 'the comment section, verbatim at the end');
    assert.deepEqual(
      back.iqm!.vertexArrays.map((a) => `${a.name} ${a.format} ${a.size}`),
      ['position float 3', 'texcoord half 2', 'normal short 3', 'tangent float 4', 'blendindexes uint 4', 'blendweights float 4', 'color ubyte 4', 'my_custom double 1'],
    );
    assert.equal(back.iqm!.comment, original.iqm!.comment);
    for (const ext of ['FTE_MESH', 'FTE_EVENT', 'FTE_SKINS', 'MY_THING']) assert.ok(warnings.some((w) => w.includes(`extension ${ext}`)), ext);
    assert.ok(warnings.some((w) => /no tangents: the compile generates them/.test(w)));
    // The only differences: the tangents the compile adds, and the generated document's made-up bounds.
    for (const d of diffModels(original, back)) {
      assert.ok(d.section === 'bounds' || /only one file has tangents|differ only in tangents/.test(d.message), `v${version}: ${d.section}: ${d.message}`);
    }
    // Stored integers come back exactly: the colours byte for byte, the short normals as written.
    assert.deepEqual(Array.from(back.meshes[0].color!), Array.from(original.meshes[0].color!));
    assert.deepEqual(Array.from(back.meshes[0].custom[0].data), Array.from(original.meshes[0].custom[0].data));
    assert.equal(back.clips.map((c) => `${c.name} ${c.firstFrame} ${c.frameCount} ${c.fps} ${c.loop}`).join(', '), 'idle 0 2 10 true, wave 2 2 0 false');
  }
});

/** An IQM document with one custom array per format, to check each encoding comes back exact. */
function formatsDocument(): IqmDocument {
  const doc = smallIqmDocument(2);
  doc.meshes = [{ name: 'm', material: 'x', firstVertex: 0, vertexCount: 6, firstTriangle: 0, triangleCount: 2 }];
  doc.triangles = new Uint32Array([0, 1, 2, 3, 4, 5]);
  doc.adjacency = null;
  doc.extensions = [];
  const arrays = doc.vertexArrays.filter((a) => a.type < 4);
  const custom = (name: string, format: number, data: IqmDocument['vertexArrays'][number]['data']) => ({ type: 0x10, name, flags: 0, format, size: 2, data, offset: 0 });
  doc.vertexArrays = [
    ...arrays,
    { type: 6, name: 'color', flags: 0, format: 1, size: 3, data: new Uint8Array([0, 1, 2, 127, 128, 254, 255, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]), offset: 0 },
    custom('b', 0, new Int8Array([-128, -127, -1, 0, 1, 127, 5, -5, 64, -64, 100, -100])),
    custom('ub', 1, new Uint8Array([0, 1, 254, 255, 128, 127, 3, 4, 5, 6, 7, 8])),
    custom('s', 2, new Int16Array([-32768, -32767, -1, 0, 1, 32767, 5, -5, 640, -640, 10000, -10000])),
    custom('us', 3, new Uint16Array([0, 1, 65534, 65535, 32768, 32767, 3, 4, 5, 6, 7, 8])),
    custom('i', 4, new Int32Array([-2147483648, 2147483647, -1, 0, 1, 123456789, 5, -5, 64, -64, 100, -100])),
    custom('ui', 5, new Uint32Array([0, 1, 4294967295, 4294967294, 2147483648, 123456789, 3, 4, 5, 6, 7, 8])),
    custom('h', 6, new Uint16Array([0x3c00, 0xbc00, 0x0001, 0x7bff, 0x8000, 0x3555, 1, 2, 3, 4, 5, 6])),
    custom('f', 7, new Float32Array([0.1, -0.2, 1e-30, 3.4e38, -0, 1 / 3, 1, 2, 3, 4, 5, 6])),
    custom('d', 8, new Float64Array([0.1, -0.2, 1e-30, 1e30, -0, 1 / 3, 1, 2, 3, 4, 5, 6])),
  ];
  return doc;
}

test('convert: every stored vertex format comes back as the same values (custom arrays of each format, a ubyte RGB colour)', () => {
  const original = readIqm(writeIqmDocument(formatsDocument()));
  const { back, text } = roundTrip(original);
  assert.ok(text.includes('\nvertexarray color ubyte 3\n'), 'a ubyte RGB colour stays ubyte, 3 components');
  for (const [k, f] of ['byte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'half', 'float', 'double'].entries()) {
    assert.ok(text.includes(`\nvertexarray custom${k} ${f} 2 "${['b', 'ub', 's', 'us', 'i', 'ui', 'h', 'f', 'd'][k]}"\n`), f);
  }
  assert.deepEqual(back.iqm!.vertexArrays.filter((a) => a.type >= 6).map((a) => `${a.name} ${a.format} ${a.size}`), original.iqm!.vertexArrays.filter((a) => a.type >= 6).map((a) => `${a.name} ${a.format} ${a.size}`));
  // The compile reorders vertices: compare per vertex found by position.
  const key = (m: Model, v: number): string => Array.from(m.meshes[0].position.subarray(3 * v, 3 * v + 3)).join(',');
  const byKey = new Map<string, number>();
  for (let v = 0; v < back.meshes[0].vertexCount; v++) byKey.set(key(back, v), v);
  for (let v = 0; v < original.meshes[0].vertexCount; v++) {
    const w = byKey.get(key(original, v));
    assert.ok(w !== undefined, `vertex ${v}`);
    for (const [i, c] of original.meshes[0].custom.entries()) {
      const d = back.meshes[0].custom.find((x) => x.name === c.name)!;
      // Exact except where the reader's decoding is not one-to-one: int/uint in float32, byte -128 and -127 both -1.
      const exact = !['i', 'ui'].includes(c.name);
      for (let k = 0; k < 2; k++) {
        const a = c.data[2 * v + k], b = d.data[2 * w! + k];
        if (exact) assert.ok(Object.is(a, b) || a === b, `${c.name}[${v}].${k}: ${a} → ${b} (array ${i})`);
        else assert.ok(Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(a)), `${c.name}[${v}].${k}: ${a} → ${b}`);
      }
    }
    for (let k = 0; k < 4; k++) assert.equal(back.meshes[0].color![4 * w! + k], original.meshes[0].color![4 * v + k]);
  }
  // Besides the values above: the tangents the compile adds (the document has none) and its made-up bounds.
  assert.deepEqual(diffModels(original, back).filter((d) => d.section !== 'bounds' && !/only one file has tangents|differ only in tangents/.test(d.message)), []);
});

test('convert: numbers are the shortest decimals that read back as the same float32', () => {
  const cases: [number, string][] = [[0, '0'], [-0, '-0'], [1, '1'], [0.1, '0.1'], [Math.fround(0.1), '0.1'], [1 / 3, '0.33333334'], [1e-30, '1e-30'], [3.4e38, '3.4e+38'], [-2.5, '-2.5'], [16777217, '16777216']];
  for (const [x, s] of cases) assert.equal(formatFloat32(x), s, String(x));
  // A sweep of random float32 bit patterns: each reads back exactly and no shorter decimal would.
  const bits = new Uint32Array(1);
  const f = new Float32Array(bits.buffer);
  let seed = 12345;
  for (let i = 0; i < 20000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    bits[0] = seed;
    const v = f[0];
    if (!Number.isFinite(v)) continue;
    const s = formatFloat32(v);
    assert.ok(Object.is(Math.fround(Number(s)), v), `${v} → ${s}`);
    // Significant digits: the mantissa without its sign, point, leading and trailing zeros.
    const digits = s.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
    if (digits > 1) assert.notEqual(Math.fround(Number(v.toPrecision(digits - 1))), v, `${v}: ${s} is not the shortest`);
  }
});

test('convert: names with spaces and quotes, joints listed after their children, frames outside any animation', () => {
  const doc = smallIqmDocument(2);
  doc.extensions = [];
  doc.meshes = [
    { name: 'two words', material: 'say "hi"', firstVertex: 0, vertexCount: 4, firstTriangle: 0, triangleCount: 2 },
    { name: 'a"b', material: '', firstVertex: 4, vertexCount: 2, firstTriangle: 2, triangleCount: 0 },
  ];
  doc.triangles = doc.triangles.subarray(0, 6);
  // Joint 0's parent is joint 2 (after it): IQE needs parents first.
  doc.joints = [
    { ...doc.joints[2], parent: 2 },
    { ...doc.joints[1], name: 'spine', parent: 2 },
    { ...doc.joints[0], name: 'the root', parent: -1 },
  ];
  doc.poses = [{ ...doc.poses[2], parent: 2 }, { ...doc.poses[1], parent: 2 }, { ...doc.poses[0], parent: -1 }];
  // Animation 'wave' starts at frame 3: frame 2 belongs to no animation.
  doc.anims = [doc.anims[0], { ...doc.anims[1], firstFrame: 3, frameCount: 1 }];
  const original = readIqm(writeIqmDocument(doc));
  const { back, text, warnings } = roundTrip(original);
  assert.ok(text.includes('\nmesh "two words"\nmaterial "say \'hi\'"\n'), 'a name with a quote and a space: the quote becomes an apostrophe');
  assert.ok(text.includes('\nmesh a"b\n'), 'a name with a quote and no space is written unquoted');
  assert.ok(warnings.some((w) => /double quote and white space/.test(w)));
  assert.ok(warnings.some((w) => /parent comes before its children/.test(w)));
  assert.ok(warnings.some((w) => /mesh 1 "a"b" has no triangles/.test(w)));
  assert.ok(warnings.some((w) => /1 frame belongs to no animation/.test(w)));
  assert.deepEqual(back.skeleton!.names, ['the root', 'head', 'spine']);
  assert.deepEqual(Array.from(back.skeleton!.parents), [-1, 0, 0]);
  assert.deepEqual(back.clips.map((c) => `${c.name}:${c.firstFrame}+${c.frameCount}`), ['idle:0+2', 'wave:2+1', 'the model frames:3+1']);
  // Same skinned shape at every frame, through the renumbered joints.
  const frames: [number, number][] = [[0, 0], [1, 1], [3, 2], [2, 3]];
  for (const [fa, fb] of frames) {
    const pa = createPose(original), pb = createPose(back);
    sampleFrames(original, fa, fa, 0, pa);
    sampleFrames(back, fb, fb, 0, pb);
    const a = new Float32Array(totalVertices(original) * 3), b = new Float32Array(totalVertices(back) * 3);
    skinVertices(original, pa, a);
    skinVertices(back, pb, b);
    const sorted = (x: Float32Array) => Array.from({ length: x.length / 3 }, (_, i) => Array.from(x.subarray(3 * i, 3 * i + 3), (n) => n.toFixed(3)).join(' ')).sort();
    assert.deepEqual(sorted(b), sorted(a.subarray(0, 12)), `frame ${fa} → ${fb}`);
  }
});

test('convert: a degenerate triangle, an empty mesh name and material, a comment with CRLF and no final newline', () => {
  const doc = smallIqmDocument(2);
  doc.extensions = [];
  doc.meshes[1] = { ...doc.meshes[1], name: '', material: '' };
  doc.comment = 'line one\r\nline two\r\n\r\nno newline at the end';
  const original = readIqm(writeIqmDocument(doc));
  const { back, warnings, text } = roundTrip(original);
  assert.ok(warnings.some((w) => /1 triangle uses one vertex .* twice: the compile drops it/.test(w)), warnings.join('; '));
  assert.ok(text.includes('\nmesh ""\nmaterial ""\n'));
  assert.equal(back.iqm!.comment, doc.comment);
  assert.deepEqual(back.meshes.map((m) => [m.name, m.material, m.triangleCount]), [['body', 'body.tga', 2], ['', '', 0]], 'the degenerate triangle is dropped by the compile, as warned');
});

test('convert: an animation-only IQM as IQE compiles back to poses and animations without joints', () => {
  const doc = smallIqmDocument(2);
  doc.extensions = [];
  doc.meshes = [];
  doc.vertexArrays = [];
  doc.vertexCount = 0;
  doc.triangles = new Uint32Array(0);
  doc.adjacency = null;
  doc.joints = [];
  doc.bounds = null;
  const original = readIqm(writeIqmDocument(doc));
  const { back, warnings } = roundTrip(original);
  assert.deepEqual(warnings, [], 'nothing is lost');
  assert.equal(back.skeleton, null);
  assert.equal(back.animation!.poseCount, 3);
  assert.deepEqual(diffModels(original, back), []);
});

test('convert: joints without a mesh are named in a warning (the compile writes joints only with meshes)', () => {
  const doc = smallIqmDocument(2);
  doc.extensions = [];
  doc.meshes = [];
  doc.bounds = null;
  const { back, warnings } = roundTrip(readIqm(writeIqmDocument(doc)));
  assert.ok(warnings.some((w) => /joints but no mesh/.test(w)), warnings.join('; '));
  assert.equal(back.skeleton, null);
  assert.equal(back.animation!.poseCount, 3);
});

test('convert: animation inputs add their animations; a pose count that does not match the joints is an error', { skip: NO_ASSETS }, () => {
  const guy = readModel(new Uint8Array(readFileSync(join(ASSETS, 'iqm/raylib_guy/guy.iqm'))));
  const anim = readModel(new Uint8Array(readFileSync(join(ASSETS, 'iqm/raylib_guy/guyanim.iqm'))));
  const { back } = roundTrip(guy, [{ label: 'guyanim.iqm', model: anim }]);
  assert.deepEqual(back.clips.map((c) => `${c.name}:${c.firstFrame}+${c.frameCount}`), ['jump:0+61', 'dance:61+61', 'jump:122+61', 'dance:183+61']);
  // The added frames are guyanim's: the same channel values as its own frames.
  const merged = { ...back, clips: back.clips.slice(2).map((c) => ({ ...c, firstFrame: c.firstFrame - 122 })) };
  const added = diffModels({ ...anim, skeleton: null }, { ...merged, skeleton: null, meshes: [], frameCount: back.frameCount - 122, animation: null, bounds: null }).filter((d) => d.section === 'animations');
  assert.deepEqual(added, []);
  const bird = readModel(new Uint8Array(readFileSync(join(ASSETS, 'iqm/excessive/ld36_bird.iqm'))));
  assert.throws(() => writeIqe(bird, { animations: [{ label: 'guyanim.iqm', model: anim }] }), (e: unknown) => e instanceof IqeWriteError && e.input === 1 && /14 poses but the model has 33 joints/.test(e.message));
});

test('convert: an MD3 gives its frame-0 meshes (positions, normals, texture coordinates) with a warning', { skip: NO_ASSETS }, () => {
  for (const file of ['md3/oa_soldier/upper.md3', 'md3/watercan/watercan.md3', 'md3/kubalwagon/european_fnt_v2.md3']) {
    const original = readModel(new Uint8Array(readFileSync(join(ASSETS, file))));
    const { back, warnings } = roundTrip(original);
    if (original.frameCount > 1) assert.ok(warnings.some((w) => /vertex animation cannot be carried/.test(w)), file);
    assert.equal(back.frameCount, 0);
    // The compile adds tangents (an MD3 has none): leave them out of the comparison.
    for (const m of back.meshes) m.tangent = null;
    const differences = diffModels({ ...original, frameCount: 0, bounds: null }, back);
    assert.deepEqual(differences, [], `${file}: ${JSON.stringify(differences)}`);
  }
});

test('convert: a generated MD3 keeps its winding, names and frame 0; the tags are named in a warning', () => {
  const surface = { name: 'body', shaders: ['textures/body', 'textures/body_alt'], triangles: [0, 1, 2, 0, 2, 3], st: [0, 0, 1, 0, 1, 1, 0, 1], xyz: [[0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 64, 0], [0, 0, 64, 64, 0, 64, 64, 64, 64, 0, 64, 64]], normals: [[0, 0, 0, 0], [0, 0, 0, 0]] };
  const frame = (z: number) => ({ mins: [0, 0, z], maxs: [1, 1, z], origin: [0, 0, 0], radius: 1, name: `f${z}` });
  const tag = { name: 'tag_weapon', origin: [1, 2, 3], axis: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };
  const original = readModel(writeMd3({ name: 'gen', frames: [frame(0), frame(1)], tags: [[tag], [tag]], surfaces: [surface] }));
  const { back, warnings } = roundTrip(original);
  assert.ok(warnings.some((w) => /frame 0 of 2 is written/.test(w)));
  assert.ok(warnings.some((w) => /tags \(tag_weapon\) are not carried/.test(w)));
  assert.ok(warnings.some((w) => /several shaders; only the first/.test(w)));
  for (const m of back.meshes) m.tangent = null;
  assert.deepEqual(diffModels({ ...original, frameCount: 0, bounds: null }, back), []);
});

/**
 * How far the compiled model's 16-bit channels can move a vertex: each channel is off by at most
 * half its step; a joint's translation by |δt|, its rotation by 2·|δq| radians (|δq| the length of
 * the quaternion's error), which moves a vertex `reach` away by reach times that, its scale by |δs|
 * times reach; a joint moves everything below it, so the errors add up along each chain.
 */
function quantisationBound(iqm: Model, reach: number): number {
  const anim = iqm.animation;
  if (!anim || anim.kind !== 'channels') return 0;
  const half = (p: number, from: number, to: number): number => {
    let sum = 0;
    for (let c = from; c < to; c++) sum += (anim.scale[p * 10 + c] / 2) ** 2;
    return Math.sqrt(sum);
  };
  const parents = iqm.skeleton!.parents;
  const chain = new Float64Array(anim.poseCount);
  let worst = 0;
  for (let p = 0; p < anim.poseCount; p++) {
    chain[p] = (parents[p] >= 0 ? chain[parents[p]] : 0) + half(p, 0, 3) + (2 * half(p, 3, 7) + half(p, 7, 10)) * reach;
    worst = Math.max(worst, chain[p]);
  }
  return worst;
}

/**
 * Samples both models at the given frames: the largest distance between a DPM vertex and its
 * compiled counterpart, and the quantisation bound for the largest reach seen (vertex plus joint
 * distance from the origin), plus float32 rounding (1e-6 of the reach).
 */
function dpmSampleError(dpm: Model, iqm: Model, frames: number[]): { error: number; bound: number } {
  // Compiled vertices are reordered and merged: find each one's DPM vertex by its bind position, texcoord and joints.
  const key = (m: Model, mesh: number, v: number): string => {
    const x = m.meshes[mesh];
    const joints: number[] = [];
    for (let k = 0; k < x.influences; k++) if (x.blendWeights![v * x.influences + k] > 0) joints.push(x.blendIndices![v * x.influences + k]);
    return `${mesh}|${Array.from(x.position.subarray(3 * v, 3 * v + 3), Math.fround).join(',')}|${Array.from(x.texcoord!.subarray(2 * v, 2 * v + 2)).join(',')}|${joints.sort().join(',')}`;
  };
  const source = new Map<string, number>();
  let base = 0;
  dpm.meshes.forEach((m, i) => {
    for (let v = 0; v < m.vertexCount; v++) if (!source.has(key(dpm, i, v))) source.set(key(dpm, i, v), base + v);
    base += m.vertexCount;
  });
  const map: number[] = [];
  iqm.meshes.forEach((m, i) => {
    for (let v = 0; v < m.vertexCount; v++) {
      const s = source.get(key(iqm, i, v));
      assert.ok(s !== undefined, `compiled vertex ${v} of mesh ${i} has no DPM vertex`);
      map.push(s);
    }
  });
  const pa = createPose(dpm), pb = createPose(iqm);
  const a = new Float32Array(totalVertices(dpm) * 3), b = new Float32Array(totalVertices(iqm) * 3);
  let worst = 0;
  let reach = 0;
  for (const f of frames) {
    sampleFrames(dpm, f, f, 0, pa);
    sampleFrames(iqm, f, f, 0, pb);
    skinVertices(dpm, pa, a);
    skinVertices(iqm, pb, b);
    map.forEach((s, i) => {
      worst = Math.max(worst, Math.hypot(a[3 * s] - b[3 * i], a[3 * s + 1] - b[3 * i + 1], a[3 * s + 2] - b[3 * i + 2]));
    });
    let vertex = 0, joint = 0;
    for (let i = 0; i < a.length; i += 3) vertex = Math.max(vertex, Math.hypot(a[i], a[i + 1], a[i + 2]));
    for (let j = 0; j < pb.jointCount; j++) joint = Math.max(joint, Math.hypot(pb.world[12 * j + 3], pb.world[12 * j + 7], pb.world[12 * j + 11]));
    reach = Math.max(reach, vertex + joint);
  }
  return { error: worst, bound: quantisationBound(iqm, reach) + 1e-6 * reach };
}

test('convert: a DPM converted to IQE and compiled samples like the DPM at several frames', { skip: NO_ASSETS }, (t) => {
  for (const file of ['dpm/nexuiz/grunt.dpm', 'dpm/nexuiz/h_chainsaw.dpm', 'dpm/xonotic/reactor.dpm', 'dpm/xonotic/shield.dpm']) {
    const dpm = readModel(new Uint8Array(readFileSync(join(ASSETS, file))));
    const { back, text, warnings } = roundTrip(dpm);
    assert.ok(warnings.some((w) => /triangles are reversed/.test(w)));
    assert.ok(!warnings.some((w) => /origins put them in different places/.test(w)), `${file}: one influence per vertex, nothing to disagree`);
    assert.equal(back.frameCount, dpm.frameCount);
    assert.equal((text.match(/^animation /gm) ?? []).length, dpm.frameCount, 'one animation per DPM frame (DarkPlaces plays each frame as a scene)');
    const frames = [...new Set([0, 1, Math.floor(dpm.frameCount / 3), Math.floor(dpm.frameCount / 2), dpm.frameCount - 1])].filter((f) => f >= 0 && f < dpm.frameCount);
    // Tolerance: what the compiled IQM's 16-bit channels can move a vertex (quantisationBound).
    const { error, bound } = dpmSampleError(dpm, back, frames);
    t.diagnostic(`${file}: frames ${frames.join(', ')}: largest vertex distance ${error.toPrecision(3)} units; the quantisation allows ${bound.toPrecision(3)}`);
    assert.ok(error <= bound, `${file}: ${error} > ${bound}`);
    // Winding: with IQM's clockwise rule the compiled triangles face along their vertex normals
    // exactly as often as the DPM's do with its counter-clockwise rule.
    const facing = (model: Model, clockwise: boolean): [number, number] => {
      let along = 0, total = 0;
      for (const m of model.meshes) {
        for (let tri = 0; tri < m.triangleCount; tri++) {
          const [i0, i1, i2] = [m.indices[3 * tri], m.indices[3 * tri + 1], m.indices[3 * tri + 2]];
          const p = (i: number, k: number) => m.position[3 * i + k];
          const e1 = [0, 1, 2].map((k) => p(i1, k) - p(i0, k)), e2 = [0, 1, 2].map((k) => p(i2, k) - p(i0, k));
          // IQE-SEMANTICS.md §0: the clockwise front normal is (v2 − v0) × (v1 − v0); counter-clockwise its negation.
          const n = [e2[1] * e1[2] - e2[2] * e1[1], e2[2] * e1[0] - e2[0] * e1[2], e2[0] * e1[1] - e2[1] * e1[0]];
          const vn = [0, 1, 2].map((k) => m.normal![3 * i0 + k] + m.normal![3 * i1 + k] + m.normal![3 * i2 + k]);
          const d = n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2];
          total++;
          if (clockwise ? d > 0 : d < 0) along++;
        }
      }
      return [along, total];
    };
    const [agree, total] = facing(back, true);
    t.diagnostic(`${file}: ${agree} of ${total} compiled triangles face along their vertex normals`);
    assert.deepEqual([agree, total], facing(dpm, false), `${file}: winding`);
    assert.ok(agree > 0.9 * total, `${file}: only ${agree} of ${total} triangles face their normals`);
  }
});

/** Two bones; the vertex has two influences whose bone-space origins agree or disagree at the bind pose. */
function twoInfluenceDpm(disagree: number): Uint8Array {
  const m = (tx: number, ty: number, angle: number): number[] => {
    const c = Math.cos(angle), s = Math.sin(angle);
    return [c, -s, 0, tx, s, c, 0, ty, 0, 0, 1, 0];
  };
  const spec: DpmSpec = {
    bones: [{ name: 'root', parent: -1, flags: 0 }, { name: 'arm', parent: 0, flags: 0 }],
    meshes: [
      {
        shader: 'skin',
        verts: [
          // A point at (2, 0, 0): in root space (2, 0, 0), in arm space (arm at x = 1) (1 + disagree, 0, 0); half each.
          [{ origin: [1, 0, 0], influence: 0.5, normal: [0, 0, 0.5], bone: 0 }, { origin: [(1 + disagree) * 0.5, 0, 0], influence: 0.5, normal: [0, 0, 0.5], bone: 1 }],
          [{ origin: [0, 1, 0], influence: 1, normal: [0, 0, 1], bone: 0 }],
          [{ origin: [1, 1, 0], influence: 1, normal: [0, 0, 1], bone: 1 }],
        ],
        texcoords: [0, 0, 1, 0, 1, 1],
        indices: [0, 1, 2],
        groupIds: null,
      },
    ],
    frames: [
      { name: 'bind', bounds: [0, 0, 0, 1, 1, 1, 1, 1], matrices: [...m(0, 0, 0), ...m(1, 0, 0)] },
      { name: 'bent', bounds: [0, 0, 0, 1, 1, 1, 1, 1], matrices: [...m(0, 0, 0), ...m(1, 0, Math.PI / 2)] },
    ],
  };
  return writeDpm(spec);
}

test('convert: DPM influences that agree skin exactly; influences that disagree are averaged, with a warning', (t) => {
  for (const disagree of [0, 0.5]) {
    const dpm = readModel(twoInfluenceDpm(disagree));
    const { back, warnings } = roundTrip(dpm);
    const warned = warnings.some((w) => /origins put them in different places at frame 0 \(up to 0\.250 units apart\)/.test(w));
    assert.equal(warned, disagree > 0, warnings.join('; '));
    const bent = dpmSampleError(dpm, back, [1]).error;
    t.diagnostic(`origins ${disagree} apart in bone space: the bent frame differs by ${bent.toPrecision(3)}`);
    assert.ok(dpmSampleError(dpm, back, [0]).error < 1e-5, 'frame 0 (the bind pose) is exact either way');
    // Agreeing: only the ubyte blend weights differ (0.5 is stored as 127/255 and 128/255), and the
    // two bones carry the vertex √2 apart in the bent frame: at most √2 / 255 off.
    if (disagree === 0) assert.ok(bent <= Math.SQRT2 / 255, `agreeing influences: ${bent}`);
    else assert.ok(bent > 0.1, 'disagreeing influences move differently once the arm bends (the warning says so)');
  }
});

test('convert: an IQM mesh of 0 vertices that keeps its triangles: the triangles (and so the mesh) are left out with a warning, and the IQE compiles', () => {
  const doc = smallIqmDocument();
  doc.meshes[1].vertexCount = 0;
  const model = readModel(writeIqmDocument(doc));
  assert.equal(model.meshes[1].vertexCount, 0);
  assert.equal(model.meshes[1].triangleCount, 1);
  // roundTrip asserts the compile reports no error (it refused `fm 0 0 0` under a mesh of no vertices).
  const { back, text, warnings } = roundTrip(model);
  assert.ok(!/mesh "head"[^]*\nfm /.test(text), 'no face under the mesh of no vertices');
  assert.deepEqual(
    warnings.filter((w) => /vertices the mesh does not have/.test(w)),
    ['mesh 1 "head": 1 triangle names vertices the mesh does not have (it has 0): left out, and the mesh with them (the compile leaves a mesh without triangles out)'],
  );
  assert.deepEqual(back.meshes.map((m) => [m.name, m.vertexCount, m.triangleCount]), [['body', 4, 2]]);
});

test('convert: blend weights ≤ 0.001 are left out and the rest of their vertex renormalised, with one note; the IQE has no weights-invalid warning', () => {
  const spec: DpmSpec = {
    bones: [{ name: 'root', parent: -1, flags: 0 }, { name: 'arm', parent: 0, flags: 0 }],
    meshes: [
      {
        shader: 'skin',
        verts: [
          // Influences that sum to 1 with a tiny one: 0.0004 of the arm (DPM exporters write such leftovers).
          [{ origin: [0.9996, 0, 0], influence: 0.9996, normal: [0, 0, 0.9996], bone: 0 }, { origin: [0, 0, 0], influence: 0.0004, normal: [0, 0, 0.0004], bone: 1 }],
          [{ origin: [0, 0.999, 0], influence: 0.999, normal: [0, 0, 0.999], bone: 0 }, { origin: [0, 0, 0], influence: 0.0005, normal: [0, 0, 0.0005], bone: 1 }, { origin: [0, 0, 0], influence: 0.0005, normal: [0, 0, 0.0005], bone: 1 }],
          [{ origin: [1, 1, 0], influence: 1, normal: [0, 0, 1], bone: 1 }],
        ],
        texcoords: [0, 0, 1, 0, 1, 1],
        indices: [0, 1, 2],
        groupIds: null,
      },
    ],
    frames: [
      { name: 'a', bounds: [0, 0, 0, 1, 1, 1, 1, 1], matrices: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0] },
      { name: 'b', bounds: [0, 0, 0, 1, 1, 1, 1, 1], matrices: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0] },
    ],
  };
  const dpm = readModel(writeDpm(spec));
  const { back, text, warnings } = roundTrip(dpm);
  const vb = text.split('\n').filter((l) => l.startsWith('vb '));
  assert.equal(vb.length, 3);
  for (const line of vb) {
    const numbers = line.split(' ').slice(1).map(Number);
    const weights = numbers.filter((_, i) => i % 2 === 1);
    assert.ok(weights.every((w) => w > 0.001), line);
    assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-6, `${line}: renormalised`);
  }
  assert.deepEqual(
    warnings.filter((w) => /blend weight/.test(w)),
    ['3 blend weights ≤ 0.001 left out, as the compile leaves them out, and the other weights of their 2 vertices renormalised'],
  );
  assert.deepEqual(validateIqe(text).filter((d) => d.code === 'weights-invalid').map((d) => `${d.range.line + 1}: ${d.message}`), [], 'the converted file raises no weights-invalid warning');
  // What the compile makes of it is what it made of the weights as stored.
  const exact = writeIqeWithTinyWeights(dpm);
  const reference = compileSourceText(exact);
  assert.ok(reference.bytes);
  assert.deepEqual(diffModels(readModel(reference.bytes), back, { tolerance: 0 }), []);
});

/** The IQE of `model` with every blend weight as stored (tiny ones too): what the writer wrote before it left them out. */
function writeIqeWithTinyWeights(model: Model): string {
  const lines: string[] = writeIqe(model).text.split('\n');
  let v = 0;
  const mesh = model.meshes[0];
  const k = mesh.influences;
  return lines
    .map((line) => {
      if (!line.startsWith('vb')) return line;
      let out = 'vb';
      for (let c = 0; c < k; c++) {
        const w = mesh.blendWeights![v * k + c];
        if (w > 0) out += ` ${mesh.blendIndices![v * k + c]} ${formatFloat32(w)}`;
      }
      v++;
      return out;
    })
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// The command line

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('iqm-tools convert: writes IQE that compiles back equal; --json; -o FOLDER/; ANIM inputs', { skip: NO_ASSETS }, () => {
  withTempDir('iqm-convert-', (dir) => {
    const guy = join(ASSETS, 'iqm/raylib_guy/guy.iqm');
    const out = join(dir, 'guy.iqe');
    const r = cli('convert', guy, '-o', out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /guy\.iqe: 1 meshes, 240 vertices, 120 triangles, 14 joints, 2 animations, \d+ bytes/);
    assert.ok(readFileSync(out, 'utf8').startsWith('# Inter-Quake Export\n# converted by iqm-tools from guy.iqm (IQM)\n'));
    const compiled = cli('compile', out, '-o', join(dir, 'guy.iqm'));
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    const diff = cli('diff', guy, join(dir, 'guy.iqm'));
    assert.equal(diff.status, 0, diff.stdout);

    // -o FOLDER/ and --json; an animation input.
    const json = cli('convert', guy, join(ASSETS, 'iqm/raylib_guy/guyanim.iqm'), '-o', `${dir}/sub/`, '--json');
    assert.equal(json.status, 2, 'a folder that does not exist cannot be written');
    assert.match(json.stderr, /cannot write: ENOENT/);
    const ok = cli('convert', guy, join(ASSETS, 'iqm/raylib_guy/guyanim.iqm'), '-o', `${dir}/`, '--json');
    assert.equal(ok.status, 0, ok.stderr);
    const result = JSON.parse(ok.stdout);
    assert.equal(result.output, join(dir, 'guy.iqe'));
    assert.equal(result.stats.animations, 4);
    assert.equal(result.warnings.length, 1, result.warnings.join('\n'));
    assert.match(result.warnings[0], /guy\.iqm: warning: per-frame bounds are not carried/);

    // A DPM with its .framegroups: the clips named as DarkPlaces names them.
    const grunt = cli('convert', join(ASSETS, 'dpm/nexuiz/grunt.dpm'), '-o', join(dir, 'grunt.iqe'));
    assert.equal(grunt.status, 0, grunt.stderr);
    assert.match(grunt.stderr, /animations from grunt\.dpm\.framegroups/);
    assert.match(grunt.stderr, /triangles are reversed/);

    // IQE in: the compiled model written out (and never over itself).
    const iqe = join(ASSETS, 'iqe/unvanquished/rocket.iqe');
    const again = cli('convert', out, '-o', join(dir, 'again.iqe'));
    assert.equal(again.status, 0, again.stderr);
    // (out now holds guy with guyanim's animations too: the -o FOLDER/ run above wrote it.)
    assert.equal(cli('diff', out, join(dir, 'again.iqe')).status, 0);
    const self = cli('convert', out);
    assert.equal(self.status, 2);
    assert.match(self.stderr, /is the input .* \(the same file\)/);
    const rocket = cli('convert', iqe, '-o', join(dir, 'rocket.iqe'));
    assert.equal(rocket.status, 0, rocket.stderr);
    assert.equal(cli('diff', iqe, join(dir, 'rocket.iqe')).status, 0);
  });
});

test('iqm-tools convert: an output not named .iqe, .glb or .gltf (model.obj, no extension) is refused and nothing written', () => {
  withTempDir('iqm-convert-name-', (dir) => {
    const input = join(dir, 'small.iqm');
    writeFileSync(input, writeIqmDocument(smallIqmDocument()));
    for (const name of ['model.obj', 'model.iqm', 'model']) {
      const r = cli('convert', input, '-o', join(dir, name));
      assert.equal(r.status, 2, `${name}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /^convert: the output .* (is named \.\w+|has no extension), but what is written is IQE text: name it \.iqe \(or \.glb, \.gltf for glTF\)\n$/);
    }
    assert.deepEqual(readdirSync(dir), ['small.iqm'], 'nothing written');
    const upper = cli('convert', input, '-o', join(dir, 'model.IQE'));
    assert.equal(upper.status, 0, upper.stderr);
    assert.ok(readFileSync(join(dir, 'model.IQE'), 'utf8').startsWith('# Inter-Quake Export\n'));
  });
});

test('iqm-tools convert: bad input is one line with the byte offset and exit 2, nothing written', { skip: NO_ASSETS }, () => {
  withTempDir('iqm-convert-bad-', (dir) => {
    const out = join(dir, 'out.iqe');
    const bad = cli('convert', join(ASSETS, 'iqm/invalid/InvalidMeshOffset.iqm'), '-o', out);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^.*InvalidMeshOffset\.iqm: .* \(at byte \d+\)\n$/);
    assert.equal(existsSync(out), false);
    const lfs = cli('convert', join(ASSETS, 'iqm/invalid/erebus_lfs_pointer.iqm'), '-o', out);
    assert.equal(lfs.status, 2);
    assert.match(lfs.stderr, /Git LFS pointer.*\(at byte 0\)/);
    writeFileSync(join(dir, 'broken.iqe'), '# Inter-Quake Export\nvp 0 0 0\nfa 0 1 2\n');
    const iqe = cli('convert', join(dir, 'broken.iqe'), '-o', out);
    assert.equal(iqe.status, 2);
    assert.match(iqe.stderr, /broken\.iqe: .*\[face-index-range\] \(at line 3, column \d+\)\n$/);
    const mismatch = cli('convert', join(ASSETS, 'iqm/excessive/ld36_bird.iqm'), join(ASSETS, 'iqm/raylib_guy/guyanim.iqm'), '-o', out);
    assert.equal(mismatch.status, 2);
    assert.match(mismatch.stderr, /guyanim\.iqm: its animation has 14 poses but the model has 33 joints\n$/);
    assert.equal(cli('convert', '-o', out).status, 2);
    assert.equal(cli('convert', 'x', '--bogus').status, 2);
    assert.equal(readdirSync(dir).join(), 'broken.iqe', 'no output and no temporary file left behind');
    assert.equal(cli('convert', '--help').status, 0);
  });
});

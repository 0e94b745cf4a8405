// The MD3 and DPM validators (core/validate/md3.ts, dpm.ts): the clean generated model of each has
// no issue, and each code has a generated file that triggers it and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateModel } from '../../core/validate/index';
import { VALIDATION_CODES, type ValidationCode } from '../../core/validate/codes';
import { writeDpm, writeMd3, type DpmSpec } from '../helpers/model-writers';
import {
  cleanDpm,
  cleanMd3,
  DPM_FIELD,
  dpmInt,
  dpmPoke,
  dpmTranslate,
  dpmWith,
  MD3_FIELD,
  MD3_SURFACE_FIELD,
  md3Int,
  md3Poke,
  md3With,
} from '../helpers/validate-fixtures-md3-dpm';
import { firedCodes, unitGrid } from '../helpers/validate-fixtures';

const md3 = () => writeMd3(cleanMd3());
const dpm = () => writeDpm(cleanDpm());
/** The clean MD3 with its first surface's header field `field` set to `value`. */
const md3Surface = (field: keyof typeof MD3_SURFACE_FIELD, value: (bytes: Uint8Array, s0: number) => number) => {
  const b = md3();
  const s0 = md3Int(b, MD3_FIELD.ofsSurfaces);
  return md3Poke(b, s0 + MD3_SURFACE_FIELD[field], value(b, s0));
};
/** The clean DPM with its first mesh's field (byte `at` of the mesh record) set to `value`. */
const dpmMesh = (at: number, value: (bytes: Uint8Array, mesh: number) => number) => {
  const b = dpm();
  const m = dpmInt(b, DPM_FIELD.ofsMeshes);
  return dpmPoke(b, m + at, value(b, m));
};
/** Bones 0 and 1 swapped (the child first): same model, parents after their children. */
function childFirst(d: DpmSpec): void {
  d.bones = [{ name: 'tip', parent: 1, flags: 0 }, { name: 'root', parent: -1, flags: 0 }];
  for (const f of d.frames) f.matrices = [...f.matrices.slice(12), ...f.matrices.slice(0, 12)];
  for (const v of d.meshes[0].verts) for (const i of v) i.bone = 1 - i.bone;
}

const TRIGGERS: Partial<Record<ValidationCode, () => Uint8Array>> = {
  'md3-header-truncated': () => md3().slice(0, 100),
  'md3-version': () => md3Poke(md3(), MD3_FIELD.version, 14),
  'md3-eof': () => md3Poke(md3(), MD3_FIELD.ofsEof, md3().length + 4),
  'md3-count-negative': () => md3Poke(md3(), MD3_FIELD.numTags, -1),
  'md3-block-in-header': () => md3Poke(md3(), MD3_FIELD.ofsTags, 8),
  'md3-block-out-of-file': () => md3Poke(md3(), MD3_FIELD.ofsTags, md3().length),
  // The texture coordinates read from the triangles' bytes (small integers read as floats: finite).
  'md3-block-overlap': () => md3Surface('ofsSt', (b, s0) => md3Int(b, s0 + MD3_SURFACE_FIELD.ofsTris)),
  'md3-surface-ident': () => { const b = md3(); b[md3Int(b, MD3_FIELD.ofsSurfaces)] = 0x58; return b; },
  'md3-surface-end': () => md3Poke(md3Surface('ofsEnd', () => 50), MD3_FIELD.numSurfaces, 2),
  'md3-count-limit': () => md3With((s) => { s.tags = s.tags.map(() => Array.from({ length: 17 }, (_, i) => ({ name: `tag_${i}`, origin: [0, 0, 0], axis: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }))); }),
  'md3-surface-frames': () => md3Surface('numFrames', () => 1),
  'md3-no-frames': () => md3With((s) => {
    s.frames = [];
    s.tags = [];
    for (const surface of s.surfaces) [surface.xyz, surface.normals] = [[], []];
  }),
  // 32 × 32 = 1024 vertices (ioquake3 takes 999), 1922 triangles (it takes 1999), the clean quad's square and frames.
  'md3-surface-renderer-limit': () => md3With((s) => {
    const { xy, triangles } = unitGrid(32);
    const at = (z: number) => xy.flatMap((x, k) => (k % 2 === 1 ? [Math.round(x * 64), z] : [Math.round(x * 64)]));
    const count = xy.length / 2;
    Object.assign(s.surfaces[0], { triangles, st: xy, xyz: [at(0), at(64)], normals: s.surfaces[0].normals.map((f) => Array(count).fill(f[0])) });
  }),
  'md3-triangle-index': () => md3With((s) => { s.surfaces[0].triangles[5] = 7; }),
  'md3-tag-name-mismatch': () => md3With((s) => { s.tags[1][0].name = 'tag_head'; }),
  'md3-nonfinite': () => md3With((s) => { s.tags[1][0].origin = [0, NaN, 0]; }),
  'md3-bounds-inverted': () => md3With((s) => { s.frames[1].mins[0] = 5; }),
  'md3-bounds-contain': () => md3With((s) => { s.frames[0].maxs[0] = 0.5; }),
  'md3-bounds-radius': () => md3With((s) => { s.frames[0].radius = 1; }),
  'md3-normals-zero': () => md3With((s) => { s.surfaces[0].normals[1] = [0, 0, 0, 0]; }),
  // Zenith 90° (horizontal) with azimuth 0, as stored; swapped, zenith 0: up, as the quad faces.
  'md3-normal-byte-order': () => md3With((s) => { s.surfaces[0].normals = s.surfaces[0].normals.map((f) => f.map(() => 64)); }),
  'md3-triangle-degenerate': () => md3With((s) => { s.surfaces[0].triangles.push(0, 0, 1); }),
  'md3-triangle-duplicate': () => md3With((s) => { s.surfaces[0].triangles.push(2, 0, 1); }),
  'md3-name-control': () => md3With((s) => { for (const f of s.tags) f[0].name = 'tag\u0001weapon'; }),
  'md3-name-unterminated': () => md3With((s) => { s.surfaces[0].name = 'b'.repeat(64); }),
  'md3-surface-empty': () => md3With((s) => { s.surfaces.push({ name: 'empty', shaders: ['models/clean/body'], triangles: [], st: [], xyz: [[], []], normals: [[], []] }); }),
  'md3-surface-no-shader': () => md3With((s) => { s.surfaces[0].shaders = []; }),
  'md3-vertex-unused': () => md3With((s) => {
    const v = s.surfaces[0];
    v.st.push(0.5, 0.5);
    v.xyz[0].push(32, 32, 0);
    v.xyz[1].push(32, 32, 64);
    for (const n of v.normals) n.push(1 << 8);
  }),

  'dpm-header-truncated': () => dpm().slice(0, 60),
  'dpm-type': () => dpmPoke(dpm(), DPM_FIELD.type, 3),
  'dpm-filesize': () => dpmPoke(dpm(), DPM_FIELD.filesize, dpm().length + 4),
  'dpm-block-in-header': () => dpmPoke(dpm(), DPM_FIELD.ofsFrames, 8),
  'dpm-block-out-of-file': () => dpmPoke(dpm(), DPM_FIELD.ofsFrames, dpm().length),
  // The texture coordinates read from the vertex records' bytes (counts, floats and bone numbers read as floats: finite).
  'dpm-block-overlap': () => dpmMesh(44, (b, m) => dpmInt(b, m + 40)),
  'dpm-bone-parent-range': () => dpmWith((d) => { d.bones[1].parent = 5; }),
  'dpm-bone-parent-order': () => dpmWith(childFirst),
  'dpm-bone-cycle': () => dpmWith((d) => { d.bones[0].parent = 1; }),
  'dpm-influence-bone': () => dpmWith((d) => { d.meshes[0].verts[0][0].bone = 7; }),
  'dpm-triangle-index': () => dpmWith((d) => { d.meshes[0].indices[5] = 9; }),
  'dpm-no-frames': () => dpmWith((d) => { d.frames = []; }),
  'dpm-nonfinite': () => dpmWith((d) => { d.meshes[0].texcoords[3] = NaN; }),
  'dpm-weights-sum': () => dpmWith((d) => { d.meshes[0].verts[0][0].influence = 0.5; }),
  'dpm-vertex-no-influence': () => dpmWith((d) => { d.meshes[0].verts[0] = []; }),
  // Vertex 1 (1, 0, 0) half on "root" (right) and half on "tip" with the origin "root" would need (wrong: "tip" is one unit up).
  'dpm-influence-disagree': () => dpmWith((d) => {
    d.meshes[0].verts[1] = [
      { origin: [0.5, 0, 0], influence: 0.5, normal: [0, 0, 1], bone: 0 },
      { origin: [0.5, 0, 0], influence: 0.5, normal: [0, 0, 1], bone: 1 },
    ];
  }),
  'dpm-bounds-inverted': () => dpmWith((d) => { d.frames[1].bounds[0] = 5; }),
  'dpm-bounds-contain': () => dpmWith((d) => { d.frames[0].bounds[3] = 0.5; }),
  'dpm-bounds-radius': () => dpmWith((d) => { d.frames[0].bounds[7] = 1; }),
  'dpm-triangle-degenerate': () => dpmWith((d) => { d.meshes[0].indices.push(0, 0, 1); }),
  'dpm-triangle-duplicate': () => dpmWith((d) => { d.meshes[0].indices.push(2, 0, 1); }),
  'dpm-name-control': () => dpmWith((d) => { d.bones[1].name = 'ti\u0001p'; }),
  'dpm-name-unterminated': () => dpmWith((d) => { d.frames[0].name = 'f'.repeat(32); }),
  'dpm-mesh-empty': () => dpmWith((d) => { d.meshes.push({ shader: 'models/clean/body', verts: [], texcoords: [], indices: [], groupIds: null }); }),
  'dpm-vertex-unused': () => dpmWith((d) => {
    d.meshes[0].verts.push([{ origin: [0.5, 0.5, 0], influence: 1, normal: [0, 0, 1], bone: 0 }]);
    d.meshes[0].texcoords.push(0.5, 0.5);
  }),
  'dpm-bone-unused': () => dpmWith((d) => {
    d.bones.push({ name: 'extra', parent: 0, flags: 0 });
    for (const f of d.frames) f.matrices.push(...dpmTranslate(0, 0, 0));
  }),
};

test('the clean generated MD3 and DPM have no issue at all', () => {
  for (const [name, bytes] of [['md3', md3()], ['dpm', dpm()]] as const) {
    const report = validateModel(bytes);
    assert.ok(report, `${name} is validated`);
    assert.equal(report.format, name);
    assert.deepEqual(report.issues, [], name);
    assert.deepEqual(report.notes, [], name);
  }
});

for (const code of Object.keys(VALIDATION_CODES).filter((c) => c.startsWith('md3-') || c.startsWith('dpm-')) as ValidationCode[]) {
  test(`${code}: its generated file triggers it and nothing else`, () => {
    const make = TRIGGERS[code];
    assert.ok(make, `no trigger file for ${code}`);
    const bytes = make();
    const report = validateModel(bytes);
    assert.ok(report, 'validated');
    assert.equal(report.format, code.slice(0, 3));
    assert.deepEqual(firedCodes(report), [code], JSON.stringify(report.issues.map((i) => `${i.code}: ${i.message}`), null, 1));
    const issue = report.issues[0];
    assert.equal(issue.severity, VALIDATION_CODES[code].severity);
    assert.equal(issue.kind, VALIDATION_CODES[code].kind);
    assert.ok(issue.offset >= 0 && issue.offset <= bytes.length, `offset ${issue.offset} inside the file`);
    assert.ok(issue.where.length > 0 && issue.message.length > 0);
  });
}

test('MD3: where names the surface and triangle, and the offset is the bad index\'s byte', () => {
  const bytes = md3With((s) => { s.surfaces[0].triangles[5] = 7; });
  const [issue] = validateModel(bytes)!.issues;
  assert.equal(issue.where, 'surface 0 "body", triangle 1');
  const s0 = md3Int(bytes, MD3_FIELD.ofsSurfaces);
  assert.equal(issue.offset, s0 + md3Int(bytes, s0 + MD3_SURFACE_FIELD.ofsTris) + 5 * 4);
  assert.equal(md3Int(bytes, issue.offset), 7);
});

test('DPM: where names the mesh and vertex, and the offset is the bad bone number\'s byte', () => {
  const bytes = dpmWith((d) => { d.meshes[0].verts[2][0].bone = 9; });
  const [issue] = validateModel(bytes)!.issues;
  assert.equal(issue.code, 'dpm-influence-bone');
  assert.equal(issue.where, 'mesh 0 "models/clean/body", vertex 2');
  assert.equal(dpmInt(bytes, issue.offset), 9);
});

test('a DPM whose bounds miss the skinned vertices in every frame is reported per frame, counted past 5', () => {
  const bytes = dpmWith((d) => {
    const base = d.frames[1];
    d.frames = Array.from({ length: 8 }, (_, i) => ({ ...base, name: `f${i}`, bounds: [0, 0, 0, 1, 1, 0, 9, 9] }));
  });
  const report = validateModel(bytes)!;
  assert.deepEqual(firedCodes(report), ['dpm-bounds-contain']);
  assert.deepEqual(report.issues.map((i) => i.where), ['frame 0', 'frame 1', 'frame 2', 'frame 3', 'frame 4']);
  assert.deepEqual(report.omitted, { 'dpm-bounds-contain': 3 });
});

test('the renderer-limit message quotes ioquake3 with the surface name escaped (the CI fuzz found control bytes printed raw)', () => {
  const { xy, triangles } = unitGrid(32);
  const bytes = md3With((s) => {
    const at = (z: number) => xy.flatMap((x, k) => (k % 2 === 1 ? [Math.round(x * 64), z] : [Math.round(x * 64)]));
    const count = xy.length / 2;
    Object.assign(s.surfaces[0], { name: 'body\u0010', triangles, st: xy, xyz: [at(0), at(64)], normals: s.surfaces[0].normals.map((f) => Array(count).fill(f[0])) });
  });
  const issue = validateModel(bytes)!.issues.find((i) => i.code === 'md3-surface-renderer-limit');
  assert.ok(issue, 'the limit is reported');
  assert.match(issue.message, /has more than 999 verts on "body\\u0010" \(1024\)/);
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  assert.doesNotMatch(issue.message + issue.where, /[\u0000-\u001f\u007f-\u009f]/);
});

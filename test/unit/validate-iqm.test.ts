// The IQM validator (core/validate): the clean generated model has no issue, and each code has a
// generated file that triggers it and nothing else.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { CODE_TABLE_END, CODE_TABLE_START, validationCodeTable } from '../../core/validate/doc';
import { codeSectionLines } from '../../core/validate/docSections';
import assert from 'node:assert/strict';
import { validateModel } from '../../core/validate/index';
import { VALIDATION_CODES, type ValidationCode } from '../../core/validate/codes';
import { parseSeverityOverrides } from '../../core/validate/report';
import type { IqmDocument } from '../../core/iqm/document';
import { IQM_HEADER as H, IQM_RECORD } from '../../core/iqm/layout';
import { writeIqmDocument } from '../helpers/iqm-writer';
import { animationOnlyIqm, appendData, cleanIqm, firedCodes, headerField, iqmWith, poke, setHeader, unitGrid } from '../helpers/validate-fixtures';


const arrayOf = (doc: IqmDocument, type: number) => {
  const a = doc.vertexArrays.find((x) => x.type === type);
  if (!a) throw new Error(`no array of type ${type}`);
  return a;
};
const clean = () => writeIqmDocument(cleanIqm());

/** Per code, a file that has exactly that problem. */
const TRIGGERS: Partial<Record<ValidationCode, () => Uint8Array>> = {
  'iqm-header-truncated': () => clean().slice(0, 100),
  'iqm-version': () => setHeader(clean(), 'version', 3),
  'iqm-filesize': () => setHeader(clean(), 'filesize', clean().length + 4),
  'iqm-header-flags': () => iqmWith((d) => { d.flags = 1; }),
  'iqm-block-in-header': () => setHeader(clean(), 'ofs_comment', 16),
  'iqm-block-out-of-file': () => setHeader(clean(), 'num_comment', 100000),
  'iqm-block-misaligned': () => {
    const b = clean();
    const anims = b.slice(headerField(b, 'ofs_anims'), headerField(b, 'ofs_anims') + IQM_RECORD.anim);
    const moved = appendData(b, anims, 2);
    return setHeader(moved.bytes, 'ofs_anims', moved.at);
  },
  'iqm-block-overlap': () => {
    const b = clean();
    setHeader(b, 'ofs_comment', headerField(b, 'ofs_anims'));
    return setHeader(b, 'num_comment', 4);
  },
  'iqm-array-format': () => { const b = clean(); return poke(b, headerField(b, 'ofs_vertexarrays') + IQM_RECORD.vertexArray + 8, 9); },
  'iqm-array-size': () => iqmWith((d) => { arrayOf(d, 1).size = 5; arrayOf(d, 1).data = new Float32Array(20); }),
  'iqm-array-type-reserved': () => iqmWith((d) => { arrayOf(d, 1).type = 8; }),
  'iqm-array-duplicate': () => iqmWith((d) => { d.vertexArrays.push({ ...arrayOf(d, 1) }); }),
  'iqm-array-components': () => iqmWith((d) => { arrayOf(d, 1).size = 3; arrayOf(d, 1).data = new Float32Array(12); }),
  'iqm-array-format-unusual': () => iqmWith((d) => { arrayOf(d, 1).format = 6; arrayOf(d, 1).data = new Uint16Array([0, 0, 0x3c00, 0, 0x3c00, 0x3c00, 0, 0x3c00]); }),
  'iqm-position-missing': () => iqmWith((d) => { d.vertexArrays = d.vertexArrays.filter((a) => a.type !== 0); }),
  'iqm-blend-incomplete': () => iqmWith((d) => { d.vertexArrays = d.vertexArrays.filter((a) => a.type !== 5); }),
  'iqm-framechannels-short': () => setHeader(clean(), 'num_framechannels', 0),
  'iqm-framechannels-extra': () => iqmWith((d) => { d.frameChannels = 2; d.frames = new Uint16Array([0, 0, 1000, 0]); }),
  'iqm-text-first': () => { const b = clean(); b[headerField(b, 'ofs_text')] = 0x78; return b; },
  'iqm-text-unterminated': () => {
    const b = clean();
    const n = headerField(b, 'num_text');
    assert.ok(n % 4 !== 0, 'the text table is followed by padding');
    b[headerField(b, 'ofs_text') + n] = 0x78;
    return setHeader(b, 'num_text', n + 1);
  },
  'iqm-text-offset': () => { const b = clean(); return poke(b, headerField(b, 'ofs_meshes') + 4, 100000); },
  'iqm-text-no-nul': () => {
    const b = clean();
    // The last name ("idle\0") loses its NUL: the table now ends inside it.
    return setHeader(b, 'num_text', headerField(b, 'num_text') - 1);
  },
  'iqm-mesh-vertex-range': () => iqmWith((d) => { d.meshes[0].vertexCount = 5; }),
  'iqm-mesh-triangle-range': () => iqmWith((d) => { d.meshes[0].triangleCount = 3; }),
  'iqm-mesh-vertex-overlap': () => iqmWith((d) => { d.meshes = [{ ...d.meshes[0], triangleCount: 1 }, { ...d.meshes[0], name: 'second', firstTriangle: 1, triangleCount: 1 }]; }),
  'iqm-mesh-triangle-overlap': () => iqmWith((d) => { d.meshes.push({ name: 'second', material: 'body.tga', firstVertex: 4, vertexCount: 0, firstTriangle: 1, triangleCount: 1 }); }),
  'iqm-mesh-empty': () => iqmWith((d) => { d.meshes.push({ name: 'empty', material: 'body.tga', firstVertex: 4, vertexCount: 0, firstTriangle: 2, triangleCount: 0 }); }),
  // 32 × 32 = 1024 vertices (ioquake3 takes 999) over the clean quad's square; the upper half on "tip", as the quad's.
  'iqm-mesh-renderer-limit': () => iqmWith((d) => {
    const { xy, triangles } = unitGrid(32);
    const count = xy.length / 2;
    const each = (values: number[]) => Array.from({ length: count }, () => values).flat();
    const upper = (v: number) => xy[v * 2 + 1] > 0.5;
    const data = [
      new Float32Array(xy.flatMap((x, k) => (k % 2 === 1 ? [x, 0] : [x]))),
      new Float32Array(xy),
      new Float32Array(each([0, 0, 1])),
      new Float32Array(each([1, 0, 0, 1])),
      new Uint8Array(Array.from({ length: count }, (_, v) => [upper(v) ? 1 : 0, 0, 0, 0]).flat()),
      new Uint8Array(each([255, 0, 0, 0])),
    ];
    d.vertexArrays.forEach((a, i) => { a.data = data[i]; });
    d.vertexCount = count;
    d.triangles = new Uint32Array(triangles);
    d.adjacency = null;
    Object.assign(d.meshes[0], { vertexCount: count, triangleCount: triangles.length / 3 });
  }),
  'iqm-mesh-material-empty': () => iqmWith((d) => { d.meshes[0].material = ''; }),
  'iqm-triangle-index': () => iqmWith((d) => { addTriangle(d, [0, 2, 99]); }),
  'iqm-triangle-outside-mesh': () => iqmWith((d) => { d.meshes[0].vertexCount = 3; }),
  'iqm-triangle-unowned': () => iqmWith((d) => { d.meshes[0].triangleCount = 1; }),
  'iqm-triangle-degenerate': () => iqmWith((d) => { addTriangle(d, [0, 0, 1]); }),
  'iqm-triangle-duplicate': () => iqmWith((d) => { addTriangle(d, [2, 0, 1]); }),
  'iqm-vertex-unused': () => iqmWith((d) => { addVertex(d, [0.5, 0.5, 0]); }),
  'iqm-adjacency-index': () => iqmWith((d) => { d.adjacency![0] = 7; }),
  'iqm-adjacency-mismatch': () => iqmWith((d) => { d.adjacency![0] = 1; }),
  'iqm-joint-parent-range': () => iqmWith((d) => { d.joints[1].parent = 5; }),
  'iqm-joint-parent-order': () => iqmWith((d) => { d.joints[0].parent = 1; d.joints[1].parent = -1; d.poses[0].parent = 1; d.poses[1].parent = -1; }),
  'iqm-joint-cycle': () => iqmWith((d) => { d.joints[0].parent = 1; d.poses[0].parent = 1; }),
  'iqm-joint-nonfinite': () => iqmWith((d) => { d.joints[1].trs[0] = NaN; }),
  'iqm-joint-quat': () => iqmWith((d) => { d.joints[1].trs[6] = 2; }),
  'iqm-joint-scale-zero': () => iqmWith((d) => { d.joints[0].trs[7] = 0; d.joints[0].trs[8] = 1e-30; }),
  'iqm-joint-name-duplicate': () => iqmWith((d) => { d.joints[1].name = 'root'; }),
  'iqm-joint-unused': () => iqmWith((d) => {
    d.joints.push({ name: 'extra', parent: 0, trs: new Float32Array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]) });
    d.poses.push({ ...d.poses[0], parent: 0 });
  }),
  'iqm-pose-parent-range': () => iqmWith((d) => { d.poses[1].parent = 9; }),
  'iqm-pose-parent-order': () => iqmWith((d) => { d.poses[0].parent = 1; d.poses[1].parent = -1; }, animationOnlyIqm),
  'iqm-pose-cycle': () => iqmWith((d) => { d.poses[0].parent = 1; }, animationOnlyIqm),
  'iqm-pose-parent-mismatch': () => iqmWith((d) => { d.poses[1].parent = -1; }),
  'iqm-pose-count': () => iqmWith((d) => { d.poses.push({ ...d.poses[0], parent: 0 }); }),
  'iqm-pose-mask-reserved': () => { const b = clean(); return poke(b, headerField(b, 'ofs_poses') + 4, 1 << 10); },
  'iqm-pose-nonfinite': () => iqmWith((d) => { d.poses[0].scale[5] = NaN; }),
  'iqm-frame-nonfinite': () => iqmWith((d) => { d.poses[1].scale[0] = 1e36; }),
  'iqm-frame-quat': () => iqmWith((d) => { d.poses[1].offset[6] = 2; }),
  'iqm-frames-without-poses': () => iqmWith((d) => { d.poses = []; d.frameChannels = 0; d.frames = new Uint16Array(0); }),
  'iqm-anim-range': () => iqmWith((d) => { d.anims[0].frameCount = 3; }),
  'iqm-anim-empty': () => iqmWith((d) => { d.anims[0].frameCount = 0; }),
  'iqm-anim-framerate': () => iqmWith((d) => { d.anims[0].framerate = 0; }),
  'iqm-anim-flags': () => iqmWith((d) => { d.anims[0].flags = 3; }),
  'iqm-anim-name-duplicate': () => iqmWith((d) => { d.anims.push({ name: 'idle', firstFrame: 1, frameCount: 1, framerate: 10, flags: 0 }); }),
  'iqm-frames-no-anims': () => iqmWith((d) => { d.anims = []; }),
  'iqm-bounds-nonfinite': () => iqmWith((d) => { d.bounds![0] = NaN; }),
  'iqm-bounds-inverted': () => iqmWith((d) => { d.bounds![0] = 5; }),
  'iqm-bounds-contain': () => iqmWith((d) => { d.bounds![11] = 1.5; }),
  'iqm-bounds-radius': () => iqmWith((d) => { d.bounds![7] = 1; }),
  'iqm-vertex-nonfinite': () => iqmWith((d) => { arrayOf(d, 1).data[3] = NaN; }),
  'iqm-normal-unit': () => iqmWith((d) => { arrayOf(d, 2).data[2] = 2; }),
  'iqm-tangent-unit': () => iqmWith((d) => { arrayOf(d, 3).data[0] = 2; }),
  'iqm-tangent-w': () => iqmWith((d) => { arrayOf(d, 3).data[3] = 0.5; }),
  'iqm-weight-negative': () => iqmWith((d) => {
    arrayOf(d, 5).format = 7;
    arrayOf(d, 5).data = new Float32Array([1.5, -0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
  }),
  'iqm-blend-index-range': () => iqmWith((d) => { arrayOf(d, 4).data[0] = 5; }),
  'iqm-weights-zero': () => iqmWith((d) => { arrayOf(d, 5).data[0] = 0; }),
  'iqm-weights-sum': () => iqmWith((d) => { arrayOf(d, 5).data[0] = 200; }),
  'iqm-weight-index-unweighted': () => iqmWith((d) => { arrayOf(d, 4).data[1] = 1; }),
  'iqm-blend-without-joints': () => iqmWith((d) => { d.joints = []; d.poses = []; d.anims = []; d.frameCount = 0; d.frameChannels = 0; d.frames = new Uint16Array(0); d.bounds = null; }),
  'iqm-comment-unterminated': () => setHeader(clean(), 'num_comment', 5),
  'iqm-extension-loop': () => {
    const b = iqmWith((d) => { d.extensions = [{ name: 'MY_EXT', data: new Uint8Array([1, 2, 3, 4]), offset: 0 }]; });
    const ext = headerField(b, 'ofs_extensions');
    poke(b, ext + 12, ext);
    return setHeader(b, 'num_extensions', 2);
  },
  'iqm-extension-count': () => setHeader(iqmWith((d) => { d.extensions = [{ name: 'MY_EXT', data: new Uint8Array([1, 2, 3, 4]), offset: 0 }]; }), 'num_extensions', 2),
  'iqm-fte-mesh-size': () => iqmWith((d) => { d.extensions = [{ name: 'FTE_MESH', data: new Uint8Array(4), offset: 0 }]; }),
  'iqm-name-control': () => iqmWith((d) => { d.joints[1].name = 'ti\u0001p'; }),
  'iqm-nothing': () => writeIqmDocument({ ...animationOnlyIqm(), poses: [], anims: [], frameCount: 0, frameChannels: 0, frames: new Uint16Array(0) }),
};

/** A triangle added to the end of the only mesh, with no neighbours. */
function addTriangle(d: IqmDocument, t: number[]): void {
  d.triangles = Uint32Array.from([...d.triangles, ...t]);
  d.adjacency = Uint32Array.from([...d.adjacency!, 0xffffffff, 0xffffffff, 0xffffffff]);
  d.meshes[0].triangleCount++;
}

/** A vertex added to the end of every array (weighted to "root"), in the only mesh. */
function addVertex(d: IqmDocument, p: number[]): void {
  const extra: Record<number, number[]> = { 0: p, 1: [0, 0], 2: [0, 0, 1], 3: [1, 0, 0, 1], 4: [0, 0, 0, 0], 5: [255, 0, 0, 0] };
  for (const a of d.vertexArrays) {
    const Ctor = a.data.constructor as new (values: number[]) => typeof a.data;
    a.data = new Ctor([...a.data, ...extra[a.type]]);
  }
  d.vertexCount++;
  d.meshes[0].vertexCount++;
}

test('the clean generated IQM has no issue at all', () => {
  const report = validateModel(clean())!;
  assert.deepEqual(report.issues, []);
  assert.deepEqual(report.notes, []);
});

for (const code of Object.keys(VALIDATION_CODES).filter((c) => c.startsWith('iqm-')) as ValidationCode[]) {
  test(`${code}: its generated file triggers it and nothing else`, () => {
    const make = TRIGGERS[code];
    assert.ok(make, `no trigger file for ${code}`);
    const report = validateModel(make())!;
    assert.ok(report, 'validated as IQM');
    assert.deepEqual(firedCodes(report), [code], JSON.stringify(report.issues.map((i) => `${i.code}: ${i.message}`), null, 1));
    const issue = report.issues[0];
    assert.equal(issue.severity, VALIDATION_CODES[code].severity);
    assert.equal(issue.kind, VALIDATION_CODES[code].kind);
    assert.ok(issue.offset >= 0 && issue.offset <= make().length, `offset ${issue.offset} inside the file`);
    assert.ok(issue.where.length > 0 && issue.message.length > 0);
  });
}

test('a code that fires many times keeps 5 issues and counts the rest', () => {
  const bytes = iqmWith((d) => { arrayOf(d, 2).data.fill(0); });
  const report = validateModel(bytes)!;
  assert.deepEqual(firedCodes(report), ['iqm-normal-unit']);
  assert.equal(report.issues.length, 4);
  const many = validateModel(bytes, { keptPerCode: 2 })!;
  assert.equal(many.issues.length, 2);
  assert.deepEqual(many.omitted, { 'iqm-normal-unit': 2 });
  assert.equal(many.counts.warning, 4);
});

test('overrides turn a code off or change its severity; unknown codes and severities are named', () => {
  const bytes = iqmWith((d) => { d.anims[0].framerate = 0; d.meshes[0].material = ''; });
  const { overrides, errors } = parseSeverityOverrides({ codes: { 'iqm-anim-framerate': 'error', 'iqm-mesh-material-empty': 'off' } });
  assert.deepEqual(errors, []);
  const report = validateModel(bytes, { overrides })!;
  assert.deepEqual(report.issues.map((i) => [i.code, i.severity]), [['iqm-anim-framerate', 'error']]);
  assert.deepEqual(parseSeverityOverrides({ codes: { 'no-such': 'error', 'iqm-nothing': 'fatal' } }).errors, ['unknown code "no-such"', 'iqm-nothing: "fatal" is not one of error, warning, information, hint, off']);
});

test('where names the mesh and vertex, and the offset is the value\'s byte', () => {
  const bytes = iqmWith((d) => { arrayOf(d, 1).data[5] = Infinity; });
  const [issue] = validateModel(bytes)!.issues;
  assert.equal(issue.code, 'iqm-vertex-nonfinite');
  assert.match(issue.where, /^mesh 0 "body", vertex 2, vertex array 1 \(texcoord\)$/);
  const texcoords = new DataView(bytes.buffer).getUint32(headerField(bytes, 'ofs_vertexarrays') + IQM_RECORD.vertexArray + 16, true);
  assert.equal(issue.offset, texcoords + 5 * 4);
  void H;
});

test('docs/VALIDATION.md lists every code with its kind and severity, as codes.ts has them', () => {
  const doc = readFileSync('docs/VALIDATION.md', 'utf8');
  const start = doc.indexOf(CODE_TABLE_START), end = doc.indexOf(CODE_TABLE_END);
  assert.ok(start >= 0 && end > start, 'the doc has the table markers');
  assert.equal(doc.slice(start, end + CODE_TABLE_END.length), validationCodeTable());
  assert.ok(Object.keys(VALIDATION_CODES).length >= 60);
});

test('every code has a section in docs/VALIDATION.md, found by the line the Problems panel links to', () => {
  const doc = readFileSync('docs/VALIDATION.md', 'utf8');
  const lines = doc.split('\n');
  const sections = codeSectionLines(doc);
  assert.deepEqual([...sections.keys()].sort(), Object.keys(VALIDATION_CODES).sort());
  for (const [code, line] of sections) {
    assert.equal(lines[line - 1], `### \`${code}\``);
    // The table links each code to its section (GitHub's anchor of the heading).
    assert.ok(doc.includes(`| [\`${code}\`](#${code}) |`), `${code} is linked from the table`);
  }
  // The section says what ioquake3 does, with the lines read: a code cited from R_LoadIQM.
  const triangle = lines.slice(sections.get('iqm-triangle-index')!, sections.get('iqm-triangle-outside-mesh')! - 1).join('\n');
  assert.match(triangle, /\*\*ioquake3\*\*: .* \(ioquake\/ioq3 code\/renderergl1\/tr_model_iqm\.c:391-395 @2ca05943\)/);
});

// The language features beyond diagnostics, as pure functions of a parsed document: outline,
// folding, hover, go to definition, references, completion, quick fixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IqeDocument } from '../../core/iqe/document';
import { faceVertex, joints, sections, tokenAt, verticesBefore, vertexLine } from '../../core/iqe/navigation';
import { documentSymbols } from '../../server/symbols';
import { foldingRanges } from '../../server/folding';
import { hover } from '../../server/hover';
import { definition, references } from '../../server/references';
import { completions } from '../../server/completion';
import { codeActions } from '../../server/codeActions';
import type { Diagnostic } from 'vscode-languageserver';

const URI = 'file:///model.iqe';

// Line numbers (0-based) are noted on the right.
const MODEL = [
  '# Inter-Quake Export', //           0
  'joint "root" -1', //                1
  'joint "arm" 0', //                  2
  'joint "hand" 1', //                 3
  'pq 0 0 0 0 0 0 -1', //              4
  'pq 0 0 1 0 0 0 -1', //              5
  'pq 0 0 1 0 0 0 -1', //              6
  'mesh "body"', //                    7
  'material "skin.tga"', //            8
  'vp 0 0 0', //                       9  vertex 0
  '\tvb 0 1', //                       10
  'vp 1 0 0', //                       11 vertex 1
  '\tvb 1 1', //                       12
  'vp 0 1 0', //                       13 vertex 2
  '\tvb 2 0.5 1 0.5', //               14
  'fm 0 1 2', //                       15
  'mesh "head"', //                    16
  'vp 0 0 2', //                       17 vertex 3
  '\tvb 2 1', //                       18
  'vp 1 0 2', //                       19 vertex 4
  '\tvb 2 1', //                       20
  'vp 0 1 2', //                       21 vertex 5
  '\tvb 2 1', //                       22
  'fm 0 1 2', //                       23 → vertices 3 4 5
  'fa 3 -1 4', //                      24 → vertices 3 5 4
  'animation "wave"', //               25
  'framerate 12', //                   26
  'loop', //                           27
  'frame', //                          28
  'pq 0 0 0 0 0 0 -1', //              29
  'pq 0 0 1 0 0 0 -1', //              30
  'pq 0 0 1 0 0 0 -1', //              31
  'frame', //                          32
  'pq 0 0 0 0 0 0 -1', //              33
  'pq 0 0 1 0.1 0 0 -0.99498744', //   34
  'pq 0 0 1 0 0 0 -1', //              35
  'comment', //                        36
  'made by hand', //                   37
  'vp 9 9 9', //                       38 (comment text)
].join('\n');

const doc = new IqeDocument(MODEL);

test('navigation: vertex lines and indices, fm resolved from the last mesh, negative indices', () => {
  assert.equal(verticesBefore(doc, 17), 3);
  assert.equal(vertexLine(doc, 0), 9);
  assert.equal(vertexLine(doc, 5), 21);
  assert.equal(vertexLine(doc, 6), -1, 'the vp after comment is comment text');
  assert.deepEqual([0, 1, 2].map((k) => faceVertex(doc, 23, k)), [3, 4, 5]);
  assert.deepEqual([0, 1, 2].map((k) => faceVertex(doc, 24, k)), [3, 5, 4]);
  assert.deepEqual([0, 1, 2].map((k) => faceVertex(doc, 15, k)), [0, 1, 2]);
});

test('navigation: tokenAt names the command, the name and the k-th value', () => {
  assert.equal(tokenAt(doc, 24, 0)?.role, 'command');
  const value = tokenAt(doc, 24, 6);
  assert.equal(value?.role, 'value');
  assert.equal(value?.valueIndex, 1);
  assert.deepEqual([value?.start, value?.end], [5, 7]);
  const name = tokenAt(doc, 2, 8);
  assert.equal(name?.role, 'name');
  assert.equal(name?.name, 'arm');
  assert.equal(tokenAt(doc, 37, 0), undefined, 'comment text has no tokens');
});

test('navigation: joints and sections', () => {
  assert.deepEqual(joints(doc).map((j) => [j.name, j.parent, j.line]), [['root', -1, 1], ['arm', 0, 2], ['hand', 1, 3]]);
  const s = sections(doc);
  assert.deepEqual(s.map((x) => [x.kind, x.name, x.line, x.endLine]), [
    ['mesh', 'body', 7, 15],
    ['mesh', 'head', 16, 24],
    ['animation', 'wave', 25, 35],
    ['comment', 'comment', 36, 38],
  ]);
  assert.equal(s[0].material, 'skin.tga');
  assert.deepEqual([s[0].vertices, s[0].faces, s[1].vertices, s[1].faces], [3, 1, 3, 2]);
  assert.deepEqual([s[2].frames, s[2].framerate, s[2].loop, s[2].frameLines], [2, 12, true, [29, 33]]);
});

test('outline: the skeleton as a tree, meshes, animation with frames, comment', () => {
  const symbols = documentSymbols(doc);
  assert.deepEqual(symbols.map((s) => s.name), ['skeleton', 'body', 'head', 'wave', 'comment']);
  const root = symbols[0].children![0];
  assert.equal(root.name, 'root');
  assert.equal(root.children![0].name, 'arm');
  assert.equal(root.children![0].children![0].name, 'hand');
  assert.match(symbols[1].detail!, /material skin\.tga, 3 vertices, 1 faces/);
  assert.equal(symbols[3].detail, '2 frames at 12 fps, loop');
  assert.deepEqual(symbols[3].children!.map((c) => c.range.start.line), [29, 33]);
  assert.deepEqual([symbols[1].range.start.line, symbols[1].range.end.line], [7, 15]);
});

test('folding: skeleton, meshes, animation and its frames, comment', () => {
  const ranges = foldingRanges(doc).map((r) => [r.startLine, r.endLine]);
  for (const expected of [[1, 3], [7, 15], [16, 24], [25, 35], [28, 31], [32, 35], [36, 38]]) {
    assert.ok(ranges.some((r) => r[0] === expected[0] && r[1] === expected[1]), `missing fold ${expected} in ${JSON.stringify(ranges)}`);
  }
});

test('hover: a face index shows the vertex it resolves to; a parent and a vb joint show the joint', () => {
  const face = hover(doc, { line: 23, character: 5 });
  assert.match(JSON.stringify(face?.contents), /Vertex \*\*4\*\*, line 20/);
  assert.match(JSON.stringify(face?.contents), /vp 1 0 2/);
  assert.match(JSON.stringify(hover(doc, { line: 2, character: 12 })?.contents), /joint 0 `root` \(line 2\)/);
  assert.match(JSON.stringify(hover(doc, { line: 14, character: 5 })?.contents), /joint 2 `hand`/);
  assert.match(JSON.stringify(hover(doc, { line: 17, character: 0 })?.contents), /vertex \*\*3\*\*/);
  assert.match(JSON.stringify(hover(doc, { line: 26, character: 2 })?.contents), /Frames per second/);
  assert.equal(hover(doc, { line: 37, character: 2 }), null);
});

test('definition: face index → its vp line; parent → joint line; vb joint → joint line', () => {
  assert.equal(definition(doc, URI, { line: 24, character: 6 })[0].range.start.line, 21);
  assert.equal(definition(doc, URI, { line: 3, character: 14 })[0].range.start.line, 2);
  assert.equal(definition(doc, URI, { line: 14, character: 5 })[0].range.start.line, 3);
  assert.deepEqual(definition(doc, URI, { line: 9, character: 4 }), []);
});

test('references: a vp → faces that use it; a joint → children and vb lines', () => {
  assert.deepEqual(references(doc, URI, { line: 19, character: 0 }, false).map((l) => l.range.start.line), [23, 24]);
  assert.deepEqual(references(doc, URI, { line: 2, character: 8 }, true).map((l) => l.range.start.line), [2, 3, 12, 14]);
});

test('completion: commands at the start of a line, vertexarray words after it, nothing in comment text', () => {
  const atStart = completions(new IqeDocument('# Inter-Quake Export\nv'), { line: 1, character: 1 });
  assert.ok(atStart.some((c) => c.label === 'vp') && atStart.some((c) => c.label === 'vertexarray'));
  const types = completions(new IqeDocument('# Inter-Quake Export\nvertexarray '), { line: 1, character: 12 });
  assert.ok(types.some((c) => c.label === 'blendindexes'));
  const formats = completions(new IqeDocument('# Inter-Quake Export\nvertexarray blendindexes '), { line: 1, character: 25 });
  assert.ok(formats.some((c) => c.label === 'ushort'));
  assert.deepEqual(completions(doc, { line: 37, character: 0 }), []);
});

test('quick fixes: command case, decimal comma, header, quaternion, quote, comment text', () => {
  const text = ['vp 0 0 0', 'VP 1 2 3', 'vp 1,5 0 0', 'pq 0 0 0 0 0 0 2', 'mesh "open', 'comment trailing'].join('\n');
  const broken = new IqeDocument(text);
  const diagnostics: Diagnostic[] = broken.diagnostics().map((d) => ({
    range: { start: { line: d.range.line, character: d.range.column }, end: { line: d.range.endLine, character: d.range.endColumn } },
    message: d.message,
    code: d.code,
    source: 'iqe',
  }));
  const actions = codeActions(broken, URI, diagnostics);
  const edits = actions.map((a) => [a.title, a.edit!.changes![URI][0].newText]);
  assert.deepEqual(
    edits.map((e) => e[1]),
    ['# Inter-Quake Export\n', 'vp', '1.5', '-0 -0 -0 -1', '"', '\n'],
    JSON.stringify(edits),
  );
});

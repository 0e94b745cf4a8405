// The compile's source map (core/compile/sourceMap.ts), checked against an oracle written here:
// each written triangle's face line, read and resolved independently (fa absolute, fm from the
// last `mesh`, negative from the vp count so far), must fan into a triangle whose corners are the
// written triangle's source vertices, in the same winding; each written vertex's line must be the
// `vp` of its source vertex with the written position. On small files that split, weld and
// reorder, and on the real IQE files of ../shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import type { CompileSourceMap } from '../../core/compile/sourceMap';
import { attributeVertex, SourceLineIndex } from '../../core/compile/sourceMap';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';

const shared = resolve(process.cwd(), '..', 'shared');

function compileWithMap(text: string): { model: Model; map: CompileSourceMap } {
  const result = compile([textSource(text, 'test.iqe')], { sourceMap: true });
  assert.ok(result.bytes, JSON.stringify(result.diagnostics.filter((d) => d.diagnostic.severity === 'error')));
  assert.ok(result.sourceMap, 'a source map was asked for');
  return { model: readModel(result.bytes), map: result.sourceMap };
}

/** The oracle: per line, the vp index it defines, or the fan triangles (source vertex triples) of its face. */
function readLines(text: string): { vpAt: Map<number, number>; vpLine: number[]; fans: Map<number, number[][]>; jointLine: number[] } {
  const vpAt = new Map<number, number>();
  const vpLine: number[] = [];
  const fans = new Map<number, number[][]>();
  const jointLine: number[] = [];
  let base = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let l = 0; l < lines.length; l++) {
    const words = lines[l].trim().split(/\s+/);
    if (words[0] === 'comment') break;
    if (words[0] === 'vp') {
      vpAt.set(l, vpLine.length);
      vpLine.push(l);
    } else if (words[0] === 'mesh') base = vpLine.length;
    else if (words[0] === 'joint') jointLine.push(l);
    else if (words[0] === 'fa' || words[0] === 'fm') {
      const index = words.slice(1).map(Number).map((i) => (i < 0 ? vpLine.length + i : words[0] === 'fm' ? base + i : i));
      const fan: number[][] = [];
      for (let k = 2; k < index.length; k++) fan.push([index[0], index[k - 1], index[k]]);
      fans.set(l, fan);
    }
  }
  return { vpAt, vpLine, fans, jointLine };
}

function checkAgainstOracle(text: string, label: string): { triangles: number; vertices: number } {
  const { model, map } = compileWithMap(text);
  const oracle = readLines(text);
  const lines = text.split(/\r\n|\r|\n/);
  assert.deepEqual(Array.from(map.sourceVertexLines), oracle.vpLine, `${label}: the vp lines`);
  const positions = model.meshes.flatMap((m) => Array.from(m.position));
  let t = 0;
  let base = 0;
  for (const mesh of model.meshes) {
    for (let i = 0; i < mesh.triangleCount; i++, t++) {
      // The face line fans into exactly this triangle's source corners, in order (winding kept).
      const line = map.triangleLines[t];
      const fan = oracle.fans.get(line);
      assert.ok(fan, `${label}: triangle ${t} points at line ${line}, no face: '${lines[line]}'`);
      const sources = [0, 1, 2].map((k) => map.cornerSources[3 * t + k]);
      assert.ok(fan.some((f) => f.every((x, k) => x === sources[k])), `${label}: triangle ${t} (${sources}) is none of line ${line}'s ${JSON.stringify(fan)}`);
      for (let k = 0; k < 3; k++) {
        // The written corner is the model's, and has its source vp's position (no -s/-t/-r here).
        const vertex = base + mesh.indices[3 * i + k];
        assert.equal(map.triangles[3 * t + k], vertex, `${label}: triangle ${t} corner ${k}`);
        const values = lines[oracle.vpLine[sources[k]]].trim().split(/\s+/).slice(1, 4).map(Number);
        for (let c = 0; c < 3; c++) {
          const want = Math.fround(values[c] ?? 0);
          assert.ok(Math.abs(positions[3 * vertex + c] - want) <= 1e-6 * Math.max(1, Math.abs(want)), `${label}: triangle ${t} corner ${k} value ${c}`);
        }
      }
    }
    base += mesh.vertexCount;
  }
  assert.equal(t, map.triangleLines.length, label);
  assert.deepEqual(Array.from(map.jointLines), oracle.jointLine.slice(0, map.jointLines.length), label);
  return { triangles: t, vertices: base };
}

// Two meshes, the second with `fm` and a quad, a section repeated (merged into the first mesh),
// a vertex shared by two faces with different smoothing (split in two), a negative index.
const SMALL = [
  '# Inter-Quake Export',
  'joint root -1',
  'joint arm 0',
  'pq 0 0 0 0 0 0 1',
  'pq 0 0 1 0 0 0 1',
  'mesh a',
  'material m',
  'vp 0 0 0', 'vb 0 1',
  'vp 1 0 0', 'vb 0 1',
  'vp 0 1 0', 'vb 1 1',
  'vp 0 0 1', 'vb 1 1',
  'smoothgroup 1',
  'fa 0 1 2',
  'smoothgroup 2',
  'fa 0 2 3',
  'mesh b',
  'material n',
  'vp 2 0 0', 'vb 0 1',
  'vp 3 0 0', 'vb 0 1',
  'vp 3 1 0', 'vb 0 1',
  'vp 2 1 0', 'vb 1 1',
  'fm 0 1 2 3',
  'mesh a',
  'material m',
  'fa 1 3 -6',
  '',
].join('\n');

test('source map: every written vertex and triangle points at its vp and face line (small file)', () => {
  const counts = checkAgainstOracle(SMALL, 'small');
  assert.equal(counts.triangles, 5);
});

test('source map: line -> written vertices, triangles and joint', () => {
  const { map } = compileWithMap(SMALL);
  const lines = SMALL.split('\n');
  const index = new SourceLineIndex(map);
  const faLine = lines.indexOf('fm 0 1 2 3');
  const quad = index.targetAt(faLine);
  assert.equal(quad?.kind, 'face');
  assert.equal(quad?.kind === 'face' && quad.triangles.length, 2, 'a quad is two triangles');
  const vpLine = lines.indexOf('vp 0 0 0');
  const vertex = index.targetAt(vpLine);
  assert.equal(vertex?.kind, 'vertex');
  // Vertex 0 is in faces of two smoothing groups with different normals: written twice.
  assert.equal(vertex?.kind === 'vertex' && vertex.vertices.length, 2);
  assert.deepEqual(vertex?.kind === 'vertex' && vertex.vertices, index.verticesOf(0));
  // The vertex of the vb line below it is the same.
  assert.deepEqual(index.targetAt(vpLine + 1, attributeVertex((l) => lines[l] ?? '', vpLine + 1)), { ...vertex, line: vpLine + 1 });
  // The triangles of the quad name its face and, corner by corner, the vp lines its indices resolve to.
  const fmBase = lines.indexOf('mesh b');
  const quadVp = [0, 1, 2, 3].map((k) => fmBase + 2 + 2 * k);
  for (const t of quad?.kind === 'face' ? quad.triangles : []) {
    const { face, vertices } = index.linesOf(t);
    assert.equal(face, faLine);
    assert.ok(vertices.every((l) => quadVp.includes(l)), `${vertices} within ${quadVp}`);
  }
  assert.deepEqual(index.targetAt(lines.indexOf('joint arm 0')), { kind: 'joint', joint: 1, line: 2 });
  assert.equal(index.targetAt(lines.indexOf('material m')), null);
  // The k-th vb line is vertex k.
  const text = (l: number) => lines[l] ?? '';
  const vbLines = lines.map((l, i) => (l.startsWith('vb') ? i : -1)).filter((i) => i >= 0);
  vbLines.forEach((l, k) => assert.equal(attributeVertex(text, l), k));
  assert.equal(attributeVertex(text, faLine), -1);
});

test('source map: not made unless asked for, and the IQM is the same with it', () => {
  const plain = compile([textSource(SMALL, 'a.iqe')]);
  const mapped = compile([textSource(SMALL, 'a.iqe')], { sourceMap: true });
  assert.equal(plain.sourceMap, undefined);
  assert.deepEqual(plain.bytes, mapped.bytes);
});

test('source map: the real IQE files of ../shared', (t) => {
  const root = join(shared, 'assets', 'iqe');
  if (!existsSync(root)) return t.skip('../shared/assets is absent');
  let files = 0;
  for (const folder of readdirSync(root)) {
    for (const name of readdirSync(join(root, folder)).filter((f) => f.endsWith('.iqe'))) {
      const counts = checkAgainstOracle(readFileSync(join(root, folder, name), 'utf8'), `${folder}/${name}`);
      assert.ok(counts.triangles > 0, name);
      files++;
    }
  }
  assert.equal(files, 6);
});

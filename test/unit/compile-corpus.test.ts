// The compiler against the reference compiler's outputs (../shared/reference/iqe/*.iqm) for the
// six shared IQE files: every block byte for byte, except adjacency (checked against B1 computed
// independently) and the tangent rows of IQE-SEMANTICS.md §7 (checked against B2 / B8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { blocks, compileText, expectedAdjacency, floatRows, parseIqm, type IqmFile } from '../helpers/compile-iqm';

const SHARED = resolve(process.cwd(), '..', 'shared');
const ASSETS = join(SHARED, 'assets', 'iqe');
const REFERENCE = join(SHARED, 'reference', 'iqe');
const ABSENT = existsSync(ASSETS) && existsSync(REFERENCE) ? false : `${SHARED}: ../shared assets or reference outputs are absent`;

interface Case {
  path: string;
  /** Adjacency entries and tangent rows that differ from the reference (§7). */
  adjacency: number;
  tangents: number;
  tangentKind: 'none' | 'B2' | 'B8';
}

const CASES: Case[] = [
  { path: 'love-und-panzer/uv_grid', adjacency: 0, tangents: 0, tangentKind: 'none' },
  { path: 'love-und-panzer/test_cube', adjacency: 22, tangents: 24, tangentKind: 'B8' },
  { path: 'love-und-panzer/tank', adjacency: 16384, tangents: 3892, tangentKind: 'B8' },
  { path: 'unvanquished/rocket', adjacency: 284, tangents: 0, tangentKind: 'B2' },
  { path: 'unvanquished/medistat', adjacency: 2142, tangents: 24, tangentKind: 'B2' },
  { path: 'unvanquished/lgun_view', adjacency: 15453, tangents: 561, tangentKind: 'B2' },
];

function f32hex(values: number[]): string {
  const a = new Float32Array(values);
  return Buffer.from(a.buffer).toString('hex');
}

/** Source vertices of the IQE by (position, texcoord, normal) as written (float32): their vx rows. */
function vxBySource(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let vp: number[] | null = null;
  let vt: number[] = [], vn: number[] = [], vx: number[] = [];
  const flush = (): void => {
    if (!vp) return;
    const key = f32hex([...vp.slice(0, 3), ...vt.slice(0, 2), ...vn.slice(0, 3)]);
    const list = map.get(key) ?? [];
    list.push(f32hex(vx));
    map.set(key, list);
  };
  for (const raw of text.split('\n')) {
    const parts = raw.trim().split(/\s+/);
    const nums = parts.slice(1).map(Number);
    if (parts[0] === 'vp') {
      flush();
      vp = nums;
    } else if (parts[0] === 'vt') vt = nums;
    else if (parts[0] === 'vn') vn = nums;
    else if (parts[0] === 'vx') vx = nums.length >= 4 ? nums.slice(0, 4) : [...nums, 0];
  }
  flush();
  return map;
}

function checkTangents(c: Case, ours: IqmFile, ref: IqmFile, text: string): void {
  const oursT = floatRows(ours, 3);
  const refT = floatRows(ref, 3);
  const differing: number[] = [];
  oursT.forEach((row, i) => {
    if (f32hex(row) !== f32hex(refT[i])) differing.push(i);
  });
  assert.equal(differing.length, c.tangents, `${c.path}: tangent rows that differ from the reference`);
  if (c.tangentKind === 'B8') {
    const normals = floatRows(ours, 2);
    for (const i of differing) {
      assert.ok(refT[i].some(Number.isNaN), `${c.path}: reference tangent row ${i} should be NaN`);
      const [x, y, z, w] = oursT[i];
      const [nx, ny, nz] = normals[i];
      assert.equal(w, 1);
      assert.ok(Math.abs(Math.hypot(x, y, z) - 1) < 1e-6, `row ${i} unit length`);
      assert.ok(Math.abs(x * nx + y * ny + z * nz) < 1e-6, `row ${i} orthogonal to the normal`);
      // The axis where |n| is smallest is the one the fallback starts from: its component is the largest.
      const an = [Math.abs(nx), Math.abs(ny), Math.abs(nz)];
      const axis = an.indexOf(Math.min(...an));
      const t = [Math.abs(x), Math.abs(y), Math.abs(z)];
      assert.ok(t[axis] >= Math.max(...t) - 1e-6, `row ${i} built from axis ${axis}`);
    }
  } else if (c.tangentKind === 'B2') {
    const sources = vxBySource(text);
    const pos = floatRows(ours, 0), tex = floatRows(ours, 1), nor = floatRows(ours, 2);
    oursT.forEach((row, i) => {
      const key = f32hex([...pos[i], ...tex[i], ...nor[i]]);
      const candidates = sources.get(key);
      assert.ok(candidates, `${c.path}: output vertex ${i} has a source vertex`);
      assert.ok(candidates.includes(f32hex(row)), `${c.path}: output vertex ${i} has the vx of its source vertex (B2)`);
    });
  }
}

for (const c of CASES) {
  const name = c.path.split('/')[1];
  test(`compile ${c.path}.iqe matches the reference ${name}.iqm`, { skip: ABSENT }, () => {
    const text = readFileSync(join(ASSETS, `${c.path}.iqe`), 'utf8');
    const { file: ours } = compileText(text);
    const ref = parseIqm(new Uint8Array(readFileSync(join(REFERENCE, `${name}.iqm`))));
    assert.equal(ours.bytes.length, ref.bytes.length, 'file size');
    assert.deepEqual(ours.header, ref.header, 'header');
    for (const [block, start, end] of blocks(ref)) {
      if (block === 'adjacency') continue;
      if (block === 'array type 3' && c.tangents > 0) continue;
      const a = Buffer.from(ours.bytes.subarray(start, end));
      const b = Buffer.from(ref.bytes.subarray(start, end));
      assert.ok(a.equals(b), `${c.path}: block ${block} [${start}, ${end}) differs from the reference`);
    }
    // Adjacency: B1, computed independently; and as many entries differ from the reference as §7 says.
    assert.deepEqual([...ours.adjacency], [...expectedAdjacency(ours)], `${c.path}: adjacency is B1`);
    let adjacencyDiffs = 0;
    ours.adjacency.forEach((v, i) => (adjacencyDiffs += v !== ref.adjacency[i] ? 1 : 0));
    assert.equal(adjacencyDiffs, c.adjacency, `${c.path}: adjacency entries that differ from the reference`);
    if (c.tangentKind !== 'none') checkTangents(c, ours, ref, text);
    if (c.adjacency === 0 && c.tangents === 0) assert.ok(Buffer.from(ours.bytes).equals(Buffer.from(ref.bytes)), 'byte-identical');
  });
}

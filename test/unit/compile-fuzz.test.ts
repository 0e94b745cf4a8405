// The compiler on broken and odd input (issue 4: "a file with error diagnostics is not compiled";
// the standards: bad input gets a clear error, never a crash or a partial output). Valid models
// (the small shared IQE files, and a generated skinned model with an animation) get random
// line-level edits: lines deleted, doubled, swapped, numbers replaced by extreme or malformed
// values, and command lines inserted. For every edited text:
// - compiling never throws; bytes are written exactly when there is no error diagnostic;
// - the streamed ingest of the CLI (core/compile/ingest.ts) reaches the same verdict;
// - written bytes read back with the core IQM reader, with the counts the compile reported.
// The same for several inputs (a mesh file, then edited animation files, merged as the CLI's
// several inputs are).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { compileDocument } from '../helpers/compile-iqm';
import { ingestText } from '../../core/compile/ingest';
import { IqeDocument } from '../../core/iqe/document';
import { readModel } from '../../core/formats/models';
import { prng } from '../helpers/iqe-fixtures';
import { skinnedModel } from '../helpers/skinned-model';
import { replaceNumber } from '../helpers/iqe-fuzz';

const assets = resolve(process.cwd(), '..', 'shared', 'assets', 'iqe');
const SHARED_BASES = ['love-und-panzer/test_cube', 'love-und-panzer/uv_grid', 'unvanquished/rocket'];

const NUMBERS = ['-1', '0', '-0', '1', '2', '3.5', '255', '256', '65536', '2147483648', '-2147483649', '1e308', '-1e308', '1e-320', 'nan', 'inf', '0x10', '1e', '', 'x'];
const LINES = [
  'joint "extra" 0', 'joint "loop" 7', 'joint "far" -5', 'mesh "second"', 'material "other"', 'fm 0 1 99999', 'fa -1 0 1', 'fm 0 0 0',
  'vb 300 1', 'vb 0 0', 'vb 1 -1 2 2', 'pq 1 2 3', 'pq 0 0 0 0 0 0 0', 'pm 0 0 0 1 0 0 0 1 0 0 0 1', 'pa 0 0 0 90 0 0', 'frame', 'animation "a2"',
  'framerate -3', 'loop', 'vertexarray custom0 float 4 "c"', 'vertexarray position half 3', 'vertexarray normal ubyte 3', 'fs 1 2 3', 'smoothuv 1',
  'smoothgroup 3', 'smoothangle 181', 'vs 0', 'comment', 'vp 1 2 3 4', 'vx 1 0 0 1', 'vx 1 0 0 0 1 0', 'vc 1 0 0 1', 'v0 1 2 3 4', 'vt 0.5', 'vn 0 0 0',
];

function mutate(text: string, random: () => number): string {
  const lines = text.split('\n');
  const pick = (n: number): number => Math.floor(random() * n);
  const edits = 1 + pick(4);
  for (let e = 0; e < edits && lines.length > 1; e++) {
    const at = 1 + pick(lines.length - 1);
    switch (pick(5)) {
      case 0:
        lines.splice(at, 1);
        break;
      case 1:
        lines.splice(at, 0, lines[at]);
        break;
      case 2: {
        const other = 1 + pick(lines.length - 1);
        [lines[at], lines[other]] = [lines[other], lines[at]];
        break;
      }
      case 3:
        lines[at] = replaceNumber(lines[at], random, NUMBERS);
        break;
      default:
        lines.splice(at, 0, LINES[pick(LINES.length)]);
    }
  }
  return lines.join('\n');
}

function check(text: string, label: string): 'compiled' | 'refused' {
  let result;
  try {
    result = compileDocument(new IqeDocument(text));
  } catch (error) {
    assert.fail(`${label}: the compile threw ${error instanceof Error ? error.stack : String(error)}\n--- text ---\n${text.slice(0, 4000)}`);
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(result.bytes !== undefined, errors.length === 0, `${label}: bytes exactly when there is no error (${errors.length} errors)`);
  assert.equal(ingestText(text).ok, errors.length === 0, `${label}: the CLI's streamed verdict`);
  if (!result.bytes) return 'refused';
  const bytes = result.bytes;
  assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(20, true), bytes.length, `${label}: filesize field`);
  let model;
  try {
    model = readModel(bytes);
  } catch (error) {
    assert.fail(`${label}: the compiled IQM does not read back: ${error instanceof Error ? error.message : String(error)}\n--- text ---\n${text.slice(0, 4000)}`);
  }
  assert.equal(model.meshes.length, result.stats.meshes, `${label}: meshes`);
  assert.equal(model.meshes.reduce((n, m) => n + m.triangleCount, 0), result.stats.triangles, `${label}: triangles`);
  assert.equal(model.frameCount, result.stats.frames, `${label}: frames`);
  return 'compiled';
}

function fuzz(base: string, name: string, seed: number, rounds: number): void {
  check(base, `${name} as it is`);
  const random = prng(seed);
  const verdicts = { compiled: 0, refused: 0 };
  for (let r = 0; r < rounds; r++) verdicts[check(mutate(base, random), `${name}, edit round ${r} (seed ${seed})`)]++;
  // Both outcomes happen, so that both paths were exercised.
  assert.ok(verdicts.compiled > 0 && verdicts.refused > 0, `${name}: ${JSON.stringify(verdicts)}`);
}

test('compile fuzz: a generated skinned model with an animation, edited at random', () => {
  fuzz(skinnedModel(3, { frames: 8, speed: 0.5 }), 'skinned model', 1, 250);
});

for (const file of SHARED_BASES) {
  test(`compile fuzz: ${file}.iqe edited at random`, (t) => {
    if (!existsSync(assets)) return t.skip('../shared is absent');
    fuzz(readFileSync(join(assets, `${file}.iqe`), 'utf8'), file, 7, 120);
  });
}

test('compile fuzz: a mesh file with edited animation files (several inputs)', () => {
  const mesh = skinnedModel(4, { frames: 3, speed: 0.3 });
  // Animation files: the same skeleton (joints and base poses), then frames; no mesh.
  const joints = mesh.slice(0, mesh.indexOf('mesh m'));
  const animation = (seed: number): string => {
    const full = skinnedModel(seed, { frames: 5, speed: 0.6 });
    return joints + full.slice(full.indexOf('animation a')).replace('animation a', `animation walk${seed}`);
  };
  const random = prng(11);
  const verdicts = { compiled: 0, refused: 0, animationRefused: 0 };
  for (let r = 0; r < 150; r++) {
    // One of the two animation files edited.
    const texts = r % 2 === 0 ? [mesh, mutate(animation(5), random), animation(6)] : [mesh, animation(5), mutate(animation(6), random)];
    const label = `several inputs, edit round ${r}`;
    let result;
    try {
      result = compile(texts.map((t) => textSource(t)));
    } catch (error) {
      assert.fail(`${label}: the compile threw ${error instanceof Error ? error.stack : String(error)}\n--- texts ---\n${texts.slice(1).join('\n--- next ---\n').slice(0, 6000)}`);
    }
    // Which text fails, if any: the first with an error diagnostic (each is checked on its own).
    const failing = texts.findIndex((text) => new IqeDocument(text).diagnostics().some((d) => d.severity === 'error'));
    if (failing > 0) {
      assert.equal(result.failed, failing, `${label}: failedText`);
      assert.equal(result.bytes, undefined, `${label}: nothing written`);
      verdicts.animationRefused++;
      continue;
    }
    assert.equal(result.failed, -1, label);
    if (!result.bytes) {
      verdicts.refused++;
      continue;
    }
    const model = readModel(result.bytes);
    assert.equal(model.frameCount, result.stats.frames, `${label}: frames`);
    assert.equal(model.meshes.reduce((n, m) => n + m.triangleCount, 0), result.stats.triangles, `${label}: triangles`);
    verdicts.compiled++;
  }
  assert.ok(verdicts.compiled > 0 && verdicts.animationRefused > 0, JSON.stringify(verdicts));
});

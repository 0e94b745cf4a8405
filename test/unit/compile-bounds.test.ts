// Per-frame bounds: the pruned computation (core/compile/bounds.ts computeBoundsPruned) must give the
// same doubles as evaluating every vertex in every frame (computeBoundsFull), on synthetic
// skinned models with blended, rigid and unweighted vertices, fast and slow motion, and exact
// zero extremes (where the order of equal values matters).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IqeDocument } from '../../core/iqe/document';
import { gatherInput } from '../../core/compile/input';
import { buildSkeleton } from '../../core/compile/skeleton';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { boundsRunner, boundsStats, computeBoundsFull, computeBoundsPruned, computeBoundsSmall, planBounds, type BoundsInput } from '../../core/compile/bounds';
import { compileDocument } from '../helpers/compile-iqm';
import { parallelBounds } from '../../node/compileParallel';
import { boundsKernelAvailable } from '../../core/compile/boundsBatch';
import { setWasmEnabled } from '../../core/wasm';
import { skinnedModel as model } from '../helpers/skinned-model';

/** Runs `body` with the WebAssembly kernels (wasm/*.ts), and again with the JavaScript versions. */
function bothWays(body: (way: string) => void): void {
  assert.ok(boundsKernelAvailable(), 'node runs the bounds kernel');
  body('kernel');
  setWasmEnabled(false);
  try {
    assert.equal(boundsKernelAvailable(), false);
    body('JavaScript');
  } finally {
    setWasmEnabled(true);
  }
}

function boundsInput(text: string): BoundsInput {
  const doc = new IqeDocument(text);
  assert.ok(!doc.diagnostics().some((d) => d.severity === 'error'));
  const input = gatherInput(text, doc.parsedChunks);
  return {
    vertices: Int32Array.from({ length: input.vertexCount }, (_, i) => i),
    positions: input.positions,
    blendBones: input.blendBones!,
    blendWeights: input.blendWeights!,
    skeleton: buildSkeleton(input),
    frames: Int32Array.from({ length: input.frameCount }, (_, i) => i),
    framePoses: input.framePoses,
    framePoseStride: input.framePoseStride,
    framePoseStart: input.framePoseStart,
  };
}

function sameDoubles(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

test('pruned bounds equal full bounds (slow and fast motion, several seeds)', () => {
  for (const seed of [1, 2, 3]) {
    for (const speed of [0.05, 0.6, 2.5]) {
      const input = boundsInput(model(seed, { frames: 40, speed }));
      assert.ok(sameDoubles(computeBoundsPruned(input), computeBoundsFull(input)), `seed ${seed}, speed ${speed}`);
      if (speed < 0.1) assert.ok(boundsStats.evaluated < input.vertices.length * input.frames.length / 2, `pruning happens: ${boundsStats.evaluated}`);
    }
  }
});

/**
 * A limb: a thin spindle along a chain of joints (widest in the middle), its vertices blending
 * the two nearest joints with a weight that changes along it, gently animated. Written column by
 * column, so a group (up to 16 consecutive vertices with the same two bones) spans many weights.
 */
function blendedLimb(frames: number): string {
  const joints = 8, rings = 96, around = 24;
  let s = '# Inter-Quake Export\n';
  for (let j = 0; j < joints; j++) s += `joint j${j} ${j - 1}\npq 0 0 ${j === 0 ? 0 : 1} 0 0 0 -1\n`;
  s += 'mesh m\n';
  // Column by column: consecutive vertices go along the limb.
  for (let a = 0; a < around; a++) {
    for (let r = 0; r < rings; r++) {
      const h = (r / (rings - 1)) * (joints - 1.001);
      const j0 = Math.floor(h), f = h - j0;
      const radius = 0.2 + 0.3 * Math.sin((Math.PI * r) / (rings - 1));
      const angle = (2 * Math.PI * a) / around;
      s += `vp ${(radius * Math.cos(angle)).toFixed(5)} ${(radius * Math.sin(angle)).toFixed(5)} ${h.toFixed(5)}\nvb ${j0} ${(1 - f).toFixed(5)} ${j0 + 1} ${f.toFixed(5)}\n`;
    }
  }
  s += 'fm 0 1 2\nanimation a\n';
  for (let fr = 0; fr < frames; fr++) {
    s += 'frame\n';
    for (let j = 0; j < joints; j++) {
      const angle = 0.08 * Math.sin(fr * 0.05 + j);
      s += `pq 0 0 ${j === 0 ? 0 : 1} ${Math.sin(angle / 2).toFixed(6)} 0 0 ${(-Math.cos(angle / 2)).toFixed(6)}\n`;
    }
  }
  return s;
}

test('blends that change along a limb: the weight-sum enclosure keeps the evaluated vertices few, and the bounds exact', () => {
  const input = boundsInput(blendedLimb(64));
  assert.ok(sameDoubles(computeBoundsPruned(input), computeBoundsFull(input)));
  // With each bone's term alone, a group's weight range times its whole position left 2137 of
  // the 2304 vertices evaluated per frame; with the weight-sum enclosure 774 (of which 288 are
  // the first block's frames evaluated in full for seeds).
  const perFrame = boundsStats.evaluated / input.frames.length;
  assert.ok(perFrame < input.vertices.length / 2, `evaluated per frame: ${perFrame.toFixed(0)} of ${input.vertices.length}`);
});

test('pruned bounds equal full bounds with a subset of vertices and exact zero extremes', () => {
  const input = boundsInput(model(7, { frames: 12, speed: 0, flat: true }));
  const full = computeBoundsFull(input);
  assert.ok(full.some((v) => Object.is(v, -0) || v === 0), 'the flat model has zero extremes');
  assert.ok(sameDoubles(computeBoundsPruned(input), full));
  const odd = { ...input, vertices: input.vertices.filter((v) => v % 3 !== 1) };
  assert.ok(sameDoubles(computeBoundsPruned(odd), computeBoundsFull(odd)));
});

test('small-input bounds (one matrix per influence set; the kernel and JavaScript) equal full bounds: motion, zero extremes, subsets, overflow', () => bothWays(() => {
  for (const seed of [1, 2]) {
    for (const speed of [0.05, 2.5]) {
      const input = boundsInput(model(seed, { frames: 20, speed }));
      assert.ok(sameDoubles(computeBoundsSmall(input), computeBoundsFull(input)), `seed ${seed}, speed ${speed}`);
    }
  }
  const flat = boundsInput(model(7, { frames: 12, speed: 0, flat: true }));
  assert.ok(sameDoubles(computeBoundsSmall(flat), computeBoundsFull(flat)));
  const odd = { ...flat, vertices: flat.vertices.filter((v) => v % 3 !== 1) };
  assert.ok(sameDoubles(computeBoundsSmall(odd), computeBoundsFull(odd)));
  const huge = boundsInput(model(5, { frames: 6, speed: 0.3 }).replace(/^vp (\S+) (\S+) (\S+)$/gm, (_, x: string, y: string, z: string) => `vp ${Number(x) * 1e307} ${Number(y) * 1e307} ${z}`));
  assert.ok(sameDoubles(computeBoundsSmall(huge), computeBoundsFull(huge)));
}));

/**
 * The input with the vertices `repeated` repeated (same position and influences) after all the
 * others, in that order, as a model's seams repeat points after other values.
 */
function withRepeatedPoints(input: BoundsInput, repeated: number[]): BoundsInput {
  const count = input.positions.length / 4;
  const positions = new Float64Array(4 * (count + repeated.length));
  const blendWeights = new Float64Array(positions.length);
  const blendBones = new Uint8Array(positions.length);
  positions.set(input.positions);
  blendWeights.set(input.blendWeights);
  blendBones.set(input.blendBones);
  repeated.forEach((from, k) => {
    const to = 4 * (count + k);
    positions.set(input.positions.subarray(4 * from, 4 * from + 4), to);
    blendWeights.set(input.blendWeights.subarray(4 * from, 4 * from + 4), to);
    blendBones.set(input.blendBones.subarray(4 * from, 4 * from + 4), to);
  });
  return { ...input, positions, blendWeights, blendBones, vertices: Int32Array.from({ length: count + repeated.length }, (_, i) => i) };
}

const evenVertices = (input: BoundsInput): number[] => Array.from({ length: input.positions.length / 8 }, (_, i) => 2 * i);

test('small-input bounds with repeated points (evaluated once; the kernel and JavaScript) equal full bounds, also at 0 extremes and NaN', () => bothWays(() => {
  for (const seed of [1, 2]) {
    const base = boundsInput(model(seed, { frames: 20, speed: 0.6 }));
    const input = withRepeatedPoints(base, evenVertices(base));
    assert.ok(sameDoubles(computeBoundsSmall(input), computeBoundsFull(input)), `seed ${seed}`);
  }
  const flatBase = boundsInput(model(7, { frames: 12, speed: 0, flat: true }));
  const flat = withRepeatedPoints(flatBase, evenVertices(flatBase));
  const flatFull = computeBoundsFull(flat);
  assert.ok(flatFull.some((v) => v === 0), 'the flat model has extremes of exactly 0');
  assert.ok(!flatFull.some((v) => Object.is(v, -0)), 'no side is -0 (see computeBoundsSmall)');
  assert.ok(sameDoubles(computeBoundsSmall(flat), flatFull));
  // A point whose p is NaN: the later of NaN and a number wins, so its repeat at the very end
  // makes every side NaN, where its first evaluation alone does not.
  const nanBase = boundsInput(model(3, { frames: 8, speed: 0.4 }));
  const positions = nanBase.positions.slice();
  positions[4 * 5] = NaN;
  const nan = withRepeatedPoints({ ...nanBase, positions }, [...evenVertices(nanBase), 5]);
  const nanFull = computeBoundsFull(nan);
  assert.ok(nanFull.some((v) => Number.isNaN(v)), 'a side is NaN');
  assert.ok(sameDoubles(computeBoundsSmall(nan), nanFull));
}));

test('pruned bounds with repeated points (planned once) equal full bounds, in frame ranges in any order too', () => {
  for (const seed of [1, 2]) {
    const base = boundsInput(model(seed, { frames: 70, speed: 0.6 }));
    const input = withRepeatedPoints(base, evenVertices(base));
    const full = computeBoundsFull(input);
    assert.ok(sameDoubles(computeBoundsPruned(input), full), `seed ${seed}`);
    assert.ok(boundsStats.groups > 0);
    const plan = planBounds(input)!;
    assert.equal(plan.vertexCount, base.vertices.length, 'the repeats are not planned');
    const run = boundsRunner(plan);
    const out = new Float64Array(full.length);
    for (const [first, end] of [[64, 70], [0, 32], [32, 64]]) run(first, end, out);
    assert.ok(sameDoubles(out, full), `seed ${seed}, ranges`);
  }
  // Blocks whose skins overflow are evaluated in full, repeats and all.
  const huge = boundsInput(model(5, { frames: 6, speed: 0.3 }).replace(/^vp (\S+) (\S+) (\S+)$/gm, (_, x: string, y: string, z: string) => `vp ${Number(x) * 1e307} ${Number(y) * 1e307} ${z}`));
  const hugeRepeated = withRepeatedPoints(huge, evenVertices(huge));
  assert.ok(sameDoubles(computeBoundsPruned(hugeRepeated), computeBoundsFull(hugeRepeated)));
});

test('whole-frame bounds (boundsBatch.ts; the kernel and JavaScript) equal full bounds: 0 to 4 influences, class runs, zero extremes, repeats, overflow, ranges', () => bothWays((way) => {
  const cases: [string, BoundsInput][] = [];
  for (const seed of [1, 2]) for (const speed of [0.05, 2.5]) cases.push([`seed ${seed}, speed ${speed}`, boundsInput(model(seed, { frames: 70, speed }))]);
  const flat = boundsInput(model(7, { frames: 40, speed: 0, flat: true }));
  cases.push(['flat (zero extremes)', flat], ['flat with repeats', withRepeatedPoints(flat, evenVertices(flat))]);
  const huge = boundsInput(model(5, { frames: 40, speed: 0.3 }).replace(/^vp (\S+) (\S+) (\S+)$/gm, (_, x: string, y: string, z: string) => `vp ${Number(x) * 1e307} ${Number(y) * 1e307} ${z}`));
  cases.push(['overflow', huge]);
  for (const [label, input] of cases) {
    const full = computeBoundsFull(input);
    const plan = planBounds(input)!;
    assert.ok(plan, label);
    // Rigid points of one joint share a class: later points of a run reuse its matrix.
    assert.ok(plan.batch.fresh.some((f, i) => f === 0 && i >= plan.batch.start[1]), `${label}: class runs`);
    const out = new Float64Array(full.length);
    const run = boundsRunner(plan, 'batch');
    for (const [first, end] of [[64, input.frames.length], [0, 32], [32, 64]]) run(first, Math.min(end, input.frames.length), out);
    assert.ok(sameDoubles(out, full), `${way}: ${label}`);
    // Planned without groups (as the CLI plans for the kernel): whole frames whatever the mode.
    const bare = planBounds(input, false, false)!;
    assert.equal(bare.groupCount, 0);
    const bareOut = new Float64Array(full.length);
    boundsRunner(bare, 'auto')(0, input.frames.length, bareOut);
    assert.ok(sameDoubles(bareOut, full), `${way}: ${label}, no groups`);
    assert.ok(boundsStats.batchedFrames > 0 || label === 'overflow', `${label}: frames were evaluated whole`);
  }
  assert.ok(computeBoundsFull(flat).some((v) => v === 0), 'the flat model has extremes of exactly 0');
}));

test("the 'auto' runner evaluates whole frames where pruning does not pay (always with the kernel), with the same doubles", () => bothWays((way) => {
  // Every vertex its own combination of four bones (groups of one): a box test per vertex costs
  // more than evaluating it.
  const text = model(9, { frames: 200, speed: 2.5 }).replace(/^vb .*$/gm, (_, offset: number) => {
    const k = offset % 97;
    return `vb ${k % 12} 0.4 ${(k + 1) % 12} 0.3 ${(k * 5 + 2) % 12} 0.2 ${(k * 7 + 3) % 12} 0.1`;
  });
  const input = boundsInput(text);
  const full = computeBoundsFull(input);
  const out = new Float64Array(full.length);
  Object.assign(boundsStats, { batchedFrames: 0 });
  boundsRunner(planBounds(input)!, 'auto')(0, input.frames.length, out);
  assert.ok(sameDoubles(out, full));
  assert.ok(boundsStats.batchedFrames > 0, `${way}: some blocks were evaluated whole`);
  if (way === 'kernel') assert.equal(boundsStats.batchedFrames, input.frames.length, 'every frame whole with the kernel');
  else assert.ok(boundsStats.batchedFrames < input.frames.length, 'the first block pruned without it');
  const pruned = new Float64Array(full.length);
  boundsRunner(planBounds(input)!, 'prune')(0, input.frames.length, pruned);
  assert.ok(sameDoubles(pruned, full));
}));

test('pruned bounds equal full bounds when values overflow', () => {
  const huge = model(5, { frames: 6, speed: 0.3 }).replace(/^vp (\S+) (\S+) (\S+)$/gm, (_, x: string, y: string, z: string) => `vp ${Number(x) * 1e307} ${Number(y) * 1e307} ${z}`);
  const input = boundsInput(huge);
  const full = computeBoundsFull(input);
  assert.ok(full.some((v) => !Number.isFinite(v)), 'the model overflows');
  assert.ok(sameDoubles(computeBoundsPruned(input), full));
});

test('bounds of frame ranges in any order equal full bounds (the split of the parallel CLI)', () => {
  const input = boundsInput(model(11, { frames: 150, speed: 0.4 }));
  const full = computeBoundsFull(input);
  const plan = planBounds(input)!;
  assert.ok(plan);
  // One runner over uneven ranges, taken backwards (its seeds come from later frames).
  const out = new Float64Array(full.length);
  const run = boundsRunner(plan);
  const cuts = [0, 7, 40, 41, 100, 150];
  for (let k = cuts.length - 2; k >= 0; k--) run(cuts[k], cuts[k + 1], out);
  assert.ok(sameDoubles(out, full));
  // A shared plan (what the worker gets) gives the same.
  const shared = planBounds(input, true)!;
  assert.ok(shared.positions.buffer instanceof SharedArrayBuffer && shared.groups.buffer instanceof SharedArrayBuffer && shared.framePoses.buffer instanceof SharedArrayBuffer);
  const out2 = new Float64Array(full.length);
  boundsRunner(shared)(0, 150, out2);
  assert.ok(sameDoubles(out2, full));
});

test('the CLI compile with a bounds worker writes the same bytes as the single-threaded compile', () => {
  const workerScript = join(__dirname, '..', '..', '..', 'dist', 'boundsWorker.js');
  assert.ok(existsSync(workerScript), `${workerScript} (npm run build)`);
  const text = model(12, { frames: 300, speed: 0.3 });
  const single = compileDocument(new IqeDocument(text));
  let started = 0;
  const provider = parallelBounds({ workerScript, minWork: 0 });
  const compute = provider.compute.bind(provider);
  provider.compute = (plan) => {
    started++;
    return compute(plan);
  };
  const parallel = compileDocument(new IqeDocument(text), {}, provider);
  assert.equal(started, 1, 'the worker path was taken');
  assert.ok(single.bytes && parallel.bytes);
  assert.ok(Buffer.from(single.bytes).equals(Buffer.from(parallel.bytes)));
});

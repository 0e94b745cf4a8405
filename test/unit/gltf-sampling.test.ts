// glTF -> IQM against the glTF 2.0 specification (issue 15): every skinned, animated sample of
// ../shared/assets/gltf and generated files (STEP, CUBICSPLINE, quaternion keys of alternating sign,
// a non-zero start, a prop parented to a joint, a matrix node) are compiled with `iqm-tools compile`,
// read back with core's IQM reader and skinned with core's sampler (what `iqm-tools sample` and the
// preview use); at frame k of every animation every vertex must be where the spec puts it at time
// start + k / fps (test/helpers/gltf-eval.ts, written from the spec alone, never core/gltf),
// within a tolerance derived per vertex and frame (see `tolerances`). The bind pose must be the rest
// scene (or, where the file's inverse bind matrices disagree with its rest pose, the pose they bind);
// joint and animation names and counts must be the file's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';
import { createPose, sampleFrames, setBindPose } from '../../core/model/sample';
import { skinVertices, totalVertices } from '../../core/model/skin';
import { animationRange, evaluateGltf, type EvaluatedPrimitive, type Evaluation, type Gltf, type GltfAnimation, globalTransforms, inverseBinds, loadGltf, multiply, nodeParents, scenePrimitives } from '../helpers/gltf-eval';
import { type GltfFixtureOptions, makeGltf } from '../helpers/gltf-writer';
import { ASSETS, HAVE_ASSETS } from '../helpers/model-assets';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;
const GLTF_DIR = join(ASSETS, 'gltf');
const NO_SAMPLES = HAVE_ASSETS && existsSync(GLTF_DIR) ? false : `${GLTF_DIR} is absent: the real-file glTF sampling tests are skipped`;

/** Compiles a glTF with the CLI (`args` before the input: --fps ...); the IQM and what the CLI printed. */
function compileWithCli(input: string, dir: string, args: string[] = []): { model: Model; stderr: string } {
  const out = join(dir, `${basename(input).replace(/\.[^.]+$/, '')}${args.join('')}.iqm`);
  const run = spawnSync(process.execPath, [CLI, 'compile', ...args, input, '-o', out], { encoding: 'utf8' });
  assert.equal(run.status, 0, `iqm-tools compile ${[...args, input].join(' ')}: exit ${run.status}\n${run.stderr}`);
  return { model: readModel(new Uint8Array(readFileSync(out))), stderr: run.stderr };
}

function loadFile(path: string): Gltf {
  return loadGltf(new Uint8Array(readFileSync(path)), (uri) => new Uint8Array(readFileSync(join(dirname(path), uri))));
}

/** Where the compiled model has its vertices at one frame (-1: the bind pose), 3 per vertex. */
function iqmPositions(model: Model, frame: number): Float32Array {
  const pose = createPose(model);
  if (frame < 0) setBindPose(model, pose);
  else sampleFrames(model, frame, frame, 0, pose);
  const out = new Float32Array(totalVertices(model) * 3);
  skinVertices(model, pose, out);
  return out;
}

/** One compared state: the spec's positions, and the compiled model's at the same moment. */
interface Moment {
  label: string;
  expected: Evaluation;
  /** Per glTF vertex: the tolerance, in metres (the file's units). */
  tolerance: Float64Array;
  actual: Float32Array;
}

/**
 * The tolerance of each glTF vertex at one moment, derived from what the IQM format loses:
 * - channel quantisation (iqm.txt: 16 bits per varying channel, offset + value · scale, rounded to
 *   the nearest step): per joint a translation error ≤ √3 · step/2, a rotation error ≤ 2 · |δq|
 *   radians with |δq| = the four quaternion half-steps' length, a scale error ≤ √3 · step/2; a
 *   joint's error moves everything below it, by at most translation + (rotation + scale) · L, where
 *   L is the moment's extent (the diagonal of the box around every vertex and joint); errors add
 *   up along the chain from the root;
 * - blend weights as ubytes (encode.ts: rounded, then the sum made 255): Σ|Δw| ≤ 4/255, moving the
 *   vertex by at most that times its spread (gltf-eval.ts);
 * - float32 positions and matrices: 2⁻²⁰ · (depth + 1) · L (a few float32 ulps per level).
 * Nothing else may differ: the compile samples the same times and the same formulas.
 */
function tolerances(model: Model, primitives: EvaluatedPrimitive[], influenceJoints: number[][], evaluation: Evaluation, jointNodes: number[], frame: number): Float64Array {
  const sk = model.skeleton!;
  const n = sk.names.length;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const grow = (x: number, y: number, z: number) => {
    [x, y, z].forEach((v, c) => {
      lo[c] = Math.min(lo[c], v);
      hi[c] = Math.max(hi[c], v);
    });
  };
  for (let i = 0; i < evaluation.positions.length; i += 3) grow(evaluation.positions[i], evaluation.positions[i + 1], evaluation.positions[i + 2]);
  for (const node of jointNodes) {
    const m = evaluation.globals[node];
    grow(m[12], -m[14], m[13]);
  }
  const extent = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const own = new Float64Array(n);
  const anim = model.animation;
  if (frame >= 0 && anim && anim.kind === 'channels') {
    for (let j = 0; j < Math.min(n, anim.poseCount); j++) {
      const half = (c: number) => (anim.mask[j] & (1 << c) ? anim.scale[j * 10 + c] / 2 : 0);
      const t = Math.sqrt(3) * Math.max(half(0), half(1), half(2));
      const q = 2 * Math.hypot(half(3), half(4), half(5), half(6));
      const s = Math.sqrt(3) * Math.max(half(7), half(8), half(9));
      own[j] = t + (q + s) * extent;
    }
  }
  const chain = new Float64Array(n);
  const depth = new Int32Array(n);
  for (const j of sk.order) {
    const p = sk.parents[j];
    chain[j] = own[j] + (p >= 0 ? chain[p] : 0);
    depth[j] = p >= 0 ? depth[p] + 1 : 0;
  }
  const out = new Float64Array(evaluation.spread.length);
  let v = 0;
  for (const p of primitives) {
    for (let k = 0; k < p.used.length; k++, v++) {
      let worst = 0, deepest = 0;
      for (const j of influenceJoints[v]) {
        worst = Math.max(worst, chain[j]);
        deepest = Math.max(deepest, depth[j]);
      }
      out[v] = worst + (4 / 255) * evaluation.spread[v] + 2 ** -20 * (deepest + 1) * extent;
    }
  }
  return out;
}

/**
 * Pairs every compiled vertex with the glTF vertex it came from: the vertices at the first moment's
 * position within tolerance; among several (seams: the same point twice), the one that stays
 * within tolerance best over all moments. Then checks every moment: the compiled vertex within its
 * glTF vertex's tolerance, and every glTF vertex with a compiled one (a vertex that moves alike
 * with another at the same place may share it: the compile welds identical vertices).
 */
function compareMoments(what: string, moments: Moment[]): { worstRatio: number; worstLabel: string; pairs: number } {
  const first = moments[0];
  const count = first.expected.spread.length;
  const compiled = first.actual.length / 3;
  let radius = 0;
  for (const t of first.tolerance) radius = Math.max(radius, t);
  const cell = Math.max(radius, 1e-9) * 2;
  const grid = new Map<string, number[]>();
  const key = (x: number, y: number, z: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
  const e0 = first.expected.positions;
  for (let v = 0; v < count; v++) {
    const k = key(e0[v * 3], e0[v * 3 + 1], e0[v * 3 + 2]);
    const list = grid.get(k);
    if (list) list.push(v);
    else grid.set(k, [v]);
  }
  const ratio = (m: Moment, i: number, v: number) => {
    const d = Math.hypot(m.actual[i * 3] - m.expected.positions[v * 3], m.actual[i * 3 + 1] - m.expected.positions[v * 3 + 1], m.actual[i * 3 + 2] - m.expected.positions[v * 3 + 2]);
    return d / m.tolerance[v];
  };
  const covered = new Uint8Array(count);
  let worstRatio = 0, worstLabel = '';
  for (let i = 0; i < compiled; i++) {
    const [x, y, z] = [first.actual[i * 3], first.actual[i * 3 + 1], first.actual[i * 3 + 2]];
    const candidates: number[] = [];
    const cx = Math.floor(x / cell), cy = Math.floor(y / cell), cz = Math.floor(z / cell);
    for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) {
      for (const v of grid.get(`${cx + a},${cy + b},${cz + c}`) ?? []) if (ratio(first, i, v) <= 1) candidates.push(v);
    }
    if (candidates.length === 0) {
      let nearest = Infinity, at = -1;
      for (let v = 0; v < count; v++) {
        const d = Math.hypot(x - e0[v * 3], y - e0[v * 3 + 1], z - e0[v * 3 + 2]);
        if (d < nearest) [nearest, at] = [d, v];
      }
      assert.fail(`${what}: ${first.label}: compiled vertex ${i} at (${x}, ${y}, ${z}) is no glTF vertex (the nearest, ${at}, at (${Array.from(e0.subarray(at * 3, at * 3 + 3)).join(', ')}) is ${nearest} away; tolerance ${first.tolerance[at]})`);
    }
    let best = -1, bestWorst = Infinity, bestLabel = '';
    for (const v of candidates) {
      let w = 0, label = '';
      for (const m of moments) {
        const r = ratio(m, i, v);
        if (r > w) [w, label] = [r, m.label];
      }
      if (w < bestWorst) [best, bestWorst, bestLabel] = [v, w, label];
    }
    if (bestWorst > 1) {
      const m = moments.find((mm) => mm.label === bestLabel)!;
      const d = Math.hypot(...[0, 1, 2].map((c) => m.actual[i * 3 + c] - m.expected.positions[best * 3 + c]));
      assert.fail(`${what}: ${bestLabel}: compiled vertex ${i} is at (${Array.from(m.actual.subarray(i * 3, i * 3 + 3)).join(', ')}), the spec puts glTF vertex ${best} at (${Array.from(m.expected.positions.subarray(best * 3, best * 3 + 3)).join(', ')}): ${d} away, tolerance ${m.tolerance[best]}`);
    }
    covered[best] = 1;
    if (bestWorst > worstRatio) [worstRatio, worstLabel] = [bestWorst, bestLabel];
  }
  // A glTF vertex without a compiled one must coincide, at every moment, with one that has one.
  for (let v = 0; v < count; v++) {
    if (covered[v]) continue;
    const twin = (grid.get(key(e0[v * 3], e0[v * 3 + 1], e0[v * 3 + 2])) ?? []).find((u) => covered[u] && moments.every((m) => Math.hypot(...[0, 1, 2].map((c) => m.expected.positions[u * 3 + c] - m.expected.positions[v * 3 + c])) <= m.tolerance[v]));
    assert.ok(twin !== undefined, `${what}: glTF vertex ${v} at (${Array.from(e0.subarray(v * 3, v * 3 + 3)).join(', ')}) has no compiled vertex`);
  }
  return { worstRatio, worstLabel, pairs: compiled };
}

/** The frames compared of an animation of `frames` frames: all of them up to 12, else 12 spread from first to last. */
function chosenFrames(frames: number): number[] {
  if (frames <= 12) return Array.from({ length: frames }, (_, k) => k);
  return [...new Set(Array.from({ length: 12 }, (_, i) => Math.round((i * (frames - 1)) / 11)))];
}

/** The glTF scene evaluated with every skin joint at the pose its inverse bind matrix binds (nodes below follow). */
function bindScene(gltf: Gltf, primitives: EvaluatedPrimitive[]): Evaluation {
  const rest = globalTransforms(gltf, null, 0);
  const bind = new Map<number, Float64Array>();
  for (let s = 0; s < (gltf.json.skins ?? []).length; s++) {
    for (const [joint, ibm] of inverseBinds(gltf, s)) bind.set(joint, invert(ibm));
  }
  const parents = nodeParents(gltf);
  const nodes = gltf.json.nodes ?? [];
  // A non-joint node below a joint keeps its place relative to its nearest joint ancestor.
  const override = nodes.map((_, i) => {
    if (bind.has(i)) return bind.get(i)!;
    let a = parents[i];
    while (a >= 0 && !bind.has(a)) a = parents[a];
    return a >= 0 ? multiply(multiply(bind.get(a)!, invert(rest[a])), rest[i]) : rest[i];
  });
  return evaluateGltf(gltf, primitives, null, 0, override);
}

/** The inverse of an affine 4x4 column-major matrix. */
function invert(m: Float64Array): Float64Array {
  const [a, b, c, d, e, f, g, h, i] = [m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const r = [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det, (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det, (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det];
  const out = new Float64Array(16);
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) out[col * 4 + row] = r[row * 3 + col];
    out[12 + row] = -(r[row * 3] * m[12] + r[row * 3 + 1] * m[13] + r[row * 3 + 2] * m[14]);
  }
  out[15] = 1;
  return out;
}

/** Whether every joint's rest global · inverse bind is the same matrix (the rest pose is the bind pose). */
function restIsBind(gltf: Gltf, extent: number): boolean {
  const rest = globalTransforms(gltf, null, 0);
  for (let s = 0; s < (gltf.json.skins ?? []).length; s++) {
    let first: Float64Array | null = null;
    for (const [joint, ibm] of inverseBinds(gltf, s)) {
      const m = multiply(rest[joint], ibm);
      first ??= m;
      for (let k = 0; k < 16; k++) if (Math.abs(m[k] - first[k]) * (k >= 12 ? 1 : extent) > 1e-3 * extent) return false;
    }
  }
  return true;
}

/** A glTF compiled with `args`, read back, and what the comparisons need of both. */
interface Prepared {
  what: string;
  gltf: Gltf;
  model: Model;
  stderr: string;
  primitives: EvaluatedPrimitive[];
  influenceJoints: number[][];
  jointNodes: number[];
  /** The file's animations the compile keeps, in order (clip k is kept[k]). */
  kept: GltfAnimation[];
}

const prepared = new Map<string, Prepared>();

/** Compiles a glTF with the CLI and checks the joint and animation names and counts (once per file and arguments). */
function prepare(path: string, dir: string, args: string[] = []): Prepared {
  const key = JSON.stringify([path, args]);
  const known = prepared.get(key);
  if (known) return known;
  const p = prepareNow(path, dir, args);
  prepared.set(key, p);
  return p;
}

function prepareNow(path: string, dir: string, args: string[]): Prepared {
  const what = `${basename(path)}${args.length ? ` (${args.join(' ')})` : ''}`;
  const gltf = loadFile(path);
  const { model, stderr } = compileWithCli(path, dir, args);
  const sk = model.skeleton;
  assert.ok(sk, `${what}: the compiled model has a skeleton`);
  const primitives = scenePrimitives(gltf);

  // Joints: every skin's joints once each, named by their nodes; an unnamed joint gets a name of
  // the compile's choosing (distinct from the others).
  const jointNodes = [...new Set((gltf.json.skins ?? []).flatMap((s) => s.joints))];
  const named = jointNodes.filter((j) => gltf.json.nodes![j].name);
  const names = named.map((j) => gltf.json.nodes![j].name!);
  assert.equal(new Set(names).size, names.length, `${what}: this test needs distinct joint names`);
  assert.equal(sk.names.length, jointNodes.length, `${what}: joint count`);
  assert.equal(new Set(sk.names).size, sk.names.length, `${what}: distinct joint names`);
  for (const name of names) assert.ok(sk.names.includes(name), `${what}: joint '${name}' is missing (compiled: ${sk.names.join(', ')})`);
  const jointOfNode = new Map(jointNodes.map((node) => [node, gltf.json.nodes![node].name ? sk.names.indexOf(gltf.json.nodes![node].name!) : -1]));
  // Per glTF vertex, the compiled joints it should move with: its skin joints, or (unskinned) the
  // nearest joint above its node (none: it stays put, and only float32 applies); an unnamed joint
  // cannot be told apart: every joint (the largest tolerance).
  const every = sk.names.map((_, j) => j);
  const parents = nodeParents(gltf);
  const influenceJoints: number[][] = [];
  for (const p of primitives) {
    for (const map of p.influences) {
      const joints: number[] = [];
      for (const node of map.keys()) {
        let a = node;
        while (a >= 0 && !jointOfNode.has(a)) a = parents[a];
        if (a >= 0) joints.push(...(jointOfNode.get(a)! >= 0 ? [jointOfNode.get(a)!] : every));
      }
      influenceJoints.push(joints);
    }
  }

  // Animations: the file's, in order, minus zero-length ones; an unnamed one takes the file's name.
  const stem = basename(path).replace(/\.[^.]+$/, '');
  const all = gltf.json.animations ?? [];
  const kept = all.filter((a) => {
    const [s, e] = animationRange(gltf, a);
    return e - s > 1e-6;
  });
  const expectedNames = kept.map((a) => a.name ?? (all.length === 1 ? stem : `${stem}_${all.indexOf(a)}`));
  assert.deepEqual(model.clips.map((c) => c.name), expectedNames, `${what}: animation names`);

  return { what, gltf, model, stderr, primitives, influenceJoints, jointNodes, kept };
}

/**
 * The bind pose (frame -1) equals the rest scene where the file's inverse bind matrices bind the
 * mesh in its rest pose (every joint's rest global · inverse bind is the same matrix); else, with a
 * warning naming the joints, the pose the inverse bind matrices give (the one from which every
 * animation frame can be exact).
 */
function checkBind(p: Prepared): string {
  const { what, gltf, model, stderr, primitives, influenceJoints, jointNodes } = p;
  const rest = evaluateGltf(gltf, primitives, null, 0);
  let extent = 0;
  for (let i = 0; i < rest.positions.length; i++) extent = Math.max(extent, Math.abs(rest.positions[i]));
  const agree = restIsBind(gltf, extent);
  const expected = agree ? rest : bindScene(gltf, primitives);
  if (!agree) assert.match(stderr, /inverse bind matrices of joints .* do not match their rest pose/, `${what}: a warning that the rest pose is not the bind pose`);
  const label = agree ? 'bind pose = rest scene' : "bind pose = the inverse bind matrices' pose";
  const result = compareMoments(what, [{ label, expected, actual: iqmPositions(model, -1), tolerance: tolerances(model, primitives, influenceJoints, expected, jointNodes, -1) }]);
  return `${label}, worst ${(result.worstRatio * 100).toFixed(1)}% of its tolerance`;
}

/** Every animation's chosen frames equal the spec's evaluation at start + k / fps. */
function checkAnimations(p: Prepared): { animations: string[]; frames: number; worst: string } {
  const { what, gltf, model, primitives, influenceJoints, jointNodes, kept } = p;
  const moments: Moment[] = [];
  let frames = 0;
  model.clips.forEach((clip, c) => {
    const animation = kept[c];
    const [start, end] = animationRange(gltf, animation);
    assert.ok(clip.fps > 0, `${what}: '${clip.name}' has a frame rate`);
    // Frames k = 0 .. floor(duration · fps): the last at or just before the last key.
    assert.equal(clip.frameCount, Math.floor((end - start) * clip.fps + 1e-3) + 1, `${what}: '${clip.name}' frames for ${end - start} s at ${clip.fps} fps`);
    for (const k of chosenFrames(clip.frameCount)) {
      const expected = evaluateGltf(gltf, primitives, animation, Math.min(start + k / clip.fps, end));
      moments.push({ label: `'${clip.name}' frame ${k} (t = ${(start + k / clip.fps).toFixed(4)} s)`, expected, actual: iqmPositions(model, clip.firstFrame + k), tolerance: tolerances(model, primitives, influenceJoints, expected, jointNodes, clip.firstFrame + k) });
      frames++;
    }
  });
  assert.ok(moments.length > 0, `${what}: no animation to compare`);
  const result = compareMoments(what, moments);
  return { animations: model.clips.map((c) => `${c.name} ${c.frameCount}f@${c.fps}`), frames, worst: `worst ${(result.worstRatio * 100).toFixed(1)}% of its tolerance at ${result.worstLabel}` };
}

const SAMPLES = ['bevy/SimpleSkin.gltf', 'bevy/Fox.glb', 'raylib/RiggedFigure.glb', 'raylib/Wizard.glb', 'raylib/girl.glb'];

for (const sample of SAMPLES) {
  test(`glTF sampling: ${sample}: joints, animations, and every animation's frames at its own rate and at 30 fps equal the spec's evaluation`, { skip: NO_CLI || NO_SAMPLES }, (t) => {
    withTempDir('iqm-gltf-', (dir) => {
      for (const args of [[], ['--fps', '30']]) {
        const checked = checkAnimations(prepare(join(GLTF_DIR, sample), dir, args));
        t.diagnostic(`${sample} ${args.join(' ')}: ${checked.animations.join(', ')}; ${checked.frames} frames compared; ${checked.worst}`);
      }
    });
  });
  test(`glTF sampling: ${sample}: the bind pose is the rest scene (or the inverse bind matrices' pose, with a warning)`, { skip: NO_CLI || NO_SAMPLES }, (t) => {
    withTempDir('iqm-gltf-', (dir) => t.diagnostic(`${sample}: ${checkBind(prepare(join(GLTF_DIR, sample), dir))}`));
  });
}

const GENERATED: [string, GltfFixtureOptions, string[]][] = [
  // Keys of alternating sign at 24 keys/s sampled at 30 fps: between keys, only the shorter arc is right.
  ['linear-alternating-signs', { alternateSigns: true, prop: true, start: 0.25, keys: 20 }, ['--fps', '30']],
  // STEP at 29 fps: no frame but the first falls on a key (where float rounding would pick a side).
  ['step', { animations: [{ name: 'Steps', interpolation: 'STEP' }], matrixNode: true, keys: 12 }, ['--fps', '29']],
  ['cubicspline', { animations: [{ name: 'Curve', interpolation: 'CUBICSPLINE' }, { name: 'Curve2', interpolation: 'CUBICSPLINE' }], prop: true, container: 'json', keys: 16 }, ['--fps', '30']],
];

for (const [name, options, args] of GENERATED) {
  test(`glTF sampling: generated ${name}: every frame compared equals the spec's evaluation, and the bind pose the rest scene`, { skip: NO_CLI }, (t) => {
    withTempDir('iqm-gltf-', (dir) => {
      const fixture = makeGltf({ vertices: 320, joints: 6, ...options });
      const path = join(dir, `${name}.${options.container === 'json' ? 'gltf' : 'glb'}`);
      writeFileSync(path, fixture.bytes);
      const p = prepare(path, dir, args);
      assert.deepEqual(p.model.clips.map((c) => c.name), fixture.animationNames);
      const checked = checkAnimations(p);
      t.diagnostic(`${name}: ${checked.animations.join(', ')}; ${checked.frames} frames compared; ${checked.worst}`);
      t.diagnostic(`${name}: ${checkBind(p)}`);
    });
  });
}

// An independent, straightforward IQE pose evaluator for the compiler's round-trip test: reads
// joints, base poses and frames (pq only: the shared files use nothing else) from the parsed
// lines, composes world = parent · T·R·S in double precision with 4x4 matrices, and skins a
// vertex with its 4 largest weights renormalised (the compiler's rule). It shares no code with
// core/compile or core/model on purpose.
import { Cmd } from '../../core/iqe/commands';
import type { IqeDocument } from '../../core/iqe/document';

type Mat = number[]; // 4x4 row-major

function trs(v: readonly number[]): Mat {
  const [tx, ty, tz, qx, qy, qz, qw, sx, sy, sz] = v;
  const n = Math.hypot(qx, qy, qz, qw) || 1;
  const x = qx / n, y = qy / n, z = qz / n, w = qw / n;
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  return [r[0] * sx, r[1] * sy, r[2] * sz, tx, r[3] * sx, r[4] * sy, r[5] * sz, ty, r[6] * sx, r[7] * sy, r[8] * sz, tz, 0, 0, 0, 1];
}

function mul(a: Mat, b: Mat): Mat {
  const out = new Array<number>(16).fill(0);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) out[4 * i + j] += a[4 * i + k] * b[4 * k + j];
  return out;
}

/** Inverse of an affine 4x4 (general 3x3 inverse, so scale and shear are fine). */
function invert(m: Mat): Mat {
  const [a, b, c, , d, e, f, , g, h, i] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const r = [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det, (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det, (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det];
  const t = [m[3], m[7], m[11]];
  return [
    r[0], r[1], r[2], -(r[0] * t[0] + r[1] * t[1] + r[2] * t[2]),
    r[3], r[4], r[5], -(r[3] * t[0] + r[4] * t[1] + r[5] * t[2]),
    r[6], r[7], r[8], -(r[6] * t[0] + r[7] * t[1] + r[8] * t[2]),
    0, 0, 0, 1,
  ];
}

/** A pq pose with the IQE defaults: w derived negative when absent, scale 1. */
function pq(values: number[]): number[] {
  const v = (k: number, d: number): number => (k < values.length ? values[k] : d);
  const [x, y, z] = [v(3, 0), v(4, 0), v(5, 0)];
  const w = values.length >= 7 ? values[6] : -Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z));
  return [v(0, 0), v(1, 0), v(2, 0), x, y, z, w, v(7, 1), v(8, 1), v(9, 1)];
}

export interface IqeRig {
  parents: number[];
  base: number[][];
  /** frames[f][j]: pose of joint j at global frame f. */
  frames: number[][][];
  /** Per vertex: position and its (joint, weight) pairs after the compiler's top-4 rule. */
  positions: number[][];
  blends: [number, number][][];
}

export function readRig(doc: IqeDocument): IqeRig {
  const rig: IqeRig = { parents: [], base: [], frames: [], positions: [], blends: [] };
  let inAnimation = false;
  let frame: number[][] | undefined;
  for (const chunk of doc.parsedChunks) {
    for (let i = 0; i < chunk.lineCount; i++) {
      const values = Array.from(chunk.values.subarray(chunk.valueStart[i], chunk.valueStart[i + 1]));
      switch (chunk.kind[i]) {
        case Cmd.Joint:
          rig.parents.push(values.length > 0 ? values[0] : -1);
          break;
        case Cmd.Animation:
          inAnimation = true;
          frame = undefined;
          break;
        case Cmd.Frame:
          frame = undefined;
          break;
        case Cmd.Pq:
          if (!inAnimation) rig.base.push(pq(values));
          else {
            if (!frame) rig.frames.push((frame = []));
            frame.push(pq(values));
          }
          break;
        case Cmd.Vp:
          rig.positions.push([values[0] ?? 0, values[1] ?? 0, values[2] ?? 0]);
          break;
        case Cmd.Vb: {
          const pairs: [number, number][] = [];
          for (let k = 0; k + 1 < values.length; k += 2) if (values[k + 1] > 0.001) pairs.push([values[k], values[k + 1]]);
          // Top 4 by weight (stable), renormalised.
          const top = pairs.map((p, order) => ({ p, order })).sort((a, b) => b.p[1] - a.p[1] || a.order - b.order).slice(0, 4).map((x) => x.p);
          const sum = top.reduce((s, p) => s + p[1], 0);
          rig.blends.push(ubyteWeights(top.map(([j, w]) => [j, w / sum])));
          break;
        }
      }
    }
  }
  return rig;
}

/**
 * Weights as the IQM stores them in ubyte (IQE-SEMANTICS.md §4.8.4): round each to 1/255, then
 * nudge slot by slot until they sum to exactly 255. What a reader of the IQM sees, so a round
 * trip compares like with like.
 */
function ubyteWeights(pairs: [number, number][]): [number, number][] {
  const q = pairs.map(([, w]) => Math.trunc(0.5 + w * 255));
  let sum = q.reduce((a, b) => a + b, 0);
  while (sum > 255) {
    for (let k = 0; k < q.length && sum > 255; k++) {
      if (q[k] > 0) {
        q[k]--;
        sum--;
      }
    }
  }
  while (sum < 255 && q.length > 0) {
    for (let k = 0; k < q.length && sum < 255; k++) {
      if (q[k] < 255) {
        q[k]++;
        sum++;
      }
    }
  }
  return pairs.map(([j], k) => [j, q[k] / 255]);
}

/** World matrices (4x4) of every joint for the given local poses. */
export function worldMatrices(rig: IqeRig, locals: number[][]): Mat[] {
  const world: Mat[] = [];
  for (let j = 0; j < rig.parents.length; j++) {
    const local = trs(locals[j]);
    world.push(rig.parents[j] >= 0 ? mul(world[rig.parents[j]], local) : local);
  }
  return world;
}

/** Skinned position of vertex v at global frame f (-1: bind pose). */
export function skinnedPosition(rig: IqeRig, world: Mat[], inverseBind: Mat[], v: number): number[] {
  const [x, y, z] = rig.positions[v];
  const blend = rig.blends[v] ?? [];
  if (blend.length === 0) return [x, y, z];
  const out = [0, 0, 0];
  for (const [j, w] of blend) {
    const m = mul(world[j], inverseBind[j]);
    for (let r = 0; r < 3; r++) out[r] += w * (m[4 * r] * x + m[4 * r + 1] * y + m[4 * r + 2] * z + m[4 * r + 3]);
  }
  return out;
}

export function inverseBindMatrices(rig: IqeRig): Mat[] {
  return worldMatrices(rig, rig.base).map(invert);
}

// An independent reference path for the tests: plain 4x4 number[][] matrices, quaternion rotation
// by Hamilton products, Gauss-Jordan inversion. Deliberately shares no code with core/math.

export type M4 = number[][];

export function identityM4(): M4 {
  return [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => (r === c ? 1 : 0)));
}

export function mul4(a: M4, b: M4): M4 {
  return a.map((row) => [0, 1, 2, 3].map((c) => row.reduce((s, x, k) => s + x * b[k][c], 0)));
}

function hamilton(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

/** Rotates v by unit quaternion q: q v q*. */
export function rotate(q: number[], v: number[]): number[] {
  const r = hamilton(hamilton(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

/** T·R·S as a 4x4: columns are the rotated, scaled basis vectors. */
export function trsM4(t: number[], q: number[], s: number[]): M4 {
  const l = Math.hypot(...q);
  const qn = q.map((x) => x / l);
  const cols = [0, 1, 2].map((i) => rotate(qn, [i === 0 ? s[0] : 0, i === 1 ? s[1] : 0, i === 2 ? s[2] : 0]));
  return [
    [cols[0][0], cols[1][0], cols[2][0], t[0]],
    [cols[0][1], cols[1][1], cols[2][1], t[1]],
    [cols[0][2], cols[1][2], cols[2][2], t[2]],
    [0, 0, 0, 1],
  ];
}

export function fromRows3x4(m: ArrayLike<number>, o = 0): M4 {
  return [
    [m[o], m[o + 1], m[o + 2], m[o + 3]],
    [m[o + 4], m[o + 5], m[o + 6], m[o + 7]],
    [m[o + 8], m[o + 9], m[o + 10], m[o + 11]],
    [0, 0, 0, 1],
  ];
}

export function invertM4(m: M4): M4 {
  const a = m.map((row, r) => [...row, ...identityM4()[r]]);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    const d = a[c][c];
    for (let k = 0; k < 8; k++) a[c][k] /= d;
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[r][c];
      for (let k = 0; k < 8; k++) a[r][k] -= f * a[c][k];
    }
  }
  return a.map((row) => row.slice(4));
}

export function apply4(m: M4, p: number[]): number[] {
  return [0, 1, 2].map((r) => m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3]);
}

/** Asserts |a - b| ≤ tol elementwise (relative for large values), with a readable message. */
export function near(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  if (actual.length !== expected.length) throw new Error(`${what}: length ${actual.length} ≠ ${expected.length}`);
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= tol * Math.max(1, Math.abs(expected[i])))) {
      throw new Error(`${what}: element ${i} is ${actual[i]}, expected ${expected[i]} (±${tol})`);
    }
  }
}

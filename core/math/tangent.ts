// Tangent helpers shared by the compile's tangent stage (core/compile/tangents.ts) and the IQE
// writer (core/iqe/writer.ts): the fallback both write where a tangent cannot be made.

/**
 * IQE-SEMANTICS.md B8: writes to out[o..o+3] a unit tangent (x y z, w = 1) orthogonal to the normal
 * n along the axis where n is smallest; (1, 0, 0, 1) for n = 0.
 */
export function fallbackTangent(out: Float64Array, o: number, nx: number, ny: number, nz: number): void {
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  if (!(ax > 0 || ay > 0 || az > 0)) {
    out[o] = 1; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1;
    return;
  }
  let x = 0, y = 0, z = 0;
  if (ax <= ay && ax <= az) x = 1;
  else if (ay <= az) y = 1;
  else z = 1;
  const d = nx * x + ny * y + nz * z;
  x -= nx * d; y -= ny * d; z -= nz * d;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z);
  out[o] = x * inv; out[o + 1] = y * inv; out[o + 2] = z * inv; out[o + 3] = 1;
}

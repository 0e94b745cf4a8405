// The CPU skinning reference: what `iqm-tools sample` prints and what the GPU renderer is tested
// against. Writes into caller-supplied arrays; allocates nothing.

import type { Mesh, Model } from './model';
import { computeSkin, type Pose } from './sample';

/** Total vertices over all meshes (the length of skinned output / 3). */
export function totalVertices(model: Model): number {
  let n = 0;
  for (const m of model.meshes) n += m.vertexCount;
  return n;
}

/**
 * CPU skinning reference: every mesh's vertex positions (and normals when `outNormals` is given) for
 * `pose`, concatenated in mesh order, 3 per vertex. IQM/IQE: Σ wᵢ · skinᵢ · p over renormalised
 * weights; a vertex with no usable weight keeps its bind position. DPM: Σ (Rᵦ · originᵢ + influenceᵢ ·
 * tᵦ) with world matrices (origins are pre-weighted, in bone space). Meshes without blend data stay put.
 */
export function skinVertices(model: Model, pose: Pose, out: Float32Array, outNormals?: Float32Array): void {
  if (!pose.updateSkin) computeSkin(model, pose);
  let base = 0;
  for (const mesh of model.meshes) {
    if (mesh.dpm) skinDpm(mesh, pose.world, pose.jointCount, out, outNormals, base);
    else skinLinear(mesh, pose.skin, pose.jointCount, out, outNormals, base);
    base += mesh.vertexCount * 3;
  }
}

function skinLinear(mesh: Mesh, skin: Float32Array, jointCount: number, out: Float32Array, outN: Float32Array | undefined, base: number): void {
  const p = mesh.position;
  const nrm = mesh.normal;
  const k = mesh.influences;
  const bi = mesh.blendIndices;
  const bw = mesh.blendWeights;
  for (let v = 0; v < mesh.vertexCount; v++) {
    const x = p[v * 3], y = p[v * 3 + 1], z = p[v * 3 + 2];
    const nx = nrm ? nrm[v * 3] : 0, ny = nrm ? nrm[v * 3 + 1] : 0, nz = nrm ? nrm[v * 3 + 2] : 0;
    let ox = 0, oy = 0, oz = 0, mx = 0, my = 0, mz = 0, used = 0;
    if (bi && bw) {
      for (let c = 0; c < k; c++) {
        const w = bw[v * k + c];
        if (w === 0) continue;
        const b = bi[v * k + c];
        if (b >= jointCount) continue;
        const m = b * 12;
        ox += w * (skin[m] * x + skin[m + 1] * y + skin[m + 2] * z + skin[m + 3]);
        oy += w * (skin[m + 4] * x + skin[m + 5] * y + skin[m + 6] * z + skin[m + 7]);
        oz += w * (skin[m + 8] * x + skin[m + 9] * y + skin[m + 10] * z + skin[m + 11]);
        // Normals with the linear part (exact for rotation and uniform scale; renormalised below).
        mx += w * (skin[m] * nx + skin[m + 1] * ny + skin[m + 2] * nz);
        my += w * (skin[m + 4] * nx + skin[m + 5] * ny + skin[m + 6] * nz);
        mz += w * (skin[m + 8] * nx + skin[m + 9] * ny + skin[m + 10] * nz);
        used++;
      }
    }
    const o = base + v * 3;
    if (used === 0) {
      out[o] = x;
      out[o + 1] = y;
      out[o + 2] = z;
      mx = nx;
      my = ny;
      mz = nz;
    } else {
      out[o] = ox;
      out[o + 1] = oy;
      out[o + 2] = oz;
    }
    if (outN) {
      const l = Math.sqrt(mx * mx + my * my + mz * mz) || 1;
      outN[o] = mx / l;
      outN[o + 1] = my / l;
      outN[o + 2] = mz / l;
    }
  }
}

function skinDpm(mesh: Mesh, world: Float32Array, jointCount: number, out: Float32Array, outN: Float32Array | undefined, base: number): void {
  const d = mesh.dpm as NonNullable<Mesh['dpm']>;
  for (let v = 0; v < mesh.vertexCount; v++) {
    let ox = 0, oy = 0, oz = 0, mx = 0, my = 0, mz = 0;
    for (let i = d.start[v]; i < d.start[v + 1]; i++) {
      const b = d.bone[i];
      if (b >= jointCount) continue;
      const m = b * 12;
      const x = d.origins[i * 3], y = d.origins[i * 3 + 1], z = d.origins[i * 3 + 2], f = d.influence[i];
      ox += world[m] * x + world[m + 1] * y + world[m + 2] * z + f * world[m + 3];
      oy += world[m + 4] * x + world[m + 5] * y + world[m + 6] * z + f * world[m + 7];
      oz += world[m + 8] * x + world[m + 9] * y + world[m + 10] * z + f * world[m + 11];
      const nx = d.normals[i * 3], ny = d.normals[i * 3 + 1], nz = d.normals[i * 3 + 2];
      mx += world[m] * nx + world[m + 1] * ny + world[m + 2] * nz;
      my += world[m + 4] * nx + world[m + 5] * ny + world[m + 6] * nz;
      mz += world[m + 8] * nx + world[m + 9] * ny + world[m + 10] * nz;
    }
    const o = base + v * 3;
    out[o] = ox;
    out[o + 1] = oy;
    out[o + 2] = oz;
    if (outN) {
      const l = Math.sqrt(mx * mx + my * my + mz * mz) || 1;
      outN[o] = mx / l;
      outN[o + 1] = my / l;
      outN[o + 2] = mz / l;
    }
  }
}


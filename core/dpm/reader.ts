// DPM (DarkPlaces model, type 2) reader. Layout from dpmodel.txt; everything is BIG-endian.
//
// Frame matrices are PARENT-RELATIVE (world = parent world · local); frame 0 is the bind pose.
// Evidence from the real files (test/unit/model-dpm.test.ts, "frame matrices are parent-relative"):
// every frame stores the model-space bounding box of its geometry. For nexuiz/grunt.dpm (74 bones,
// 441 frames) the skinned vertices' box, with the matrices composed down the hierarchy, matches the
// stored x/y bounds to 0.01 units in every frame checked (z is offset by a constant 1.5 units, the
// exporter's padding); reading the stored matrices as world matrices misses by up to 34 units.
// (The real files have one influence per vertex, so influence agreement cannot decide it.)

import { BinaryReader, FormatError } from '../binary';
import { identity3x4, invert3x4, mul3x4, toTRS } from '../math/mat3x4';
import { indexMaterials, jointOrder, type Mesh, type Model, type Skeleton } from '../model/model';
import { quotedName } from '../names';

/** A DPM's first 16 bytes. */
export const DPM_MAGIC = 'DARKPLACESMODEL\0';
/** Record sizes in bytes (dpmodel.txt): the header, a bone, a mesh, a frame, one influence of a vertex, a bone's 3x4 matrix. */
export const DPM_SIZE = { header: 80, bone: 40, mesh: 56, frame: 68, boneVert: 32, matrix: 48 } as const;
const { header: HEADER_SIZE, bone: BONE_SIZE, mesh: MESH_SIZE, frame: FRAME_SIZE, boneVert: BONEVERT_SIZE } = DPM_SIZE;

export function readDpm(bytes: Uint8Array): Model {
  const warnings: string[] = [];
  if (bytes.byteLength < HEADER_SIZE) throw new FormatError(`truncated DPM header: ${bytes.byteLength} bytes, the header needs ${HEADER_SIZE}`, bytes.byteLength);
  let r = new BinaryReader(bytes, false);
  if (!r.matches(0, DPM_MAGIC)) throw new FormatError('not a DPM file (magic is not DARKPLACESMODEL)', 0);
  const type = r.u32(16);
  if (type !== 2) throw new FormatError(`unsupported DPM type ${type} (only type 2 exists)`, 16);
  const fileSize = r.u32(20);
  if (fileSize !== bytes.byteLength) {
    warnings.push(`header filesize is ${fileSize} but the file has ${bytes.byteLength} bytes`);
    if (fileSize >= HEADER_SIZE && fileSize < bytes.byteLength) r = new BinaryReader(bytes.subarray(0, fileSize), false);
  }
  const numBones = r.u32(56);
  const numMeshes = r.u32(60);
  const numFrames = r.u32(64);
  const ofsBones = r.u32(68);
  const ofsMeshes = r.u32(72);
  const ofsFrames = r.u32(76);
  r.need(ofsBones, numBones, BONE_SIZE, 'bones');
  r.need(ofsMeshes, numMeshes, MESH_SIZE, 'meshes');
  r.need(ofsFrames, numFrames, FRAME_SIZE, 'frames');
  // Frames each point at their own matrices; shared blocks would let the decoded size outgrow the file.
  if (numFrames * numBones * 48 > r.length) {
    throw new FormatError(`${numFrames} frames × ${numBones} bones of matrices need more bytes than the file has`, 64);
  }

  // Bones.
  const names: string[] = [];
  const parents = new Int32Array(numBones);
  const flags = new Uint32Array(numBones);
  let late = 0;
  for (let i = 0; i < numBones; i++) {
    const o = ofsBones + i * BONE_SIZE;
    names.push(r.fixedString(o, 32));
    const p = r.i32(o + 32);
    if (p >= 0 && p >= numBones) throw new FormatError(`bone ${i}: parent ${p} ≥ num_bones ${numBones}`, o + 32);
    parents[i] = p < 0 ? -1 : p;
    if (p >= i) late++;
    flags[i] = r.u32(o + 36);
  }
  if (late) warnings.push(`${late} bones have a parent that is not before them (DarkPlaces refuses such files; evaluated in dependency order)`);
  const order = jointOrder(parents, (j) => {
    throw new FormatError(`bone ${j}: parent chain forms a cycle`, ofsBones + j * BONE_SIZE + 32);
  });

  // Frames: names, bounds, and the per-bone local matrices.
  const frameNames: string[] = [];
  const bounds = new Float32Array(numFrames * 8);
  const matrices = new Float32Array(numFrames * numBones * 12);
  const trs = new Float32Array(numFrames * numBones * 10);
  const scratch = new Float32Array(12);
  for (let f = 0; f < numFrames; f++) {
    const o = ofsFrames + f * FRAME_SIZE;
    frameNames.push(r.fixedString(o, 32));
    for (let k = 0; k < 8; k++) bounds[f * 8 + k] = r.f32(o + 32 + k * 4);
    const ofsPoses = r.i32(o + 64);
    r.need(ofsPoses, numBones, 48, `frame ${f} bone poses`);
    for (let b = 0; b < numBones; b++) {
      const src = ofsPoses + b * 48;
      const dst = (f * numBones + b) * 12;
      for (let k = 0; k < 12; k++) matrices[dst + k] = r.view.getFloat32(src + k * 4, false); // range checked above
      toTRS(trs, (f * numBones + b) * 10, matrices, dst, scratch);
    }
  }

  // Skeleton: bind pose = frame 0, composed down the hierarchy.
  const bindWorld = new Float32Array(numBones * 12);
  const bindLocal = new Float32Array(numBones * 10);
  if (numFrames === 0) {
    if (numBones) warnings.push('no frames: the bind pose is the identity');
    for (let b = 0; b < numBones; b++) {
      identity3x4(bindWorld, b * 12);
      bindLocal[b * 10 + 6] = 1;
      bindLocal[b * 10 + 7] = bindLocal[b * 10 + 8] = bindLocal[b * 10 + 9] = 1;
    }
  } else {
    bindLocal.set(trs.subarray(0, numBones * 10));
    for (let k = 0; k < numBones; k++) {
      const b = order[k];
      const p = parents[b];
      if (p >= 0) mul3x4(bindWorld, b * 12, bindWorld, p * 12, matrices, b * 12);
      else bindWorld.set(matrices.subarray(b * 12, b * 12 + 12), b * 12);
    }
    // Old files hide a model scale in the root bone's matrix (FORMAT-PITFALLS §9).
    for (let b = 0; b < numBones; b++) {
      if (parents[b] >= 0) continue;
      const s = Math.sqrt(matrices[b * 12] ** 2 + matrices[b * 12 + 1] ** 2 + matrices[b * 12 + 2] ** 2);
      if (Math.abs(s - 1) > 1e-3) {
        warnings.push(`root bone ${quotedName(names[b])} carries a scale of ${s.toFixed(4)} in frame 0 (DarkPlaces renormalises it when animating)`);
      }
    }
  }
  const inverseBindWorld = new Float32Array(numBones * 12);
  for (let b = 0; b < numBones; b++) invert3x4(inverseBindWorld, b * 12, bindWorld, b * 12);
  const skeleton: Skeleton | null = numBones
    ? { names, parents, flags, order, bindLocal, bindWorld, inverseBindWorld }
    : null;

  // Meshes. `claimed` bounds what the meshes decode to by the file size (meshes must not share data).
  let claimed = 0;
  const claim = (bytesNeeded: number, at: number) => {
    claimed += bytesNeeded;
    if (claimed > r.length) throw new FormatError('meshes claim more data than the file has (overlapping meshes)', at);
  };
  const meshes: Mesh[] = [];
  let unweighted = 0;
  for (let m = 0; m < numMeshes; m++) {
    const o = ofsMeshes + m * MESH_SIZE;
    const shader = r.fixedString(o, 32);
    const numVerts = r.u32(o + 32);
    const numTris = r.u32(o + 36);
    const ofsVerts = r.u32(o + 40);
    const ofsTexcoords = r.u32(o + 44);
    const ofsIndices = r.u32(o + 48);
    const ofsGroupIds = r.u32(o + 52);
    r.need(ofsVerts, numVerts, 4, `mesh ${m} vertices`);
    r.need(ofsTexcoords, numVerts, 8, `mesh ${m} texcoords`);
    r.need(ofsIndices, numTris, 12, `mesh ${m} indices`);
    claim(numVerts * 12 + numTris * 12, o);

    // Pass 1: walk the variable-length vertex records to count influences (bounded by the file).
    const start = new Uint32Array(numVerts + 1);
    let p = ofsVerts;
    let total = 0;
    let maxInfl = 0;
    for (let v = 0; v < numVerts; v++) {
      const nb = r.u32(p);
      r.need(p + 4, nb, BONEVERT_SIZE, `mesh ${m} vertex ${v} influences`);
      start[v] = total;
      total += nb;
      if (nb > maxInfl) maxInfl = nb;
      p += 4 + nb * BONEVERT_SIZE;
    }
    start[numVerts] = total;
    claim(total * BONEVERT_SIZE, ofsVerts);

    // Pass 2: decode.
    const origins = new Float32Array(total * 3);
    const normals = new Float32Array(total * 3);
    const influence = new Float32Array(total);
    const bone = new Uint32Array(total);
    const position = new Float32Array(numVerts * 3);
    const normal = new Float32Array(numVerts * 3);
    const k = Math.min(4, maxInfl);
    const blendIndices = new Uint32Array(numVerts * k);
    const blendWeights = new Float32Array(numVerts * k);
    const view = r.view;
    p = ofsVerts;
    for (let v = 0; v < numVerts; v++) {
      const nb = view.getUint32(p, false);
      p += 4;
      let px = 0, py = 0, pz = 0, nx = 0, ny = 0, nz = 0;
      for (let i = start[v]; i < start[v] + nb; i++, p += BONEVERT_SIZE) {
        const ox = view.getFloat32(p, false), oy = view.getFloat32(p + 4, false), oz = view.getFloat32(p + 8, false);
        const f = view.getFloat32(p + 12, false);
        const qx = view.getFloat32(p + 16, false), qy = view.getFloat32(p + 20, false), qz = view.getFloat32(p + 24, false);
        const b = view.getUint32(p + 28, false);
        if (b >= numBones) throw new FormatError(`mesh ${m} vertex ${v}: bone ${b} ≥ num_bones ${numBones}`, p + 28);
        origins[i * 3] = ox; origins[i * 3 + 1] = oy; origins[i * 3 + 2] = oz;
        normals[i * 3] = qx; normals[i * 3 + 1] = qy; normals[i * 3 + 2] = qz;
        influence[i] = f;
        bone[i] = b;
        // Bind pose: origins are pre-weighted and in bone space: Σ (R·o + f·t).
        const w = b * 12;
        px += bindWorld[w] * ox + bindWorld[w + 1] * oy + bindWorld[w + 2] * oz + f * bindWorld[w + 3];
        py += bindWorld[w + 4] * ox + bindWorld[w + 5] * oy + bindWorld[w + 6] * oz + f * bindWorld[w + 7];
        pz += bindWorld[w + 8] * ox + bindWorld[w + 9] * oy + bindWorld[w + 10] * oz + f * bindWorld[w + 11];
        nx += bindWorld[w] * qx + bindWorld[w + 1] * qy + bindWorld[w + 2] * qz;
        ny += bindWorld[w + 4] * qx + bindWorld[w + 5] * qy + bindWorld[w + 6] * qz;
        nz += bindWorld[w + 8] * qx + bindWorld[w + 9] * qy + bindWorld[w + 10] * qz;
      }
      position[v * 3] = px; position[v * 3 + 1] = py; position[v * 3 + 2] = pz;
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
      normal[v * 3] = nx / l; normal[v * 3 + 1] = ny / l; normal[v * 3 + 2] = nz / l;
      // GPU-style influences: the k largest, renormalised (DarkPlaces keeps 4 without renormalising).
      let sum = 0;
      for (let slot = 0; slot < k; slot++) {
        let best = -1;
        let bestW = 0;
        for (let i = start[v]; i < start[v + 1]; i++) {
          if (!(influence[i] > bestW)) continue;
          let taken = false;
          for (let s = 0; s < slot; s++) if (picked[s] === i) taken = true;
          if (!taken) {
            best = i;
            bestW = influence[i];
          }
        }
        if (best < 0) break;
        picked[slot] = best;
        blendIndices[v * k + slot] = bone[best];
        blendWeights[v * k + slot] = bestW;
        sum += bestW;
      }
      if (sum > 0) for (let s = 0; s < k; s++) blendWeights[v * k + s] /= sum;
      else unweighted++;
    }

    const st = new Float32Array(numVerts * 2);
    for (let v = 0; v < numVerts * 2; v++) st[v] = r.f32(ofsTexcoords + v * 4);
    const indices = new Uint32Array(numTris * 3);
    for (let i = 0; i < numTris * 3; i++) {
      const x = r.u32(ofsIndices + i * 4);
      if (x >= numVerts) throw new FormatError(`mesh ${m} triangle ${Math.floor(i / 3)}: vertex ${x} ≥ ${numVerts}`, ofsIndices + i * 4);
      indices[i] = x;
    }
    let groupIds: Uint32Array | null = null;
    if (ofsGroupIds !== 0) {
      r.need(ofsGroupIds, numTris, 4, `mesh ${m} group ids`);
      claim(numTris * 4, ofsGroupIds);
      groupIds = new Uint32Array(numTris);
      for (let i = 0; i < numTris; i++) groupIds[i] = r.u32(ofsGroupIds + i * 4);
    }
    meshes.push({
      name: shader,
      material: shader,
      materialIndex: 0,
      shaders: [shader],
      vertexCount: numVerts,
      triangleCount: numTris,
      indices,
      position,
      normal,
      texcoord: st,
      tangent: null,
      color: null,
      influences: k,
      blendIndices,
      blendWeights,
      dpm: { start, origins, normals, influence, bone },
      morph: null,
      groupIds,
      custom: [],
    });
  }
  if (unweighted) warnings.push(`${unweighted} vertices have no positive influence`);

  return {
    format: 'dpm',
    version: type,
    winding: 'ccw',
    upAxis: 'z',
    meshes,
    materials: indexMaterials(meshes),
    skeleton,
    animation: numBones && numFrames ? { kind: 'matrices', frameCount: numFrames, poseCount: numBones, parents, matrices, trs } : null,
    frameCount: numFrames,
    frameNames,
    // DarkPlaces plays each frame as its own one-frame 10 fps scene unless .framegroups says otherwise.
    clips: frameNames.map((name, i) => ({ name, firstFrame: i, frameCount: 1, fps: 10, loop: true })),
    tags: null,
    bounds,
    warnings,
    iqm: null,
  };
}

// Influence-selection scratch: indices already picked for the current vertex (at most 4).
const picked = new Int32Array(4);

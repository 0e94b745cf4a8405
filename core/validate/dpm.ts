// The DPM validator (dpmodel.txt; record sizes from core/dpm/reader.ts; big-endian). Like the IQM
// validator it never stops at the first problem: blocks are placed first (inside the file, after
// the header, apart), only placed blocks are read, and the bind-pose and bounds checks, which need
// the skeleton composed, run only when the reader reads the file. Offsets are absolute; vertex and
// triangle numbers are the mesh's own (DPM indexes per mesh).

import { DPM_SIZE, readDpm } from '../dpm/reader';
import type { Model } from '../model/model';
import { createPose, sampleFrames } from '../model/sample';
import { skinVertices, totalVertices } from '../model/skin';
import { quotedName } from '../names';
import type { Reporter } from './report';
import { BlockMap, boundsFrames, checkBoundsFrame, checkTriangleList, hasCycle, type LayoutCodes } from './shared';

const DPM_CODES: LayoutCodes = { inHeader: 'dpm-block-in-header', outOfFile: 'dpm-block-out-of-file', overlap: 'dpm-block-overlap', nameControl: 'dpm-name-control', nameUnterminated: 'dpm-name-unterminated' };

/** Where each mesh's vertex records are (the influence checks of the bind pose point at them). */
interface MeshRecords {
  /** Per vertex, the offset of its record (its influence count). */
  vertexAt: Uint32Array;
}

export function validateDpm(bytes: Uint8Array, rep: Reporter): void {
  if (bytes.byteLength < DPM_SIZE.header) {
    rep.add('dpm-header-truncated', bytes.byteLength, 'header', `the file has ${bytes.byteLength} bytes, a DPM header needs ${DPM_SIZE.header}: engines refuse it`);
    return;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (o: number) => view.getUint32(o, false);
  const f32 = (o: number) => view.getFloat32(o, false);
  const type = u32(16);
  if (type !== 2) rep.add('dpm-type', 16, 'header', `type ${type}: only type 2 exists; DarkPlaces refuses the file`);
  let length = bytes.byteLength;
  const fileSize = u32(20);
  if (fileSize !== length) {
    rep.add('dpm-filesize', 20, 'header', `the header's filesize is ${fileSize} but the file has ${length} bytes: loaders that trust it read only that many bytes`);
    if (fileSize >= DPM_SIZE.header && fileSize < length) length = fileSize;
  }
  const numBones = u32(56), numMeshes = u32(60), numFrames = u32(64);
  const ofsBones = u32(68), ofsMeshes = u32(72), ofsFrames = u32(76);

  const blocks = new BlockMap(rep, DPM_CODES, DPM_SIZE.header, length);
  const place = blocks.place.bind(blocks);
  const checkName = (at: number, size: number, where: () => string) => blocks.name(bytes, at, size, where);
  const nonfinite = (at: number, where: string, what: string) => rep.add('dpm-nonfinite', at, where, `${where}: ${what} holds NaN or an infinity: engines draw, cull or animate with garbage`);

  // Header bounds (the whole model's).
  for (let k = 0; k < 8; k++) {
    if (!Number.isFinite(f32(24 + k * 4))) {
      nonfinite(24 + k * 4, 'header', "the model's bounds");
      break;
    }
  }

  // --- Bones: names, parents (before their children, dpmodel.txt), no cycles. ---
  const bonesOk = place('bones', ofsBones, numBones, DPM_SIZE.bone, 68);
  const boneCount = bonesOk ? numBones : 0;
  const parents = new Int32Array(boneCount);
  const boneNames: string[] = [];
  for (let b = 0; b < boneCount; b++) {
    const o = ofsBones + b * DPM_SIZE.bone;
    const nm = checkName(o, 32, () => `bone ${b}`);
    boneNames.push(nm);
    const p = view.getInt32(o + 32, false);
    parents[b] = p < 0 ? -1 : p;
    const label = `bone ${b} ${quotedName(nm)}`;
    if (p >= 0 && p >= numBones) rep.add('dpm-bone-parent-range', o + 32, label, `${label}: parent ${p} is past num_bones ${numBones}: DarkPlaces reads a bone from past the table`);
  }
  const cyclic = hasCycle(parents.map((p) => (p >= boneCount ? -1 : p)));
  for (let b = 0; b < boneCount; b++) {
    const p = parents[b];
    const label = `bone ${b} ${quotedName(boneNames[b])}`;
    if (p >= b && p < boneCount && cyclic < 0) rep.add('dpm-bone-parent-order', ofsBones + b * DPM_SIZE.bone + 32, label, `${label}: its parent ${p} does not come before it: DarkPlaces refuses the file (dpmodel.txt: "models will be rejected")`);
  }
  if (cyclic >= 0) rep.add('dpm-bone-cycle', ofsBones + cyclic * DPM_SIZE.bone + 32, `bone ${cyclic} ${quotedName(boneNames[cyclic])}`, `bone ${cyclic} ${quotedName(boneNames[cyclic])} is its own ancestor: DarkPlaces refuses the file (its parents must come first); other loaders loop forever`);
  if (numBones > 0 && numFrames === 0) rep.add('dpm-no-frames', 64, 'header', `${numBones} bones but no frames: there is no bind pose (frame 0); DarkPlaces does not load the model ("has no frames")`);

  // --- Frames: names, bounds, each one's bone matrices. ---
  const framesOk = place('frames', ofsFrames, numFrames, DPM_SIZE.frame, 76);
  const badFrames = new Set<number>();
  let matricesOk = framesOk;
  // Each frame's matrices must be its own: frames sharing one block would make the checks' work grow past the file's size.
  if (framesOk && numFrames * boneCount * DPM_SIZE.matrix > length) {
    rep.add('dpm-block-overlap', 64, 'frames', `${numFrames} frames × ${boneCount} bones of matrices need more bytes than the file has: the frames share matrices; engines animate garbage`);
    matricesOk = false;
  } else if (framesOk) {
    for (let f = 0; f < numFrames; f++) {
      const o = ofsFrames + f * DPM_SIZE.frame;
      checkName(o, 32, () => `frame ${f}`);
      const b = Array.from({ length: 8 }, (_, k) => f32(o + 32 + k * 4));
      if (!b.every(Number.isFinite)) {
        nonfinite(o + 32, `frame ${f}`, 'its bounds');
        badFrames.add(f);
      } else if (b[0] > b[3] || b[1] > b[4] || b[2] > b[5] || b[6] < 0 || b[7] < 0) {
        rep.add('dpm-bounds-inverted', o + 32, `frame ${f}`, `frame ${f}: the bounds are inside out (mins ${b[0]} ${b[1]} ${b[2]}, maxs ${b[3]} ${b[4]} ${b[5]}, radii ${b[6]} ${b[7]}): engines cull the model in that frame`);
        badFrames.add(f);
      }
      const ofsPoses = u32(o + 64);
      if (!place(`frame ${f} bone matrices`, ofsPoses, boneCount, DPM_SIZE.matrix, o + 64)) {
        matricesOk = false;
        continue;
      }
      for (let k = 0; k < boneCount * 12; k++) {
        if (!Number.isFinite(f32(ofsPoses + k * 4))) {
          nonfinite(ofsPoses + k * 4, `frame ${f}, bone ${Math.floor(k / 12)}`, 'its matrix');
          badFrames.add(f);
          break;
        }
      }
    }
  }

  // --- Meshes: shader, vertices (variable-length influence lists), texcoords, triangles. ---
  const meshesOk = place('meshes', ofsMeshes, numMeshes, DPM_SIZE.mesh, 72);
  const records: MeshRecords[] = [];
  const influenced = new Uint8Array(boneCount);
  let meshesRead = meshesOk;
  let claimed = 0;
  for (let m = 0; meshesOk && m < numMeshes; m++) {
    const o = ofsMeshes + m * DPM_SIZE.mesh;
    const shader = checkName(o, 32, () => `mesh ${m}`);
    const label = `mesh ${m} ${quotedName(shader)}`;
    const numVerts = u32(o + 32), numTris = u32(o + 36);
    const ofsVerts = u32(o + 40), ofsTexcoords = u32(o + 44), ofsIndices = u32(o + 48), ofsGroupIds = u32(o + 52);
    if (numTris === 0) rep.add('dpm-mesh-empty', o + 36, label, `${label} has no triangles${numVerts === 0 ? ' and no vertices' : ''}: engines draw nothing for it`);

    // Meshes must not share data (the least each one claims, bounded by the file), as frames above.
    const need = numVerts * 12 + numTris * 12;
    if (need <= length && (claimed += need) > length) {
      rep.add('dpm-block-overlap', o + 32, label, `${label}: the meshes so far claim at least ${claimed} bytes of data, more than the file's ${length}: they share bytes; engines draw garbage`);
      meshesRead = false;
      break;
    }
    // Vertex records: each walked to its end (a count needs 4 bytes, its influences 32 each).
    const vertexAt = new Uint32Array(numVerts <= length / 4 ? numVerts : 0);
    if (numVerts > length / 4) {
      rep.add('dpm-block-out-of-file', o + 32, label, `${label}: ${numVerts} vertices need more bytes than the file has: DarkPlaces reads past the buffer`);
      meshesRead = false;
    } else if (numVerts > 0 && ofsVerts < DPM_SIZE.header) {
      rep.add('dpm-block-in-header', o + 40, `${label} vertices`, `${label} vertices: offset ${ofsVerts} is inside the ${DPM_SIZE.header}-byte header: engines read the header as vertices`);
      meshesRead = false;
    } else if (numVerts > 0) {
      let p = ofsVerts;
      let complete = true;
      for (let v = 0; v < numVerts; v++) {
        const where = `${label}, vertex ${v}`;
        if (p + 4 > length || p + 4 + view.getUint32(p, false) * DPM_SIZE.boneVert > length) {
          // Reported where its offset comes from: the mesh's ofs_verts, or the previous vertex's count.
          rep.add('dpm-block-out-of-file', v === 0 ? o + 40 : vertexAt[v - 1], where, `${where}: its influences at offset ${p} run past the end of the file (${length} bytes): DarkPlaces reads past the buffer`);
          complete = false;
          break;
        }
        vertexAt[v] = p;
        const nb = view.getUint32(p, false);
        let sum = 0, finite = true, boneOk = true;
        for (let i = 0, q = p + 4; i < nb; i++, q += DPM_SIZE.boneVert) {
          for (let k = 0; k < 7; k++) if (!Number.isFinite(f32(q + k * 4))) finite = false;
          const w = f32(q + 12);
          sum += w;
          const bone = u32(q + 28);
          if (bone >= numBones) {
            if (boneOk) rep.add('dpm-influence-bone', q + 28, where, `${where}: influence ${i} names bone ${bone}, past num_bones ${numBones}: DarkPlaces reads a matrix from past the skeleton (garbage, or a crash)`);
            boneOk = false;
          } else if (w !== 0 && bone < boneCount) influenced[bone] = 1;
        }
        if (!finite) nonfinite(p + 4, where, 'an influence (origin, weight or normal)');
        else if (nb === 0 || sum === 0) rep.add('dpm-vertex-no-influence', p, where, `${where} has ${nb === 0 ? 'no influence' : 'only zero-weight influences'}: DarkPlaces puts it at the model's origin in every frame`);
        else if (Math.abs(sum - 1) > 1e-3) rep.add('dpm-weights-sum', p, where, `${where}: its influences sum to ${sum.toFixed(4)}, not 1 (dpmodel.txt: they must): DarkPlaces builds the rest pose from them as stored but animates with its 4 largest rescaled to sum to 1, so the vertex moves when the model animates`);
        p += 4 + nb * DPM_SIZE.boneVert;
      }
      if (complete) blocks.add(`${label} vertices`, ofsVerts, p - ofsVerts, o + 40);
      else meshesRead = false;
    }
    records.push({ vertexAt });

    if (place(`${label} texture coordinates`, ofsTexcoords, numVerts, 8, o + 44)) {
      for (let i = 0; i < numVerts * 2; i++) {
        if (!Number.isFinite(f32(ofsTexcoords + i * 4))) {
          nonfinite(ofsTexcoords + i * 4, `${label}, vertex ${i >> 1}`, 'its texture coordinate');
          break;
        }
      }
    }
    if (place(`${label} triangles`, ofsIndices, numTris, 12, o + 48) && numVerts <= length / 4) {
      const tri = new Uint32Array(numTris * 3);
      for (let i = 0; i < tri.length; i++) tri[i] = u32(ofsIndices + i * 4);
      const triWhere = (t: number) => `${label}, triangle ${t}`;
      checkTriangleList(tri, numVerts, {
        index: (t, c, x) => rep.add('dpm-triangle-index', ofsIndices + (t * 3 + c) * 4, () => triWhere(t), () => `${triWhere(t)}: vertex ${x} is not one of the mesh's ${numVerts}: DarkPlaces reads a vertex from past the mesh (garbage or a crash)`),
        degenerate: (t) => rep.add('dpm-triangle-degenerate', ofsIndices + t * 12, () => triWhere(t), () => `${triWhere(t)} repeats a vertex (${tri[t * 3]} ${tri[t * 3 + 1]} ${tri[t * 3 + 2]}): it draws nothing and breaks shadow volumes`),
        duplicate: (t, first) => rep.add('dpm-triangle-duplicate', ofsIndices + t * 12, () => triWhere(t), () => `${triWhere(t)} has the same vertices as triangle ${first}: it is drawn twice (z-fighting when its winding differs)`),
        unused: (v) => rep.add('dpm-vertex-unused', vertexAt[v] || o + 32, () => `${label}, vertex ${v}`, () => `${label}, vertex ${v} is used by no triangle: engines skin it every frame for nothing, and it widens the bounds`),
      });
    }
    if (ofsGroupIds !== 0) place(`${label} group ids`, ofsGroupIds, numTris, 4, o + 52);
  }

  // Bones no vertex depends on (directly or through a child).
  if (boneCount > 0 && meshesRead && !rep.any(['dpm-bone-parent-range', 'dpm-bone-cycle'])) {
    const used = Uint8Array.from(influenced);
    for (let b = boneCount - 1; b >= 0; b--) if (used[b] && parents[b] >= 0 && parents[b] < b) used[parents[b]] = 1;
    for (let b = 0; b < boneCount; b++) {
      if (!used[b]) rep.add('dpm-bone-unused', ofsBones + b * DPM_SIZE.bone, `bone ${b} ${quotedName(boneNames[b])}`, `bone ${b} ${quotedName(boneNames[b])} influences no vertex and is the parent of none that does: engines animate it for nothing (unless the game attaches something to it)`);
    }
  }

  blocks.reportOverlaps();

  // --- Bind pose and bounds: need the skeleton composed, so the reader must read the file. ---
  const broken = rep.any(['dpm-type', 'dpm-block-in-header', 'dpm-block-out-of-file', 'dpm-block-overlap', 'dpm-bone-parent-range', 'dpm-bone-cycle', 'dpm-influence-bone', 'dpm-triangle-index', 'dpm-nonfinite']);
  if (broken || !matricesOk || !meshesRead || numFrames === 0) return;
  let model: Model;
  try {
    model = readDpm(bytes);
  } catch {
    rep.note('bind pose and bounds not checked: the file does not read as a model');
    return;
  }
  checkInfluenceAgreement(model, records, rep);
  checkDpmBounds(model, ofsFrames, numFrames, badFrames, rep);
}

/**
 * Each influence's origin is stored pre-weighted in its bone's space (dpmodel.txt): origin / weight,
 * moved by the bone's bind (frame 0) world matrix, is where that influence puts the vertex. All of
 * a vertex's influences must put it at one point, or it tears apart when its bones move apart.
 */
function checkInfluenceAgreement(model: Model, records: readonly MeshRecords[], rep: Reporter): void {
  const world = model.skeleton?.bindWorld;
  if (!world) return;
  model.meshes.forEach((mesh, m) => {
    const d = mesh.dpm;
    if (!d) return;
    const p = mesh.position;
    for (let v = 0; v < mesh.vertexCount; v++) {
      if (d.start[v + 1] - d.start[v] < 2) continue;
      const x = p[v * 3], y = p[v * 3 + 1], z = p[v * 3 + 2];
      const tol = 1e-3 * Math.max(1, Math.abs(x), Math.abs(y), Math.abs(z)) + 1e-3;
      let worst = 0;
      for (let i = d.start[v]; i < d.start[v + 1]; i++) {
        const f = d.influence[i];
        if (!(f > 1e-4)) continue;
        const w = d.bone[i] * 12;
        const ox = d.origins[i * 3] / f, oy = d.origins[i * 3 + 1] / f, oz = d.origins[i * 3 + 2] / f;
        const px = world[w] * ox + world[w + 1] * oy + world[w + 2] * oz + world[w + 3];
        const py = world[w + 4] * ox + world[w + 5] * oy + world[w + 6] * oz + world[w + 7];
        const pz = world[w + 8] * ox + world[w + 9] * oy + world[w + 10] * oz + world[w + 11];
        worst = Math.max(worst, Math.hypot(px - x, py - y, pz - z));
      }
      if (worst > tol) {
        const where = `mesh ${m} ${quotedName(mesh.material)}, vertex ${v}`;
        rep.add('dpm-influence-disagree', records[m].vertexAt[v], where, () => `${where}: its influences put it up to ${Number(worst.toPrecision(4))} units from their weighted sum in the bind pose: it stretches or tears as its bones move apart (the exporter stored the origins in the wrong bones' spaces)`);
      }
    }
  });
}

/** Each frame's box and radii against the vertices skinned with that frame's bones. */
function checkDpmBounds(model: Model, ofsFrames: number, numFrames: number, badFrames: ReadonlySet<number>, rep: Reporter): void {
  const count = totalVertices(model);
  if (count === 0) return;
  const out = new Float32Array(count * 3);
  const pose = createPose(model);
  for (const f of boundsFrames(numFrames, count, rep, 'skinned vertices', badFrames)) {
    if (model.animation) sampleFrames(model, f, f, 0, pose);
    skinVertices(model, pose, out);
    const o = ofsFrames + f * DPM_SIZE.frame;
    checkBoundsFrame(out, model.bounds!.subarray(f * 8, f * 8 + 8), { xyRadius: true }, (what, detail) => {
      rep.add(what === 'box' ? 'dpm-bounds-contain' : 'dpm-bounds-radius', o + (what === 'box' ? 32 : 56), `frame ${f}`, `frame ${f}: ${detail}: engines cull the model while part of it is still on screen (it pops out at the view's edges)`);
    });
  }
}

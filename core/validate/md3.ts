// The MD3 validator (md3.txt; record sizes and Quake 3's limits from core/md3/reader.ts). Like the
// IQM validator it never stops at the first problem: the header's blocks and each surface's are
// placed first (inside the file, after the header, apart), only placed blocks are read, and the
// bounds are compared with the morphed vertices only when the reader reads the file. Offsets are
// absolute; vertex and triangle numbers are the surface's own (MD3 indexes per surface).

import { md3NormalTable, MD3_LIMITS, MD3_MAGIC, MD3_SIZE, MD3_VERSION, md3OverLimit, readMd3, type Md3Limit } from '../md3/reader';
import { morphVertices } from '../model/sample';
import { totalVertices } from '../model/skin';
import { quotedName } from '../names';
import type { Reporter } from './report';
import { BlockMap, boundsFrames, checkBoundsFrame, checkTriangleList, fixedName, rendererLimit, rendererLimitText, type LayoutCodes } from './shared';

const MD3_CODES: LayoutCodes = { inHeader: 'md3-block-in-header', outOfFile: 'md3-block-out-of-file', overlap: 'md3-block-overlap', nameControl: 'md3-name-control', nameUnterminated: 'md3-name-unterminated' };

export function validateMd3(bytes: Uint8Array, rep: Reporter): void {
  const length = bytes.byteLength;
  if (length < MD3_SIZE.header) {
    rep.add('md3-header-truncated', length, 'header', `the file has ${length} bytes, an MD3 header needs ${MD3_SIZE.header}: engines refuse it`);
    return;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  const i32 = (o: number) => view.getInt32(o, true);
  const f32 = (o: number) => view.getFloat32(o, true);
  const version = i32(4);
  if (version !== MD3_VERSION) rep.add('md3-version', 4, 'header', `version ${version}, not ${MD3_VERSION}: ioquake3 does not load the model ("has wrong version")`);
  const ofsEof = i32(104);
  if (ofsEof !== length) rep.add('md3-eof', 104, 'header', `OFS_EOF is ${ofsEof} but the file has ${length} bytes: a loader that trusts it reads too little or past the end`);

  /** A count: negative ones are reported and read as 0; ones past Quake 3's limit are reported. */
  const count = (at: number, where: string, what: string, limit: Md3Limit): number => {
    const n = i32(at);
    if (n < 0) {
      rep.add('md3-count-negative', at, where, `${where}: the ${what} count is ${n}: engines refuse the file`);
      return 0;
    }
    if (n > limit.max) rep.add('md3-count-limit', at, where, `${where}: ${md3OverLimit(n, what, limit)}`);
    return n;
  };
  const numFrames = count(76, 'header', 'frames', MD3_LIMITS.frames);
  const numTags = count(80, 'header', 'tags', MD3_LIMITS.tags);
  const numSurfaces = count(84, 'header', 'surfaces', MD3_LIMITS.surfaces);
  if (i32(76) === 0) rep.add('md3-no-frames', 76, 'header', 'the model has no frames: ioquake3 does not load it ("R_LoadMD3: … has no frames"); GZDoom draws nothing');

  const blocks = new BlockMap(rep, MD3_CODES, MD3_SIZE.header, length);
  const place = blocks.place.bind(blocks);
  const checkName = (at: number, size: number, where: () => string) => blocks.name(bytes, at, size, where);
  const nonfinite = (at: number, where: string, what: string) => rep.add('md3-nonfinite', at, where, `${where}: ${what} holds NaN or an infinity: engines cull, place or texture with garbage`);

  // --- Frames: bounds, local origin, radius. ---
  const framesOk = place('frames', i32(92), numFrames, MD3_SIZE.frame, 92);
  const badFrames = new Set<number>();
  if (framesOk) {
    const ofsFrames = i32(92);
    for (let f = 0; f < numFrames; f++) {
      const o = ofsFrames + f * MD3_SIZE.frame;
      const v = Array.from({ length: 10 }, (_, k) => f32(o + k * 4));
      if (!v.every(Number.isFinite)) {
        nonfinite(o, `frame ${f}`, 'its bounds, origin or radius');
        badFrames.add(f);
      } else if (v[0] > v[3] || v[1] > v[4] || v[2] > v[5] || v[9] < 0) {
        rep.add('md3-bounds-inverted', o, `frame ${f}`, `frame ${f}: the bounds are inside out (mins ${v[0]} ${v[1]} ${v[2]}, maxs ${v[3]} ${v[4]} ${v[5]}, radius ${v[9]}): engines cull the model in that frame`);
        badFrames.add(f);
      }
    }
  }

  // --- Tags: frame-major; frame 0 names them. ---
  if (numTags > 0 && place('tags', i32(96), numFrames * numTags, MD3_SIZE.tag, 96)) {
    const ofsTags = i32(96);
    const names: string[] = [];
    for (let f = 0; f < numFrames; f++) {
      for (let t = 0; t < numTags; t++) {
        const o = ofsTags + (f * numTags + t) * MD3_SIZE.tag;
        const where = `frame ${f}, tag ${t}`;
        if (f === 0) names.push(checkName(o, 64, () => `tag ${t}`));
        else {
          const n = fixedName(bytes, o, 64).text;
          if (n !== names[t]) rep.add('md3-tag-name-mismatch', o, where, `${where} is named ${quotedName(n)}, frame 0 calls it ${quotedName(names[t])}: engines look tags up by name in each frame and lose it in this one`);
        }
        for (let k = 0; k < 12; k++) {
          if (!Number.isFinite(f32(o + 64 + k * 4))) {
            nonfinite(o + 64 + k * 4, `${where} ${quotedName(names[t])}`, 'its origin or axes');
            break;
          }
        }
      }
    }
  }

  // --- Surfaces, walked by OFS_END. ---
  const table = md3NormalTable();
  let s0 = i32(100);
  let prev = 0;
  let surfacesRead = 0;
  let readable = true;
  let claimed = 0;
  for (let s = 0; s < numSurfaces; s++) {
    // Where this surface's offset is stored: the header's OFS_SURFACES, or the previous surface's OFS_END.
    const field = s === 0 ? 100 : prev + 104;
    if (!place(`surface ${s}`, s0, 1, MD3_SIZE.surface, field)) {
      readable = false;
      break;
    }
    const name = checkName(s0 + 4, 64, () => `surface ${s}`);
    const label = `surface ${s} ${quotedName(name)}`;
    if (!(bytes[s0] === 0x49 && bytes[s0 + 1] === 0x44 && bytes[s0 + 2] === 0x50 && bytes[s0 + 3] === 0x33)) rep.add('md3-surface-ident', s0, label, `${label} does not start with ${MD3_MAGIC}: the surface walk has gone astray (a wrong OFS_END or OFS_SURFACES) or the exporter wrote garbage`);
    const sFrames = count(s0 + 72, label, 'frames', MD3_LIMITS.frames);
    const numShaders = count(s0 + 76, label, 'shaders', MD3_LIMITS.shaders);
    const numVerts = count(s0 + 80, label, 'vertices', MD3_LIMITS.verts);
    const numTris = count(s0 + 84, label, 'triangles', MD3_LIMITS.tris);
    const over = rendererLimit(numVerts, numTris);
    if (over) rep.add('md3-surface-renderer-limit', s0 + (over === 'vertices' ? 80 : 84), label, `${label}: ${rendererLimitText('R_LoadMD3', name, numVerts, numTris, over)}`);
    if (sFrames !== numFrames) rep.add('md3-surface-frames', s0 + 72, label, `${label} has ${sFrames} frames, the header ${numFrames}: DarkPlaces refuses the file; loaders that index the surface's vertices by the header's frame read past them`);
    const ofsTris = s0 + i32(s0 + 88), ofsShaders = s0 + i32(s0 + 92), ofsSt = s0 + i32(s0 + 96), ofsXyz = s0 + i32(s0 + 100);

    // Surfaces must not share data: what they claim together is bounded by the file (else
    // surfaces pointing at one block would make the checks' work grow with their square).
    const need = numShaders * MD3_SIZE.shader + numTris * 12 + numVerts * 8 + sFrames * numVerts * 8;
    if (need <= length && (claimed += need) > length) {
      rep.add('md3-block-overlap', s0 + 76, label, `${label}: the surfaces so far claim ${claimed} bytes of data, more than the file's ${length}: they share bytes; engines draw garbage`);
      readable = false;
      break;
    }
    if (place(`${label} shaders`, ofsShaders, numShaders, MD3_SIZE.shader, s0 + 92)) {
      for (let i = 0; i < numShaders; i++) checkName(ofsShaders + i * MD3_SIZE.shader, 64, () => `${label}, shader ${i}`);
    }
    if (numShaders === 0) rep.add('md3-surface-no-shader', s0 + 76, label, `${label} names no shader: engines draw it with their default (missing) texture unless a .skin names one`);
    if (numTris === 0) rep.add('md3-surface-empty', s0 + 84, label, `${label} has no triangles${numVerts === 0 ? ' and no vertices' : ''}: engines draw nothing for it`);

    // A vertex count the file cannot hold is reported with its data (out of the file); triangles are checked against counts it can.
    if (place(`${label} triangles`, ofsTris, numTris, 12, s0 + 88) && numVerts * 8 <= length) {
      const tri = new Int32Array(numTris * 3);
      for (let i = 0; i < tri.length; i++) tri[i] = i32(ofsTris + i * 4);
      const triWhere = (t: number) => `${label}, triangle ${t}`;
      const xyzOk = sFrames > 0 && ofsXyz >= MD3_SIZE.header && ofsXyz + numVerts * 8 <= length;
      checkTriangleList(tri, numVerts, {
        index: (t, c, x) => rep.add('md3-triangle-index', ofsTris + (t * 3 + c) * 4, () => triWhere(t), () => `${triWhere(t)}: vertex ${x} is not one of the surface's ${numVerts}: engines read a vertex from past the surface (garbage or a crash)`),
        degenerate: (t) => rep.add('md3-triangle-degenerate', ofsTris + t * 12, () => triWhere(t), () => `${triWhere(t)} repeats a vertex (${tri[t * 3]} ${tri[t * 3 + 1]} ${tri[t * 3 + 2]}): it draws nothing and breaks shadow volumes`),
        duplicate: (t, first) => rep.add('md3-triangle-duplicate', ofsTris + t * 12, () => triWhere(t), () => `${triWhere(t)} has the same vertices as triangle ${first}: it is drawn twice (z-fighting when its winding differs)`),
        unused: (v) => rep.add('md3-vertex-unused', xyzOk ? ofsXyz + v * 8 : s0 + 80, () => `${label}, vertex ${v}`, () => `${label}, vertex ${v} is used by no triangle: engines morph it every frame for nothing, and it widens the bounds`),
      });
      if (xyzOk && numTris > 0 && !rep.has('md3-triangle-index')) checkNormalOrder(view, tri, numVerts, ofsXyz, table, () => rep.add('md3-normal-byte-order', ofsXyz + 6, label, `${label}: its normals point along the faces only with their two bytes swapped (the exporter wrote azimuth, zenith instead of zenith, azimuth as ioquake3 reads them): the surface is lit from the wrong side`));
    }
    if (place(`${label} texture coordinates`, ofsSt, numVerts, 8, s0 + 96)) {
      for (let i = 0; i < numVerts * 2; i++) {
        if (!Number.isFinite(f32(ofsSt + i * 4))) {
          nonfinite(ofsSt + i * 4, `${label}, vertex ${i >> 1}`, 'its texture coordinate');
          break;
        }
      }
    }
    if (place(`${label} vertices`, ofsXyz, sFrames * numVerts, 8, s0 + 100) && numVerts > 0) {
      for (let f = 0; f < sFrames; f++) {
        let any = false;
        for (let v = 0, p = ofsXyz + f * numVerts * 8 + 6; v < numVerts && !any; v++, p += 8) any = view.getUint16(p, true) !== 0;
        if (!any) {
          rep.add('md3-normals-zero', ofsXyz + f * numVerts * 8 + 6, `${label}, frame ${f}`, `${label}, frame ${f}: every normal is the 0 word (straight up): the exporter wrote no normals; the surface is lit as if it faced +Z`);
          break;
        }
      }
    }
    surfacesRead++;
    const ofsEnd = i32(s0 + 104);
    if (ofsEnd < MD3_SIZE.surface) {
      if (s + 1 < numSurfaces) {
        rep.add('md3-surface-end', s0 + 104, label, `${label}: OFS_END ${ofsEnd} is smaller than a surface header: the next surface starts inside this one (engines read garbage as surfaces)`);
        readable = false;
      }
      break;
    }
    prev = s0;
    s0 += ofsEnd;
  }
  if (surfacesRead < numSurfaces) rep.note(`surfaces ${surfacesRead}..${numSurfaces - 1} not checked: the surface walk left the file`);

  blocks.reportOverlaps();

  // --- Bounds against the morphed vertices, when the file reads as a model. ---
  if (!readable || !framesOk || numFrames === 0 || rep.any(['md3-block-overlap', 'md3-surface-frames', 'md3-triangle-index', 'md3-count-negative'])) return;
  checkMd3Bounds(bytes, view, numFrames, badFrames, rep);
}

/**
 * Whether a surface's frame-0 normals agree with its faces only with the two bytes of each normal
 * swapped. Agreement: the mean cosine between each vertex's normal and its faces' (area-weighted)
 * normal; its sign depends on the winding, so only its size counts.
 */
function checkNormalOrder(view: DataView, tri: Int32Array, numVerts: number, ofsXyz: number, table: Float32Array, report: () => void): void {
  const face = new Float64Array(numVerts * 3);
  const pos = (v: number, k: number) => view.getInt16(ofsXyz + v * 8 + k * 2, true);
  for (let t = 0; t < tri.length; t += 3) {
    const a = tri[t], b = tri[t + 1], c = tri[t + 2];
    const ux = pos(b, 0) - pos(a, 0), uy = pos(b, 1) - pos(a, 1), uz = pos(b, 2) - pos(a, 2);
    const vx = pos(c, 0) - pos(a, 0), vy = pos(c, 1) - pos(a, 1), vz = pos(c, 2) - pos(a, 2);
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      face[v * 3] += nx;
      face[v * 3 + 1] += ny;
      face[v * 3 + 2] += nz;
    }
  }
  let stored = 0, swapped = 0, n = 0;
  for (let v = 0; v < numVerts; v++) {
    const l = Math.hypot(face[v * 3], face[v * 3 + 1], face[v * 3 + 2]);
    if (l === 0) continue;
    const word = view.getUint16(ofsXyz + v * 8 + 6, true);
    const other = ((word & 0xff) << 8) | (word >> 8);
    const dot = (w: number) => (table[w * 3] * face[v * 3] + table[w * 3 + 1] * face[v * 3 + 1] + table[w * 3 + 2] * face[v * 3 + 2]) / l;
    stored += dot(word);
    swapped += dot(other);
    n++;
  }
  if (n === 0) return;
  // Thresholds: the real files agree at 0.9 or better (test/unit/model-md3.test.ts).
  if (Math.abs(stored / n) < 0.3 && Math.abs(swapped / n) > 0.7) report();
}

/** Each frame's box and radius (around its local origin) against all surfaces' vertices in that frame. */
function checkMd3Bounds(bytes: Uint8Array, view: DataView, numFrames: number, badFrames: ReadonlySet<number>, rep: Reporter): void {
  let model;
  try {
    model = readMd3(bytes);
  } catch {
    rep.note('bounds not compared with the vertices: the file does not read as a model');
    return;
  }
  const count = totalVertices(model);
  if (count === 0) return;
  const out = new Float32Array(count * 3);
  const ofsFrames = view.getInt32(92, true);
  for (const f of boundsFrames(numFrames, count, rep, 'vertices', badFrames)) {
    morphVertices(model, f, f, 0, out);
    const o = ofsFrames + f * MD3_SIZE.frame;
    const origin = [0, 1, 2].map((k) => view.getFloat32(o + 24 + k * 4, true));
    checkBoundsFrame(out, model.bounds!.subarray(f * 8, f * 8 + 8), { xyRadius: false, origin }, (what, detail) => {
      rep.add(what === 'box' ? 'md3-bounds-contain' : 'md3-bounds-radius', o + (what === 'box' ? 0 : 36), `frame ${f}`, `frame ${f}: ${detail}: engines cull the model while part of it is still on screen (it pops out at the view's edges)`);
    });
  }
}

// IQM writer: an IqmDocument to bytes, version 2 (the default) or 1. Layout per iqm.txt: header,
// text, meshes, vertex array headers, vertex data, triangles, adjacency, joints, poses, anims,
// frames, bounds, comment, extensions; every table aligned to 4 bytes (vertex data to
// max(4, component size)). Strings are collected into one text table (text[0] = "").

import { encodeUtf8 } from '../utf8';
import {
  FORMAT_SIZES,
  IQM_CUSTOM,
  IQM_HALF,
  IQM_HEADER_SIZE,
  IQM_MAGIC,
  IQM_RECORD,
  type IqmDocExtension,
  type IqmDocument,
} from './document';

class TextTable {
  private readonly index = new Map<string, number>([['', 0]]);
  private readonly chunks: Uint8Array[] = [new Uint8Array(1)];
  size = 1;
  add(s: string): number {
    const found = this.index.get(s);
    if (found !== undefined) return found;
    const bytes = encodeUtf8(s);
    const at = this.size;
    const chunk = new Uint8Array(bytes.length + 1);
    chunk.set(bytes);
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.index.set(s, at);
    return at;
  }
  write(out: Uint8Array, at: number): void {
    let p = at;
    for (const c of this.chunks) {
      out.set(c, p);
      p += c.length;
    }
  }
}

const align = (n: number, a: number) => Math.ceil(n / a) * a;

/** Encodes an extension's data, re-encoding decoded FTE tables (their strings live in the new text table). */
function extensionData(ext: IqmDocExtension, text: TextTable, numMeshes: number): Uint8Array {
  const name = ext.name.toUpperCase();
  if (name === 'FTE_MESH' && ext.meshes) {
    const out = new Uint8Array(28 * numMeshes);
    const v = new DataView(out.buffer);
    ext.meshes.slice(0, numMeshes).forEach((m, i) => {
      const o = i * 28;
      v.setUint32(o, m.contents, true);
      v.setUint32(o + 4, m.surfaceFlags, true);
      v.setUint32(o + 8, m.surfaceId, true);
      v.setUint32(o + 12, m.geomset, true);
      v.setUint32(o + 16, m.geomid, true);
      v.setFloat32(o + 20, m.minDist, true);
      v.setFloat32(o + 24, m.maxDist, true);
    });
    return out;
  }
  if (name === 'FTE_EVENT' && ext.events) {
    const out = new Uint8Array(16 * ext.events.length);
    const v = new DataView(out.buffer);
    ext.events.forEach((e, i) => {
      v.setUint32(i * 16, e.anim, true);
      v.setFloat32(i * 16 + 4, e.timestamp, true);
      v.setUint32(i * 16 + 8, e.code, true);
      v.setUint32(i * 16 + 12, text.add(e.data), true);
    });
    return out;
  }
  if (name === 'FTE_SKINS' && ext.skins) {
    const frames: { texture: string; shader: string }[] = [];
    const skins: { first: number; count: number; interval: number }[] = [];
    const perMesh: number[] = [];
    for (let m = 0; m < numMeshes; m++) {
      const list = ext.skins.meshes[m]?.skins ?? [];
      perMesh.push(list.length);
      for (const s of list) {
        skins.push({ first: frames.length, count: s.frames.length, interval: s.interval });
        frames.push(...s.frames);
      }
    }
    const out = new Uint8Array(8 + 4 * numMeshes + 8 * frames.length + 12 * skins.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, frames.length, true);
    v.setUint32(4, skins.length, true);
    perMesh.forEach((n, m) => v.setUint32(8 + 4 * m, n, true));
    let p = 8 + 4 * numMeshes;
    for (const f of frames) {
      v.setUint32(p, text.add(f.texture), true);
      v.setUint32(p + 4, text.add(f.shader), true);
      p += 8;
    }
    for (const s of skins) {
      v.setUint32(p, s.first, true);
      v.setUint32(p + 4, s.count, true);
      v.setFloat32(p + 8, s.interval, true);
      p += 12;
    }
    return out;
  }
  return ext.data;
}

/** Writes `doc` as IQM bytes (`doc.version` 2 or 1). */
export function writeIqm(doc: IqmDocument): Uint8Array {
  const v1 = doc.version === 1;
  const text = new TextTable();
  const meshNames = doc.meshes.map((m) => [text.add(m.name), text.add(m.material)]);
  const arrayTypes = doc.vertexArrays.map((a) => (a.type >= IQM_CUSTOM ? IQM_CUSTOM + text.add(a.name) : a.type));
  const jointNames = doc.joints.map((j) => text.add(j.name));
  const animNames = doc.anims.map((a) => text.add(a.name));
  const extNames = doc.extensions.map((e) => text.add(e.name));
  const extData = doc.extensions.map((e) => extensionData(e, text, doc.meshes.length));

  // Layout.
  let p = IQM_HEADER_SIZE;
  const ofsText = p;
  p = align(p + text.size, 4);
  const ofsMeshes = p;
  p += doc.meshes.length * IQM_RECORD.mesh;
  const ofsArrays = p;
  p += doc.vertexArrays.length * IQM_RECORD.vertexArray;
  const arrayOffsets = doc.vertexArrays.map((a) => {
    p = align(p, Math.max(4, FORMAT_SIZES[a.format]));
    const at = p;
    p += doc.vertexCount * a.size * FORMAT_SIZES[a.format];
    return at;
  });
  p = align(p, 4);
  const ofsTriangles = p;
  p += doc.triangles.length * 4;
  const ofsAdjacency = doc.adjacency ? p : 0;
  if (doc.adjacency) p += doc.adjacency.length * 4;
  const ofsJoints = p;
  const jointSize = v1 ? 44 : IQM_RECORD.joint;
  p += doc.joints.length * jointSize;
  const ofsPoses = p;
  const channels = v1 ? 9 : 10;
  p += doc.poses.length * (8 + channels * 8);
  const ofsAnims = p;
  p += doc.anims.length * IQM_RECORD.anim;
  const ofsFrames = p;
  p = align(p + doc.frames.length * 2, 4);
  const ofsBounds = doc.bounds ? p : 0;
  if (doc.bounds) p += doc.bounds.length * 4;
  const comment = encodeUtf8(doc.comment);
  const ofsComment = comment.length ? p : 0;
  if (comment.length) p = align(p + comment.length + 1, 4);
  const extOffsets = doc.extensions.map((_, i) => {
    const at = p;
    p = align(p + 16 + extData[i].length, 4);
    return at;
  });
  const size = p;

  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 16; i++) out[i] = IQM_MAGIC.charCodeAt(i);
  const hdr = [
    doc.version, size, doc.flags,
    text.size, ofsText,
    doc.meshes.length, doc.meshes.length ? ofsMeshes : 0,
    doc.vertexArrays.length, doc.vertexCount, doc.vertexArrays.length ? ofsArrays : 0,
    doc.triangles.length / 3, doc.triangles.length ? ofsTriangles : 0, ofsAdjacency,
    doc.joints.length, doc.joints.length ? ofsJoints : 0,
    doc.poses.length, doc.poses.length ? ofsPoses : 0,
    doc.anims.length, doc.anims.length ? ofsAnims : 0,
    doc.frameCount, doc.frameChannels, doc.frames.length ? ofsFrames : 0, ofsBounds,
    comment.length ? comment.length + 1 : 0, ofsComment,
    doc.extensions.length, doc.extensions.length ? extOffsets[0] : 0,
  ];
  hdr.forEach((x, i) => v.setUint32(16 + i * 4, x, true));
  text.write(out, ofsText);

  doc.meshes.forEach((m, i) => {
    const o = ofsMeshes + i * IQM_RECORD.mesh;
    v.setUint32(o, meshNames[i][0], true);
    v.setUint32(o + 4, meshNames[i][1], true);
    v.setUint32(o + 8, m.firstVertex, true);
    v.setUint32(o + 12, m.vertexCount, true);
    v.setUint32(o + 16, m.firstTriangle, true);
    v.setUint32(o + 20, m.triangleCount, true);
  });
  doc.vertexArrays.forEach((a, i) => {
    const o = ofsArrays + i * IQM_RECORD.vertexArray;
    v.setUint32(o, arrayTypes[i], true);
    v.setUint32(o + 4, a.flags, true);
    v.setUint32(o + 8, a.format, true);
    v.setUint32(o + 12, a.size, true);
    v.setUint32(o + 16, arrayOffsets[i], true);
    const cs = FORMAT_SIZES[a.format];
    const n = doc.vertexCount * a.size;
    if (a.data.length < n) throw new RangeError(`vertex array ${a.name} has ${a.data.length} values, needs ${n}`);
    for (let k = 0, q = arrayOffsets[i]; k < n; k++, q += cs) {
      const x = a.data[k];
      switch (a.format) {
        case 0: v.setInt8(q, x); break;
        case 1: v.setUint8(q, x); break;
        case 2: v.setInt16(q, x, true); break;
        case 3: case IQM_HALF: v.setUint16(q, x, true); break;
        case 4: v.setInt32(q, x, true); break;
        case 5: v.setUint32(q, x, true); break;
        case 7: v.setFloat32(q, x, true); break;
        default: v.setFloat64(q, x, true);
      }
    }
  });
  doc.triangles.forEach((x, i) => v.setUint32(ofsTriangles + i * 4, x, true));
  doc.adjacency?.forEach((x, i) => v.setUint32(ofsAdjacency + i * 4, x, true));
  doc.joints.forEach((j, i) => {
    const o = ofsJoints + i * jointSize;
    v.setUint32(o, jointNames[i], true);
    v.setInt32(o + 4, j.parent, true);
    let q = o + 8;
    for (let c = 0; c < 10; c++) {
      if (v1 && c === 6) continue; // v1 stores rotate x y z only
      v.setFloat32(q, j.trs[c], true);
      q += 4;
    }
  });
  doc.poses.forEach((pose, i) => {
    const o = ofsPoses + i * (8 + channels * 8);
    v.setInt32(o, pose.parent, true);
    let mask = 0;
    let k = 0;
    for (let c = 0; c < 10; c++) {
      if (v1 && c === 6) continue;
      if (pose.mask & (1 << c)) mask |= 1 << k;
      v.setFloat32(o + 8 + k * 4, pose.offset[c], true);
      v.setFloat32(o + 8 + channels * 4 + k * 4, pose.scale[c], true);
      k++;
    }
    v.setUint32(o + 4, mask, true);
  });
  doc.anims.forEach((a, i) => {
    const o = ofsAnims + i * 20;
    v.setUint32(o, animNames[i], true);
    v.setUint32(o + 4, a.firstFrame, true);
    v.setUint32(o + 8, a.frameCount, true);
    v.setFloat32(o + 12, a.framerate, true);
    v.setUint32(o + 16, a.flags, true);
  });
  doc.frames.forEach((x, i) => v.setUint16(ofsFrames + i * 2, x, true));
  doc.bounds?.forEach((x, i) => v.setFloat32(ofsBounds + i * 4, x, true));
  if (comment.length) out.set(comment, ofsComment);
  doc.extensions.forEach((_, i) => {
    const o = extOffsets[i];
    v.setUint32(o, extNames[i], true);
    v.setUint32(o + 4, extData[i].length, true);
    v.setUint32(o + 8, o + 16, true);
    v.setUint32(o + 12, i + 1 < extOffsets.length ? extOffsets[i + 1] : 0, true);
    out.set(extData[i], o + 16);
  });
  return out;
}

// The tests' and benchmarks' IQM writer: any IqmDocument (as core/iqm/reader.ts reads it) to
// bytes, version 2 (the default) or 1, with flags, extensions and any vertex array format, to make
// the files the reader, the preview and the engine checks are tested on. The compiler writes its
// IQM files with core/compile/layout.ts; both place the blocks by the one layout description,
// core/iqm/layout.ts. Strings are collected into one text table (text[0] = "").

import { encodeUtf8 } from '../../core/utf8';
import type { IqmDocExtension, IqmDocument } from '../../core/iqm/document';
import { FORMAT_SIZES, FTE_RECORD, IQM_CUSTOM, IQM_EXTENSION_HEADER_SIZE, IQM_HALF, IQM_RECORD, IQM_RECORD_V1, planIqmLayout, writeIqmHeader } from '../../core/iqm/layout';

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

/** Encodes an extension's data, re-encoding decoded FTE tables (their strings live in the new text table). */
function extensionData(ext: IqmDocExtension, text: TextTable, numMeshes: number): Uint8Array {
  const name = ext.name.toUpperCase();
  if (name === 'FTE_MESH' && ext.meshes) {
    const out = new Uint8Array(FTE_RECORD.mesh * numMeshes);
    const v = new DataView(out.buffer);
    ext.meshes.slice(0, numMeshes).forEach((m, i) => {
      const o = i * FTE_RECORD.mesh;
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
    const out = new Uint8Array(FTE_RECORD.event * ext.events.length);
    const v = new DataView(out.buffer);
    ext.events.forEach((e, i) => {
      const o = i * FTE_RECORD.event;
      v.setUint32(o, e.anim, true);
      v.setFloat32(o + 4, e.timestamp, true);
      v.setUint32(o + 8, e.code, true);
      v.setUint32(o + 12, text.add(e.data), true);
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
    const out = new Uint8Array(8 + 4 * numMeshes + FTE_RECORD.skinFrame * frames.length + FTE_RECORD.skin * skins.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, frames.length, true);
    v.setUint32(4, skins.length, true);
    perMesh.forEach((n, m) => v.setUint32(8 + 4 * m, n, true));
    let p = 8 + 4 * numMeshes;
    for (const f of frames) {
      v.setUint32(p, text.add(f.texture), true);
      v.setUint32(p + 4, text.add(f.shader), true);
      p += FTE_RECORD.skinFrame;
    }
    for (const s of skins) {
      v.setUint32(p, s.first, true);
      v.setUint32(p + 4, s.count, true);
      v.setFloat32(p + 8, s.interval, true);
      p += FTE_RECORD.skin;
    }
    return out;
  }
  return ext.data;
}

/** Writes `doc` as IQM bytes (`doc.version` 2 or 1). */
export function writeIqmDocument(doc: IqmDocument): Uint8Array {
  const v1 = doc.version === 1;
  const text = new TextTable();
  const meshNames = doc.meshes.map((m) => [text.add(m.name), text.add(m.material)]);
  const arrayTypes = doc.vertexArrays.map((a) => (a.type >= IQM_CUSTOM ? IQM_CUSTOM + text.add(a.name) : a.type));
  const jointNames = doc.joints.map((j) => text.add(j.name));
  const animNames = doc.anims.map((a) => text.add(a.name));
  const extNames = doc.extensions.map((e) => text.add(e.name));
  const extData = doc.extensions.map((e) => extensionData(e, text, doc.meshes.length));

  const comment = encodeUtf8(doc.comment);
  const layout = planIqmLayout({
    version: doc.version,
    textBytes: text.size,
    meshes: doc.meshes.length,
    vertexArrays: doc.vertexArrays.map((a) => ({ format: a.format, bytes: doc.vertexCount * a.size * FORMAT_SIZES[a.format] })),
    triangles: doc.triangles.length / 3,
    adjacency: doc.adjacency !== null,
    joints: doc.joints.length,
    poses: doc.poses.length,
    anims: doc.anims.length,
    frameValues: doc.frames.length,
    bounds: doc.bounds ? doc.bounds.length / 8 : 0,
    commentBytes: comment.length ? comment.length + 1 : 0,
    extensions: extData.map((d) => d.length),
  });
  const { size, arrayOffsets, extensionOffsets: extOffsets } = layout;
  const jointSize = v1 ? IQM_RECORD_V1.joint : IQM_RECORD.joint;
  const poseSize = v1 ? IQM_RECORD_V1.pose : IQM_RECORD.pose;
  const channels = v1 ? 9 : 10;

  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  writeIqmHeader(v, {
    version: doc.version, filesize: size, flags: doc.flags,
    num_text: text.size, ofs_text: layout.ofs_text,
    num_meshes: doc.meshes.length, ofs_meshes: layout.ofs_meshes,
    num_vertexarrays: doc.vertexArrays.length, num_vertexes: doc.vertexCount, ofs_vertexarrays: layout.ofs_vertexarrays,
    num_triangles: doc.triangles.length / 3, ofs_triangles: layout.ofs_triangles, ofs_adjacency: layout.ofs_adjacency,
    num_joints: doc.joints.length, ofs_joints: layout.ofs_joints,
    num_poses: doc.poses.length, ofs_poses: layout.ofs_poses,
    num_anims: doc.anims.length, ofs_anims: layout.ofs_anims,
    num_frames: doc.frameCount, num_framechannels: doc.frameChannels, ofs_frames: layout.ofs_frames, ofs_bounds: layout.ofs_bounds,
    num_comment: comment.length ? comment.length + 1 : 0, ofs_comment: layout.ofs_comment,
    num_extensions: doc.extensions.length, ofs_extensions: extOffsets.length ? extOffsets[0] : 0,
  });
  text.write(out, layout.ofs_text);

  doc.meshes.forEach((m, i) => {
    const o = layout.ofs_meshes + i * IQM_RECORD.mesh;
    v.setUint32(o, meshNames[i][0], true);
    v.setUint32(o + 4, meshNames[i][1], true);
    v.setUint32(o + 8, m.firstVertex, true);
    v.setUint32(o + 12, m.vertexCount, true);
    v.setUint32(o + 16, m.firstTriangle, true);
    v.setUint32(o + 20, m.triangleCount, true);
  });
  doc.vertexArrays.forEach((a, i) => {
    const o = layout.ofs_vertexarrays + i * IQM_RECORD.vertexArray;
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
  doc.triangles.forEach((x, i) => v.setUint32(layout.ofs_triangles + i * 4, x, true));
  doc.adjacency?.forEach((x, i) => v.setUint32(layout.ofs_adjacency + i * 4, x, true));
  doc.joints.forEach((j, i) => {
    const o = layout.ofs_joints + i * jointSize;
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
    const o = layout.ofs_poses + i * poseSize;
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
    const o = layout.ofs_anims + i * IQM_RECORD.anim;
    v.setUint32(o, animNames[i], true);
    v.setUint32(o + 4, a.firstFrame, true);
    v.setUint32(o + 8, a.frameCount, true);
    v.setFloat32(o + 12, a.framerate, true);
    v.setUint32(o + 16, a.flags, true);
  });
  doc.frames.forEach((x, i) => v.setUint16(layout.ofs_frames + i * 2, x, true));
  doc.bounds?.forEach((x, i) => v.setFloat32(layout.ofs_bounds + i * 4, x, true));
  if (comment.length) out.set(comment, layout.ofs_comment);
  doc.extensions.forEach((_, i) => {
    const o = extOffsets[i];
    v.setUint32(o, extNames[i], true);
    v.setUint32(o + 4, extData[i].length, true);
    v.setUint32(o + 8, o + IQM_EXTENSION_HEADER_SIZE, true);
    v.setUint32(o + 12, i + 1 < extOffsets.length ? extOffsets[i + 1] : 0, true);
    out.set(extData[i], o + IQM_EXTENSION_HEADER_SIZE);
  });
  return out;
}

// Test-only writers for MD3 and DPM (IQM: iqm-writer.ts), and a small
// IQM document generator. Layouts from ../shared/specs/md3.txt and dpmodel.txt.

import type { IqmDocument } from '../../core/iqm/document';

class Out {
  bytes: number[] = [];
  constructor(readonly le: boolean) {}
  get pos() {
    return this.bytes.length;
  }
  private push(n: number, write: (v: DataView) => void) {
    const b = new Uint8Array(n);
    write(new DataView(b.buffer));
    this.bytes.push(...b);
  }
  i16(x: number) { this.push(2, (v) => v.setInt16(0, x, this.le)); }
  u16(x: number) { this.push(2, (v) => v.setUint16(0, x, this.le)); }
  i32(x: number) { this.push(4, (v) => v.setInt32(0, x, this.le)); }
  u32(x: number) { this.push(4, (v) => v.setUint32(0, x, this.le)); }
  f32(x: number) { this.push(4, (v) => v.setFloat32(0, x, this.le)); }
  str(s: string, size: number) {
    for (let i = 0; i < size; i++) this.bytes.push(i < s.length ? s.charCodeAt(i) : 0);
  }
  patchI32(at: number, x: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, x, this.le);
    for (let i = 0; i < 4; i++) this.bytes[at + i] = b[i];
  }
  done() {
    return new Uint8Array(this.bytes);
  }
}

export interface Md3Spec {
  name: string;
  frames: { mins: number[]; maxs: number[]; origin: number[]; radius: number; name: string }[];
  /** tags[frame][tag] */
  tags: { name: string; origin: number[]; axis: number[][] }[][];
  surfaces: {
    name: string;
    shaders: string[];
    triangles: number[];
    st: number[];
    /** xyz[frame] = int16 triples */
    xyz: number[][];
    /** normals[frame] = uint16 per vertex (byte 6 | byte 7 << 8) */
    normals: number[][];
  }[];
}

export function writeMd3(spec: Md3Spec): Uint8Array {
  const o = new Out(true);
  const nf = spec.frames.length;
  const nt = spec.tags[0]?.length ?? 0;
  o.str('IDP3', 4);
  o.i32(15);
  o.str(spec.name, 64);
  o.i32(0);
  o.i32(nf);
  o.i32(nt);
  o.i32(spec.surfaces.length);
  o.i32(0);
  const ofsAt = o.pos;
  o.i32(0); o.i32(0); o.i32(0); o.i32(0);
  const ofsFrames = o.pos;
  for (const f of spec.frames) {
    for (const x of [...f.mins, ...f.maxs, ...f.origin]) o.f32(x);
    o.f32(f.radius);
    o.str(f.name, 16);
  }
  const ofsTags = o.pos;
  for (const frame of spec.tags) for (const t of frame) {
    o.str(t.name, 64);
    for (const x of t.origin) o.f32(x);
    for (const a of t.axis) for (const x of a) o.f32(x);
  }
  const ofsSurfaces = o.pos;
  for (const s of spec.surfaces) {
    const start = o.pos;
    const nv = s.st.length / 2;
    o.str('IDP3', 4);
    o.str(s.name, 64);
    o.i32(0);
    o.i32(s.xyz.length);
    o.i32(s.shaders.length);
    o.i32(nv);
    o.i32(s.triangles.length / 3);
    const sOfs = o.pos;
    o.i32(0); o.i32(0); o.i32(0); o.i32(0); o.i32(0);
    const ofsShaders = o.pos - start;
    s.shaders.forEach((name, i) => { o.str(name, 64); o.i32(i); });
    const ofsTris = o.pos - start;
    for (const x of s.triangles) o.i32(x);
    const ofsSt = o.pos - start;
    for (const x of s.st) o.f32(x);
    const ofsXyz = o.pos - start;
    s.xyz.forEach((frame, f) => {
      for (let v = 0; v < nv; v++) {
        o.i16(frame[v * 3]); o.i16(frame[v * 3 + 1]); o.i16(frame[v * 3 + 2]);
        o.u16(s.normals[f][v]);
      }
    });
    const ofsEnd = o.pos - start;
    o.patchI32(sOfs, ofsTris);
    o.patchI32(sOfs + 4, ofsShaders);
    o.patchI32(sOfs + 8, ofsSt);
    o.patchI32(sOfs + 12, ofsXyz);
    o.patchI32(sOfs + 16, ofsEnd);
  }
  o.patchI32(ofsAt, ofsFrames);
  o.patchI32(ofsAt + 4, ofsTags);
  o.patchI32(ofsAt + 8, ofsSurfaces);
  o.patchI32(ofsAt + 12, o.pos);
  return o.done();
}

export interface DpmSpec {
  bones: { name: string; parent: number; flags: number }[];
  meshes: {
    shader: string;
    verts: { origin: number[]; influence: number; normal: number[]; bone: number }[][];
    texcoords: number[];
    indices: number[];
    groupIds: number[] | null;
  }[];
  frames: { name: string; bounds: number[]; matrices: number[] }[];
}

export function writeDpm(spec: DpmSpec): Uint8Array {
  const o = new Out(false);
  o.str('DARKPLACESMODEL', 16);
  o.u32(2);
  const sizeAt = o.pos;
  o.u32(0);
  for (let i = 0; i < 8; i++) o.f32(i < 3 ? -1 : 1);
  o.u32(spec.bones.length);
  o.u32(spec.meshes.length);
  o.u32(spec.frames.length);
  const ofsAt = o.pos;
  o.u32(0); o.u32(0); o.u32(0);
  const ofsBones = o.pos;
  for (const b of spec.bones) { o.str(b.name, 32); o.i32(b.parent); o.u32(b.flags); }
  const ofsMeshes = o.pos;
  const meshPatch: number[] = [];
  for (const m of spec.meshes) {
    o.str(m.shader, 32);
    o.u32(m.verts.length);
    o.u32(m.indices.length / 3);
    meshPatch.push(o.pos);
    o.u32(0); o.u32(0); o.u32(0); o.u32(0);
  }
  const ofsFrames = o.pos;
  const framePatch: number[] = [];
  for (const f of spec.frames) {
    o.str(f.name, 32);
    for (const x of f.bounds) o.f32(x);
    framePatch.push(o.pos);
    o.i32(0);
  }
  spec.frames.forEach((f, i) => {
    o.patchI32(framePatch[i], o.pos);
    for (const x of f.matrices) o.f32(x);
  });
  spec.meshes.forEach((m, i) => {
    o.patchI32(meshPatch[i], o.pos);
    for (const v of m.verts) {
      o.u32(v.length);
      for (const inf of v) {
        for (const x of inf.origin) o.f32(x);
        o.f32(inf.influence);
        for (const x of inf.normal) o.f32(x);
        o.u32(inf.bone);
      }
    }
    o.patchI32(meshPatch[i] + 4, o.pos);
    for (const x of m.texcoords) o.f32(x);
    o.patchI32(meshPatch[i] + 8, o.pos);
    for (const x of m.indices) o.u32(x);
    if (m.groupIds) {
      o.patchI32(meshPatch[i] + 12, o.pos);
      for (const x of m.groupIds) o.u32(x);
    }
  });
  o.patchI32(ofsAt, ofsBones);
  o.patchI32(ofsAt + 4, ofsMeshes);
  o.patchI32(ofsAt + 8, ofsFrames);
  o.patchI32(sizeAt, o.pos);
  return o.done();
}

/** A small skinned and animated IQM document: 2 meshes, 3 joints, 2 anims, every section. */
export function smallIqmDocument(version: 1 | 2 = 2): IqmDocument {
  const vertexCount = 6;
  const pos = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1]);
  const q = (x: number, y: number, z: number, w: number) => {
    const l = Math.hypot(x, y, z, w);
    return [x / l, y / l, z / l, w / l];
  };
  const joint = (name: string, parent: number, t: number[], r: number[], s: number[]) => ({ name, parent, trs: new Float32Array([...t, ...r, ...s]) });
  const frames = [];
  // pose 0: translate x animated (mask bit 0); pose 1: rotation animated (bits 3..6); pose 2: scale (bits 7..9).
  const pose = (parent: number, mask: number, offset: number[], scale: number[]) => ({ parent, mask, offset: new Float32Array(offset), scale: new Float32Array(scale) });
  const qv1 = q(0.1, 0.2, 0.3, -0.9); // v1 reconstructs w as negative
  const w0 = version === 1 ? 0 : 1; // v1 has no w channel: it reads back as 0 in the document
  const poses = [
    pose(-1, 1, [0, 0, 0, 0, 0, 0, w0, 1, 1, 1], [0.001, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    pose(0, version === 1 ? 0b111000 : 0b1111000, [0, 1, 0, -1, -1, -1, version === 1 ? 0 : -1, 1, 1, 1], [0, 0, 0, 2 / 65535, 2 / 65535, 2 / 65535, version === 1 ? 0 : 2 / 65535, 0, 0, 0]),
    pose(1, 0b1110000000, [0, 0.5, 0, ...qv1.slice(0, 3), version === 1 ? 0 : qv1[3], 0.5, 0.5, 0.5], [0, 0, 0, 0, 0, 0, 0, 1 / 65535, 1 / 65535, 1 / 65535]),
  ];
  const chans = version === 1 ? 1 + 3 + 3 : 1 + 4 + 3;
  const frameCount = 4;
  for (let f = 0; f < frameCount; f++) {
    frames.push(f * 1000);
    for (let k = 0; k < (version === 1 ? 3 : 4); k++) frames.push((f * 7919 + k * 12345) % 65536);
    for (let k = 0; k < 3; k++) frames.push(20000 + f * 3000 + k * 100);
  }
  return {
    version,
    flags: 0,
    vertexCount,
    meshes: [
      { name: 'body', material: 'body.tga', firstVertex: 0, vertexCount: 4, firstTriangle: 0, triangleCount: 2 },
      { name: 'head', material: 'textures/head', firstVertex: 4, vertexCount: 2, firstTriangle: 2, triangleCount: 1 },
    ],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: pos, offset: 0 },
      { type: 1, name: 'texcoord', flags: 0, format: 6, size: 2, data: new Uint16Array([0x3c00, 0, 0x3800, 0x3400, 0, 0x3c00, 0x3c00, 0x3c00, 0x3800, 0x3800, 0, 0]), offset: 0 },
      { type: 2, name: 'normal', flags: 0, format: 2, size: 3, data: new Int16Array([0, 0, 32767, 0, 0, 32767, 0, -32767, 0, 32767, 0, 0, 0, 0, -32768, 0, 0, 32767]), offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 5, size: 4, data: new Uint32Array([0, 1, 0, 0, 1, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 2, 7, 0]), offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 7, size: 4, data: new Float32Array([0.5, 0.5, 0, 0, 1, 0, 0, 0, 0.25, 0.25, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0.3, 0.3, 0.4, 0]), offset: 0 },
      { type: 6, name: 'color', flags: 0, format: 1, size: 4, data: new Uint8Array(24).map((_, i) => i * 10), offset: 0 },
      { type: 0x10, name: 'my_custom', flags: 0, format: 8, size: 1, data: new Float64Array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5]), offset: 0 },
    ],
    triangles: new Uint32Array([0, 1, 2, 1, 3, 2, 4, 5, 4]),
    adjacency: new Uint32Array([1, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]),
    joints: [
      joint('root', -1, [0, 0, 0], [0, 0, 0, version === 1 ? -1 : 1], [1, 1, 1]),
      joint('spine', 0, [0, 1, 0], version === 1 ? qv1 : q(0.1, 0.2, 0.3, 0.9), [1, 1, 1]),
      joint('head', 1, [0, 0.5, 0], qv1, [0.5, 0.5, 0.5]),
    ],
    poses,
    anims: [
      { name: 'idle', firstFrame: 0, frameCount: 2, framerate: 10, flags: 1 },
      { name: 'wave', firstFrame: 2, frameCount: 2, framerate: 0, flags: 0 },
    ],
    frameCount,
    frameChannels: chans,
    frames: new Uint16Array(frames),
    bounds: new Float32Array(Array.from({ length: frameCount * 8 }, (_, i) => (i % 8) - 3)),
    comment: 'written by the iqm-tools tests',
    extensions: [
      { name: 'FTE_MESH', data: new Uint8Array(0), offset: 0, meshes: [0, 1].map((i) => ({ contents: 0x2000000, surfaceFlags: i, surfaceId: i + 1, geomset: 0xffffffff, geomid: 0, minDist: 0, maxDist: 100 })) },
      { name: 'FTE_EVENT', data: new Uint8Array(0), offset: 0, events: [{ anim: 1, timestamp: 0.5, code: 7, data: 'footstep left' }] },
      { name: 'FTE_SKINS', data: new Uint8Array(0), offset: 0, skins: { meshes: [{ skins: [{ frames: [{ texture: 'a.tga', shader: '' }, { texture: 'b.tga', shader: 'glow' }], interval: 0.25 }] }, { skins: [] }] } },
      { name: 'MY_THING', data: new Uint8Array([1, 2, 3, 4, 5]), offset: 0 },
    ],
  };
}

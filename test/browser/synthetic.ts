// A synthetic, animated DPM of a given size for the preview benchmarks (bench/preview-*.ts):
// `bones` bones in a binary tree, a grid mesh whose vertices have 2 influences each, `frames`
// frames of bending. Written directly with a DataView (big-endian, dpmodel.txt layout).

export interface SyntheticDpm {
  bytes: Uint8Array;
  vertices: number;
  triangles: number;
}

export function syntheticDpm(bones: number, frames: number, gridSide: number): SyntheticDpm {
  const vertices = gridSide * gridSide;
  const triangles = (gridSide - 1) * (gridSide - 1) * 2;
  const HEADER = 80, BONE = 40, MESH = 56, FRAME = 68, INF = 32;
  const ofsBones = HEADER;
  const ofsMeshes = ofsBones + bones * BONE;
  const ofsFrames = ofsMeshes + MESH;
  const ofsMatrices = ofsFrames + frames * FRAME;
  const ofsVerts = ofsMatrices + frames * bones * 48;
  const ofsTex = ofsVerts + vertices * (4 + 2 * INF);
  const ofsIdx = ofsTex + vertices * 8;
  const size = ofsIdx + triangles * 12;
  const buf = new ArrayBuffer(size);
  const v = new DataView(buf);
  const bytes = new Uint8Array(buf);
  const str = (o: number, s: string, n: number) => {
    for (let i = 0; i < n; i++) bytes[o + i] = i < s.length ? s.charCodeAt(i) : 0;
  };
  str(0, 'DARKPLACESMODEL', 16);
  v.setUint32(16, 2);
  v.setUint32(20, size);
  for (let i = 0; i < 8; i++) v.setFloat32(24 + i * 4, i < 3 ? -10 : 10);
  v.setUint32(56, bones);
  v.setUint32(60, 1);
  v.setUint32(64, frames);
  v.setUint32(68, ofsBones);
  v.setUint32(72, ofsMeshes);
  v.setUint32(76, ofsFrames);
  for (let b = 0; b < bones; b++) {
    str(ofsBones + b * BONE, `bone${b}`, 32);
    v.setInt32(ofsBones + b * BONE + 32, b === 0 ? -1 : (b - 1) >> 1);
    v.setUint32(ofsBones + b * BONE + 36, 0);
  }
  str(ofsMeshes, 'synthetic', 32);
  v.setUint32(ofsMeshes + 32, vertices);
  v.setUint32(ofsMeshes + 36, triangles);
  v.setUint32(ofsMeshes + 40, ofsVerts);
  v.setUint32(ofsMeshes + 44, ofsTex);
  v.setUint32(ofsMeshes + 48, ofsIdx);
  v.setUint32(ofsMeshes + 52, 0);
  for (let f = 0; f < frames; f++) {
    const o = ofsFrames + f * FRAME;
    str(o, `frame${f}`, 32);
    for (let i = 0; i < 8; i++) v.setFloat32(o + 32 + i * 4, i < 3 ? -10 : 10);
    v.setUint32(o + 64, ofsMatrices + f * bones * 48);
    for (let b = 0; b < bones; b++) {
      const a = b === 0 ? 0 : 0.05 * Math.sin(f * 0.3 + b);
      const c = Math.cos(a), s = Math.sin(a);
      const m = [c, -s, 0, b === 0 ? 0 : 0.1, s, c, 0, 0, 0, 0, 1, b === 0 ? 0 : 0.05];
      for (let i = 0; i < 12; i++) v.setFloat32(ofsMatrices + (f * bones + b) * 48 + i * 4, m[i]);
    }
  }
  let o = ofsVerts;
  for (let i = 0; i < vertices; i++) {
    const x = (i % gridSide) / gridSide - 0.5, y = Math.floor(i / gridSide) / gridSide - 0.5;
    v.setUint32(o, 2);
    o += 4;
    for (let k = 0; k < 2; k++) {
      const bone = (i * 7 + k * 13) % bones;
      v.setFloat32(o, x * 0.5);
      v.setFloat32(o + 4, y * 0.5);
      v.setFloat32(o + 8, 0);
      v.setFloat32(o + 12, 0.5);
      v.setFloat32(o + 16, 0);
      v.setFloat32(o + 20, 0);
      v.setFloat32(o + 24, 0.5);
      v.setUint32(o + 28, bone);
      o += INF;
    }
    v.setFloat32(ofsTex + i * 8, x + 0.5);
    v.setFloat32(ofsTex + i * 8 + 4, y + 0.5);
  }
  let t = ofsIdx;
  for (let gy = 0; gy < gridSide - 1; gy++) {
    for (let gx = 0; gx < gridSide - 1; gx++) {
      const a = gy * gridSide + gx, b = a + 1, c = a + gridSide, d = c + 1;
      for (const idx of [a, c, b, b, c, d]) {
        v.setUint32(t, idx);
        t += 4;
      }
    }
  }
  return { bytes, vertices, triangles };
}

// Animation sampling (the CPU skinning reference is in skin.ts). Create a Pose once per model; every function
// after that writes into preallocated arrays and allocates nothing (it runs every frame).
//
// Skeletal poses: per joint, translation and scale are lerped and rotation slerped (shorter arc),
// then world = parent world · T·R·S with full 3x4 matrices, so a parent's (even non-uniform) scale
// reaches its children. Never lerp matrices: that shrinks joints between keys (ioq3#402).

import { fromTRS, invert3x4, mul3x4 } from '../math/mat3x4';
import { normalizeQuat } from '../math/quat';
import { DEFAULT_FPS, type Clip, type Model } from './model';

export interface Pose {
  jointCount: number;
  /** 10 per joint: local [t q s]. */
  local: Float32Array;
  /** 12 per joint: local matrices (what world composition uses). */
  localMatrix: Float32Array;
  /** 12 per joint: world (model-space) matrices. */
  world: Float32Array;
  /** 12 per joint: world · inverse bind world (linear blend skinning). */
  skin: Float32Array;
  /**
   * Whether sampling also updates `skin` (default true). Consumers that only need world matrices
   * (skeleton display, tag attachment) may turn it off and call computeSkin when they do need it.
   */
  updateSkin: boolean;
  /** Scratch for the second frame of a blend. */
  scratch: Float32Array;
  parents: Int32Array;
  order: Int32Array;
}

/** Where a time falls in a clip: frames a and b of the global strip and the blend t in [0, 1). */
export interface FrameBlend {
  a: number;
  b: number;
  t: number;
}

export function createPose(model: Model): Pose {
  const sk = model.skeleton;
  const jointCount = sk ? sk.names.length : model.animation ? model.animation.poseCount : 0;
  let parents: Int32Array;
  let order: Int32Array;
  if (sk) {
    parents = sk.parents;
    order = sk.order;
  } else if (model.animation) {
    parents = model.animation.parents;
    // Animation-only files: the reader validated these parents (no cycle); order parents first.
    order = new Int32Array(jointCount);
    const placed = new Uint8Array(jointCount);
    let k = 0;
    for (let pass = 0; k < jointCount && pass <= jointCount; pass++) {
      for (let j = 0; j < jointCount; j++) {
        if (!placed[j] && (parents[j] < 0 || placed[parents[j]])) {
          placed[j] = 1;
          order[k++] = j;
        }
      }
    }
  } else {
    parents = new Int32Array(0);
    order = new Int32Array(0);
  }
  const pose: Pose = {
    jointCount,
    local: new Float32Array(jointCount * 10),
    localMatrix: new Float32Array(jointCount * 12),
    world: new Float32Array(jointCount * 12),
    skin: new Float32Array(jointCount * 12),
    scratch: new Float32Array(jointCount * 10),
    parents,
    order,
    updateSkin: true,
  };
  setBindPose(model, pose);
  return pose;
}

/** The bind pose: IQM joints, DPM frame 0 (its skeleton's bindLocal), identity for animation-only files. */
export function setBindPose(model: Model, pose: Pose): void {
  const sk = model.skeleton;
  if (sk) {
    pose.local.set(sk.bindLocal);
    pose.world.set(sk.bindWorld);
    for (let j = 0; j < pose.jointCount; j++) fromTRS(pose.localMatrix, j * 12, pose.local, j * 10);
    for (let i = 0; i < pose.skin.length; i++) pose.skin[i] = i % 12 === 0 || i % 12 === 5 || i % 12 === 10 ? 1 : 0;
    return;
  }
  for (let j = 0; j < pose.jointCount; j++) {
    const o = j * 10;
    pose.local.fill(0, o, o + 10);
    pose.local[o + 6] = 1;
    pose.local[o + 7] = pose.local[o + 8] = pose.local[o + 9] = 1;
  }
  finishPose(model, pose);
}

/**
 * Decodes global frame `frame` into `out` (10 per joint) exactly as iqm-animation-notes.txt says:
 * channel = offset + sample × scale for masked channels, else offset; quaternion normalised.
 * Joints beyond the animation's poses keep the bind pose.
 */
export function decodeFrame(model: Model, frame: number, out: Float32Array): void {
  const anim = model.animation;
  const sk = model.skeleton;
  const jointCount = out.length / 10;
  if (!anim || frame < 0 || frame >= anim.frameCount) {
    if (sk) out.set(sk.bindLocal);
    return;
  }
  const n = Math.min(anim.poseCount, jointCount);
  if (anim.kind === 'channels') decodeChannels(anim, frame, out, n);
  else out.set(anim.trs.subarray(frame * anim.poseCount * 10, frame * anim.poseCount * 10 + n * 10));
  if (sk && n < jointCount) out.set(sk.bindLocal.subarray(n * 10), n * 10);
}

type ChannelFrames = Extract<NonNullable<Model['animation']>, { kind: 'channels' }>;

function decodeChannels(anim: ChannelFrames, frame: number, out: Float32Array, n: number): void {
  const samples = anim.samples, offset = anim.offset, scale = anim.scale, masks = anim.mask, first = anim.firstSample;
  const base = frame * anim.frameChannels;
  for (let j = 0; j < n; j++) {
    const mask = masks[j];
    let s = base + first[j];
    const o = j * 10;
    for (let c = 0; c < 10; c++) {
      let v = offset[o + c];
      if (mask & (1 << c)) v += samples[s++] * scale[o + c];
      out[o + c] = v;
    }
    if (anim.reconstructW) {
      const x = out[o + 3], y = out[o + 4], z = out[o + 5];
      out[o + 6] = -Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z));
    }
    normalizeQuat(out, o + 3);
  }
}

/** The pose between global frames a and b (t in [0, 1]); -1 means the bind pose. */
export function sampleFrames(model: Model, a: number, b: number, t: number, pose: Pose): void {
  if (a < 0) {
    setBindPose(model, pose);
    return;
  }
  const anim = model.animation;
  if (anim && anim.kind === 'channels' && a < anim.frameCount && b >= 0 && b < anim.frameCount) {
    const n = Math.min(anim.poseCount, pose.jointCount);
    blendChannels(anim, a, t > 0 ? b : a, t > 0 ? t : 0, pose, n);
    const sk = model.skeleton;
    if (sk && n < pose.jointCount) {
      pose.local.set(sk.bindLocal.subarray(n * 10), n * 10);
      for (let j = n; j < pose.jointCount; j++) fromTRS(pose.localMatrix, j * 12, pose.local, j * 10);
    }
    composeWorld(model, pose);
    return;
  }
  decodeFrame(model, a, pose.local);
  if (t > 0 && b !== a) {
    decodeFrame(model, b, pose.scratch);
    blendLocal(pose.local, pose.scratch, t, pose.jointCount);
  }
  // DPM at an exact frame: use the stored matrices as they are (shear and all), as DarkPlaces does.
  if (anim && anim.kind === 'matrices' && (t === 0 || a === b) && a < anim.frameCount) {
    const n = Math.min(anim.poseCount, pose.jointCount);
    pose.localMatrix.set(anim.matrices.subarray(a * anim.poseCount * 12, a * anim.poseCount * 12 + n * 12));
    for (let j = n; j < pose.jointCount; j++) fromTRS(pose.localMatrix, j * 12, pose.local, j * 10);
    composeWorld(model, pose);
    return;
  }
  finishPose(model, pose);
}

/**
 * The IQM hot path, fused: per joint, decode frames a and b from the channels (as decodeChannels),
 * lerp t and s, slerp q, and write both pose.local and pose.localMatrix, with no intermediate arrays.
 */
function blendChannels(anim: ChannelFrames, a: number, b: number, t: number, pose: Pose, n: number): void {
  const samples = anim.samples, offset = anim.offset, scale = anim.scale, masks = anim.mask, first = anim.firstSample;
  const local = pose.local, lm = pose.localMatrix;
  const baseA = a * anim.frameChannels, baseB = b * anim.frameChannels;
  const blend = t > 0 && a !== b;
  for (let j = 0; j < n; j++) {
    const mask = masks[j];
    const o = j * 10;
    // Channel c's sample sits at the same index within frames a and b. Unrolled: this is the hot loop.
    let k = first[j];
    let tx = offset[o], txb = tx;
    if (mask & 1) { const sc = scale[o]; tx += samples[baseA + k] * sc; txb += samples[baseB + k] * sc; k++; }
    let ty = offset[o + 1], tyb = ty;
    if (mask & 2) { const sc = scale[o + 1]; ty += samples[baseA + k] * sc; tyb += samples[baseB + k] * sc; k++; }
    let tz = offset[o + 2], tzb = tz;
    if (mask & 4) { const sc = scale[o + 2]; tz += samples[baseA + k] * sc; tzb += samples[baseB + k] * sc; k++; }
    let qx = offset[o + 3], qxb = qx;
    if (mask & 8) { const sc = scale[o + 3]; qx += samples[baseA + k] * sc; qxb += samples[baseB + k] * sc; k++; }
    let qy = offset[o + 4], qyb = qy;
    if (mask & 16) { const sc = scale[o + 4]; qy += samples[baseA + k] * sc; qyb += samples[baseB + k] * sc; k++; }
    let qz = offset[o + 5], qzb = qz;
    if (mask & 32) { const sc = scale[o + 5]; qz += samples[baseA + k] * sc; qzb += samples[baseB + k] * sc; k++; }
    let qw = offset[o + 6], qwb = qw;
    if (mask & 64) { const sc = scale[o + 6]; qw += samples[baseA + k] * sc; qwb += samples[baseB + k] * sc; k++; }
    let sx = offset[o + 7], sxb = sx;
    if (mask & 128) { const sc = scale[o + 7]; sx += samples[baseA + k] * sc; sxb += samples[baseB + k] * sc; k++; }
    let sy = offset[o + 8], syb = sy;
    if (mask & 256) { const sc = scale[o + 8]; sy += samples[baseA + k] * sc; syb += samples[baseB + k] * sc; k++; }
    let sz = offset[o + 9], szb = sz;
    if (mask & 512) { const sc = scale[o + 9]; sz += samples[baseA + k] * sc; szb += samples[baseB + k] * sc; k++; }
    if (anim.reconstructW) {
      qw = -Math.sqrt(Math.max(0, 1 - qx * qx - qy * qy - qz * qz));
      qwb = -Math.sqrt(Math.max(0, 1 - qxb * qxb - qyb * qyb - qzb * qzb));
    }
    // Normalise frame a's quaternion (16-bit quantisation leaves it off unit length).
    let l = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    if (l > 0 && l < Infinity) {
      l = 1 / l;
      qx *= l; qy *= l; qz *= l; qw *= l;
    } else {
      qx = 0; qy = 0; qz = 0; qw = 1;
    }
    if (blend) {
      let bx = qxb, by = qyb, bz = qzb, bw = qwb;
      let m = Math.sqrt(bx * bx + by * by + bz * bz + bw * bw);
      if (m > 0 && m < Infinity) {
        m = 1 / m;
        bx *= m; by *= m; bz *= m; bw *= m;
      } else {
        bx = 0; by = 0; bz = 0; bw = 1;
      }
      let d = qx * bx + qy * by + qz * bz + qw * bw;
      if (d < 0) {
        d = -d;
        bx = -bx; by = -by; bz = -bz; bw = -bw;
      }
      let ka = 1 - t, kb = t;
      if (d < 0.9995) {
        const th = Math.acos(d);
        const inv = 1 / Math.sqrt(1 - d * d);
        ka = Math.sin(ka * th) * inv;
        kb = Math.sin(t * th) * inv;
      }
      qx = qx * ka + bx * kb; qy = qy * ka + by * kb; qz = qz * ka + bz * kb; qw = qw * ka + bw * kb;
      l = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
      l = l > 0 ? 1 / l : 0;
      qx *= l; qy *= l; qz *= l; qw *= l;
      tx += (txb - tx) * t; ty += (tyb - ty) * t; tz += (tzb - tz) * t;
      sx += (sxb - sx) * t; sy += (syb - sy) * t; sz += (szb - sz) * t;
    }
    local[o] = tx; local[o + 1] = ty; local[o + 2] = tz;
    local[o + 3] = qx; local[o + 4] = qy; local[o + 5] = qz; local[o + 6] = qw;
    local[o + 7] = sx; local[o + 8] = sy; local[o + 9] = sz;
    // T·R·S (as fromTRS).
    const xx = qx * qx, yy = qy * qy, zz = qz * qz, xy = qx * qy, xz = qx * qz, yz = qy * qz, wx = qw * qx, wy = qw * qy, wz = qw * qz;
    const r = j * 12;
    lm[r] = (1 - 2 * (yy + zz)) * sx; lm[r + 1] = 2 * (xy - wz) * sy; lm[r + 2] = 2 * (xz + wy) * sz; lm[r + 3] = tx;
    lm[r + 4] = 2 * (xy + wz) * sx; lm[r + 5] = (1 - 2 * (xx + zz)) * sy; lm[r + 6] = 2 * (yz - wx) * sz; lm[r + 7] = ty;
    lm[r + 8] = 2 * (xz - wy) * sx; lm[r + 9] = 2 * (yz + wx) * sy; lm[r + 10] = (1 - 2 * (xx + yy)) * sz; lm[r + 11] = tz;
  }
}

/** In place: a = blend(a, b, t) per joint (lerp translation and scale, slerp rotation on the shorter arc). */
export function blendLocal(a: Float32Array, b: Float32Array, t: number, jointCount: number): void {
  for (let j = 0; j < jointCount; j++) {
    const o = j * 10;
    a[o] += (b[o] - a[o]) * t;
    a[o + 1] += (b[o + 1] - a[o + 1]) * t;
    a[o + 2] += (b[o + 2] - a[o + 2]) * t;
    a[o + 7] += (b[o + 7] - a[o + 7]) * t;
    a[o + 8] += (b[o + 8] - a[o + 8]) * t;
    a[o + 9] += (b[o + 9] - a[o + 9]) * t;
    // Slerp inlined (this loop runs for every joint of every frame; see slerpQuat for the reference).
    const ax = a[o + 3], ay = a[o + 4], az = a[o + 5], aw = a[o + 6];
    let bx = b[o + 3], by = b[o + 4], bz = b[o + 5], bw = b[o + 6];
    let d = ax * bx + ay * by + az * bz + aw * bw;
    if (d < 0) {
      d = -d;
      bx = -bx;
      by = -by;
      bz = -bz;
      bw = -bw;
    }
    let ka = 1 - t, kb = t;
    if (d < 0.9995) {
      const th = Math.acos(d);
      const inv = 1 / Math.sqrt(1 - d * d);
      ka = Math.sin(ka * th) * inv;
      kb = Math.sin(t * th) * inv;
    }
    const x = ax * ka + bx * kb, y = ay * ka + by * kb, z = az * ka + bz * kb, w = aw * ka + bw * kb;
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    const k = l > 0 ? 1 / l : 0;
    a[o + 3] = x * k;
    a[o + 4] = y * k;
    a[o + 5] = z * k;
    a[o + 6] = l > 0 ? w * k : 1;
  }
}

/** local [t q s] -> local matrices -> world -> skin. */
export function finishPose(model: Model, pose: Pose): void {
  for (let j = 0; j < pose.jointCount; j++) fromTRS(pose.localMatrix, j * 12, pose.local, j * 10);
  composeWorld(model, pose);
}

/**
 * world = parent world · local (in dependency order), and skin = world · inverse bind world in the
 * same pass (unless pose.updateSkin is off), so both are valid after every sampleFrames/sampleClip.
 */
export function composeWorld(model: Model, pose: Pose): void {
  const { order, parents, world, localMatrix, skin } = pose;
  const inv = model.skeleton ? model.skeleton.inverseBindWorld : null;
  const doSkin = pose.updateSkin;
  for (let k = 0; k < pose.jointCount; k++) {
    const j = order[k];
    const p = parents[j];
    const o = j * 12;
    if (p >= 0) mul3x4(world, o, world, p * 12, localMatrix, o);
    else for (let i = 0; i < 12; i++) world[o + i] = localMatrix[o + i];
    if (!doSkin) continue;
    if (inv) mul3x4(skin, o, world, o, inv, o);
    else for (let i = 0; i < 12; i++) skin[o + i] = world[o + i];
  }
}

/** Recomputes skin = world · inverse bind world (after editing pose.world by hand). */
export function computeSkin(model: Model, pose: Pose): void {
  const inv = model.skeleton ? model.skeleton.inverseBindWorld : null;
  const { world, skin } = pose;
  if (!inv) {
    skin.set(world);
    return;
  }
  for (let j = 0; j < pose.jointCount; j++) mul3x4(skin, j * 12, world, j * 12, inv, j * 12);
}

/**
 * Where `seconds` falls in a clip. fps 0 uses DEFAULT_FPS. Looping clips wrap (the last frame
 * blends into the first); others hold their last frame. Reverse clips (animation.cfg) play backwards.
 */
export function clipFrame(clip: Clip, seconds: number, out: FrameBlend): FrameBlend {
  const count = Math.max(1, clip.frameCount);
  const fps = clip.fps > 0 ? clip.fps : DEFAULT_FPS;
  let pos = Math.max(0, seconds * fps);
  let i: number, j: number;
  if (clip.loop) {
    pos %= count;
    i = Math.floor(pos);
    j = (i + 1) % count;
  } else {
    if (pos >= count - 1) pos = count - 1;
    i = Math.floor(pos);
    j = Math.min(i + 1, count - 1);
  }
  out.t = pos - i;
  if (clip.reverse) {
    i = count - 1 - i;
    j = count - 1 - j;
  }
  out.a = clip.firstFrame + i;
  out.b = clip.firstFrame + j;
  return out;
}

const blendScratch: FrameBlend = { a: 0, b: 0, t: 0 };

/** The skeletal pose of clip `clipIndex` at `seconds`. */
export function sampleClip(model: Model, clipIndex: number, seconds: number, pose: Pose): void {
  const clip = model.clips[clipIndex];
  if (!clip) {
    setBindPose(model, pose);
    return;
  }
  clipFrame(clip, seconds, blendScratch);
  sampleFrames(model, blendScratch.a, blendScratch.b, blendScratch.t, pose);
}

/**
 * MD3 vertex animation: positions lerped between frames a and b, normals lerped and renormalised,
 * for every mesh, concatenated. Frames past a surface's own frame count clamp to its last frame.
 */
export function morphVertices(model: Model, a: number, b: number, t: number, out: Float32Array, outNormals?: Float32Array): void {
  let base = 0;
  for (const mesh of model.meshes) {
    const m = mesh.morph;
    const n = mesh.vertexCount * 3;
    if (!m || m.frameCount === 0) {
      out.set(mesh.position, base);
      if (outNormals && mesh.normal) outNormals.set(mesh.normal, base);
      base += n;
      continue;
    }
    const last = m.frameCount - 1;
    const fa = Math.min(Math.max(a, 0), last) * n;
    const fb = Math.min(Math.max(b, 0), last) * n;
    const P = m.positions;
    for (let i = 0; i < n; i++) out[base + i] = P[fa + i] + (P[fb + i] - P[fa + i]) * t;
    if (outNormals) {
      const N = m.normals;
      for (let i = 0; i < n; i += 3) {
        const x = N[fa + i] + (N[fb + i] - N[fa + i]) * t;
        const y = N[fa + i + 1] + (N[fb + i + 1] - N[fa + i + 1]) * t;
        const z = N[fa + i + 2] + (N[fb + i + 2] - N[fa + i + 2]) * t;
        const l = Math.sqrt(x * x + y * y + z * z) || 1;
        outNormals[base + i] = x / l;
        outNormals[base + i + 1] = y / l;
        outNormals[base + i + 2] = z / l;
      }
    }
    base += n;
  }
}

/**
 * MD3 tag `tag` between frames a and b into out[o..o+12): origin lerped, axes lerped and
 * re-orthonormalised (Gram-Schmidt, keeping the lerped axis lengths so a scaled tag stays scaled).
 */
export function sampleTag(model: Model, tag: number, a: number, b: number, t: number, out: Float32Array | Float64Array, o = 0): void {
  const tags = model.tags;
  if (!tags || tag < 0 || tag >= tags.names.length || model.frameCount === 0) {
    for (let i = 0; i < 12; i++) out[o + i] = i === 0 || i === 5 || i === 10 ? 1 : 0;
    return;
  }
  const n = tags.names.length;
  const last = model.frameCount - 1;
  const A = (Math.min(Math.max(a, 0), last) * n + tag) * 12;
  const B = (Math.min(Math.max(b, 0), last) * n + tag) * 12;
  const F = tags.frames;
  for (let i = 0; i < 12; i++) out[o + i] = F[A + i] + (F[B + i] - F[A + i]) * t;
  if (t === 0 || A === B) return;
  // Columns are the axes: column c = (out[o+c], out[o+4+c], out[o+8+c]).
  const l0 = columnLength(out, o), l1 = columnLength(out, o + 1), l2 = columnLength(out, o + 2);
  if (!(l0 > 0 && l1 > 0 && l2 > 0)) return;
  let x0 = out[o] / l0, y0 = out[o + 4] / l0, z0 = out[o + 8] / l0;
  let x1 = out[o + 1], y1 = out[o + 5], z1 = out[o + 9];
  const d = x0 * x1 + y0 * y1 + z0 * z1;
  x1 -= d * x0;
  y1 -= d * y0;
  z1 -= d * z0;
  const m1 = Math.sqrt(x1 * x1 + y1 * y1 + z1 * z1) || 1;
  x1 /= m1;
  y1 /= m1;
  z1 /= m1;
  // Third axis: the cross product, on the side the lerped axis was on.
  let x2 = y0 * z1 - z0 * y1, y2 = z0 * x1 - x0 * z1, z2 = x0 * y1 - y0 * x1;
  if (x2 * out[o + 2] + y2 * out[o + 6] + z2 * out[o + 10] < 0) {
    x2 = -x2;
    y2 = -y2;
    z2 = -z2;
  }
  x0 *= l0; y0 *= l0; z0 *= l0;
  x1 *= l1; y1 *= l1; z1 *= l1;
  x2 *= l2; y2 *= l2; z2 *= l2;
  out[o] = x0; out[o + 4] = y0; out[o + 8] = z0;
  out[o + 1] = x1; out[o + 5] = y1; out[o + 9] = z1;
  out[o + 2] = x2; out[o + 6] = y2; out[o + 10] = z2;
}

function columnLength(m: Float32Array | Float64Array, o: number): number {
  return Math.sqrt(m[o] * m[o] + m[o + 4] * m[o + 4] + m[o + 8] * m[o + 8]);
}

/** Inverse of a pose's world matrices (for tools that need model-to-joint transforms). */
export function invertWorld(pose: Pose, out: Float32Array): void {
  for (let j = 0; j < pose.jointCount; j++) invert3x4(out, j * 12, pose.world, j * 12);
}

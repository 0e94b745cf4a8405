// Stage: channel quantisation (IQE-SEMANTICS.md §4.11), every step in float32 (Math.fround).
import { newArray } from '../pages';
import { POSE_STRIDE } from '../math/pose';

const f32 = Math.fround;

export interface Channels {
  /** Per pose: channel mask, and 10 offsets and 10 scales (float32 values). */
  mask: Uint32Array;
  offset: Float64Array;
  scale: Float64Array;
  channelCount: number;
  /** Quantised values, frame after frame, padded to an even count. */
  data: Uint16Array;
}

/**
 * `frames` are indices into the file's frame list; each frame has `poseCount` poses starting at
 * pose framePoseStart[frame] in framePoses, `stride` values each (POSE_STRIDE, or
 * UNSCALED_STRIDE: scale 1).
 */
export function quantiseChannels(framePoses: Float64Array, stride: number, framePoseStart: Int32Array, frames: Int32Array, poseCount: number): Channels {
  const mask = new Uint32Array(poseCount);
  const offset = new Float64Array(10 * poseCount);
  const scale = new Float64Array(10 * poseCount);
  let channelCount = 0;
  if (frames.length > 0) {
    const high = new Float64Array(10 * poseCount);
    channelRanges(framePoses, stride, framePoseStart, frames, offset, high);
    const threshold = f32(1e-10);
    for (let p = 0; p < poseCount; p++) {
      for (let k = 0; k < 10; k++) {
        const c = 10 * p + k;
        const range = f32(high[c] - offset[c]);
        if (range >= threshold) {
          scale[c] = f32(range / 65535);
          mask[p] |= 1 << k;
          channelCount++;
        }
      }
    }
  }
  const total = channelCount * frames.length;
  const data = newArray(Uint16Array, total + (total & 1));
  quantise(framePoses, stride, framePoseStart, frames, mask, offset, scale, data);
  return { mask, offset, scale, channelCount, data };
}

// One function per loop, so that each is optimised on its own while it runs.

/**
 * Least and largest float32 value of each channel over the frames (into low and high, ten per
 * pose), frame after frame as the values lie in memory; each channel sees its frames in order.
 * A frame's values become float32 in one typed-array copy (the same rounding as Math.fround)
 * rather than one call per value, while the frame lies inside framePoses; a pose without its
 * scale has scale 1.
 */
function channelRanges(framePoses: Float64Array, stride: number, framePoseStart: Int32Array, frames: Int32Array, low: Float64Array, high: Float64Array): void {
  const limit = f32(1e16);
  const poseCount = low.length / POSE_STRIDE;
  const values = stride * poseCount;
  low.fill(limit);
  high.fill(-limit);
  const frame = new Float32Array(values);
  for (let f = 0; f < frames.length; f++) {
    const base = framePoseStart[frames[f]] * stride;
    if (base + values <= framePoses.length) {
      frame.set(framePoses.subarray(base, base + values));
    } else {
      for (let i = 0; i < values; i++) frame[i] = framePoses[base + i];
    }
    for (let p = 0; p < poseCount; p++) {
      for (let k = 0; k < POSE_STRIDE; k++) {
        const v = k < stride ? frame[stride * p + k] : 1;
        const c = POSE_STRIDE * p + k;
        if (v < low[c]) low[c] = v;
        if (v > high[c]) high[c] = v;
      }
    }
  }
}

/** The quantised values of the masked channels, frame after frame. */
function quantise(framePoses: Float64Array, stride: number, framePoseStart: Int32Array, frames: Int32Array, mask: Uint32Array, offset: Float64Array, scale: Float64Array, data: Uint16Array): void {
  const poseCount = mask.length;
  let o = 0;
  for (let f = 0; f < frames.length; f++) {
    const base = framePoseStart[frames[f]];
    for (let p = 0; p < poseCount; p++) {
      const m = mask[p];
      if (m === 0) continue;
      for (let k = 0; k < 10; k++) {
        if (!(m & (1 << k))) continue;
        const v = k < stride ? f32(framePoses[(base + p) * stride + k]) : 1;
        data[o++] = Math.trunc(f32(0.5 + f32(f32(v - offset[10 * p + k]) / scale[10 * p + k])));
      }
    }
  }
}
